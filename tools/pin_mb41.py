#!/usr/bin/env python
"""Pin the 4.1 / draft engine's results: every scenario of ``scenarios/mb41`` and
``scenarios/mb-draft``, many trials, counters saved by name in ``tests/data``.

Usage::

    .venv/bin/python tools/pin_mb41.py [--trials 1000000] [--batches 20] [--out tests/data/mb41_pinned.npz]
        [--only NAME ...] [--cap-seconds S]

For each scenario and variant the trials are played in ``--batches`` equal
batches (trial indices ``0 .. trials-1``, the run's own keyed streams); every
counter's mean per trial and its per-trial variance (from the spread of the
batch means: many batches, so that heavy-tailed counters get an honest
spread) are stored (``tests/test_mb41_pinned.py`` holds a rebuilt engine to
these within 4.5 standard errors).

Counters are stored by name, not by column: the per-combatant matrix
``combatants[n, NK]`` is split into one array per counter field
(``K_ATTACKS``, ``K_OC_GAIN`` with its 3 columns, ...), read from the
engine's column table, so a new column layout can still be compared.

``--cap-seconds``: a variant whose first batch shows that the requested
trials would take longer than this plays fewer batches (at least 20); the
file records what was played.

A development tool; nothing in ``sim`` imports it.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DIRS = ("scenarios/mb41", "scenarios/mb-draft")


def counter_fields() -> dict[str, tuple[int, int]]:
    """``{name: (first column, width)}`` of the per-combatant counter matrix."""
    try:
        from sim.systems.mb41 import layout
    except ImportError:  # the engine before the layout table: its K_* constants
        from sim.systems.mb41 import layout as L

        cols = sorted((v, k) for k, v in vars(K).items()
                      if k.startswith("K_") and isinstance(v, int) and k != "K")
        ends = [v for v, _ in cols[1:]] + [L.NK]
        return {k: (v, e - v) for (v, k), e in zip(cols, ends)}
    return layout.counter_fields()


def split(counters: dict, fields: dict) -> dict[str, np.ndarray]:
    """Counters by name: ``combatants`` becomes ``combatants.<FIELD>`` arrays."""
    out = {}
    for k, v in counters.items():
        if k == "combatants":
            for name, (lo, w) in fields.items():
                out[f"combatants.{name}"] = np.asarray(v[:, lo:lo + w])
        else:
            out[k] = np.asarray(v)
    return out


def pin(paths, trials: int, batches: int, cap_seconds: float | None) -> tuple[dict, dict]:
    """Every counter's mean per trial and per-trial variance (from the spread of the
    batch means), by name; trials ``0 .. trials-1`` in ``batches`` batches."""
    from sim import rng
    from sim.scenario import load_scenario

    fields = counter_fields()
    arrays: dict[str, np.ndarray] = {}
    meta: dict = {"trials": {}, "scenarios": {}}
    for path in paths:
        loaded = load_scenario(path)
        rel = str(Path(path).relative_to(ROOT))
        seed = loaded.base.seed
        crn = getattr(loaded.base, "crn", True)
        names = []
        for idx, (vname, model) in enumerate(loaded.variants):
            inputs = loaded.module.compile(model)
            key = rng.stream_key(seed, 0 if crn else idx + 1)
            per = trials // batches
            loaded.module.simulate(inputs, 0, 64, key)  # compile (or load from the cache) first
            t0 = time.time()
            got = [split(loaded.module.simulate(inputs, 0, per, key), fields)]
            n_b = batches
            if cap_seconds:
                n_b = max(20, min(batches, int(cap_seconds / max(time.time() - t0, 1e-9))))
            for b in range(1, n_b):
                got.append(split(loaded.module.simulate(inputs, b * per, per, key), fields))
            tag = f"{rel}::{vname}"
            for k in got[0]:
                sums = np.stack([g[k] for g in got]).astype(np.float64)
                means = sums / per
                arrays[f"{tag}::{k}::mean"] = means.mean(axis=0)
                arrays[f"{tag}::{k}::var"] = means.var(axis=0, ddof=1) * per
            meta["trials"][tag] = [len(got), per]
            names.append(vname)
            print(f"{tag}: {len(got)} x {per} trials in {time.time() - t0:.1f}s", flush=True)
        meta["scenarios"][rel] = names
    return arrays, meta


def add_window(path: Path, start: int, count: int) -> None:
    """Add to the pinned file every variant's counters summed over trials ``start ..
    start+count-1`` (``::window``): a later engine that draws its dice as this one
    did gives exactly these (``tests/test_mb41_pinned.py`` checks that first)."""
    from sim import rng
    from sim.scenario import load_scenario

    fields = counter_fields()
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    for rel, names in meta["scenarios"].items():
        loaded = load_scenario(ROOT / rel)
        crn = getattr(loaded.base, "crn", True)
        all_names = [n for n, _ in loaded.variants]
        for vname in names:
            idx = all_names.index(vname)
            inputs = loaded.module.compile(loaded.variants[idx][1])
            key = rng.stream_key(loaded.base.seed, 0 if crn else idx + 1)
            got = split(loaded.module.simulate(inputs, start, count, key), fields)
            for k, v in got.items():
                arrays[f"{rel}::{vname}::{k}::window"] = v
            print(f"{rel}::{vname}: window {start} + {count}", flush=True)
    meta["window"] = [start, count]
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=1_000_000)
    ap.add_argument("--batches", type=int, default=200)
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "mb41_pinned.npz"))
    ap.add_argument("--only", nargs="*", default=None, help="scenario file names (stems) to pin")
    ap.add_argument("--cap-seconds", type=float, default=None)
    ap.add_argument("--window", nargs=2, type=int, metavar=("START", "COUNT"), default=None,
                    help="add the exact sums over trials START .. START+COUNT-1 to the --out file")
    a = ap.parse_args(argv)
    if a.window:
        add_window(Path(a.out), *a.window)
        return 0
    paths = sorted(p for d in DIRS for p in (ROOT / d).glob("*.yaml"))
    if a.only:
        paths = [p for p in paths if p.stem in a.only]
    arrays, meta = pin(paths, a.trials, a.batches, a.cap_seconds)
    import subprocess

    meta["commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                    text=True).stdout.strip()
    meta["fields"] = {k: list(v) for k, v in counter_fields().items()}
    arrays["meta"] = np.array(json.dumps(meta))
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
