"""Exact win/loss/draw probabilities of a d10 duel (the kernel's oracle).

A dynamic program over ``(wounds_a, wounds_b)`` built from exact pool
distributions (:func:`sim.exact.d10_pool`, icepool). It covers the duel
family the tests hold the Monte Carlo kernel to:

* one girl against one, weapon attacks only (melee STR / ranged AGI / mystic
  MAG), no mana or fortune spent, no powers (dice perks and DR are fine:
  give the pool sizes);
* a fixed defence (``dodge``, ``luck``, ``parry`` against melee: a full miss
  deals ``parry_wounds`` to the attacker; ``block`` against mystic);
* threshold penalties (L33, rule ``threshold_penalties``; thresholds given
  as first wound counts, see :func:`sim.systems.d10.compile.thresholds`),
  ``penalty_order`` net (no bonus dice here, so both readings agree);
* wounds ``max(min_wounds, base + margin - DR)`` with ``base`` 1 (as written)
  or 0 (the example's reading, D11); Parry counter-wounds;
* initiative ``listed`` (a first every round) or ``roll`` (Agility successes,
  ties by Agility score, then opposed re-rolls, L73; Awareness: 2 per die),
  fixed for the fight; a round cap (a draw); cake mode (out at a full pool),
  no permanent wounds.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.exact import d10_pool


@dataclass(frozen=True)
class Fighter:
    attack: int            # attack pool (ability dice + perk dice)
    defence: int           # defence pool
    wmax: int              # wound pool (2 x VIT)
    thresholds: tuple      # first wound counts of the 2nd, 3rd, 4th threshold
    dr: int = 1
    defence_kind: str = "dodge"   # dodge | luck | parry | block
    attack_kind: str = "melee"    # melee | ranged | mystic
    init: int = 4          # initiative dice (Agility dice + Flexibility)
    agility: int = 8       # Agility score (initiative ties)
    aware: bool = False


@lru_cache(maxsize=None)
def pool(n: int) -> np.ndarray:
    d = d10_pool(max(0, n))
    p = np.zeros(max(d) + 1)
    for k, v in d.items():
        p[k] = v
    return p


def penalty(f: Fighter, w: int, pens=(1, 2, 3)) -> int:
    b = sum(w >= t for t in f.thresholds)
    return pens[b - 1] if b > 0 else 0


@lru_cache(maxsize=None)
def margins(na: int, nd: int) -> tuple[np.ndarray, float]:
    """``(p_hit[m] for margin m >= 0, p_miss)`` of an ``na``-dice attack against ``nd`` dice."""
    a, d = pool(na), pool(nd)
    hit = np.zeros(len(a))
    miss = 0.0
    for i, pa in enumerate(a):
        for j, pd in enumerate(d):
            if i >= j:
                hit[i - j] += pa * pd
            else:
                miss += pa * pd
    return hit, miss


def p_first(a: Fighter, b: Fighter) -> float:
    """P(a acts before b) under rolled initiative (L73)."""
    def dist(f):
        if f.aware:
            p = np.zeros(2 * f.init + 1)
            p[2 * f.init] = 1.0
            return p
        return pool(f.init)
    pa, pb = dist(a), dist(b)
    gt = sum(pa[i] * pb[j] for i in range(len(pa)) for j in range(len(pb)) if i > j)
    lt = sum(pa[i] * pb[j] for i in range(len(pa)) for j in range(len(pb)) if i < j)
    eq = 1.0 - gt - lt
    if a.agility != b.agility:
        tie = 1.0 if a.agility > b.agility else 0.0
    else:
        tie = gt / (gt + lt) if gt + lt > 0 else 0.5
    return gt + eq * tie


def _half(P, x: Fighter, y: Fighter, x_is_a: bool, kw):
    """x attacks y in every live state; returns (new P, mass where x won, mass where y won)."""
    base, min_w, pens, parry_w = kw["base"], kw["min_wounds"], kw["pens"], kw["parry_wounds"]
    new = np.zeros_like(P)
    won = lost = 0.0
    WA, WB = P.shape
    for wa in range(WA):
        for wb in range(WB):
            p = P[wa, wb]
            if p == 0.0:
                continue
            wx, wy = (wa, wb) if x_is_a else (wb, wa)
            na = max(0, x.attack - penalty(x, wx, pens))
            nd = max(0, y.defence - penalty(y, wy, pens))
            hit, miss = margins(na, nd)
            for m, ph in enumerate(hit):
                if ph == 0.0:
                    continue
                w = max(min_w, base + m - y.dr)
                ny = wy + w
                if ny >= y.wmax:
                    won += p * ph
                else:
                    if x_is_a:
                        new[wa, ny] += p * ph
                    else:
                        new[ny, wb] += p * ph
            if miss > 0.0:
                counter = (y.defence_kind == "parry" and x.attack_kind == "melee" and parry_w > 0)
                if counter:
                    nx = wx + parry_w
                    if nx >= x.wmax:
                        lost += p * miss
                        continue
                else:
                    nx = wx
                if x_is_a:
                    new[nx, wb] += p * miss
                else:
                    new[wa, nx] += p * miss
    return new, won, lost


def _ordered(a: Fighter, b: Fighter, round_cap: int, kw):
    P = np.zeros((a.wmax, b.wmax))
    P[0, 0] = 1.0
    win = loss = 0.0
    for _ in range(round_cap):
        P, w, l_ = _half(P, a, b, True, kw)
        win += w
        loss += l_
        P, w, l_ = _half(P, b, a, False, kw)
        loss += w
        win += l_
    return win, loss, float(P.sum())


def duel(a: Fighter, b: Fighter, *, initiative: str = "listed", round_cap: int = 30,
         damage_formula: str = "as_written", min_wounds: int = 1, threshold_penalties=(1, 2, 3),
         parry_wounds: int = 1) -> tuple[float, float, float]:
    """Exact ``(P(a wins), P(b wins), P(draw at the round cap))``."""
    kw = dict(base=1 if damage_formula == "as_written" else 0, min_wounds=min_wounds,
              pens=tuple(threshold_penalties), parry_wounds=parry_wounds)
    first = _ordered(a, b, round_cap, kw)
    if initiative == "listed":
        return first
    q = p_first(a, b)
    b_w, a_w, dr = _ordered(b, a, round_cap, kw)
    return (q * first[0] + (1 - q) * a_w, q * first[1] + (1 - q) * b_w, q * first[2] + (1 - q) * dr)
