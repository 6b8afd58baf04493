"""What a student reads: `make standing LAB=N` (the board: per device, the
best correct run of each student, the top rows and the few just ahead of
the reader, under the names the students chose or their pseudonyms) and
`make history LAB=N` (their own runs)."""
from . import course, records

ADVISORY = ("advisory: each record is written by the student's own job, so one can be forged; "
            "grading checks every best record against the code handed in")


def figures_text(r):
    return ", ".join(f"{n} {f['seconds']:.4g} s" for n, f in sorted(r["figures"].items())) or "-"


def rows_shown(n, mine, top, ahead):
    """Indices of the rows shown: the top ones, then the reader's and the
    few just ahead of it (mine: the reader's index or None)."""
    shown = set(range(min(top, n)))
    if mine is not None:
        shown |= set(range(max(0, mine - ahead), mine + 1))
    return sorted(shown)


def standing(lab, me=None, conf=None):
    conf = conf or course.settings()
    spool = conf["STANDING_SPOOL"]
    if not spool:
        return None
    me = me or course.student_id()
    found = records.load(spool, lab)
    names = records.shown_names(found, conf["STANDING_SALT"])
    boards = records.best_runs(found)
    out = [f"Lab {lab}: the class standing ({ADVISORY})."]
    if not boards:
        out.append(f"No correct run recorded yet: make check SCHED=slurm (or lsf) records yours.")
        return "\n".join(out)
    for device in sorted(boards, key=lambda d: -len(boards[d])):
        rows = boards[device]
        mine = next((i for i, r in enumerate(rows) if r["student"] == me), None)
        out.append(f"\non {device or 'an unnamed host'}: {len(rows)} student{'s' if len(rows) != 1 else ''}, "
                   "the best correct run of each, fastest first")
        out.append(f"  {'rank':>4}  {'name':<20} {'figures':<28} {'points':>9}  when")
        last = -1
        for i in rows_shown(len(rows), mine, int(conf["STANDING_TOP"]), int(conf["STANDING_AHEAD"])):
            if i > last + 1:
                out.append("   ...")
            r = rows[i]
            name = names[r["student"]] + (" (you)" if i == mine else "")
            out.append(f"  {i + 1:>4}  {name:<20} {figures_text(r):<28} {r['points']:>4g}/{r['max_points']:<4g}  "
                       f"{r['time'].replace('T', ' ')[:16]}")
            last = i
        if last < len(rows) - 1:
            out.append(f"   ... {len(rows) - 1 - last} more")
        if mine is None:
            out.append("  (you: no correct run on this host yet)")
    return "\n".join(out)


def history(lab, me=None, conf=None):
    conf = conf or course.settings()
    spool = conf["STANDING_SPOOL"]
    if not spool:
        return None
    me = me or course.student_id()
    mine = [r for r in records.load(spool, lab) if r["student"] == me]
    out = [f"Lab {lab}: your recorded runs ({me}), oldest first"]
    if not mine:
        out.append("none yet: make check SCHED=slurm (or lsf) records each run")
    for r in mine:
        state = "on the board" if records.entered(r) else "not on the board: " + (
            "; ".join(r.get("untimed", [])) or "a test did not pass")
        out.append(f"  {r['time'].replace('T', ' ')[:16]}  {r['points']:g}/{r['max_points']:g} points  "
                   f"{figures_text(r)}  on {r.get('timed_on') or '?'}  code {r['code'][:12]}  ({state})")
    return "\n".join(out)
