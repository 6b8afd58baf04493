"""The sandbox's seccomp filter (grading/seccomp.py), run by a small
interpreter of classic BPF on the bytes bubblewrap gets: which calls it
refuses and which it lets through."""
import struct
import unittest

from grading import seccomp

I386 = 0x40000003  # AUDIT_ARCH_I386


def run(code, arch, nr, arg0=0):
    """The filter's verdict for one call (the subset of BPF it uses)."""
    prog = [struct.unpack("HBBI", code[i:i + 8]) for i in range(0, len(code), 8)]
    data = {seccomp.OFFSET_ARCH: arch, seccomp.OFFSET_NR: nr, seccomp.OFFSET_ARG0: arg0}
    acc, pc = 0, 0
    while True:
        op, jt, jf, k = prog[pc]
        if op == seccomp.LD:
            acc = data[k]
        elif op == seccomp.RET:
            return k
        elif op in (seccomp.JEQ, seccomp.JGE):
            hit = acc == k if op == seccomp.JEQ else acc >= k
            pc += jt if hit else jf
        else:
            raise AssertionError(f"instruction {op:#x} not expected")
        pc += 1


class Filter(unittest.TestCase):
    def setUp(self):
        self.code = seccomp.encode(seccomp.program())

    def test_layout(self):
        self.assertEqual(len(self.code) % 8, 0)
        self.assertEqual(len(self.code) // 8, len(seccomp.BLOCKED) + 6 + len(seccomp.PTRACE_REFUSED) + 2)

    def test_blocked_calls_fail_with_eperm(self):
        for name, nr in seccomp.BLOCKED.items():
            if nr != seccomp.PTRACE:
                with self.subTest(name):
                    self.assertEqual(run(self.code, seccomp.AUDIT_ARCH_X86_64, nr), seccomp.EPERM)

    def test_ptrace_only_of_a_process_that_asked(self):
        for name, request in seccomp.PTRACE_REFUSED.items():
            with self.subTest(name):
                self.assertEqual(run(self.code, seccomp.AUDIT_ARCH_X86_64, seccomp.PTRACE, request), seccomp.EPERM)
        # PTRACE_TRACEME, PEEKDATA, CONT, GETREGS, SETOPTIONS: on a tracee that asked
        for request in (0, 2, 7, 12, 0x4200):
            with self.subTest(request=request):
                self.assertEqual(run(self.code, seccomp.AUDIT_ARCH_X86_64, seccomp.PTRACE, request), seccomp.ALLOW)

    def test_other_calls_are_allowed(self):
        blocked = set(seccomp.BLOCKED.values())
        for nr in range(0, 460):
            if nr not in blocked:
                self.assertEqual(run(self.code, seccomp.AUDIT_ARCH_X86_64, nr), seccomp.ALLOW, nr)

    def test_other_abis_refused(self):
        self.assertEqual(run(self.code, I386, 0), seccomp.EPERM)  # i386's read
        self.assertEqual(run(self.code, seccomp.AUDIT_ARCH_X86_64, seccomp.X32_SYSCALL_BIT | 0), seccomp.EPERM)

    def test_a_shorter_list(self):
        code = seccomp.encode(seccomp.program((101,)))
        self.assertEqual(run(code, seccomp.AUDIT_ARCH_X86_64, 101, 16), seccomp.EPERM)
        self.assertEqual(run(code, seccomp.AUDIT_ARCH_X86_64, 101, 0), seccomp.ALLOW)
        self.assertEqual(run(code, seccomp.AUDIT_ARCH_X86_64, 310), seccomp.ALLOW)
        code = seccomp.encode(seccomp.program((310,)))
        self.assertEqual(run(code, seccomp.AUDIT_ARCH_X86_64, 310), seccomp.EPERM)
        self.assertEqual(run(code, seccomp.AUDIT_ARCH_X86_64, 101, 16), seccomp.ALLOW)
        self.assertEqual(run(code, I386, 1), seccomp.EPERM)


if __name__ == "__main__":
    unittest.main()
