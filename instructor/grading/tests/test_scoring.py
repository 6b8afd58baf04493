"""Scoring: performance points from the ratio of times, the harness's exit
status, the size beyond the last-level cache; the call rules' verdicts."""
import unittest

from callrules import calls
from grading import perf


class PerfScore(unittest.TestCase):
    def setUp(self):
        (self.p,) = perf.parse("1 blk 4 2.0 10.0 1 t lab1_blk 1\n", 1, cache_bytes=1)

    def test_formula(self):
        self.assertEqual(self.p.score(1.0), 4.0)
        self.assertEqual(self.p.score(2.0), 4.0)
        self.assertEqual(self.p.score(10.0), 0.0)
        self.assertEqual(self.p.score(50.0), 0.0)
        # linear in the speed, 4 (1/3 - 1/10) / (1/2 - 1/10) = 2.33, on the
        # grid of quarters of the points: 2
        self.assertEqual(self.p.score(3.0), 2.0)
        self.assertEqual(self.p.score(5.0), 1.0)

    def test_steps_of_the_grid_and_monotone(self):
        last = 4.0
        for i in range(200, 1001):
            s = self.p.score(i / 100)
            self.assertLessEqual(s, last)
            self.assertLessEqual(last - s, 4.0 / perf.GRID)  # one step at a time
            self.assertIn(s / 4.0 * perf.GRID, range(perf.GRID + 1))
            last = s

    def test_noise_within_a_step_gives_equal_points(self):
        # mandel's entry (2 points, full at 1.25 x): 1.27 x and 1.30 x, two
        # timings of one file, once gave 1.89 and 2; on the grid both give 2
        (m,) = perf.parse("2 mandel 2 1.25 4.0 all t lab2_mandel 1\n", 2, cache_bytes=1)
        self.assertEqual(m.score(1.27), m.score(1.30))

    def test_jobs_warning(self):
        # JOBS=1 is what the guide says for performance points
        self.assertIsNone(perf.jobs_warning(1, [self.p]))
        self.assertIsNone(perf.jobs_warning(4, []))  # --no-perf, or a lab without performance points
        self.assertIn("-j 2 with performance points", perf.jobs_warning(2, [self.p]))
        self.assertIn("JOBS=1", perf.jobs_warning(2, [self.p]))

    def test_harness_status(self):
        self.assertEqual(perf.harness_ratio(30), 1.0)
        self.assertEqual(perf.harness_ratio(45), 2.5)
        self.assertEqual(perf.harness_ratio(120), 10.0)
        self.assertIsNone(perf.harness_ratio(3))    # a wrong result
        self.assertIsNone(perf.harness_ratio(124))  # the time limit
        self.assertIsNone(perf.harness_ratio(0))    # exit(0) from student code

    def test_entry(self):
        e = perf.scored_entry(self.p, {"name": "perf_blk", "max_score": 4.0, "score": 0.0}, 3.0, 0.5)
        self.assertEqual((e["score"], e["status"]), (2.0, "failed"))
        self.assertIn("3.00 x the reference's time", e["output"])

    def test_device_case(self):
        (g,) = perf.parse("3 gpu5 3 1.25 4.0 gpu a,b lab3_gpu5 64 64 64\n", 3, cache_bytes=1)
        self.assertTrue(g.device and not self.p.device)
        self.assertEqual(g.env()["OMP_NUM_THREADS"], "1")
        e = perf.scored_entry(g, {"name": "perf_gpu5", "max_score": 3.0, "score": 0.0}, 1.0, 0.03,
                              ("cuBLAS_DGEMM", 0.01))
        self.assertIn("one GPU", e["output"])
        self.assertEqual(e["extra_data"]["bound_name"], "cuBLAS DGEMM")
        self.assertEqual(perf.NO_DEVICE, 5)  # perf_harness.h's PERF_NO_DEVICE
        with self.assertRaises(ValueError):
            perf.parse("3 gpu5 3 1.25 4.0 gpus a lab3_gpu5 64 64 64\n", 3, cache_bytes=1)

    def test_beyond_llc(self):
        self.assertEqual(perf.beyond_llc(32 << 20), 2048)          # 2048^2 * 8 bytes = 32 MiB
        self.assertEqual(perf.beyond_llc((32 << 20) + 1), 2112)
        self.assertEqual(perf.beyond_llc(1 << 40), 8192)           # capped
        self.assertGreaterEqual(perf.beyond_llc(perf.last_level_cache_bytes()) ** 2 * 8,
                                min(perf.last_level_cache_bytes(), 8192 ** 2 * 8))
        self.assertEqual(perf.parse_size("32768K"), 32 << 20)
        self.assertEqual(perf.parse_size("8M"), 8 << 20)


class CallRules(unittest.TestCase):
    conf = ("lib tests lib_t all\nnat tests nat_t all\nomp tests omp_t\n"
            "nat forbid cblas_*\nomp forbid cblas_*\nomp require GOMP_parallel*\n")

    def verdicts(self, graph):
        return calls.violations(calls.parse(self.conf), sorted(graph), lambda f: graph[f])

    def test_clean(self):
        self.assertEqual(self.verdicts({"lib": {"cblas_dgemm": []}, "nat": {"malloc": []},
                                        "omp": {"GOMP_parallel": []}}), [])

    def test_forbidden_through_another_function(self):
        (v,) = self.verdicts({"lib": {"cblas_dgemm": []}, "nat": {"cblas_dgemm": ["lib"]},
                              "omp": {"GOMP_parallel": []}})
        self.assertEqual(v, ("nat", ["nat_t", "all"],
                             "nat calls cblas_dgemm (through lib), which this lab reserves for lib"))

    def test_required_missing(self):
        (v,) = self.verdicts({"lib": {}, "nat": {}, "omp": {"memcpy": []}})
        self.assertEqual(v[0], "omp")
        self.assertIn("GOMP_parallel*", v[2])

    def test_forbidden_here_allowed_elsewhere_unused(self):
        (v,) = self.verdicts({"lib": {}, "nat": {"cblas_dgemm": []}, "omp": {"GOMP_parallel": []}})
        self.assertEqual(v[2], "nat calls cblas_dgemm, which this lab does not allow in nat")

    def test_forbidden_everywhere(self):
        rules = calls.parse("a tests t\na forbid ref\n")
        (v,) = calls.violations(rules, ["a"], lambda f: {"ref": []})
        self.assertIn("which no function of this lab may call", v[2])


if __name__ == "__main__":
    unittest.main()
