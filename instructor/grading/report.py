"""What the student and Gradescope get: feedback.txt and results.json."""
import re

from .perf_feedback import text as performance_text
from .util import STATUS_BUILD


def clean_log(log, limit=150):
    """A build log as the student reads it: no sandbox paths, no commands."""
    lines = [re.sub(r"(?<![\w.])/\S*/(build/student|src)/", "", line) for line in log.splitlines()]
    lines = [line for line in lines if not line.startswith(("make", "gcc ", "nvcc ", "ar ", "PYTHONPATH="))]
    if len(lines) > limit:
        lines = lines[:limit] + [f"[... {len(lines) - limit} more lines]"]
    return "\n".join(lines)


def gradescope_json(r, log):
    out = f"Status: {r['status']}. Score: {r['total']:g}/{r['max_score']:g}."
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
        tests.append(g)
    return {"score": r["total"], "execution_time": r.get("seconds", 0), "output": out, "output_format": "text",
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests,
            "extra_data": {"status": r["status"], "lab": r.get("lab"), "host": r.get("host"),
                           "graded_at": r.get("graded_at")}}


def feedback(r, log, lab_num, lab_name):
    lines = [f"Lab {lab_num} ({lab_name}): {r['student']}",
             f"Status: {r['status']}",
             f"Score:  {r['total']:g} / {r['max_score']:g}",
             f"Graded: {r.get('graded_at')} on {r.get('host')}", ""]
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
                        "skipped, not passed (no GPU here)" if t["output"].startswith("SKIP") else "failed")
                lines.append(f"{head}  [hidden test: {word}; its details are kept back]")
            else:
                lines.append(f"{head}  {t['output']}")
    else:
        lines.append("No test was run, so no test scored.")
    perf = performance_text(r["tests"], r.get("performance_chart", ""))
    return "\n".join(lines) + "\n" + ("\n" + perf if perf else "")
