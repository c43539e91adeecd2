"""Exact win/loss/draw probabilities of a simple 4.1 duel (the kernel's oracle).

A dynamic program over ``(Resolve_a, Resolve_b, boosts left a, boosts left
b)``, built from exact per-attack damage distributions (the joint law of
total and sixes of ``Nd6!`` from :func:`sim.exact.joint_total_maxima`). It
covers what the tests hold the Monte Carlo kernel to:

* one girl or monster against one, basic attacks only (melee or ranged);
* initiative ``listed`` (a acts first every round) or ``roll`` (2d6 +
  Support, ties by Support then a coin flip, once per fight, seed 000 L1408);
* boost policy ``never`` or ``always`` (one boost die per roll while uses
  last; the overcharge cap must not bind, so give a large one);
* no revive, defeat when one side is down (``all_down``), a round cap (a
  draw). Monster overcharge does not change anything in these fights.

Rules (L149, L1453, L1565): 2d6! + stat vs 2d6! + stat, higher total wins,
then more sixes, then the higher stat, full tie per ``full_tie``; damage =
``damage_dice``d6 + bonus + ``six_damage`` x (attacker sixes - defender
sixes) + 2 x (attacker boosts - defender boosts) (``boost_damage: flat``),
floored at ``min_damage``; overflow ignored.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.exact import DEFAULT_DEPTH, joint_total_maxima

from . import codes as E


@dataclass(frozen=True)
class Fighter:
    att: int
    dfn: int
    sup: int
    resolve: int
    dmg_bonus: int        # melee 2 / ranged 0 (+ a monster's damage bonus)
    boosts: int = 0       # Boost uses per scene with policy 'always'; 0 for 'never'
    passive: int | None = None  # the draft's passive defence total (Defence + 4), None = rolls


@lru_cache(maxsize=None)
def _joint(n: int, depth: int):
    j = joint_total_maxima(n, 6, True, depth)
    keys = np.array(list(j.keys()), dtype=np.int64)
    probs = np.array(list(j.values()), dtype=np.float64)
    return keys[:, 0], keys[:, 1], probs


def attack_damage(a: Fighter, d: Fighter, a_boost: int, d_boost: int, *, damage_dice: int = 1,
                  six_damage: int = 2, defender_six_damage: int = 2, min_damage: int = 0,
                  attacker_wins_full_tie: bool = False, boost_flat: bool = True,
                  depth: int = DEFAULT_DEPTH) -> np.ndarray:
    """Distribution of the damage of one attack: ``p[k]`` for k >= 0; a miss counts as 0.

    ``a_boost`` / ``d_boost``: boost dice added to the attack / defence roll (0 or more).
    """
    at, asx, ap = _joint(2 + a_boost, depth)
    if d.passive is not None:   # no roll: a constant total, no sixes, no boost
        dt, dsx, dp = np.array([d.passive - d.dfn]), np.array([0]), np.array([1.0])
        d_boost = 0
    else:
        dt, dsx, dp = _joint(2 + d_boost, depth)
    A = at[:, None] + a.att
    D = dt[None, :] + d.dfn
    AS = asx[:, None]
    DS = dsx[None, :]
    hit = (A > D) | ((A == D) & (AS > DS))
    if a.att != d.dfn:
        hit |= (A == D) & (AS == DS) & (a.att > d.dfn)
    elif attacker_wins_full_tie:
        hit |= (A == D) & (AS == DS)
    pj = ap[:, None] * dp[None, :]
    shift = six_damage * AS - defender_six_damage * DS + a.dmg_bonus
    if boost_flat:
        shift = shift + E.BOOST_FLAT_DAMAGE * (a_boost - d_boost)
    # damage dice: plain sum of damage_dice d6
    dmg_die = np.zeros(6 * damage_dice + 1)
    dmg_die[0] = 1.0
    for _ in range(damage_dice):
        nxt = np.zeros_like(dmg_die)
        for face in range(1, 7):
            nxt[face:] += dmg_die[:len(dmg_die) - face] / 6.0
        dmg_die = nxt
    shifts = shift[hit]
    weights = pj[hit]
    out: dict[int, float] = {0: float(pj[~hit].sum())}
    faces = np.nonzero(dmg_die)[0]
    for s_val in np.unique(shifts):
        w = weights[shifts == s_val].sum()
        for f in faces:
            k = max(min_damage, int(f + s_val))
            out[k] = out.get(k, 0.0) + w * dmg_die[f]
    m = max(out)
    p = np.zeros(m + 1)
    for k, v in out.items():
        p[k] += v
    return p


def p_first(a: Fighter, b: Fighter) -> float:
    """P(a acts before b) under rolled initiative: 2d6 + Support, ties by Support, then a coin."""
    two = np.zeros(13)
    for x in range(1, 7):
        for y in range(1, 7):
            two[x + y] += 1 / 36
    p = 0.0
    for x in range(2, 13):
        for y in range(2, 13):
            ta, tb = x + a.sup, y + b.sup
            w = two[x] * two[y]
            if ta > tb:
                p += w
            elif ta == tb:
                p += w if a.sup > b.sup else (0.5 * w if a.sup == b.sup else 0.0)
    return p


def _hit_axis1(block: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """Damage ``k`` to the fighter on axis 1 of ``block`` (its Resolve index).

    Returns the surviving states (Resolve 1..) and the probability mass that
    dropped to 0 (overflow ignored, L1420).
    """
    if k == 0:
        return block, 0.0
    r = block.shape[1]
    moved = np.zeros_like(block)
    if k < r - 1:
        moved[:, 1:r - k] = block[:, k + 1:]
    return moved, float(block[:, 1:min(k, r - 1) + 1].sum())


def _half_round(P, x_is_a: bool, a: Fighter, b: Fighter, kw):
    """x attacks y in every live state; returns the new states and x's wins."""
    new = np.zeros_like(P)
    wins = 0.0
    UA, UB = P.shape[2], P.shape[3]
    for ua in range(UA):
        for ub in range(UB):
            block = P[:, :, ua, ub] if x_is_a else P[:, :, ua, ub].T   # target on axis 1
            if not block.any():
                continue
            if x_is_a:
                dist = attack_damage(a, b, int(ua > 0), int(ub > 0), **kw)
            else:
                dist = attack_damage(b, a, int(ub > 0), int(ua > 0), **kw)
            nua = ua - 1 if ua > 0 else 0
            nub = ub - 1 if ub > 0 else 0
            for k, pk in enumerate(dist):
                if pk == 0.0:
                    continue
                moved, killed = _hit_axis1(block, k)
                wins += pk * killed
                new[:, :, nua, nub] += pk * (moved if x_is_a else moved.T)
    return new, wins


def _duel_ordered(a: Fighter, b: Fighter, round_cap: int, kw) -> tuple[float, float, float]:
    P = np.zeros((a.resolve + 1, b.resolve + 1, a.boosts + 1, b.boosts + 1))
    P[a.resolve, b.resolve, a.boosts, b.boosts] = 1.0
    win = 0.0
    loss = 0.0
    for _ in range(round_cap):
        P, w = _half_round(P, True, a, b, kw)
        win += w
        P, lo = _half_round(P, False, a, b, kw)
        loss += lo
    return win, loss, float(P.sum())


def duel(a: Fighter, b: Fighter, *, initiative: str = "listed", round_cap: int = 30, damage_dice: int = 1,
         six_damage: int = 2, defender_six_damage: int = 2, min_damage: int = 0, full_tie: str = "defender",
         boost_flat: bool = True, depth: int = DEFAULT_DEPTH) -> tuple[float, float, float]:
    """Exact ``(P(a wins), P(b wins), P(draw at the round cap))``."""
    kw = dict(damage_dice=damage_dice, six_damage=six_damage, defender_six_damage=defender_six_damage,
              min_damage=min_damage,
              attacker_wins_full_tie=(full_tie == "attacker"), boost_flat=boost_flat, depth=depth)
    first = _duel_ordered(a, b, round_cap, kw)
    if initiative == "listed":
        return first
    q = p_first(a, b)
    b_wins, a_wins, draws = _duel_ordered(b, a, round_cap, kw)   # b acts first
    return (q * first[0] + (1 - q) * a_wins, q * first[1] + (1 - q) * b_wins, q * first[2] + (1 - q) * draws)
