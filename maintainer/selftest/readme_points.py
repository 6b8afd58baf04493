"""The points a lab's README promises, against the test binary's own list.

    python3 maintainer/selftest/readme_points.py README.md LIST

README.md: a lab's assignment; its "What is graded" section has a table
whose rows name tests in backticks and give their points in the second
column ("3", or "2 each (16)": the total in brackets). LIST: the output
of the lab's test binary with --list (what make check runs). Prints one
line and exits 1 when the README's sum differs from the visible tests' sum,
so that the promise cannot drift from the tests.
"""
import re
import sys


def promised(readme):
    """The points of the visible tests in the README's table of tests, and
    its "N of the M (visible) points" sentence for a CPU-only machine."""
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^## What is graded\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        return None, None
    total = 0.0
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or "`" not in cells[0]:
            continue
        # "`name` [3], `other` [2]" in the first cell, else the second
        # column: "3", "2, 2, 3" or "2 + 1" (one per test), or "2 each (16)" (the
        # total in brackets).
        tagged = re.findall(r"`(\w+)`\s*\[(\d+(?:\.\d+)?)\]", cells[0])
        if tagged:
            total += sum(float(p) for name, p in tagged if not name.startswith("hidden_"))
            continue
        names = re.findall(r"`(\w+)", cells[0])
        if names and all(n.startswith("hidden_") for n in names):
            continue
        if re.fullmatch(r"\d+(?:\.\d+)?(?:\s*[,+]\s*\d+(?:\.\d+)?)+", cells[1]):
            total += sum(float(p) for p in re.split(r"[,+]", cells[1]))  # "2, 2, 3" or "2 + 1": one per test
            continue
        points = re.search(r"\((\d+(?:\.\d+)?)\)", cells[1]) or re.match(r"(\d+(?:\.\d+)?)", cells[1])
        if points:
            total += float(points.group(1))
    cpu = re.search(r"(\d+) of the (\d+)\s+(?:visible\s+)?points", " ".join(text.split()))
    return total, (float(cpu.group(1)), float(cpu.group(2))) if cpu else None


def listed(path):
    """(visible points, visible points of tests that need no GPU)."""
    visible = cpu = 0.0
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) >= 4 and f[2] == "points" and f[3] == "visible":
            visible += float(f[1])
            cpu += 0 if "GPU" in line else float(f[1])
    return visible, cpu


def main():
    readme, listing = sys.argv[1], sys.argv[2]
    (want, cpu_claim), (have, cpu_have) = promised(readme), listed(listing)
    if want is None:
        print(f"{readme}: no 'What is graded' section")
        return 1
    wrong = []
    if want != have:
        wrong.append(f"its table of tests gives {want:g} visible points, make check's list {have:g}")
    if cpu_claim and cpu_claim != (cpu_have, have):
        wrong.append(f"it promises {cpu_claim[0]:g} of {cpu_claim[1]:g} points without a GPU, "
                     f"make check's list {cpu_have:g} of {have:g}")
    if wrong:
        print(f"{readme}: " + "; ".join(wrong))
        return 1
    print(f"{readme}: {have:g} visible points" + (f", {cpu_have:g} without a GPU" if cpu_claim else "")
          + ", as make check's list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
