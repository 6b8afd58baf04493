"""A limit of the grader's told apart from a failure of the student's code.

The sandbox limits processes and threads, memory and what a program may
read. When a test fails because one of those was reached, the fault is the
grader's (the reference would fail the same way), and the student must
read so, never "the code under test must return, not end the program",
which is what a rank killed by libgomp's failed thread creation looks like
to the MPI checker. Two witnesses: the sandbox's log of refusals (refusals.c writes
"limit TEST CALL in COMMAND" whenever a thread or process could not be
made for want of resources, in any process of the test), and the test's
own output, for what no call interposed sees."""
import re

from .review import refusal_lines

# What the output of a test says when a limit of the sandbox's, not the
# code, ended it.
SIGNS = re.compile(r"Thread creation failed[^\n]*|Resource temporarily unavailable|fork: retry[^\n]*|"
                   r"Cannot allocate memory|/sub/build/\S+: (?:cannot open shared object file: )?Permission denied|"
                   r"LeakSanitizer does not work under ptrace|File size limit exceeded|"
                   r"Error in call to get_result")
PREFIX = "GRADER LIMIT"


def recorded(folder):
    """{test name: [what]} from the sandbox's record ('-': outside any test)."""
    hits = {}
    for line in refusal_lines(folder):
        kind, test, what = (line.split(" ", 2) + ["", ""])[:3]
        if kind == "limit" and what not in hits.setdefault(test, []):
            hits[test].append(what)
    return hits


def which(limits, what):
    """The limit that what (a record's line, a sign in the output) names."""
    if re.search(r"pthread_create|fork|Thread creation|Resource temporarily", what):
        return f"limit of {limits.nproc} processes and threads was reached"
    if "File size" in what or "get_result" in what:
        return "file-size limit was reached (or Check's report of a test was cut short)"
    if "allocate memory" in what:
        return f"limit of {limits.mem_mb} MB of address space a process was reached"
    return "sandbox could not run a program of the kit's"


def message(limits, what):
    """The test's message. The reference's files stayed within every limit
    on this host (make grade checks that first), so either this run met a
    limit of the grader's by chance, or the code starts threads or
    processes without end: the instructor decides (the review column)."""
    return (f"{PREFIX}: the grader's {which(limits, what)} ({what}). The reference stays within it here, so "
            "this test is held for the instructor's review: a limit of the grader's is not counted against "
            "you, code that starts threads or processes without end is")


def mark(tests, folder, limits):
    """Failed tests that a limit of the grader's ended get its message in
    place of theirs; returns their names."""
    hits = recorded(folder)
    marked = []
    for t in tests:
        if t["status"] == "passed" or t["output"].startswith("SKIP"):
            continue
        seen = hits.get(t["name"]) or [m.group(0) for m in SIGNS.finditer(t["output"])]
        if seen:
            t["output"] = message(limits, "; ".join(dict.fromkeys(seen)))
            marked.append(t["name"])
    return marked


def whole_run(folder, log, limits):
    """The grader's limit that ended a whole run (the runner itself could
    not fork a test, say), in words; '' when none is seen."""
    hits = recorded(folder)
    seen = [w for ws in hits.values() for w in ws] + [m.group(0) for m in SIGNS.finditer(log or "")]
    return message(limits, "; ".join(dict.fromkeys(seen))) if seen else ""


def flag(names):
    """The review column's note for a submission whose tests hit a limit."""
    return (f"the grader's limits were reached in {', '.join(names)}: regrade (a fork bomb of the student's, "
            "or limits too low for the lab)") if names else ""
