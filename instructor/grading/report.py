"""What the student and Gradescope get: feedback.txt and results.json, each
with the grade's account (the autograded points, what this host could
award, each penalty and manual mark, the final figure: the export's)."""
import json
import os
import re

from .perf_feedback import text as performance_text
from .util import STATUS_BUILD, STATUS_NONE, write_atomic


def grade_account(r, f=None, ungraded=0):
    """(lines, final) of r's grade: its autograded total, then, with f
    (term.finals' entry) the late penalty and the manual marks, and the
    final figure; ungraded: the points this host could not award."""
    mx = r["max_score"]
    host = (f" (this host could award {mx - ungraded:g}: {ungraded:g} need a GPU and were not graded here)"
            if ungraded else "")
    lines = ["Grade:", f"  autograded  {r['total']:g} of {mx:g}{host}"]
    final = r["total"]
    if f:
        if f.get("late_penalty"):
            lines.append(f"  late        -{f['late_penalty']:g} ({f['late_days']} day(s) late: {f['per_day']:g}% of "
                         f"{f['graded']:g} a day, at most {f['cap']:g}%)")
        if f.get("manual"):
            lines.append(f"  manual      {f['manual']:+g}" + (f" ({f['comment']})" if f.get("comment") else ""))
        final = f["final"]
    lines.append(f"  final       {final:g} of {mx - ungraded:g}")
    return lines, final


def skipped(t):
    """A test this host could not run (a GPU test without a GPU): its
    output says SKIP, and it is neither passed nor failed."""
    return (t.get("output") or "").startswith("SKIP")


def clean_log(log, limit=150):
    """A build log as the student reads it: no sandbox paths, no commands."""
    lines = [re.sub(r"(?<![\w.])/\S*/(build/student|src)/", "", line) for line in log.splitlines()]
    lines = [line for line in lines if not line.startswith(("make", "gcc ", "nvcc ", "ar ", "PYTHONPATH="))]
    if len(lines) > limit:
        lines = lines[:limit] + [f"[... {len(lines) - limit} more lines]"]
    return "\n".join(lines)


def gradescope_json(r, log, account=None):
    """account: grade_account()'s (lines, final): the score is the final."""
    out = f"Status: {r['status']}. Score: {r['total']:g}/{r['max_score']:g}."
    if account:
        out += "\n" + "\n".join(account[0])
    if r.get("message"):
        out += "\n" + r["message"]
    if log and r["status"] == STATUS_BUILD:
        out += "\n\n" + clean_log(log)
    perf = performance_text(r["tests"], "")  # the chart stays in the grader's output folder
    if perf:
        out += "\n\n" + perf.rstrip("\n")
    tests = []
    for t in r["tests"]:
        g = {k: t[k] for k in ("name", "score", "max_score", "status", "output") if k in t}
        g["visibility"] = "after_due_date" if t.get("hidden") else t.get("visibility", "visible")
        if "extra_data" in t:
            g["extra_data"] = t["extra_data"]
        if skipped(t):
            # Gradescope's status is passed or failed, and without one it
            # infers failed from a score under max_score: a skipped test has
            # neither, so it shows as neither; its points stay in extra_data.
            g.pop("max_score", None)
            g.pop("status", None)
            g["tags"] = ["skipped"]
            g["extra_data"] = {**g.get("extra_data", {}), "skipped": True, "points": t.get("max_score")}
        tests.append(g)
    extra = {}
    if account:
        extra["grade"] = {line.split()[0]: line.split(None, 1)[1] for line in account[0][1:]}
    return {"score": account[1] if account else r["total"], "execution_time": r.get("seconds", 0), "output": out, "output_format": "text",
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests,
            "extra_data": {"status": r["status"], "lab": r.get("lab"), "host": r.get("host"),
                           "graded_at": r.get("graded_at"), **extra}}


def feedback(r, log, lab_num, lab_name, account=None):
    lines = [f"Lab {lab_num} ({lab_name}): {r['student']}",
             f"Status: {r['status']}",
             f"Score:  {r['total']:g} / {r['max_score']:g}",
             *([f"Graded: {r.get('graded_at')} on {r.get('host')}"] if r.get("graded_at") else []), ""]
    if account:
        lines += account[0] + [""]
    if r.get("message"):
        lines += [r["message"], ""]
    if r["status"] == STATUS_BUILD and log:
        lines += ["The build's output:", clean_log(log), ""]
    if r["tests"]:
        lines.append("Tests:")
        for t in r["tests"]:
            head = f"  {t['score']:5g} / {t['max_score']:<4g} {t['name']}"
            if t.get("hidden"):
                word = ("passed" if t["status"] == "passed" else
                        "skipped, not passed (no GPU here)" if skipped(t) else "failed")
                lines.append(f"{head}  [hidden test: {word}; its details are kept back]")
            else:
                lines.append(f"{head}  {t['output']}")
    else:
        lines.append("No test was run, so no test scored.")
    perf = performance_text(r["tests"], r.get("performance_chart", ""))
    return "\n".join(lines) + "\n" + ("\n" + perf if perf else "")


def explain(out, lab, records, finals=None):
    """Every student's feedback.txt and results.json written again with
    the grade's account (make grade's merge: the term's late policy and
    manual marks are known only then); a student with nothing handed in
    gets both files too, saying so."""
    ungraded = float(lab.get("gpu_points") or 0)
    for r in records:
        folder = os.path.join(out, "students", r["student"])
        account = grade_account(r, (finals or {}).get(r["student"]), ungraded) if finals or ungraded else None
        if r["status"] == STATUS_NONE:
            os.makedirs(folder, exist_ok=True)
            r = {"tests": [], "message": "Nothing was handed in for this lab.", "graded_at": None, "host": None, **r}
        log = ""
        try:
            with open(os.path.join(out, "logs", r["student"], "problem.log"), errors="replace") as f:
                log = f.read()
        except OSError:
            pass
        if not os.path.isdir(folder):
            continue
        write_atomic(os.path.join(folder, "results.json"), json.dumps(gradescope_json(r, log, account), indent=1))
        write_atomic(os.path.join(folder, "feedback.txt"), feedback(r, log, lab["num"], lab["name"], account))
