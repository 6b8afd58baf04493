/* Lab 7, stage 2 (reference): the serial solver. FFTW's r2r transforms
 * along x and y, a batch of tridiagonal solves along z (OpenMP over the
 * batch), the inverse transforms, one normalisation. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <fftw3.h>
#include <omp.h>

#include "alloc.h"
#include "fft_poisson.h"

static fftw_r2r_kind kind_of(fp_bc bc, int inverse)
{
    switch (bc) {
    case FP_P: return inverse ? FFTW_HC2R : FFTW_R2HC;
    case FP_N: return inverse ? FFTW_REDFT01 : FFTW_REDFT10;
    default: return inverse ? FFTW_RODFT01 : FFTW_RODFT10;
    }
}

/* What a plan depends on: the lines, their batch, the kind, and the
 * array's SIMD alignment (fftw_execute_r2r needs a new array aligned as the
 * planned one). Never the array's contents or address: a plan is kept, an
 * answer never is. */
typedef struct {
    fftw_iodim line, batch[2];
    fftw_r2r_kind kind;
    int align;
} plan_key;

/* Plans made once per key and kept for the process's life. Planning at
 * every call with FFTW_ESTIMATE cost about 2 % of a solve at N = 64, and
 * ESTIMATE's guessed plan ran the transforms 15-30 % slower than the one
 * FFTW_MEASURE picks by timing candidates (this kit's 2-core build
 * machine, N = 64 and 128), the plan the benchmark's FFTW-alone line uses.
 * Measuring runs the transform dozens of times (0.1 s at N = 64, 0.5 s at
 * 128 for a solve's four plans): it is done once per key, on a scratch
 * array (it overwrites what it plans on), and only for boxes of
 * MEASURED_FROM to MEASURED_UP_TO cells. Below, a transform takes under a
 * millisecond and measuring would cost more than a run of solves could
 * win back (the tests' many small grids, each solved once or twice, took
 * seconds longer); above, it would take seconds. There ESTIMATE's plan is
 * kept. One thread, as the FFTW-alone line: the threads go to the z
 * stage. Past PLANS_KEPT keys, plans are made and dropped at each call. */
enum { PLANS_KEPT = 128, MEASURED_FROM = 1 << 18, MEASURED_UP_TO = 1 << 21 };
static struct {
    plan_key key;
    fftw_plan plan;
} kept[PLANS_KEPT];
static int n_kept;
/* FFTW's planner is not thread-safe (executing a plan is), and the list is
 * shared: one lock around both. */
static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;

static fftw_plan plan_on(const plan_key *key, double *a, unsigned flags)
{
    return fftw_plan_guru_r2r(1, &key->line, 2, key->batch, a, a, &key->kind, flags);
}

/* The kept plan for key, made now if it is new (a of cells doubles is the
 * caller's array); NULL where none is kept. Called with plans_lock held. */
static fftw_plan kept_plan(const plan_key *key, double *a, size_t cells)
{
    for (int i = 0; i < n_kept; i++)
        if (memcmp(&kept[i].key, key, sizeof *key) == 0)
            return kept[i].plan;
    if (n_kept == PLANS_KEPT)
        return NULL;
    fftw_plan plan = NULL;
    if (cells >= MEASURED_FROM && cells <= MEASURED_UP_TO) {
        /* scratch at a's offset from a 64-byte boundary: the same alignment */
        double *scratch = fftw_alloc_real(cells + 8);
        plan = scratch ? plan_on(key, scratch + ((uintptr_t)a % 64) / sizeof *a, FFTW_MEASURE) : NULL;
        fftw_free(scratch);
    }
    if (!plan)
        plan = plan_on(key, a, FFTW_ESTIMATE); /* ESTIMATE leaves a as it is */
    if (plan)
        kept[n_kept].key = *key, kept[n_kept++].plan = plan;
    return plan;
}

void fp_transform(const fp_grid *g, const fp_box *box, int axis, int inverse, double *a)
{
    const int stride[3] = {1, box->n[0], box->n[0] * box->n[1]};
    plan_key key;
    memset(&key, 0, sizeof key); /* compared with memcmp */
    /* one plan over every line of the box: the transformed axis, and the
     * other two as a two-level batch */
    fftw_iodim line = {g->n[axis], stride[axis], stride[axis]};
    key.line = line;
    for (int b = 0, o = 0; o < 3; o++)
        if (o != axis)
            key.batch[b++] = (fftw_iodim){box->n[o], stride[o], stride[o]};
    key.kind = kind_of(g->bc[axis], inverse);
    key.align = fftw_alignment_of(a);

    pthread_mutex_lock(&plans_lock);
    fftw_plan plan = kept_plan(&key, a, (size_t)box->n[0] * box->n[1] * box->n[2]), once = NULL;
    if (!plan)
        plan = once = plan_on(&key, a, FFTW_ESTIMATE);
    pthread_mutex_unlock(&plans_lock);
    /* FFTW's execute is thread-safe: no lock */
    fftw_execute_r2r(plan, a, a);
    if (once) {
        pthread_mutex_lock(&plans_lock);
        fftw_destroy_plan(once);
        pthread_mutex_unlock(&plans_lock);
    }
}

/* lambda/h^2 of transform index k along axis a */
static double scaled_eigenvalue(const fp_grid *g, int a, int k)
{
    double h = fp_h(g, a);
    return fp_eigenvalue(g->bc[a], k, g->n[a]) / (h * h);
}

/* Cells a thread of the z stage gets at least: about 40 us of Thomas on one
 * core (1.2 ns a cell on the kit's build machine, 64 lines a task), several
 * times what waking a sleeping thread costs. A small grid on a big host
 * would otherwise wake 64 threads for a few microseconds of work each, and
 * the wake-ups, not the work, would be the stage's time (1.39 x FFTW alone
 * at N = 64 on 64 cores, against 1.13 x on 16): the same reason FFTW's own
 * planner runs a small transform on fewer threads than it is given. */
enum { Z_CELLS_A_THREAD = 1 << 15 };

static int stage_threads(const fp_box *box)
{
    size_t cells = (size_t)box->n[0] * box->n[1] * box->n[2], most = (size_t)omp_get_max_threads();
    size_t t = cells / Z_CELLS_A_THREAD;
    return t < 1 ? 1 : t < most ? (int)t : (int)most;
}

/* z periodic: the z systems are diagonal after a transform along z. */
static void solve_z_periodic(const fp_grid *g, const fp_box *box, double scale, double *a)
{
    fp_transform(g, box, 2, 0, a);
    scale /= fp_round_trip(FP_P, g->n[2]);
    int nx = box->n[0], ny = box->n[1], nz = box->n[2];
#pragma omp parallel for collapse(2) num_threads(stage_threads(box))
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++) {
            double lyz = scaled_eigenvalue(g, 1, box->lo[1] + j) + scaled_eigenvalue(g, 2, k);
            for (int i = 0; i < nx; i++) {
                size_t at = (size_t)i + (size_t)nx * ((size_t)j + (size_t)ny * k);
                int kx = box->lo[0] + i, ky = box->lo[1] + j;
                if (kx == 0 && ky == 0 && k == 0 && fp_singular(g))
                    a[at] = 0.0; /* the mean: the gauge */
                else
                    a[at] *= scale / (scaled_eigenvalue(g, 0, kx) + lyz);
            }
        }
    fp_transform(g, box, 2, 1, a);
}

/* The z systems of the box, scaled by scale on the way in: Thomas on
 * batches of neighbouring systems, on the threads there are. Returns -1 if
 * a pivot was 0. */
static int solve_z_batches(const fp_grid *g, const fp_box *box, double scale, double *a)
{
    const int nx = box->n[0], ny = box->n[1], nz = g->n[2];
    const size_t sz = (size_t)nx * ny;
    const double hz = fp_h(g, 2), off = 1.0 / (hz * hz);
    /* the corner: ghost u_0 (Neumann) adds +1/h^2, ghost -u_0 (Dirichlet) -1/h^2 */
    const double corner = g->bc[2] == FP_N ? off : -off;
    int bad = 0;
    /* Each task: LINES neighbouring systems of one y row, solved together
     * element by element (Thomas's recurrences run along z within a system
     * but are independent across systems: with the system index fastest,
     * the inner loops vectorise, as the GPU kernel's threads do). Their
     * elements at one z are neighbours in memory too, so the gather and the
     * scatter move whole cache lines. 64 lines (a whole row at N = 64)
     * rather than 16: each step of the recurrence then has 16 vectors of
     * independent divisions in flight, not 4 waiting on one another, and
     * reads 8 cache lines a plane, not 2. On the kit's 2-core AMD EPYC
     * (Zen 4), one thread, the z stage took 0.30-0.32 ms at N = 64 against
     * 0.48-0.60 with 16 (3.3-3.4 ms against 5.2-5.3 at N = 128); 128 lines
     * were no faster. */
    enum { LINES = 64 };
#pragma omp parallel reduction(| : bad)
    {
        double *r = kit_alloc_doubles((size_t)LINES * nz), *gam = kit_alloc_doubles((size_t)LINES * nz);
#pragma omp for collapse(2) schedule(static)
        for (int j = 0; j < ny; j++)
            for (int i0 = 0; i0 < nx; i0 += LINES) {
                int m = nx - i0 < LINES ? nx - i0 : LINES;
                size_t s0 = (size_t)i0 + (size_t)nx * j;
                double b[LINES], first[LINES], last[LINES], inv[LINES];
                for (int q = 0; q < m; q++) {
                    int kx = box->lo[0] + i0 + q, ky = box->lo[1] + j;
                    b[q] = -2.0 * off + scaled_eigenvalue(g, 0, kx) + scaled_eigenvalue(g, 1, ky);
                    first[q] = last[q] = b[q] + corner;
                    if (kx == 0 && ky == 0 && fp_singular(g))
                        first[q] -= off; /* pins u_0 = 0 in the singular (0,0) system (see the README) */
                    if (nz == 1) /* one row: both corner corrections */
                        first[q] += last[q] - b[q];
                }
                for (int k = 0; k < nz; k++)
                    for (int q = 0; q < m; q++)
                        r[(size_t)k * LINES + q] = a[s0 + q + sz * k] * scale;
                /* Thomas, one division per row */
                for (int q = 0; q < m; q++) {
                    bad |= first[q] == 0.0;
                    inv[q] = 1.0 / first[q];
                    r[q] *= inv[q];
                }
                for (int k = 1; k < nz; k++) {
                    double *rk = r + (size_t)k * LINES, *gk = gam + (size_t)k * LINES;
                    for (int q = 0; q < m; q++) {
                        gk[q] = off * inv[q];
                        double aux = (k == nz - 1 ? last[q] : b[q]) - off * gk[q];
                        bad |= aux == 0.0;
                        inv[q] = 1.0 / aux;
                        rk[q] = (rk[q] - off * rk[q - LINES]) * inv[q];
                    }
                }
                for (int k = nz - 2; k >= 0; k--)
                    for (int q = 0; q < m; q++)
                        r[(size_t)k * LINES + q] -= gam[(size_t)(k + 1) * LINES + q] * r[(size_t)(k + 1) * LINES + q];
                for (int k = 0; k < nz; k++)
                    for (int q = 0; q < m; q++)
                        a[s0 + q + sz * k] = r[(size_t)k * LINES + q];
            }
        kit_free(r);
        kit_free(gam);
    }
    return bad ? -1 : 0;
}

int fp_solve_z(const fp_grid *g, const fp_box *box, double *a)
{
    double scale = 1.0 / (fp_round_trip(g->bc[0], g->n[0]) * fp_round_trip(g->bc[1], g->n[1]));
    if (g->bc[2] == FP_P) {
        solve_z_periodic(g, box, scale, a);
        return 0;
    }
    /* the batches' parallel region takes this many threads; the caller's
     * setting comes back after */
    int callers = omp_get_max_threads();
    omp_set_num_threads(stage_threads(box));
    int rc = solve_z_batches(g, box, scale, a);
    omp_set_num_threads(callers);
    return rc;
}

static double mean(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t c = 0; c < n; c++)
        s += a[c];
    return s / (double)n;
}

static void subtract(double *a, size_t n, double m)
{
    for (size_t c = 0; c < n; c++)
        a[c] -= m;
}

int fp_solve_serial(const fp_grid *g, double *f)
{
    if (fp_grid_check(g) != 0)
        return -1;
    size_t n = fp_cells(g);
    fp_box all = fp_whole(g);
    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    fp_transform(g, &all, 0, 0, f);
    fp_transform(g, &all, 1, 0, f);
    int rc = fp_solve_z(g, &all, f);
    fp_transform(g, &all, 1, 1, f);
    fp_transform(g, &all, 0, 1, f);
    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    return rc;
}
