#!/usr/bin/env python
"""Did a change to the 4.1 / draft (or d10) engine keep every counter, bit for bit?

A refactor or a speed-up that leaves the rules and the order of the random
draws alone must give exactly the same counters on the same trials. This
records them before the change and checks them after::

    .venv/bin/python tools/same_counters.py record /tmp/before.npz [--trials 2000]
    ... change the engine ...
    .venv/bin/python tools/same_counters.py check /tmp/before.npz

Every variant of every scenario in ``scenarios/mb41`` and ``scenarios/mb-draft``
plays trials ``0 .. trials-1`` on the general kernel (its own keyed streams);
counters are stored by name (``tools/pin_mb41.py``'s split), so a new column
layout still compares. ``check`` prints each counter that differs and exits 1.
A change meant to alter the rules or the draws fails this on purpose: hold it
to ``tests/test_mb41_pinned.py`` (statistical) instead.

``--system d10`` does the same for every variant of every scenario in
``scenarios/d10``: the general kernel (``fast=False``), the default path
(``fast=None``: the duel fast path where eligible) and the per-trial outcomes
(``trials``), every key compared whole. ``--system cards`` for every variant
of every scenario in ``scenarios/cards`` (heuristic, search and ISMCTS
players, what-ifs): every counter ``simulate`` returns, compared whole
(default 300 games a variant: the search scenarios are slow).

``--tier 2`` plays the 4.1 / draft scenarios on tier 2 (the engine generated for each
variant's structure, ``sim/systems/mb41/tier2.py``; a build compiles once per structure,
a minute or more each): ``record`` on the general engine, then ``check --tier 2`` holds
tier 2 to it, bit for bit, each scenario file in a process of its own (a process keeps the
builds it compiled: the bundled scenarios' 50 do not fit in one).

A development tool; nothing in ``sim`` imports it.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from pin_mb41 import DIRS, counter_fields, split  # noqa: E402


D10_DIRS = ("scenarios/d10",)
CARDS_DIRS = ("scenarios/cards",)
#: games a variant when ``--trials`` is not given
DEFAULT_TRIALS = {"mb41": 2000, "d10": 2000, "cards": 300}


def _d10_counters(module, inputs, trials: int, key) -> dict[str, np.ndarray]:
    """The d10 counters on both paths and the per-trial outcomes, by name."""
    out = {}
    for path, fast in (("general", False), ("default", None)):
        for k, v in module.simulate(inputs, 0, trials, key, fast=fast).items():
            out[f"{path}.{k}"] = np.asarray(v)
    for k, v in module.trials(inputs, 0, trials, key).items():
        out[f"trials.{k}"] = np.asarray(v)
    return out


def play(trials: int, only=None, system: str = "mb41", dirs=None, tier: int = 1,
         saved: dict | None = None) -> dict[str, np.ndarray]:
    """``{"<scenario>::<variant>::<counter>": array}`` for every variant
    (``dirs``: more scenario directories, absolute or relative to the repository)."""
    from sim import rng
    from sim.scenario import load_scenario

    d10 = system == "d10"
    cards = system == "cards"
    fields = None if d10 or cards else counter_fields()
    out = {}
    base = D10_DIRS if d10 else CARDS_DIRS if cards else DIRS
    paths = sorted(p for d in base + tuple(dirs or ()) for p in (ROOT / d).glob("*.yaml"))
    if only:
        paths = [p for p in paths if p.stem in only]
    for path in paths:
        loaded = load_scenario(str(path))
        rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        crn = getattr(loaded.base, "crn", True)
        for idx, (vname, model) in enumerate(loaded.variants):
            t0 = time.time()
            inputs = loaded.module.compile(model)
            key = rng.stream_key(loaded.base.seed, 0 if crn else idx + 1)
            if d10:
                got = _d10_counters(loaded.module, inputs, trials, key)
            elif cards:
                got = {k: np.asarray(v) for k, v in loaded.module.simulate(inputs, 0, trials, key).items()}
            else:
                how = {"tier": tier} if tier != 1 else {}
                got = split(loaded.module.simulate(inputs, 0, trials, key, fast=False, **how), fields)
            for k, v in got.items():
                out[f"{rel}::{vname}::{k}"] = v
            verdict = ""
            if saved is not None:  # as it goes: a long check stopped halfway still says what it saw
                pre = f"{rel}::{vname}::"
                mine = [k for k in saved if k.startswith(pre)]
                differ = [k for k in mine if k not in out or not np.array_equal(out[k], saved[k])]
                verdict = f" ({'DIFFERS: ' + str(len(differ)) if differ else 'same'}, {len(mine)} counters)"
            print(f"{rel}::{vname}: {time.time() - t0:.1f}s{verdict}", flush=True)
    return out


def _each_in_a_process(a) -> int:
    """``check --tier 2`` of every scenario, each file in a process of its own: a process keeps
    every build it compiled (about half a GB each), and the 50 structures of the bundled
    scenarios do not fit in one process's memory."""
    import subprocess

    paths = sorted(p for d in DIRS + tuple(a.dirs or ()) for p in (ROOT / d).glob("*.yaml"))
    failed = []
    for path in paths:
        cmd = [sys.executable, __file__, "check", a.file, "--tier", "2", "--only", path.stem]
        if a.dirs:
            cmd += ["--dirs", *a.dirs]
        if subprocess.run(cmd).returncode != 0:
            failed.append(path.stem)
    print(f"differs in {', '.join(failed)}" if failed else "every counter of every scenario is the same")
    return 1 if failed else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("record", "check"))
    ap.add_argument("file")
    ap.add_argument("--trials", type=int, default=None, help="trials a variant (default: 2000; cards 300)")
    ap.add_argument("--only", nargs="*", default=None, help="scenario file names (stems)")
    ap.add_argument("--system", choices=("mb41", "d10", "cards"), default="mb41",
                    help="mb41: scenarios/mb41 and scenarios/mb-draft; d10: scenarios/d10; cards: scenarios/cards")
    ap.add_argument("--dirs", nargs="*", default=None, help="more scenario directories of that system")
    ap.add_argument("--tier", type=int, choices=(1, 2), default=1,
                    help="mb41: 2 plays every variant on the engine generated for its structure")
    a = ap.parse_args(argv)
    if a.tier == 2 and a.mode == "check" and a.system == "mb41" and a.only is None:
        return _each_in_a_process(a)
    if a.mode == "record":
        trials = a.trials or DEFAULT_TRIALS[a.system]
        got = play(trials, a.only, a.system, a.dirs, a.tier)
        got["__trials__"] = np.array(trials)
        np.savez_compressed(a.file, **got)
        print(f"recorded {len(got) - 1} counters in {a.file}")
        return 0
    with np.load(a.file) as z:
        saved = {k: z[k] for k in z.files}
    got = play(int(saved.pop("__trials__")), a.only, a.system, a.dirs, a.tier, saved)
    bad = []
    for k, v in saved.items():
        if a.only and Path(k.split("::")[0]).stem not in a.only:
            continue
        if k not in got:
            bad.append(f"{k}: gone")
        elif got[k].shape != v.shape or not np.array_equal(got[k], v):
            bad.append(f"{k}: differs")
    for line in bad:
        print(line)
    print(f"{len(bad)} counters differ" if bad else "every counter is the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
