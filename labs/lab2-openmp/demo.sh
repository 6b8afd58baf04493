#!/usr/bin/env bash
# make demo LAB=2: the reference solution at work, with its pictures.
#   - the converged temperature in the room (omp_v3, all cores), as a PNG
#     heat map of the slice through the radiator and a VTK file for ParaView;
#   - the same N with the wavefront Gauss-Seidel, for its sweep count;
#   - the Mandelbrot set, with static and dynamic schedules.
# Writes into build/demo/lab2/. DEMO_N (default 64) sets the grid.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
demo_setup 2
N=${DEMO_N:-64}
bin=$DEMO_BIN
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
echo "${IMPL:-reference}, $OMP_NUM_THREADS threads; columns: N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual"
"$bin/poisson" omp_v3 "$N" 100000 1e-6 0 png "$DEMO_OUT/poisson_omp_v3_$N.png"
"$bin/poisson" omp_v3 "$N" 100000 1e-6 0 vtk "$DEMO_OUT/poisson_omp_v3_$N.vtk"
"$bin/poisson" gs_omp "$N" 100000 1e-6 0
for s in static dynamic,1; do
    OMP_SCHEDULE=$s "$bin/mandelbrot" 1024 1024 1000 "$DEMO_OUT/mandelbrot.png"
done
echo "pictures in $DEMO_OUT: poisson_omp_v3_$N.png (open the .vtk in ParaView), mandelbrot.png"
