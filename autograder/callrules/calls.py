"""The call rules of a lab: labs/labN-name/tests/calls.conf says, per function
the student writes, which calls it may not make and which it must make;
this finds the calls in the student's compiled objects (elf.CallGraph:
directly, or through any other function of the submission) and names the
tests that fail because of them.

calls.conf, one rule a line ('#' starts a comment; FUNCTION is a glob over
the submission's global functions, the others are globs too):
    FUNCTION  tests    TEST...      the tests that fail when FUNCTION breaks a rule
    FUNCTION  forbid   SYMBOL...    calls FUNCTION may not make
    FUNCTION  require  SYMBOL...    calls FUNCTION must make (at least one of them)
A forbid or require line may end in '=> TEST...': the tests that its
rule fails, instead of FUNCTION's 'tests' line (a rule about one part of
the assignment, such as the loop schedule, costs that part's points only).
SYMBOL globs name external symbols: what the submission calls but does not
define (the kit's code, libraries).

    python3 -m callrules.calls [-o OUT] CALLS_CONF OBJECT...
writes OUT (default: standard output), one line per broken rule and test
glob: "TEST-GLOB<TAB>MESSAGE"; the test runner (autograder/runner/call_rules.c, through
AG_CALL_VIOLATIONS=OUT) fails those tests with the message. Exit status 0
when the objects could be read (broken rules or not), 2 otherwise."""
import argparse
import fnmatch
import sys

KINDS = ("tests", "forbid", "require")


class Rule:
    def __init__(self, function, kind, patterns, where, tests=None):
        self.function, self.kind, self.patterns, self.where = function, kind, patterns, where
        self.tests = tests  # the tests this rule fails ('=> TEST...'); None: the function's

    def applies_to(self, function):
        return fnmatch.fnmatchcase(function, self.function)


def parse(text, source="calls.conf"):
    rules = []
    for n, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{source}:{n}"
        if len(fields) < 3 or fields[1] not in KINDS:
            raise ValueError(f"{where}: expected 'FUNCTION {'|'.join(KINDS)} NAME...', got '{line.strip()}'")
        names, tests = fields[2:], None
        if "=>" in names:
            at = names.index("=>")
            names, tests = names[:at], names[at + 1:]
            if fields[1] == "tests" or not names or not tests:
                raise ValueError(f"{where}: '=> TEST...' follows the symbols of a forbid or require line")
        rules.append(Rule(fields[0], fields[1], names, where, tests))
    return rules


def any_match(name, patterns):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def forbidden_for(rules, function, symbol):
    return any(r.kind == "forbid" and r.applies_to(function) and any_match(symbol, r.patterns) for r in rules)


def violations(rules, functions, calls_of):
    """[(function, test globs, message)] for the functions that break a rule.
    functions: the submission's global functions; calls_of(f): {external
    symbol: [functions on the way]}."""
    ruled = [f for f in functions if any(r.applies_to(f) for r in rules if r.kind == "tests")]
    for f in functions:
        for r in rules:
            if r.kind != "tests" and r.applies_to(f) and f not in ruled:
                raise ValueError(f"{r.where}: {f} has a {r.kind} rule but no 'tests' line: "
                                 "its broken rule could fail no test")
    out = []
    for f in ruled:
        tests = [p for r in rules if r.kind == "tests" and r.applies_to(f) for p in r.patterns]
        calls = calls_of(f)
        for symbol in sorted(calls):
            if not forbidden_for(rules, f, symbol):
                continue
            via = f" (through {', '.join(calls[symbol])})" if calls[symbol] else ""
            allowed = [g for g in ruled if not forbidden_for(rules, g, symbol)]
            users = [g for g in allowed if symbol in calls_of(g)]
            verdict = (f"which this lab reserves for {' and '.join(users)}" if users else
                       f"which this lab does not allow in {f}" if allowed else
                       "which no function of this lab may call: the point is to write it yourself")
            fails = next((r.tests for r in rules if r.kind == "forbid" and r.tests and r.applies_to(f)
                          and any_match(symbol, r.patterns)), tests)
            out.append((f, fails, f"{f} calls {symbol}{via}, {verdict}"))
        for r in rules:
            if r.kind == "require" and r.applies_to(f) and not any(any_match(s, r.patterns) for s in calls):
                out.append((f, r.tests or tests, f"{f} makes none of the calls this lab requires of it "
                            f"({', '.join(r.patterns)}), neither itself nor through your other functions"
                            + (RUNTIME_HINT if any("runtime" in p for p in r.patterns) else "")))
    return out


RUNTIME_HINT = ": these are the calls of an OpenMP loop with schedule(runtime), whose schedule OMP_SCHEDULE sets"


def format_lines(found):
    """The runner's file: one 'TEST-GLOB<TAB>MESSAGE' a line."""
    return "".join(f"{t}\t{msg}\n" for _, tests, msg in found for t in tests)


def read_lines(text):
    """[(test glob, message)] of such a file."""
    return [tuple(line.split("\t", 1)) for line in text.splitlines() if "\t" in line]


def check(conf_path, objects):
    from .elf import CallGraph
    with open(conf_path) as f:
        rules = parse(f.read(), conf_path)
    graph = CallGraph(objects)
    return violations(rules, graph.functions(), graph.external_calls)


def unknown_tests(rules, names):
    """[(where, glob)] for each test glob of the rules (a tests line's, or
    the '=> TEST...' of a forbid or require line) that matches none of
    names, the lab's tests as its test binary lists them: a renamed test
    would otherwise turn its rule off without a word."""
    unknown = []
    for r in rules:
        for p in (r.patterns if r.kind == "tests" else []) + (r.tests or []):
            if not fnmatch.filter(names, p):
                unknown.append((r.where, p))
    return unknown


def main(argv=None):
    ap = argparse.ArgumentParser(description="checks a lab's call rules in the student's objects")
    ap.add_argument("-o", "--out", help="the file for the test runner [standard output]")
    ap.add_argument("--tests", metavar="LIST",
                    help="instead: check that every test glob of conf names a test of LIST, "
                         "a test binary's --list output (one test a line, its name first)")
    ap.add_argument("conf")
    ap.add_argument("objects", nargs="*")
    args = ap.parse_args(argv)
    if args.tests:
        try:
            with open(args.conf) as f:
                rules = parse(f.read(), args.conf)
            with open(args.tests) as f:
                names = [line.split()[0] for line in f if line.strip()]
        except (OSError, ValueError) as e:
            print(f"call rules: {e}", file=sys.stderr)
            return 2
        for where, p in unknown_tests(rules, names):
            print(f"{where}: {p} names no test of the lab")
        return 0
    if not args.objects:
        ap.error("objects: at least one is needed")
    try:
        text = format_lines(check(args.conf, args.objects))
    except (OSError, ValueError) as e:
        print(f"call rules: {e}", file=sys.stderr)
        return 2
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
