"""Helpers for the card-game tests: small inline decks, stacked decks, mid-game states."""
from __future__ import annotations

import numpy as np
import yaml

from sim.scenario import load_scenario_text
from sim.systems.cards import compile as cards_compile
from sim.systems.cards import engine as E
from sim.systems.cards.game_log import Game

# a 10-card test deck (rules deck_size: 10) from the invented pool
DECK = {
    "Kenta the Kendo Captain": 2,   # hero HP 5 ATK 2 MGK 0
    "Rin the Class Rep": 2,         # hero HP 4 ATK 1 MGK 1
    "Sparkle Ruby": 2,              # girl HP 3 ATK 3 MGK 2
    "Starlight Beam": 1,            # power cost 1: damage 2
    "Barrier Ribbon": 1,            # event: prevent 3
    "Grand Starfall": 1,            # grand HP 3 ATK 6
    "Mochi the Bunny": 1,           # pet cost 1 ATK +1
}


def inputs(deck_a=None, deck_b=None, rules=None, pa="tempo", pb="tempo"):
    r = {"deck_size": 10, "first_player": "first_listed"}
    r.update(rules or {})
    da = dict(deck_a or DECK)
    db = dict(deck_b or DECK)
    r["deck_size"] = sum(da.values())
    d = {"name": "t", "system": "cards", "rules": r,
         "sides": [{"name": "A", "cards": da, "policy": pa}, {"name": "B", "cards": db, "policy": pb}]}
    return cards_compile(load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<test>").variants[0][1])


def loc(inp, side, name):
    return inp.card_names[side].index(name)


def midgame(inp, *, active=None, squads=None, hands=None, decks=None, cur=0, turn=3, acts=None, gems=(0, 0)):
    """A game after setup: ``active[p] = (hero, girl or None)``; ``squads[p]`` hero names;
    ``hands[p]`` card names; ``decks[p]`` card names, bottom first (the last is drawn first).
    Cards not placed anywhere go to the Dreamscape (so cards stay conserved)."""
    G = Game(inp, key=1, log=True)
    g = G.g
    g[E.G_NOSHUF] = 1
    for p in range(2):
        b = E.pb(p)
        g[b + E.P_DECKN] = 0
        left = {i: int(inp.dcnt[p, i]) for i in range(int(inp.nd[p]))}

        def take(name, p=p, left=left):
            i = loc(inp, p, name)
            assert left[i] > 0, f"no copy of {name} left for side {p}"
            left[i] -= 1
            return i

        if active and active[p]:
            h, gl = active[p]
            E.slot_put_hero(g, inp.cd, p, 0, take(h))
            if gl:
                E.attach_girl(g, inp.cd, inp.rules, p, 0, take(gl))
        for s, h in enumerate((squads or {}).get(p, []) if isinstance(squads, dict) else
                              (squads[p] if squads else [])):
            E.slot_put_hero(g, inp.cd, p, s + 1, take(h))
        for name in (hands[p] if hands else []):
            E.hand_add(g, p, take(name))
        for k, name in enumerate(decks[p] if decks else []):
            g[b + E.P_DECK + k] = take(name)
            g[b + E.P_DECKN] = k + 1
        for i, n in left.items():
            for _ in range(n):
                E.dream_add(g, p, i)
        g[b + E.P_GEMS] = gems[p]
    g[E.G_SETUP] = 8
    g[E.G_TURN] = turn
    g[E.G_CUR] = cur
    g[E.G_FIRST] = 0
    g[E.G_ACTS] = int(inp.rules[E.R_ACTIONS_PER_TURN]) if acts is None else acts
    G.advance()
    return G


def conserved(G) -> bool:
    """Every card of each side is in exactly one of deck, hand, field, Dreamscape."""
    g = G.g
    for p in range(2):
        b = E.pb(p)
        nd = int(G.inp.nd[p])
        cnt = np.zeros(nd, dtype=np.int64)
        for i in range(int(g[b + E.P_DECKN])):
            cnt[g[b + E.P_DECK + i]] += 1
        cnt += g[b + E.P_HAND:b + E.P_HAND + nd]
        cnt += g[b + E.P_DREAM:b + E.P_DREAM + nd]
        for s in range(E.NSLOT):
            sb = E.sb(p, s)
            for k in range(E.SL_HERO, E.SL_GRAND + 1):
                c = g[sb + k]
                if c >= 0:
                    cnt[c] += 1
        if not np.array_equal(cnt, G.inp.dcnt[p, :nd]):
            return False
        if g[b + E.P_HANDN] != g[b + E.P_HAND:b + E.P_HAND + nd].sum():
            return False
        if g[b + E.P_DREAMN] != g[b + E.P_DREAM:b + E.P_DREAM + nd].sum():
            return False
    return True
