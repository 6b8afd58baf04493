"""The performance block of the feedback: rates from the grader's measured
ratio and the reference's time (nothing timed here), the library bound
from the reference harness's output, the text, the chart's rows."""
import os
import shutil
import tempfile
import unittest

from grading import perf, perf_feedback as pf, report


class PerfFeedback(unittest.TestCase):
    def test_rates_from_ratio_and_reference_time(self):
        # 2 * 256 * 1024 * 1024 flops = 0.537 GFLOP; the reference in 0.1 s
        # is 5.37 GFLOP/s; 2.0 x its time is half that; DGEMM in 0.05 s twice.
        f = pf.figures("lab1_blk", ["256", "1024", "1024", "256"], 2.0, 0.1, "1", ("OpenBLAS", 0.05))
        self.assertAlmostEqual(f["reference_rate"], 5.36870912)
        self.assertAlmostEqual(f["student_rate"], 5.36870912 / 2)
        self.assertAlmostEqual(f["bound_rate"], 5.36870912 * 2)
        self.assertEqual((f["function"], f["unit"], f["student_seconds"]), ("matmult_blk", "GFLOP/s", 0.2))
        self.assertEqual(pf.sentence(f), "your matmult_blk: 2.68 GFLOP/s = 0.50 x the reference's 5.37 GFLOP/s "
                                         "(OpenBLAS: 10.7 GFLOP/s)")

    def test_lab2_units_and_unknown_harness(self):
        j = pf.figures("lab2_jacobi", ["128", "20"], 1.0, 0.5, "2")  # 128^3 * 20 updates in 0.5 s
        self.assertAlmostEqual(j["reference_rate"], 128 ** 3 * 20 / 0.5 / 1e6)
        self.assertIn("(no library or hardware bound is measured for it)", pf.sentence(j))
        u = pf.figures("gpu_thing", ["x"], 4.0, 0.01, "1")
        self.assertNotIn("unit", u)
        self.assertEqual(pf.sentence(u), "your gpu_thing: 0.25 x the reference's speed (40.0 ms against 10.0 ms)")

    def test_gpu_units_and_bounds(self):
        g = pf.figures("lab4_gpu3", ["384", "16", "64"], 1.25, 0.005, "GPU", ("device_copy", 0.004))
        self.assertAlmostEqual(g["reference_rate"], 16e-9 * 384 ** 3 * 16 / 0.005)  # GB/s at 16 B per point
        self.assertAlmostEqual(g["bound_rate"], 16e-9 * 384 ** 3 * 16 / 0.004)
        self.assertIn("(device copy: ", pf.sentence(g))
        self.assertIn("on the same machine (one GPU; the medians)", pf.text([{"extra_data": g}], ""))
        m = pf.figures("lab3_gpu5", ["4096", "4096", "4096"], 2.0, 0.03, "GPU")
        self.assertAlmostEqual(m["student_rate"], 2e-9 * 4096 ** 3 / 0.06)

    def test_slower_than_the_harness_measures(self):
        f = pf.figures("lab2_mandel", ["1024", "1024", "300"], 10.0, 0.1, "2")
        self.assertTrue(pf.sentence(f).startswith("your mandel: at most 1.05 Mpixel/s = 0.10 x"))

    def test_bound_line(self):
        self.assertEqual(perf.harness_bound("bound OpenBLAS 0.125000000\n0.2\n"), ("OpenBLAS", 0.125))
        self.assertIsNone(perf.harness_bound("0.2\n"))
        self.assertIsNone(perf.harness_bound("bound OpenBLAS 0\n0.2\n"))

    def test_text_only_for_timed_entries_and_in_both_outputs(self):
        untimed = [{"name": "perf_blk", "score": 0, "max_score": 4, "status": "failed", "output": "SKIP: ..."}]
        self.assertEqual(pf.text(untimed, "chart"), "")
        f = pf.figures("lab1_blk", ["256", "1024", "1024", "256"], 1.0, 0.1, "1")
        tests = [{"name": "perf_blk", "score": 4, "max_score": 4, "status": "passed", "output": "PASS",
                  "extra_data": f}]
        r = {"student": "s", "status": "graded", "total": 4, "max_score": 4, "tests": tests,
             "performance_chart": "The same as a bar chart: performance.png, beside this file."}
        fb = report.feedback(r, "", 1, "lab1-matmult")
        self.assertIn("your matmult_blk: 5.37 GFLOP/s = 1.00 x the reference's 5.37 GFLOP/s", fb)
        self.assertIn("performance.png", fb)
        out = report.gradescope_json(r, "")["output"]
        self.assertIn("your matmult_blk: 5.37 GFLOP/s", out)
        self.assertNotIn("beside this file", out)  # Gradescope shows no files

    def test_chart_rows_relative_to_the_reference(self):
        f = pf.figures("lab1_blk", ["256", "1024", "1024", "256"], 2.0, 0.1, "1", ("OpenBLAS", 0.05))
        rows = pf.chart_data([f])
        self.assertEqual([(b, v) for _, b, v, _ in rows], [("you", 0.5), ("reference", 1.0), ("OpenBLAS", 2.0)])

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
    def test_chart_written_and_removed(self):
        f = pf.figures("lab1_blk", ["256", "1024", "1024", "256"], 2.0, 0.1, "1")
        with tempfile.TemporaryDirectory() as d:
            note = pf.write_chart(d, [{"extra_data": f}], "t")
            self.assertIn(pf.CHART, note)
            self.assertGreater(os.path.getsize(os.path.join(d, pf.CHART)), 1000)
            self.assertEqual(sorted(os.listdir(d)), [pf.CHART])  # no data or temporary file left
            self.assertEqual(pf.write_chart(d, [], "t"), "")
            self.assertEqual(os.listdir(d), [])

    def test_chart_without_gnuplot(self):
        """A GPU host may lack gnuplot: matplotlib draws the chart where it
        is installed, else the feedback says there is none."""
        f = pf.figures("lab3_gpu5", ["64", "64", "64"], 1.5, 0.01, "GPU", ("cuBLAS_DGEMM", 0.002))
        which = pf.shutil.which
        pf.shutil.which = lambda name: None
        try:
            with tempfile.TemporaryDirectory() as d:
                note = pf.write_chart(d, [{"extra_data": f}], "t")
                try:
                    import matplotlib  # noqa: F401
                except ImportError:
                    self.assertIn("No chart: neither gnuplot nor matplotlib", note)
                    self.assertEqual(os.listdir(d), [])
                    return
                self.assertIn("drawn by matplotlib", note)
                self.assertEqual(os.listdir(d), [pf.CHART])
                self.assertGreater(os.path.getsize(os.path.join(d, pf.CHART)), 1000)
        finally:
            pf.shutil.which = which


if __name__ == "__main__":
    unittest.main()
