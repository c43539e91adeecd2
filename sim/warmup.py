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
