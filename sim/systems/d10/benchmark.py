"""d10 measurements for ``sim bench`` (merged by :func:`sim.bench.run_bench`).

* ``d10_duel_per_s``: whole fights of ``scenarios/d10/duel.yaml`` through
  :func:`sim.systems.d10.simulate` as ``sim run`` plays them (prange over
  all numba threads, per-trial stream seeding included), best of 3 after a
  warm-up call. The duel qualifies for the duel fast path
  (:mod:`.fast`, ``d10_duel_path``; counters bit-identical to the general
  kernel's, tested); ``d10_duel_general_per_s`` times the general kernel
  (its plain turn) on the same duel for comparison;
* ``d10_python_duel_per_s``: the same duel in plain Python
  (:mod:`.python_duel`, one thread), best of 3; ``d10_duel_vs_python`` is
  the ratio (each used as it would be in practice);
* ``d10_party_fight_per_s``: ``scenarios/d10/party-cake.yaml`` (its first
  variant: three girls with powers against three monster girls, the general
  kernel path).

Nothing is hard-coded: the targets are goals, compared by ``sim bench``.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DUEL = ROOT / "scenarios" / "d10" / "duel.yaml"
PARTY = ROOT / "scenarios" / "d10" / "party-cake.yaml"
TARGETS = {"d10_duel_per_s": 3e6, "d10_duel_vs_python": 200}
SIZES = {"duel": (4_000_000, 200_000), "python": (20_000, 2_000), "party": (400_000, 40_000)}
SEED = 20240601


def _best(fn, repeats=3):
    from sim.timing import best_time

    return best_time(fn, repeats)


def _inputs(path):
    from sim.scenario import load_scenario

    loaded = load_scenario(str(path))
    return loaded.module.compile(loaded.variants[0][1])


def _kernel_rate(inputs, n: int, fast=None) -> tuple[float, dict]:
    from sim.rng import stream_key

    from . import simulate

    key = stream_key(SEED)
    simulate(inputs, 0, 4096, key, fast=fast)
    box = {}

    def once():
        box["c"] = simulate(inputs, 0, n, key, fast=fast)

    return n / _best(once), box["c"]


def run(quick: bool = False) -> dict:
    from . import compile as _compile  # noqa: F401 - imported for the side effect of loading the plug-in
    from .python_duel import Fighter, run_duels

    q = 1 if quick else 0
    duel = _inputs(DUEL)
    rate, c = _kernel_rate(duel, SIZES["duel"][q])
    general, _ = _kernel_rate(duel, SIZES["duel"][q] // 4, fast=False)
    from . import fast
    from . import kernel as K

    cb = duel.comb
    fighters = []
    for i in range(2):
        fighters.append(Fighter(attack=int(cb[i, K.C_DICE + K.STR] + cb[i, K.C_BONUS + K.T_MELEE]),
                                defence=int(cb[i, K.C_DICE + K.AGI] + cb[i, K.C_BONUS + K.T_DODGE]),
                                wmax=int(cb[i, K.C_WMAX]),
                                thresholds=(int(cb[i, K.C_T1]), int(cb[i, K.C_T2]), int(cb[i, K.C_T3])),
                                dr=int(cb[i, K.C_DR])))
    npy = SIZES["python"][q]
    box = {}

    def py():
        box["c"] = run_duels(npy, SEED, *fighters)

    py_rate = npy / _best(py)
    party, pc = _kernel_rate(_inputs(PARTY), SIZES["party"][q])
    n = int(c["outcomes"].sum())
    return {
        "d10_duel_per_s": rate,
        "d10_python_duel_per_s": py_rate,
        "d10_duel_vs_python": rate / py_rate,
        "d10_party_fight_per_s": party,
        "d10_duel_win_rate": float(c["outcomes"][0] / n),
        "d10_python_win_rate": box["c"][0] / npy,
        "d10_duel_plain_path": bool(duel.plain),
        "d10_duel_path": "general" if fast.eligible(duel) else "fast",
        "d10_duel_general_per_s": general,
        "targets": dict(TARGETS),
    }
