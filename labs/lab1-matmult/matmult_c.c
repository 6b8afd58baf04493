/* matmult_c: the lab 1 driver (given code, do not edit).
 *
 *   ./build/lab1/matmult_c TYPE m n k [bs]
 *   TYPE: lib nat mnk mkn nmk nkm kmn knm blk
 *
 * Prints "<memory kB> <Mflop/s> <errors> # matmult_TYPE" like DTU's
 * matmult_c.gcc; common/matmult_driver.h documents the environment
 * variables (MATMULT_COMPARE, MFLOPS_MIN_T, MFLOPS_MAX_IT, MATMULT_RESULTS). */
#include "matmult.h"
#include "matmult_driver.h"

static const matmult_variant variants[] = {
    {"lib", matmult_lib, 0}, {"nat", matmult_nat, 0}, {"mnk", matmult_mnk, 0}, {"mkn", matmult_mkn, 0},
    {"nmk", matmult_nmk, 0}, {"nkm", matmult_nkm, 0}, {"kmn", matmult_kmn, 0}, {"knm", matmult_knm, 0},
    {"blk", 0, matmult_blk},
};

int main(int argc, char **argv)
{
    return matmult_driver_main(argc, argv, variants, (int)(sizeof variants / sizeof variants[0]));
}
