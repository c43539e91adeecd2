"""A combatant's turn (L1410): ailments, a Minor action, the Major actions.

Gridless and on the draft's positions; the hex grid's turn is
:func:`.hex_turn.take_turn_grid` until the turns are one.
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import sum_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_AILMENTS, T_MAJOR, T_MINOR, T_TURN_START
from .points import every, first, holds
from .world import call, on_grid, on_positions, unpack
from .ailments import removal_roll
from .bursts import settle_in_turn, settle_now
from .overcharge import check_bursts
from .state import _candidate, has_ailment, is_standing
from .talents.defence import reflector_after
from .talents.movement import shove_paid
from .talents.riders import follow_up_for
from .talents.team import bonus_major, guided_strike, switched
from .targets import frenzy_target, target_of


@kernel
def frenzy_start(i, w):
    """The start of frenzied ``i``'s turn (L746-752), the frenzy's own part of it: counted
    (``K_FRENZY_TURNS``), she regains ``fury_regen_dice`` d6 Resolve (the damage stream).
    The turn itself is her one turn (``PR_TURN``: :func:`take_turn`, on the hex grid
    :func:`.hex_turn.take_turn_grid`) with the frenzy's choices: her target is
    :func:`.targets.frenzy_target` (the closest standing combatant, allies included), she
    has no talents of her own (no Minor or Major talent, no Guided Strike, Bonus Action,
    Reflector, Get Over Here), her Minor is a removal roll (:func:`frenzy_removal`) or a
    step toward her target, where distance exists the frenzy's extra point of movement
    (``PR_FRENZY_STEP``, L758), and her one Major attacks the target when in reach, else
    moves her toward it; her attack's riders only as rule ``fury_talents`` allows
    (:func:`.slots.frenzy_can_pay`, L752, A9ii). ``fury_target: enemies`` on the grid: her
    usual grid turn (her policy's target among enemies, with her talents)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, K_FRENZY_TURNS] += 1
    nd = rules[R_FURY_REGEN_DICE]
    if nd > 0:
        g = sum_d6(streams[S_DAMAGE], nd)
        room = comb[i, C_RES] - dyn[i, D_RES]
        if g > room:
            g = room
        dyn[i, D_RES] += g
        dyn[i, K_FRENZY_REGEN] += g


@kernel
def play_frenzied(i, w):
    """One turn of frenzied ``i`` (:func:`.fight.frenzy_turns`): :func:`frenzy_start`, then her
    one turn (``PR_TURN``), which plays the frenzy's choices (``D_FRENZY``). Not the turn
    clock's (``D_CLOCK``: a frenzy's turns are not counted there)."""
    comb, rules, dyn, streams, bf = unpack(w)
    frenzy_start(i, w)
    call(rules[PR_TURN], i, 0, 0, w)


@kernel
def frenzy_removal(i, w):
    """A frenzied girl's Minor action when it does not step toward her target
    (L746: her turns "must attack a living target or move towards one", which the
    Major does): with an ailment she tries to remove it (L1467: 2d6! + Support,
    :func:`removal_roll`; Remedy instead when rule ``fury_talents`` lets her use
    it, :func:`.talents.heal.try_remedy`). Stunned she has one action (L1461), the attack: no
    removal. Returns whether the Minor was used."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_ailment(i, w):
        return False
    if dyn[i, D_AIL + A_STUN] != 0:
        return False
    if first(T_AILMENTS, i, i, 0, w) == 0:  # Remedy, else the removal roll
        removal_roll(i, w)
    return True


@kernel(forceinline=True)
def frenzy_again(i, w):
    """``i`` is frenzied and standing: she has the frenzy's second turn due."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_FRENZY] == 0:
        return False
    return is_standing(i, w)


@part
def take_turn(i, w):
    """One turn of ``i`` (L1410): a Major and a Minor action, free actions.

    1. Ailments: with Remedy she removes them for sure (:func:`.talents.heal.try_remedy`),
       else a removal roll (2d6! + Support); either takes the Minor action,
       or her only action if Stunned; removing Stun gives the second action
       back (L1461, L1467, A25: Minor).
    2. Minor: a talent (:func:`minor_talent`: heal, Remedy on an ally,
       Curse, Steal Action; a successful Steal Action gives another Minor).
    3. Major: a Scream-like ability or Wave of Courage if enough would be
       affected (:func:`major_talent`); else a basic attack on the policy's
       target (A13) with its talent riders (DECLARE, :func:`.attack.attack_bonus`), made by
       an ally instead if she spends Guided Strike on her; with Follow Up
       usable she attacks the enemy an ally hit just before her turn.
    4. Free: Reflector after a successful attack; Bonus Action / Action
       Burst (talent) for another Major action.

    With the draft's positions (rule ``positions`` > 0, :mod:`.positions`)
    she moves toward her target's range with the Minor first, attacks only
    what her basic attacks reach (the form by distance, Cover by someone in
    the target's position), moves with the Major (Disengage) when nothing is
    in reach, and moves with a Minor still unused afterwards. Without
    positions none of this runs: no draw, no counter.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    pos = on_positions(rules)
    frenzy = dyn[i, D_FRENZY] != 0  # a Fury frenzy's turn (:func:`play_frenzied`): the frenzy's choices
    actions = turn_begin(i, frenzy, w)
    minor = actions >= 2
    t0 = -1
    if frenzy:
        if not pos:
            frenzy_removal(i, w)  # gridless her Minor never moves her: the removal roll, if any
        t0 = frenzy_target(i, w)
    if pos:  # the target and a Minor step toward its range first
        actions, minor, t0 = positions_before(i, actions, minor, t0, frenzy, w)
    # the Major action, then (Bonus Action, free) another Major
    majors = 1 if actions >= 1 else 0
    for m in range(2):
        if m >= majors:
            if m > 0:
                break
            continue
        acted, who, t, t0 = major_choice(i, m, t0, frenzy, w)
        if not acted:
            if t < 0:
                if not pos:
                    break
                if t0 < 0:
                    break  # nobody left to fight
                # nobody in reach: the Major moves her (Disengage when engaged)
                if call(rules[PR_POS_MAJOR_TOWARD], i, t0, (1 if minor else 0) + (2 if frenzy else 0), w) != 0:
                    minor = False
                    if not frenzy:
                        dyn[i, D_MINOR_USED] = 1
                if not is_standing(i, w):
                    break
            else:
                major_strike(i, m, who, t, frenzy, w)
        if frenzy:
            break  # one Major; what it left due is settled after her turn (:func:`.fight.frenzy_turns`)
        if settle_now(w):
            if settle_in_turn(i, 1, w) == 0:
                break
        if m == 0:
            if mask != 0:
                if bonus_major(i, w):
                    majors = 2
    if pos:
        if frenzy:
            if t0 >= 0:  # the frenzy's extra movement paid for one attack; the auras by position again
                dyn[i, D_FURY_PAID] = 0
                call(rules[PR_AURAS], i, 0, 0, w)
        elif minor:  # a Minor still unused: one more position toward her range
            positions_after(i, t0, w)
    if mask != 0:
        dyn[i, D_TURNS_DONE] += 1


@part
def turn_begin(i, frenzy, w):
    """Her actions left for the Minor and the Major (2; 1 Stunned, L1461): the start of her
    turn, her ailments and a Minor talent (:func:`turn_start`, :func:`turn_ailments`,
    :func:`turn_minor`); a frenzy's turn has none of these (its Minor is a removal roll or
    a step, its start :func:`frenzy_start`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if frenzy:
        if dyn[i, D_AIL + A_STUN] != 0:
            return 1
        return 2
    turn_start(i, w)
    actions = turn_ailments(i, w)
    return turn_minor(i, actions, w)


@part
def turn_start(i, w):
    """The start of ``i``'s turn: Second Wind's bonus ends (L1716), her Minor is free;
    on positions the rough-terrain payment of ``rough_cost: same_turn`` (A15a) and
    the auras by position; the draft's free Empower and Regeneration."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_DEF_BONUS] = 0
    dyn[i, D_MINOR_USED] = 0
    if on_positions(rules):
        if rules[R_ROUGH_COST] == 0:
            dyn[i, D_PAID] = 0
        call(rules[PR_AURAS], i, 0, 0, w)
    every(T_TURN_START, i, i, 0, w)  # the draft's Empower, Regeneration


@part
def turn_ailments(i, w):
    """Her actions this turn (2; 1 Stunned, L1461) after her ailments: with Remedy she
    removes them for sure (:func:`.talents.heal.try_remedy`), else a removal roll (2d6! + Support,
    L1467); either takes her Minor, or her only action if Stunned, and removing Stun
    gives the second action back (A25); what it set off is settled."""
    comb, rules, dyn, streams, bf = unpack(w)
    actions = 2
    if dyn[i, D_AIL + A_STUN] != 0:
        actions = 1  # "can take only one action per turn" (L1461)
    if has_ailment(i, w):
        stunned = dyn[i, D_AIL + A_STUN] != 0
        if first(T_AILMENTS, i, i, 0, w) == 0:  # Remedy, else the removal roll
            removal_roll(i, w)
        actions -= 1
        dyn[i, D_MINOR_USED] = 1
        if stunned:
            if dyn[i, D_AIL + A_STUN] == 0:
                actions += 1  # "she regains the second action"
        check_bursts(i, w)
        if settle_now(w):
            actions = settle_in_turn(i, actions, w)
    return actions


@part
def turn_minor(i, actions, w):
    """Her Minor action from a talent when she still has both actions
    (:func:`minor_talent`; a successful Steal Action gives another Minor, L1725);
    returns the actions left."""
    comb, rules, dyn, streams, bf = unpack(w)
    if actions >= 2:
        if comb[i, C_TMASK] != 0:
            r = minor_talent(i, w)
            if r > 0:
                actions -= 1
                dyn[i, D_MINOR_USED] = 1
            while r == 2:
                r = minor_talent(i, w)
            if settle_now(w):
                actions = settle_in_turn(i, actions, w)
    return actions


@part
def positions_before(i, actions, minor, t0, frenzy, w):
    """On the draft's positions, before her Major: the policy's target ``t0``, Sprint
    (free, before her Minor, DRAFT L149-153), Get Back, or a Minor step toward her
    range. A frenzy's turn (``t0``: :func:`.targets.frenzy_target`): the auras by position,
    a Minor step toward ``t0`` when out of her reach, else the removal roll
    (:func:`frenzy_removal`), then the frenzy's extra point of movement
    (``PR_FRENZY_STEP``, L758); nobody to attack, or she fell on her step: nothing more
    (``t0`` -1). Returns ``(actions, minor still free, t0)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    if actions >= 1:
        if frenzy:
            if t0 < 0:
                return 0, False, t0
            call(rules[PR_AURAS], i, 0, 0, w)
        else:
            t0 = call(rules[PR_PICK], i, 0, 0, w)
            if mask != 0:
                call(rules[PR_POS_SPRINT], i, t0, 0, w)  # when she holds it; no damage: she still stands
            if minor:
                if mask != 0:
                    if call(rules[PR_POS_GET_BACK], i, 0, 0, w) != 0:  # an engaged, hurt ally to Position 1
                        minor = False
                        actions -= 1
                        dyn[i, D_MINOR_USED] = 1
        if minor:
            if call(rules[PR_POS_MINOR_TOWARD], i, t0, 1 if frenzy else 0, w) != 0:
                minor = False
                actions -= 1
                if not frenzy:
                    dyn[i, D_MINOR_USED] = 1
                if not is_standing(i, w):
                    actions = 0
                if not frenzy:
                    if settle_now(w):
                        actions = settle_in_turn(i, actions, w)
        if frenzy:
            if not is_standing(i, w):
                return 0, False, -1
            if minor:
                if frenzy_removal(i, w):
                    minor = False
            if call(rules[PR_REACH], i, t0, 0, w) < 0:
                call(rules[PR_FRENZY_STEP], i, t0, 0, w)
    else:
        t0 = -1
    return actions, minor, t0


@part
def major_choice(i, m, t0, frenzy, w):
    """Her ``m``-th Major action (the second after Bonus Action): Safe Place (positions),
    a Major talent (:func:`major_talent`), or the attack's maker and target: an ally
    with Guided Strike, Follow Up's target, the policy's (on positions among those in
    reach; Dash Strike when nobody is). Returns ``(acted, who attacks, her target or
    -1, t0)`` (``t0``: the positions' target, picked again when it is down). A frenzy's
    Major: her target ``t0`` when in her reach, no talent."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    pos = on_positions(rules)
    acted = False
    who = i
    t = -1
    if frenzy:
        if t0 >= 0:
            if call(rules[PR_REACH], i, t0, 0, w) >= 0:
                t = t0
        return acted, who, t, t0
    if mask != 0:
        if pos:  # Safe Place (when she holds it): an engaged ally to her position
            acted = call(rules[PR_POS_SAFE_PLACE], i, 0, 0, w) != 0
        if not acted:
            acted = major_talent(i, w)
        if not acted:
            g, tg = guided_strike(i, w)
            if g >= 0:
                who = g
                t = tg
    if acted:
        return acted, who, t, t0
    if who == i:
        t = follow_up_for(i, w)
        if t >= 0:
            if pos:
                if call(rules[PR_REACH], i, t, 0, w) < 0:
                    t = -1
    if t < 0:
        if pos:
            if who == i:
                if m > 0:  # after a Bonus Action: her target may be down
                    if t0 >= 0:
                        if not _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
                            t0 = call(rules[PR_PICK], i, 0, 0, w)
                if t0 >= 0:
                    if _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
                        if call(rules[PR_REACH], i, t0, 0, w) >= 0:
                            t = t0
            if t < 0:
                t = call(rules[PR_PICK], who, 1, 0, w)
            if t < 0:
                if who == i:
                    if mask != 0:  # Dash Strike (when she holds it): a step, then the attack
                        t = call(rules[PR_POS_DASH], i, t0, 0, w)
        else:
            t = target_of(who, w)
    return acted, who, t, t0


@part
def major_strike(i, m, who, t, frenzy, w):
    """The basic attack of ``who`` (she, or the ally her Guided Strike sends) on ``t``:
    Defensive Switch, Speed Burst off her turn to Cover (positions), Get Over Here /
    Repel paid, the attack (on positions: the form by distance, Cover, the shove),
    Reflector after her own first Major's hit. A frenzy's attack: neither talent of hers."""
    comb, rules, dyn, streams, bf = unpack(w)
    pos = on_positions(rules)
    t = switched(who, t, w)
    if pos:
        call(rules[PR_POS_COVER_SPRINT], who, t, 0, w)  # Speed Burst off her turn (when t's side holds it)
    sh = -1
    if who == i:
        if not frenzy:
            sh = shove_paid(i, w)  # gridless: a basic attack, paid (no hex to move)
    if pos:
        call(rules[PR_AURAS], i, 0, 0, w)  # after her moves and a Defensive Switch
        call(rules[PR_POS_READY], who, t, 0, w)
    dealt = call(rules[PR_ATTACK], who, t, 0, w)
    if pos:
        call(rules[PR_POS_DONE], who, t, 0, w)
        if sh >= 0:
            if dealt >= 0:  # Get Over Here / Repel: the hit moves the target 1 position
                call(rules[PR_POS_SHOVE], i, t, comb[i, C_TP1 + sh], w)
    if m == 0:
        if who == i:
            if not frenzy:
                reflector_after(i, dealt, w)


@part
def positions_after(i, t0, w):
    """On positions, her Minor still unused after the Majors: one more position toward
    her range (the target picked again when it is down)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_MINOR_USED] == 0:
        if is_standing(i, w):
            if t0 >= 0:
                if not _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
                    t0 = call(rules[PR_PICK], i, 0, 0, w)
            call(rules[PR_POS_MINOR_TOWARD], i, t0, 0, w)


@part
def minor_talent(i, w):
    """A Minor action from her talents: the Minor hooks (:data:`.hooks.HOOKS`, timing
    ``MINOR``) whose gate her talents open, in their order, until one acts: sorcery for
    the whole turn, a heal, the draft's Hex (Amplify Magic first) and Rouse, Minion
    Creation, Marionette, Veil, Rough Going, Mines, Create Barrier, Hate the World's
    heal, Remedy on an ally, Curse, Steal Action, Amplify Magic, Link, sorcery as a
    Minor action; each within its range where there is one. Returns 0 (none), 1 (used)
    or 2 (a successful Steal Action: another Minor)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not holds(T_MINOR, i, i, w):
        return 0  # no Minor hook: not even a call (this part is inlined where it is asked)
    return minor_hooks(i, w)


@kernel
def minor_hooks(i, w):
    """The work of :func:`minor_talent`: her MINOR hooks in order until one acts."""
    return first(T_MINOR, i, i, 0, w)


@part
def major_talent(i, w):
    """A Major action from her talents instead of an attack: the Major hooks
    (:data:`.hooks.HOOKS`, timing ``MAJOR``) whose gate her talents open, in their
    order, until one acts: sorcery (the whole turn's cast, or as a Major action), Wave
    of Courage (:func:`.talents.heal.try_group_heal`), a Scream (:func:`.talents.afflictions.try_scream`), Gravity Wave,
    Blast Strike / Burst Attack, Scattering shot, Life Bomb (:func:`.talents.heal.try_life_bomb`),
    Curse Shift (:func:`.talents.afflictions.try_curse_shift`), Implode (:func:`.talents.afflictions.try_implode`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not holds(T_MAJOR, i, i, w):
        return False  # no Major hook: not even a call
    return major_hooks(i, w)


@kernel
def major_hooks(i, w):
    """The work of :func:`major_talent`: her MAJOR hooks in order until one acts."""
    return first(T_MAJOR, i, i, 0, w) != 0


@kernel(forceinline=True)
def play_turn(i, w):
    """One turn of ``i``, the geometry's (``PR_TURN``).
    Every turn advances the fight's turn clock (``D_CLOCK``, row 0)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[0, D_CLOCK] += 1
    call(rules[PR_TURN], i, 0, 0, w)


@kernel
def p_take_turn(i, b, c, w):
    """PR_TURN without a grid: :func:`take_turn` (gridless and the draft's positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    take_turn(i, w)
    return 0
