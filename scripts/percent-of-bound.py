#!/usr/bin/env python3
"""Prints each case of a bfsbench results.json with its harmonic-mean GTEPS
and the % of its memory-bandwidth bound that it reaches.

usage: scripts/percent-of-bound.py RESULTS.json --bw GBPS

bfsbench itself now records each search's bound_bytes and the case's
bandwidth_gbs and percent_of_bound (summary.txt and the run's table show
them); this script recomputes the figure for results written before that,
from the plugins' case info.

The bound is the bytes a search must move over the device's measured copy
bandwidth (GB/s, bytes read + written; gpucheck prints it). Bytes per search
come from the plugin's case info:
  - bytes_per_iteration (edgescan): every iteration reads the whole edge
    list, so bytes = sum of the search's per-level Bytes + bytes_fixed_per_bfs;
  - otherwise bytes_fixed_per_bfs alone (one top-down pass: atomic2d).
% of bound = sum over valid searches of bytes/bw, over the sum of their times.
"""
import argparse
import json


def search_bytes(case, search):
    info = case.get("info") or {}
    fixed = info.get("bytes_fixed_per_bfs")
    if fixed is None:
        return None
    if "bytes_per_iteration" in info:
        per_level = sum(sum((p.get("bytes") or {}).values()) for p in search.get("phases") or [])
        return fixed + per_level
    return fixed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--bw", type=float, required=True, help="device copy bandwidth, GB/s")
    a = ap.parse_args()
    run = json.load(open(a.results))
    bw = a.bw * 1e9
    print(f"{'variant':<12} {'backend':<7} {'scale':>5} {'status':<8} {'valid':>7} {'GTEPS':>8} {'% bound':>8}")
    for c in run["cases"]:
        valid = [s for s in c["bfs"] if s["valid"]]
        st = c.get("stats") or {}
        gteps = st.get("harmonic_mean_teps", 0) / 1e9
        need = [search_bytes(c, s) for s in valid]
        pct = "-"
        if valid and all(b is not None for b in need):
            pct = f"{100 * sum(b / bw for b in need) / sum(s['time_s'] for s in valid):.1f}"
        print(f"{c['variant']:<12} {c['backend']:<7} {c['graph']['scale']:>5} {c['status']:<8} "
              f"{len(valid):>3}/{len(c['bfs']):<3} {gteps:>8.2f} {pct:>8}")


if __name__ == "__main__":
    main()
