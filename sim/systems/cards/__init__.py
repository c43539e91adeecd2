"""Mahou Shoujo, the card game (seed 004), as a rule-system plug-in.

Entry points (the same for every system, see ``sim.systems``):
``SCENARIO_MODEL``, ``RULES``, ``compile``, ``simulate``, ``summarize``, and
the optional ``catalog_rows``, ``bench``, ``play``, ``report_charts``, ``report_page``.
"""
from __future__ import annotations

import numpy as np

from . import engine as E
from .compile import Inputs, compile  # noqa: A004
from .rules import RULES
from .schema import Scenario

NAME = "cards"
TITLE = "Mahou Shoujo card game"
SCENARIO_MODEL = Scenario

#: most blocks a chunk is split into for prange (the split never changes results)
MAX_BLOCKS = 64

#: ``sim warmup``: the heuristic players and the search player
WARMUP_SCENARIOS = ("cards/first-player.yaml", "cards/search-vs-heuristic.yaml")


def simulate(inputs: Inputs, start: int, count: int, key) -> dict:
    """Play games ``start .. start+count-1`` with stream key ``key``.

    Counters (int64, add up across chunks): ``outcomes[3]`` (first listed side
    wins / loses / draws), ``rounds_hist[cap+1]`` (games ending on turn r),
    ``seat[2, 3]`` (first side's outcomes when side f went first), ``ends[3,
    NREASON]`` (winner 0/1/draw by end reason), ``gems[2, cap+1]`` (sum of
    half-gems held after turn r), ``cards[2, MAXD, 6]`` (per card: drawn,
    won when drawn, played, won when played, not drawn, won when not drawn),
    ``kinds[2, NKIND]`` (decisions by action kind), ``decisions[2]``.
    """
    cap = inputs.round_cap
    nb = max(1, min(MAX_BLOCKS, count // 64))
    pol = inputs.pol
    if int(pol[:, E.PP_KIND].max()) >= E.POL_SEARCH:
        nb = max(1, min(MAX_BLOCKS, count))
    if int(pol[:, E.PP_KIND].max()) == E.POL_ISMCTS:
        from .ismcts import bind

        pol = bind(pol)   # the search procedure's address in this process
    outc = np.zeros((nb, 3), dtype=np.int64)
    rhist = np.zeros((nb, cap + 1), dtype=np.int64)
    seat = np.zeros((nb, 2, 3), dtype=np.int64)
    ends = np.zeros((nb, 3, E.NREASON), dtype=np.int64)
    gemc = np.zeros((nb, 2, cap + 1), dtype=np.int64)
    cardc = np.zeros((nb, 2, E.MAXD, 6), dtype=np.int64)
    kinds = np.zeros((nb, 2, E.NKIND), dtype=np.int64)
    decs = np.zeros((nb, 2), dtype=np.int64)
    E.simulate_blocks(inputs.cd, inputs.nd, inputs.dcnt, inputs.rules, pol, np.uint64(key),
                      int(start), int(count), nb, outc, rhist, seat, ends, gemc, cardc, kinds, decs)
    return {
        "outcomes": outc.sum(axis=0),
        "rounds_hist": rhist.sum(axis=0),
        "seat": seat.sum(axis=0),
        "ends": ends.sum(axis=0),
        "gems": gemc.sum(axis=0),
        "cards": cardc.sum(axis=0),
        "kinds": kinds.sum(axis=0),
        "decisions": decs.sum(axis=0),
    }


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
    from .play import play_log

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
