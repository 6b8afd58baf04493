# Lab 6's goals, from the rows of bench.sh's CSV (bench.csv, its header
# naming the columns): for each configuration the best baseline's mean
# time over the best taskqueue's, the taskqueue's speedup. The goal: never
# below 0.95 x, and at least 1.2 x where packing and the exchange take
# comparable time (the bench's bounds "pack alone" and "MPI exchange alone"
# within 2 x of each other: there is something to overlap). Only right
# results count; a configuration with an INVALID row says so. The host
# backend's runs get no goal: threads standing in for a GPU's blocks say
# nothing of how a GPU's taskqueue does. Run by bench.sh after its runs,
# and by the kit's own timeline tools, after common/bench/bench_lib.sh's
# BENCH_AWK (its speed()).
BEGIN { FS = "," }
$1 == "backend" { next }
{
    k = $2 " rank" ($2 == 1 ? "" : "s") " " $3 ", " $4 " x " $5 ", Table 4.1 x " $6 "/" $7
    if (!(k in order)) { order[k] = ++n; name[n] = k }
    host[k] = $1 == "host"
}
$17 != "ok" { bad[k]++; next }
$9 ~ /^baseline/ && (!(k in base) || $10 < base[k]) { base[k] = $10; bname[k] = $9 }
$9 ~ /^taskqueue/ && (!(k in tq) || $10 < tq[k]) { tq[k] = $10; tname[k] = $9 }
{ pack[k] = $15; mpi[k] = $16 }
END {
    for (i = 1; i <= n; i++) {
        k = name[i]
        if (!(k in base) || !(k in tq) || tq[k] <= 0) {
            printf "%s: no right baseline and taskqueue pair to compare%s\n", k, bad[k] ? " (" bad[k] " INVALID row(s))" : ""
            continue
        }
        r = base[k] / tq[k]
        lo = pack[k] < mpi[k] ? pack[k] : mpi[k]
        hi = pack[k] < mpi[k] ? mpi[k] : pack[k]
        both = lo > 0 && hi <= 2 * lo
        printf "%s: best baseline %.1f us (%s), best taskqueue %.1f us (%s): the taskqueue %s (", k, base[k], bname[k], tq[k], tname[k], speed(r)
        if (host[k])
            printf "no goal on the host backend"
        else
            printf "goal: at worst %s: %s", speed(0.95), (r >= 0.95 ? "met" : "not met")
        if (lo > 0) {
            printf "; packing %.1f us, exchange %.1f us: ", pack[k], mpi[k]
            if (host[k])
                printf "%s", both ? "comparable" : "not comparable"
            else
                printf "%s", both ? ("comparable, goal " speed(1.2) ": " (r >= 1.2 ? "met" : "not met")) : "not comparable, no goal of 1.20 x faster"
        }
        printf ")\n"
        if (bad[k]) printf "%s: %d INVALID row(s) left out\n", k, bad[k]
    }
}
