#!/usr/bin/env bash
# Self-test of the kit's shell scripts (run by make test): every one of
# them (*.sh, and the files whose first line runs sh or bash) passes the
# linter ShellCheck, with sourced files followed (-x). A rule a script must
# break is disabled in the script itself, on the line before, with the
# reason beside it (a "disable=SCnnnn # why" directive). Skipped where
# ShellCheck is not installed (a GPU host); CI's make test installs it
# (a maintainer's package of common/mk/debian-packages.txt).
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh

if ! command -v shellcheck >/dev/null; then
    skip "shellcheck: not installed here (Debian package shellcheck), so the scripts were not checked"
    exit 0
fi

# The kit's scripts, wherever they are, without the build outputs.
scripts=()
while IFS= read -r f; do
    case $f in
    *.sh) scripts+=("$f") ;;
    *)
        first=
        read -r first <"$f" 2>/dev/null || true
        case $first in '#!'*/sh | '#!'*/bash | '#!'*' sh' | '#!'*' bash' | '#!'*/sh' '* | '#!'*/bash' '*) scripts+=("$f") ;; esac ;;
    esac
done < <(find . \( -path ./build -o -path ./release -o -path ./.git -o -path ./.gpudeps \) -prune -o -type f -print |
    sed 's|^\./||' | LC_ALL=C sort)

for f in "${scripts[@]}"; do
    if out=$(shellcheck -x -f gcc "$f" 2>&1); then
        pass "shellcheck $f"
    else
        fail "shellcheck $f: $(printf '%s\n' "$out" | awk 'END { print NR }') finding(s); the first: $(printf '%s\n' "$out" | awk 'NR == 1')"
    fi
done

# What ShellCheck does not see: under pipefail, a reader that stops early
# (head, grep -q or -m, an awk that exits) kills the writer with SIGPIPE
# once the writer has more to say than the pipe holds, and the pipeline, and
# with set -e the script, fails on a host whose output is longer (a 32-thread
# /proc/cpuinfo ended make bench LAB=3 with status 141). Read to the end:
# awk 'NR == 1', or an awk that keeps the first match and prints it at END.
early=()
for f in "${scripts[@]}"; do
    grep -q 'pipefail' "$f" || continue
    while IFS= read -r hit; do early+=("$f:$hit"); done < <(grep -nE '\| *(head\b|grep +-[a-zA-Z]*[qm])|\| *awk[^|]*\bexit\b' "$f")
done
if [ ${#early[@]} = 0 ]; then
    pass "no script under pipefail ends a pipeline with a reader that stops early (head, grep -q/-m, awk exit)"
else
    fail "pipelines under pipefail whose reader stops early (SIGPIPE on a host with longer output): ${early[*]:0:3}"
fi
