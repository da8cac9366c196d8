#!/usr/bin/env python3
"""paired.py: the A/B of each step in README.md, from bfsbench results files.

For two cases of one results file (the same roots, in the same order) it
prints how many searches the second case ran faster, the median of the
per-root time ratios and a two-sided sign test; and for every case the
range of its level-0 gap (the device time before level 0).

    python3 paired.py steps-25.json.gz 1 2     # tuned before -> + bu_first
    git show aae54f8:results/diropt-1000/batch-25.json.gz > batch-25.json.gz
    python3 paired.py batch-25.json.gz 0 1     # bu_batch 1 -> 2 (0 2: -> 4; 2 3: alpha 14 -> 40)
"""
import gzip
import json
import signal
import statistics
import sys
from math import comb


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    run = load(sys.argv[1])
    cases = run["cases"]
    a, b = cases[int(sys.argv[2])], cases[int(sys.argv[3])]
    if [s["root"] for s in a["bfs"]] != [s["root"] for s in b["bfs"]]:
        sys.exit("the two cases did not search the same roots")
    ratios = [y["time_s"] / x["time_s"] for x, y in zip(a["bfs"], b["bfs"])]
    n, k = len(ratios), sum(r < 1 for r in ratios)
    p = min(1.0, 2 * sum(comb(n, i) for i in range(min(k, n - k) + 1)) / 2**n)
    print(f"faster {k} of {n}, median time ratio {statistics.median(ratios):.3f}, sign test p {p:.2g}")
    for i, c in enumerate(cases):
        gaps = [s["phases"][0]["times"].get("gap", 0) * 1e6 for s in c["bfs"]]
        print(f"case {i} {c['variant']} {c.get('name_params')}: level-0 gap {min(gaps):.0f}-{max(gaps):.0f} us")


if __name__ == "__main__":
    main()
