/* Lab 6 (halo-taskqueue): hidden tests, for instructors. `make release`
 * leaves this file out of the student copy; the suite then runs without
 * them. */
#include "autograder.h"
#include "halo.h"
#include "lab6_checks.h"

/* Sizes the visible tests do not try, and rank 0's previous rank. */
START_TEST(hidden_partners_more_sizes)
{
    static const int sizes[] = {5, 6, 7, 16};
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 4; s++)
            l6_check_partner_symmetry((halo_pattern)p, sizes[s]);
    int to = -9, from = -9;
    halo_partners(HALO_PAT_RING, 3, 0, 7, &to, &from);
    ck_assert_msg(to == 1 && from == 6, "HALO_PAT_RING, rank 0 of 7: send_to %d, recv_from %d; expected 1, 6", to, from);
    halo_partners(HALO_PAT_FIG26, 3, 0, 7, &to, &from);
    ck_assert_msg(to == 6 && from == 1, "HALO_PAT_FIG26, block 3, rank 0 of 7: send_to %d, recv_from %d; expected 6, 1",
                  to, from);
}
END_TEST

/* Thread counts that divide nothing, and more threads than elements. */
START_TEST(hidden_strided_awkward_threads)
{
    static const size_t ns[] = {1, 7, 100, 1001};
    static const int threads[] = {3, 7, 1000, 1024};
    for (int i = 0; i < 4; i++)
        for (int t = 0; t < 4; t++)
            l6_check_strided_pack(ns[i], threads[t]);
}
END_TEST

/* One rank sending to itself (blocking sends at rendezvous size work only
 * because the receives were posted first), and three ranks: pairs with a
 * rank left alone, Fig. 2.6 with 4 blocks. */
static const ag_launch hidden_self_and_three_ranks[] = {
    {"lab6_mpi_check", 1, "host tq 2 9:1/10:self", 90},
    {"lab6_mpi_check", 1, "host baseline 2 9:1/10:self", 90},
    {"lab6_mpi_check", 3, "host tq 2 9:1/100:pair 4:1/1000:fig26", 90},
    {NULL},
};

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_partners_more_sizes, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_strided_awkward_threads, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){AG_LAUNCHES(hidden_self_and_three_ranks), .points = 2, .hidden = 1, .timeout = 280});
}
