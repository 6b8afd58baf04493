"""ELF inspection on objects compiled here (gcc, as the kit compiles
student code: -fPIC -ffunction-sections -fdata-sections)."""
import os
import shutil
import subprocess
import tempfile
import unittest

from callrules import elf

SOURCE = r"""
#include <stdlib.h>
extern void cblas_dgemm(void);
extern int GOMP_parallel(void);
static void helper(void) { cblas_dgemm(); }
static void (*const table[])(void) = {helper};
void lib(void) { cblas_dgemm(); }
void via_static(void) { helper(); }
void via_lib(void) { lib(); }
void via_table(int i) { table[i](); }
void clean(double *p) { free(p); }
__attribute__((constructor)) static void early(void) { clean(0); }
"""


class Elf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        src, cls.obj = os.path.join(cls.tmp.name, "s.c"), os.path.join(cls.tmp.name, "s.o")
        with open(src, "w") as f:
            f.write(SOURCE)
        subprocess.run(["gcc", "-O2", "-fPIC", "-ffunction-sections", "-fdata-sections", "-fno-inline",
                        "-c", src, "-o", cls.obj], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_calls_directly_and_through_functions(self):
        g = elf.CallGraph([self.obj])
        self.assertEqual(g.functions(), ["clean", "lib", "via_lib", "via_static", "via_table"])
        self.assertEqual(g.external_calls("lib"), {"cblas_dgemm": []})
        self.assertEqual(g.external_calls("via_lib"), {"cblas_dgemm": ["lib"]})
        self.assertEqual(g.external_calls("via_static"), {"cblas_dgemm": ["helper"]})
        self.assertIn("cblas_dgemm", g.external_calls("via_table"))
        self.assertEqual(g.external_calls("clean"), {"free": []})

    def test_constructor_found(self):
        obj = elf.ObjectFile(self.obj)
        self.assertEqual(elf.startup_code(obj, from_cu=False), ["a constructor (early)"])
        # nvcc's exemption holds for nvcc's exact name in a .cu object only
        self.assertEqual(elf.startup_code(obj, from_cu=True), ["a constructor (early)"])

    def test_defined_and_unsafe(self):
        obj = elf.ObjectFile(self.obj)
        self.assertIn("lib", obj.defined())
        self.assertNotIn("helper", obj.defined())
        self.assertEqual(elf.unsafe_symbols(obj, {"clean", "free"}), ["clean"])


def cuda_gencode():
    """The kit's GPU targets as nvcc's flags: common/mk/cuda_arch.mk's
    (the environment's CUDA_ARCH wins, as it does for make)."""
    kit = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "common/mk/config.mk",
                          "--eval", "print: ; @echo $(CUDA_GENCODE)", "print"],
                         cwd=kit, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1].split()


def nvcc():
    for c in (shutil.which("nvcc"), os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")):
        if c and os.access(c, os.X_OK):
            return c
    return None


@unittest.skipUnless(nvcc(), "no nvcc here")
def compiled(folder, name, text, *compiler):
    """(the compiler's run, the object) of text saved as folder/name and
    compiled by compiler (a command, without -c and -o)."""
    src = os.path.join(folder, name)
    obj = os.path.splitext(src)[0] + ".o"
    with open(src, "w") as f:
        f.write(text)
    return subprocess.run([*compiler, "-c", src, "-o", obj], capture_output=True, text=True), obj


class NvccObject(unittest.TestCase):
    """The constructor nvcc writes into every .cu object is exempt, by its
    exact name, in a .cu object only; and a kernel launch's host code shows
    its calls (through nvcc's stubs) like any other."""

    def test_registration_constructor(self):
        with tempfile.TemporaryDirectory() as tmp:
            done, obj = compiled(tmp, "k.cu", "__global__ void kern(double *a) { a[threadIdx.x] = 1; }\n"
                                 "extern \"C\" void launch(double *d) { kern<<<1, 32>>>(d); }\n",
                                 nvcc(), *cuda_gencode(), "-Xcompiler", "-fPIC", "-Xcompiler", "-ffunction-sections",
                                 "-Xcompiler", "-fdata-sections")
            done.check_returncode()
            o = elf.ObjectFile(obj)
            self.assertEqual(elf.startup_code(o, from_cu=True), [])
            self.assertEqual(elf.startup_code(o, from_cu=False), [f"a constructor ({elf.NVCC_CONSTRUCTOR})"])
            self.assertIn("__cudaLaunchKernel", elf.CallGraph([obj]).external_calls("launch"))


class OffloadObject(unittest.TestCase):
    """clang's OpenMP offloading registration constructor is exempt, in an
    object that holds a device image only; a constructor of the student's
    under its name (an asm label) is not."""

    def test_a_constructor_under_the_registrations_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            done, obj = compiled(tmp, "o.c", '#include <stdlib.h>\n'
                                 'static void early(void) __asm__(".omp_offloading.requires_reg");\n'
                                 '__attribute__((constructor)) static void early(void) { system("true"); }\n',
                                 "gcc", "-O2")
            done.check_returncode()
            self.assertEqual(elf.startup_code(elf.ObjectFile(obj), from_cu=False),
                             [f"a constructor ({elf.OFFLOAD_CONSTRUCTOR})"])

    @unittest.skipUnless(shutil.which("clang-16"), "no clang-16 here")
    def test_clangs_registration(self):
        with tempfile.TemporaryDirectory() as tmp:
            done, obj = compiled(tmp, "t.c", "void twice(double *a, int n) {\n#pragma omp target teams distribute "
                                 "parallel for map(tofrom: a[0:n])\n    for (int i = 0; i < n; i++) a[i] *= 2;\n}\n",
                                 "clang-16", "-O2", "-fopenmp", "--offload-arch=sm_80")
            if done.returncode != 0:
                self.skipTest(f"clang-16 does not offload here: {done.stderr.strip()[:100]}")
            self.assertEqual(elf.startup_code(elf.ObjectFile(obj), from_cu=False), [])


if __name__ == "__main__":
    unittest.main()
