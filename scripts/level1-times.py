#!/usr/bin/env python3
"""level1-times.py: each root's level-1 lists by length (the TSV of
`go run ./scripts/degcut -scale S -level1 -root ...`) beside its level-1
time in a results file, sorted by m_f: the comparison that priced diropt's
td_eager (results/diropt-1000, "`dev_end` and `td_eager`"): a level 1 with
a list of 32-1,023 entries, read by one warp in steps (warp_max), against
one without.

    python3 scripts/level1-times.py LEVEL1.tsv FILE@i
"""
import sys

from paired import load_case


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    case = load_case(sys.argv[2])
    l1 = {s["root"]: sum(s["phases"][1]["times"].values()) * 1e6 for s in case["bfs"] if len(s["phases"]) > 1}
    rows = []
    with open(sys.argv[1]) as f:
        head = None
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "root":
                head = cells
                continue
            if head is None or not cells[0].isdigit():
                continue
            r = dict(zip(head, map(int, cells)))
            if r["root"] in l1:
                rows.append((r["m_f1"], r["big"], r["warp"], r["warp_max"], l1[r["root"]], r["root"]))
    print("m_f1\tlists >= 1024\tlists 32-1023\twarp_max\tlevel 1 us\troot")
    for row in sorted(rows):
        print("%d\t%d\t%d\t%d\t%.1f\t%d" % row)


if __name__ == "__main__":
    main()
