#!/usr/bin/env python
"""Is a change to a kernel faster? Alternated A/B timing of two commits.

One timing of a build swings by 3-5% on a 2-core machine, more than most
single changes gain, so a before/after pair of runs says little. This tool
checks out ``--base`` (default ``HEAD``) and ``--change`` (default: the
working tree) into worktrees of their own, each with its own numba cache,
and times them in alternation: ``--pairs`` rounds of base then change, each
run a fresh process playing the scenario's first variant on one numba
thread (best of 3 after a warm-up, as ``sim bench`` times the party fight)::

    .venv/bin/python tools/ab_speed.py scenarios/mb41/party-vs-boss.yaml --pairs 6
    .venv/bin/python tools/ab_speed.py SCENARIO --base main~1 --change main

Prints each pair and the medians; a change is worth keeping when nearly every
pair agrees. The first run of each side compiles (not timed). Speed only: hold
the counters with ``tools/same_counters.py``. A development tool; nothing in
``sim`` imports it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the child: fights/s of the first variant on one thread, best of 3
CHILD = """
import sys, time, numba
from sim.rng import stream_key
from sim.scenario import load_scenario
numba.set_num_threads(1)
loaded = load_scenario(sys.argv[1])
inp = loaded.module.compile(loaded.variants[0][1])
key = stream_key(20240601)
n = int(sys.argv[2])
loaded.module.simulate(inp, 0, min(n, 4096), key)
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    loaded.module.simulate(inp, 0, n, key)
    best = min(best, time.perf_counter() - t0)
print(n / best)
"""

def _tree(ref: str | None, where: Path) -> Path:
    """A worktree at ``ref``, or a copy of the working tree's ``sim`` when ``ref`` is None."""
    if ref is None:
        shutil.copytree(ROOT / "sim", where / "sim", ignore=shutil.ignore_patterns("__pycache__"))
        return where
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), ref], check=True)
    return where


def _rate(tree: Path, cache: Path, scenario: str, trials: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", CHILD, scenario, str(trials)], env=env, cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"ab_speed: the run in {tree} failed:\n{out.stderr[-2000:]}")
    return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--base", default="HEAD", help="the commit to compare against (default HEAD)")
    ap.add_argument("--change", default=None, help="the changed commit (default: the working tree)")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--trials", type=int, default=200_000)
    a = ap.parse_args()
    scenario = str(Path(a.scenario).resolve())
    work = Path(tempfile.mkdtemp(prefix="ab-speed-"))
    trees = []
    try:
        base = _tree(a.base, work / "base")
        trees.append(base)
        change = _tree(a.change, work / "change")
        if a.change is not None:
            trees.append(change)
        caches = {base: work / "cache-base", change: work / "cache-change"}
        for t in (base, change):  # compile (or load) once, untimed
            _rate(t, caches[t], scenario, 4096)
        rows = []
        for k in range(a.pairs):
            rows.append((_rate(base, caches[base], scenario, a.trials),
                         _rate(change, caches[change], scenario, a.trials)))
            b, c = rows[-1]
            print(f"pair {k + 1}: base {b:12,.0f}  change {c:12,.0f}  {c / b - 1:+6.1%}", flush=True)
        mb = statistics.median(r[0] for r in rows)
        mc = statistics.median(r[1] for r in rows)
        wins = sum(1 for b, c in rows if c > b)
        print(f"median: base {mb:,.0f}, change {mc:,.0f} ({mc / mb - 1:+.1%}); the change faster in {wins} of {len(rows)} pairs")
    finally:
        for t in trees:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(t)], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
