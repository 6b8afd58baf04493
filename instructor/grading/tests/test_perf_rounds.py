"""The rounds of a performance entry (grading/perf_rounds.py), with
scripted ratios: no timing here."""
import statistics
import unittest

from grading import perf, perf_rounds


def scripted(ratios, tref=0.5):
    """one_round() giving the ratios in turn; counts the rounds taken."""
    it = iter(ratios)
    taken = []

    def one_round():
        taken.append(1)
        r = next(it)
        return None if r is None else (r, tref)
    return one_round, taken


class Rounds(unittest.TestCase):
    def setUp(self):
        # lab 1's line on the grading_term self-test: 5 points, full up to
        # 2 x, none from 10 x: steps of 1.25 points
        (self.p,) = perf.parse("1 blk 5 2.0 10.0 1 t lab1_blk 1\n", 1, cache_bytes=1)

    def take(self, ratios):
        one_round, taken = scripted(ratios)
        verdict, times = perf_rounds.take_rounds(self.p.score, one_round)
        self.assertEqual(len(times), len(taken) - (verdict is None))  # a failed round has no time
        return verdict, len(taken)

    def test_quiet_host_three_rounds(self):
        v, n = self.take([1.0, 1.1, 0.9, 9.9])
        self.assertEqual((v.points, n, v.settled), (5.0, 3, True))

    def test_spread_inside_one_step_settles_at_once(self):
        # 3.0 and 3.3 x both score 2.5 of 5: one step, no more rounds
        v, n = self.take([3.0, 3.3, 3.1, 9.9])
        self.assertEqual((v.points, n), (self.p.score(3.1), 3))

    def test_the_ci_case_is_outvoted(self):
        # The loaded CI host: two of the first three rounds of the reference
        # against itself at 2.5 x (3.75 of 5); the rounds after them at 1 x.
        # The estimates go 3.75, 5 (median 1.75), 5: settled on full points.
        v, n = self.take([1.0, 2.5, 2.6, 1.0, 1.0, 9.9])
        self.assertEqual((v.points, n, v.settled), (5.0, 5, True))

    def test_one_outlier_costs_one_round(self):
        v, n = self.take([1.0, 1.0, 3.0, 1.0, 9.9])
        self.assertEqual((v.points, n, v.settled), (5.0, 4, True))

    def test_unsettled_gives_the_better_estimate_and_a_review(self):
        # Ratios alternating across the edge of two steps for all rounds.
        ratios = [2.2, 3.0, 2.2, 3.0, 2.2, 3.0, 2.2, 3.0, 2.2, 3.0]
        medians = [self.p.score(statistics.median(ratios[:k])) for k in range(3, perf_rounds.MOST_RUNS + 1)]
        self.assertTrue(all(a != b for a, b in zip(medians, medians[1:])))  # no two successive agree
        v, n = self.take(ratios)
        self.assertEqual(n, perf_rounds.MOST_RUNS)
        self.assertFalse(v.settled)
        # the better (lower) of the last two medians: of 8 rounds 2.6, of 9 2.2
        self.assertEqual(v.ratio, 2.2)
        self.assertEqual(v.points, self.p.score(2.2))
        note = perf_rounds.review_note("blk", v)
        self.assertIn("review: perf_blk did not settle in 9 rounds (ratios 2.2 3 2.2 3 2.2 3 2.2 3 2.2)", note)

    def test_the_same_ratios_give_the_same_points_in_any_order(self):
        # Two copies of one file timed in different runs: the same rounds
        # in another order end in the same points.
        a, _ = self.take([1.0, 2.5, 2.6, 1.0, 1.0])
        b, _ = self.take([2.6, 1.0, 1.0, 2.5, 1.0])
        self.assertEqual(a.points, b.points)

    def test_a_round_that_fails_stops(self):
        v, n = self.take([1.0, None, 1.0])
        self.assertIsNone(v)
        self.assertEqual(n, 2)

    def test_never_more_than_most_runs(self):
        for start in ([2.2, 3.0, 2.2], [1.0, 9.0, 5.0], [2.0, 2.1, 2.2]):
            v, n = self.take(start + [2.2, 3.0] * 10)
            self.assertLessEqual(n, perf_rounds.MOST_RUNS)
            self.assertIsNotNone(v)

    def test_entry_says_rounds_and_review(self):
        v = perf_rounds.Verdict(2.2, self.p.score(2.2), 9, False, [2.2, 3.0] * 4 + [2.2])
        e = perf.scored_entry(self.p, {"name": "perf_blk", "max_score": 5.0, "score": 0.0}, v.ratio, 0.5, None, v)
        self.assertIn("median of 9 alternating runs", e["output"])
        self.assertIn("did not settle", e["output"])
        self.assertTrue(e["review"].startswith("review: perf_blk"))
        v = perf_rounds.Verdict(1.0, 5.0, 4, True, [1.0, 1.0, 3.0, 1.0])
        e = perf.scored_entry(self.p, {"name": "perf_blk", "max_score": 5.0, "score": 0.0}, 1.0, 0.5, None, v)
        self.assertIn("median of 4 alternating runs", e["output"])
        self.assertNotIn("review", e)


class Reuse(unittest.TestCase):
    def test_identical_files_take_the_first_timing(self):
        r = perf_rounds.Reuse()
        self.assertIsNone(r.get("blk", "abc"))
        entry = {"name": "perf_blk", "score": 3.75, "extra_data": {"ratio": 2.5}}
        r.put("blk", "abc", entry, "log")
        got, log = r.get("blk", "abc")
        self.assertEqual((got, log), (entry, "log"))
        got["score"] = 0  # a copy: the stored entry is not changed by its user
        self.assertEqual(r.get("blk", "abc")[0]["score"], 3.75)
        self.assertIsNone(r.get("blk", "abd"))     # other files
        self.assertIsNone(r.get("mandel", "abc"))  # another entry


if __name__ == "__main__":
    unittest.main()
