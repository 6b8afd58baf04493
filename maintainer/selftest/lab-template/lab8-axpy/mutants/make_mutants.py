"""Regenerates lab 8's mutant from the reference (run from the kit's root:
    python3 labs/lab8-axpy/mutants/make_mutants.py)."""
import sys; sys.path.insert(0, 'maintainer/mutants')
from mkpatch import mutant
R = 'labs/lab8-axpy/solution'; M = 'labs/lab8-axpy/mutants'
mutant(R, f'{M}/step_reads_wrong_x.patch', "axpy adds a x[i + 2] to y[i + 3] in each step of four.",
       [('axpy.c', 'y[i + 3] += a * x[i + 3];', 'y[i + 3] += a * x[i + 2];')],
       caught_by=['axpy_sizes', 'axpy_negative_a'])
