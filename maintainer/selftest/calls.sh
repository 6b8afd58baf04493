#!/usr/bin/env bash
# Self-test of the call rules (run by make test, after the labs' part): for
# every lab with a labs/labN-name/tests/calls.conf, the reference breaks no rule,
# and each calls_* mutant (labs/labN-*/mutants/calls_*.patch) breaks a
# rule, and passes, when the rules are off, every test its broken rules
# fail (its numbers are right: only the rule costs it those tests; the labs'
# part asserts that it loses points there). Only those tests run with the
# rules off: the whole suite once per mutant took most of the GPU self-test's
# ten minutes on a GPU host, where every MPI and GPU test runs. It reuses the builds of the labs' part of the
# same run; a mutant that only a GPU host can run is still compiled here and
# its objects checked.
# selftest: after the labs
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh

OUT=${SELFTEST_OUT:-build/selftest${SELFTEST_LABS:+-lab${SELFTEST_LABS// /-}}} # the run's folder (maintainer/selftest/run_all)
checker() { # conf objects...: the broken rules' lines
    PYTHONPATH=autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m callrules.calls "$@"
}

for conf in labs/lab[0-9]*-*/tests/calls.conf; do
    lab=${conf#labs/lab}
    lab=${lab%%-*}
    ref=$OUT/lab$lab/reference
    if [ -n "${SELFTEST_LABS:-}" ] && [[ " $SELFTEST_LABS " != *" $lab "* ]]; then
        skip "lab $lab call rules: lab $lab is not in this run (SELFTEST_LABS)"
        continue
    elif [ ! -x "$ref/test_lab$lab" ]; then
        # a run of every lab that left no reference build: a failure, not
        # a call rule that nobody checked
        fail "lab $lab call rules: its reference's build ($ref/test_lab$lab) is missing from this run"
        continue
    fi
    if broken=$(checker "$conf" "$ref"/student/*.o) && [ -z "$broken" ]; then
        pass "lab $lab: the reference breaks none of its call rules"
    else
        fail "lab $lab: the reference breaks its call rules: $(echo "$broken" | head -2)"
    fi
    # Each test glob names a test the lab registers, as its test binary
    # lists them (hidden ones too): a renamed test would otherwise turn its
    # rule off without a word.
    "$ref/test_lab$lab" --list >"$ref/test-list.txt" 2>&1
    if unknown=$(checker --tests "$ref/test-list.txt" "$conf") && [ -z "$unknown" ]; then
        pass "lab $lab: every test its call rules name is a test of the lab ($(wc -l <"$ref/test-list.txt") tests)"
    else
        fail "lab $lab: call rules name tests the lab does not have: $(echo "$unknown" | head -2)"
    fi
    for patch in "$(lab_mutants "$lab")"/calls_*.patch; do
        [ -e "$patch" ] || continue
        mname=$(basename "$patch" .patch)
        mdir=$OUT/lab$lab/mutants/$mname
        if [ ! -x "$mdir/test_lab$lab" ]; then
            # Skipped by the labs' part (it needs a GPU to run): compile its
            # objects only and check them.
            mdir=$OUT/calls/lab$lab/$mname
            rm -rf "$mdir"
            mkdir -p "$mdir/student"
            cp -r labs/lab"$lab"-*/solution/. "$mdir/student/"
            patch -s -p1 -d "$mdir/student" <"$patch" >"$mdir/patch.log" 2>&1 || { fail "lab $lab $mname: the patch does not apply"; continue; }
            # shellcheck disable=SC2016 # $(STUDENT_OBJS) is make's, expanded by make
            objs=$(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" BUILD="$mdir" --eval 'print-objs: ; @echo $(STUDENT_OBJS)' print-objs)
            # shellcheck disable=SC2086 # a list of object files
            if ! make --no-print-directory -f common/mk/lab.mk LAB="$lab" BUILD="$mdir" $objs >"$mdir/build.log" 2>&1; then
                fail "lab $lab $mname: its objects do not compile (see $mdir/build.log)"
                continue
            fi
        fi
        # The tests its broken rules fail (globs over the lab's test names).
        globs=$(checker "$conf" "$mdir"/student/*.o | cut -f1 | tr ' ' '\n' | sort -u)
        tests=$(awk '{ print $1 }' "$ref/test-list.txt" | while read -r t; do
            while read -r g; do
                # shellcheck disable=SC2053 # $g is a glob, matched on purpose
                if [ -n "$g" ] && [[ $t == $g ]]; then echo "$t"; break; fi
            done <<<"$globs"
        done | paste -sd, -)
        if [ -x "$mdir/test_lab$lab" ] && [ -n "$tests" ]; then
            # Its numbers are right: with the rules off, none of those tests fails.
            make --no-print-directory -f common/mk/lab.mk LAB="$lab" BUILD="$mdir" KIT_BUILD="$OUT/kit/lab$lab" \
                CALL_VIOLATIONS=/dev/null CHECK_ARGS="--only $tests" check >"$mdir/check-no-rules.log" 2>&1
            lost=$(grep -E '^ *(FAIL|CRASH|TIMEOUT|ERROR) ' "$mdir/check-no-rules.log" | head -n 1)
            if [ -z "$lost" ] && grep -q '^score: ' "$mdir/check-no-rules.log"; then
                pass "lab $lab $mname: with the call rules off it passes the tests its rules fail ($tests): its numbers are right"
            else
                fail "lab $lab $mname: with the call rules off it still loses ${lost:-its tests} (see $mdir/check-no-rules.log): it should only break a rule"
            fi
        fi
        broken=$(checker "$conf" "$mdir"/student/*.o | cut -f2 | sort -u)
        if [ -n "$broken" ]; then
            pass "lab $lab $mname breaks the call rules: $(echo "$broken" | head -1)$([ "$(echo "$broken" | wc -l)" -gt 1 ] && echo " (and $(($(echo "$broken" | wc -l) - 1)) more)")"
        else
            fail "lab $lab $mname breaks no call rule"
        fi
    done
done
