# shellcheck shell=bash
# Shared by the self-test's scripts: counters and the closing line.
# Each check prints one line: "ok", "FAILED" or "skip", then what it checked.
SELFTEST_PASSED=0
SELFTEST_FAILED=0
SELFTEST_SKIPPED=0

pass() { echo "ok      $*"; SELFTEST_PASSED=$((SELFTEST_PASSED + 1)); }
fail() { echo "FAILED  $*"; SELFTEST_FAILED=$((SELFTEST_FAILED + 1)); }
skip() { echo "skip    $*"; SELFTEST_SKIPPED=$((SELFTEST_SKIPPED + 1)); }

# below A B: is the number A strictly less than B?
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# fresh_dir DIR [SUB...]: DIR emptied, with empty subfolders SUB (a suite's
# scratch folder, remade each run).
fresh_dir() {
    local dir=$1
    shift
    rm -rf "$dir" && mkdir -p "$dir" "${@/#/$dir/}"
}

# suite_start NAME [SUB...]: a suite's scratch folder OUT (absolute:
# build/selftest/NAME, emptied, with empty subfolders SUB) and its start
# time, for suite_seconds.
suite_start() {
    OUT=$(pwd)/build/selftest/$1
    shift
    fresh_dir "$OUT" "$@"
    SUITE_T0=$(date +%s)
}

# suite_seconds: the seconds since suite_start.
suite_seconds() { echo $(($(date +%s) - SUITE_T0)); }

# sandbox_runs WHAT: whether the grading sandbox runs here (its probe's
# words in SANDBOX_PROBE); if not, a skip line "WHAT: the probe's reason",
# and the suite ends (exit 0) by its caller.
sandbox_runs() {
    SANDBOX_PROBE=$(instructor/sandbox/confine --probe 2>&1) && return 0
    skip "$1: $SANDBOX_PROBE"
    return 1
}

# skipped_note CHECK_LOG: what make check's score line says of the points
# skipped ("; 26 points need a GPU (here: ...)"; the way to a GPU left out),
# or nothing
skipped_note() { sed -n '/^score: /{s/^score: [^;]*//;s/; on a cluster: [^;]*//;p;q}' "$1"; }

# The kit's one count of GPUs (KIT_GPU_COUNT, else nvidia-smi's list).
. common/bench/bench_lib.sh
selftest_gpu_count() { bench_gpu_count; }

# One GPU architecture for every build of the self-test (the GPU seen, else
# the newest of course.conf's GPU_ARCHS; common/mk/cuda_arch.mk), unless the
# caller names one: it builds every lab dozens of times, and a build for the
# course's whole list would make each nvcc run several times longer (CI,
# two cores, would take hours). That every .cu compiles for each
# architecture of the list is the one suite's that compiles them all.
# shellcheck disable=SC2016 # $(...) in --eval is make's, not the shell's
if [ -z "${CUDA_ARCH:-}" ]; then
    CUDA_ARCH=$(make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo $(CUDA_ARCH_SELFTEST)' print 2>/dev/null)
    export CUDA_ARCH
fi
# Every compile outside the grading sandbox through ccache, where it is
# installed (common/mk/config.mk's COMPILER_LAUNCHER): make test builds each
# lab in a dozen folders (the labs' runs, the student copies, the grading's
# prepared copies, the benchmarks' builds), mostly from the same files. The
# folder a compile ran in is left out of its key (CCACHE_NOHASHDIR), so
# that the copies share; its objects are kept in build/ccache. (The
# grading sandbox's builds never use it: its environment is its own.)
if [ -z "${COMPILER_LAUNCHER+set}" ] && command -v ccache >/dev/null; then
    export COMPILER_LAUNCHER=ccache CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CCACHE_NOHASHDIR=true
fi
# The same for nvcc run outside make: its flags (-gencode ...) and what they
# build, as a build's last line says it.
# shellcheck disable=SC2016
KIT_CUDA_GENCODE=$(make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo "$(CUDA_GENCODE)|$(CUDA_BUILT)"' print 2>/dev/null)
KIT_CUDA_BUILT=${KIT_CUDA_GENCODE#*|} KIT_CUDA_GENCODE=${KIT_CUDA_GENCODE%%|*}
export KIT_CUDA_GENCODE KIT_CUDA_BUILT

selftest_nvcc() {
    local c
    for c in "$(command -v nvcc 2>/dev/null)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}

# selftest_nvcc_compile FILE OBJECT [FLAG...]: FILE compiled with nvcc as the
# kit's builds compile CUDA (for CUDA_ARCH, C++17, common/ on the include path).
selftest_nvcc_compile() {
    local file=$1 obj=$2 gencode
    shift 2
    read -ra gencode <<<"$KIT_CUDA_GENCODE"
    "$(selftest_nvcc)" "${gencode[@]}" -std=c++17 -Icommon "$@" -c "$file" -o "$obj"
}

# count_suite_lines LOG RC SUITE: prints an extra suite's output (ok/FAILED/
# skip lines and what else it said) and adds its lines to the counts; a
# suite that exited non-zero without saying why counts as one failure.
count_suite_lines() {
    local log=$1 rc=$2 p f s
    cat "$log"
    p=$(grep -c '^ok ' "$log"); f=$(grep -c '^FAILED ' "$log"); s=$(grep -c '^skip ' "$log")
    SELFTEST_PASSED=$((SELFTEST_PASSED + p))
    SELFTEST_FAILED=$((SELFTEST_FAILED + f))
    SELFTEST_SKIPPED=$((SELFTEST_SKIPPED + s))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        fail "$3 exited with status $rc"
    fi
}

# page_shot PAGE SHOT WIDTHxHEIGHT LOG: headless Chromium draws the HTML
# page PAGE into the PNG SHOT (the suites that look at a page in a browser:
# classpage, standing, demo); its output goes to LOG. The caller has
# checked that chromium is there, and judges the picture itself.
page_shot() {
    # --no-sandbox: Chromium's own sandbox refuses to run as root.
    timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="${3/x/,}" \
        --screenshot="$2" "file://$(realpath "$1")" >"$4" 2>&1
}

summary() {
    local line="$SELFTEST_PASSED passed, $SELFTEST_FAILED failed"
    [ "$SELFTEST_SKIPPED" -gt 0 ] && line="$line, $SELFTEST_SKIPPED skipped"
    echo "$line"
    [ "$SELFTEST_FAILED" = 0 ]
}

# ---- every .cu for each GPU architecture (cuda_archs.sh, cuda12_archs.sh) ----

# course_gpu_archs: the course's list of GPU architectures (course.conf's
# GPU_ARCHS, or KIT_COURSE's; its last such line), else the kit's default,
# which is what a build without a GPU targets.
course_gpu_archs() {
    local archs
    archs=$(sed -n 's/#.*//; s/^[[:space:]]*GPU_ARCHS[[:space:]]*=//p' "${KIT_COURSE:-course.conf}" 2>/dev/null |
        tail -n 1 | tr -d "\"'")
    # shellcheck disable=SC2086 # split on purpose: one space between names
    echo ${archs:-sm_75 sm_80 sm_86 sm_89 sm_90}
}

# cu_sources: the GPU labs' .cu files (skeleton, solution and reference) and
# the kit's (autograder/, maintainer/, common/), one a line, sorted; with
# SELFTEST_LABS, only those labs' and the files of no lab.
cu_sources() {
    local f lab
    find labs autograder maintainer common -name '*.cu' 2>/dev/null | LC_ALL=C sort | while read -r f; do
        lab=$(echo "$f" | sed -n 's|.*/lab\([0-9][0-9]*\)[-/_].*|\1|p')
        if [ -n "$lab" ]; then
            if [ "$lab" -lt 3 ] || [ "$lab" -gt 7 ]; then continue; fi
            [ -z "${SELFTEST_LABS:-}" ] || [[ " $SELFTEST_LABS " == *" $lab "* ]] || continue
        fi
        echo "$f"
    done
}

# cu_flags FILE: the nvcc flags its build gives it, without the GPU
# architectures: its lab's KIT_NVCCFLAGS (NVCC_OPT, the lab's and common/
# include folders) for a file in or about lab N (labs/labN-*, its solution/,
# maintainer/'s labN_*), else config.mk's NVCCFLAGS and -Icommon.
cu_flags() {
    local lab words=() w skip=0 kept=()
    lab=$(echo "$1" | sed -n 's|.*/lab\([0-9][0-9]*\)[-/_].*|\1|p')
    # shellcheck disable=SC2016 # $(KIT_NVCCFLAGS) is make's
    if [ -n "$lab" ]; then
        read -ra words <<<"$(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" CUDA_ARCH=sm_90 \
            --eval 'cu-flags: ; @echo "CU_FLAGS $(KIT_NVCCFLAGS)"' cu-flags 2>/dev/null | sed -n 's/^CU_FLAGS //p')"
    else
        read -ra words <<<"$(make -s --no-print-directory -f common/mk/config.mk CUDA_ARCH=sm_90 \
            --eval 'cu-flags: ; @echo "CU_FLAGS $(NVCCFLAGS) -Icommon"' cu-flags 2>/dev/null | sed -n 's/^CU_FLAGS //p')"
    fi
    for w in "${words[@]}"; do
        if [ "$skip" = 1 ]; then skip=0; continue; fi
        case $w in
        -gencode | --generate-code | -arch | --gpu-architecture | -code | --gpu-code) skip=1 ;;
        -arch=* | --gpu-architecture=* | -gencode=* | --generate-code=* | -code=* | --gpu-code=*) ;;
        *) kept+=("$w") ;;
        esac
    done
    echo "${kept[*]}"
}

# cu_compile_one NVCC FLAGS_FILE WORK FILE ARCH...: FILE compiled (-c) with
# its flags (FLAGS_FILE: "FILE<TAB>FLAGS" lines) for every ARCH in one nvcc
# run, which parses the file once; where that fails, once per ARCH, to name
# the ones that fail. Leaves WORK/ID.rc (0 or the failing archs), ID.log
# (each failing arch's output, after a line "== ARCH") and ID.secs.
cu_compile_one() {
    local nvcc=$1 flagsfile=$2 work=$3 file=$4 id t0 a flags gencode=() failing=()
    shift 4
    id=${file//\//_}
    t0=$(date +%s)
    flags=$(awk -F '\t' -v f="$file" '$1 == f { print $2 }' "$flagsfile")
    for a in "$@"; do gencode+=(-gencode "arch=compute_${a#sm_},code=$a"); done
    # shellcheck disable=SC2086 # the flags are words
    if timeout 900 "$nvcc" $flags "${gencode[@]}" -c "$file" -o "$work/$id.o" >"$work/$id.all.log" 2>&1; then
        echo 0 >"$work/$id.rc"
    else
        : >"$work/$id.log"
        for a in "$@"; do
            # shellcheck disable=SC2086
            timeout 900 "$nvcc" $flags -arch="$a" -c "$file" -o "$work/$id.o" >"$work/$id.one" 2>&1 && continue
            failing+=("$a")
            { echo "== $a"; cat "$work/$id.one"; } >>"$work/$id.log"
        done
        rm -f "$work/$id.one"
        # every arch alone compiles: the one run of all of them is what failed
        [ ${#failing[@]} = 0 ] && { echo "== all"; cat "$work/$id.all.log"; } >>"$work/$id.log" && failing=(all)
        echo "${failing[*]}" >"$work/$id.rc"
    fi
    rm -f "$work/$id.o"
    echo $(($(date +%s) - t0)) >"$work/$id.secs"
}

# cu_arch_matrix TOOLKIT NVCC WORK JOBS ARCH...: every cu_sources file
# compiled for each ARCH (a measured/ tool for the newest only) by NVCC
# (with CU_EXTRA_FLAGS after its own), JOBS files at once; one ok line per
# file that compiles for all, one FAILED line per file and ARCH that does
# not (with nvcc's first error), and a closing line with the time taken.
cu_arch_matrix() {
    local toolkit=$1 nvcc=$2 work=$3 jobs=$4 f id rc a t0 files=() first
    shift 4
    t0=$(date +%s)
    mkdir -p "$work"
    mapfile -t files < <(cu_sources)
    for f in "${files[@]}"; do printf '%s\t%s\n' "$f" "$(cu_flags "$f") ${CU_EXTRA_FLAGS:-}"; done >"$work/flags.tsv"
    export -f cu_compile_one
    # A lab's measured/ tools run on the kit's GPU host only, never in a
    # course's build: they compile for one architecture, the list's newest.
    local newest every_arch=("$@")
    newest=$(printf '%s\n' "$@" | sort -t_ -k2 -n | tail -n 1)
    printf '%s\n' "${files[@]}" | grep -v '/measured/' | xargs -r -P "$jobs" -I '{}' bash -c 'cu_compile_one "$@"' _ \
        "$nvcc" "$work/flags.tsv" "$work" '{}' "$@"
    printf '%s\n' "${files[@]}" | grep '/measured/' | xargs -r -P "$jobs" -I '{}' bash -c 'cu_compile_one "$@"' _ \
        "$nvcc" "$work/flags.tsv" "$work" '{}' "$newest"
    local ok=0 failed=0
    for f in "${files[@]}"; do
        id=${f//\//_}
        set -- "${every_arch[@]}"
        [[ $f == */measured/* ]] && set -- "$newest"
        rc=$(cat "$work/$id.rc" 2>/dev/null || echo "$*")
        if [ "$rc" = 0 ]; then
            pass "$toolkit compiles $f for $* ($(cat "$work/$id.secs") s)"
            ok=$((ok + $#))
            continue
        fi
        for a in $rc; do
            # the first line that says error, else the last line said
            first=$(awk -v a="$a" '$0 == "== " a { on = 1; next } /^== / { on = 0 } on && /[Ee]rror/ { print; exit }' "$work/$id.log")
            [ -n "$first" ] || first=$(awk -v a="$a" '$0 == "== " a { on = 1; next } /^== / { on = 0 } on { l = $0 } END { print l }' "$work/$id.log")
            fail "$toolkit does not compile $f for $a: $(echo "$first" | cut -c 1-240) (see $work/$id.log)"
            failed=$((failed + 1))
        done
        ok=$((ok + $# - $(echo "$rc" | wc -w)))
    done
    echo "        $toolkit: ${#files[@]} files x ${#every_arch[@]} architectures (${every_arch[*]}; measured/ tools $newest only): $ok compiled, $failed failed, in $(($(date +%s) - t0)) s, $jobs at once"
}

# lab_mutants LAB: the folder of lab LAB's mutants (labs/labN-*/mutants).
lab_mutants() {
    local d
    for d in labs/lab"$1"-*/mutants; do echo "$d"; done
}

# A lab's facts for the self-test are in its own folder,
# labs/labN-name/mutants/selftest.conf (the maintainers': mutants/ is left
# out of the student copy), one line a key, KEY FIELDS..., '#' starting a
# comment. The keys, each at most once:
#   bench_refusal WHERE MUTANT PATTERN: bench_refusal.sh runs the lab's
#     bench.sh with the reference, the skeleton and the mutant MUTANT (a
#     patch of the folder); WHERE: cpu (it runs anywhere) or gpu (only on a
#     host with a GPU, elsewhere it must refuse at once); PATTERN, the rest
#     of the line: a pattern of the report line of the variant the mutant
#     breaks. CPU/GPU as MUTANT names two: the first where the benchmark
#     runs its CPU backend (no GPU here), the second where it runs its CUDA
#     one, whose kernel the first does not touch.
SELFTEST_CONF_KEYS="bench_refusal"

# lab_selftest_conf LAB KEY: prints the fields after KEY on lab LAB's
# selftest.conf line of that key. Status 1: the lab has no such line (or no
# file); 2: the file is malformed (an unknown key, a key twice), said on
# stderr with the file and line.
lab_selftest_conf() {
    local f line key rest out n=0 found=1
    f=$(lab_mutants "$1")/selftest.conf
    [ -f "$f" ] || return 1
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        read -r key rest <<<"${line%%#*}"
        [ -n "$key" ] || continue
        if [[ " $SELFTEST_CONF_KEYS " != *" $key "* ]]; then
            echo "$f:$n: unknown key '$key' (the keys: $SELFTEST_CONF_KEYS)" >&2
            return 2
        fi
        [ "$key" = "$2" ] || continue
        if [ "$found" = 0 ]; then
            echo "$f:$n: a second '$key' line" >&2
            return 2
        fi
        out=$rest found=0
    done <"$f"
    [ "$found" = 0 ] && printf '%s\n' "$out"
    return "$found"
}

# hand_in LAB IMPL DIR: lab LAB's student files from IMPL (reference: the
# lab's solution, a file it lacks from the skeleton; skeleton: the
# skeleton's) into DIR, as a student hands them in.
hand_in() {
    local lab=$1 impl=$2 dir=$3 ref skel f files
    ref=$(echo labs/lab"$lab"-*/solution) skel=$(echo labs/lab"$lab"-*)
    mkdir -p "$dir"
    # shellcheck disable=SC2016 # $(STUDENT_FILES) is make's, expanded by make
    read -ra files < <(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" \
        --eval 'print-files: ; @echo $(STUDENT_FILES)' print-files)
    for f in "${files[@]}"; do
        if [ "$impl" = reference ] && [ -e "$ref/$f" ]; then cp "$ref/$f" "$dir/"; else cp "$skel/$f" "$dir/"; fi
    done
}

# The checks on a graded class: maintainer/selftest/grading_labs_checks.py.
grading_labs_checks() {
    PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 maintainer/selftest/grading_labs_checks.py "$@"
}
