"""A lab's build variables (common/mk/lab.mk: LAB_NAME, STUDENT_FILES,
SANITIZE...), read in one make run.

Every make run of lab.mk probes the host as it reads the file (pkg-config,
mpicc, the compiler's sanitizers), a few tenths of a second; a grading
that asked for its variables one make run each spent seconds on it."""
import subprocess


def lab_vars(lab, names, kit):
    """{name: value} of lab N's build variables, read in kit's folder.
    Raises RuntimeError with make's own message when lab.mk refuses."""
    rule = "print-vars: ; @printf '%s\\n' " + " ".join(f'"$({n})"' for n in names)
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "common/mk/lab.mk", f"LAB={lab}",
                          "--eval", rule, "print-vars"], cwd=kit, capture_output=True, text=True)
    # The last lines: a lab.mk's $(info ...) notes come before them (lab 4's,
    # on a host without GCC's offloading).
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) < len(names):
        raise RuntimeError(out.stderr.strip()[-300:] or f"lab {lab}'s build variables could not be read")
    return dict(zip(names, lines[len(lines) - len(names):]))
