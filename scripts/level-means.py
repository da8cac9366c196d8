#!/usr/bin/env python3
"""level-means.py: one table row a case of the mean time of each level (ms,
over the searches reaching it, the search's `end` left out of its last
level), then the mean end, the mean search and the harmonic GTEPS: the
per-level tables of results/diropt-1000/README.md, to four decimals
(`bin/bfsbench levels` gives the same by direction, to three, with the end
in the level it follows).

    python3 scripts/level-means.py FILE@i [FILE@j ...] [--levels N]   (N: levels 0..N-1, default 7)
"""
import statistics
import sys

from paired import load_case


def row(spec, nlevels):
    case = load_case(spec)
    levels, ends = {}, []
    for s in case["bfs"]:
        for p in s["phases"]:
            levels.setdefault(p["level"], []).append(sum(v for k, v in p["times"].items() if k != "end") * 1e3)
            if "end" in p["times"]:
                ends.append(p["times"]["end"] * 1e3)
    cells = [f"{statistics.mean(levels[l]):.4f}" if l in levels else "-" for l in range(nlevels)]
    search = statistics.mean(s["time_s"] for s in case["bfs"]) * 1e3
    end = f"{statistics.mean(ends):.4f}" if ends else "-"
    gteps = case["stats"]["harmonic_mean_teps"] / 1e9
    return f"| {spec} | " + " | ".join(cells) + f" | {end} | {search:.4f} | {gteps:.1f} |"


def main():
    args, nlevels = sys.argv[1:], 7
    if "--levels" in args:
        k = args.index("--levels")
        nlevels = int(args[k + 1])
        del args[k:k + 2]
    if not args:
        sys.exit(__doc__)
    print("| case | " + " | ".join(f"level {l}" for l in range(nlevels)) + " | the end | search | GTEPS |")
    print("|---|" + "---:|" * (nlevels + 3))
    for spec in args:
        print(row(spec, nlevels))


if __name__ == "__main__":
    main()
