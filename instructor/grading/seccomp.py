"""The grading sandbox's seccomp filter (instructor/sandbox/run, x86_64
hosts), as the classic BPF program bubblewrap's --seccomp takes: the calls
that reach into another process's memory or files fail with EPERM, and so
does every call through the i386 and x32 ABIs, which number them
differently and which no lab needs.

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


def program(blocked=tuple(BLOCKED.values())):
    """[(code, jt, jf, k)]: another architecture's call (i386) is refused,
    an x32 call is refused, a blocked number is refused, the rest allowed."""
    n = len(blocked)
    prog = [(LD, 0, 0, OFFSET_ARCH), (JEQ, 0, n + 3, AUDIT_ARCH_X86_64), (LD, 0, 0, OFFSET_NR),
            (JGE, n + 1, 0, X32_SYSCALL_BIT)]
    prog += [(JEQ, n - i, 0, nr) for i, nr in enumerate(blocked)]
    return prog + [(RET, 0, 0, ALLOW), (RET, 0, 0, EPERM)]


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
