#!/usr/bin/env bash
# Self-test of the similarity report (run by make test): a class of lab 1
# with four independent solutions (maintainer/selftest/similarity/s*.c,
# written apart from the reference, in four styles), one submission of the
# generated class (datasets/lab1-submissions/generate: the reference with
# one bug), a disguised copy of it (plant_copy.py: comments, names, layout
# and the order of functions changed), two untouched skeletons and entries
# with no lab file. instructor/similarity must put the planted pair first,
# above the threshold; the skeletons must score 0 with everyone; the
# independent solutions must stay below the threshold; the report must be
# self-contained. Then the generator's whole class with the planted copy:
# every pair of the reference's edits is reported, the skeleton with none.
# Last, each lab's thresholds (labs/labN-name/measured/similarity.conf) on its own
# classes (similarity/calibrate.py): copied pairs flagged, honest ones not.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=build/selftest/similarity
HERE=maintainer/selftest/similarity
fresh_dir "$OUT"

if ! command -v sim_c >/dev/null; then
    skip "similarity: sim_c is missing (Debian's similarity-tester: make deps)"
    exit 0
fi
t0=$(date +%s)
datasets/lab1-submissions/generate "$OUT/gen" >"$OUT/generate.log" 2>&1 || { fail "similarity: the submission generator failed (see $OUT/generate.log)"; exit 0; }
CLASS=$OUT/class
mkdir -p "$CLASS"
ORIGINAL=m05_knm_m_and_n_swapped
cp -r "$OUT/gen/submissions/$ORIGINAL" "$OUT/gen/submissions/p02_skeleton" "$CLASS/"
cp -r "$OUT/gen/submissions/p02_skeleton" "$CLASS/p03_skeleton_again"
# Entries the report leaves out, saying why: no lab file, an archive that
# does not unpack, a link.
cp -rP "$OUT/gen/submissions/b04_empty_folder" "$OUT/gen/submissions/b05_corrupt_archive.tar.gz" \
    "$OUT/gen/submissions/h22_link_to_reference" "$CLASS/"
for s in "$HERE"/s*.c; do
    id=$(basename "$s" .c)
    mkdir -p "$CLASS/$id/lab1"
    cp "$s" "$CLASS/$id/lab1/matmult.c"
done
# One independent solution handed in as an archive, unpacked as the grader does.
tar -czf "$CLASS/s2_index_macro.tar.gz" -C "$CLASS/s2_index_macro" lab1 && rm -r "$CLASS/s2_index_macro"
mkdir -p "$CLASS/z_planted_copy"
python3 "$HERE/plant_copy.py" "$CLASS/$ORIGINAL/matmult.c" >"$CLASS/z_planted_copy/matmult.c"
if gcc -std=c17 -Wall -Wextra -Werror -fsyntax-only -Ilabs/lab1-matmult "$CLASS/z_planted_copy/matmult.c" 2>"$OUT/planted.log" &&
    ! cmp -s "$CLASS/$ORIGINAL/matmult.c" "$CLASS/z_planted_copy/matmult.c"; then
    pass "similarity: the planted copy of $ORIGINAL compiles, renamed, recommented, reordered"
else
    fail "similarity: the planted copy does not compile (see $OUT/planted.log)"
fi

REPORT=$OUT/report
if instructor/similarity -o "$REPORT" 1 "$CLASS" >"$OUT/similarity.log" 2>&1 && [ -s "$REPORT/similarity.csv" ]; then
    pass "similarity: make similarity's tool ran on a class of $(find "$CLASS" -mindepth 1 -maxdepth 1 | wc -l) entries in $(($(date +%s) - t0)) s"
else
    fail "similarity: instructor/similarity failed (see $OUT/similarity.log)"
    tail -5 "$OUT/similarity.log"
    exit 0
fi

# The checks read the CSV (student_a, student_b, score, ...; most alike first).
THRESHOLD=$(PYTHONPATH=instructor:autograder python3 -c 'from grading.similarity import thresholds_of; print(thresholds_of(1)[0])')
top=$(sed -n 2p "$REPORT/similarity.csv")
IFS=, read -r a b score _ <<<"$top"
second=$(sed -n 3p "$REPORT/similarity.csv" | cut -d, -f3)
if [ "$a,$b" = "$ORIGINAL,z_planted_copy" ] && ! below "$score" "$THRESHOLD" && below "$second" "$score"; then
    pass "similarity: the planted copy and its original are the top pair ($score%; the next $second%; threshold $THRESHOLD%)"
else
    fail "similarity: the top pair is $a, $b ($score%), not $ORIGINAL and its planted copy (next: $second%)"
fi

skel=$(awk -F, 'NR > 1 && ($1 ~ /skeleton/ || $2 ~ /skeleton/) && $3 > 1 { print $1 " " $2 " " $3 "%" }' "$REPORT/similarity.csv")
pairs=$(awk -F, 'NR > 1 && ($1 ~ /skeleton/ || $2 ~ /skeleton/)' "$REPORT/similarity.csv" | wc -l)
both=$(awk -F, '$1 == "p02_skeleton" && $2 == "p03_skeleton_again" { print $3 }' "$REPORT/similarity.csv")
if [ -z "$skel" ] && [ "$pairs" -gt 0 ] && [ "$both" = 0 ]; then
    pass "similarity: the skeleton's own code is left out: two untouched skeletons score 0, and $pairs pairs with a skeleton at most 1%"
else
    fail "similarity: a skeleton scores as similar (two skeletons: ${both:-no row}%; ${skel:-no pair with a skeleton})"
fi

indep=$(awk -F, -v t="$THRESHOLD" 'NR > 1 && ($1 ~ /^s[0-9]/ || $2 ~ /^s[0-9]/) && $3 >= t { print $1 " " $2 " " $3 "%" }' "$REPORT/similarity.csv")
most=$(awk -F, 'NR > 1 && ($1 ~ /^s[0-9]/ || $2 ~ /^s[0-9]/) && $3 > m { m = $3 } END { print m + 0 }' "$REPORT/similarity.csv")
if [ -z "$indep" ]; then
    pass "similarity: the four independent solutions stay below the threshold with everyone (at most $most%)"
else
    fail "similarity: independent solutions cross the threshold: $indep"
fi

html=$REPORT/report.html
view=$(grep -o "pairs/$ORIGINAL--z_planted_copy.html" "$html" | head -1)
if [ -n "$view" ] && [ -s "$REPORT/$view" ] && grep -q "matching runs" "$REPORT/$view" &&
    ! grep -Eqi "(src|href)=['\"]?(https?:)?//" "$html" "$REPORT"/pairs/*.html; then
    pass "similarity: report.html links the top pair to its side-by-side view; no page needs the network"
else
    fail "similarity: report.html lacks the top pair's view, or a page loads something from the network"
fi
missing=0
for s in b04_empty_folder b05_corrupt_archive h22_link_to_reference; do
    grep -q "<li>$s:" "$html" || missing=1
done
[ "$missing" = 0 ] && grep -q "s2_index_macro" "$REPORT/similarity.csv" &&
    pass "similarity: an archive is unpacked and compared; entries without the lab's files are listed as not compared" ||
    fail "similarity: the archive, or the list of entries not compared, is wrong"

# The generator's whole class, the planted copy added: its correct and
# partly wrong submissions are the reference with one edit each, copies of
# one another as far as sim_c can tell, so every pair of them must be
# reported, the planted one too; the skeleton still scores 0 with all.
GEN=$OUT/gen/submissions
cp -r "$CLASS/z_planted_copy" "$GEN/"
if instructor/similarity -o "$OUT/gen-report" 1 "$GEN" >"$OUT/gen-similarity.log" 2>&1; then
    csv=$OUT/gen-report/similarity.csv
    lineage='^(c0|m[0-9]|p01|z_planted)'
    low=$(awk -F, -v t="$THRESHOLD" -v re="$lineage" 'NR > 1 && $1 ~ re && $2 ~ re && $3 < t' "$csv" | wc -l)
    all=$(awk -F, -v re="$lineage" 'NR > 1 && $1 ~ re && $2 ~ re' "$csv" | wc -l)
    planted=$(awk -F, -v o="$ORIGINAL" '$1 == o && $2 == "z_planted_copy" { print $3 }' "$csv")
    skel=$(awk -F, 'NR > 1 && ($1 == "p02_skeleton" || $2 == "p02_skeleton") && $3 > m { m = $3 } END { print m + 0 }' "$csv")
    if [ "$all" -gt 100 ] && [ "$low" = 0 ] && [ -n "$planted" ] && ! below "$planted" "$THRESHOLD" && ! below 1 "$skel"; then
        pass "similarity: in the generator's class all $all pairs of the reference's edits are reported (the planted copy $planted%), the skeleton at most $skel% with anyone"
    else
        fail "similarity: the generator's class: $low of $all pairs of the reference's edits below the threshold, the planted copy ${planted:-?}%, the skeleton up to $skel%"
    fi
else
    fail "similarity: instructor/similarity failed on the generator's class (see $OUT/gen-similarity.log)"
fi

# Each lab's thresholds (its measured/similarity.conf) against its classes
# (calibrate.py: the reference and its mutants, copies of one another; for
# lab 1 also the planted copy and the four solutions written apart): the
# conf's figures are the ones measured, every copied pair is flagged and
# no honest pair.
read -r DEFAULT FILE_DEFAULT < <(PYTHONPATH=instructor:autograder python3 -c \
    'from grading.similarity import THRESHOLD as T, FILE_THRESHOLD as F; print(f"{T:g} {F:g}")')
for dir in labs/lab[0-9]-*; do
    lab=${dir#labs/lab}
    lab=${lab%%-*}
    if line=$(python3 "$HERE/calibrate.py" --check --out "$OUT/calibration-$lab" "$lab" 2>"$OUT/calibrate-$lab.log"); then
        read -r _ t ft honest copied _ copied_file hp cp <<<"$line"
        t=${t/-/the default $DEFAULT} ft=${ft/-/the default $FILE_DEFAULT}
        if [ "$hp" = 0 ]; then
            honest="no honest pairs to calibrate from (no solution written apart): the default threshold kept"
        else
            honest="none of $hp honest pairs (the highest $honest%)"
        fi
        pass "similarity: lab $lab at threshold $t% (per file $ft%): all $cp copied pairs flagged (the lowest $copied%, per file ${copied_file/-/one file}), $honest"
    else
        fail "similarity: lab $lab's thresholds: $(head -3 "$OUT/calibrate-$lab.log") (measured: ${line:-nothing})"
    fi
done
