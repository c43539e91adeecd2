"""Card-game measurements merged into ``sim bench``.

* ``card_games_per_s``: whole games of the tempo-heuristic mirror (aggro
  sample deck) through :func:`sim.systems.cards.simulate` (prange over all
  numba threads), best of 3 after a warm-up call.
* ``card_search_decisions_per_s``: decisions taken by a search-policy side
  (budget 64 rollouts, tempo rollouts) against the tempo heuristic, per second
  of wall time (the whole game, including the heuristic side, is timed).
"""
from __future__ import annotations

import time

import yaml

GAMES = (400_000, 50_000)
SEARCH_GAMES = (64, 16)
TARGETS = {"card_games_per_s": 2e5}


def _inputs(policy_a, policy_b, deck="aggro"):
    from sim.scenario import load_scenario_text

    from . import compile as _compile

    d = {"name": "bench", "system": "cards",
         "sides": [{"name": "A", "deck": deck, "policy": policy_a},
                   {"name": "B", "deck": deck, "policy": policy_b}]}
    return _compile(load_scenario_text(yaml.safe_dump(d), "<bench>").variants[0][1])


def _best(fn, repeats=3):
    from sim.timing import best_time

    return best_time(fn, repeats)


def run(quick: bool) -> dict:
    from . import simulate

    q = 1 if quick else 0
    inp = _inputs("tempo", "tempo")
    simulate(inp, 0, 1000, 1)
    n = GAMES[q]
    dt = _best(lambda: simulate(inp, 0, n, 1))
    sinp = _inputs({"name": "search", "budget": 64}, "tempo")
    simulate(sinp, 0, 2, 1)
    ns = SEARCH_GAMES[q]
    t0 = time.perf_counter()
    c = simulate(sinp, 0, ns, 2)
    sdt = time.perf_counter() - t0
    return {"card_games_per_s": n / dt, "card_games": n,
            "card_search_decisions_per_s": float(c["decisions"][0]) / sdt,
            "card_search_budget": 64, "targets": dict(TARGETS)}
