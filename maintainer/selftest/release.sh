#!/usr/bin/env bash
# Self-test of the student copy (run by make test): make release, then check
# that the copy holds only what instructor/student-copy allows, no reference
# code, texts that name nothing students lack, that the
# search for reference code can find some when it is there, and that the
# copy builds every lab and runs lab 1's visible tests.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=$(pwd)/build/selftest/release
fresh_dir "$OUT"
COPY=$OUT/kit-student

t0=$(date +%s)
if make --no-print-directory release OUT="$COPY" >"$OUT/release.log" 2>&1 && [ -d "$COPY" ] && [ -s "$COPY.tar.gz" ]; then
    pass "make release wrote the copy and its .tar.gz ($(find "$COPY" -type f | wc -l) files, $(($(date +%s) - t0)) s)"
else
    fail "make release failed (see $OUT/release.log)"
    tail -5 "$OUT/release.log"
    exit 0
fi

# Only what instructor/student-copy allows, in the folder or in the archive.
listing=$(tar -tzf "$COPY.tar.gz")
# (Judged by the one reader of the list, which must at least keep out the
# reference solutions, the mutants and the hidden tests.)
bad=$(printf '%s\n' "$listing" | sed 's|^[^/]*/||' | grep -v '/$' | grep -vx README.md |
    PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.student_copy --withheld | head -5)
withheld=$(printf 'labs/lab1-matmult/solution/matmult.c\nlabs/lab1-matmult/mutants/x.patch\nlabs/lab1-matmult/tests/hidden_x.c\nCONTRIBUTING.md\n' |
    PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.student_copy --withheld | wc -l)
[ "$withheld" = 4 ] || fail "instructor/student-copy lets the reference, the mutants, the hidden tests or CONTRIBUTING.md through"
[ -z "$bad" ] && pass "the copy and its archive hold only what instructor/student-copy allows" ||
    fail "files the list does not allow in the copy: $bad"
[ "$(printf '%s\n' "$listing" | grep -vc '/$')" = "$(find "$COPY" -type f | wc -l)" ] &&
    pass "the archive holds exactly the copy's files" || fail "the archive and the copy differ"

# No file of the copy equals a reference, mutant or hidden-test file, or
# holds enough of one's distinctive lines.
same=""
while IFS= read -r -d '' secret; do
    hit=$(find "$COPY" -type f -size "$(stat -c %s "$secret")c" -exec cmp -s "$secret" {} \; -print | head -1)
    [ -n "$hit" ] && same="$same $hit"
done < <(find labs/*/solution labs/*/mutants -type f -print0; find autograder -name 'hidden_*.c' -print0)
[ -z "$same" ] && pass "no file of the copy equals a reference, mutant or hidden-test file" || fail "copies of secret files:$same"
if instructor/release --check "$COPY" 2>"$OUT/check.log"; then
    pass "no file of the copy holds reference code (instructor/release --check)"
else
    fail "reference code in the copy: $(head -3 "$OUT/check.log")"
fi
# ... and the search does find it when it is there (whole, or a function).
PLANT=$OUT/planted
cp -a "$COPY" "$PLANT"
cp labs/lab1-matmult/solution/matmult.c "$PLANT/labs/lab1-matmult/solution_backup.c"
sed -n '/^void matmult_blk/,/^}/p' labs/lab1-matmult/solution/matmult.c >"$PLANT/common/snippet.c"
echo "gpu3's design: see labs/lab4-multigpu-jacobi/solution/jacobi_gpu.cu" >"$PLANT/labs/lab1-matmult/notes.txt"
if ! instructor/release --check "$PLANT" 2>"$OUT/planted.log" && grep -q solution_backup.c "$OUT/planted.log" &&
    grep -q snippet.c "$OUT/planted.log" && grep -q "notes.txt names solution/" "$OUT/planted.log"; then
    pass "the search finds a reference planted in the copy, whole, as one function, and a student file that names its solution/ folder"
else
    fail "the search missed reference code planted in the copy (see $OUT/planted.log)"
fi

# Its texts name nothing students lack and point only at what it holds
# (copy_texts.py: words, links, backticked paths, cited sections) ...
if python3 maintainer/selftest/copy_texts.py "$COPY" >"$OUT/texts.log" 2>&1; then
    pass "the copy's texts name no reference/, instructors' target, mutant, hidden test or issue, its code comments no date, GPU model or issue number, and its texts point only at its own files and headings"
else
    fail "the copy's texts ($(wc -l <"$OUT/texts.log") findings, all in $OUT/texts.log): $(head -3 "$OUT/texts.log" | tr '\n' ';')"
fi
# ... and the check finds each kind when planted.
# shellcheck disable=SC2016 # markdown's backticks, not a command
printf '%s\n' 'Run `make grade` with IMPL=reference.' '[runs](../../maintainer/x.md) and `common/gone.h`,' \
    'see "No Such Heading"; `hidden_big` [2].' >>"$PLANT/labs/lab1-matmult/README.md"
python3 maintainer/selftest/copy_texts.py "$PLANT" >"$OUT/texts-planted.log" 2>&1
n=$(grep -c '^labs/lab1-matmult/README.md:[0-9]*: ' "$OUT/texts-planted.log")
for want in "instructors' target" IMPL=reference "maintainer/x.md, which the copy lacks" "common/gone.h, which" \
    'section "No Such Heading"' "a hidden test"; do
    grep -q "^labs/lab1-matmult/README.md:[0-9]*: .*$want" "$OUT/texts-planted.log" || n="missed '$want'"
done
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 6 ] && pass "the texts check names file and line of each planted word, link, path, section and hidden test" ||
    fail "the texts check on planted texts: $n (see $OUT/texts-planted.log)"
# Code comments say what and why, not when or on which GPU: a date, a GPU
# model and an issue number in a comment are found; the same words in a
# string, and a README that names a GPU, are not.
printf '%s\n' '/* measured on an H100, 2026-11-28 */' 'int planted_comment; // fixed in #47' \
    'const char *planted_text = "H200 2026-11-28 #47";' >"$PLANT/labs/lab1-matmult/planted_comment.c"
printf '%s\n' '# sized for 2 H200s (issue 47)' >"$PLANT/labs/lab1-matmult/planted_comment.sh"
printf '%s\n' 'On an NVIDIA H200 (2026-11-28) the reference runs at 60 TFLOP/s.' >>"$PLANT/labs/lab1-matmult/README.md"
python3 maintainer/selftest/copy_texts.py "$PLANT" >"$OUT/texts-comments.log" 2>&1
c=$(grep -c '^labs/lab1-matmult/planted_comment\.' "$OUT/texts-comments.log")
for want in "planted_comment.c:1: dates a comment" "planted_comment.c:1: names a GPU model" \
    "planted_comment.c:2: cites an issue by number" "planted_comment.sh:1: names a GPU model" \
    "planted_comment.sh:1: names an issue"; do
    grep -q "^labs/lab1-matmult/$want" "$OUT/texts-comments.log" || c="missed '$want'"
done
grep -q -e '^labs/lab1-matmult/planted_comment.c:3:' -e "^labs/lab1-matmult/README.md:[0-9]*: .*H200" "$OUT/texts-comments.log" &&
    c="refused a string or a README (see $OUT/texts-comments.log)"
[ "$c" = 5 ] && pass "the texts check finds a date, a GPU model and an issue number in code comments, not in strings or READMEs" ||
    fail "the texts check on planted comments: $c (see $OUT/texts-comments.log)"

# One line, non-zero, for an instructors' target in the copy.
for target in grade test release; do
    out=$(cd "$COPY" && make --no-print-directory "$target" LAB=1 2>&1)
    rc=$?
    [ "$rc" != 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && pass "make $target in the copy: '$out'" ||
        fail "make $target in the copy: status $rc, $(printf '%s\n' "$out" | wc -l) lines: $out"
done
help=$(cd "$COPY" && make --no-print-directory help)
printf '%s\n' "$help" | grep -qE 'make (grade|test|release|export|similarity|gpu-deps-fetch)|IMPL=reference' &&
    fail "make help in the copy names what does not work there" || pass "make help in the copy names only its own targets"

# The copy works: lab 1 builds and its visible tests run (the skeleton
# fails them, as it should), without hidden tests.
(cd "$COPY" && make --no-print-directory lab1) >"$OUT/lab1.log" 2>&1 && pass "make lab1 works in the copy" ||
    fail "make lab1 fails in the copy (see $OUT/lab1.log)"
(cd "$COPY" && make --no-print-directory check) >"$OUT/check-lab1.log" 2>"$OUT/check-lab1.err"
rc=$?
last=$(tail -n 1 "$OUT/check-lab1.log")
score=$(sed -n 's/^score: //p' "$OUT/check-lab1.log")
if [ "$rc" != 0 ] && [[ "$last" =~ ^[0-9]+%:\ Checks:\ [0-9]+,\ Failures:\ [0-9]+,\ Errors:\ [0-9]+$ ]] &&
    ! grep -q 'hidden' "$OUT/check-lab1.log"; then
    pass "make check works in the copy: visible tests only, the skeleton fails them ($score; '$last')"
else
    fail "make check in the copy: status $rc, last line '$last' (see $OUT/check-lab1.log)"
fi
hidden=$("$COPY/build/lab1/test_lab1" --list 2>/dev/null | grep -c hidden)
[ "$hidden" = 0 ] && pass "the copy's lab 1 suite lists no hidden test" || fail "the copy's suite lists $hidden hidden tests"

# Every lab of the copy builds (the labs with CUDA need nvcc).
for labdir in "$COPY"/labs/lab[0-9]*-*/; do
    name=$(basename "$labdir")
    lab=${name#lab}
    lab=${lab%%-*}
    [ "$lab" = 1 ] && continue
    if ls "$labdir"*.cu >/dev/null 2>&1 && ! selftest_nvcc >/dev/null; then
        skip "$name in the copy: no nvcc here to build it"
        continue
    fi
    if (cd "$COPY" && make --no-print-directory "lab$lab") >"$OUT/lab$lab.log" 2>&1; then
        pass "make lab$lab works in the copy ($name, without its reference)"
        # The points its README promises are make check's (its own list).
        "$COPY/build/lab$lab/test_lab$lab" --list >"$OUT/lab$lab-list.txt" 2>&1
        msg=$(python3 maintainer/selftest/readme_points.py "$COPY/labs/$name/README.md" "$OUT/lab$lab-list.txt") &&
            pass "lab $lab: ${msg#"$COPY/"}" || fail "lab $lab: ${msg#"$COPY/"}"
    else
        fail "make lab$lab fails in the copy: $(grep -m1 -E 'error|Error|No rule' "$OUT/lab$lab.log")"
    fi
done

# A hand-in is built with the kit's own given files: the copy carries their
# SHA-256, a changed header is named by make labN and make check (once
# each), and make labN SUBMISSION=DIR refuses to build with it.
HANDIN=$OUT/handin1
mkdir -p "$HANDIN"
cp "$COPY/labs/lab1-matmult/matmult.c" "$HANDIN/"
(cd "$COPY" && sha256sum --quiet -c .kit/given.sha256) >"$OUT/given.log" 2>&1 &&
    pass "the copy carries its given files' SHA-256 ($(wc -l <"$COPY/.kit/given.sha256") files), all matching" ||
    fail "the copy's .kit/given.sha256 is missing or does not match its files: $(head -2 "$OUT/given.log")"
header=$COPY/labs/lab1-matmult/matmult.h
cp "$header" "$OUT/matmult.h.orig"
sed -i 's/^#define LAB1_MATMULT_H$/&\n#define MY_UNROLL 4/' "$header"
echo 'int my_unroll(void) { return MY_UNROLL; }' >>"$HANDIN/matmult.c"
(cd "$COPY" && make --no-print-directory lab1 SUBMISSION="$HANDIN") >"$OUT/handin-edited.log" 2>&1
rc=$?
[ "$rc" != 0 ] && grep -q 'labs/lab1-matmult/matmult.h.*grader' "$OUT/handin-edited.log" && ! grep -q 'built from' "$OUT/handin-edited.log" &&
    pass "make lab1 SUBMISSION=DIR with an edited given header refuses, naming it: $(grep -o 'not the kit.s as released[^:]*: [^ ]*' "$OUT/handin-edited.log")" ||
    fail "make lab1 SUBMISSION=DIR built against an edited given header (status $rc, see $OUT/handin-edited.log)"
for step in lab1 check; do
    (cd "$COPY" && make --no-print-directory "$step") >"$OUT/given-$step.log" 2>&1
    n=$(grep -c '^note: labs/lab1-matmult/matmult.h is not the kit.s as released: your grade is built with the kit.s own' "$OUT/given-$step.log")
    [ "$n" = 1 ] && pass "make $step names the edited given header once: $(grep -m1 '^note: labs/' "$OUT/given-$step.log")" ||
        fail "make $step says $n times that matmult.h is not the kit's (see $OUT/given-$step.log)"
done
cp "$OUT/matmult.h.orig" "$header"
sed -i '$d' "$HANDIN/matmult.c"
(cd "$COPY" && make --no-print-directory lab1 SUBMISSION="$HANDIN" && make --no-print-directory check) >"$OUT/handin.log" 2>&1
grep -q "built from $HANDIN" "$OUT/handin.log" && ! grep -q '^note:' "$OUT/handin.log" &&
    pass "with the kit's header back, make lab1 SUBMISSION=DIR && make check build and run the hand-in, no note" ||
    fail "make lab1 SUBMISSION=DIR with the kit's header (see $OUT/handin.log)"
# A hand-in saved again: make check names the build that brings it in, and
# after it (nothing to recompile) runs.
touch "$HANDIN/matmult.c"
(cd "$COPY" && make --no-print-directory check) >"$OUT/handin-stale.log" 2>&1
(cd "$COPY" && make --no-print-directory lab1 SUBMISSION="$HANDIN" && make --no-print-directory check) >"$OUT/handin-again.log" 2>&1
grep -q "run 'make lab1 SUBMISSION=$HANDIN'" "$OUT/handin-stale.log" && grep -q '^score: ' "$OUT/handin-again.log" &&
    pass "a hand-in saved since its build: make check says to run make lab1 SUBMISSION=DIR, and runs after it" ||
    fail "a hand-in saved since its build: make check's hint or the run after make lab1 (see $OUT/handin-stale.log, $OUT/handin-again.log)"

# An optional file left out of a hand-in (lab 3's matmult_gpu6.cu) is built
# from the release's skeleton, not from labs/ where the student may have
# begun it, and make check says so.
if selftest_nvcc >/dev/null; then
    HANDIN=$OUT/handin3
    mkdir -p "$HANDIN"
    cp "$COPY"/labs/lab3-gpu-matmult/matmult_gpu.cu "$HANDIN/"
    echo '/* begun, not handed in */' >>"$COPY/labs/lab3-gpu-matmult/matmult_gpu6.cu"
    if (cd "$COPY" && make --no-print-directory lab3 SUBMISSION="$HANDIN") >"$OUT/handin3.log" 2>&1 &&
        grep -q '^#line 1 ".kit/skeleton/labs/lab3-gpu-matmult/matmult_gpu6.cu"' "$COPY/build/lab3/student/matmult_gpu6.cu" &&
        ! grep -q 'begun, not handed in' "$COPY/build/lab3/student/matmult_gpu6.cu"; then
        (cd "$COPY" && make --no-print-directory check) >"$OUT/handin3-check.log" 2>&1
        grep -q "^note: $HANDIN has no matmult_gpu6.cu (optional): built with the skeleton's stub" "$OUT/handin3-check.log" &&
            pass "a lab 3 hand-in without the optional matmult_gpu6.cu builds with the skeleton's stub; make check: $(grep -m1 '^note:' "$OUT/handin3-check.log")" ||
            fail "make check of a lab 3 hand-in without matmult_gpu6.cu does not say so (see $OUT/handin3-check.log)"
    else
        fail "a lab 3 hand-in without the optional matmult_gpu6.cu does not build with the release's stub (see $OUT/handin3.log)"
    fi
    rm "$HANDIN/matmult_gpu.cu"
    (cd "$COPY" && make --no-print-directory lab3 SUBMISSION="$HANDIN") >"$OUT/handin3-none.log" 2>&1
    grep -q 'lacks the student file(s) of lab 3: matmult_gpu.cu (optional, may be left out: matmult_gpu6.cu)' "$OUT/handin3-none.log" &&
        pass "a lab 3 hand-in without matmult_gpu.cu is refused, naming it and the optional one" ||
        fail "a lab 3 hand-in without matmult_gpu.cu (see $OUT/handin3-none.log)"
else
    skip "a lab 3 hand-in without its optional file: no nvcc here to build it"
fi

# Each lab's README says what to hand in: its "Hand in:" paragraph names
# every student file, the optional ones (OPTIONAL_FILES) as optional.
for labdir in "$COPY"/labs/lab[0-9]*-*/; do
    name=$(basename "$labdir")
    lab=${name#lab}
    lab=${lab%%-*}
    handin=$(sed -n '/^\*\*Hand in:\*\*/,/^$/p' "$labdir/README.md" | tr '\n' ' ')
    # shellcheck disable=SC2016 # make's variables, expanded by make
    read -r -a files < <(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" --eval 'print-sf: ; @echo $(STUDENT_FILES)' print-sf)
    # shellcheck disable=SC2016
    read -r -a optional < <(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" --eval 'print-of: ; @echo $(OPTIONAL_FILES)' print-of)
    lacks=""
    for f in "${files[@]}"; do [[ "$handin" == *"\`$f\`"* ]] || lacks="$lacks $f"; done
    for f in "${optional[@]}"; do [[ "$handin" == *"\`$f\`"*optional* ]] || lacks="$lacks $f(as optional)"; done
    [ -n "$handin" ] && [ -z "$lacks" ] && pass "lab $lab: its README's 'Hand in' line names its ${#files[@]} file(s)${optional[*]:+, ${optional[*]} optional}" ||
        fail "lab $lab: its README's 'Hand in' line is missing or lacks:$lacks"
done

# The hidden tests' names stay the instructors': none in the copy's call
# rules or chaos lists.
named=$(grep -l 'hidden_' "$COPY"/labs/*/tests/*.conf 2>/dev/null | head -3)
[ -z "$named" ] && pass "the copy's calls.conf and chaos.conf name no hidden test" ||
    fail "hidden tests named in the copy's ${named//$COPY\//}"

# A wrong command line is said before a missing GPU (it is wrong on every
# machine), naming the argument; lab 6's bench program names the bad one.
if selftest_nvcc >/dev/null; then
    out=$(cd "$COPY" && build/lab3/matmult_gpu gpu1 -5 10 abc 2>&1)
    [[ "$out" == "error: m "*"-5"* ]] && pass "lab 3's driver refuses 'gpu1 -5 10 abc' for its arguments first: ${out%%$'\n'*}" ||
        fail "lab 3's driver on 'gpu1 -5 10 abc': ${out%%$'\n'*}"
    out=$(cd "$COPY" && timeout 30 build/lab6/lab6_bench host 9 1 abc pair 32 13 3 3 2>&1)
    [[ "$out" == *"DEN 'abc'"* ]] && pass "lab6_bench names the bad argument: ${out%%$'\n'*}" ||
        fail "lab6_bench does not name the bad argument: ${out%%$'\n'*}"
else
    skip "labs 3 and 6's programs on a wrong command line: no nvcc here to build them"
fi

# The standing's targets in the copy: a quote in a nickname is the name's
# (refused by its rule, not a shell error), no spool is said, and a lab
# that does not exist has no board.
out=$(cd "$COPY" && KIT_NICKNAME_FILE=$OUT/nick make --no-print-directory nickname NAME="o'x" 2>&1)
[[ "$out" == *"'o'x': 2 to 20 letters"* && "$out" != *"Syntax error"* ]] && pass "make nickname NAME=\"o'x\" is refused by the name's rule" ||
    fail "make nickname NAME=\"o'x\": $out"
out=$(cd "$COPY" && KIT_NICKNAME_FILE=$OUT/nick KIT_COURSE=/dev/null make --no-print-directory nickname NAME=warp-9 2>&1)
[[ "$out" == *"records no runs"* ]] && pass "make nickname without a spool says so: ${out##*$'\n'}" || fail "make nickname without a spool: $out"
out=$(cd "$COPY" && make --no-print-directory standing LAB=9 2>&1)
[[ "$out" == *"there is no lab 9"* ]] && pass "make standing LAB=9: ${out%%$'\n'*}" || fail "make standing LAB=9: $out"
