"""The d10 combat add-on (seeds 002/003) as a rule-system plug-in.

Entry points (the same for every system, see ``sim.systems``):
``SCENARIO_MODEL``, ``RULES``, ``compile``, ``simulate``, ``summarize``;
optional ``catalog_rows``, ``bench``, ``play``.
"""
from __future__ import annotations

import numpy as np

from sim import trial_rows as TR
from sim.systems import pick_blocks

from . import fast as F
from . import kernel as K
from .compile import Inputs, compile  # noqa: A004
from .rules import RULES
from .schema import Scenario
from .summarize import combatant_curves, combatants, curves, sides

NAME = "d10"
TITLE = "d10 combat add-on"
SCENARIO_MODEL = Scenario
#: top-level fields a variant's ``set:`` path may start with (``powers.Killing Blow.cost: 2``)
VARIANT_FIELDS = ("powers",)

#: most blocks a chunk is split into for prange (the split never changes results)
MAX_BLOCKS = 64
#: trials per call of :func:`trials` (:func:`sim.trials.trial_columns`): its rows are 40 bytes a trial
TRIALS_CHUNK = 1 << 16

#: ``sim warmup``: the duel fast path and both modes' party fights
WARMUP_SCENARIOS = ("d10/duel.yaml", "d10/party-cake.yaml", "d10/party-grim.yaml")


def simulate(inputs: Inputs, start: int, count: int, key, fast: bool | None = None) -> dict:
    """Play trials ``start .. start+count-1`` with stream key ``key``.

    ``fast``: ``None`` plays an eligible duel on the duel fast path
    (:mod:`.fast`, bit-identical counters) and anything else on the general
    kernel; ``False`` forces the general kernel; ``True`` requires the fast
    path (``ValueError`` naming what stands in the way).

    A trial is a campaign of ``episodes`` x ``fights_per_episode`` fights
    (one fight by default). Int64 counters that add up across chunks:
    ``outcomes[3]`` (side 0 wins every fight / loses one / a draw stops it),
    ``rounds_sum``, ``fights``, ``rounds_hist[cap+1]``, ``side_curve[2, cap+1]``
    and ``comb_curve[n, cap+1]`` (trials in which the side had someone / the
    combatant was in the fight at the end of round r), ``combatants[n, NK]``.
    """
    raw = _play(inputs, start, count, key, max(1, min(MAX_BLOCKS, count // 256)), fast)
    f = raw["fights"].sum(axis=0)
    return {
        "outcomes": f[:3].copy(),
        "rounds_sum": f[K.F_ROUNDS:K.F_ROUNDS + 1].copy(),
        "fights": f[K.F_FIGHTS:K.F_FIGHTS + 1].copy(),
        "rounds_hist": raw["rounds_hist"].sum(axis=0),
        "side_curve": K.standing_curves(raw["side_curve"].sum(axis=0)),
        "comb_curve": K.standing_curves(raw["comb_curve"].sum(axis=0)),
        "combatants": raw["cc"].sum(axis=0),
    }


def _play(inputs: Inputs, start: int, count: int, key, nb: int, fast, rows=None) -> dict:
    """The block kernel's raw per-block arrays for ``count`` trials in ``nb``
    blocks (one trial per block when ``nb == count``: the tests' reference for :func:`trials`).
    ``rows``: ``(girls, cols, rows)`` of :mod:`sim.trial_rows` for the kernel to fill (default: none)."""
    n = inputs.n
    cap = inputs.round_cap
    fights = np.zeros((nb, K.NF), dtype=np.int64)
    rounds_hist = np.zeros((nb, cap + 1), dtype=np.int64)
    side_curve = np.zeros((nb, 2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((nb, n, 2, cap + 1), dtype=np.int64)
    cc = np.zeros((nb, n, K.NK), dtype=np.int64)
    blocks = pick_blocks(K.simulate_blocks, F.simulate_blocks, F.eligible, inputs, fast, "d10 duel fast path")
    blocks(inputs.comb, inputs.pol, inputs.rules, inputs.tab, np.uint64(key), start, count, nb,
           inputs.plain, fights, rounds_hist, side_curve, comb_curve, cc, *(TR.none() if rows is None else rows))
    return {"fights": fights, "rounds_hist": rounds_hist, "side_curve": side_curve,
            "comb_curve": comb_curve, "cc": cc}


def _rows_in_blocks(inputs: Inputs, start: int, count: int, key, girls) -> dict:
    """:func:`trials` by the block kernel :func:`simulate` plays (:func:`.fight.simulate_blocks`, or
    the fast path's for a duel), given ``rows``: its blocks, a row per trial."""
    rows = np.zeros((count, TR.NROW), dtype=np.int64)
    cols = np.array([K.F_ROUNDS, K.K_KO_TRIALS, K.K_DEATHS, K.K_STANDING_END], dtype=np.int64)
    _play(inputs, start, count, key, max(1, min(MAX_BLOCKS, count // 256)), None,
          rows=(np.ascontiguousarray(girls, dtype=np.int64), cols, rows))
    return TR.columns(rows)


def trials(inputs: Inputs, start: int, count: int, key) -> dict:
    """Per-trial outcomes of trials ``start .. start+count-1`` (:func:`sim.trials.per_trial`).

    The same trials as :func:`simulate`, in its blocks (a duel's on the fast path), a row per
    trial (:mod:`sim.trial_rows`). Int arrays of length
    ``count``: ``outcome`` (0 the first side won every fight, 1 lost one, 2 a
    draw stopped it), ``rounds`` (over the trial's fights), and over the
    first side's girls (``C_KIND == KIND_GIRL``): ``girls_out`` (knocked out
    at least once), ``girls_dead`` (died) and ``girls_standing`` (in the
    fight at the end).
    """
    girls = np.flatnonzero((inputs.comb[:, K.C_SIDE] == 0) & (inputs.comb[:, K.C_KIND] == K.KIND_GIRL))
    return _rows_in_blocks(inputs, start, count, key, girls)


def summarize(counters: dict, inputs: Inputs, variant: str) -> dict:
    """Tidy frames: ``curves`` (shared chart), and tables ``combatants``,
    ``sides``, ``combatant_curves``."""
    return {
        "curves": curves(counters, inputs, variant),
        "tables": {
            "combatants": combatants(counters, inputs, variant),
            "sides": sides(counters, inputs, variant),
            "combatant_curves": combatant_curves(counters, inputs, variant),
        },
    }


def catalog_rows() -> list[dict]:
    """Every power and perk with its ``simulated`` flag and, when simulated, what the engine
    plays (``simulated_as``, :mod:`.catalog.simulated`), for ``sim catalog d10``."""
    from . import catalog
    from .catalog.simulated import simulated_as

    out = []
    for r in catalog.entries():
        row = dict(r)
        row["group"] = r["kind"]
        row["action"] = ""
        row["uses"] = ""
        row["simulated_as"] = simulated_as(r)
        out.append(row)
    return out


def bench(quick: bool = False) -> dict:
    """d10 measurements for ``sim bench`` (see :mod:`.benchmark`)."""
    from .benchmark import run

    return run(quick)


def play(scenario_model, seed) -> str:
    """``sim play``: a readable log of trial 0 of ``sim run`` with ``seed`` (:mod:`.game_log`)."""
    from .game_log import play_log

    return play_log(scenario_model, seed)


def report_charts() -> dict:
    """d10 charts added to the report: KO/death rates, wound thresholds reached,
    mana and fortune spent, power use (:mod:`.charts`)."""
    from . import charts

    return charts.CHARTS


def report_page() -> dict:
    """What the report shows first and which table columns stay unfolded."""
    from . import charts

    return charts.PAGE
