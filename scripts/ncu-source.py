#!/usr/bin/env python3
"""ncu-source.py: sums an Nsight Compute per-instruction page by kernel launch
and by ranges of its SASS instructions.

Reads the -source.csv.gz that scripts/ncu-plugin.sh writes (ncu --page source
--csv --print-source sass; ncu prints each launch twice, kept once here).

  ncu-source.py FILE                 each launch: its index, warp instructions
                                     executed, stall samples, L2 sectors, name
  ncu-source.py FILE K A:B [C:D ...] launch K's totals, then each range of
                                     instruction indices [A, B): its share of
                                     the stall samples and of the instructions
  ncu-source.py FILE K --list        launch K's instructions, one a line:
                                     index, samples, executed, active threads,
                                     SASS (to choose the ranges)
"""
import csv
import gzip
import signal
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
EXECUTED = "Instructions Executed"
SECTORS = "L2 Theoretical Sectors Global"
THREADS = "Avg. Predicated-On Threads Executed"


def num(x):
    try:
        return float(x)
    except ValueError:
        return 0.0


def launches(path):
    """The launches of the page, each (name, header, rows), repeats dropped."""
    out, name, hdr, rows = [], None, None, None
    with gzip.open(path, "rt", newline="") as f:
        for r in csv.reader(f):
            if r and r[0] == "Kernel Name":
                if rows is not None:
                    out.append((name, hdr, rows))
                name, rows = r[1], []
            elif r and r[0] == "Address":
                hdr = {n: j for j, n in enumerate(r)}
            elif r and rows is not None:
                rows.append(r)
    if rows is not None:
        out.append((name, hdr, rows))
    kept = []
    for k in out:
        if kept and kept[-1][0] == k[0] and kept[-1][2] == k[2]:
            continue
        kept.append(k)
    return kept


def total(hdr, rows, col):
    return sum(num(r[hdr[col]]) for r in rows) if col in hdr else 0.0


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    ls = launches(argv[1])
    if len(argv) == 2:
        for k, (name, hdr, rows) in enumerate(ls):
            print(f"{k:3d} {total(hdr, rows, EXECUTED):13.0f} {total(hdr, rows, SAMPLES):8.0f} "
                  f"{total(hdr, rows, SECTORS):12.0f}  {name[:100]}")
        return
    name, hdr, rows = ls[int(argv[2])]
    if argv[3:] == ["--list"]:
        for n, r in enumerate(rows):
            print(f"{n:5d} {num(r[hdr[SAMPLES]]):7.0f} {num(r[hdr[EXECUTED]]):11.0f} "
                  f"{r[hdr[THREADS]]:>5} {r[hdr['Source']].strip()}")
        return
    s, e = total(hdr, rows, SAMPLES), total(hdr, rows, EXECUTED)
    print(f"{name[:100]}\n{len(rows)} instructions, {e:.0f} executed, {s:.0f} stall samples, "
          f"{total(hdr, rows, SECTORS):.0f} L2 sectors")
    for arg in argv[3:]:
        a, b = (int(x) for x in arg.split(":"))
        part = rows[a:b]
        ps, pe = total(hdr, part, SAMPLES), total(hdr, part, EXECUTED)
        print(f"[{a}, {b}): {100 * ps / s:5.1f} % of samples, {100 * pe / e:5.1f} % of instructions")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a pipe into head ends quietly
    main(sys.argv)
