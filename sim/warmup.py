"""``sim warmup [SYSTEM ...]``: compile a rule system's kernels before the first run.

numba compiles a kernel the first time it runs and keeps the machine code in
its cache (:mod:`sim.cache`), so a system's first run pays its compile time
once: about a minute for the 4.1 engine's gridless fight, more with the hex
grid. ``sim warmup`` pays it ahead (after an install, on a CI runner, before
a workshop): for each system it runs the plug-in's optional ``warmup()``
(the 4.1 engine compiles every procedure of every geometry, so any talent a
scenario names is ready) and then the bundled scenarios the plug-in lists in
``WARMUP_SCENARIOS`` (paths under the repository's ``scenarios/``), a few
hundred trials each (a precision goal capped there too) and nothing
written, which compiles the entry kernels
those scenarios use (gridless, hex grid, episodes, the duel fast path...).

A second ``sim warmup`` finds everything cached and takes seconds.

``sim warmup --tier2 SCENARIO`` compiles the tier-2 builds of a scenario's structures
(:mod:`sim.tiers`: the 4.1 engine generated for one structure, 2-3 minutes each) into this
machine's cache, so that a long run of it, or a dask worker given its tasks, plays tier 2
from its first chunk (:func:`warm_tier2`).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

#: where the bundled scenarios live (a source checkout; ``make demo`` runs one of them)
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
#: trials per warm-up scenario (enough to reach every entry kernel; results are discarded)
TRIALS = 512


def warm(systems: list[str], out=None) -> list[dict]:
    """Compile ``systems``' kernels; returns one row per system (name, seconds, scenarios)."""
    from sim import api
    from sim.systems import get_system

    out = out or sys.stderr
    rows = []
    for name in systems:
        mod = get_system(name)
        t0 = time.perf_counter()
        print(f"warming up {name}...", file=out, flush=True)
        if hasattr(mod, "warmup"):
            mod.warmup()
        done = []
        for rel in getattr(mod, "WARMUP_SCENARIOS", ()):
            path = SCENARIOS / rel
            if not path.is_file():
                print(f"  skipped {rel}: not found under {SCENARIOS} (a source checkout holds it)",
                      file=out, flush=True)
                continue
            loaded = api.load(path)
            n = min(TRIALS, int(getattr(loaded.base, "trials", None) or TRIALS))
            api.run(loaded, trials=n, max_trials=n, write=False, progress=False)
            done.append(rel)
        secs = time.perf_counter() - t0
        print(f"warm: {name} in {secs:.0f} s ({len(done)} scenarios)", file=out, flush=True)
        rows.append({"system": name, "seconds": round(secs, 1), "scenarios": done})
    return rows


def warm_tier2(paths: list, out=None) -> list[dict]:
    """Compile the tier-2 build of each structure among ``paths``' variants (the variants of a
    sweep over numbers share one); one row per variant: ``scenario``, ``variant``, ``key`` (the
    build's, or ``None``: no tier 2 for it, a system without one or a duel the fast path plays)
    and ``status``: ``compiled`` (with ``seconds``), ``cached`` (an earlier run's), ``shared``
    (another variant's build), ``failed`` (with ``error``, the build's last line) or ``none``.
    A build compiles in a process of its own (:func:`sim.tiers.compile_now`), as a run's does."""
    from sim import api, tiers
    from sim.systems import get_system

    out = out or sys.stderr
    rows, seen = [], set()
    for path in paths:
        loaded = api.load(path)
        mod = get_system(loaded.system)
        for name, model in loaded.variants:
            inputs = mod.compile(model)
            found = tiers.structure_of(loaded.system, inputs)
            row = {"scenario": str(path), "variant": name, "key": found[0] if found else None}
            if found is None:
                row["status"] = "none"
            elif found[0] in seen:
                row["status"] = "shared"
            elif found[1]:
                row["status"] = "cached"
                print(f"tier 2: the build of {path} (variant {name!r}, {found[0][:8]}) is compiled already",
                      file=out, flush=True)
            else:
                print(f"tier 2: compiling the build of {path} (variant {name!r}, {found[0][:8]}): "
                      "2-3 minutes...", file=out, flush=True)
                t0 = time.perf_counter()
                try:
                    tiers.compile_now(loaded.system, inputs)  # in a process of its own, as a run's build
                except RuntimeError as e:
                    row["status"], row["error"] = "failed", str(e)
                    print(f"tier 2: the build failed ({e}); runs of it play the general engine", file=out,
                          flush=True)
                else:
                    row["status"], row["seconds"] = "compiled", round(time.perf_counter() - t0, 1)
                    print(f"tier 2: compiled in {row['seconds']:.0f} s", file=out, flush=True)
            if found is not None:
                seen.add(found[0])
            rows.append(row)
    for r in rows:
        if r["status"] == "none":
            print(f"tier 2: none for {r['scenario']} variant {r['variant']!r} (a system without it, or a "
                  "duel the fast path plays)", file=out, flush=True)
    return rows
