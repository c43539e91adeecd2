"""Moving on the hex grid: steps toward a goal, Disengage, Reckless Movement, rough
terrain, Escher Doors, And Your Enemies Closer, mines going off.
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import unpack
from .damage import apply_damage
from .hex import (any_in_reach, band_gap, barrier_field, door_value, door_worth, engaged, exit_cell, hexes, lashed,
                  leave_if_dead, move_to, potential, potential_at, refresh_fear, relocate)
from .overcharge import check_bursts, gain_overcharge, support_roll
from .slots import find_usable, pay_slot
from .state import attack_call, beats, is_standing, roll_penalty
from .talents.areas import area_done, area_next
from .talents.team import area_switch


@kernel
def best_step(i, goal, lo, hi, deep, w):
    """The hex ``i`` steps to toward being ``lo..hi`` hexes from cell ``goal``; -1 if none helps.

    The free neighbour with the lowest :func:`potential` (ties: not rough,
    then the lowest direction); when people block every such step and
    ``deep`` (1 always, 2 when she has nobody in range to attack, 0 never),
    the first step of a shortest path round them (:func:`.grid.step_toward`,
    a breadth-first search).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, D_POS]
    if band_gap(hexes(c, goal, w), lo, hi) == 0:
        return -1
    rt = bf[BF_LST][LST_BARRIERS] != 0  # a raised barrier stands: walk round it (barrier_field)
    if rt:
        barrier_field(goal, lo, hi, w)
    now = potential_at(c, goal, lo, hi, rt, w)
    best = -1
    best_key = 2 * now
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            if not G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                pm = potential_at(m, goal, lo, hi, rt, w)
                if terrain[m] & G.DOOR:
                    dv = door_value(m, goal, lo, hi, w)
                    if dv < pm:
                        pm = dv  # an Escher Door that leads nearer (L2135)
                k = 2 * pm
                if terrain[m] & (G.ROUGH | G.PERILOUS):
                    k += 1
                if k < best_key:
                    best_key = k
                    best = m
    if best >= 0:
        if best_key < 2 * now:
            return best
    if deep == 0:
        return -1
    if deep == 2:
        if any_in_reach(i, w):
            return -1
        comb, rules, dyn, streams, bf = unpack(w)
        nbr = F.nbr_of(bf)
        terrain = F.row(bf, BF_TERRAIN)
        occ = F.row(bf, BF_OCC)
    s = G.step_toward_d(F.hexd_of(bf), nbr, terrain, occ, G.BLOCK_MOVE, c, goal, lo, hi,
                        F.row(bf, BF_DIST), F.row(bf, BF_QUEUE))
    if s == c:
        return -1
    return s


@kernel
def reckless(i, step, w):
    """Reckless Movement (L1416) to ``step``: 2d6! + Support; returns True if she moved
    (an enemy's And Your Enemies Closer may hold her first: no roll, :func:`held`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_FOEMASK] >> E_CLOSER) & 1 != 0:
        if held(i, step, w):
            return False
    moved = reckless_roll(i, w)
    if moved:
        move_to(i, step, w)
    leave_if_dead(i, w)  # a monster at 0 Resolve is dead (L1892)
    return moved


@kernel
def reckless_roll(i, w):
    """The challenge of Reckless Movement, shared by the hex grid (L1416) and
    the draft's positions (DRAFT L510, :mod:`.positions`): 2d6! + Support
    (sixes are Support overcharge), ``reckless_bands`` / ``reckless_damage``;
    the damage is dealt here (not an attack) and bursts checked. Returns
    whether she may move (the caller moves her)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, K_RECKLESS] += 1
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[i, C_SUP] - roll_penalty(i, w)
    gain_overcharge(i, comb[i, C_RS], sixes, w)
    moved = True
    dmg = 0
    if total <= rules[R_RECKLESS_BANDS]:
        moved = False
        dmg = rules[R_RECKLESS_DAMAGE]
    elif total <= rules[R_RECKLESS_BANDS + 1]:
        dmg = rules[R_RECKLESS_DAMAGE + 1]
    if dmg > 0:
        d = apply_damage(i, dmg, w)
        dyn[i, K_RECKLESS_DMG] += d
        dyn[i, K_TAKEN] += d
    check_bursts(i, w)
    return moved


@kernel
def minor_move(i, goal, lo, hi, unlocked, deep, w):
    """One hex toward the goal with the Minor action; returns True if the Minor was spent.

    A plain move when she may (not engaged unless she disengaged, not Bound,
    rough terrain paid); else Reckless Movement if her policy takes it; else,
    under ``rough_cost: split``, a payment toward leaving her rough hex.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    bound = dyn[i, D_AIL + A_BOUND] != 0
    if not bound:
        if door_worth(i, goal, lo, hi, w):
            if unlocked:
                use_door(i, goal, lo, hi, w)
                return True
            if not engaged(i, w):
                use_door(i, goal, lo, hi, w)
                return True
    step = best_step(i, goal, lo, hi, deep, w)
    if step < 0:
        return False
    comb, rules, dyn, streams, bf = unpack(w)
    here = F.row(bf, BF_TERRAIN)[dyn[i, D_POS]]
    rough = here & G.ROUGH != 0
    if not rough:
        if (comb[i, C_ALLMASK] >> E_LASHING) & 1 != 0:
            rough = lashed(i, dyn[i, D_POS], w)
    peril = here & G.PERILOUS != 0
    eng = False
    if not unlocked:
        eng = engaged(i, w)
    rash = comb[i, P_RECKLESS] != 0
    if peril:
        rash = True  # Perilous Terrain: leaving takes a Minor action and Reckless Movement (L2146)
        rough = True
    if bound:  # movement requires a Major action (L1463)
        if rules[R_BOUND_RECKLESS] == 1:
            if rash:
                if rough:
                    reckless(i, step, w)
                    return True
                if engaged(i, w):
                    reckless(i, step, w)
                    return True
        return False
    if peril:
        reckless(i, step, w)
        return True
    short = False
    if rough:
        short = dyn[i, D_PAID] + 1 < 2
    if eng:
        if rash:
            reckless(i, step, w)
            return True
        return False
    if short:
        if rash:
            reckless(i, step, w)
            return True
        if rules[R_ROUGH_COST] == 1:
            dyn[i, D_PAID] += 1
            return True
        return False
    walk_to(i, step, w)
    return True


@kernel
def major_move(i, goal, lo, hi, minor, w):
    """Move toward the goal with the Major action (nobody in range).

    Engaged: Disengage (moves 1 hex, or only unlocks, A14). Rough terrain:
    the Major and, if still unused, the Minor pay the two hexes (A15).
    Bound: a plain move, or Reckless Movement out of rough terrain or an
    enemy-adjacent hex. Returns ``(minor_spent, disengaged)``: disengaged
    means she may now leave her (engaged) hex with the Minor.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    bound = dyn[i, D_AIL + A_BOUND] != 0
    eng = engaged(i, w)
    if not bound:
        if not eng:
            if door_worth(i, goal, lo, hi, w):
                use_door(i, goal, lo, hi, w)  # the Major does what a Minor does
                return False, False
    step = best_step(i, goal, lo, hi, 1, w)
    if step < 0:
        return False, False
    comb, rules, dyn, streams, bf = unpack(w)
    here = F.row(bf, BF_TERRAIN)[dyn[i, D_POS]]
    rough = here & G.ROUGH != 0
    if not rough:
        if (comb[i, C_ALLMASK] >> E_LASHING) & 1 != 0:
            rough = lashed(i, dyn[i, D_POS], w)
    peril = here & G.PERILOUS != 0
    if bound:
        stuck = rough
        if eng:
            stuck = True  # an enemy-adjacent hex is rough terrain for her (L1463)
        if peril:
            stuck = True
        if stuck:
            if rules[R_BOUND_RECKLESS] == 0:
                if comb[i, P_RECKLESS] != 0:
                    reckless(i, step, w)
                elif peril:
                    reckless(i, step, w)
            return False, False
    if peril:
        # Perilous Terrain (L2146): the Major acts as the Minor action, with Reckless Movement
        reckless(i, step, w)
        return False, False
        move_to(i, step, w)
        return False, False
    pts = 1
    if eng:
        if rules[R_DISENGAGE] == 1:
            pts = 0
    need = 2 if rough else 1
    paid = dyn[i, D_PAID] + pts
    if paid >= need:
        walk_to(i, step, w)
        return False, False
    if minor:
        if paid + 1 >= need:
            walk_to(i, step, w)
            return True, False
    dyn[i, D_PAID] = paid
    return False, eng


@kernel
def place_mine(i, s, w):
    """Mines (L2059-2066) on the grid: a mine in her hex, when she has a free mine (at most
    ``MAXMINES`` live) and none of hers lies within 1 hex of it."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    free = -1
    for k in range(MAXMINES):
        m = dyn[i, D_MINE + k]
        if m < 0:
            if free < 0:
                free = k
        elif hexes(m, c, w) <= 1:
            return False
    if free < 0:
        return False
    pay_slot(i, s, w)
    dyn[i, D_MINE + free] = c
    return True


@kernel(forceinline=True)
def stepped(i, w):
    """After a movement action of ``i``: the mines look at every move since
    they last did (:func:`mines_pending`), hers first in time."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_ALLMASK] >> E_MINES) & 1 != 0:
        mines_pending(w)


@kernel(forceinline=True)
def mines_pending(w):
    """:func:`mines_check` when some combatant has Mines (``C_ALLMASK``) and someone
    may have changed hexes since the last look (``LST_SEEN`` 0: cleared with every
    ``D_MINE_FROM`` :func:`.hex.moved_from` sets and when a fight is placed; set by the look, which
    clears every ``D_MINE_FROM``; a look with nothing to see changes nothing); inlined at its
    call sites so a check with nothing to do pays a few loads, not a call."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, C_ALLMASK] >> E_MINES) & 1 != 0:
        if bf[BF_LST][LST_SEEN] == 0:
            mines_check(w)


@kernel
def mines_check(w):
    """Every combatant who changed hexes since the mines last looked
    (``D_MINE_FROM``: walking, Reckless Movement, Dash Strike's step, Teleport,
    doors, pulls and pushes, the Current, a Defensive Switch) and still stands
    on the field: a mine sets off when she stepped out of its range (rule
    ``mine_step_out``) or entered a hex within 1 of it (:func:`mine_sweep`,
    L2062-2065: "if someone other than the monster enters a hex adjacent to
    the object"). Called after each movement action, at the end of every
    turn and after the end-of-round labyrinth features; a forced move's mine
    goes off there, not in the middle of the attack that moved her."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, C_ALLMASK] >> E_MINES) & 1 == 0:
        return
    bf[BF_LST][LST_SEEN] = 1  # this look sees every move so far; one a mine's attack makes clears it
    for i in range(comb.shape[0]):
        f = dyn[i, D_MINE_FROM]
        if f == 0:
            continue
        dyn[i, D_MINE_FROM] = 0
        p0 = f - 1
        here = dyn[i, D_POS]
        if here < 0 or here == p0:
            continue
        if dyn[i, D_DEAD] != 0:
            continue
        if rules[R_MINE_STEP_OUT] != 0:
            mine_sweep(i, p0, w)
        mine_sweep(i, -1, w)


@kernel
def mine_sweep(i, p0, w):
    """The mines ``i``'s move sets off (:func:`detonate`), those of owners other than her (rule
    ``mine_trigger``: anyone, or only the owner's enemies). ``p0`` < 0: she entered her hex,
    every such mine within 1 hex of it goes off (L2062). ``p0`` >= 0: she stepped out from cell
    ``p0``: every such mine within 1 hex of ``p0`` and farther than 1 from her now goes off
    (L2065: 'the next time somebody enters into or steps out of the range'; 'you can step away
    and it will detonate without harming you': its attack reaches those still next to it)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for o in range(comb.shape[0]):
        if o == i:
            continue
        if (comb[o, C_TMASK] >> E_MINES) & 1 == 0:
            continue
        if rules[R_MINE_TRIGGER] == 1:
            if comb[o, C_SIDE] == comb[i, C_SIDE]:
                continue
        for k in range(MAXMINES):
            m = dyn[o, D_MINE + k]
            if m < 0:
                continue
            here = dyn[i, D_POS]
            if here < 0:
                return  # a mine's attack killed her: she left the field
            d = hexes(m, here, w)
            if p0 < 0:
                if d <= 1:
                    detonate(o, k, i, w)
            elif d > 1:
                if hexes(m, p0, w) <= 1:
                    detonate(o, k, i, w)


@kernel
def detonate(o, k, i, w):
    """Mine ``k`` of ``o`` detonates (L2062-2064): ``o``'s basic melee attack against everyone
    in its hex or adjacent to it (its owner excepted; it attacks even after its owner died),
    + ``mine_bonus`` damage against ``i`` when she entered the mine's own hex; the mine is gone.
    An area attack: the targets are those within 1 of it when it goes off (``D_AREA_HIT``), and
    an ally outside it may take a target's place by Defensive Switch (L1699-1703)."""
    comb, rules, dyn, streams, bf = unpack(w)
    m = dyn[o, D_MINE + k]
    dyn[o, D_MINE + k] = -1
    dyn[o, K_MINES] += 1
    n = comb.shape[0]
    for j in range(n):
        if j != o:
            if dyn[j, D_DEAD] == 0:
                if dyn[j, D_POS] >= 0:
                    if hexes(m, dyn[j, D_POS], w) <= 1:
                        dyn[j, D_AREA_HIT] = 1
    for j in range(n):
        if not area_next(j, w):
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        p = dyn[j, D_POS]
        if p < 0:
            continue
        d = hexes(m, p, w)
        if d > 1:
            continue
        t = area_switch(o, j, w)  # a switcher takes this attack, no other of it
        adj = comb[o, C_MELEE_DMG] - comb[o, C_DMG]
        if d == 0:
            if t == i:
                adj += rules[R_MINE_BONUS]
        dyn[o, D_DMG_ADJ] = adj
        dyn[o, D_VEIL_D] = 1
        dyn[t, D_GUARD] = -1
        attack_call(o, t, w)
        dyn[o, D_DMG_ADJ] = 0
        dyn[o, K_MINE_ATTACKS] += 1
        leave_if_dead(t, w)
    area_done(w)
    refresh_fear(w)


@kernel
def use_door(i, goal, lo, hi, w):
    """Escher Doors (L2135-2137): she enters the door she stands on (the
    Minor action, or a Major acting as one): 1d6, on 1-5 (below
    ``L_DOOR_CHOOSE``) she comes out of the paired door, on a 6 out of the
    door of her choice (the one nearest her goal; ties: the lowest cell).
    Coming out: the door hex, or the first free hex next to it; if none
    she stays. An enemy's And Your Enemies Closer may hold her when the way
    out leaves it behind (:func:`held`, after the d6; the action is used)."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    dyn[i, K_DOORS] += 1
    roll = randbelow(streams[S_CHECK], 6) + 1
    dest = F.cellfx_of(bf)[c, G.FX_DOOR]
    if roll >= bf[BF_LAB][G.L_DOOR_CHOOSE]:
        best = F.UNREACHABLE + 1
        terrain = F.row(bf, BF_TERRAIN)
        for m in range(terrain.shape[0]):
            if m == c:
                continue
            if terrain[m] & G.DOOR != 0:
                v = potential(m, goal, lo, hi, w)
                if v < best:
                    best = v
                    dest = m
    e = exit_cell(dest, w)
    if e >= 0:
        if held(i, e, w):
            return
        relocate(i, e, w)
        refresh_fear(w)


@kernel
def held(i, step, w):
    """And Your Enemies Closer (L1522-1526, free, 1 Defence overcharge): ``i``
    tries to move to ``step``; each standing enemy adjacent to her that
    ``step`` leaves behind (not adjacent to it) and holds the talent (its
    policy always uses it when it can pay) rolls Support vs Support against
    her (L1453 tie rules, the full tie to the mover unless ``full_tie:
    attacker``); a win stops the move and "the action used for an attempt to
    move is still used up". Returns True if she is held."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_FOEMASK] >> E_CLOSER) & 1 == 0:
        return False
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, D_POS]
    side = comb[i, C_SIDE]
    for d in range(6):
        m = nbr[c, d]
        if m < 0:
            continue
        k = occ[m]
        if k < 0:
            continue
        if comb[k, C_SIDE] == side:
            continue
        if not is_standing(k, w):
            continue
        if hexes(step, m, w) <= 1:
            continue
        s = find_usable(k, E_CLOSER, w)
        if s < 0:
            continue
        if hold_challenge(k, s, i, w):
            return True
    return False


@kernel
def hold_challenge(k, s, i, w):
    """``k`` pays its And Your Enemies Closer / Guardian in slot ``s`` and makes the
    Support vs Support challenge against the mover ``i`` (``k`` rolls first; L1453 tie
    rules, the full tie to the mover unless ``full_tie: attacker``). True if ``k`` won
    (the move is stopped, ``K_HELD``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_slot(k, s, w)
    k_total, k_six = support_roll(k, w)
    i_total, i_six = support_roll(i, w)
    won = beats(k_total, k_six, comb[k, C_SUP], i_total, i_six, comb[i, C_SUP], rules[R_FULL_TIE] == 1)
    check_bursts(k, w)
    check_bursts(i, w)
    if won:
        dyn[k, K_HELD] += 1
    return won


@kernel(forceinline=True)
def walk_to(i, step, w):
    """An ordinary move of ``i`` to the adjacent ``step`` unless an enemy's
    And Your Enemies Closer holds her (:func:`held`); True if she moved."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_FOEMASK] >> E_CLOSER) & 1 != 0:
        if held(i, step, w):
            return False
    move_to(i, step, w)
    return True


@kernel
def p_mine(i, s, c, w):
    """PR_MINE: :func:`place_mine`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if place_mine(i, s, w) else 0
