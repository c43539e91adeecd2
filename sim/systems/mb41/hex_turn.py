"""A combatant's turn on the hex grid (see :mod:`.hex` for the rules of movement): the
grid's attack with its form, Intercept and Cover; a frenzy's turn is the same turn with
the frenzy's choices.
"""
from __future__ import annotations

from sim._jit import kernel, part

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .gates import T_AILMENTS
from .points import first
from .world import unpack
from .ailments import removal_roll
from .bursts import settle, settle_now
from .hex import (away, engaged, goal_of, guard_for, hexes, leave_if_dead, move_to, pick_w, reach, reach_from,
                  refresh_fear, refresh_fear_w, sweep)
from .hex_areas import barrier_turn, blast_target
from .hex_movement import (guard_sprint_for, move_attack_turn, safe_place_turn, shove, slither_after, sprint_on_turn,
                           sprint_turn_end, talent_move)
from .hex_moves import best_step, major_move, mines_pending, minor_move, stepped
from .overcharge import check_bursts
from .slots import spend_fury
from .state import _candidate, attack_call, has_ailment, is_standing
from .talents.defence import reflector_after
from .talents.movement import shove_paid
from .talents.team import bonus_major, guided_strike, switched
from .targets import frenzy_target
from .turn import frenzy_removal, major_talent, minor_talent


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


@kernel
def grid_attack(i, t, w):
    """``i``'s basic attack on ``t`` with the form the distance allows (her
    ``attack_kind`` when both do), an interceptor standing by (L1453, L1469).
    The attack is the called :func:`.state.attack_call`, not inlined into the
    grid turn: inlined, the turn's cold compile outgrew the machine's 24 GB."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    g = attack_setup(i, t, w)
    dealt = attack_call(i, t, w)
    attack_cleanup(i, t, g, w)
    return dealt


@kernel
def grid_attack_call(i, t, w):
    """:func:`grid_attack` through :func:`.state.attack_call`, for the rare
    attack site outside the turn (PR_ATTACK_AT: a retaliation) so the turn's inlined
    attack stays the only copy. Like the turn's attack, an ally of ``t`` may
    Sprint off her turn to intercept it first (:func:`.hex_movement.guard_sprint`)."""
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


@part
def take_turn_grid(i, w):
    """One turn of ``i`` on the battlefield (see the module doc for the order).

    Talents play as in the gridless turn (:func:`.turn.take_turn`): Remedy
    instead of the removal roll, a Minor talent (:func:`.turn.minor_talent`),
    a Major talent instead of the attack (:func:`.turn.major_talent`),
    Guided Strike when the ally has someone in reach, Reflector after a hit,
    Bonus Action. Talents reach their catalog range (``C_TREACH``, rule
    ``talent_ranges``): heals, Remedy, Curse, Steal Action, Wave of Courage,
    Screams, Reflector's recipient, Fear Aura (:func:`refresh_fear`).

    A Fury frenzy's turn (``D_FRENZY``, :func:`.turn.play_frenzied`; L746: "must attack a
    living target or move towards one") is this turn with the frenzy's choices
    (:func:`frenzied`): her target is :func:`.targets.frenzy_target` (the closest standing
    combatant, allies included), her goal her attack's range of it (melee 1, ranged 2-3 by
    her ``attack_kind``, :func:`frenzy_goal`); no ailment step or Minor talent at the
    start: out of her reach, a Minor step toward it, else (or when she could not step,
    e.g. Bound) a removal roll when she has an ailment (:func:`.turn.frenzy_removal`,
    L1467); still out of reach, the frenzy's extra point of movement (:func:`frenzy_step`);
    then one Major: the attack when it is in reach (Defensive Switch, Intercept, the Fury
    spent per attack, :func:`.overcharge.fury_spend`), else a move toward it (Disengage
    when engaged). Stunned: the Major only (L1461). No talents of her own; her attack's
    riders as rule ``fury_talents`` allows (:func:`.slots.frenzy_can_pay`, A9ii); what she
    sets off is settled after her turn (:func:`.fight.frenzy_turns`). ``fury_target:
    enemies``: her usual turn.
    """
    _turn_grid(i, w)
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_FURY_PAID] = 0  # the frenzy's extra movement paid for one attack (0 outside a frenzy)
    mines_pending(w)  # forced moves of this turn (pulls, pushes, switches)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_TMASK] != 0:
        dyn[i, D_TURNS_DONE] += 1


@kernel(forceinline=True)
def frenzied(i, w):
    """``i``'s turn is a frenzy's (``D_FRENZY``, but ``fury_target: enemies``: her usual turn)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_FRENZY] == 0:
        return False
    return rules[R_FURY_TARGET] != 2


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


@part
def settle_action(i, w):
    """After an action of ``i``'s grid turn (``bursts: play`` with ``burst_timing:
    after_action``, A7b: "after the current action resolves"): what the action left due
    plays now (:func:`.bursts.settle`: a frenzied girl's retaliation, L758, then the due
    bursts), as between the actions of a gridless turn. Under ``after_turn`` the fight
    loop settles once the turn is over. Returns whether ``i`` still stands."""
    comb, rules, dyn, streams, bf = unpack(w)
    if settle_now(w):
        settle(w)
    return is_standing(i, w)


@kernel
def _turn_grid(i, w):
    """The grid turn's steps (:func:`take_turn_grid`): the start and ailments, a Minor
    talent, a Minor step toward her range, the Majors (talents, the attack, a move),
    a Minor still unused.

    The turn and its parts load the arrays from ``w`` where they use them (:func:`unpack`
    again after a call) instead of once at the top: a descriptor loaded at the top and used
    after a call stays alive across every call of the turn (a stack slot each, stored at
    every turn's start). A frenzy's turn: the same steps with the frenzy's choices (see
    :func:`take_turn_grid`)."""
    frenzy = frenzied(i, w)
    t0 = -1
    if frenzy:
        t0 = frenzy_target(i, w)  # chosen as her turn begins
    major, minor, ok = grid_turn_start(i, frenzy, w)
    if not ok:
        return
    if frenzy:
        if t0 < 0:
            return  # nobody to attack or move toward
        goal, lo, hi = frenzy_goal(i, t0, w)
        minor = frenzy_step_before(i, t0, minor, goal, lo, hi, w)
    else:
        t0 = pick_w(i, False, w)
        if t0 < 0:
            return  # nobody left to fight
        goal, lo, hi = goal_of(i, t0, w)
        minor, ok = grid_step_before(i, minor, goal, lo, hi, w)
        if not ok:
            return
    # the Major: attack what is in range, else move; Bonus Action: another Major
    disengaged = False
    for m in range(2):
        if not major:
            break
        major = False
        if m > 0:  # the first Major's bursts, then the Bonus Action's; her target may be down
            if not settle_action(i, w):
                return
            if not still_target(i, t0, w):
                t0 = pick_w(i, False, w)
                if t0 < 0:
                    return
                goal, lo, hi = goal_of(i, t0, w)
        code = 0
        who = i
        t = -1
        if not frenzy:
            code, who, t, again = grid_major_talents(i, m, w)
        if code == 2:
            return  # she fell
        if code == 1:
            major = again
            continue  # a talent was her Major
        if who == i:
            t = grid_target(i, t0, goal, lo, hi, frenzy, w)
            if t == -2:
                continue  # held by And Your Enemies Closer (a frenzy: she or her target is down): no Major
        if t >= 0:
            ok, again = grid_strike(i, m, who, t, frenzy, w)
            if not ok:
                return
            major = again
        elif frenzy:
            if away_w(i, goal, lo, hi, w):
                major_move(i, goal, lo, hi, minor, w)
                stepped(i, w)
        elif barrier_turn(i, who, goal, lo, hi, w):
            pass  # the Major hit an enemy's barrier that keeps her from everyone (Create Barrier)
        elif away_w(i, goal, lo, hi, w):
            used, dis = major_move(i, goal, lo, hi, minor, w)
            stepped(i, w)
            if used:
                minor = False
            if dis:
                disengaged = True
            if not standing_w(i, w):
                return
    if frenzy:
        return  # what she set off is settled after her turn (:func:`.fight.frenzy_turns`)
    if not settle_action(i, w):
        return
    grid_turn_end(i, minor, t0, disengaged, w)


@kernel(forceinline=True)
def tmask_w(i, w):
    """``C_TMASK`` of ``i`` (her talents' effect codes below 64), loaded from the world."""
    comb, rules, dyn, streams, bf = unpack(w)
    return comb[i, C_TMASK]


@kernel(forceinline=True)
def standing_w(i, w):
    """:func:`.state.is_standing` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return is_standing(i, w)


@kernel(forceinline=True)
def away_w(i, goal, lo, hi, w):
    """:func:`away` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return away(i, goal, lo, hi, w)


@kernel(forceinline=True)
def still_target(i, t, w):
    """``t`` is still a target ``i`` may attack (:func:`.state._candidate`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _candidate(t, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w)


@part
def grid_turn_start(i, frenzy, w):
    """The start of ``i``'s grid turn: Second Wind's bonus ends (L1716), the dead leave,
    the Fear Auras, rough terrain paid within the turn (A15a); her ailments (Remedy or
    a removal roll: her Minor, or her only action when Stunned, L1461, L1467,
    :func:`grid_ailments`); a Minor talent (a successful Steal Action gives another Minor,
    L1725). A frenzy's turn: neither (her Minor comes later, :func:`frenzy_step_before`).
    Returns ``(Major free, Minor free, still standing)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_DEF_BONUS] = 0
    sweep(w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_ROUGH_COST] == 0:
        dyn[i, D_PAID] = 0
    major = True
    minor = True
    if dyn[i, D_AIL + A_STUN] != 0:
        minor = False  # "can take only one action per turn" (L1461)
    if frenzy:
        return major, minor, True
    if has_ailment(i, w):
        major, minor, ok = grid_ailments(i, major, minor, w)
        if not ok:
            return major, minor, False
    if minor:
        if tmask_w(i, w) != 0:
            if minor_talent(i, w) == 1:  # inlined: its gate is tested here, the hooks called if open
                minor = False
            if not settle_action(i, w):
                return major, minor, False
    return major, minor, True


@kernel
def grid_ailments(i, major, minor, w):
    """Her ailments at the start of her grid turn: Remedy on herself, else a removal roll
    (L1467), with her Minor, or her only action when Stunned (L1461: "she regains the second
    action" when the Stun is gone); bursts checked, what is due settled. Returns ``(Major
    free, Minor free, still standing)``. Called, not inlined: most turns have no ailment."""
    comb, rules, dyn, streams, bf = unpack(w)
    stunned = dyn[i, D_AIL + A_STUN] != 0
    if first(T_AILMENTS, i, i, 0, w) == 0:  # Remedy, else the removal roll
        removal_roll(i, w)
    if minor:
        minor = False
    else:
        major = False
    if stunned:
        if dyn[i, D_AIL + A_STUN] == 0:
            major = True  # "she regains the second action"
    check_bursts(i, w)
    if not settle_action(i, w):
        return major, minor, False
    return major, minor, True


@part
def grid_step_before(i, minor, goal, lo, hi, w):
    """Before her Major: a Minor step toward her range (a movement talent when a step
    would not do), then Sprint. Returns ``(Minor free, still standing)``."""
    mask = tmask_w(i, w)
    if minor:
        if away_w(i, goal, lo, hi, w):
            if mask != 0:
                if talent_move(i, goal, lo, hi, w):
                    minor = False
                    stepped(i, w)
                    if not settle_action(i, w):
                        return minor, False
        if minor:
            if away_w(i, goal, lo, hi, w):
                if minor_move(i, goal, lo, hi, False, 2, w):
                    minor = False
                    stepped(i, w)
                    if not settle_action(i, w):
                        return minor, False
    if mask != 0:
        if sprint_on_turn(i, goal, lo, hi, w):
            if not settle_action(i, w):
                return minor, False
    return minor, True


@part
def frenzy_step_before(i, t, minor, goal, lo, hi, w):
    """A frenzy's Minor before her Major (see :func:`take_turn_grid`): a step toward her
    range of ``t`` when it is out of her reach, else (or when she could not step) the removal
    roll when she has an ailment; then, still out of reach, the frenzy's extra point of
    movement (:func:`frenzy_step`). What it sets off is settled after her turn. Returns
    whether her Minor is still free."""
    if minor:
        if reach_w(i, t, w) < 0:
            if away_w(i, goal, lo, hi, w):
                if minor_move(i, goal, lo, hi, False, 2, w):
                    minor = False
                    stepped(i, w)
    if minor:
        if standing_w(i, w):
            if frenzy_removal(i, w):
                minor = False
    if standing_w(i, w):
        if standing_w(t, w):
            if reach_w(i, t, w) < 0:
                frenzy_step(i, t, goal, lo, hi, w)
    return minor


@kernel(forceinline=True)
def reach_w(i, t, w):
    """:func:`.hex.reach` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reach(i, t, w)


@part
def grid_major_talents(i, m, w):
    """Her ``m``-th Major from a talent: Safe Place, a Major talent (then Bonus Action
    when someone is in reach), or Guided Strike's ally and target. Returns ``(code,
    who attacks, target, another Major)``: code 0 the attack follows (``who``, ``t``;
    ``t`` -1 when she chooses), 1 a talent was the Major, 2 she fell."""
    if tmask_w(i, w) == 0:
        return 0, i, -1, False
    refresh_fear_w(w)
    if safe_place_turn(i, w):
        return 1, i, -1, False
    if major_talent(i, w):  # inlined: its gate is tested here, the hooks called if open
        return major_done(i, m, w)
    g, tg = guided_strike(i, w)
    if g >= 0:
        return 0, g, tg, False
    return 0, i, -1, False


@part
def major_done(i, m, w):
    """A Major talent was her ``m``-th Major: code 2 if she fell, else 1, with Bonus
    Action's another Major when it was the first and someone is in reach (see
    :func:`grid_major_talents`)."""
    if not standing_w(i, w):
        return 2, i, -1, False
    again = False
    if m == 0:
        again = bonus_major(i, w)
    return 1, i, -1, again


@part
def grid_target(i, t0, goal, lo, hi, frenzy, w):
    """Her own attack's target: none while a bodyguard is not yet next to her ally
    (``protect-ally``); her policy's target ``t0`` in reach, else the one it prefers in
    reach; Minion Explosion's choice; Dash Strike or Pounce when nobody is in reach.
    -1 none, -2 held by And Your Enemies Closer (the Major is spent). A frenzy's: her
    target ``t0`` when in reach; -2 (no Major) when she or it is down."""
    comb, rules, dyn, streams, bf = unpack(w)
    if frenzy:
        if not is_standing(i, w) or not is_standing(t0, w):
            return -2
        if reach(i, t0, w) >= 0:
            return t0
        return -1
    mask = comb[i, C_TMASK]
    t = -1
    if comb[i, P_MOVE] == MOVE_PROTECT:
        if away(i, goal, lo, hi, w):  # a bodyguard gets next to her ally first
            if best_step(i, goal, lo, hi, 1, w) >= 0:
                return t
    comb, rules, dyn, streams, bf = unpack(w)
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


@part
def grid_strike(i, m, who, t, frenzy, w):
    """The attack of ``who`` on ``t`` on the grid: Get Over Here / Repel paid, Defensive
    Switch, Sprint off her turn to intercept, the attack (:func:`grid_attack`), the
    exploded minion leaves its hex, the shove, Reflector, Bonus Action (a frenzy's attack:
    none of her talents). Returns ``(she still stands, another Major)``."""
    mask = tmask_w(i, w)
    if frenzy:
        mask = 0
    sh = -1
    if who == i:
        if mask != 0:
            sh = shove_paid(i, w)
    t = switched(who, t, w)
    guard_sprint_for(who, t, w)
    dealt = grid_attack(who, t, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[who, D_BLAST] != 0:  # Minion Explosion: the destroyed minion leaves its hex
        leave_if_dead(dyn[who, D_BLAST] - 1, w)
        dyn[who, D_BLAST] = 0
    if sh >= 0:
        if dealt >= 0:
            shove(i, t, comb[i, C_TP1 + sh], w)
    if not standing_w(i, w):
        return False, False
    again = False
    if m == 0:
        if mask != 0:
            if who == i:
                reflector_after(i, dealt, w)
            again = bonus_major(i, w)
    return True, again


@part
def grid_turn_end(i, minor, t0, disengaged, w):
    """After her Majors: a Minor still unused moves her one more hex toward her goal (a
    movement talent first); Sprint again if she stands."""
    mask = tmask_w(i, w)
    if minor:
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


@kernel
def p_turn(i, b, c, w):
    """PR_TURN: :func:`take_turn_grid` (a frenzy's turn too, with the frenzy's choices)."""
    comb, rules, dyn, streams, bf = unpack(w)
    take_turn_grid(i, w)
    return 0


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT: :func:`grid_attack_call`."""
    comb, rules, dyn, streams, bf = unpack(w)
    grid_attack_call(i, t, w)
    return 0
