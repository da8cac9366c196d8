#!/usr/bin/env python3
"""paired.py: the A/B of each step in results/diropt-1000/README.md, from
bfsbench results files (run it in that folder, or give the files' paths).

For two cases of one results file (the same roots, in the same order), or
case i of two files (A B i: two runs of one config), it prints how many
searches the second case ran faster, the median of the per-root time
ratios and a two-sided sign test, the same without each search's level-0
gap (the device time before level 0: mostly the GPU waking after the
previous search's validation, which can swamp a change) and without all of
level 0 (runs since the 1×1 device loop records one event a level have no
gap: their level 0 includes it); for every case the range of that gap, and
its mean search time with the part of it in top-down levels (and in those
top-down levels that examined over 1 M entries); and
per level the median time of the searches reaching it in both cases (every
part of the level but the search's end, which is a line of its own); then a
search in parts (level 0, level 1, levels 2-3, levels 4 and after, the
end), each part's mean a search in both cases and its sign test root by
root. With a level L after the case numbers it also prints, root by root, level L's direction,
frontier, m_f, entries examined and exploration time (ms) in both cases,
then for each direction each case's mean level-L time over its searches
that went that way there and, over the roots that went that way in both,
in how many b was faster, the median ratio and the sign test, the mean
time of level L + 1 after each direction and of those searches in both
cases, and the roots whose direction at level L differs between the cases
(switched: the A/B of a switching threshold such as alpha). Two runs of
different lengths are compared over the roots they share (Graph500's
keys are a prefix of a longer run's).

    python3 ../../scripts/paired.py steps-all-25.json.gz 1 2  # before -> + bu_first
    git show aae54f8:results/diropt-1000/batch-25.json.gz > batch-25.json.gz
    python3 ../../scripts/paired.py batch-25.json.gz 0 1      # bu_batch 1 -> 2 (0 2: -> 4; 2 3: alpha 14 -> 40)
    python3 ../../scripts/paired.py summary-25.json.gz 0 1 2  # and level 2 root by root
    git show 95376eb:results/diropt-1000/fold-ab-24.json.gz > fold-ab-24.json.gz
    python3 ../../scripts/paired.py fold-ab-24.json.gz 0 1    # bfsbench ab's base -> new
    git show 49a225e:results/diropt-1000/headline-25.json.gz > d990a87-25.json.gz
    python3 ../../scripts/paired.py d990a87-25.json.gz headline-25.json.gz 0  # two runs, seed [2, 3]
    git show 8a88bd0:results/diropt-1000/alpha-25.json.gz > alpha-25.json.gz
    python3 ../../scripts/paired.py alpha-25.json.gz 0 1 2   # alpha 14 -> 40: the roots it moved, T
    git show 78b0dbb:results/diropt-1000/alpha-26.json.gz > alpha-26.json.gz
    python3 ../../scripts/paired.py headline-26.json.gz alpha-26.json.gz 0 2  # 20 -> 40, 44 roots
    python3 ../../scripts/paired.py headline-25-d712fc0.json.gz@0 cut-25.json.gz@1 2  # A@i B@j [LEVEL]

With LO and HI after the level (FILE i j LEVEL LO HI), it then takes the
roots whose level-L m_f lies in (LO, HI] (a window such as the split
level's) and prints, over them, the searches' and level L's paired A/B,
each case's mean time per level (0 to 4, then the rest of the search),
and the harmonic GTEPS of b's searches for those roots with a's for the
others:

    git show b06666e:results/diropt-1000/split-25.json.gz > split-25.json.gz
    python3 ../../scripts/paired.py split-25.json.gz 0 1 2 17e6 104.5e6  # the split's window

A@i B@j compares case i of file A with case j of file B (two runs whose
cases differ in order). With a level, a level's cut bound (the degree
cut's `cut_bound` count, 0f97b42 only) is printed after the root's times,
and the median ratio of the level's time over the roots bottom-up in
both cases.
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


def load_case(spec):
    """Case i of a results file named FILE@i (FILE alone: case 0)."""
    path, _, i = spec.rpartition("@") if "@" in spec else (spec, "", "0")
    return load(path)["cases"][int(i)]


def gap(s):
    """The search's level-0 gap in seconds."""
    return s["phases"][0]["times"].get("gap", 0)


def level0(s):
    """The search's level-0 time in seconds (every part: gap and exploration)."""
    return sum(s["phases"][0]["times"].values())


def phases_ms(phases):
    """The time of the given phases (levels) in ms, every part."""
    return sum(sum(p["times"].values()) for p in phases) * 1e3


def level_medians(case):
    """Per level, the median ms of the level's parts but the end; and the end's median."""
    levels, ends = {}, []
    for s in case["bfs"]:
        for p in s["phases"]:
            t = p["times"]
            levels.setdefault(p["level"], []).append(sum(v for k, v in t.items() if k != "end") * 1e3)
            if "end" in t:
                ends.append(t["end"] * 1e3)
    return {k: statistics.median(v) for k, v in levels.items()}, (statistics.median(ends) if ends else None)


# PARTS are the parts of a search the A/B prints apart: (name, whether a
# level's phase time belongs to it), the end being the phase time "end".
PARTS = [
    ("level 0", lambda level, k: level == 0 and k != "end"),
    ("level 1", lambda level, k: level == 1 and k != "end"),
    ("levels 2-3", lambda level, k: level in (2, 3) and k != "end"),
    ("levels 4 and after", lambda level, k: level >= 4 and k != "end"),
    ("the end", lambda level, k: k == "end"),
]


def part_ms(search, belongs):
    """The search's time in ms in the phases that belong to a part."""
    return sum(v for p in search["phases"] for k, v in p["times"].items() if belongs(p["level"], k)) * 1e3


def paired(ratios, what):
    n, k = len(ratios), sum(r < 1 for r in ratios)
    p = min(1.0, 2 * sum(comb(n, i) for i in range(min(k, n - k) + 1)) / 2**n)
    print(f"{what}: faster {k} of {n}, median time ratio {statistics.median(ratios):.3f}, sign test p {p:.2g}")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    if "@" in sys.argv[1]:  # A@i B@j [LEVEL]
        (fa, ia), (fb, ib) = (arg.rsplit("@", 1) for arg in sys.argv[1:3])
        a, b = load(fa)["cases"][int(ia)], load(fb)["cases"][int(ib)]
        cases, rest = [a, b], sys.argv[3:]
    elif sys.argv[2].isdigit():  # FILE i j [LEVEL]
        cases = load(sys.argv[1])["cases"]
        a, b = cases[int(sys.argv[2])], cases[int(sys.argv[3])]
        rest = sys.argv[4:]
    else:  # A B i [LEVEL]
        i = int(sys.argv[3])
        a, b = load(sys.argv[1])["cases"][i], load(sys.argv[2])["cases"][i]
        cases, rest = [a, b], sys.argv[4:]
    for i, c in enumerate(cases):
        gaps = [gap(s) * 1e6 for s in c["bfs"]]
        print(f"case {i} {c['variant']} {c.get('name_params')}: level-0 gap {min(gaps):.0f}-{max(gaps):.0f} us")
        td = [[p for p in s["phases"] if "explore_td" in p["times"]] for s in c["bfs"]]
        big = [[p for p in ps if p["bytes"]["edges_examined"] > 1e6] for ps in td]
        print(f"case {i}: mean search {statistics.mean(s['time_s'] for s in c['bfs']) * 1e3:.3f} ms, "
              f"top-down levels {statistics.mean(map(phases_ms, td)):.3f} ms, "
              f"those over 1 M entries {statistics.mean(map(phases_ms, big)):.3f} ms (means a search)")
    ra, rb = [s["root"] for s in a["bfs"]], [s["root"] for s in b["bfs"]]
    n = min(len(ra), len(rb))
    if ra[:n] != rb[:n]:
        sys.exit("the two cases did not search the same roots")
    if len(ra) != len(rb):  # a run of fewer searches: Graph500's keys are a prefix of a longer run's
        print(f"the first {n} roots of both (the cases searched {len(ra)} and {len(rb)})")
        a, b = dict(a, bfs=a["bfs"][:n]), dict(b, bfs=b["bfs"][:n])
    pairs = list(zip(a["bfs"], b["bfs"]))
    paired([y["time_s"] / x["time_s"] for x, y in pairs], "search")
    paired([(y["time_s"] - gap(y)) / (x["time_s"] - gap(x)) for x, y in pairs], "without the level-0 gap")
    paired([(y["time_s"] - level0(y)) / (x["time_s"] - level0(x)) for x, y in pairs], "without level 0")
    (la, ea), (lb, eb) = level_medians(a), level_medians(b)
    print("per level, median ms a / b: " + ", ".join(
        f"{k} {la[k]:.4f} / {lb[k]:.4f}" for k in sorted(la) if k in lb))
    if ea is not None and eb is not None:
        print(f"end, median ms a / b: {ea:.4f} / {eb:.4f}")
    for name, belongs in PARTS:
        ta = [part_ms(x, belongs) for x, _ in pairs]
        tb = [part_ms(y, belongs) for _, y in pairs]
        ratios = [v / u for u, v in zip(ta, tb) if u > 0 and v > 0]
        if ratios:
            paired(ratios, f"{name}, mean ms a / b {statistics.mean(ta):.4f} / {statistics.mean(tb):.4f}")
    if rest:
        level = int(rest[0])
        print(f"level {level}: root, direction, frontier, m_f, entries examined a / b, explore ms a / b")
        dirs = {"bu": "bottom-up", "td": "top-down", "split": "split"}
        times = {d: ([], []) for d in dirs}  # each case's level-L times in direction d
        ratios = {d: [] for d in dirs}  # b / a over the roots in direction d in both cases
        for x, y in zip(a["bfs"], b["bfs"]):
            pa = next((p for p in x["phases"] if p["level"] == level), None)
            pb = next((p for p in y["phases"] if p["level"] == level), None)
            if pa is None or pb is None:
                continue
            ta, tb = explore_ms(x, level), explore_ms(y, level)
            d = dir_of(pa)
            ea, eb = pa["bytes"]["edges_examined"], pb["bytes"]["edges_examined"]
            mf = pa["bytes"]["frontier_edges"]
            cut = "".join(f" cut {p['bytes']['cut_bound']}" for p in (pa, pb) if p["bytes"].get("cut_bound"))
            print(f"{x['root']} {d} {pa['frontier']} {mf} {ea} / {eb} {ta:.3f} / {tb:.3f}{cut}")
            db = dir_of(pb)
            times[d][0].append(ta)
            times[db][1].append(tb)
            if d == db:
                ratios[d].append(tb / ta)
        for d, name in dirs.items():
            if not times[d][0] and not times[d][1]:
                continue
            means = [f"{statistics.mean(t):.3f} ms ({len(t)})" if t else "-" for t in times[d]]
            print(f"level {level} {name}, mean: {means[0]} / {means[1]}")
            if ratios[d]:
                paired(ratios[d], f"level {level} {name} in both (b / a)")
        after(a, b, level, dirs)
        switched(a, b, level)
        if len(rest) >= 3:
            window(a, b, level, float(rest[1]), float(rest[2]))


def after(a, b, level, dirs):
    """By level `level`'s direction (the roots that went it in both cases):
    level `level` + 1's mean time after it and the searches' mean time in
    each case, and in how many of those roots b's level `level` + 1 was
    faster (a step that acts on the level after one direction only)."""
    nxt = level + 1
    for d, name in dirs.items():
        xs = [(x, y) for x, y in zip(a["bfs"], b["bfs"])
              if direction(x, level)[0] == d and direction(y, level)[0] == d]
        if not xs:
            continue
        la, lb = [explore_ms(x, nxt) for x, _ in xs], [explore_ms(y, nxt) for _, y in xs]
        sa, sb = [x["time_s"] * 1e3 for x, _ in xs], [y["time_s"] * 1e3 for _, y in xs]
        k = sum(v < u for u, v in zip(la, lb))
        print(f"after a {name} level {level} ({len(xs)} roots): level {nxt} mean ms a / b "
              f"{statistics.mean(la):.4f} / {statistics.mean(lb):.4f} (b faster in {k}), "
              f"search {statistics.mean(sa):.4f} / {statistics.mean(sb):.4f}")


def dir_of(p):
    """A level's direction: "bu", "split" or "td" (diropt's explore_* phase)."""
    return "bu" if "explore_bu" in p["times"] else "split" if "explore_split" in p["times"] else "td"


def direction(s, level):
    """The search's direction at level ("bu", "split", "td"), and that level's phase (None: no such level)."""
    p = next((p for p in s["phases"] if p["level"] == level), None)
    return (None, None) if p is None else (dir_of(p), p)


def explore_ms(s, level):
    """The search's exploration time at level in ms (0 where it has no such level)."""
    p = next((p for p in s["phases"] if p["level"] == level), None)
    return 0.0 if p is None else sum(v for k, v in p["times"].items() if k.startswith("explore_")) * 1e3


def window(a, b, level, lo, hi):
    """The A/B over the roots whose level-`level` m_f lies in (lo, hi], and
    the harmonic GTEPS of b's searches for them with a's for the rest."""
    inside = []
    for k, x in enumerate(a["bfs"]):
        _, p = direction(x, level)
        if p is not None and lo < p["bytes"]["frontier_edges"] <= hi:
            inside.append(k)
    print(f"level {level} m_f in ({lo:g}, {hi:g}]: {len(inside)} roots")
    if not inside:
        return
    xs, ys = [a["bfs"][k] for k in inside], [b["bfs"][k] for k in inside]
    paired([y["time_s"] / x["time_s"] for x, y in zip(xs, ys)], "  search")
    paired([explore_ms(y, level) / explore_ms(x, level) for x, y in zip(xs, ys)], f"  level {level}")
    for name, ss in (("a", xs), ("b", ys)):
        per = [statistics.mean(explore_ms(s, lv) for s in ss) for lv in range(5)]
        rest = statistics.mean(s["time_s"] * 1e3 - sum(explore_ms(s, lv) for lv in range(5)) for s in ss)
        print(f"  {name}: mean ms levels 0-4 " + " ".join(f"{t:.3f}" for t in per) +
              f", the rest with the end {rest:.3f}, search {statistics.mean(s['time_s'] for s in ss) * 1e3:.3f}")
    pick = [b["bfs"][k] if k in set(inside) else x for k, x in enumerate(a["bfs"])]
    print(f"  harmonic GTEPS: a {harmonic_gteps(a['bfs']):.1f}, b's searches in the window with a's "
          f"elsewhere {harmonic_gteps(pick):.1f}")


def harmonic_gteps(searches):
    return len(searches) / sum(1 / s["teps"] for s in searches) / 1e9


def switched(a, b, level):
    """The roots whose direction at level differs between the cases (say two
    values of alpha), each search's time in both, and, for a threshold T on
    the level's frontier edges m_f, the harmonic mean of the searches taken
    root by root from b where b went bottom-up at m_f > T and a did not, else
    from a: what a rule switching above T would give these roots, as long as
    the levels after follow from the level's direction (the rule's other
    inputs unchanged)."""
    moved = []
    for x, y in zip(a["bfs"], b["bfs"]):
        (da, pa), (db, _) = direction(x, level), direction(y, level)
        if da is not None and db is not None and da != db:
            moved.append((pa["bytes"]["frontier_edges"], x, y, da, db))
    if not moved:
        return
    moved.sort(key=lambda m: m[0])
    print(f"level {level}, direction changed: root, m_f, frontier, a -> b, search ms a / b")
    for mf, x, y, da, db in moved:
        print(f"{x['root']} {mf} {direction(x, level)[1]['frontier']} {da} -> {db} "
              f"{x['time_s'] * 1e3:.3f} / {y['time_s'] * 1e3:.3f}")
    print(f"harmonic GTEPS a {harmonic_gteps(a['bfs']):.1f}, b {harmonic_gteps(b['bfs']):.1f}; "
          "taking b's search where b went bottom-up at m_f above T:")
    down = {x["root"] for mf, x, y, da, db in moved if db == "bu"}
    for t in [0] + [m[0] for m in moved if m[4] == "bu"]:
        pick = [y if (x["root"] in down and direction(x, level)[1]["bytes"]["frontier_edges"] > t) else x
                for x, y in zip(a["bfs"], b["bfs"])]
        print(f"  T = {t}: {harmonic_gteps(pick):.1f}")


if __name__ == "__main__":
    main()
