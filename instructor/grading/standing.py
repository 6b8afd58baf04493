"""The class standing at grading time (the records make check SCHED=...
writes in the course's spool, autograder/standing/): the board with names
for the class page, and the review note of a student whose graded code
does not reproduce their best record (another hash, or figures far below
it on the same kind of host): a record is written by the student's own
job, so it may be forged, and this is where one is seen."""
import html
import os

from standing import course, records
from standing.board import ADVISORY, figures_text

# The grader's time over the record's, on the same host model and
# arguments, each beside the library's time of its own run, that is "far
# below": course.conf's STANDING_SLOWER (2 by default; a loaded host's noise
# stays well under it).


def best_of(found, sid):
    """sid's best entered record over every host, or None."""
    mine = [r for rows in records.best_runs(found).values() for r in rows if r["student"] == sid]
    return min(mine, key=lambda r: (records.total_seconds(r), r["time"])) if mine else None


def this_host():
    from standing.record import cpu_name, gpu_name
    return {gpu_name(), cpu_name()} - {""}


def review_note(lab_num, student_files, sid, srcdir, tests, conf=None, host=None):
    """'' or why sid's best record is not reproduced by the graded files in
    srcdir (their tests: the grader's perf entries carry its figures)."""
    conf = conf or course.settings()
    spool = course.spool(conf)
    if not spool:
        return ""
    best = best_of(records.load(spool, lab_num), sid)
    if best is None:
        return ""
    said = f"class standing: the best recorded run ({best['time']}, {figures_text(best)} on {best['timed_on']})"
    graded = records.code_hash(records.folder_files(srcdir, student_files)) if os.path.isdir(srcdir) else "none"
    if graded != best["code"]:
        return f"{said} measured other code (hash {best['code'][:12]}) than the files graded ({graded[:12]})"
    if best["timed_on"].split(",")[0] not in (host if host is not None else this_host()):
        return ""
    for name, fig in best["figures"].items():
        mine = next((t.get("extra_data") for t in tests if t.get("name") == f"perf_{name}"), None)
        if not isinstance(mine, dict) or mine.get("args") != fig["args"] or not mine.get("student_seconds"):
            continue
        # Beside the library's time of the same run where both timed one
        # (a busy host slows both), else in seconds.
        if fig.get("bound_seconds") and mine.get("bound_rate") and mine.get("student_rate"):
            ratio = (mine["bound_rate"] / mine["student_rate"]) / (fig["seconds"] / fig["bound_seconds"])
            basis = f"{mine.get('bound_name', 'the library')}'s time in each run"
        else:
            ratio, basis = mine["student_seconds"] / fig["seconds"], "seconds"
        if ratio > float(conf["STANDING_SLOWER"]):
            return (f"{said}: the same code took {mine['student_seconds']:.4g} s for {name} here, "
                    f"{ratio:.1f} x the recorded time (beside {basis})")
    return ""


def add_review(result, lab, sid, srcdir):
    """The grader's one call (batch.Grader.grade): the note joins the
    result's review flags."""
    note = review_note(lab.num, lab.student_files, sid, srcdir, result.get("tests", []))
    if note:
        result["flags"] = "; ".join(x for x in (result.get("flags", ""), note) if x)


def section(lab_num, conf=None):
    """The class page's section: each host's board with the students' ids
    (the students see nicknames or pseudonyms), or a note."""
    conf = conf or course.settings()
    head = "<h2>Class standing (from the cluster runs)</h2>"
    if not conf["STANDING_SPOOL"]:
        return head + "<p class='note'>No spool set in course.conf (STANDING_SPOOL): no runs recorded.</p>"
    found = records.load(conf["STANDING_SPOOL"], lab_num)
    names = records.shown_names(found, conf["STANDING_SALT"])
    boards = records.best_runs(found)
    parts = [head, f"<p>{html.escape(ADVISORY[0].upper() + ADVISORY[1:])}: the review list names each best record the "
             f"graded files do not reproduce. {len(found)} runs recorded by {len({r['student'] for r in found})} students.</p>"]
    for device in sorted(boards, key=lambda d: -len(boards[d])):
        parts.append(f"<h3>on {html.escape(device or 'an unnamed host')}</h3><table><tr><th>rank</th><th>student</th>"
                     "<th>shown as</th><th>figures</th><th class='num'>points</th><th>when</th><th>code</th></tr>")
        parts += [f"<tr><td>{i + 1}</td><td>{html.escape(r['student'])}</td><td>{html.escape(names[r['student']])}</td>"
                  f"<td>{html.escape(figures_text(r))}</td><td class='num'>{r['points']:g}/{r['max_points']:g}</td>"
                  f"<td>{html.escape(r['time'])}</td><td><code>{html.escape(r['code'][:12])}</code></td></tr>"
                  for i, r in enumerate(boards[device])]
        parts.append("</table>")
    if not boards:
        parts.append("<p class='note'>No correct run recorded yet.</p>")
    return "\n".join(parts)
