"""Regenerates lab 1's mutants from the reference (run from the kit's root:
    python3 labs/lab1-matmult/mutants/make_mutants.py
after changing labs/lab1-matmult/solution/matmult.c)."""
import sys; sys.path.insert(0,'maintainer/mutants')
from mkpatch import mutant
R='labs/lab1-matmult/solution'; M='labs/lab1-matmult/mutants'
F='matmult.c'
mutant(R, f'{M}/nat_transposed_b.patch', "matmult_nat reads B transposed (B[j][l] instead of B[l][j]).\nThe seed's symmetric, constant test matrices could not see this.",
  [(F,'sum += A[i * k + l] * B[l * n + j];','sum += A[i * k + l] * B[j * k + l];')])
mutant(R, f'{M}/mkn_missing_zeroing.patch', "matmult_mkn accumulates into C without zeroing it first.",
  [(F,'''void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
''','''void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
''')])
mutant(R, f'{M}/nmk_loop_past_k.patch', "matmult_nmk runs its inner loop one step past k (l <= k).",
  [(F,'''    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t l = 0; l < (size_t)k; l++)''','''    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t l = 0; l <= (size_t)k; l++)''')])
mutant(R, f'{M}/nat_float_accumulator.patch', "matmult_nat sums in single precision.",
  [(F,'            double sum = 0.0;','            float sum = 0.0f;')])
mutant(R, f'{M}/lib_wrong_leading_dimension.patch', "matmult_lib passes m as the leading dimension of A (it is k, A's row length).",
  [(F,'1.0, A, k, B, n, 0.0, C, n);','1.0, A, m > k ? m : k, B, n, 0.0, C, n);')])
mutant(R, f'{M}/lib_beta_one.patch', "matmult_lib calls DGEMM with beta = 1: C is accumulated into (NaN stays NaN).",
  [(F,'1.0, A, k, B, n, 0.0, C, n);','1.0, A, k, B, n, 1.0, C, n);')])
mutant(R, f'{M}/knm_m_and_n_swapped.patch', "matmult_knm swaps the bounds of the m and n loops: right only when m == n.",
  [(F,'''    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t i = 0; i < (size_t)m; i++)''','''    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t j = 0; j < (size_t)m && j < (size_t)n; j++)
            for (size_t i = 0; i < (size_t)n && i < (size_t)m; i++)''')])
mutant(R, f'{M}/kmn_hangs.patch', "matmult_kmn never finishes on matrices with more than 16 rows.",
  [(F,'''void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
''','''void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    while (m > 16)
        ;
''')])
mutant(R, f'{M}/blk_drops_last_block.patch', "matmult_blk skips the last, partial block of rows (an off-by-one block edge).",
  [(F,'            for (size_t i0 = 0; i0 < M; i0 += mc_max) {','            for (size_t i0 = 0; i0 + mc_max <= M; i0 += mc_max) {')])
mutant(R, f'{M}/blk_edge_tile_square.patch', "matmult_blk copies back only an h x h corner of each edge tile.",
  [(F,'''    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            C[i * ldc + j] = tile[i * NR + j];''','''    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w && j < h; j++)
            C[i * ldc + j] = tile[i * NR + j];''')])
mutant(R, f'{M}/blk_never_overwrites.patch', "matmult_blk always adds to C, also in the first block of k: C is never reset.",
  [(F,'                            micro_kernel(kc, &Ap[ir * kc], &Bp[jr * kc], Ct, N, l0 == 0);','                            micro_kernel(kc, &Ap[ir * kc], &Bp[jr * kc], Ct, N, 0);')])
mutant(R, f'{M}/nkm_writes_out_of_bounds.patch', "matmult_nkm zeroes one row too many: it writes past the end of C.",
  [(F,'''void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);''','''void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)(m + 64) * n, C);''')])
mutant(R, f'{M}/mnk_exits.patch', "matmult_mnk calls exit(0) on a large product: Check alone would count the test as passed.",
  [(F,'''void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
''','''void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    if ((size_t)m * n > 1000)
        exit(0);
''')])
mutant(R, f'{M}/mkn_clears_only_nan.patch', "matmult_mkn clears only the elements of C that hold NaN and adds to the rest: right on a NaN-filled C, wrong when called again on its own result (hidden_called_twice reuses one C).",
  [(F,'''void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
''','''void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t c = 0; c < (size_t)m * n; c++)
        if (C[c] != C[c])
            C[c] = 0.0;
''')])

# A read one past a buffer that leaves the answer unchanged: only the tests'
# AddressSanitizer build (SANITIZE in labs/lab1-matmult/lab.mk) sees it.
mutant(R, f'{M}/nat_prefetch_reads_past_b.patch',
  "matmult_nat loads the next B element ahead of its use; the last load of each sum reads B[k*n + j], past B's end.\n"
  "The value is never used, so every product is right; AddressSanitizer stops the test.",
  [(F, '''            double sum = 0.0;
            for (size_t l = 0; l < (size_t)k; l++)
                sum += A[i * k + l] * B[l * n + j];''', '''            double sum = 0.0, next = B[j];
            for (size_t l = 0; l < (size_t)k; l++) {
                double b = next;
                next = B[(l + 1) * n + j];
                sum += A[i * k + l] * b;
            }''')],
  caught_by=['nat_sizes', 'all_real_inputs', 'hidden_large_shapes', 'hidden_called_twice'])

# Answers remembered by address and shape (GPU MODE's
# "object-identity caching"): right on every first call, wrong when the
# same arrays come back with new contents (l1_check_fresh).
REMEMBER = '''    static const double *seen_A, *seen_B;
    static int seen_m, seen_n, seen_k;
    static double *seen_C;
    if (seen_C && A == seen_A && B == seen_B && m == seen_m && n == seen_n && k == seen_k) {
        memcpy(C, seen_C, (size_t)m * n * sizeof *C);
        return;
    }
'''
KEEP = '''    free(seen_C);
    seen_C = malloc((size_t)m * n * sizeof *C);
    if (seen_C)
        memcpy(seen_C, C, (size_t)m * n * sizeof *C);
    seen_A = A, seen_B = B, seen_m = m, seen_n = n, seen_k = k;
'''

def remembering(name, first=REMEMBER, last=KEEP):
    """(old, new) for matmult_NAME of the reference: the function with
    `first` at its start and `last` at its end."""
    src = open(f'{R}/{F}').read()
    head = f'void matmult_{name}(int m, int n, int k, const double *A, const double *B, double *C)\n{{\n'
    start = src.index(head)
    end = src.index('\n}', start) + 3
    old = src[start:end]
    return old, head + first + old[len(head):-2] + last + '}\n'


mutant(R, f'{M}/mkn_caches_by_address.patch',
  "matmult_mkn remembers its last answer by the addresses of A and B and the shape, and copies it back when they come again:\n"
  "new contents in the same arrays get the old product.",
  [(F, *remembering('mkn'))],
  caught_by=['mkn_sizes'])
mutant(R, f'{M}/blk_caches_by_address.patch',
  "matmult_blk remembers its last answer by the addresses of A and B and the shape (not bs), and copies it back when they come again.",
  [(F, '''void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
''', '''void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
''' + REMEMBER),
   (F, '''    free(Ap);
    free(Bp);
}''', '''    free(Ap);
    free(Bp);
''' + KEEP + '''}''')],
  caught_by=['blk_ragged_edges'])
SAMPLE = """    static double seen_sample[4];
    const double sample[4] = {A[0], A[(size_t)m * k - 1], B[0], B[(size_t)k * n - 1]};
"""
mutant(R, f'{M}/nkm_caches_by_sample.patch',
  "matmult_nkm remembers its last answer by the addresses, the shape and a sample of the contents (the first and last elements of A and B),\n"
  "and copies it back when they all agree: a change inside A is missed.",
  [(F, *remembering('nkm', SAMPLE + REMEMBER.replace('if (seen_C &&', 'if (seen_C && !memcmp(sample, seen_sample, sizeof sample) &&'),
                    '    memcpy(seen_sample, sample, sizeof sample);\n' + KEEP))],
  caught_by=['nkm_sizes'])
