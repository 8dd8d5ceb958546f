"""What MPI_Init leaves per process against P: the reports of steps memclass
(`bench/report memclass OUTDIR SECONDS`: OUTDIR/memclass.csv -> slopes.csv,
SUMMARY.md) and vci-init (`bench/report vci-init OUTDIR SECONDS NPS CONFIGS
LOAD0`: each OUTDIR/NxV/slopes.csv -> SUMMARY.md).
"""
import csv
import os
import time

from report import fit, head_commit, md_table


def now():
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def memclass(out, secs):
    rows = list(csv.DictReader(open(os.path.join(out, "memclass.csv"))))
    by = {}
    for r in rows:
        by.setdefault(r["class"], {})[int(r["np"])] = (int(r["max_allocated"]), int(r["left_at_finalize"]))
    nps = sorted({int(r["np"]) for r in rows})
    fits = {}
    with open(os.path.join(out, "slopes.csv"), "w") as f:
        f.write("class,bytes_per_process,constant_bytes," + ",".join("np=%d" % n for n in nps) + "\n")
        for c, pts in sorted(by.items()):
            xs = sorted(pts)
            fits[c] = fit(xs, [pts[x][0] for x in xs])
            f.write("%s,%.2f,%.0f,%s\n" % (c, fits[c][0], fits[c][1], ",".join(str(pts[x][0]) for x in xs)))
    grows = [c for c in sorted(by) if abs(fits[c][0]) >= 0.05]
    flat = [c for c in sorted(by) if c not in grows]
    table = [[c, "%.2f" % fits[c][0], "%.0f" % fits[c][1]] + [by[c].get(n, (0, 0))[0] for n in nps]
             + [by[c].get(nps[-1], (0, 0))[1]] for c in grows]
    text = [
        "# MPICH's allocations by class around MPI_Init, ours (`bench/run memclass`)",
        "",
        "Run %s (%s s) at `%s`: bench/real/run-memclass.sh on the debug build (`make mpich-debug`, "
        "`--enable-g=dbg,mem`: every allocation of MPICH and of libavrm goes through MPL's memory "
        "tracing, by class; libfabric's and hwloc's do not). `bench/real/initonly.c` (MPI_Init, a "
        "barrier, MPI_Finalize) at np = %s, emulated nodes of 8 (MPIR_CVAR_NUM_CLIQUES by block), "
        "over the sockets provider (test/mpienv.sh), where ours keeps the eager address exchange "
        "(on-demand addressing needs a provider that names an unknown sender: doc/design.md). Per class, the "
        "largest total allocated at any moment of the run (max over ranks), so init's temporaries "
        "count; least squares against np: bytes per process of the world and the constant; the "
        "bytes still allocated at MPI_Finalize at the largest np. Counts, not times: load does not "
        "change them. Files: memclass.csv, slopes.csv."
        % (now(), secs, head_commit(), " ".join(str(n) for n in nps)),
        "",
        "Classes whose largest total grows with np (|slope| >= 0.05 B per process):",
        "",
        md_table(["class", "bytes per process of the world", "constant"] + ["np = %d" % n for n in nps]
                 + ["left at finalize, np = %d" % nps[-1]], table) if table else "(none)",
        "",
        "Classes that do not grow: %s." % (", ".join(flat) if flat else "none"),
    ]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text) + "\n")


def vci_init(out, secs, nps, configs, load0):
    table = []
    for c in configs.split():
        shape, _, prov = c.partition("-")
        nics, vcis = (int(x) for x in shape.split("x"))
        s = {r["library"]: r for r in csv.DictReader(open(os.path.join(out, c, "slopes.csv")))}
        table.append([shape, {"": "sockets (ours eager)", "rxm": "tcp;ofi_rxm (ours on demand)"}[prov],
                      nics * vcis] + ["%.0f" % float(s[lib]["slope_bytes_per_process"]) for lib in ("ours", "stock")]
                     + ["%.1f MB" % (float(s[lib]["constant_bytes"]) / 1e6) for lib in ("ours", "stock")])
    text = [
        "# MPI_Init's heap per process, ours vs stock built per-VCI (`bench/run vci-init`)",
        "",
        "Run %s (%s s, load average %s at the start) at `%s`: bench/real/run-vciinit.sh, ours "
        "(patched, per-VCI) and stock 4.0.2 from the same tarball and options. `MPIR_CVAR_NOLOCAL=1`, "
        "np = %s, glibc's tcache off; `commheap.c`'s mpi_init row (the max over ranks of mallinfo2 "
        "after minus before MPI_Init), least-squares slope by `bench/report comm-slopes`. Two NICs: a network "
        "namespace with two veth NICs, the sockets provider and `test/mpi/nicshim.so` (MPICH counts "
        "only PCI NICs). Over the sockets provider (test/mpienv.sh) ours keeps the eager "
        "address exchange (on-demand addressing needs a provider that names an unknown sender: "
        "doc/design.md), so those rows are eager against eager; over tcp;ofi_rxm ours addresses on "
        "demand on every VNI and NIC (each VNI's AVs catch up on first use, a peer's NICs as one "
        "block) against stock's exchange."
        % (now(), secs, load0, head_commit(), nps),
        "",
        md_table(["NICs x VCIs", "provider", "endpoints per process", "ours B/peer", "stock B/peer", "ours constant",
                  "stock constant"], table),
        "",
        "Stock's per-VCI `MPIDI_av_entry_t` is `fi_addr_t dest[8][64]` + int per peer (4104 B); ours keeps "
        "one 8-byte word and computes the other endpoints' fi_addrs (patch ch4-address-layer-on-avrm, `MPIDI_OFI_endpoint_addr` in ofi_avrm.h). What grows with the "
        "endpoints in both is libfabric's: each of E contexts' FI_AV_TABLEs holds all E endpoints of "
        "every peer. Three process counts on 2 CPUs: slopes move by tens of bytes between runs. "
        "Files: `NxV/heap.csv`, `NxV/slopes.csv`.",
    ]
    with open(os.path.join(out, "SUMMARY.md"), "w") as f:
        f.write("\n".join(text) + "\n")


COMMANDS = {"memclass": (memclass, 2), "vci-init": (vci_init, 5)}
