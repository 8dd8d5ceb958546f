"""Where sorting an irregular MPI_Comm_split across the processes
(ch4_avrm_split.c's split_sorted) should beat MPICH's gather on a fabric: a
model, not a measurement (the 2 cores here never get there; bench/run
split-sort measures P = 8..128). Per process:

  sort   adds  k(k+1)/2 swaps + 2k scan words + an allreduce of k rounds
         + 2 messages (k = ceil(log2 P)): rounds of one small message each
  gather adds  8P bytes received (the allgather) and MPICH's qsort of the
         colour's P/C entries: QSORT insns per entry per level of log2

    sortmodel.py [ALPHA_US] [GBPS] [GIPS] [QSORT]

ALPHA_US: time of one round (default 1.5 us), GBPS: bytes per ns the
allgather receives (10), GIPS: instructions per ns (3), QSORT: instructions
per entry and level (32: 12.4K for 64 entries at P = 128, issue 54's
measurement of glibc's qsort in MPICH's split). Prints, for several colour
counts C, the least power of two P at which the sort's added time is below
the gather's."""
import math
import sys


def ceil_log2(p):
    return max(1, math.ceil(math.log2(p)))


def sort_us(p, alpha):
    k = ceil_log2(p)
    return alpha * (k * (k + 1) / 2 + 2 * k + k + 2)


def gather_us(p, c, gbps, gips, qsort):
    m = max(1, p // c)
    return (8 * p / gbps + qsort * m * math.log2(max(m, 2)) / gips) / 1000


def main():
    a = [float(x) for x in sys.argv[1:]] + [None] * 4
    alpha, gbps, gips, qsort = (a[0] or 1.5, a[1] or 10.0, a[2] or 3.0, a[3] or 32.0)
    print("colours,crossover_P,sort_us_there,gather_us_there")
    for label, colours in (("2", lambda p: 2), ("4", lambda p: 4), ("64", lambda p: 64),
                           ("P/16", lambda p: max(1, p // 16))):
        for e in range(3, 31):
            p = 2 ** e
            s, g = sort_us(p, alpha), gather_us(p, colours(p), gbps, gips, qsort)
            if s < g:
                print("%s,%d,%.0f,%.0f" % (label, p, s, g))
                break
        else:
            print("%s,>2^30,-,-" % label)


if __name__ == "__main__":
    main()
