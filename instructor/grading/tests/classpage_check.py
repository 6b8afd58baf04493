"""The class page's content against the gradebook, for the self-test
(maintainer/selftest/classpage.sh):
    python3 -m grading.tests.classpage_check PAGE OUT [SIMILARITY_DIR]
    python3 -m grading.tests.classpage_check --dom DOM OUT
(--dom: the page as Chromium's --dump-dom wrote it: every link and picture
must be a file that exists, and its counts those of the gradebook and the
histogram.) Prints ok/FAILED lines."""
import csv
import html.parser
import json
import os
import re
import sys


class Tables(html.parser.HTMLParser):
    """Every table of the page under the heading before it: rows of cell
    texts, and the links and images of the page."""

    def __init__(self):
        super().__init__()
        self.tables, self.links, self.images = {}, [], []
        self.heading, self.text, self.row, self.cell = None, None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.text = ""
        elif tag == "table":
            self.tables.setdefault(self.heading, []).append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "a":
            self.links.append(a.get("href"))
        elif tag == "img":
            self.images.append(a.get("src"))

    def handle_endtag(self, tag):
        if tag == "h2":
            self.heading, self.text = self.text.strip(), None
        elif tag in ("td", "th") and self.row is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[self.heading][-1].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.text is not None:
            self.text += data
        if self.cell is not None:
            self.cell += data


def report(ok, what):
    print(("ok      " if ok else "FAILED  ") + "class page: " + what)


def main(page, out, similarity=""):
    t = Tables()
    with open(page) as f:
        t.feed(f.read())
    book = list(csv.DictReader(open(os.path.join(out, "gradebook.csv"))))
    ref = next(r for r in book if r["student"] == "c01_reference")
    (rows,) = t.tables.get("Tests, most failed first", [[]])
    # A test fails on the page when a submission scores under its points
    # (a performance entry: a point short): each column's points are in the
    # students' results.json, not the reference's row, whose timed entry
    # may itself fall short on a loaded host.
    points = {}
    for sid in os.listdir(os.path.join(out, "students")):
        with open(os.path.join(out, "students", sid, "results.json")) as f:
            for e in json.load(f)["tests"]:
                points[e["name"]] = max(points.get(e["name"], 0.0), float(e.get("max_score") or 0))
    want = {}
    for name in (k for k in ref if k not in ("student", "status", "total", "max", "review")):
        ran = [r for r in book if r[name] != ""]
        want[name] = (sum(1 for r in ran if float(r[name]) < points.get(name, float(ref[name]))), len(ran))
    got = {}
    for r in rows[1:]:
        name = r[0].replace(" (hidden)", "")
        failed, ran = r[1].split(" (")[0].split(" / ")
        got[name] = (int(failed), int(ran))
    report(got == want, f"{len(got)} tests listed, each with the failures the gradebook holds"
           + ("" if got == want else f": page {got}, gradebook {want}"))
    rates = [got[r[0].replace(' (hidden)', '')][0] / max(got[r[0].replace(' (hidden)', '')][1], 1) for r in rows[1:]]
    report(rates == sorted(rates, reverse=True) and rates and rates[0] > 0,
           f"most failed first ({rows[1][0]}: {rows[1][1]})" if len(rows) > 1 else "no test rows")
    (review,) = t.tables.get("Grading to review", [[]])
    refused = [r for r in review[1:] if r[0] == "h12_replaces_libc"]
    report(bool(refused) and "rejected" in refused[0][1] and "students/h12_replaces_libc/feedback.txt" in t.links,
           "the refused submission is listed for review, linked to its feedback"
           + (f": {refused[0][1]}" if refused else ""))
    pictures = [p for p in t.images if p]
    missing = [p for p in pictures if not os.path.exists(os.path.join(out, p))]
    report("histogram.png" in pictures and any(p.endswith("perf_blk.png") for p in pictures) and not missing,
           f"its pictures are there: {', '.join(pictures)}" + (f" (missing: {missing})" if missing else ""))
    boards = t.tables.get("Performance", [])
    names = {r["student"] for r in book}
    leaders = [r for b in boards for r in b[1:]]
    report(bool(leaders) and all(r[1].startswith("#") and r[1] not in names for r in leaders)
           and not any(n in " ".join(sum(leaders, [])) for n in names),
           f"the leaderboard ({len(leaders)} rows) names no student: {', '.join(r[1] for r in leaders)}")
    if similarity:
        (pairs,) = t.tables.get("Similarity", [[]])
        linked = [h for h in t.links if h and "/pairs/" in h]
        broken = [h for h in linked if not os.path.exists(os.path.join(out, h))]
        report(len(pairs) > 1 and linked and not broken,
               f"{len(pairs) - 1} similarity pairs, each linked to its side-by-side view"
               + (f" (broken: {broken[:2]})" if broken else ""))


def dom(path, out):
    """The page as a browser read it: every href and src a file there, the
    counts line the gradebook's rows and the histogram's count."""
    t = Tables()
    with open(path) as f:
        text = f.read()
    t.feed(text)
    targets = [x for x in t.links + t.images if x]
    broken = [x for x in targets if "://" in x or not os.path.isfile(os.path.join(out, x))]
    report(targets and not broken, f"in Chromium's DOM, all {len(targets)} links and pictures are files that exist"
           + (f" (not: {broken[:3]})" if broken else ""))
    with open(os.path.join(out, "gradebook.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(out, "histogram.txt")) as f:
        histogram = int(f.readline().split()[2])
    said = re.search(r"class=.counts.>(\d+) students: ([^;]*);", text)
    statuses = {}
    for r in rows:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    named = {m[1]: int(m[0]) for m in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", said[2])} if said else {}
    report(said is not None and int(said[1]) == len(rows) == histogram and named == statuses,
           f"its counts are the gradebook's and the histogram's: {said[0] if said else 'no counts line'}"
           + (f" (gradebook {len(rows)} {statuses}, histogram {histogram})" if not said or named != statuses else ""))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dom"]:
        dom(*sys.argv[2:])
    else:
        main(*sys.argv[1:])
