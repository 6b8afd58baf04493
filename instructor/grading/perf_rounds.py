"""How many alternating rounds of reference and student a performance entry
is timed for, and which points they give (two copies of one
file once got 5 and 3.75 of 5 in one run on a loaded 2-core host).

A round times the reference's harness, then the student's, and gives the
ratio of their times. The rule (settle):

  1. RUNS rounds first. If every round's ratio scores the same points on
     the grid, their spread lies inside one step: those points.
  2. Otherwise one more round at a time: the estimate is the median ratio
     of all rounds so far; once two successive estimates score the same
     points, those points (an outlier round, a burst of load during one
     harness's run, is outvoted by the rounds after it).
  3. After MOST_RUNS rounds with no agreement the ratios straddle a step's
     edge, or the host is too loaded to tell: the better of the last two
     estimates counts (the student gets the benefit of the doubt, the same
     way every time the rounds end so), and the entry is marked for review
     with the ratios.

The rule sees only the ratios, so it is tested with scripted ones
(grading/tests/test_perf_rounds.py). Identical files in one grading run
are timed once (Reuse): same code, same host, same run, so the same
points, exactly."""
import collections
import copy
import statistics

RUNS = 3          # rounds before the first estimate
MOST_RUNS = 9     # rounds at most: three times the first estimate's cost

Verdict = collections.namedtuple("Verdict", "ratio points rounds settled ratios")


def settle(score, ratios):
    """The verdict on the rounds' ratios so far, or None while another
    round is needed. score: ratio -> points on the grid (Perf.score)."""
    k = len(ratios)
    if k < RUNS:
        return None
    now = statistics.median(ratios)
    if k == RUNS and len({score(r) for r in ratios}) == 1:
        return Verdict(now, score(now), k, True, list(ratios))
    if k > RUNS:
        before = statistics.median(ratios[:-1])
        if score(before) == score(now):
            return Verdict(now, score(now), k, True, list(ratios))
        if k >= MOST_RUNS:
            better = min(before, now)  # the lower ratio: the faster estimate
            return Verdict(better, score(better), k, False, list(ratios))
    return None


def take_rounds(score, one_round):
    """Rounds until settle gives a verdict. one_round() times one round and
    gives (ratio, the reference's seconds), or None when the student's run
    did not complete (the caller says why). Returns (verdict or None, the
    reference's seconds of each round)."""
    ratios, times = [], []
    while True:
        got = one_round()
        if got is None:
            return None, times
        ratios.append(got[0])
        times.append(got[1])
        verdict = settle(score, ratios)
        if verdict:
            return verdict, times


def review_note(name, verdict):
    """The review column's words for an entry whose rounds did not settle."""
    return (f"review: perf_{name} did not settle in {verdict.rounds} rounds (ratios "
            f"{' '.join(f'{r:g}' for r in verdict.ratios)}); the better estimate, {verdict.ratio:g} x, gave "
            f"{verdict.points:g} points")


class Reuse:
    """The scored performance entries of one grading run, by entry and the
    digest of the student's files: a second submission with the same files
    gets the first one's entry (and its log), not a second timing. Used
    under the timing lock, so a copy graded at the same time waits for the
    first timing and then takes it."""

    def __init__(self):
        self.done = {}

    def get(self, name, digest):
        hit = self.done.get((name, digest))
        return copy.deepcopy(hit) if hit else None

    def put(self, name, digest, entry, log):
        self.done[(name, digest)] = copy.deepcopy((entry, log))
