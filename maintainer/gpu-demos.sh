#!/usr/bin/env bash
# Every lab's make demo on a GPU host, in one run, for the record of issue
# 38 (the picture of each lab's demo, its run time, the GPU's name, the
# date): each demo through autograder/gpu-host/run demo N (which unpacks
# the staged packages where the host has no registry), each page drawn by
# headless Chromium where the host has one (else no screenshot), and
# everything packed into OUT (default build/gpu-demos):
#   OUT/summary.txt      a line a lab: exit status, seconds, the page or why not
#   OUT/demos.tar.gz     build/demo/labN/ (page, picture, figures, logs) and the
#                        screenshots, shots/labN.png
#
#   maintainer/gpu-demos.sh [LAB ...]      (default: 1 to 7)
#
# The demos draw with gnuplot: a GPU host without it fails each demo in one
# line saying so (stage gnuplot-nox with the other packages, or install it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-build/gpu-demos}
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(1 2 3 4 5 6 7)
for lab in "${labs[@]}"; do
    case $lab in [1-7]) ;; *) echo "usage: maintainer/gpu-demos.sh [LAB ...] (labs 1 to 7, not '$lab')" >&2; exit 2 ;; esac
done
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shots"
summary=$OUT/summary.txt
{
    date -u '+%Y-%m-%d %H:%M UTC'
    nvidia-smi --query-gpu=index,name --format=csv,noheader 2>&1
    echo "$(nproc) cores; gnuplot: $(command -v gnuplot || echo none); chromium: $(command -v chromium || echo none)"
} >"$summary"
failed=0
for lab in "${labs[@]}"; do
    t0=$(date +%s)
    autograder/gpu-host/run demo "$lab" >"$work/demo-lab$lab.log" 2>&1
    rc=$? secs=$(($(date +%s) - t0))
    page=build/demo/lab$lab/index.html
    if [ $rc = 0 ] && [ -s "$page" ]; then
        line="lab $lab: ok in $secs s, $page"
        if command -v chromium >/dev/null; then
            # --no-sandbox: Chromium's own sandbox refuses to run as root.
            timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1600,1400 \
                --screenshot="$work/shots/lab$lab.png" "file://$(realpath "$page")" >"$work/shots/lab$lab.log" 2>&1 ||
                line="$line (no screenshot: see shots/lab$lab.log)"
        fi
    else
        failed=1
        line="lab $lab: FAILED (exit $rc, $secs s): $(grep -m1 -E 'needs|not installed|INVALID|error' "$work/demo-lab$lab.log" || tail -n 1 "$work/demo-lab$lab.log")"
    fi
    echo "$line" | tee -a "$summary"
    mkdir -p "build/demo/lab$lab"
    cp "$work/demo-lab$lab.log" "build/demo/lab$lab/demo.log"
done
# the pages, pictures and figures, without the builds and the raw traces
tar -czf "$OUT/demos.tar.gz" --exclude='build/demo/lab*/build' --exclude='build/demo/lab*/trace*' \
    --exclude='build/demo/lab*/bench/*/' build/demo -C "$work" shots
echo "wrote $summary and $OUT/demos.tar.gz"
exit $failed
