"""The class on one page: OUT/class.html, written again by every `make
grade`, `make similarity` and `make export` from the class's rows
(graded.the_class: the students' grade.json files, and a row for each
roster student with nothing handed in), with its pictures in OUT/class/. A
static page (no server, no script, no network): what to teach again (each
test's failure rate, most failed first, with the most common first line of
its messages), how the totals and the performance spread, whose grading
needs a look (the sandbox's refusals first), and the similarity report's
pairs when `make similarity` has run. Every link is to a file that
exists."""
import collections
import csv
import hashlib
import html
import json
import os
import statistics

from . import standing, term
from .charts import bars_png
from .graded import the_class
from .reference import line as reference_line
from .review import timeout_flag
from .util import KIT, STATUS_NONE, write_atomic

PAGE = "class.html"
PICTURES = "class"
LEADERS = 10        # rows of the anonymised leaderboard
PAIRS = 15          # similarity pairs shown (the report has them all)


def load(out):
    """(lab.json, the class's rows): those the gradebook holds (a student
    who left the class has a record and no row)."""
    try:
        with open(os.path.join(out, "lab.json")) as f:
            lab = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"classpage: {out} holds no grading ({e}): make grade LAB=N SUBMISSIONS=DIR first")
    present = None
    try:
        with open(os.path.join(out, "gradebook.csv"), newline="") as f:
            present = {row["student"] for row in csv.DictReader(f)}
    except (OSError, KeyError, csv.Error):
        pass
    return lab, the_class(out, lab["max_points"], present)[0]


def counts(records):
    """{status: students}, one computation for the page's every count."""
    out = collections.Counter(r["status"] for r in records)
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def first_line(output):
    line = (output or "").strip().splitlines()[0] if (output or "").strip() else "(no message)"
    return line if len(line) <= 200 else line[:197] + "..."


def test_rates(lab, records):
    """Per test of the lab's columns: how many submissions ran it, failed
    it (a test that ran and did not pass: FAIL, CRASH, TIMEOUT, or a
    performance point short), skipped it, and the most common first line of
    its failures. Submissions whose tests never ran (not built, refused)
    count in none of these: the page says how many."""
    rows = []
    for name in lab["columns"]:
        ran = failed = skipped = 0
        lines = collections.Counter()
        hidden = False
        for r in records:
            t = next((t for t in r.get("tests", []) if t["name"] == name), None)
            if t is None:
                continue
            hidden |= bool(t.get("hidden"))
            if (t.get("output") or "").startswith("SKIP"):
                skipped += 1
                continue
            ran += 1
            if t["score"] < t["max_score"]:
                failed += 1
                lines[first_line(t.get("output"))] += 1
        common = lines.most_common(1)
        rows.append({"name": name, "ran": ran, "failed": failed, "skipped": skipped, "hidden": hidden,
                     "rate": failed / ran if ran else 0.0,
                     "message": common[0][0] if common else "", "message_count": common[0][1] if common else 0})
    return sorted(rows, key=lambda x: (-x["rate"], -x["failed"], x["name"]))


def anonymous(lab_name, sid):
    """A stable label that names no one: the same student, the same label."""
    return "#" + hashlib.sha256(f"{lab_name}/{sid}".encode()).hexdigest()[:6]


def performance(lab, records):
    """Per performance column: each graded student's figures (extra_data of
    the perf test: rates where the harness's work is known, else speed
    relative to the reference), the reference's and the bound's."""
    out = []
    for name in (c for c in lab["columns"] if c.startswith("perf_")):
        figs = []
        for r in records:
            t = next((t for t in r.get("tests", []) if t["name"] == name), None)
            if t and isinstance(t.get("extra_data"), dict) and t["extra_data"].get("ratio"):
                figs.append((r["student"], t["score"], t["max_score"], t["extra_data"]))
        if figs:
            out.append((name, figs))
    return out


def performance_section(out, lab, name, figs, leaderboard):
    """A histogram of the class's figures with the reference and the bound
    marked, and the leaderboard; returns its HTML."""
    d0 = figs[0][3]
    if d0.get("unit") and all(f[3].get("student_rate") for f in figs):
        values = [f[3]["student_rate"] for f in figs]
        xlabel, ref = d0["unit"], d0["reference_rate"]
        marks = [("reference", ref)] + ([(d0["bound_name"], d0["bound_rate"])] if d0.get("bound_rate") else [])
    else:
        values = [1.0 / f[3]["ratio"] for f in figs]
        xlabel, ref = "speed relative to the reference (1 = as fast)", 1.0
        marks = [("reference", 1.0)]
    top = max(values + [x for _, x in marks]) * 1.05
    bins = 20
    counts = [0] * bins
    for v in values:
        counts[min(int(v / top * bins), bins - 1)] += 1
    picture = f"{PICTURES}/{name}.png"
    why = bars_png(os.path.join(out, picture), [top * (i + 0.5) / bins for i in range(bins)], counts, top / bins * 0.9,
                   f"{name}: {len(values)} submissions", xlabel, "submissions", marks, (0, top))
    points = [f[1] for f in figs]
    body = [f"<h3>{html.escape(name)}</h3>",
            f"<p>{len(values)} timed; points: median {statistics.median(points):g} of {figs[0][2]:g}, "
            f"{sum(1 for p in points if p == figs[0][2])} with full points. Marked: "
            + ", ".join(f"{html.escape(label)} {x:.3g}" for label, x in marks) + f" ({html.escape(xlabel)}).</p>",
            f"<img src='{picture}' alt='{html.escape(name)} distribution'>" if why is None
            else f"<p class='note'>No picture: {html.escape(why)}.</p>"]
    if leaderboard:
        best = sorted(zip(values, figs), key=lambda x: -x[0])[:LEADERS]
        body.append("<table><tr><th>rank</th><th>student (anonymised)</th><th>" + html.escape(xlabel) +
                    "</th><th>points</th></tr>" + "".join(
                        f"<tr><td>{i + 1}</td><td>{anonymous(lab['name'], f[0])}</td><td>{v:.3g}</td>"
                        f"<td>{f[1]:g}</td></tr>" for i, (v, f) in enumerate(best)) + "</table>")
    return "\n".join(body)


def review(records):
    """Who needs a look: the sandbox's refusals (first), the code's review
    flags, a refusal or an error, a time-out."""
    rows = []
    for r in records:
        why = []
        if r.get("flags"):
            why.append(r["flags"])
        if r["status"] not in ("graded", "build failed", STATUS_NONE):
            why.append(f"{r['status']}" + (f": {first_line(r.get('message'))}" if r.get("message") else ""))
        if timeout_flag(r):
            why.append(timeout_flag(r))
        if why:
            rows.append((r["student"], "; ".join(why)))
    return sorted(rows, key=lambda row: not row[1].startswith("sandbox refused"))


def similarity_pairs(path):
    try:
        with open(os.path.join(path, "similarity.csv")) as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return None
    return sorted(rows, key=lambda x: -float(x["score"]))[:PAIRS]


STYLE = """body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;
vertical-align:top}th{background:#f2f2f2}.bar{background:#c04030;height:0.9em;display:inline-block}
.num{text-align:right;white-space:nowrap}.msg{font-family:monospace;font-size:0.85em}.note{color:#666}
h2{border-bottom:2px solid #3070c0;padding-bottom:2px}"""


def similarity_folder(out, lab, given=None):
    """The similarity report the page shows: the one given, else the one
    make similarity last wrote for this grading (OUT/term.json), else the
    kit's default folder (never one relative to where the command runs)."""
    return os.path.abspath(given or term.load(out).get("similarity") or
                           os.path.join(KIT, "build", "similarity", f"lab{lab['num']}"))


def link(out, path, text):
    """A link to path (a file) from the page, or the text alone when it
    does not exist."""
    if not os.path.isfile(path):
        return html.escape(text)
    return f"<a href='{html.escape(os.path.relpath(path, os.path.abspath(out)))}'>{html.escape(text)}</a>"


def write_class_page(out, leaderboard=None, similarity=None, records=None):
    """OUT/class.html and its pictures; returns the page's path. records:
    the gradebook's rows (make grade's merge), else graded.the_class's.
    leaderboard None: as the last make grade was told."""
    out = os.path.abspath(out)
    lab, found = load(out)
    records = found if records is None else records
    if leaderboard is None:
        leaderboard = term.load(out).get("leaderboard", True)
    os.makedirs(os.path.join(out, PICTURES), exist_ok=True)
    totals = [r["total"] for r in records]
    tested = [r for r in records if r.get("tests")]
    mx = lab["max_points"]
    ungraded = float(lab.get("gpu_points") or 0)
    by_status = counts(records)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Lab {html.escape(str(lab['num']))}: "
             f"the class</title><style>{STYLE}</style></head><body>",
             f"<h1>Lab {html.escape(str(lab['num']))} ({html.escape(lab['name'])}): the class</h1>",
             f"<p class='counts'>{len(records)} students: "
             + ", ".join(f"{n} {html.escape(s)}" for s, n in by_status.items())
             + f"; {len(tested)} tested. Totals out of {mx - ungraded:g} of all {len(records)}"
             + (" (nothing handed in counts 0)" if by_status.get(STATUS_NONE) else "")
             + (f": mean {statistics.mean(totals):.1f}, median {statistics.median(totals):g}." if totals else ".")
             + (f" A partial grading: this host could award {mx - ungraded:g}, {ungraded:g} need a GPU."
                if ungraded else "")
             + (f" Checked first: {html.escape(reference_line(lab['reference']))}." if lab.get("reference") else "")
             + " From the gradebook in this folder (" + link(out, os.path.join(out, "gradebook.csv"), "gradebook.csv")
             + ").</p>",
             "<h2>Totals</h2>"]
    if os.path.exists(os.path.join(out, "histogram.png")):
        parts.append("<img src='histogram.png' alt='histogram of the totals'>")
    parts.append("<h2>Tests, most failed first</h2><p>Failed: ran and did not earn its points. "
                 "Skipped tests (no GPU on the grading host) count as neither.</p>"
                 "<table><tr><th>test</th><th class='num'>failed</th><th></th><th class='num'>skipped</th>"
                 "<th>most common first line of its failures</th></tr>")
    for t in test_rates(lab, records):
        parts.append(f"<tr><td>{html.escape(t['name'])}{' <i>(hidden)</i>' if t['hidden'] else ''}</td>"
                     f"<td class='num'>{t['failed']} / {t['ran']} ({100 * t['rate']:.0f}%)</td>"
                     f"<td><span class='bar' style='width:{120 * t['rate']:.0f}px'></span></td>"
                     f"<td class='num'>{t['skipped']}</td>"
                     f"<td class='msg'>{html.escape(t['message'])}"
                     + (f" <i>({t['message_count']}x)</i>" if t['message_count'] > 1 else "") + "</td></tr>")
    parts.append("</table><h2>Performance</h2>")
    perf = performance(lab, records)
    if perf:
        parts += [performance_section(out, lab, name, figs, leaderboard) for name, figs in perf]
    else:
        parts.append("<p class='note'>No performance points in this grading (--no-perf, or none timed).</p>")
    parts.append(standing.section(lab["num"]))  # the cluster runs' board, with names (grading/standing.py)
    parts.append("<h2>Grading to review</h2>")
    rows = review(records)
    if rows:
        parts.append("<table><tr><th>student</th><th>why</th></tr>" + "".join(
            f"<tr><td>{link(out, os.path.join(out, 'students', s, 'feedback.txt'), s)}</td>"
            f"<td class='msg'>{html.escape(w)}</td></tr>" for s, w in rows) + "</table>")
    else:
        parts.append("<p>None: no sandbox flag, refusal or time-out.</p>")
    parts.append("<h2>Similarity</h2>")
    sim = similarity_folder(out, lab, similarity)
    pairs = similarity_pairs(sim)
    if pairs is None:
        parts.append(f"<p class='note'>No similarity report ({html.escape(sim)}): "
                     f"make similarity LAB={html.escape(str(lab['num']))} SUBMISSIONS=... writes one.</p>")
    else:
        parts.append(f"<p>The {len(pairs)} most alike pairs of "
                     + link(out, os.path.join(sim, "report.html"), "the report")
                     + ":</p><table><tr><th>pair</th><th class='num'>score</th></tr>" + "".join(
                         "<tr><td>" + link(out, os.path.join(sim, "pairs", f"{p['student_a']}--{p['student_b']}.html"),
                                           f"{p['student_a']} and {p['student_b']}")
                         + f"</td><td class='num'>{float(p['score']):g}</td></tr>" for p in pairs) + "</table>")
    parts.append("</body></html>\n")
    path = os.path.join(out, PAGE)
    write_atomic(path, "\n".join(parts))
    return path


def main(argv=None):
    """python3 -m grading.classpage OUT [--similarity DIR] [--no-leaderboard]:
    the page again (make grade, make similarity and make export write it
    themselves)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m grading.classpage", description=main.__doc__)
    ap.add_argument("out", help="the grader's output folder (gradebook.csv, students/)")
    ap.add_argument("--similarity", help="the similarity report's folder [the one make similarity last wrote for "
                    "OUT, else the kit's build/similarity/labN]")
    ap.add_argument("--no-leaderboard", action="store_true", help="no anonymised leaderboard")
    args = ap.parse_args(argv)
    print(write_class_page(args.out, False if args.no_leaderboard else None, args.similarity))


if __name__ == "__main__":
    main()
