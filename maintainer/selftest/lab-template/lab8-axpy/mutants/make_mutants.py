"""Regenerates lab 8's mutant from the reference (run from the kit's root:
    python3 labs/lab8-axpy/mutants/make_mutants.py)."""
import sys; sys.path.insert(0, 'maintainer/mutants')
from mkpatch import mutant
R = 'labs/lab8-axpy/solution'; M = 'labs/lab8-axpy/mutants'
mutant(R, f'{M}/last_element_skipped.patch', "axpy stops one element short.",
       [('axpy.c', 'for (size_t i = 0; i < n; i++)', 'for (size_t i = 0; i + 1 < n; i++)')],
       caught_by=['axpy_sizes', 'axpy_negative_a'])
