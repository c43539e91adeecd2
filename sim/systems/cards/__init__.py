"""Mahou Shoujo, the card game (seed 004), as a rule-system plug-in.

Entry points (the same for every system, see ``sim.systems``):
``SCENARIO_MODEL``, ``RULES``, ``compile``, ``simulate``, ``summarize``, and
the optional ``catalog_rows``, ``bench``, ``play``, ``report_charts``, ``report_page``.
"""
from __future__ import annotations

import contextlib

import numpy as np

from . import engine as E
from .compile import Inputs, compile  # noqa: A004
from .rules import RULES
from .schema import Scenario

NAME = "cards"
TITLE = "Mahou Shoujo card game"
SCENARIO_MODEL = Scenario
#: top-level fields a variant's ``set:`` path may start with (``cards.Sparkle Ruby.atk: 4``)
VARIANT_FIELDS = ("cards", "what_if")

#: most blocks a chunk is split into for prange (the split never changes results)
MAX_BLOCKS = 64
#: games per call of :func:`trials` (:func:`sim.trials.trial_columns`): its rows are 16 bytes a game
TRIALS_CHUNK = 1 << 16

#: ``sim warmup``: the heuristic players and the search player
WARMUP_SCENARIOS = ("cards/first-player.yaml", "cards/search-vs-heuristic.yaml")


def _nblocks(inputs: Inputs, count: int) -> int:
    """Blocks a call of ``count`` games is split into (prange; the split never changes results):
    a block per game under a search player (its games' lengths vary most)."""
    if int(inputs.pol[:, E.PP_KIND].max()) >= E.POL_SEARCH:
        return max(1, min(MAX_BLOCKS, count))
    return max(1, min(MAX_BLOCKS, count // 64))


def _blocks(cd, inputs: Inputs, start: int, count: int, key, nb: int, rows=None) -> dict:
    """One call of :func:`engine.simulate_blocks` on card tables ``cd``: the per-block counters
    (``rows``: int64 ``[count, 2]`` given, each game's outcome and last turn written in it)."""
    cap = inputs.round_cap
    c = {
        "outcomes": np.zeros((nb, 3), dtype=np.int64),
        "rounds_hist": np.zeros((nb, cap + 1), dtype=np.int64),
        "seat": np.zeros((nb, 2, 3), dtype=np.int64),
        "ends": np.zeros((nb, 3, E.NREASON), dtype=np.int64),
        "gems": np.zeros((nb, 2, cap + 1), dtype=np.int64),
        "cards": np.zeros((nb, 2, E.MAXD, E.NCARDC), dtype=np.int64),
        "kinds": np.zeros((nb, 2, E.NKIND), dtype=np.int64),
        "decisions": np.zeros((nb, 2), dtype=np.int64),
    }
    pol = inputs.pol
    stop = contextlib.nullcontext()
    if int(pol[:, E.PP_KIND].max()) == E.POL_ISMCTS:
        from sim.cancel import stop_cell

        from .ismcts import bind

        pol = bind(pol)   # the search procedure's address in this process, and a stop cell
        stop = stop_cell(pol, (slice(None), E.PP_STOP))
    with stop:
        E.simulate_blocks(cd, inputs.nd, inputs.dcnt, inputs.rules, pol, np.uint64(key),
                          int(start), int(count), nb, c["outcomes"], c["rounds_hist"], c["seat"], c["ends"],
                          c["gems"], c["cards"], c["kinds"], c["decisions"],
                          np.zeros((0, 2), dtype=np.int64) if rows is None else rows)
    return c


def simulate(inputs: Inputs, start: int, count: int, key) -> dict:
    """Play games ``start .. start+count-1`` with stream key ``key``.

    Counters (int64, add up across chunks): ``outcomes[3]`` (first listed side
    wins / loses / draws), ``rounds_hist[cap+1]`` (games ending on turn r),
    ``seat[2, 3]`` (first side's outcomes when side f went first), ``ends[3,
    NREASON]`` (winner 0/1/draw by end reason), ``gems[2, cap+1]`` (sum of
    half-gems held after turn r), ``cards[2, MAXD, 8]`` (per card: drawn,
    won when drawn, played, won when played, not drawn, won when not drawn,
    picked in setup, won when picked), ``kinds[2, NKIND]`` (decisions by action
    kind), ``decisions[2]``.

    With a ``what_if`` (``inputs.what_if_cd``) every game is played a second
    time with the edited card tables on the same streams (each game's outcome
    kept, ``rows`` of :func:`engine.simulate_blocks`), and ``what_if[2, 4]`` counts
    per side: games, wins as written, wins with the edits, wins under both
    (the joint counts :func:`sim.stats.paired_difference` needs).
    """
    if inputs.what_if_cd is not None:
        return _simulate_what_if(inputs, start, count, key)
    nb = _nblocks(inputs, count)
    return {k: v.sum(axis=0) for k, v in _blocks(inputs.cd, inputs, start, count, key, nb).items()}


def _simulate_what_if(inputs: Inputs, start: int, count: int, key) -> dict:
    nb = _nblocks(inputs, count)
    base_rows = np.zeros((count, 2), dtype=np.int64)
    edit_rows = np.zeros((count, 2), dtype=np.int64)
    out = {k: v.sum(axis=0) for k, v in _blocks(inputs.cd, inputs, start, count, key, nb, base_rows).items()}
    _blocks(inputs.what_if_cd, inputs, start, count, key, nb, edit_rows)
    paired = np.zeros((2, 4), dtype=np.int64)
    for s in range(2):  # side s won a game: its outcome is s (0: side 0 won, 1: side 0 lost)
        a = base_rows[:, 0] == s
        b = edit_rows[:, 0] == s
        paired[s] = (count, int(a.sum()), int(b.sum()), int((a & b).sum()))
    out["what_if"] = paired
    return out


def trials(inputs: Inputs, start: int, count: int, key) -> dict:
    """Per-game outcomes of games ``start .. start+count-1`` (:func:`sim.trials.per_trial`):
    ``outcome`` (0 the first listed side won, 1 lost, 2 draw) and ``rounds``
    (the turn the game ended on), each an int array of length ``count``; the
    games as written (a ``what_if`` is not played), in :func:`simulate`'s blocks."""
    rows = np.zeros((count, 2), dtype=np.int64)
    _blocks(inputs.cd, inputs, start, count, key, _nblocks(inputs, count), rows)
    return {"outcome": rows[:, 0].astype(np.int8), "rounds": rows[:, 1].astype(np.int32)}


def summarize(counters: dict, inputs: Inputs, variant: str) -> dict:
    from .tables import summarize as _s

    return _s(counters, inputs, variant)


def catalog_rows() -> list[dict]:
    """The card pool for ``sim catalog cards`` (every card is simulated)."""
    from . import cardsdata

    rows = []
    for c in cardsdata.pool().cards:
        rows.append({"name": c.name, "group": c.type, "action": "", "cost": c.cost if c.cost else "",
                     "uses": "invented" if c.invented else "", "effect": c.rules_text(),
                     "simulated": True, "invented": c.invented})
    return rows


def play(scenario_model, seed) -> str:
    from .game_log import play_log

    return play_log(scenario_model, seed)


def bench(quick: bool) -> dict:
    from .bench import run

    return run(quick)


def report_charts() -> dict:
    from . import charts

    return charts.CHARTS


def report_page() -> dict:
    """The report's words (games and turns) and its first chart (the matchup matrix)."""
    from . import charts

    return charts.PAGE
