#!/usr/bin/env python3
"""by-direction.py: where one diropt case's time is, by the direction of
its level LEVEL (bottom-up, split or top-down): each group's roots, mean
search, mean level LEVEL and level LEVEL+1 and level LEVEL's m_f range;
then every top-down level of more than 5 M examined edges (root, level,
time, frontier, edges, vertices found, edge rate); then the mean search
with and without the slowest one (results/diropt-1000, "The split's
window at scale 26").

    python3 scripts/by-direction.py FILE@i [LEVEL]   (default 2)
"""
import statistics
import sys

from paired import direction, explore_ms, load_case


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    case = load_case(sys.argv[1])
    level = int(sys.argv[2]) if len(sys.argv) == 3 else 2
    searches = case["bfs"]
    groups = {}
    for s in searches:
        d, p = direction(s, level)
        if d is not None:
            groups.setdefault(d, []).append((s, p))
    for d, rows in sorted(groups.items()):
        mf = [p["bytes"]["frontier_edges"] / 1e6 for _, p in rows]
        print(f"level {level} {d}: {len(rows)} roots, search {statistics.mean(s['time_s'] for s, _ in rows) * 1e3:.3f} ms, "
              f"level {level} {statistics.mean(explore_ms(s, level) for s, _ in rows):.3f}, "
              f"level {level + 1} {statistics.mean(explore_ms(s, level + 1) for s, _ in rows):.3f}, "
              f"m_f {min(mf):.1f}-{max(mf):.1f} M")
    big = []
    for s in searches:
        for k, p in enumerate(s["phases"]):
            t = p["times"].get("explore_td", 0)
            e = p["bytes"]["edges_examined"]
            if t > 0 and e > 5e6:
                found = s["phases"][k + 1]["frontier"] if k + 1 < len(s["phases"]) else 0
                big.append((s["root"], p["level"], t * 1e3, p["frontier"], e / 1e6, found / 1e6, e / t / 1e9, s["time_s"]))
    total = sum(s["time_s"] for s in searches)
    print(f"top-down levels over 5 M edges: {len(big)}, their searches {100 * sum(b[-1] for b in big) / total:.1f} % of the time")
    for b in big:
        print("  root %d level %d: %.3f ms, frontier %d, %.1f M edges, found %.2f M, %.1f G edges/s" % b[:7])
    times = sorted(s["time_s"] for s in searches)
    print(f"mean search {statistics.mean(times) * 1e3:.4f} ms, without the slowest ({times[-1] * 1e3:.3f} ms) "
          f"{statistics.mean(times[:-1]) * 1e3:.4f}")


if __name__ == "__main__":
    main()
