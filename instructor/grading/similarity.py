"""Similarity across a class: which pairs of submissions are unusually
alike. The matching is Dick Grune's similarity tester (Debian's
similarity-tester, `sim_c`): it reads C (and CUDA, which it tokenises as C),
replaces every identifier by one token and every number and string by
another, ignores layout and comments, and reports runs of at least R equal
tokens between two files, with their lines. This module only prepares its
input and reads its output:

  1. Each student's files (the lab's STUDENT_FILES, found and unpacked as
     the grader finds them) are joined into one text per student.
  2. Boilerplate: sim_c compares each text with the base (its "old" file,
     after '/'): the lab's skeleton and every other file the lab hands out
     (labs/LAB/*.c, *.cu, *.h: drivers, helpers), and the files the
     instructor names with --base (lecture code, a leaked reference: MOSS's
     -b). The lines inside those runs are the base's own code (the
     signatures, the stubs a student left, code every student grew from)
     and are blanked, keeping the line numbers. The first and last line of such
     a run are blanked only when they have the shape of a skeleton line: a
     run may begin or end in the middle of a student's line.
  3. sim_c compares every pair of blanked texts (-e: each pair on its own;
     -a: both directions). A pair's score is the share of both texts' tokens
     that lie in runs with the other one: (matched_A + matched_B) /
     (tokens_A + tokens_B), 0 to 100. A submission that is only the
     skeleton has no tokens left, and scores 0 with everyone.
  4. Memory: the archive of past terms (ARCHIVE/labN/TERM/STUDENT/FILES,
     a class kept there with --keep TERM) is compared too; a pair with a
     past submission is named TERM~STUDENT and labelled "past term TERM"
     (past submissions are not compared with each other).
  5. A class whose median pair scores --median-warning or more shares more
     than a start (a leaked solution, or a base not named): the report and
     the command say so.

    instructor/similarity [-o OUT] [--threshold P] [--min-run R] [--views N] LAB SUBMISSIONS_DIR
"""
import argparse
import csv
import functools
import glob
import html
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from . import lms, term
from .classpage import write_class_page
from .unpack import class_folder, collect, refused, submissions
from .util import KIT, Problem, make_vars, write_atomic

SIM = "sim_c"
MIN_RUN = 24           # sim_c's own default: tokens in the shortest run that counts
SKELETON_MIN_RUN = 16  # shorter: a signature with its braces is about 28 tokens
THRESHOLD = 50.0       # percent: pairs from here up are reported as unusually alike
# percent: a pair with one file from here up is reported too, whatever the
# whole's score: a copied mandel.c beside an own poisson.c scored 17.4 % over
# the whole pair. A copy scores near 100 on its file; 80 leaves
# room for renamed and reordered copies (98.7 % over lab 1's one file).
FILE_THRESHOLD = 80.0
# Per lab, in its own folder, from the self-test's classes
# (maintainer/selftest/similarity/calibrate.py); measured/ is the
# maintainers' calibrated figures, left out of the student copy:
LAB_CONF = os.path.join("measured", "similarity.conf")
CONF_FIELDS = ("threshold", "file_threshold", "honest", "copied", "honest_file", "copied_file",
               "honest_pairs", "copied_pairs")
CONTEXT = 20           # pairs below the threshold shown in the report, for scale
MEDIAN_WARNING = 60.0  # percent: a class's median pair from here up gets a warning
ARCHIVE = os.path.join(KIT, "build", "similarity-archive")
PAST = "~"             # TERM~STUDENT: a past term's submission
SOURCES = (".c", ".cu", ".h", ".cuh")
MAX_ROWS = 1000        # pairs in the report's table (similarity.csv has all)
MAX_VIEWS = 200        # side-by-side pages, for the pairs from the top
FILE_MARK = "/* ==== {} ==== */"

RUN_RE = re.compile(r"^(\S+): line (\d+)-(\d+)\s*\|(\S+): line (\d+)-(\d+)\s*\[(\d+)\]\s*$")
HEADER_RE = re.compile(r"^File (\S+): (\d+) tokens, (\d+) lines")


# ---- reading sim_c's output ---------------------------------------------------

def parse_runs(text):
    """sim_c -n's runs: [(file_a, first_a, last_a, file_b, first_b, last_b, tokens)]."""
    runs = []
    for line in text.splitlines():
        m = RUN_RE.match(line)
        if m:
            a, a1, a2, b, b1, b2, n = m.groups()
            runs.append((a, int(a1), int(a2), b, int(b1), int(b2), int(n)))
    return runs


def parse_tokens(text):
    """sim_c's header lines: {file: tokens}."""
    out = {}
    for line in text.splitlines():
        m = HEADER_RE.match(line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


@functools.lru_cache(maxsize=None)  # called for every run: thousands in a large class
def student_of(path):
    return os.path.splitext(os.path.basename(path))[0]


# ---- boilerplate ----------------------------------------------------------------

def shape(line):
    """A line as sim_c sees it, roughly: no spaces, every word one letter,
    every number one digit (a signature whose parameters were renamed is
    still the skeleton's signature)."""
    line = re.sub(r"\b\d[\w.]*", "0", line.split("//")[0])
    return re.sub(r"[A-Za-z_]\w*", "w", "".join(line.split()))


def boilerplate_lines(runs, lines, skeleton_lines):
    """Line numbers (from 1) of a text that lie in its runs with the
    skeleton. Inner lines of a run always; its first and last line only when
    they have the shape of a skeleton line (names, numbers and spaces aside),
    or are only braces: a run may begin or end in the middle of the
    student's own line."""
    skeleton = {shape(s) for s in skeleton_lines if shape(s)}
    out = set()
    for (_, first, last, _, _, _, _) in runs:
        for n in range(first, last + 1):
            if first < n < last:
                out.add(n)
                continue
            text = shape(lines[n - 1]) if n - 1 < len(lines) else ""
            if text in skeleton or set(text) <= set("{}"):
                out.add(n)
    return out


def blank(lines, numbers):
    """The text with the given lines emptied (line numbers kept)."""
    return "".join("\n" if i + 1 in numbers else line if line.endswith("\n") else line + "\n"
                   for i, line in enumerate(lines))


# ---- scores ---------------------------------------------------------------------

def by_pair(runs):
    """{(student a, student b): [runs of a's text against b's]}."""
    out = {}
    for r in runs:
        a, b = student_of(r[0]), student_of(r[3])
        if a != b:
            out.setdefault((a, b), []).append(r)
    return out


def pair_scores(tokens, runs):
    """{(a, b): (score, matched_a, matched_b)} for a < b, from sim_c -a -e's
    runs (each pair in both directions; the runs of one file against another
    do not overlap on its side). Students whose texts have no token left
    (only the skeleton) score 0 with everyone."""
    matched = {pair: sum(r[6] for r in rs) for pair, rs in by_pair(runs).items()}
    names = sorted(student_of(f) for f in tokens)
    size = {student_of(f): t for f, t in tokens.items()}
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if PAST in a and PAST in b:
                continue  # two past terms' submissions: compared in their own terms
            ma, mb = min(matched.get((a, b), 0), size[a]), min(matched.get((b, a), 0), size[b])
            total = size[a] + size[b]
            out[(a, b)] = (round(100.0 * (ma + mb) / total, 1) if total else 0.0, ma, mb)
    return out


def ranked(scores):
    """Pairs from the most alike down; ties by name."""
    return sorted(scores.items(), key=lambda kv: (-kv[1][0], kv[0]))


# ---- the class ------------------------------------------------------------------

def gather(lab_files, folder, work):
    """{student: [(file name, text)]} of the class folder, each entry's
    files found and unpacked as the grader does; a student with none of the
    lab's files is left out, with the reason in `skipped`."""
    texts, skipped = {}, {}
    for sid, path in submissions(folder).items():
        why = refused(folder, path)
        if why:
            skipped[sid] = why
            continue
        dest = os.path.join(work, "collect", sid)
        os.makedirs(dest)
        try:
            collect(path, dest, lab_files, os.path.join(work, "unpack", sid))
        except Problem as p:
            if not os.listdir(dest):
                skipped[sid] = p.message
                continue
        files = []
        for name in lab_files:
            p = os.path.join(dest, name)
            if os.path.exists(p):
                with open(p, encoding="utf-8", errors="replace") as f:
                    files.append((name, f.read().replace("\r\n", "\n")))
        texts[sid] = files
    return texts, skipped


def joined(files):
    """One text (its lines) of a student's files, each after a comment line
    naming it: sim_c ignores comments, the side-by-side view shows it."""
    lines = []
    for name, text in files:
        lines.append(FILE_MARK.format(name) + "\n")
        lines += [line + "\n" for line in text.split("\n")]
    return lines


def handed_out(lab_name, lab_files, named=()):
    """The base: the lab's skeleton files, its other handed-out sources,
    then the files named (--base), each (name, text)."""
    folder = os.path.join(KIT, "labs", lab_name)
    paths = [os.path.join(folder, n) for n in lab_files]
    paths += sorted(os.path.join(folder, n) for n in os.listdir(folder)
                    if n.endswith(SOURCES) and n not in lab_files)
    base = []
    for p in paths + list(named):
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                base.append((os.path.basename(p), f.read().replace("\r\n", "\n")))
        except OSError as e:
            sys.exit(f"similarity: the base file {p} cannot be read: {e.strerror}")
    return base


def past_terms(archive, lab, lab_files, keep=None):
    """{TERM~STUDENT: [(file name, text)]} of the archive's past terms of
    the lab (the term being kept now left out)."""
    folder = os.path.join(archive, f"lab{lab}")
    texts = {}
    for term in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if term == keep or not os.path.isdir(os.path.join(folder, term)):
            continue
        for sid in sorted(os.listdir(os.path.join(folder, term))):
            files = []
            for name in lab_files:
                p = os.path.join(folder, term, sid, name)
                if os.path.isfile(p):
                    with open(p, encoding="utf-8", errors="replace") as f:
                        files.append((name, f.read()))
            if files:
                texts[f"{term}{PAST}{sid}"] = files
    return texts


def keep_term(archive, lab, term, texts):
    """This class's files into the archive as TERM (replacing a TERM kept
    before); returns its folder."""
    folder = os.path.join(archive, f"lab{lab}", term)
    shutil.rmtree(folder, ignore_errors=True)
    for sid, files in texts.items():
        os.makedirs(os.path.join(folder, sid))
        for name, text in files:
            write_atomic(os.path.join(folder, sid, name), text)
    return folder


def past_label(pair):
    """'past term TERM' for a pair with a past submission, else ''."""
    past = [x.split(PAST)[0] for x in pair if PAST in x]
    return f"past term {past[0]}" if past else ""


def run_sim(args, names, cwd):
    """sim_c with the file names on its standard input (-i): a class of
    hundreds would not fit on a command line."""
    out = subprocess.run([SIM, *args, "-i"], input="\n".join(names) + "\n", cwd=cwd,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"similarity: {SIM} failed: {out.stderr.strip()}")
    return out.stdout


def compare(texts, skeleton, work, min_run=MIN_RUN):
    """Scores and runs of every pair ({(a, b): runs}); the boilerplate
    lines and the text of each student."""
    raw, clean = os.path.join(work, "raw"), os.path.join(work, "clean")
    os.makedirs(raw)
    os.makedirs(clean)
    lines = {}
    for sid, files in texts.items():
        lines[sid] = joined(files)
        write_atomic(os.path.join(raw, f"{sid}.c"), "".join(lines[sid]))
    skel_lines = joined(skeleton)
    write_atomic(os.path.join(raw, "skeleton.c.skel"), "".join(skel_lines))
    names = sorted(f"{sid}.c" for sid in texts)
    runs = parse_runs(run_sim(["-e", "-S", "-n", "-w", "400", "-r", str(SKELETON_MIN_RUN)],
                              names + ["/", "skeleton.c.skel"], raw)) if names else []
    boiler = {}
    for sid in texts:
        mine = [r for r in runs if student_of(r[0]) == sid]
        boiler[sid] = boilerplate_lines(mine, lines[sid], skel_lines)
        write_atomic(os.path.join(clean, f"{sid}.c"), blank(lines[sid], boiler[sid]))
    if len(names) < 2:
        return {}, {}, boiler, lines
    out = run_sim(["-a", "-e", "-s", "-n", "-w", "400", "-r", str(min_run)], names, clean)
    pair_runs = parse_runs(out)
    return pair_scores(parse_tokens(out), pair_runs), by_pair(pair_runs), boiler, lines


def file_scores(texts, boiler, lines, work, min_run=MIN_RUN):
    """{(a, b): {file name: score}}: each of the lab's files compared on its
    own (the blanked text's lines of that file), as the whole pair is. Only
    for labs of two files or more (with one, the whole is the file)."""
    names_of = sorted({name for files in texts.values() for name, _ in files})
    if len(names_of) < 2:
        return {}
    out = {}
    for name in names_of:
        folder = os.path.join(work, "file-" + name)
        os.makedirs(folder)
        have = []
        for sid in texts:
            part, inside = [], False
            for n, line in enumerate(lines[sid], 1):
                if line.startswith("/* ==== "):
                    inside = line == FILE_MARK.format(name) + "\n"
                    continue
                if inside:
                    part.append("\n" if n in boiler[sid] else line)
            if part:
                write_atomic(os.path.join(folder, f"{sid}.c"), "".join(part))
                have.append(f"{sid}.c")
        if len(have) < 2:
            continue
        text = run_sim(["-a", "-e", "-s", "-n", "-w", "400", "-r", str(min_run)], sorted(have), folder)
        for pair, (score, _, _) in pair_scores(parse_tokens(text), parse_runs(text)).items():
            out.setdefault(pair, {})[name] = score
    return out


def flagged(score, files, threshold, file_threshold):
    """Is a pair reported: its whole from threshold up, or one file from
    file_threshold up?"""
    return score >= threshold or any(v >= file_threshold for v in (files or {}).values())


def conf_path(lab, kit=KIT):
    """Lab N's thresholds file, labs/labN-name/measured/similarity.conf
    (whether it exists or not), or None where there is no such lab."""
    found = sorted(glob.glob(os.path.join(kit, "labs", f"lab{lab}-*")))
    return os.path.join(found[0], LAB_CONF) if found else None


def conf_row(lab, path=None):
    """The fields of the lab's similarity.conf line (CONF_FIELDS), or None
    where it has none. A malformed file stops, naming its file and line."""
    path = path or conf_path(lab)
    rows = []
    try:
        with open(path or "") as f:
            for n, line in enumerate(f, 1):
                fields = line.split("#", 1)[0].split()
                if not fields:
                    continue
                if len(fields) != len(CONF_FIELDS) or not all(re.fullmatch(r"-|\d+(\.\d+)?", x) for x in fields):
                    sys.exit(f"similarity: {path}:{n}: expected {len(CONF_FIELDS)} fields, numbers or '-' "
                             f"({' '.join(CONF_FIELDS)}), got '{line.strip()}'")
                rows.append((n, fields))
    except OSError:
        return None
    if len(rows) > 1:
        sys.exit(f"similarity: {path}:{rows[1][0]}: a second line (the file holds its lab's one line)")
    return rows[0][1] if rows else None


def thresholds_of(lab, path=None):
    """The lab's (threshold, file threshold): its similarity.conf's, or the
    defaults (no file, or '-' in it: for want of honest pairs)."""
    fields = conf_row(lab, path) or ["-", "-"]
    return (THRESHOLD if fields[0] == "-" else float(fields[0]),
            FILE_THRESHOLD if fields[1] == "-" else float(fields[1]))


# ---- the report -----------------------------------------------------------------

def csv_text(pairs, per_file=None):
    """One row a pair; with per_file ({pair: {file: score}}) the most alike
    file and its score, then each file's score."""
    per_file = per_file or {}
    files = sorted({f for v in per_file.values() for f in v})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student_a", "student_b", "score", "matched_tokens_a", "matched_tokens_b"] +
               (["most_alike_file", "its_score"] + [f"score_{f}" for f in files] if files else []) + ["past"])
    for (a, b), (score, ma, mb) in pairs:
        mine = per_file.get((a, b), {})
        top = max(mine.items(), key=lambda kv: (kv[1], kv[0]), default=("", 0.0))
        w.writerow([a, b, f"{score:g}", ma, mb] +
                   ([top[0], f"{top[1]:g}"] + [f"{mine.get(f, 0):g}" for f in files] if files else []) +
                   [past_label((a, b))])
    return buf.getvalue()


STYLE = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}th{cursor:pointer;background:#eee}
tr.below td{color:#888}td.num{text-align:right}.warn{background:#fdd;padding:.4em}
.cols{display:flex;gap:1em}.col{flex:1;min-width:0}pre{font-size:12px;line-height:1.35;margin:0;
overflow-x:auto;border:1px solid #ccc}pre span{display:block;white-space:pre}.b{color:#aaa}
.ln{color:#999;display:inline-block;min-width:5em}.m0{background:#fdd}.m1{background:#dfd}.m2{background:#ddf}
.m3{background:#ffd}.m4{background:#fdf}.m5{background:#dff}"""

SORTER = """<script>
document.querySelectorAll('th').forEach(function (th, col) {
  th.onclick = function () {
    var body = th.closest('table').tBodies[0], rows = Array.from(body.rows);
    var num = th.classList.contains('n'), dir = th.dataset.dir = th.dataset.dir === 'a' ? 'd' : 'a';
    rows.sort(function (x, y) {
      var a = x.cells[col].textContent, b = y.cells[col].textContent;
      var c = num ? parseFloat(a) - parseFloat(b) : a.localeCompare(b);
      return dir === 'a' ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  };
});
</script>"""


def page(title, body, script=""):
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n{script}</body></html>\n")


def pair_file(a, b):
    return f"pairs/{a}--{b}.html"


def shown(pairs, threshold):
    """The report's rows: the pairs at or above the threshold (at most
    MAX_ROWS), then CONTEXT pairs below it."""
    above = [p for p in pairs if p[1][0] >= threshold]
    return above[:MAX_ROWS] + [p for p in pairs if p[1][0] < threshold][:CONTEXT], len(above)


def median_of(pairs):
    """The median score of the class's own pairs (past terms' left out)."""
    own = [p[1][0] for p in pairs if not past_label(p[0])]
    return statistics.median(own) if own else 0.0


def median_warning(median, limit):
    """The warning for a class whose median pair is limit or more, or ''."""
    if median < limit:
        return ""
    return (f"the median pair scores {median:g}% (warning from {limit:g}%): most of the class shares code that "
            "the base does not hold (a solution that went round, lecture code not named with --base). Name it "
            "with --base (make similarity BASE=...) and compare again")


def report_html(lab, pairs, threshold, skipped, count, min_run, views, warning="", base_names=(), past=0):
    rows_shown, n_above = shown(pairs, threshold)
    above = [p for p in rows_shown if p[1][0] >= threshold]
    below = [p for p in rows_shown if p[1][0] < threshold]
    rows = []
    for cls, chosen in (("", above), ("below", below)):
        for (a, b), (score, ma, mb) in chosen:
            view = (f"<a href='{html.escape(pair_file(a, b))}'>side by side</a>" if (a, b) in views else
                    f"(only the top {len(views)} pairs have a view)")
            label = past_label((a, b))
            rows.append(f"<tr class='{cls}'><td class='num'>{score:g}</td><td>{html.escape(a)}</td>"
                        f"<td>{html.escape(b)}{f' <b>({html.escape(label)})</b>' if label else ''}</td>"
                        f"<td class='num'>{ma}</td><td class='num'>{mb}</td><td>{view}</td></tr>")
    skipped_html = "".join(f"<li>{html.escape(s)}: {html.escape(w)}</li>" for s, w in sorted(skipped.items()))
    median = median_of(pairs)
    body = (f"<h1>Lab {html.escape(lab)}: similar submissions</h1>"
            + (f"<p class='warn'><b>Warning:</b> {html.escape(warning)}.</p>" if warning else "") +
            f"<p>Left out before comparing (the base): {html.escape(', '.join(base_names))}."
            + (f" {past} submissions of past terms compared too (pairs labelled)." if past else "") + "</p>"
            f"<p>{count} submissions compared, {len(pairs)} pairs (the median pair of the class scores {median:g}%). "
            f"{n_above} pairs at or above the threshold "
            f"of {threshold:g}% (the share of both submissions' tokens that lie in runs of at least {min_run} "
            f"equal tokens with the other, the base's own code left out); the {len(below)} next pairs "
            f"below it in grey, for scale. Identifiers, layout and comments do not count: a renamed copy "
            f"scores as a copy. A high score is a place to look, not a verdict: read the pair side by "
            f"side.{f' The table shows the first {MAX_ROWS} of them; similarity.csv has every pair.' if n_above > MAX_ROWS else ''}"
            f"</p><table><thead><tr><th class='n'>score %</th><th>student A</th><th>student B</th>"
            f"<th class='n'>tokens of A matched</th><th class='n'>tokens of B matched</th><th>view</th>"
            f"</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>" +
            (f"<h2>Not compared</h2><ul>{skipped_html}</ul>" if skipped else ""))
    return page(f"Lab {lab}: similar submissions", body, SORTER)


def column(sid, lines, boiler, spans, anchor):
    """One side of the side-by-side view: the student's text, matching runs
    shaded (one colour per run, each linked to its other side), the
    skeleton's lines grey."""
    where, starts = {}, {}
    for i, (first, last) in enumerate(spans):
        starts.setdefault(first, []).append(i)
        for n in range(first, last + 1):
            where.setdefault(n, i)  # runs may overlap on one side: the first shades
    other = "b" if anchor == "a" else "a"
    out = []
    for n, line in enumerate(lines, 1):
        text = html.escape(line.rstrip("\n"))
        run = where.get(n)
        cls = f"m{run % 6}" if run is not None else ("b" if n in boiler else "")
        links = "".join(f"<a id='{anchor}{i}' href='#{other}{i}'>{i + 1}</a> " for i in starts.get(n, []))
        out.append(f"<span class='{cls}'><span class='ln'>{n} {links}</span>{text}</span>")
    return (f"<div class='col'><h2>{html.escape(sid)}</h2><pre>" + "".join(out) + "</pre></div>")


def pair_html(a, b, score, runs, lines, boiler):
    mine = sorted(runs.get((a, b), []), key=lambda r: r[1])
    body = (f"<p><a href='../report.html'>back to the report</a></p><h1>{html.escape(a)} and "
            f"{html.escape(b)}: {score:g}%</h1><p>{len(mine)} matching runs, numbered and shaded alike on both "
            f"sides (the number links to the other side); grey: the skeleton's own code, not counted.</p>"
            "<div class='cols'>" + column(a, lines[a], boiler[a], [(r[1], r[2]) for r in mine], "a") +
            column(b, lines[b], boiler[b], [(r[4], r[5]) for r in mine], "b") + "</div>")
    return page(f"{a} and {b}", body)


def arguments(doc, argv=None):
    ap = argparse.ArgumentParser(description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=doc)
    ap.add_argument("lab", help="the lab's number")
    ap.add_argument("submissions", help="the folder of submissions (as for instructor/grade)")
    ap.add_argument("-o", "--out", help="where the report goes [build/similarity/labN]")
    ap.add_argument("--roster", help="a Canvas or Moodle download's roster, as for instructor/grade [the one "
                    "the lab's last grading was given]")
    ap.add_argument("--grades", help="that grading's folder (instructor/grade -o) [build/grade/labN]")
    ap.add_argument("--threshold", type=float,
                    help="score (percent) from which a pair is reported [the lab's in labs/labN-name/measured/similarity.conf, "
                    f"else {THRESHOLD:g}]")
    ap.add_argument("--file-threshold", type=float,
                    help="score (percent) of one file from which a pair is reported [the lab's, else "
                    f"{FILE_THRESHOLD:g}]")
    ap.add_argument("--min-run", type=int, default=MIN_RUN,
                    help=f"equal tokens in the shortest run that counts (sim_c -r) [{MIN_RUN}]")
    ap.add_argument("--views", type=int, default=MAX_VIEWS,
                    help=f"side-by-side pages for this many pairs from the top [{MAX_VIEWS}]")
    ap.add_argument("--base", action="append", default=[], metavar="FILE",
                    help="a file every student may have started from (lecture code, a leaked reference), left out "
                    "before comparing like the lab's own handed-out code; again for more")
    ap.add_argument("--archive", default=ARCHIVE,
                    help="the archive of past terms, compared too (ARCHIVE/labN/TERM/STUDENT/) "
                    "[build/similarity-archive]")
    ap.add_argument("--keep", metavar="TERM", help="keep this class in the archive as TERM (e.g. 2026-fall), "
                    "for the terms to come")
    ap.add_argument("--median-warning", type=float, default=MEDIAN_WARNING,
                    help=f"warn when the class's median pair scores this or more [{MEDIAN_WARNING:g}]")
    args = ap.parse_args(argv)
    if args.keep and (PAST in args.keep or "/" in args.keep or args.keep.startswith(".")):
        sys.exit(f"similarity: --keep {args.keep}: a term's name has no '{PAST}', '/' or leading '.'")
    for b in args.base:
        if not os.path.isfile(b):
            sys.exit(f"similarity: --base {b} is not a file")
    if not args.lab.isdigit():
        sys.exit("similarity: LAB is a lab's number, e.g. 1")
    if not os.path.exists(args.submissions):
        sys.exit(f"similarity: {args.submissions} is not there: give the class's folder, or the LMS's download")
    threshold, file_threshold = thresholds_of(args.lab)
    args.threshold = threshold if args.threshold is None else args.threshold
    args.file_threshold = file_threshold if args.file_threshold is None else args.file_threshold
    if not shutil.which(SIM):
        sys.exit(f"similarity: {SIM} is missing: install Debian's similarity-tester (make deps)")
    return args


def main(doc, argv=None):
    args = arguments(doc, argv)
    out = os.path.abspath(args.out or os.path.join(KIT, "build", "similarity", f"lab{args.lab}"))
    v = make_vars(args.lab, ["LAB_NAME", "STUDENT_FILES"])
    lab_name, lab_files = v["LAB_NAME"], v["STUDENT_FILES"].split()
    base = handed_out(lab_name, lab_files, args.base)
    grades = os.path.abspath(args.grades or os.path.join(KIT, "build", "grade", f"lab{args.lab}"))
    with tempfile.TemporaryDirectory(prefix="kit-similarity-") as work:
        # An LMS download staged as instructor/grade stages it, with the same
        # roster, so that the pairs name the students as the gradebook does.
        folder = class_folder(os.path.abspath(args.submissions), os.path.join(work, "download"), "similarity")
        folder, _, _, said = lms.stage_class(folder, os.path.join(work, "lms"), lab_files, args.roster, grades,
                                             "similarity")
        if said:
            print(f"similarity: {said}", file=sys.stderr)
        texts, skipped = gather(lab_files, folder, work)
        if not texts and not skipped:
            sys.exit(lms.no_submissions(folder, " ".join(lab_files), "similarity"))
        past = past_terms(args.archive, args.lab, lab_files, args.keep)
        scores, runs, boiler, lines = compare({**texts, **past}, base, work, args.min_run)
        per_file = file_scores({**texts, **past}, boiler, lines, work, args.min_run)
        if args.keep:
            print(f"similarity: this class kept as {args.keep} in "
                  f"{keep_term(args.archive, args.lab, args.keep, texts)}", file=sys.stderr)
    pairs = ranked(scores)
    # A pair with one copied file is reported with the whole pairs: listed
    # first, at the score of its most alike file.
    by_file = [p for p in pairs if p[1][0] < args.threshold and flagged(0, per_file.get(p[0]), 101, args.file_threshold)]
    if by_file:
        pairs = [p for p in pairs if p not in by_file]
        pairs = ranked({pair: (max(per_file[pair].values()), ma, mb) for pair, (_, ma, mb) in by_file}) + pairs
    shutil.rmtree(os.path.join(out, "pairs"), ignore_errors=True)
    os.makedirs(os.path.join(out, "pairs"))
    write_atomic(os.path.join(out, "similarity.csv"), csv_text(ranked(scores), per_file))
    views = set()
    for (a, b), (score, _, _) in shown(pairs, args.threshold)[0][:args.views]:
        write_atomic(os.path.join(out, pair_file(a, b)), pair_html(a, b, score, runs, lines, boiler))
        views.add((a, b))
    warning = median_warning(median_of(pairs), args.median_warning)
    write_atomic(os.path.join(out, "report.html"), report_html(
        f"{args.lab} ({lab_name})", pairs, args.threshold, skipped, len(texts), args.min_run, views, warning,
        [name for name, _ in base], len(past)))
    above = sum(1 for p in pairs if p[1][0] >= args.threshold)
    print(f"similarity: lab {args.lab}, {len(texts)} submissions compared ({len(skipped)} without the lab's "
          f"files), {above} of {len(pairs)} pairs at or above {args.threshold:g}%"
          + (f" ({len(by_file)} of them for one file at or above {args.file_threshold:g}%: "
             + ", ".join(f"{a}-{b} {max(per_file[(a, b)], key=per_file[(a, b)].get)}" for (a, b), _ in by_file) + ")"
             if by_file else ""), file=sys.stderr)
    for (a, b), (score, _, _) in pairs[:5]:
        label = past_label((a, b))
        print(f"  {score:5.1f}%  {a}  {b}" + (f"  ({label})" if label else ""), file=sys.stderr)
    if warning:
        print(f"similarity: warning: {warning}", file=sys.stderr)
    print(f"{out}/report.html, {out}/similarity.csv", file=sys.stderr)
    show_on_class_page(args, grades, out, texts)


def show_on_class_page(args, grades, out, texts):
    """The grading's class page shows these pairs from now on: the grading
    named (--grades), or without -o the kit's default one; never another
    class's (a report written elsewhere with -o stays there), and only when
    its gradebook holds every student compared."""
    if not os.path.isfile(os.path.join(grades, "lab.json")):
        return
    if args.out and not args.grades:
        print(f"similarity: the report stays in {out} (--grades DIR, make similarity GRADES=DIR, shows it on "
              "that grading's class page)", file=sys.stderr)
        return
    try:
        with open(os.path.join(grades, "gradebook.csv"), newline="") as f:
            graded = {row["student"] for row in csv.DictReader(f)}
    except (OSError, KeyError, csv.Error):
        graded = set()
    strangers = sorted(set(texts) - graded)
    if strangers:
        print(f"similarity: not shown on the class page of {grades}: its gradebook does not hold "
              f"{', '.join(strangers[:5])}{' ...' if len(strangers) > 5 else ''} (another class? --grades DIR, "
              "GRADES=DIR, names its grading)", file=sys.stderr)
        return
    term.keep(grades, similarity=out)
    print(f"similarity: the class's page: {write_class_page(grades, similarity=out)}", file=sys.stderr)
