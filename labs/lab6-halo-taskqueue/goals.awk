# Lab 6's goals, from the rows of bench.sh's CSV (bench.csv, its header
# naming the columns): for each configuration the best baseline's mean
# time over the best taskqueue's, the taskqueue's speedup. The goal: never
# below 0.95 x, and at least 1.2 x where packing and the exchange take
# comparable time (the bench's bounds "pack alone" and "MPI exchange alone"
# within 2 x of each other: there is something to overlap). Only right
# results count; a configuration with an INVALID row says so. Run by
# bench.sh after its runs, and by the kit's own timeline tools.
BEGIN { FS = "," }
$1 == "backend" { next }
{
    k = $2 " rank" ($2 == 1 ? "" : "s") " " $3 ", " $4 " x " $5 ", Table 4.1 x " $6 "/" $7
    if (!(k in order)) { order[k] = ++n; name[n] = k }
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
        verdict = r >= 0.95 ? "met" : "not met"
        printf "%s: best baseline %.1f us (%s) / best taskqueue %.1f us (%s) = %.2fx (goal >= 0.95: %s", k, base[k], bname[k], tq[k], tname[k], r, verdict
        if (lo > 0) {
            overlap = both ? ("comparable, goal >= 1.2: " (r >= 1.2 ? "met" : "not met")) : "not comparable, no 1.2x goal"
            printf "; packing %.1f us, exchange %.1f us: %s)\n", pack[k], mpi[k], overlap
        } else
            printf ")\n"
        if (bad[k]) printf "%s: %d INVALID row(s) left out\n", k, bad[k]
    }
}
