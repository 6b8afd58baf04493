/* Lab 1 reference: matrix multiplication on the CPU.
 *
 * The loop orders are written plainly, the way the assignment asks. The
 * blocked version is the fast one, and shows why DGEMM wins: blocking alone
 * (the seed's square bs x bs blocks around the mkn loops) reaches only about
 * a quarter of OpenBLAS, because the inner loop still streams C from cache
 * and does one load or store per multiply-add. Here B and A are copied
 * ("packed") into small contiguous panels, and a register-blocked micro-kernel
 * keeps an MR x NR tile of C in registers for the whole depth of the panel,
 * so each loaded element of A and B feeds several multiply-adds (the
 * GotoBLAS/BLIS design, in plain C that the compiler vectorises). */
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "matmult.h"

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    /* Row-major, no transposes: the leading dimension of each matrix is its
     * number of columns. beta = 0 means C's old contents (even NaN) are
     * ignored. */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

static void zero(size_t count, double *C)
{
    memset(C, 0, count * sizeof *C); /* all-zero bits are +0.0 in IEEE 754 */
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t j = 0; j < (size_t)n; j++) {
            double sum = 0.0;
            for (size_t l = 0; l < (size_t)k; l++)
                sum += A[i * k + l] * B[l * n + j];
            C[i * n + j] = sum;
        }
}

/* The six orders. Each zeroes C, then accumulates in its own loop order.
 * Only the order of the loops differs; the statement is the same. */
#define MATMULT_BODY C[i * n + j] += A[i * k + l] * B[l * n + j]

void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t l = 0; l < (size_t)k; l++)
                MATMULT_BODY;
}

void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t l = 0; l < (size_t)k; l++)
            for (size_t j = 0; j < (size_t)n; j++)
                MATMULT_BODY;
}

void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t l = 0; l < (size_t)k; l++)
                MATMULT_BODY;
}

void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t l = 0; l < (size_t)k; l++)
            for (size_t i = 0; i < (size_t)m; i++)
                MATMULT_BODY;
}

void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t j = 0; j < (size_t)n; j++)
                MATMULT_BODY;
}

void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C)
{
    zero((size_t)m * n, C);
    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t i = 0; i < (size_t)m; i++)
                MATMULT_BODY;
}

/* ---- the blocked version ------------------------------------------------ */

/* The register tile: MR rows by NR columns of C stay in vector registers
 * for the whole k loop, NR being two vectors wide. Its shape follows the
 * registers the compiler may use (-march=native decides): with AVX-512,
 * 8 x 16 is 16 of the 32 zmm registers; with AVX/AVX2, 6 x 8 is 12 of the
 * 16 ymm registers, leaving room for the 2 vectors of B and the broadcast
 * of A; with SSE2 alone, 4 x 4 in 8 of the 16 xmm registers. A tile too
 * large for the register file spills to the stack on every step of l. */
#if defined(__AVX512F__)
#define VLEN 8 /* doubles in one vector register */
enum { MR = 8 };
#elif defined(__AVX__)
#define VLEN 4
enum { MR = 6 };
#else
#define VLEN 2
enum { MR = 4 };
#endif
enum { NR = 2 * VLEN };
/* Columns of B packed at a time: a bs x NC panel of B lives in L2/L3. */
enum { NC = 512 };

/* GCC's vector type: arithmetic on it is one instruction per vector,
 * whatever width the compiler's tuning would prefer for auto-vectorised
 * loops (GCC tunes some AMD cores for 128-bit vectors). */
typedef double vdouble __attribute__((vector_size(VLEN * sizeof(double))));

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Copies the kc x nc block of B at B[l0][j0] into NR-wide column strips,
 * each stored row after row (kc rows of NR values), zero-padded on the
 * right: the micro-kernel then reads B strictly sequentially. */
static void pack_B(size_t kc, size_t nc, const double *B, size_t ldb, double *Bp)
{
    for (size_t j0 = 0; j0 < nc; j0 += NR) {
        size_t w = min_size(NR, nc - j0);
        for (size_t l = 0; l < kc; l++) {
            for (size_t j = 0; j < w; j++)
                Bp[j] = B[l * ldb + j0 + j];
            for (size_t j = w; j < NR; j++)
                Bp[j] = 0.0;
            Bp += NR;
        }
    }
}

/* Copies the mc x kc block of A into MR-tall row strips, stored column after
 * column (kc columns of MR values), zero-padded at the bottom. */
static void pack_A(size_t mc, size_t kc, const double *A, size_t lda, double *Ap)
{
    for (size_t i0 = 0; i0 < mc; i0 += MR) {
        size_t h = min_size(MR, mc - i0);
        for (size_t l = 0; l < kc; l++) {
            for (size_t i = 0; i < h; i++)
                Ap[i] = A[(i0 + i) * lda + l];
            for (size_t i = h; i < MR; i++)
                Ap[i] = 0.0;
            Ap += MR;
        }
    }
}

/* One full MR x NR tile of C: the sum over kc of a column strip of A times
 * a row strip of B, accumulated in registers. first: overwrite C (the first
 * block of the k dimension), else add to it.
 *
 * Per step of l: 2 vector loads of B, MR broadcasts of A, 2 MR vector
 * multiply-adds (fused with -ffp-contract=fast). The loops over the tile
 * are fully unrolled so that acc[][] is a set of registers, not memory:
 * check with gcc -S that the loop body has no stack accesses. (Written with
 * plain double arrays, GCC 12's auto-vectoriser once scrambled this loop
 * into permutes ten times slower, and on AMD cores it picks 128-bit
 * vectors: the explicit vector type says what is meant.) */
__attribute__((noinline)) /* one copy, to read in gcc -S (make test does) */
static void micro_kernel(size_t kc, const double *restrict Ap, const double *restrict Bp, double *restrict C,
                         size_t ldc, int first)
{
    vdouble acc[MR][2];
#pragma GCC unroll 16
    for (int i = 0; i < MR; i++)
        acc[i][0] = acc[i][1] = (vdouble){0};
    /* C's tile is read and written only after the loop: ask for its lines
     * now, and they arrive while the loop runs. Its rows lie ldc apart, a
     * pattern the hardware prefetchers do not follow, and once C is larger
     * than the caches each row would otherwise be a wait for memory (on
     * the Xeon of the README, 2048^3: 64 against 51 GFLOP/s, medians of 5
     * interleaved runs). */
#pragma GCC unroll 16
    for (int i = 0; i < MR; i++) {
        __builtin_prefetch(&C[i * ldc], 1, 3);
        __builtin_prefetch(&C[i * ldc + NR - 1], 1, 3);
    }
    for (size_t l = 0; l < kc; l++) {
        vdouble b0, b1;
        __builtin_memcpy(&b0, &Bp[l * NR], sizeof b0);
        __builtin_memcpy(&b1, &Bp[l * NR + VLEN], sizeof b1);
#pragma GCC unroll 16
        for (int i = 0; i < MR; i++) {
            double a = Ap[l * MR + i];
            acc[i][0] += a * b0;
            acc[i][1] += a * b1;
        }
    }
    /* The tile goes back to C a whole vector at a time (unaligned loads
     * and stores: C's rows start anywhere). */
#pragma GCC unroll 16
    for (int i = 0; i < MR; i++)
        for (int h = 0; h < 2; h++) {
            double *c = &C[i * ldc + h * VLEN];
            if (!first) {
                vdouble old;
                __builtin_memcpy(&old, c, sizeof old);
                acc[i][h] += old;
            }
            __builtin_memcpy(c, &acc[i][h], sizeof acc[i][h]);
        }
}

/* A tile at the bottom or right edge of C, only h x w of it inside C: run
 * the same kernel on a full-size scratch tile and copy the inside back. */
static void edge_kernel(size_t kc, const double *Ap, const double *Bp, double *C, size_t ldc, size_t h,
                        size_t w, int first)
{
    double tile[MR * NR];
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            tile[i * NR + j] = first ? 0.0 : C[i * ldc + j];
    micro_kernel(kc, Ap, Bp, tile, NR, first);
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            C[i * ldc + j] = tile[i * NR + j];
}

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    size_t M = (size_t)m, N = (size_t)n, K = (size_t)k;
    /* A bs x bs block of A, packed; bs larger than the matrix costs nothing. */
    size_t kc_max = min_size((size_t)bs, K), mc_max = min_size((size_t)bs, M);
    size_t nc_max = min_size(NC, N);
    size_t a_len = ((mc_max + MR - 1) / MR) * MR * kc_max;
    size_t b_len = ((nc_max + NR - 1) / NR) * NR * kc_max;
    double *Ap = aligned_alloc(64, ((a_len * sizeof(double) + 63) / 64) * 64);
    double *Bp = aligned_alloc(64, ((b_len * sizeof(double) + 63) / 64) * 64);
    if (!Ap || !Bp)
        abort();

    for (size_t j0 = 0; j0 < N; j0 += NC) {
        size_t nc = min_size(NC, N - j0);
        for (size_t l0 = 0; l0 < K; l0 += kc_max) {
            size_t kc = min_size(kc_max, K - l0);
            pack_B(kc, nc, &B[l0 * N + j0], N, Bp);
            for (size_t i0 = 0; i0 < M; i0 += mc_max) {
                size_t mc = min_size(mc_max, M - i0);
                pack_A(mc, kc, &A[i0 * K + l0], K, Ap);
                for (size_t jr = 0; jr < nc; jr += NR)
                    for (size_t ir = 0; ir < mc; ir += MR) {
                        double *Ct = &C[(i0 + ir) * N + j0 + jr];
                        size_t h = min_size(MR, mc - ir), w = min_size(NR, nc - jr);
                        if (h == MR && w == NR)
                            micro_kernel(kc, &Ap[ir * kc], &Bp[jr * kc], Ct, N, l0 == 0);
                        else
                            edge_kernel(kc, &Ap[ir * kc], &Bp[jr * kc], Ct, N, h, w, l0 == 0);
                    }
            }
        }
    }
    free(Ap);
    free(Bp);
}
