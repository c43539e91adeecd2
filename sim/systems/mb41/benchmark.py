"""4.1 party measurements for ``sim bench`` (merged by :func:`sim.bench.run_bench`).

* ``party_fight_per_s``: whole fights of ``scenarios/mb41/party-vs-boss-hex.yaml``
  (first variant: four girls with talents against a spread-4 boss and four
  minions on an 8 x 6 hex battlefield with obstacles and rough terrain)
  through :func:`sim.systems.mb41.simulate` as ``sim run`` plays them
  (general kernel, all numba threads), best of 3 after a warm-up call.
  ``party_fight_grid`` says on which battlefield (``hex``).
* ``party_fight_gridless_per_s``: the same sides gridless
  (``scenarios/mb41/party-vs-boss.yaml``), the measurement before the grid.
* ``party_fight_per_s_tier2`` / ``party_fight_gridless_per_s_tier2``: the same fights on
  tier 2, the engine generated for each scenario's structure (:mod:`.tier2`; the same
  counters), measured the same way after its build is compiled as a run's is (``sim bench``
  passes :func:`sim.tiers.compile_now` as ``compile_build``: a process of its own at the
  build's LLVM level; on a cold cache that takes minutes: it is left out of ``--quick``,
  which reports ``None``).
* ``study_rows_gridless_per_s``: the gridless fights as a study plays them, a row per trial
  (:func:`sim.systems.mb41.trials`, :mod:`sim.trial_rows`), measured the same way;
  ``study_rows_vs_counters`` divides it by ``party_fight_gridless_per_s`` (one trial per
  block, before the row kernels, gave about 0.3).
* ``party_fight_rng_share``: the share of a fight's time spent drawing
  random numbers, measured on one thread: the streams count their 64-bit
  outputs (word 7 of a random stream, :mod:`sim.rng`), so
  ``draws per fight x time per draw / time per fight``, with the time per
  draw of a bare loop over the same generator (``party_rng_draws_per_fight``,
  ``party_rng_ns_per_draw``).
"""
from __future__ import annotations

from pathlib import Path

import numba
import numpy as np

from sim._jit import jit
from sim.rng import STATE_WORDS, next_u64, seed_stream

from . import fight as FI
from . import layout as L
from . import state as ST
from .world import WORLD_WORDS, pack

ROOT = Path(__file__).resolve().parents[3]
PARTY = ROOT / "scenarios" / "mb41" / "party-vs-boss-hex.yaml"
PARTY_GRIDLESS = ROOT / "scenarios" / "mb41" / "party-vs-boss.yaml"
TARGETS = {"party_fight_per_s": 3e5, "party_fight_gridless_per_s": 2e5}
#: issue 38's targets for tier 2 (two threads, a quiet machine)
TIER2_TARGETS = {"party_fight_per_s_tier2": 3.5e5, "party_fight_gridless_per_s_tier2": 5e5}
SIZES = {"party": (400_000, 40_000), "single": (100_000, 10_000), "draws": (50_000_000, 5_000_000)}
SEED = 20240601


@jit
def _fights_counting(comb, rules, key, count, field):
    """Play ``count`` trials on this thread as :func:`.hex.simulate_episode_blocks_grid`
    does; returns the 64-bit outputs drawn by all streams."""
    n = comb.shape[0]
    bf = field.copy()
    wbuf = np.zeros(WORLD_WORDS, dtype=np.int64)
    cap = rules[L.R_ROUND_CAP]
    dyn = np.zeros((n, L.NDYN), dtype=np.int64)
    order = np.zeros(n, dtype=np.int64)
    ikey = np.zeros(n, dtype=np.int64)
    streams = np.zeros((L.NS, STATE_WORDS), dtype=np.uint64)
    side_curve = np.zeros((2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((n, 2, cap + 1), dtype=np.int64)
    draws = 0
    for t in range(count):
        for p in range(L.NS):
            seed_stream(streams[p], key, t, p)
        w = pack(comb, rules, dyn, streams, bf, wbuf)
        ST.reset(w)
        FI.fight_on(order, ikey, side_curve, comb_curve, w)
        for p in range(L.NS):
            draws += np.int64(streams[p, 7])
    return draws


@jit
def _draw_loop(key, count):
    st = np.zeros(STATE_WORDS, dtype=np.uint64)
    seed_stream(st, key, 0, 0)
    acc = np.uint64(0)
    for _ in range(count):
        acc ^= next_u64(st)
    return acc


def run(quick: bool = False, compile_build=None) -> dict:
    from sim.timing import best_time
    from sim.rng import stream_key
    from sim.scenario import load_scenario

    from . import hex as HX
    from . import simulate, tier2_key, trials

    q = 1 if quick else 0
    key = stream_key(SEED)
    n = SIZES["party"][q]
    rates = {}
    tier2 = {}
    for name, path in (("hex", PARTY), ("none", PARTY_GRIDLESS)):
        loaded = load_scenario(str(path))
        inp = loaded.module.compile(loaded.variants[0][1])
        simulate(inp, 0, 4096, key)
        rates[name] = n / best_time(lambda: simulate(inp, 0, n, key))
        if not quick:
            found = tier2_key(inp)
            if compile_build is not None and found is not None and not found[1]:
                compile_build("mb41", inp)  # as a run's build: its own process, its LLVM level (minutes)
            simulate(inp, 0, 4096, key, tier=2)  # compiles the build here if it is still missing
            tier2[name] = n / best_time(lambda: simulate(inp, 0, n, key, tier=2))
        if name == "hex":
            inputs = inp
        else:  # a study's rows (sim.trial_rows) against the counters of the same fights
            trials(inp, 0, 4096, key)
            rows_rate = n / best_time(lambda: trials(inp, 0, n, key))

    m = SIZES["single"][q]
    field = HX.field_arrays(inputs.battlefield)
    _fights_counting(inputs.comb, inputs.rules, np.uint64(key), 100, field)
    box = {}

    def single():
        box["d"] = _fights_counting(inputs.comb, inputs.rules, np.uint64(key), m, field)

    t_fight = best_time(single) / m
    nd = SIZES["draws"][q]
    _draw_loop(np.uint64(key), 1000)
    t_draw = best_time(lambda: _draw_loop(np.uint64(key), nd)) / nd
    draws = box["d"] / m
    return {
        "party_fight_per_s_tier2": tier2.get("hex"),
        "party_fight_gridless_per_s_tier2": tier2.get("none"),
        "party_fight_per_s": rates["hex"],
        "party_fight_grid": "hex",
        "party_fight_gridless_per_s": rates["none"],
        "study_rows_gridless_per_s": rows_rate,
        "study_rows_vs_counters": rows_rate / rates["none"],
        "party_fight_threads": numba.get_num_threads(),
        "party_rng_draws_per_fight": draws,
        "party_rng_ns_per_draw": t_draw * 1e9,
        "party_fight_rng_share": min(1.0, draws * t_draw / t_fight),
        "targets": dict(TARGETS, **({} if quick else TIER2_TARGETS)),
    }
