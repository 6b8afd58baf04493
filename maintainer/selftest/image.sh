#!/usr/bin/env bash
# Self-test of `make image`: the image of the student's
# environment, for clusters that give no root and are not Debian.
#   - make image builds the OCI archive from Debian's registry: the
#     student's packages of common/mk/debian-packages.txt are in it, the
#     instructors' and maintainers' are not; umoci unpacks it (its digests hold);
#   - lab 1 built in the image, and its check through make check's
#     scheduler route with KIT_IMAGE set (autograder/sched/submit, a stand-in
#     srun that runs its command, as srun does on the node): the reference
#     scores full marks, the skeleton 0, as on the host, and the run says it
#     was in the image (/etc/kit-image, read inside);
#   - a missing image is one line and a non-zero status.
# The runtime: Podman rootless where Podman is and this is not root, else
# (CI's fresh root runs as root, without Podman) the image's root
# filesystem under bubblewrap; the first line says which.
# Needs Debian's mirror and root or a subuid range (a skip line without
# them) and about 4 GB in build/;
# the image and its unpacked root are removed at the end.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

suite_start image bin
MIRROR=${IMAGE_MIRROR:-http://deb.debian.org/debian}
if ! python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/dists/bookworm/InRelease", timeout=30)' "$MIRROR" 2>/dev/null; then
    skip "image: Debian's mirror ($MIRROR) cannot be reached from here: no image built"
    exit 0
fi
if [ "$(id -u)" != 0 ] && ! grep -q "^$(id -un):" /etc/subuid 2>/dev/null; then
    skip "image: make image needs root, or a range of user ids in /etc/subuid for mmdebstrap's unshare mode ($(id -un) has none)"
    exit 0
fi
free_mb=$(df -Pm "$OUT" | awk 'NR == 2 { print $4 }')
if [ "$free_mb" -lt 4096 ]; then
    fail "image: $free_mb MB free under $OUT; building and unpacking the image takes about 4 GB"
    exit 0
fi
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() { rm -rf --one-file-system "$OUT/image/kit.oci.tar" "$OUT/layout" "$OUT/bundle"; } # (its package list stays)
trap cleanup EXIT

# ---- the image ----
t0=$(date +%s)
make --no-print-directory image IMAGE_OUT="$OUT/image" >"$OUT/build.log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))
archive=$OUT/image/kit.oci.tar
if [ "$rc" != 0 ] || [ ! -s "$archive" ]; then
    fail "image: make image failed (status $rc, see $OUT/build.log)"
    tail -n 5 "$OUT/build.log"
    exit 0
fi
pass "image: make image made an OCI archive of $(du -m "$archive" | cut -f1) MB in $secs s ($(grep -m 1 '^kit image:' "$OUT/build.log"))"

# The archive is a valid OCI image: umoci checks each blob's digest.
mkdir -p "$OUT/layout"
rootless=()
[ "$(id -u)" = 0 ] || rootless=(--rootless)
if tar -xf "$archive" -C "$OUT/layout" && umoci unpack "${rootless[@]}" --image "$OUT/layout:kit" "$OUT/bundle" >"$OUT/unpack.log" 2>&1 &&
    [ -x "$OUT/bundle/rootfs/usr/bin/make" ]; then
    pass "image: umoci unpacks it (manifest, config and layer digests hold)"
else
    fail "image: umoci cannot unpack $archive (see $OUT/unpack.log)"
    exit 0
fi

# What it holds: each student package, and none of the instructors' or
# maintainers' but as a dependency of one (apt-mark inside: not asked for; gnuplot's
# fonts, say).
mapfile -t wanted < <(common/mk/deps list student)
mapfile -t unwanted < <(common/mk/deps only instructor maintainer)
KIT_IMAGE=$OUT/bundle/rootfs KIT_IMAGE_RUNTIME=bwrap autograder/sched/in_image apt-mark showmanual >"$OUT/asked" 2>"$OUT/asked.log"
missing=() asked=() deps=()
for p in "${wanted[@]}"; do grep -q "^$p " "$OUT/image/kit.packages" || missing+=("$p"); done
for p in "${unwanted[@]}"; do
    grep -qx "$p" "$OUT/asked" && asked+=("$p")
    grep -q "^$p " "$OUT/image/kit.packages" && deps+=("$p")
done
[ "${#wanted[@]}" -gt 0 ] && [ -s "$OUT/asked" ] && [ "${#missing[@]}" = 0 ] && [ "${#asked[@]}" = 0 ] &&
    pass "image: it holds the ${#wanted[@]} student packages of common/mk/debian-packages.txt, and of the ${#unwanted[@]} instructors' and maintainers' only dependencies of those (${deps[*]:-none})" ||
    fail "image: its packages (see $OUT/image/kit.packages, $OUT/asked): missing ${missing[*]:-none}; asked for though not the students': ${asked[*]:-none}"

# ---- lab 1 in it ----
if command -v podman >/dev/null && [ "$(id -u)" != 0 ]; then
    export KIT_IMAGE_RUNTIME=podman
    KIT_IMAGE=$(podman load -i "$archive" 2>"$OUT/podman-load.log" | sed -n 's/^Loaded image[^:]*: *//p' | tail -n 1)
    export KIT_IMAGE
    echo "image: the runtime is Podman, rootless (image $KIT_IMAGE)"
else
    export KIT_IMAGE_RUNTIME=bwrap KIT_IMAGE=$OUT/bundle/rootfs
    echo "image: the runtime is bubblewrap over the image's root filesystem ($([ "$(id -u)" = 0 ] && echo "running as root" || echo "no Podman here"))"
fi
cat >"$OUT/bin/srun" <<'STANDIN'
#!/usr/bin/env bash
# srun as autograder/sched/submit calls it, for the self-test: its options,
# then "--" and the command, run here as srun runs it on the node.
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
exec "$@"
STANDIN
chmod +x "$OUT/bin/srun"

# The report's lines: a run's test lines and its score.
report() { grep -E '^(  [A-Z]+ |score: |[0-9]+%: Checks)' "$1"; }
for impl in reference skeleton; do
    BUILD=(BUILD="$OUT/lab1-$impl" KIT_BUILD="$OUT/kit1")
    if ! autograder/sched/in_image make --no-print-directory -f common/mk/lab.mk LAB=1 IMPL="$impl" "${BUILD[@]}" all >"$OUT/$impl-build.log" 2>&1; then
        fail "image: lab 1's $impl does not build in the image (see $OUT/$impl-build.log)"
        continue
    fi
    PATH=$OUT/bin:$PATH autograder/sched/submit slurm check 1 "${BUILD[@]}" >"$OUT/$impl-check.log" 2>&1
    rc=$?
    # the same build, checked on the host (make deps: the same packages)
    env -u KIT_IMAGE make --no-print-directory -f common/mk/lab.mk LAB=1 "${BUILD[@]}" check >"$OUT/$impl-host.log" 2>&1
    host_rc=$?
    score=$(sed -n 's/^score: \([0-9.]*\/[0-9.]*\).*/\1/p' "$OUT/$impl-check.log" | tail -n 1)
    case $impl in
    reference) want_rc=0 want_score="${score#*/}/${score#*/}" ;;
    skeleton) want_rc=nonzero want_score="0/${score#*/}" ;;
    esac
    said=$(grep -c '^in the image: kit image: ' "$OUT/$impl-check.log")
    if [ "$said" != 1 ]; then
        # once: the job says it; the GPU count's probe before it is --quiet
        fail "image: lab 1's $impl check said $said times that it ran in the image, not once (see $OUT/$impl-check.log)"
    elif [ -z "$score" ] || [ "$score" != "$want_score" ] || { [ "$want_rc" = 0 ] && [ "$rc" != 0 ]; } || { [ "$want_rc" = nonzero ] && [ "$rc" = 0 ]; }; then
        fail "image: lab 1's $impl in the image scored ${score:-nothing} (status $rc), not $want_score (see $OUT/$impl-check.log)"
    elif [ "$(report "$OUT/$impl-check.log")" != "$(report "$OUT/$impl-host.log")" ] || [ "$rc" != "$host_rc" ]; then
        fail "image: lab 1's $impl: the image's report (status $rc) differs from the host's (status $host_rc): see $OUT/$impl-check.log and $OUT/$impl-host.log"
    else
        pass "image: make check SCHED=slurm with KIT_IMAGE: lab 1's $impl scores $score in the image (status $rc), as on the host, and says so once"
    fi
done
[ -s "$OUT/reference-check.log" ] && sed -n '/^in the image:/,$p' "$OUT/reference-check.log" | grep -E '^(in the image|lab 1|score|[0-9]+%)'

# ---- a wrong image: one line ----
KIT_IMAGE=$OUT/no-such-image autograder/sched/in_image true >"$OUT/noimage.log" 2>&1
rc=$?
[ "$rc" != 0 ] && [ "$(wc -l <"$OUT/noimage.log")" = 1 ] &&
    pass "image: a missing image, one line: $(cat "$OUT/noimage.log")" ||
    fail "image: a missing image: status $rc, said: $(head -c 300 "$OUT/noimage.log")"
echo "image suite: $(suite_seconds) s in all"
