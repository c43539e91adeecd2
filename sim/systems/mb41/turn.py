"""A combatant's turn (L1410): ailments, a Minor action, the Major actions, in every
geometry: :func:`take_turn`, with the geometry's steps in its slots (the draft's positions:
:mod:`.positions_turn`; the hex grid: :mod:`.hex_turn`; gridless there are none).
"""
from __future__ import annotations

from sim._jit import kernel, part
from sim.dice import sum_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_AILMENTS, T_MAJOR, T_MINOR, T_TURN_START
from .points import every, first, holds
from .world import call, gridless, unpack
from .ailments import removal_roll
from .bursts import settle, settle_now
from .overcharge import check_bursts
from .state import _candidate, has_ailment, is_standing
from .talents.defence import reflector_after
from .talents.movement import safe_place_held, shove_paid
from .talents.riders import follow_up_for
from .talents.team import bonus_major, guided_strike, switched
from .targets import frenzy_target, target_of


@kernel
def frenzy_start(i, w):
    """The start of frenzied ``i``'s turn (L746-752), the frenzy's own part of it: counted
    (``K_FRENZY_TURNS``), she regains ``fury_regen_dice`` d6 Resolve (the damage stream).
    The turn itself is her one turn (``PR_TURN``: :func:`take_turn`) with the frenzy's choices: her target is
    :func:`.targets.frenzy_target` (the closest standing combatant, allies included), she
    has no talents of her own (no Minor or Major talent, no Guided Strike, Bonus Action,
    Reflector, Get Over Here), her Minor is a removal roll (:func:`frenzy_removal`) or a
    step toward her target, where distance exists the frenzy's extra point of movement
    (``PR_FRENZY_STEP``, L758), and her one Major attacks the target when in reach, else
    moves her toward it; her attack's riders only as rule ``fury_talents`` allows
    (:func:`.slots.frenzy_can_pay`, L752, A9ii). ``fury_target: enemies``: her target is her
    policy's among enemies, the turn still the frenzy's (in every geometry)."""
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


@kernel(forceinline=True)
def frenzied(i, w):
    """``i``'s turn is a Fury frenzy's (``D_FRENZY``, :func:`play_frenzied`): the frenzy's
    choices in every geometry (L746-758; rule ``fury_target`` chooses only her target)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return dyn[i, D_FRENZY] != 0


@kernel(forceinline=True)
def minor_free(i, w):
    """Her Minor action is still hers this turn (``D_MINOR_USED`` 0: the one record of it,
    set when an ailment's removal, a Minor talent, a step or the draft's Second Chance
    Attack spends it, L1410)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return dyn[i, D_MINOR_USED] == 0


@part
def take_turn(i, w):
    """One turn of ``i`` (L1410): a Minor and a Major action, free actions, in every
    geometry (gridless, the draft's positions, the hex grid); what a geometry adds is in
    its slots (``PR_TURN_OPEN``, ``PR_BEFORE_MAJOR``, ``PR_FRENZY_MINOR``,
    ``PR_FRENZY_STEP``, ``PR_SAFE_PLACE``, ``PR_TARGET``, ``PR_ATTACK_AT``, ``PR_SHOVE``,
    ``PR_MAJOR_MOVE``, ``PR_TURN_END``), called only where places exist (gridless the turn
    pays no call for them, :func:`.world.gridless`).

    1. The start (:func:`turn_open`): Second Wind's bonus ends (L1716), her Minor is hers
       again, the geometry's start (the dead leave, auras, rough terrain paid within the
       turn, A15a), the start-of-turn hooks (the draft's Empower, Regeneration).
    2. Ailments: Remedy, else a removal roll (2d6! + Support, L1467), with her Minor, or
       her only action when Stunned (L1461); removing Stun gives the second action back
       (A25). Then a Minor talent (:func:`minor_talent`); a successful Steal Action gives
       her another Minor (L1725): another Minor talent, else the Minor stays free.
    3. Before the Major, where places exist: her policy's target and her Minor's step
       toward its range (a movement talent, Sprint, Get Back: the geometry's).
    4. The Major (:func:`major_actions`): Safe Place, a Major talent, Guided Strike's ally,
       else her basic attack on Follow Up's target or her own (the geometry's choice in
       reach, Dash Strike, Minion Explosion), else a move toward her target (Disengage
       when engaged; Create Barrier's wall). Bonus Action (L1579: "on your turn, you may
       take another Major") gives a second Major after the first, whatever it was, once
       what the first left due is settled.
    5. The end, where places exist: a Minor still free moves her (the geometry's), Sprint.

    After each action what it left due is settled (``burst_timing: after_action``, A7b)
    and her turn ends there if she fell. A Fury frenzy's turn (``D_FRENZY``,
    :func:`play_frenzied`) is this turn with the frenzy's choices: her target is
    :func:`.targets.frenzy_target`; no Minor talent or ailment step at the start; out of
    her reach a Minor step toward it, else a removal roll (:func:`frenzy_removal`); still
    out of reach the frenzy's extra point of movement (``PR_FRENZY_STEP``, L758); one
    Major: the attack in reach, else a move; no talents of her own; what she set off is
    settled after her turn (:func:`.fight.frenzy_turns`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    frenzy = frenzied(i, w)
    t0 = -1
    if frenzy:
        t0 = frenzy_target(i, w)  # chosen as her turn begins
    t0, disengaged, done = turn_body(i, frenzy, t0, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if not gridless(rules):
        flags = (1 if disengaged else 0) + (2 if frenzy else 0) + (4 if done else 0)
        call(rules[PR_TURN_END], i, t0, flags, w)
    if comb[i, C_TMASK] != 0:
        dyn[i, D_TURNS_DONE] += 1


@part
def turn_body(i, frenzy, t0, w):
    """The steps of :func:`take_turn` up to its end. Returns ``(t0, disengaged, done)``:
    her target at the end, whether a Disengage unlocked her, and whether the turn ran to
    its end (False: she fell, or nobody was left to fight)."""
    comb, rules, dyn, streams, bf = unpack(w)
    major, ok = turn_open(i, frenzy, w)
    if not ok:
        return t0, False, False
    places = not gridless(rules)
    if frenzy:
        frenzy_before(i, t0, places, w)
        if t0 < 0:
            return t0, False, False  # nobody to attack or move toward
    elif places:
        t0 = call(rules[PR_BEFORE_MAJOR], i, 0, 0, w)
        if t0 < 0:
            return t0, False, False  # -1 nobody left to fight, -2 she fell
    return major_actions(i, major, frenzy, t0, places, w)


@part
def turn_open(i, frenzy, w):
    """The start of ``i``'s turn, her ailments and a Minor talent (see :func:`take_turn`).
    Returns ``(her Major is free, she still stands)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_DEF_BONUS] = 0  # Second Wind's bonus lasts "until the start of your next turn" (L1716)
    dyn[i, D_MINOR_USED] = 0
    if dyn[i, D_AIL + A_STUN] != 0:
        dyn[i, D_MINOR_USED] = 1  # "can take only one action per turn" (L1461)
    if not gridless(rules):
        call(rules[PR_TURN_OPEN], i, 1 if frenzy else 0, 0, w)
    if frenzy:
        return True, True
    every(T_TURN_START, i, i, 0, w)  # the draft's Empower, Regeneration
    comb, rules, dyn, streams, bf = unpack(w)
    major = True
    if has_ailment(i, w):
        major, ok = turn_ailments(i, w)
        if not ok:
            return major, False
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_MINOR_USED] == 0:
        if comb[i, C_TMASK] != 0:
            turn_minor(i, w)
            if not settle_action(i, w):
                return major, False
    return major, True


@part
def turn_ailments(i, w):
    """Her ailments at the start of her turn: Remedy on herself, else a removal roll
    (L1467), with her Minor, or her only action when Stunned (L1461: "she regains the
    second action" when the Stun is gone, A25); bursts checked, what is due settled.
    Returns ``(her Major is free, she still stands)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    stunned = dyn[i, D_AIL + A_STUN] != 0
    if first(T_AILMENTS, i, i, 0, w) == 0:  # Remedy, else the removal roll
        removal_roll(i, w)
    major = True
    if dyn[i, D_MINOR_USED] == 0:
        dyn[i, D_MINOR_USED] = 1
    else:
        major = False
    if stunned:
        if dyn[i, D_AIL + A_STUN] == 0:
            major = True  # "she regains the second action"
    check_bursts(i, w)
    return major, settle_action(i, w)


@part
def turn_minor(i, w):
    """Her Minor action from a talent (:func:`minor_talent`): used, it spends her Minor; a
    successful Steal Action (L1725) gives her another, tried on a Minor talent again (free
    when none acts: a step where places exist, the draft's Second Chance Attack)."""
    comb, rules, dyn, streams, bf = unpack(w)
    r = minor_talent(i, w)
    while r == 2:
        r = minor_talent(i, w)
    if r == 1:
        dyn[i, D_MINOR_USED] = 1


@part
def settle_action(i, w):
    """After an action of ``i``'s turn (``bursts: play`` with ``burst_timing: after_action``,
    A7b: "after the current action resolves"): what the action left due plays now
    (:func:`.bursts.settle`: a frenzied girl's retaliation, L758, then the due bursts).
    Under ``after_turn`` the fight loop settles once the turn is over. Returns whether
    ``i`` still stands (her turn ends when she does not)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if settle_now(w):
        settle(w)
    return is_standing(i, w)


@part
def frenzy_before(i, t0, places, w):
    """A frenzy's Minor before her Major (see :func:`take_turn`): a step toward her range of
    ``t0`` when it is out of her reach (the geometry's ``PR_FRENZY_MINOR``), else (or when
    she could not step) the removal roll when she has an ailment (:func:`frenzy_removal`);
    then, still out of reach, the frenzy's extra point of movement (``PR_FRENZY_STEP``).
    Gridless everyone is in reach, and with nobody to attack she has nobody to step toward:
    the removal roll only."""
    comb, rules, dyn, streams, bf = unpack(w)
    if t0 < 0:
        places = False  # nobody to move toward: the removal roll only
    if places:
        if dyn[i, D_MINOR_USED] == 0:
            if call(rules[PR_REACH], i, t0, 0, w) < 0:
                if call(rules[PR_FRENZY_MINOR], i, t0, 0, w) != 0:
                    dyn[i, D_MINOR_USED] = 1
    if is_standing(i, w):
        if dyn[i, D_MINOR_USED] == 0:
            if frenzy_removal(i, w):
                dyn[i, D_MINOR_USED] = 1
        if places:
            if is_standing(t0, w):
                if call(rules[PR_REACH], i, t0, 0, w) < 0:
                    call(rules[PR_FRENZY_STEP], i, t0, 0, w)


@part
def major_actions(i, major, frenzy, t0, places, w):
    """Her Major action, and a second one after Bonus Action (see :func:`take_turn`).
    Returns ``(t0, disengaged, done)`` as :func:`turn_body`."""
    comb, rules, dyn, streams, bf = unpack(w)
    disengaged = False
    majors = 1 if major else 0
    for m in range(2):
        if m >= majors:
            break
        if m > 0:
            if places:  # the auras after her first Major, before her second's talents
                call(rules[PR_AURAS], i, 0, 0, w)
            if t0 >= 0:  # after a Bonus Action: her target may be down
                if not still_target(i, t0, w):
                    t0 = call(rules[PR_PICK], i, 0, 0, w)
                    if t0 < 0:
                        return t0, disengaged, False
        code, who, t = major_choice(i, m, frenzy, t0, places, w)
        if code == 2:
            return t0, disengaged, False  # she fell
        if code == 0:
            if t >= 0:
                if not major_strike(i, m, who, t, frenzy, w):
                    return t0, disengaged, False
            elif t == -1:
                if not places:
                    break  # nobody to attack
                r = call(rules[PR_MAJOR_MOVE], i, t0, (1 if minor_free(i, w) else 0) + (2 if frenzy else 0), w)
                comb, rules, dyn, streams, bf = unpack(w)
                if r & 1 != 0:
                    dyn[i, D_MINOR_USED] = 1
                if r & 2 != 0:
                    disengaged = True
                if not is_standing(i, w):
                    return t0, disengaged, False
        if frenzy:
            break  # one Major; what it left due is settled after her turn (:func:`.fight.frenzy_turns`)
        if not settle_action(i, w):
            return t0, disengaged, False
        if m == 0:
            if bonus_major(i, w):
                majors = 2
    return t0, disengaged, True


@kernel(forceinline=True)
def still_target(i, t, w):
    """``t`` is still a target ``i`` may attack (:func:`.state._candidate`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _candidate(t, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w)


@part
def major_choice(i, m, frenzy, t0, places, w):
    """Her ``m``-th Major: ``(code, who attacks, target)``; code 1 a talent was the Major
    (Safe Place where places exist, a Major talent), 2 she fell, 0 the attack follows:
    Guided Strike's ally and his target, else her own target (:func:`own_target`); target
    -1 none in reach (she moves), -2 the Major is spent (And Your Enemies Closer holds
    her; a frenzy whose target is down). A frenzy's Major: her target ``t0`` in reach."""
    comb, rules, dyn, streams, bf = unpack(w)
    if frenzy:
        if not is_standing(i, w):
            return 0, i, -2
        if not is_standing(t0, w):
            return 0, i, -2
        if call(rules[PR_REACH], i, t0, 0, w) >= 0:
            return 0, i, t0
        return 0, i, -1
    if comb[i, C_TMASK] != 0:
        if places:
            if safe_place_held(i, w):
                if call(rules[PR_SAFE_PLACE], i, 0, 0, w) != 0:
                    return 1, i, -1
        if major_talent(i, w):
            if not is_standing(i, w):
                return 2, i, -1
            return 1, i, -1
        g, tg = guided_strike(i, w)
        if g >= 0:
            return 0, g, tg
    return 0, i, own_target(i, t0, places, w)


@part
def own_target(i, t0, places, w):
    """Her own attack's target: Follow Up's (the enemy an ally hit just before her turn)
    when she holds it and it is in her reach, else the geometry's choice (``PR_TARGET``:
    her target ``t0`` in reach, else the one her policy prefers in reach, Minion
    Explosion, Dash Strike or Pounce when nobody is); gridless her policy's
    (:func:`.targets.target_of`). -1 none, -2 her Major is spent."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = follow_up_for(i, w)
    if t >= 0:
        if places:
            if call(rules[PR_REACH], i, t, 0, w) < 0:
                t = -1
    if t >= 0:
        return t
    if places:
        return call(rules[PR_TARGET], i, t0, 0, w)
    return target_of(i, w)


@part
def major_strike(i, m, who, t, frenzy, w):
    """The basic attack of ``who`` (she, or the ally her Guided Strike sends) on ``t``:
    Get Over Here / Repel paid (:func:`.talents.movement.shove_paid`), Defensive Switch,
    the geometry's attack where she stands (``PR_ATTACK_AT``: the form by distance,
    Cover, Intercept, Speed Burst or Sprint off a turn to cover), the shove, Reflector
    after her own first Major's hit. A frenzy's attack: none of her talents. Returns
    whether she still stands."""
    comb, rules, dyn, streams, bf = unpack(w)
    sh = -1
    if who == i:
        if not frenzy:
            sh = shove_paid(i, w)
    t = switched(who, t, w)
    dealt = call(rules[PR_ATTACK_AT], who, t, 0, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if sh >= 0:
        if dealt >= 0:  # Get Over Here / Repel: the hit moves the target
            if not gridless(rules):
                call(rules[PR_SHOVE], i, t, comb[i, C_TP1 + sh], w)
    if not is_standing(i, w):
        return False
    if m == 0:
        if who == i:
            if not frenzy:
                reflector_after(i, dealt, w)
    return True


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
    """PR_TURN in every geometry: :func:`take_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    take_turn(i, w)
    return 0
