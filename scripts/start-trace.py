#!/usr/bin/env python3
"""start-trace.py: the medians of a DIROPT_TRACE file (results/diropt-1000's
graph-trace.txt: `git show 13c042c:results/diropt-1000/graph-trace.txt`),
per case: level 0's time and each host clock point's time from dob_reset's
entry, over the case's timed searches (the first line of a case is its
warm-up search; a case is 1 + SEARCHES lines, in the file's order).

  python3 scripts/start-trace.py FILE [SEARCHES]   (default 8)
"""
import re
import statistics
import sys


def parse(line):
    m = re.match(r"search ([\d.]+) us level0 ([\d.]+) us:(.*)", line)
    if m is None:
        return None
    points = {int(k): float(v) for k, v in re.findall(r" (\d+):(-?[\d.]+)", m.group(3))}
    return float(m.group(2)), points


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    per = int(sys.argv[2]) if len(sys.argv) == 3 else 8
    rows = [r for r in map(parse, open(sys.argv[1])) if r is not None]
    if len(rows) % (per + 1) != 0:
        sys.exit(f"start-trace: {len(rows)} searches, not whole cases of 1 + {per}")
    for c in range(len(rows) // (per + 1)):
        timed = rows[c * (per + 1) + 1:(c + 1) * (per + 1)]
        print(f"case {c}: level 0 median {statistics.median(r[0] for r in timed):.1f} us")
        for k in sorted(timed[0][1]):
            vals = [r[1][k] for r in timed if r[1].get(k, -1) >= 0]
            if vals:
                print(f"  point {k}: median {statistics.median(vals):.1f} us (min {min(vals):.1f}, max {max(vals):.1f})")


if __name__ == "__main__":
    main()
