# shellcheck shell=bash
# A one-node Slurm cluster of the self-test's own, for the suites that need
# one (slurm.sh: grading through Slurm; sched.sh: make check SCHED=slurm).
# Debian's slurmctld, slurmd and munge, as root, in a private folder: its
# own slurm.conf, ports, state, munge key and socket; no systemd.
#
#   . maintainer/selftest/slurm_cluster.sh
#   slurm_cluster_up SUITE || exit 0     (prints its ok/skip/FAILED line)
#
# exports SLURM_CONF, sets CLUSTER, and takes the cluster
# down at exit whatever happens (trap). Needs lib.sh's pass/fail/skip.

# The reasons it cannot run here, if any: not root (slurmd runs the tasks,
# the sandbox its uids), the packages, the sandbox.
slurm_cluster_missing() {
    if [ "$(id -u)" != 0 ]; then
        echo "not root, so no Slurm cluster is started here (CI runs as root)"
        return
    fi
    local cmd probe
    for cmd in slurmctld slurmd sbatch srun squeue scancel munged; do
        command -v "$cmd" >/dev/null ||
            { echo "no $cmd here (Debian's slurmctld, slurmd, slurm-client and munge: common/mk/debian-packages.txt)"; return; }
    done
    probe=$(instructor/sandbox/confine --probe 2>&1) || echo "the sandbox cannot run here, so no submission is graded: $probe"
}

SLURM_PIDS=()
slurm_cluster_down() {
    if [ -e "$CLUSTER/slurm.conf" ] && [ -n "${SLURM_PIDS[*]}" ]; then
        # Jobs first (their slurmstepd outlive slurmd), then the daemons.
        scancel --partition=selftest >/dev/null 2>&1
        for _ in $(seq 30); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 1
        done
    fi
    local p
    for p in "${SLURM_PIDS[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${SLURM_PIDS[@]}"; do
        wait "$p" 2>/dev/null
    done
    rm -rf "$CLUSTER"
}

# slurm_cluster_up SUITE [LOGS]: the cluster, up and idle; 1 (with a skip
# or FAILED line) if it cannot be. LOGS gets the daemons' logs on failure.
slurm_cluster_up() {
    local suite=$1 logs=${2:-} missing t0 port
    t0=$(date +%s)
    missing=$(slurm_cluster_missing)
    if [ -n "$missing" ]; then
        skip "$suite: $missing"
        return 1
    fi
    # In /tmp, not under the kit: munge's socket path must stay short (108
    # bytes at most), and munge checks the folders of its key and socket.
    CLUSTER=$(mktemp -d /tmp/kit-slurm.XXXXXX)
    chmod 700 "$CLUSTER"
    trap slurm_cluster_down EXIT
    trap 'exit 1' INT TERM
    # Two free ports in a range of their own (a system's Slurm uses 6817-6818).
    port=$((20000 + RANDOM % 20000))
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || (exec 3<>"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null; do
        port=$((port + 2))
    done
    NODE=$(hostname -s)
    mkdir -p "$CLUSTER/state" "$CLUSTER/spool" "$CLUSTER/log"
    head -c 1024 /dev/urandom >"$CLUSTER/munge.key"
    chmod 400 "$CLUSTER/munge.key"
    # Slurm 22.05 as root on one node, no cgroups: processes tracked through
    # their parents (proctrack/linuxproc), no task binding, cores as the
    # consumable resource. auth/munge with this cluster's own munged.
    cat >"$CLUSTER/slurm.conf" <<EOF
ClusterName=kitselftest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$CLUSTER/munge.sock
CredType=cred/munge
StateSaveLocation=$CLUSTER/state
SlurmdSpoolDir=$CLUSTER/spool
SlurmctldPidFile=$CLUSTER/slurmctld.pid
SlurmdPidFile=$CLUSTER/slurmd.pid
SlurmctldLogFile=$CLUSTER/log/slurmctld.log
SlurmdLogFile=$CLUSTER/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
ReturnToService=2
KillWait=5
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=selftest Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$CLUSTER/slurm.conf
    munged --foreground --force --socket="$CLUSTER/munge.sock" --key-file="$CLUSTER/munge.key" \
        --pid-file="$CLUSTER/munged.pid" --log-file="$CLUSTER/log/munged.log" --seed-file="$CLUSTER/munged.seed" \
        >"$CLUSTER/log/munged.out" 2>&1 &
    SLURM_PIDS+=($!)
    for _ in $(seq 20); do [ -S "$CLUSTER/munge.sock" ] && break; sleep 0.5; done
    slurmctld -D -i -f "$SLURM_CONF" >"$CLUSTER/log/slurmctld.out" 2>&1 &
    SLURM_PIDS+=($!)
    slurmd -D -N "$NODE" -f "$SLURM_CONF" >"$CLUSTER/log/slurmd.out" 2>&1 &
    SLURM_PIDS+=($!)
    for _ in $(seq 60); do
        [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
        sleep 1
    done
    if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then
        pass "$suite: a one-node Slurm cluster ($(slurmctld -V), munge, $(nproc) CPUs, ports $port-$((port + 1))) is up in $(($(date +%s) - t0)) s"
    else
        fail "$suite: the Slurm cluster did not come up (node state '$(sinfo -h -o %T 2>&1)')"
        [ -n "$logs" ] && mkdir -p "$logs" && cp "$CLUSTER"/log/* "$logs/" 2>/dev/null
        tail -n 3 "$CLUSTER"/log/*.log "$CLUSTER"/log/*.out
        return 1
    fi
}
