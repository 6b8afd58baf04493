#!/usr/bin/env bash
# make demo LAB=2: the reference solution at work, with its pictures.
#   - the converged temperature in the room (omp_v3, all cores), as a PNG
#     heat map of the slice through the radiator and a VTK file for ParaView;
#   - the same N with the wavefront Gauss-Seidel, for its sweep count;
#   - the Mandelbrot set, with static and dynamic schedules.
# Writes into build/demo/lab2/. DEMO_N (default 64) sets the grid.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build/demo/lab2
N=${DEMO_N:-64}
mkdir -p "$OUT"
make --no-print-directory -s -f common/mk/lab.mk LAB=2 IMPL="${IMPL:-reference}" BUILD="$OUT/bin" all >/dev/null
bin=$OUT/bin
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
echo "reference, $OMP_NUM_THREADS threads; columns: N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual"
"$bin/poisson" omp_v3 "$N" 100000 1e-6 0 png "$OUT/poisson_omp_v3_$N.png"
"$bin/poisson" omp_v3 "$N" 100000 1e-6 0 vtk "$OUT/poisson_omp_v3_$N.vtk"
"$bin/poisson" gs_omp "$N" 100000 1e-6 0
for s in static dynamic,1; do
    OMP_SCHEDULE=$s "$bin/mandelbrot" 1024 1024 1000 "$OUT/mandelbrot.png"
done
echo "pictures in $OUT: poisson_omp_v3_$N.png (open the .vtk in ParaView), mandelbrot.png"
