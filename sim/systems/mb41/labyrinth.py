"""Labyrinth features (seed 000 L2126-2166): Alternating Damage, the Current, the
Pendulum at the end of each round (or after every turn, ``pendulum_moves: turn``).
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import exploding_d6, sum_d6
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import unpack
from .damage import apply_damage
from .hex import hexes, leave_if_dead, refresh_fear, refresh_fear_w, relocate
from .hex_moves import mines_pending
from .overcharge import check_bursts, gain_overcharge
from .state import _hits, outcome_now, roll_penalty
from .talents.team import switched


@kernel(forceinline=True)
def exempt(j, mode, w):
    """``j`` is exempt from a labyrinth feature: ``mode`` EXEMPT_OWNER (the
    labyrinth's owner) or EXEMPT_SIDE (the owner's whole side)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if mode == G.EXEMPT_NONE:
        return False
    o = bf[BF_LAB][G.L_OWNER]
    if o < 0:
        return False
    if mode == G.EXEMPT_OWNER:
        return j == o
    return comb[j, C_SIDE] == comb[o, C_SIDE]


@kernel
def lab_damage(j, dmg, w):
    """A labyrinth feature deals ``dmg`` to ``j`` (not an attack)."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = apply_damage(j, dmg, w)
    dyn[j, K_LAB_DMG] += d
    dyn[j, K_TAKEN] += d
    check_bursts(j, w)
    leave_if_dead(j, w)


@kernel
def alternating_damage(r, w):
    """Alternating Damage (L2128-2130): at the end of round ``r`` everyone
    (standing or down, not dead) in the sections of set ((r - 1) mod k) + 1
    takes ``L_ALT_DMG`` (3), except the exempt."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    k = lab[G.L_ALT_SETS]
    if k <= 0:
        return
    cur = (r - 1) % k + 1
    fx = F.cellfx_of(bf)
    for j in range(comb.shape[0]):
        if dyn[j, D_DEAD] != 0:
            continue
        c = dyn[j, D_POS]
        if c < 0:
            continue
        if fx[c, G.FX_ALT] != cur:
            continue
        if exempt(j, lab[G.L_ALT_EXEMPT], w):
            continue
        lab_damage(j, lab[G.L_ALT_DMG], w)


@kernel
def current_step(j, w):
    """The hex the Current pushes ``j`` to, -1 if none (blocked, off the field, already there)."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    mode = lab[G.L_CUR_MODE]
    nbr = F.nbr_of(bf)
    c = dyn[j, D_POS]
    if mode == G.CUR_DIRECTION:
        m = nbr[c, lab[G.L_CUR_ARG]]
        if m < 0:
            return -1
        if G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
            return -1
        return m
    goal = lab[G.L_CUR_ARG]
    if mode == G.CUR_OWNER:
        o = lab[G.L_OWNER]
        if o < 0:
            return -1
        if dyn[o, D_DEAD] != 0:
            return -1  # the current moved with the monster (L2133): it ends with it
        goal = dyn[o, D_POS]
        if goal < 0:
            return -1
    now = hexes(c, goal, w)
    best = -1
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            if not G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
                dm = hexes(m, goal, w)
                if dm < now:
                    now = dm
                    best = m
    return best


@kernel
def current(w):
    """Current (L2132-2133): at the end of each round everyone (not dead, not
    exempt) is moved 1 hex in the set direction or toward the set hex (or
    the owner); forced, so rough terrain, Perilous Terrain and enemies do not
    hold her, but obstacles, barriers and people do (one per hex: she stays).
    Those blocked by someone who then moves go in a later pass."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    if lab[G.L_CUR_MODE] == G.CUR_OFF:
        return
    n = comb.shape[0]
    done = F.row(bf, BF_DIST)  # scratch: 1 = moved (or left alone) this round
    for j in range(n):
        done[j] = 0
        if dyn[j, D_DEAD] != 0:
            done[j] = 1
        elif dyn[j, D_POS] < 0:
            done[j] = 1
        elif exempt(j, lab[G.L_CUR_EXEMPT], w):
            done[j] = 1
    moved = True
    while moved:
        moved = False
        for j in range(n):
            if done[j] != 0:
                continue
            m = current_step(j, w)
            if m >= 0:
                relocate(j, m, w)
                dyn[j, K_LAB_MOVES] += 1
                done[j] = 1
                moved = True


@kernel
def pendulum(w):
    """Pendulum (L2143-2144): it swings along its trajectory, ``L_PEND_LEN``
    hexes long, moving its length each time (back at either end); the hexes
    it enters become rough terrain; it attacks a random character (not dead,
    not exempt) in the hexes it occupies: 2d6! + the owner's Attack against
    her defence as a basic attack's (passive for minions, Tenacity when
    down; no Boost, no overcharge for the pendulum), 1d6 (``L_PEND_DICE``
    d6) damage on a hit, no sixes added (the book gives 1d6). Defensive Switch
    (L1699-1703): an ally of the target may take her place (and the attack)
    before the roll, as for any attack on her."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    ln = lab[G.L_PEND_LEN]
    if ln <= 0:
        return
    path = F.path_of(bf)
    lst = bf[BF_LST]
    top = path.shape[0] - ln
    p = lst[LST_PEND]
    if top > 0:
        if lst[LST_PDIR] > 0:
            if p >= top:
                lst[LST_PDIR] = -1
        elif p <= 0:
            lst[LST_PDIR] = 1
        p += lst[LST_PDIR] * ln
        if p > top:
            p = top
        if p < 0:
            p = 0
        lst[LST_PEND] = p
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    count = 0
    for k in range(p, p + ln):
        c = path[k]
        if terrain[c] & G.BLOCK_MOVE == 0:
            terrain[c] |= G.ROUGH
        who = occ[c]
        if who >= 0:
            if dyn[who, D_DEAD] == 0:
                if not exempt(who, lab[G.L_PEND_EXEMPT], w):
                    count += 1
    if count == 0:
        return
    chk = streams[S_CHECK]
    pickk = 0
    if count > 1:
        pickk = randbelow(chk, count)
    t = -1
    for k in range(p, p + ln):
        who = occ[path[k]]
        if who >= 0:
            if dyn[who, D_DEAD] == 0:
                if not exempt(who, lab[G.L_PEND_EXEMPT], w):
                    if pickk == 0:
                        t = who
                        break
                    pickk -= 1
    o = lab[G.L_OWNER]
    t = switched(o, t, w)
    att = 0
    if o >= 0:
        att = comb[o, C_ATT]
    dyn[t, K_PENDULUM] += 1
    a_total, a_six = exploding_d6(chk, 2)
    a_total += att
    passive = False
    d_stat = 0
    d_six = 0
    if comb[t, C_PDEF] >= 0:
        passive = True
        d_total = comb[t, C_PDEF]
    elif dyn[t, D_RES] > 0:
        d_stat = comb[t, C_DEF]
        d_total, d_six = exploding_d6(chk, 2)
        d_total += d_stat - roll_penalty(t, w) + dyn[t, D_DEF_BONUS]
        gain_overcharge(t, comb[t, C_RD], d_six, w)
    elif rules[R_DOWNED_DEFENCE] == 0:
        d_stat = comb[t, C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - roll_penalty(t, w)
    else:
        d_total = -(1 << 40)
    hit = _hits(passive, rules[R_MINION_TIE], a_total, a_six, att, d_total, d_six, d_stat,
                  rules[R_FULL_TIE] == 1)
    if hit:
        lab_damage(t, sum_d6(streams[S_DAMAGE], lab[G.L_PEND_DICE]), w)
    else:
        check_bursts(t, w)


@kernel(forceinline=True)
def end_of_round(r, w):
    """The labyrinth at the end of round ``r`` (:func:`labyrinth_round`) when the
    field has labyrinth features; -1 (the fight goes on) otherwise. Inlined: a
    field without features pays a load, not a call."""
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LAB][G.L_ANY] == 0:
        return -1
    return labyrinth_round(r, w)


@kernel
def labyrinth_round(r, w):
    """The labyrinth at the end of round ``r``, in this order: Alternating
    Damage, Current, then the Pendulum (``pendulum_moves: round``, A44a).
    Returns the fight's outcome after it, -1 while it goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    alternating_damage(r, w)
    current(w)
    if rules[R_PENDULUM_MOVES] == 0:
        pendulum(w)
    mines_pending(w)  # the Current's moves
    refresh_fear(w)
    return outcome_now(w)


@part
def after_turn(w):
    """After a combatant's turn (and what it set off, retaliations included):
    the mines look at every move still unchecked (:func:`mines_pending`); the
    labyrinth's Pendulum moves (``pendulum_moves: turn``, A44b)."""
    mines_pending(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LAB][G.L_PEND_LEN] > 0:
        if rules[R_PENDULUM_MOVES] == 1:
            pendulum(w)
            refresh_fear_w(w)


@kernel
def p_after_turn(i, b, c, w):
    """PR_AFTER_TURN: :func:`after_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    after_turn(w)
    return 0


@kernel
def p_end_of_round(r, b, c, w):
    """PR_END_OF_ROUND: :func:`end_of_round`; the outcome, -1 while the fight goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    return end_of_round(r, w)
