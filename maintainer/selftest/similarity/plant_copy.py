#!/usr/bin/env python3
"""Writes a disguised copy of a lab 1 submission, as a student hiding a copy
would: every comment replaced, identifiers renamed, indentation and spacing
changed, matmult_lib and matmult_nat moved to the end and the loop orders
reversed (sim_c sees those as one token sequence each, so only the first
move shows to it). It still compiles (the self-test checks that too).

    plant_copy.py SOURCE > COPY
"""
import re
import sys

RENAMED = {"i": "row", "j": "col", "l": "p", "m": "rows", "n": "cols", "k": "depth", "A": "left",
           "B": "right", "C": "out", "sum": "acc", "zero": "clear_all", "count": "cnt", "bs": "tile"}
ORDERS = ["mnk", "mkn", "nmk", "nkm", "kmn"]  # each followed by another matmult_ function

src = open(sys.argv[1]).read()
src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
src = re.sub(r"//[^\n]*", "", src)
src = re.sub(r"\b(" + "|".join(RENAMED) + r")\b", lambda m: RENAMED[m.group(1)], src)
src = "\n".join("  " * ((len(x) - len(x.lstrip(" "))) // 4) + x.lstrip(" ").replace(", ", ",")
                for x in src.split("\n"))
chunks = re.split(r"\n(?=void matmult_)", src)
first = next(i for i, c in enumerate(chunks) if c.startswith(f"void matmult_{ORDERS[0]}("))
assert [c[len("void matmult_"):][:3] for c in chunks[first:first + len(ORDERS)]] == ORDERS, "the layout changed"
chunks[first:first + len(ORDERS)] = chunks[first:first + len(ORDERS)][::-1]
src = "\n".join(chunks)
for name in ("lib", "nat"):
    body = re.search(r"void matmult_" + name + r"\(.*?\n}\n", src, flags=re.S).group(0)
    src = src.replace(body, "") + "\n" + body
print("/* Lab 1: my own solution. */\n" + src)
