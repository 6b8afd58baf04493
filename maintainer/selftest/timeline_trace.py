#!/usr/bin/env python3
"""A made-up trace of two ranks in the tracer's CSV form, for the demo
self-test of common/demo/timeline.py without a GPU: two runs (each ended by
an MPI_Allreduce, as the benchmarks' runs are), the first on streams 24 and
25, the second on 20 and 21, with rank 1 a few microseconds behind rank 0,
so that the second run's panel span reaches back into rank 1's first run.

    timeline_trace.py DIR      writes DIR/rank0/ and DIR/rank1/
"""
import os
import sys


def steps(t, serial, streams):
    """(rows, end): 20 steps of a boundary kernel, its halo copied out,
    sent, copied in, and an interior kernel: one after another (serial) or
    the interior beside the exchange."""
    rows, (b, i) = [], streams
    for _ in range(20):
        if serial:
            rows += [("kernel", t, t + 30_000, "_Z8boundaryv", b), ("memcpy", t + 31_000, t + 41_000, "DtoH", b),
                     ("mpi", t + 42_000, t + 47_000, "MPI_Isend", ""), ("mpi", t + 47_000, t + 82_000, "MPI_Waitall", ""),
                     ("memcpy", t + 83_000, t + 93_000, "HtoD", b), ("kernel", t + 94_000, t + 294_000, "_Z8interiorv", i)]
            t += 295_000
        else:
            rows += [("kernel", t, t + 30_000, "_Z8boundaryv", b), ("kernel", t + 31_000, t + 231_000, "_Z8interiorv", i),
                     ("memcpy", t + 31_000, t + 41_000, "DtoH", b), ("mpi", t + 42_000, t + 47_000, "MPI_Isend", ""),
                     ("mpi", t + 47_000, t + 82_000, "MPI_Waitall", ""), ("memcpy", t + 83_000, t + 93_000, "HtoD", b)]
            t += 232_000
    return rows, t


def main():
    out = sys.argv[1]
    for rank in (0, 1):
        t = 10**9 + rank * 3_000
        rows = [("mpi", t, t + 1_000, "MPI_Bcast", "")]
        t += 2_000
        for serial, streams in ((True, ("24", "25")), (False, ("20", "21"))):
            more, t = steps(t, serial, streams)
            rows += more + [("mpi", t, t + 1_000, "MPI_Allreduce", "")]
            t += 50_000
        os.makedirs(f"{out}/rank{rank}", exist_ok=True)
        with open(f"{out}/rank{rank}/trace.{100 + rank}.csv", "w") as f:
            f.write("kind,start_ns,end_ns,name,stream,bytes\n")
            f.writelines(f"{k},{s},{e},{n},{st},\n" for k, s, e, n, st in rows)


if __name__ == "__main__":
    main()
