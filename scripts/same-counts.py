#!/usr/bin/env python3
"""same-counts.py: whether two bfsbench results files counted the same
work, search by search: each case's variant, and each search's root, TEPS
edge count (nedge) and per-level byte counts (the exchanges' bytes, m_f,
the entries examined). Times are not compared. It is the check behind
"counted the same bytes and edges" in results/figures/krajecki-fig4-bytes
(a figure of an algorithm's counts, re-run after each change of its code).

    git show HEAD~1:results/figures/krajecki-fig4-bytes/results.json.gz > old.json.gz
    python3 scripts/same-counts.py old.json.gz results/figures/krajecki-fig4-bytes/results.json.gz

Exit 0 when every count matches, 1 at the first difference (printed).
"""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def counts(results):
    """Per search: (variant, root, nedge, [(level, sorted byte counts)])."""
    out = []
    for c in results["cases"]:
        for s in c["bfs"]:
            levels = [(p.get("level"), sorted((p.get("bytes") or {}).items())) for p in s.get("phases") or []]
            out.append((c["variant"], s["root"], s.get("nedge"), levels))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = counts(load(sys.argv[1])), counts(load(sys.argv[2]))
    if len(a) != len(b):
        print(f"{len(a)} searches against {len(b)}")
        return 1
    for x, y in zip(a, b):
        if x != y:
            print(f"differ: {x[0]} root {x[1]}:\n  {x}\n  {y}")
            return 1
    phases = sum(len(x[3]) for x in a)
    print(f"the same counts: {len(a)} searches, {phases} levels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
