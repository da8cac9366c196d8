#!/usr/bin/env python3
"""ncu-raw.py: a launch a line from an Nsight Compute raw page (the
-raw.csv.gz that scripts/ncu-plugin.sh writes, one row a launch): the
numbers of results/diropt-1000/README.md's profile tables.

  ncu-raw.py FILE [ID ...]   the launches ID (default: every one)
  ncu-raw.py --metrics M[,M...] FILE [ID ...]
                             those raw metrics instead, a column each, as
                             ncu wrote them (their units: the page's
                             second row, printed first)

Columns: the launch's ID; its duration (µs); its L2 requests (M): all,
reads, reductions, writes, atomics; the L2 tag lookups' rate (% of peak;
ncu's "L2 throughput"); issue active (% of cycles); "at peak", the
duration times the tag rate: how long the same requests take at L2's peak
rate; the two largest stall reasons, each a share of the cycles between
two issued instructions; the kernel.

    git show aee5a2f:results/diropt-1000/profile-l2-25-raw.csv.gz > results/diropt-1000/profile-l2-25-raw.csv.gz
    python3 scripts/ncu-raw.py results/diropt-1000/profile-l2-25-raw.csv.gz 18 19 28 29 38 39 50 21 31 41 51
    python3 scripts/ncu-raw.py --metrics l1tex__t_sector_hit_rate.pct,dram__bytes_read.sum \
        results/diropt-1000/profile-queue-25-raw.csv.gz 45 54
"""
import csv
import gzip
import sys

DURATION = "gpu__time_duration.sum"
REQUESTS = [
    ("all", "lts__t_requests.sum"),
    ("read", "lts__t_requests_srcunit_tex_op_read.sum"),
    ("red", "lts__t_requests_srcunit_tex_op_red.sum"),
    ("write", "lts__t_requests_srcunit_tex_op_write.sum"),
    ("atom", "lts__t_requests_srcunit_tex_op_atom_dot_alu.sum"),
]
TAG = "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"
ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
STALL = ("smsp__average_warps_issue_stalled_", "_per_issue_active.ratio")


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


def metrics(rows, hdr, names, want):
    """Prints the raw metrics names of the launches want (all if empty)."""
    missing = [m for m in names if m not in hdr]
    if missing:
        sys.exit("ncu-raw: no such metric in the page: " + ", ".join(missing))
    print("id\t" + "\t".join(names) + "\tkernel")
    print("unit\t" + "\t".join(rows[1][hdr[m]] for m in names) + "\t")
    for r in rows[2:]:
        if not want or r[0] in want:
            print(r[0] + "\t" + "\t".join(r[hdr[m]] for m in names) + "\t" + r[hdr["Kernel Name"]][:48])


def main():
    args = sys.argv[1:]
    names = None
    if args[:1] == ["--metrics"] and len(args) >= 2:
        names, args = args[1].split(","), args[2:]
    if not args:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    with gzip.open(args[0], "rt", newline="") as f:
        rows = list(csv.reader(f))
    hdr = {n: j for j, n in enumerate(rows[0])}
    want = set(args[1:])
    if names is not None:
        metrics(rows, hdr, names, want)
        return
    stalls = [n for n in rows[0] if n.startswith(STALL[0]) and n.endswith(STALL[1])]
    print("id\tus\t" + "\t".join("%s M" % k for k, _ in REQUESTS) + "\ttag %\tissue %\tat peak us\tstalls\tkernel")
    for r in rows[2:]:  # rows[1] holds the units
        if want and r[0] not in want:
            continue
        us = num(r[hdr[DURATION]])
        tag = num(r[hdr[TAG]])
        s = {n[len(STALL[0]):-len(STALL[1])]: num(r[hdr[n]]) for n in stalls}
        total = sum(s.values()) or 1.0
        top = sorted(s, key=s.get, reverse=True)[:2]
        print("%s\t%.1f\t%s\t%.1f\t%.1f\t%.0f\t%s\t%s" % (
            r[0], us, "\t".join("%.2f" % (num(r[hdr[c]]) / 1e6) for _, c in REQUESTS), tag,
            num(r[hdr[ISSUE]]), us * tag / 100, " ".join("%s %.0f%%" % (k, 100 * s[k] / total) for k in top),
            r[hdr["Kernel Name"]][:48]))


if __name__ == "__main__":
    main()
