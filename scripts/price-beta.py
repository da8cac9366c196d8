#!/usr/bin/env python3
"""price-beta.py: what a larger `beta` (Beamer's switch back to top-down at
n_f < n / beta) would make of a diropt run, priced from the run's own
levels before it is measured (results/diropt-1000, "`beta` 2000,
re-measured").

Each top-down level 3 or later that follows a bottom-up (or split) level,
shrinks the frontier and has n_f >= n / beta is priced as a bottom-up level
instead, at a line fitted to the run's bottom-up levels 4 and later: their
time against the rows they found (the next level's frontier). The levels
after it keep their directions, but a cascade (a level turned bottom-up
makes the next one eligible too) is followed. It prints the fit, then for
each beta the mean search and harmonic GTEPS priced, and how many levels
changed. A price, not a measurement: the A/B is beta-25.

    python3 scripts/price-beta.py FILE@i SCALE [BETA ...]   (default betas 24 100 300 1000 2000 4000 8000)
"""
import statistics
import sys

from paired import dir_of, load_case


def explore_us(p):
    return sum(v for k, v in p["times"].items() if k != "end") * 1e6


def is_bu(p):
    return dir_of(p) != "td"


def fit(case):
    """Least squares of a bottom-up level 4+'s time (µs) on the rows it found (M)."""
    xs, ys = [], []
    for s in case["bfs"]:
        ph = s["phases"]
        for i, p in enumerate(ph):
            if p["level"] >= 4 and "explore_bu" in p["times"]:
                xs.append((ph[i + 1]["frontier"] if i + 1 < len(ph) else 0) / 1e6)
                ys.append(explore_us(p))
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b1 = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b1 * mx, b1, len(xs)


def price(case, n, beta, b0, b1):
    total, changed = 0.0, 0
    for s in case["bfs"]:
        ph, t, prev_bu = s["phases"], s["time_s"] * 1e6, False
        for i, p in enumerate(ph):
            bu = is_bu(p)
            if (p["level"] >= 3 and prev_bu and not bu and p["frontier"] < ph[i - 1]["frontier"]
                    and p["frontier"] >= n / beta):
                nxt = ph[i + 1]["frontier"] if i + 1 < len(ph) else 0
                t += b0 + b1 * nxt / 1e6 - explore_us(p)
                changed, bu = changed + 1, True
            prev_bu = bu
        total += t
    mean = total / len(case["bfs"])
    return mean, case["bfs"][0]["nedge"] / mean / 1e3, changed


def main():
    if len(sys.argv) < 3 or "@" not in sys.argv[1]:
        sys.exit(__doc__)
    case = load_case(sys.argv[1])
    n = 2 ** int(sys.argv[2])
    betas = [float(b) for b in sys.argv[3:]] or [24, 100, 300, 1000, 2000, 4000, 8000]
    b0, b1, k = fit(case)
    print(f"bottom-up levels 4+: {b0:.1f} us + {b1:.1f} us a million rows found ({k} levels)")
    for beta in betas:
        mean, gteps, changed = price(case, n, beta, b0, b1)
        print(f"beta {beta:g}: mean search {mean:.1f} us, {gteps:.1f} GTEPS, {changed} levels bottom-up instead")


if __name__ == "__main__":
    main()
