"""The GPU labs' performance harnesses (lab3_gpu5.c, lab4_gpu3.c in their
labs' tests/perf/) and the device protocol of perf_harness.c, on a machine
without a GPU: each harness is linked with a pretend device
(autograder/perf/tests/fake_device.c) that does the CUDA calls and the
kernels on the CPU, and that can plant one error. The harness must time a
right result, refuse every planted error, and say when there is no GPU."""
import os
import shutil
import subprocess
import tempfile
import unittest

from grading.util import KIT

CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
PERF = os.path.join(KIT, "autograder", "perf")


def build(harness, lab_dir, out):
    cmd = ["gcc", "-std=c17", "-O2", "-Wall", "-Wextra", "-ffp-contract=off", f"-I{CUDA}/include",
           f"-I{KIT}/labs/{lab_dir}", f"-I{KIT}/common", f"-I{PERF}", "-o", out, f"{KIT}/labs/{lab_dir}/tests/perf/{harness}.c",
           f"{PERF}/perf_harness.c", f"{PERF}/tests/fake_device.c", f"{KIT}/common/poisson.c",
           f"{KIT}/common/random.c", "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"{harness} did not build:\n{r.stderr[-2000:]}")


@unittest.skipUnless(os.path.exists(f"{CUDA}/include/cuda_runtime.h"), "no CUDA headers here")
class DeviceHarness(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="kit-device-harness-")
        cls.gpu3 = os.path.join(cls.dir, "lab4_gpu3")
        cls.gpu5 = os.path.join(cls.dir, "lab3_gpu5")
        # (lab 4's jacobi.h includes nccl.h, which CUDA's include folder holds)
        build("lab4_gpu3", "lab4-multigpu-jacobi", cls.gpu3)
        build("lab3_gpu5", "lab3-gpu-matmult", cls.gpu5)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_harness(self, exe, args, fault="none"):
        env = dict(os.environ, FAKE_FAULT=fault)
        return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=120)

    def test_right_results_are_timed(self):
        for exe, args in ((self.gpu3, ["24", "16", "8"]), (self.gpu5, ["40", "30", "50"])):
            r = self.run_harness(exe, ["--bound", *args])
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.split()
            self.assertEqual(lines[0], "bound")            # "bound NAME SECONDS", then the median
            self.assertGreater(float(lines[-1]), 0)
            r = self.run_harness(exe, ["--ref-seconds", "1000", *args])
            self.assertEqual(r.returncode, 20, r.stderr)   # 20 + 10 t / T: far faster than 1000 s

    def test_planted_errors_are_refused(self):
        for fault in ("last_sweep", "early_sweep", "norm", "wall"):
            with self.subTest(fault=fault):
                r = self.run_harness(self.gpu3, ["--ref-seconds", "1", "24", "16", "8"], fault)
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)  # a wrong result
        for fault in ("element", "remembers"):  # remembers: the first call's C, for new inputs in the same arrays
            with self.subTest(fault=fault):
                r = self.run_harness(self.gpu5, ["--ref-seconds", "1", "40", "30", "50"], fault)
                self.assertEqual(r.returncode, 3, r.stdout + r.stderr)

    def test_no_gpu_is_said(self):
        r = self.run_harness(self.gpu3, ["24", "16", "8"], "no_device")
        self.assertEqual(r.returncode, 5)  # PERF_NO_DEVICE, perf.NO_DEVICE
        self.assertIn("no GPU", r.stderr)


if __name__ == "__main__":
    unittest.main()
