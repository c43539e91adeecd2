"""d10 dice, pools and mana: the lowest phase of the fight (seed 003 line numbers).

* a pool is ceil(score / 2) d10, 7-9 one success, 10 two (L11-17); a pool of
  up to ``CHUNK`` dice is one uniform draw below 10^k whose k decimal digits are
  the k dice, and ``tab`` maps the draw to its successes (:func:`success_table`:
  exact, and one random number instead of k); a scripted stream (tests) is read
  die by die, so tests inject faces;
* bonus and penalty dice add up and a pool can shrink to nothing (D3, rule
  ``penalty_order``); the wound bands cost -0/-1/-2/-3 dice (L31-33, D2);
  holds and a dead familiar's grief cost dice on every roll;
* mana: gained up to the pool (Recharge, Regeneration, a Magic Block that holds:
  seed 002 L241-243, rule ``block_mana_on``), spent on uses and augmentation (L51, L77);
* :func:`chance_table`: the exact odds that one pool rolls at least as many
  successes as another (the policy ``grapple: reasoned``).
"""
from __future__ import annotations

import numpy as np

from sim._jit import kernel, part
from sim.rng import randbelow, randbelow_inline

from .codes import *  # noqa: F401,F403 - the named values (T_*, ATK_*, HELD_*...)
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_...)

#: largest pool drawn with one random number (10^4 < 2^32)
CHUNK = 4
TAB_SIZE = (10 ** (CHUNK + 1) - 1) // 9  # 1 + 10 + 100 + 1000 + 10000


def success_table(success_face: int = 7, double_face: int = 10) -> np.ndarray:
    """``tab[(10^k - 1)/9 + v]`` = successes of the k dice whose faces - 1 are the
    decimal digits of ``v`` (k = 0..4)."""
    per = np.array([(f >= success_face) + (f >= double_face) for f in range(1, 11)], dtype=np.int64)
    out = np.zeros(TAB_SIZE, dtype=np.int8)
    for k in range(1, CHUNK + 1):
        off = (10 ** k - 1) // 9
        v = np.arange(10 ** k)
        s = np.zeros(10 ** k, dtype=np.int8)
        for _ in range(k):
            s += per[v % 10]
            v = v // 10
        out[off:off + 10 ** k] = s
    return out


def chance_table(success_face: int = 7, double_face: int = 10) -> np.ndarray:
    """``[NPOOL, NPOOL]`` int64: ``[a, d]`` = P(a pool of ``a`` d10 rolls at least as many
    successes as a pool of ``d``) x ``CHANCE_ONE``, exact (a die is 0, 1 or 2 successes
    by its face, L11-17). An attack hits and a grapple takes on such a roll (L85, L175)."""
    per = np.zeros(3)
    for f in range(1, 11):
        per[(f >= success_face) + (f >= double_face)] += 0.1
    dist = [np.ones(1)]
    for _ in range(1, NPOOL):
        dist.append(np.convolve(dist[-1], per))
    out = np.zeros((NPOOL, NPOOL), dtype=np.int64)
    for a in range(NPOOL):
        at_least = np.cumsum(dist[a][::-1])[::-1]  # at_least[x] = P(successes >= x)
        for d in range(NPOOL):
            p = sum(pd * at_least[x] for x, pd in enumerate(dist[d]) if x < len(at_least))
            out[a, d] = int(round(p * CHANCE_ONE))
    return out


@kernel(inline="always")
def chance(rules, a, d):
    """P(``a`` dice roll at least as many successes as ``d`` dice) x ``CHANCE_ONE``
    (:func:`chance_table`; pools beyond the table count as its largest)."""
    if a < 0:
        a = 0
    if d < 0:
        d = 0
    if a >= NPOOL:
        a = NPOOL - 1
    if d >= NPOOL:
        d = NPOOL - 1
    return rules[R_CHANCE + a * NPOOL + d]


@kernel
def roll_pool(st, n, tab, rules):
    """Successes of ``n`` d10 (``n <= 0``: none, automatically 0): :func:`roll_dice`
    as a called function (the duel fast path and the helpers that roll rarely)."""
    return roll_dice(st, n, tab, rules)


@kernel
def roll_scripted(st, n, rules):
    """:func:`roll_pool` on a scripted stream: one face per die (tests)."""
    s = 0
    sf = rules[R_SUCCESS_FACE]
    df = rules[R_DOUBLE_FACE]
    for _ in range(n):
        f = randbelow(st, 10) + 1
        if f >= sf:
            s += 1
        if f >= df:
            s += 1
    return s


@part
def roll_dice(st, n, tab, rules):
    """Successes of ``n`` d10 (``n <= 0``: none): a random stream rolls up to ``CHUNK``
    dice in one draw (``tab``, :func:`success_table`), a scripted one die by die
    (:func:`roll_scripted`). A part of its caller (the tests of the general turn: no
    call, no argument set-up); :func:`roll_pool` is the called form."""
    if n <= 0:
        return 0
    if st[6] != 0:
        return roll_scripted(st, n, rules)
    s = 0
    while n > 0:
        k = n if n < CHUNK else CHUNK
        pw = 10
        for _ in range(k - 1):
            pw *= 10
        s += tab[(pw - 1) // 9 + randbelow_inline(st, pw)]
        n -= k
    return s


@kernel(inline="always")
def wound_band(comb, dyn, i):
    """0..3: the threshold band of her wounds (0 = first, no penalty)."""
    w = dyn[i, D_W]
    b = 0
    if w >= comb[i, C_T1]:
        b += 1
    if w >= comb[i, C_T2]:
        b += 1
    if w >= comb[i, C_T3]:
        b += 1
    return b


@kernel(inline="always")
def next_threshold(comb, dyn, i):
    """The first wound count of her next threshold band (L33): the pool when she is in
    the last (Focused Assault drops her to it, Blood Magic stops short of it)."""
    w = dyn[i, D_W]
    nxt = comb[i, C_T1]
    if w >= nxt:
        nxt = comb[i, C_T2]
    if w >= nxt:
        nxt = comb[i, C_T3]
    if w >= nxt:
        nxt = comb[i, C_WMAX]
    return nxt


@kernel(inline="always")
def roll_penalty(comb, rules, dyn, i):
    """Dice lost on every roll: wound threshold, holds, grief."""
    b = wound_band(comb, dyn, i)
    p = dyn[i, D_HELD] + dyn[i, D_GRIEF]
    if b > 0:
        p += rules[R_THRESHOLD_PENALTIES + b - 1]
    return p


@kernel(inline="always")
def pool_size(comb, rules, dyn, i, ab, test, bonus, pen):
    """Dice of a test of ability ``ab``: ability dice + perk dice for ``test`` +
    ``bonus`` (augmentation, aid, stunts) - ``pen`` - her standing penalties."""
    p = pen + roll_penalty(comb, rules, dyn, i)
    a = comb[i, C_DICE + ab]
    b = comb[i, C_BONUS + test] + bonus
    if rules[R_PENALTY_ORDER] == 0:
        n = a + b - p
    else:
        a -= p
        if a < 0:
            a = 0
        n = a + b
    if n < 0:
        n = 0
    return n


@kernel(inline="always")
def test_roll(comb, rules, tab, dyn, st, i, ab, test, bonus, pen):
    return roll_dice(st, pool_size(comb, rules, dyn, i, ab, test, bonus, pen), tab, rules)


@kernel
def stunt_dice(pol, st_policy, i):
    s = pol[i, P_STUNT]
    if s <= 0:
        return 0
    d = s // 1000
    if randbelow(st_policy, 1000) < s % 1000:
        d += 1
    return d


@kernel(inline="always")
def gain_mana(comb, rules, dyn, i, m):
    v = dyn[i, D_MANA] + m
    if rules[R_RECHARGE_CAP] == 0:
        if v > comb[i, C_MANA]:
            v = comb[i, C_MANA]
    if v < dyn[i, D_MANA]:
        v = dyn[i, D_MANA]
    dyn[i, D_MANA] = v


@kernel
def pay_mana(comb, dyn, cc, i, cost):
    """Spend ``cost`` mana; a shortfall is paid in wounds (Blood Magic, checked by the caller)."""
    if cost <= 0:
        return
    cc[i, K_MANA] += cost
    if cost <= dyn[i, D_MANA]:
        dyn[i, D_MANA] -= cost
        return
    short = cost - dyn[i, D_MANA]
    dyn[i, D_MANA] = 0
    dyn[i, D_W] += short


@kernel(inline="always")
def block_mana(comb, rules, dyn, cc, t):
    """A Magic Block that held (seed 002 L241-243: "a successful shield will
    absorb the energy of the attack, restoring one point to your Mana Pool"),
    against a mystic attack or any use of Magic, damaging or not."""
    before = dyn[t, D_MANA]
    gain_mana(comb, rules, dyn, t, rules[R_BLOCK_MANA])
    cc[t, K_BLOCK_MANA] += dyn[t, D_MANA] - before


@kernel
def block_mana_magic(comb, rules, dyn, cc, t, dt):
    """A defence ``dt`` that held against a use of Magic that is not an attack (a
    Tentacles grapple, a Hammerspace trap): a Magic Block restores its mana under rule
    ``block_mana_on: any_magic`` (seed 002 L241-243 "uses of Magic")."""
    if dt == T_BLOCK:
        if rules[R_BLOCK_MANA_ON] == BLOCK_MANA_ANY:
            block_mana(comb, rules, dyn, cc, t)
