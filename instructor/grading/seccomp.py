"""The grading sandbox's seccomp filter (instructor/sandbox/confine, x86_64
hosts), as the classic BPF program bubblewrap's --seccomp takes: the calls
that reach into another process's memory or files fail with EPERM, and so
does every call through the i386 and x32 ABIs, which number them
differently and which no lab needs.

ptrace is refused only where it would take hold of a process that did not
ask for it (PTRACE_ATTACH, PTRACE_SEIZE): a process that asks to be traced
by its parent (PTRACE_TRACEME) may be, and its parent may then trace it.
compute-sanitizer may start the program it checks so (the labs' graded
sanitizer tests, autograder/cuda/compute_sanitizer.h: on a GPU host they
pass in the sandbox with this filter); the runner never asks, so no
test's code can take hold of it.

    python3 -m grading.seccomp FILE     writes the program to FILE
"""
import struct
import sys

# BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K, BPF_RET|BPF_K
LD, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
ALLOW, EPERM = 0x7fff0000, 0x00050001       # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
AUDIT_ARCH_X86_64 = 0xc000003e
X32_SYSCALL_BIT = 0x40000000
OFFSET_NR, OFFSET_ARCH = 0, 4               # of struct seccomp_data
BLOCKED = {"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "pidfd_getfd": 438}
PTRACE = BLOCKED["ptrace"]
OFFSET_ARG0 = 16                            # struct seccomp_data's args[0], its low 32 bits
PTRACE_REFUSED = {"PTRACE_ATTACH": 16, "PTRACE_SEIZE": 0x4206}


def program(blocked=tuple(BLOCKED.values())):
    """[(code, jt, jf, k)]: another architecture's call (i386) is refused,
    an x32 call is refused, a blocked number is refused (ptrace only for
    the requests in PTRACE_REFUSED), the rest allowed."""
    others = [nr for nr in blocked if nr != PTRACE]
    refused = list(PTRACE_REFUSED.values()) if PTRACE in blocked else []
    # the layout first, so that each jump's offset can be worked out
    n_head = 4 + (1 if refused else 0) + len(others)    # up to the first RET ALLOW
    ptrace_at = n_head + 1                               # the ptrace request's checks
    eperm_at = ptrace_at + (1 + len(refused) + 1 if refused else 0)

    def to(target, at):
        return target - at - 1

    prog = [(LD, 0, 0, OFFSET_ARCH), (JEQ, 0, to(eperm_at, 1), AUDIT_ARCH_X86_64), (LD, 0, 0, OFFSET_NR),
            (JGE, to(eperm_at, 3), 0, X32_SYSCALL_BIT)]
    if refused:
        prog.append((JEQ, to(ptrace_at, len(prog)), 0, PTRACE))
    prog += [(JEQ, to(eperm_at, len(prog) + i), 0, nr) for i, nr in enumerate(others)]
    prog.append((RET, 0, 0, ALLOW))
    if refused:
        prog.append((LD, 0, 0, OFFSET_ARG0))
        prog += [(JEQ, to(eperm_at, len(prog) + i), 0, req) for i, req in enumerate(refused)]
        prog.append((RET, 0, 0, ALLOW))
    prog.append((RET, 0, 0, EPERM))
    assert len(prog) == eperm_at + 1
    return prog


def encode(prog):
    """The bytes of struct sock_filter[] (u16 code, u8 jt, u8 jf, u32 k)."""
    return b"".join(struct.pack("HBBI", *ins) for ins in prog)


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], "wb") as f:
        f.write(encode(program()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
