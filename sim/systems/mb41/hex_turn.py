"""The hex grid's steps of the one turn (:func:`.turn.take_turn`; see :mod:`.hex` for the
rules of movement): the turn's slots (``p_*``: the start, the step before the Major, the
target in reach, the attack with its form, Intercept and Cover, the Major's move, the end)
and the frenzy's step.
"""
from __future__ import annotations

from sim._jit import kernel, part

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import unpack
from .hex import (away, engaged, goal_of, guard_for, hexes, leave_if_dead, move_to, pick_w, reach, reach_from,
                  refresh_fear_w, sweep)
from .hex_areas import barrier_turn, blast_target
from .hex_movement import (guard_sprint_for, move_attack_turn, safe_place_turn, shove, slither_after, sprint_on_turn,
                           sprint_turn_end, talent_move)
from .hex_moves import best_step, major_move, mines_pending, minor_move, stepped
from .slots import spend_fury
from .state import _candidate, attack_call
from .turn import minor_free, settle_action, still_target


@part
def attack_setup(i, t, w):
    """Before ``i``'s basic attack on ``t`` on the grid: the Fear Auras, the
    damage of the form the distance allows (her ``attack_kind`` when both
    do, ``D_DMG_ADJ``), an interceptor standing by (L1453, L1469;
    ``D_GUARD``), Veil's distance. Returns the interceptor (-1 none).
    Minion Explosion (``D_BLAST``, L1987): the attack originates from the
    chosen minion's hex: form, line of interception and Veil's distance from there.
    The caller refreshes the Fear Auras just before (:func:`refresh_fear_w`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    a = dyn[i, D_POS]
    if dyn[i, D_BLAST] != 0:
        a = dyn[dyn[i, D_BLAST] - 1, D_POS]
        form = reach_from(a, t, dyn[i, D_RANGED_HI], w)
    else:
        form = reach(i, t, w)
    if form == 0:
        if comb[i, C_FORM] == 1:
            d = hexes(a, dyn[t, D_POS], w)
            if d >= rules[R_RANGED_RANGE]:
                if d <= dyn[i, D_RANGED_HI]:
                    form = 1
    if form == 0:
        dyn[i, D_DMG_ADJ] = comb[i, C_MELEE_DMG] - comb[i, C_DMG]
    else:
        dyn[i, D_DMG_ADJ] = comb[i, C_RANGED_DMG] - comb[i, C_DMG]
    g = -1
    if comb[t, C_COVER] > 0:
        g = guard_for(i, a, t, form == 1, w)
    dyn[t, D_GUARD] = g
    if (comb[t, C_TMASK] >> E_VEIL) & 1 != 0:
        dyn[i, D_VEIL_D] = hexes(a, dyn[t, D_POS], w)  # Veil: within 1-2 or not
    return g


@part
def attack_cleanup(i, t, g, w):
    """After the attack: back to the gridless state; the dead leave the
    battlefield; Slither Away; the Fear Auras again. Inlined (two sites):
    a call would cost more than its few stores."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, D_GUARD] = -1
    dyn[i, D_DMG_ADJ] = 0
    leave_if_dead(t, w)  # the dead leave the battlefield
    if g >= 0:
        leave_if_dead(g, w)
    slither_after(t, i, w)
    refresh_fear_w(w)


@part
def grid_attack_call(i, t, w):
    """``i``'s basic attack on ``t`` with the form the distance allows (her ``attack_kind``
    when both do), an interceptor standing by (L1453, L1469): the Fear Auras, the setup
    (:func:`attack_setup`), the called attack (:func:`.state.attack_call`), the cleanup; first
    an ally of ``t`` may Sprint off her turn to intercept it (:func:`.hex_movement.guard_sprint`).
    The one attack site where she stands on the grid (``PR_ATTACK_AT``: the turn's, a
    retaliation's), inlined there."""
    comb, rules, dyn, streams, bf = unpack(w)
    guard_sprint_for(i, t, w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    g = attack_setup(i, t, w)
    dealt = attack_call(i, t, w)
    attack_cleanup(i, t, g, w)
    return dealt


@kernel
def frenzy_step(i, t, goal, lo, hi, w):
    """The frenzy's extra point of movement (L758: "Spend 1 Fury Overcharge on
    an extra point movement towards the target"): when one plain hex toward
    ``t`` (not engaged, not Bound, not out of rough or perilous terrain)
    brings it within her reach, she spends 1 Fury on it, and that pays for
    the attack that follows (``D_FURY_PAID``: no further Fury for it; "at
    least one of the following"). Returns whether she stepped."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_OC + FURY] < 1:
        return False
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False
    if engaged(i, w):
        return False
    if F.row(bf, BF_TERRAIN)[dyn[i, D_POS]] & (G.ROUGH | G.PERILOUS) != 0:
        return False
    step = best_step(i, goal, lo, hi, 0, w)
    if step < 0:
        return False
    if reach_from(step, t, dyn[i, D_RANGED_HI], w) < 0:
        return False
    move_to(i, step, w)
    spend_fury(i, 1, w)
    dyn[i, D_FURY_PAID] = 1
    stepped(i, w)
    return True


@kernel
def frenzy_goal(i, t, w):
    """A frenzy's goal: ``t``'s hex and her attack's range of it by her ``attack_kind`` (melee
    ``melee_range``, ranged ``ranged_range`` to ``D_RANGED_HI``). Returns ``(goal, lo, hi)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    goal = dyn[t, D_POS]
    lo = rules[R_MELEE_RANGE]
    hi = rules[R_MELEE_RANGE + 1]
    if comb[i, C_FORM] == 1:
        lo = rules[R_RANGED_RANGE]
        hi = dyn[i, D_RANGED_HI]
    return goal, lo, hi


@kernel(forceinline=True)
def tmask_w(i, w):
    """``C_TMASK`` of ``i`` (her talents' effect codes below 64), loaded from the world."""
    comb, rules, dyn, streams, bf = unpack(w)
    return comb[i, C_TMASK]


@kernel(forceinline=True)
def away_w(i, goal, lo, hi, w):
    """:func:`away` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return away(i, goal, lo, hi, w)


@kernel
def p_turn_open(i, frenzy, c, w):
    """PR_TURN_OPEN on the grid: the dead leave the battlefield, the Fear Auras, rough terrain
    paid within the turn ends (``rough_cost: same_turn``, A15a)."""
    comb, rules, dyn, streams, bf = unpack(w)
    sweep(w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_ROUGH_COST] == 0:
        dyn[i, D_PAID] = 0
    return 0


@kernel
def p_before_major(i, b, c, w):
    """PR_BEFORE_MAJOR on the grid: her policy's target ``t0`` (-1: nobody left to fight), then
    with her Minor still free a step toward her range of it (a movement talent when a step
    would not do, :func:`.hex_movement.talent_move`; else :func:`.hex_moves.minor_move`),
    then Sprint (free); what each set off is settled; the Fear Auras again. Returns ``t0``,
    -2 when she fell."""
    t0 = pick_w(i, False, w)
    if t0 < 0:
        return -1
    goal, lo, hi = goal_of(i, t0, w)
    mask = tmask_w(i, w)
    if minor_free(i, w):
        if away_w(i, goal, lo, hi, w):
            if mask != 0:
                if talent_move(i, goal, lo, hi, w):
                    minor_spent(i, w)
                    stepped(i, w)
                    if not settle_action(i, w):
                        return -2
        if minor_free(i, w):
            if away_w(i, goal, lo, hi, w):
                if minor_move(i, goal, lo, hi, False, 2, w):
                    minor_spent(i, w)
                    stepped(i, w)
                    if not settle_action(i, w):
                        return -2
    if mask != 0:
        if sprint_on_turn(i, goal, lo, hi, w):
            if not settle_action(i, w):
                return -2
    refresh_fear_w(w)  # the Fear Auras after her moves, before her Major's talents
    return t0


@kernel(forceinline=True)
def minor_spent(i, w):
    """Her Minor is spent (``D_MINOR_USED``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_MINOR_USED] = 1


@kernel
def p_frenzy_minor(i, t, c, w):
    """PR_FRENZY_MINOR on the grid: a frenzy's Minor step toward her attack's range of ``t``
    (:func:`frenzy_goal`); 1 when she stepped."""
    goal, lo, hi = frenzy_goal(i, t, w)
    if away_w(i, goal, lo, hi, w):
        if minor_move(i, goal, lo, hi, False, 2, w):
            stepped(i, w)
            return 1
    return 0


@kernel
def p_frenzy_step(i, t, c, w):
    """PR_FRENZY_STEP on the grid: :func:`frenzy_step` toward ``t``."""
    goal, lo, hi = frenzy_goal(i, t, w)
    frenzy_step(i, t, goal, lo, hi, w)
    return 0


@kernel
def p_safe_place(i, b, c, w):
    """PR_SAFE_PLACE on the grid: Safe Place (:func:`.hex_movement.safe_place_turn`); 1 used."""
    return 1 if safe_place_turn(i, w) else 0


@kernel
def p_target(i, t0, c, w):
    """PR_TARGET on the grid: her own attack's target: none while a bodyguard is not yet next
    to her ally (``protect-ally``); her target ``t0`` in reach, else the one her policy
    prefers in reach; Minion Explosion's choice; Dash Strike or Pounce when nobody is in
    reach. -1 none, -2 held by And Your Enemies Closer (the Major is spent)."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    t = -1
    if comb[i, P_MOVE] == MOVE_PROTECT:
        goal, lo, hi = goal_of(i, t0, w)
        if away(i, goal, lo, hi, w):  # a bodyguard gets next to her ally first
            if best_step(i, goal, lo, hi, 1, w) >= 0:
                return t
    comb, rules, dyn, streams, bf = unpack(w)
    if t0 >= 0:
        if _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
            if reach(i, t0, w) >= 0:
                t = t0
    if t < 0:
        t = pick_w(i, True, w)
    t = blast_target(i, t, t0, w)
    if t < 0:
        if mask != 0:
            t = move_attack_turn(i, t0, w)
    return t


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT on the grid: :func:`grid_attack_call` (an ally may Sprint off her turn to
    intercept first); a minion Minion Explosion destroyed leaves its hex. The damage
    dealt, -1 none."""
    dealt = grid_attack_call(i, t, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_BLAST] != 0:  # Minion Explosion: the destroyed minion leaves its hex
        leave_if_dead(dyn[i, D_BLAST] - 1, w)
        dyn[i, D_BLAST] = 0
    return dealt


@kernel
def p_shove(i, t, sign, w):
    """PR_SHOVE on the grid: :func:`.hex_movement.shove`."""
    shove(i, t, sign, w)
    return 0


@kernel
def p_major_move(i, t0, c, w):
    """PR_MAJOR_MOVE on the grid, nobody in reach: her Major goes on an enemy's barrier that
    keeps her from everyone (Create Barrier, :func:`.hex_areas.barrier_turn`), else moves
    her toward her range of ``t0`` (:func:`.hex_moves.major_move`: Disengage when engaged;
    a frenzy's toward her attack's range, :func:`frenzy_goal`). ``c``: 1 her Minor is
    free, + 2 a frenzy's. Returns 1 her Minor was spent too, + 2 she disengaged."""
    minor = (c & 1) != 0
    if (c & 2) != 0:
        goal, lo, hi = frenzy_goal(i, t0, w)
        if away_w(i, goal, lo, hi, w):
            major_move(i, goal, lo, hi, minor, w)
            stepped(i, w)
        return 0
    goal, lo, hi = goal_of(i, t0, w)
    if barrier_turn(i, i, goal, lo, hi, w):
        return 0
    if not away_w(i, goal, lo, hi, w):
        return 0
    used, dis = major_move(i, goal, lo, hi, minor, w)
    stepped(i, w)
    return (1 if used else 0) + (2 if dis else 0)


@kernel
def p_turn_end(i, t0, flags, w):
    """PR_TURN_END on the grid: when her turn ran to its end (``flags`` 4) and was not a
    frenzy's (2), her Minor still free moves her one more hex toward her goal (a movement
    talent first; unlocked when she disengaged, 1), and Sprint again; then the frenzy's
    extra movement is spent (``D_FURY_PAID``), the mines look at this turn's forced moves,
    the Fear Auras again."""
    if flags & 6 == 4:
        grid_turn_end(i, t0, flags & 1 != 0, w)
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_FURY_PAID] = 0  # the frenzy's extra movement paid for one attack (0 outside a frenzy)
    mines_pending(w)  # forced moves of this turn (pulls, pushes, switches)
    refresh_fear_w(w)
    return 0


@part
def grid_turn_end(i, t0, disengaged, w):
    """After her Majors: a Minor still free moves her one more hex toward her goal (a
    movement talent first); Sprint again if she stands."""
    mask = tmask_w(i, w)
    if minor_free(i, w):
        if t0 >= 0:
            if not still_target(i, t0, w):
                t0 = pick_w(i, False, w)
        goal, lo, hi = goal_of(i, t0, w)
        if away_w(i, goal, lo, hi, w):
            used = False
            if mask != 0:
                used = talent_move(i, goal, lo, hi, w)
            if not used:
                minor_move(i, goal, lo, hi, disengaged, 2, w)
            stepped(i, w)
    if mask != 0:
        sprint_turn_end(i, t0, w)
