"""Magical Burst 4.1 (seed 000) as a rule-system plug-in.

Entry points (the same for every system, see ``sim.systems``):
``SCENARIO_MODEL``, ``RULES``, ``compile``, ``simulate``, ``summarize``.
"""
from __future__ import annotations

import numba
import numpy as np

from sim.systems import pick_blocks

from . import fast as F
from . import registry
from . import episode as EP
from . import fight as FI
from . import hex as HX
from . import layout as L
from sim import curves as CV
from sim import trial_rows as TR
from .compile import Inputs, compile  # noqa: A004,F401 - the system's entry points (sim.systems)
from .rules import RULES  # noqa: F401 - the system's entry point
from .schema import Scenario
from .summarize import combatant_curves, combatants, curves, flair_tiers, sides, summarize_episode, talent_uses

NAME = "mb41"
TITLE = "Magical Burst 4.1"
SCENARIO_MODEL = Scenario
#: top-level fields a variant's ``set:`` path may start with (``talents.Curse.uses_per_scene: 1``)
VARIANT_FIELDS = ("talents",)

#: most blocks a chunk is split into for prange (the split never changes results)
MAX_BLOCKS = 64
#: trials per call of :func:`trials` (:func:`sim.trials.trial_columns`): its rows are 40 bytes a trial
TRIALS_CHUNK = 1 << 16

#: ``sim warmup``: scenarios that reach every entry kernel (gridless, the duel fast
#: path, the hex grid and its labyrinth, episodes), after :func:`warmup`
WARMUP_SCENARIOS = ("quickstart.yaml", "duel-basic.yaml", "mb41/party-vs-boss-hex.yaml",
                    "mb41/party-vs-boss-labyrinth.yaml", "mb41/episode-three-scenes.yaml")


def warmup() -> None:
    """Compile every procedure of every geometry and every talent hook (``sim warmup``)."""
    registry.compile_all()


def simulate(inputs: Inputs, start: int, count: int, key, fast: bool | None = None, tier: int = 1) -> dict:
    """Play trials ``start .. start+count-1`` with stream key ``key``.

    ``tier``: 1 the general engine; 2 the engine generated for this scenario's structure
    (:mod:`.tier2`: the same counters, bit for bit; compiled on first use).

    ``fast``: ``None`` plays an eligible duel on the fast path
    (:mod:`.fast`, bit-identical counters) and anything else on the general
    kernel; ``False`` forces the general kernel; ``True`` requires the fast
    path (``ValueError`` naming what stands in the way).

    Returns int64 counters that add up across chunks: ``outcomes[3]`` (side 0
    wins, loses, draws), ``rounds_sum``, ``rounds_hist[cap+1]`` (fights that
    ended in round r), ``side_curve[2, cap+1]`` / ``comb_curve[n, cap+1]``
    (fights in which the side had someone standing / the combatant stood at
    the end of round r), ``combatants[n, NK]``.
    """
    nb = max(1, min(MAX_BLOCKS, count // 256))
    if inputs.episode is not None:
        if fast:
            raise ValueError("duel fast path: an episode of several scenes plays on the general kernel")
        return _reduce_episode(inputs, _play_episode(inputs, start, count, key, nb, tier=tier))
    raw = _play_fight(inputs, start, count, key, nb, fast, tier=tier)
    f = raw["fights"].sum(axis=0)
    return {
        "outcomes": f[:3].copy(),
        "rounds_sum": f[L.F_ROUNDS:L.F_ROUNDS + 1].copy(),
        "rounds_hist": raw["rounds_hist"].sum(axis=0),
        "side_curve": CV.standing_curves(raw["side_curve"].sum(axis=0)),
        "comb_curve": CV.standing_curves(raw["comb_curve"].sum(axis=0)),
        "combatants": raw["cc"].sum(axis=0)[:, :L.NK],
    }


def tier2_key(inputs: Inputs) -> tuple[str, bool] | None:
    """The key of the tier-2 build that would play ``inputs`` (:mod:`.tier2`) and whether its
    block kernel is compiled already (the one :func:`simulate` and :func:`trials` play);
    ``None`` when tier 2 has nothing to add: a duel the fast path plays (:mod:`.fast`)."""
    from . import tier2

    if inputs.episode is None and not F.eligible(inputs):
        return None
    struct = tier2.structure(inputs.comb, inputs.rule_table)
    return tier2.key(struct), tier2.compiled(struct, _entry(inputs))


def tier2_compiled(inputs: Inputs) -> None:
    """Record that ``inputs``'s tier-2 build has compiled its block kernel (:mod:`sim.tiers`)."""
    from . import tier2

    tier2.mark_compiled(tier2.structure(inputs.comb, inputs.rule_table), _entry(inputs))


def _entry(inputs: Inputs) -> str:
    """Which block kernel plays ``inputs``: ``fight``, ``episode`` or ``hex``."""
    if inputs.battlefield is not None:
        return "hex"
    return "episode" if inputs.episode is not None else "fight"


def _engine(inputs: Inputs, tier: int):
    """The modules that play ``inputs`` on ``tier``: ``(fight, episode, hex)``."""
    if tier == 1:
        return FI, EP, HX
    if tier != 2:
        raise ValueError(f"tier {tier}: the 4.1 engine has tiers 1 and 2")
    from . import tier2

    seen = (inputs.comb.tobytes(), inputs.rule_table.tobytes())  # a run's chunks ask again and again
    built = _TIER2_LOADED.get(seen)
    if built is None:
        built = tier2.load(tier2.structure(inputs.comb, inputs.rule_table))
        _TIER2_LOADED.clear()
        _TIER2_LOADED[seen] = built
    return built.fight, built.episode, built.hex


#: the last tier-2 build :func:`_engine` loaded, by its inputs' tables
_TIER2_LOADED: dict = {}


def _play_fight(inputs: Inputs, start: int, count: int, key, nb: int, fast, run=None, tier: int = 1,
                rows=None) -> dict:
    """The block kernel's raw per-block arrays for ``count`` trials in ``nb``
    blocks (``fights[nb, NF]``, ``rounds_hist``, ``side_curve``,
    ``comb_curve``, ``cc[nb, n, NDYN]``); one trial per block when ``nb ==
    count`` (the tests' reference for :func:`trials`). ``run(kernel, *args)``: plays the kernel
    instead of :func:`_run` (``sim play``'s Python replay, :mod:`.fight_log`). ``rows``:
    ``(girls, cols, rows)`` of :mod:`sim.trial_rows` for the kernel to fill (default: none)."""
    run = run or (lambda kernel, *args: _run(inputs, kernel, *args))
    n = inputs.n
    cap = inputs.round_cap
    fights = np.zeros((nb, L.NF), dtype=np.int64)
    rounds_hist = np.zeros((nb, cap + 1), dtype=np.int64)
    side_curve = np.zeros((nb, 2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((nb, n, 2, cap + 1), dtype=np.int64)
    cc = np.zeros((nb, n, L.NDYN), dtype=np.int64)  # each block's dyn: counters K_* first
    fi, _ep, hx = _engine(inputs, tier)
    blocks = pick_blocks(fi.simulate_blocks, F.simulate_blocks, F.eligible, inputs, fast, "duel fast path")
    rows = TR.none() if rows is None else rows
    if inputs.battlefield is not None:  # the hex grid (F.eligible refuses it)
        # a plain fight is an episode of one scene with no party carried over: one grid kernel
        # (:func:`.hex.simulate_episode_blocks_grid`) plays both, compiled once
        run(hx.simulate_episode_blocks_grid,
            np.array([0, n], dtype=np.int64), 0,
            np.zeros(0, dtype=np.int64), np.uint64(key), start, count, nb, fights, rounds_hist,
            np.zeros((nb, 1, L.NF), dtype=np.int64), np.zeros((nb, 1, cap + 1), dtype=np.int64),
            side_curve.reshape(nb, 1, 2, 2, cap + 1), comb_curve, cc, np.zeros((nb, 0, L.NPE), dtype=np.int64),
            HX.field_arrays(inputs.battlefield), *rows)
    else:
        run(blocks, np.uint64(key), start, count, nb, fights, rounds_hist, side_curve, comb_curve, cc, *rows)
    registry.check(cc.sum(axis=0))
    return {"fights": fights, "rounds_hist": rounds_hist, "side_curve": side_curve,
            "comb_curve": comb_curve, "cc": cc}


def simulate_episode(inputs: Inputs, start: int, count: int, key) -> dict:
    """Episodes ``start .. start+count-1`` (:func:`.episode.simulate_episode_blocks`).

    Returns the counters of :func:`simulate` for the episode as a whole
    (``outcomes``: every scene won / a scene lost / a draw ended it;
    ``rounds_hist[S*cap+1]``: its total rounds; ``side_curve`` and
    ``comb_curve`` of the first scene, ``combatants[N, NK]`` per stacked row)
    plus ``scene_outcomes[S, 3]``, ``scene_rounds_sum[S]``,
    ``scene_rounds_hist[S, cap+1]``, ``scene_side_curve[S, 2, cap+1]``,
    ``scene_comb_curve[N, cap+1]`` and ``party[ng, NPE]``.
    """
    nb = max(1, min(MAX_BLOCKS, count // 256))
    return _reduce_episode(inputs, _play_episode(inputs, start, count, key, nb))


def _run(inputs: Inputs, kernel, *args) -> None:
    """``kernel(inputs.comb, inputs.rules, *args)``. The first time, on a cold numba
    cache, the scenario's procedures and ``kernel`` compile in two processes
    (:func:`.registry.compile_cold`) before ``inputs.rules`` asks for their addresses."""
    compiled = hasattr(kernel, "overloads")  # (not under NUMBA_DISABLE_JIT)
    if compiled and (not kernel.overloads or "_live_rules" not in inputs.__dict__):
        rules_type = np.zeros(1, dtype=np.int64)  # inputs.rules's type, without building it
        argtypes = tuple(numba.typeof(a) for a in (inputs.comb, rules_type) + args)
        registry.compile_cold(inputs.comb, inputs.rule_table, kernel, argtypes)
    kernel(inputs.comb, inputs.rules, *args)


def _play_episode(inputs: Inputs, start: int, count: int, key, nb: int, run=None, tier: int = 1,
                  rows=None) -> dict:
    """The episode block kernel's raw per-block arrays (see :func:`_play_fight`). ``rows``:
    ``(girls, cols, rows)`` of :mod:`sim.trial_rows` for the kernel to fill, ``girls`` rows
    within each scene (:func:`sim.trial_rows.after_scenes`; default: none)."""
    run = run or (lambda kernel, *args: _run(inputs, kernel, *args))
    rows = TR.none() if rows is None else rows
    ep = inputs.episode
    n = inputs.n
    cap = inputs.round_cap
    n_sc = ep.n_scenes
    fights = np.zeros((nb, L.NF), dtype=np.int64)
    rounds_hist = np.zeros((nb, n_sc * cap + 1), dtype=np.int64)
    scene_fights = np.zeros((nb, n_sc, L.NF), dtype=np.int64)
    scene_hist = np.zeros((nb, n_sc, cap + 1), dtype=np.int64)
    side_curve = np.zeros((nb, n_sc, 2, 2, cap + 1), dtype=np.int64)
    comb_curve = np.zeros((nb, n, 2, cap + 1), dtype=np.int64)
    cc = np.zeros((nb, n, L.NDYN), dtype=np.int64)  # each block's dyn: counters K_* first
    party = np.zeros((nb, ep.party, L.NPE), dtype=np.int64)
    _fi, epm, hx = _engine(inputs, tier)
    if inputs.battlefield is not None:  # every scene on the same hex grid
        run(hx.simulate_episode_blocks_grid, ep.offsets, ep.party, ep.recover,
            np.uint64(key), start, count, nb, fights, rounds_hist, scene_fights,
            scene_hist, side_curve, comb_curve, cc, party, HX.field_arrays(inputs.battlefield), *rows)
    else:
        run(epm.simulate_episode_blocks, ep.offsets, ep.party, ep.recover,
            np.uint64(key), start, count, nb, fights, rounds_hist, scene_fights, scene_hist,
            side_curve, comb_curve, cc, party, *rows)
    registry.check(cc.sum(axis=0))
    return {"fights": fights, "rounds_hist": rounds_hist, "scene_fights": scene_fights,
            "scene_hist": scene_hist, "side_curve": side_curve, "comb_curve": comb_curve,
            "cc": cc, "party": party}


def _reduce_episode(inputs: Inputs, raw: dict) -> dict:
    """:func:`simulate_episode`'s counters from the raw per-block arrays."""
    ep = inputs.episode
    f = raw["fights"].sum(axis=0)
    sf = raw["scene_fights"].sum(axis=0)
    scene_side = CV.standing_curves(raw["side_curve"].sum(axis=0))
    scene_comb = CV.standing_curves(raw["comb_curve"].sum(axis=0))
    first = slice(int(ep.offsets[0]), int(ep.offsets[1]))
    return {
        "outcomes": f[:3].copy(),
        "rounds_sum": f[L.F_ROUNDS:L.F_ROUNDS + 1].copy(),
        "rounds_hist": raw["rounds_hist"].sum(axis=0),
        "side_curve": scene_side[0].copy(),
        "comb_curve": scene_comb[first].copy(),
        "combatants": raw["cc"].sum(axis=0)[:, :L.NK],
        "scene_outcomes": sf[:, :3].copy(),
        "scene_rounds_sum": sf[:, L.F_ROUNDS].copy(),
        "scene_rounds_hist": raw["scene_hist"].sum(axis=0),
        "scene_side_curve": scene_side,
        "scene_comb_curve": scene_comb,
        "party": raw["party"].sum(axis=0),
    }


def trials(inputs: Inputs, start: int, count: int, key, tier: int = 1) -> dict:
    """Per-trial outcomes of trials ``start .. start+count-1`` (:func:`sim.trials.per_trial`).

    The same fights as :func:`simulate` (trial ``i`` keyed by ``(key, i)``), played in its
    blocks (a duel's on the fast path), each trial's row read from what it added to its
    block's counters (:mod:`sim.trial_rows`).
    Returns int arrays of length ``count``: ``outcome`` (0 the first side
    won, 1 lost, 2 draw at the round cap), ``rounds`` (rounds played; an
    episode's over all its scenes), and over the first side's magical girls
    (``C_MONSTER == 0``; an episode's party): ``girls_out`` (girls who dropped to 0 Resolve at
    least once, L1420; in an episode, in at least one scene), ``girls_dead`` (girls who died:
    deadly wounds, L1422) and ``girls_standing`` (girls standing at the end; an episode's at
    the end of the last scene it reached). ``tier``: as in :func:`simulate`.
    """
    if inputs.episode is None:
        girls = _first_side_girls(inputs.comb)
    else:  # the party's rows within each scene (:func:`sim.trial_rows.after_scenes`)
        girls = np.arange(inputs.episode.party)
    return TR.columns(_play_rows(inputs, start, count, key, girls, tier))


def _play_rows(inputs: Inputs, start: int, count: int, key, girls, tier: int = 1, fast=None) -> np.ndarray:
    """Rows ``[count, NROW]`` of trials ``start ..`` (:mod:`sim.trial_rows`) by the block kernel
    :func:`simulate` plays (:func:`.fight.simulate_blocks`, or the duel fast path's; ``fast`` as
    there; an episode's, :func:`_play_episode`), given ``rows``, in as many blocks as
    :func:`simulate`."""
    nb = max(1, min(MAX_BLOCKS, count // 256))
    rows = np.zeros((count, TR.NROW), dtype=np.int64)
    cols = np.array([L.F_ROUNDS, L.K_KO_TRIALS, L.K_DEATHS, L.K_STANDING_END], dtype=np.int64)
    given = (np.ascontiguousarray(girls, dtype=np.int64), cols, rows)
    if inputs.episode is not None:
        _play_episode(inputs, start, count, key, nb, tier=tier, rows=given)
    else:
        _play_fight(inputs, start, count, key, nb, fast, tier=tier, rows=given)
    return rows


def _first_side_girls(comb) -> np.ndarray:
    """Rows of the first side's magical girls (not monsters, minions or witches)."""
    return np.flatnonzero((comb[:, L.C_SIDE] == 0) & (comb[:, L.C_MONSTER] == 0))


def summarize(counters: dict, inputs: Inputs, variant: str) -> dict:
    """Tidy frames: ``curves`` (shared chart), and tables ``combatants``,
    ``combatant_curves``; an episode's frames come from
    :func:`.summarize.summarize_episode` (``summary``: columns added to the
    run's summary row)."""
    if inputs.episode is not None:
        return summarize_episode(counters, inputs, variant)
    return {
        "curves": curves(counters, inputs, variant),
        "tables": {
            "combatants": combatants(counters, inputs, variant),
            "sides": sides(counters, inputs, variant),
            "combatant_curves": combatant_curves(counters, inputs, variant),
            "talents": talent_uses(counters, inputs, variant),
            "flair_tiers": flair_tiers(counters, inputs, variant),
        },
    }


def play(scenario_model, seed, trial: int = 0, as_json: bool = False, index: int = 0) -> str:
    """``sim play``: the log of trial ``trial`` of ``sim run --seed seed`` of this variant
    (``index``: its place in the file, for a ``crn: false`` file's stream key), played by the
    engine's own functions in Python (:mod:`.fight_log`); ``as_json``: one JSON event a line."""
    from .fight_log import play_log

    return play_log(scenario_model, seed, trial, as_json, index)


def catalog_rows() -> list[dict]:
    """Every catalog entry (talents...) with its ``simulated`` flag and, when simulated, what
    the engine plays (``simulated_as``: uses, cost, numbers and where each comes from,
    :mod:`.simulated`), for ``sim catalog``."""
    from .catalog import rows
    from .simulated import simulated_as

    return [{**r.model_dump(mode="json"), "simulated_as": simulated_as(r)} for r in rows()]


def report_charts() -> dict:
    """4.1 charts added to the report: overcharge and bursts, talent use, KO/death rates."""
    from . import charts

    return charts.CHARTS


def report_page() -> dict:
    """What the report shows first and which table columns stay unfolded."""
    from . import charts

    return charts.PAGE
