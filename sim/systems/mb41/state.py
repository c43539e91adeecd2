"""The trial's state of the 4.1 / draft engine and the plain facts about it.

The start of a fight, an episode and a scene (:func:`reset`, :func:`reset_row`,
:func:`scene_state`: the ``reset`` of every ``STATE`` field in :mod:`.layout`),
reserve rows that appear mid-fight (:func:`appear`: minions, Heart creatures,
Marionette's copy), who stands (:func:`is_standing`, L1420), the penalties on a
roll (:func:`roll_penalty`: Bound L1463, Fear Auras L2031), the contest rule
(:func:`beats`, L1453, A20-A21) and the outcome of a fight (:func:`outcome_now`).
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .gates import T_APPEAR
from .points import every
from .world import call, unpack


@kernel(forceinline=True)
def reset(w):
    """Start-of-fight state: full Resolve, starting overcharge, Boost uses."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    for i in range(n):
        reset_row(i, w)


@kernel
def reset_row(i, w):
    """Start-of-fight (and start-of-episode) state of combatant ``i``."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_RES] = comb[i, C_RES]
    dyn[i, D_WOUNDS] = 0
    dyn[i, D_DEAD] = 0
    dyn[i, D_PENDING] = -1
    dyn[i, D_REVIVES] = 0
    for s in range(3):
        dyn[i, D_OC + s] = comb[i, C_OC0 + s]
    dyn[i, D_POOL] = comb[i, C_POOL]
    dyn[i, D_BOOSTS] = comb[i, C_BOOSTS]
    dyn[i, D_KO] = 0
    for s in range(3):
        dyn[i, D_BURSTED + s] = 0
        dyn[i, D_BURST_TRIAL + s] = 0
        dyn[i, D_AIL + s] = 0  # ailments last until removed or the scene ends (A25)
    for s in range(MAXT):
        dyn[i, D_TUSES + s] = comb[i, C_TUSES + s]
    dyn[i, D_WOUND_HITS] = 0
    dyn[i, D_WOUND_TOP] = 0
    dyn[i, D_WOUND_LEVELS] = 0
    dyn[i, D_PEN_DICE] = 0
    dyn[i, D_PEN_LEVELS] = 0
    dyn[i, D_RECOVERS] = 0
    for b in range(MAXB):
        dyn[i, D_BOND + b] = comb[i, C_BOND + b]
    dyn[i, D_LOST] = 0
    dyn[i, D_HOST] = 0
    scene_state(i, w)


@kernel
def scene_state(i, w):
    """The columns every fight and every scene of an episode starts afresh
    (a part of ``SCENE_COLUMNS``): Fear Aura, the talents' marks, the
    position, bursts due and the frenzy (:func:`burst_state`), the team
    talents and fight clocks (:func:`team_state`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_FEAR] = comb[i, C_FEAR0]
    dyn[i, D_FT_TARGET] = -1
    dyn[i, D_FT_STACK] = 0
    dyn[i, D_STICKY] = 0
    dyn[i, D_DEF_BONUS] = 0
    dyn[i, D_REFLECT_BY] = -1
    dyn[i, D_REFLECT_UNTIL] = 0
    dyn[i, D_TURNS_DONE] = 0
    dyn[i, D_BOMB] = 0
    dyn[i, D_IMPLODE_BY] = -1
    dyn[i, D_IMPLODE_UNTIL] = 0
    dyn[i, D_POS] = comb[i, C_CELL]
    dyn[i, D_GUARD] = -1
    dyn[i, D_DMG_ADJ] = 0
    dyn[i, D_PAID] = 0
    dyn[i, D_SPRINT_AT] = -1
    dyn[i, D_HEXES] = 0
    dyn[i, D_HEX_ROUND] = -1
    dyn[i, D_REGEN] = 0
    dyn[i, D_MOOD] = 0
    dyn[i, D_MINOR_USED] = 0
    dyn[i, D_VEIL_UNTIL] = 0
    dyn[i, D_VEIL_D] = 0
    dyn[i, D_BLAST] = 0
    dyn[i, D_AREA_HIT] = 0
    for k in range(MAXMINES):
        dyn[i, D_MINE + k] = -1
    dyn[i, D_MINE_FROM] = 0
    dyn[i, D_RANGED_HI] = comb[i, C_RANGED_HI]
    dyn[i, D_BARRIER_RES] = 0
    dyn[i, D_BARRIER_KIND] = 0
    dyn[i, D_BARRIER_AT] = -1
    dyn[i, D_BARRIER_ARG] = 0
    dyn[i, D_BARRIER_LEN] = 0
    dyn[i, D_RIDER] = -1
    dyn[i, D_DRAIN] = -1
    burst_state(i, w)
    team_state(i, w)
    spawn_state(i, w)


@kernel
def spawn_state(i, w):
    """A reserve row (``C_SPAWN_KIND``) starts every fight and every scene
    absent (``D_ABSENT``, with ``D_DEAD`` set so that nothing targets it, it
    takes no turn, its side does not count it, it holds no hex and stands in
    no survival curve) until :func:`appear`."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_APPEARED] = 0
    dyn[i, D_COPY] = 0
    if comb[i, C_SPAWN_KIND] == 0:
        dyn[i, D_ABSENT] = 0
        return
    dyn[i, D_ABSENT] = 1
    dyn[i, D_DEAD] = 1
    dyn[i, D_RES] = 0
    dyn[i, D_PENDING] = -1
    dyn[i, D_POS] = -1


@kernel
def appear(j, anchor, w):
    """Reserve row ``j`` enters the fight with its full Resolve (HP) and its
    starting state (:func:`reset_row` left it untouched while absent); on the
    grid on the free hex nearest to cell ``anchor`` (fewest hexes, ties to the
    lowest cell; ``spawn`` rules), and not at all when no hex is free.
    Returns whether it appeared."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_ABSENT] == 0:
        return False
    if call(rules[PR_APPEAR_AT], j, anchor, 0, w) == 0:
        return False  # the grid: no free hex
    dyn[j, D_ABSENT] = 0
    dyn[j, D_DEAD] = 0
    dyn[j, D_RES] = comb[j, C_RES]
    dyn[j, D_APPEARED] = dyn[0, D_ROUND] + 1
    dyn[j, K_APPEARED] += 1
    every(T_APPEAR, j, j, 0, w)  # its Fear Aura arrives with it
    return True


@kernel(forceinline=True)
def waits(i, r, w):
    """A row that appeared in round ``r`` takes its first turn next round
    (``spawn_acts: next_round``); Marionette's copy never takes a turn."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, C_SPAWN_KIND] == 0:
        return False
    if comb[i, C_SPAWN_KIND] == SPAWN_COPY:
        return True
    if rules[R_SPAWN_ACTS] != 0:
        return False
    return dyn[i, D_APPEARED] == r + 1


@kernel(forceinline=True)
def burst_state(i, w):
    """Per-scene state of the bursts (none due, no frenzy, no retaliation)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(3):
        dyn[i, D_PEND + s] = 0
    dyn[i, D_FRENZY] = 0
    dyn[i, D_FURY_PAID] = 0
    dyn[i, D_RETALIATE] = -1
    dyn[i, D_DUE] = 0


@kernel
def team_state(i, w):
    """Per-scene state of the team talents, sorcery and the fight clocks
    (row 0): reset at the start of every fight and scene."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_CLOCK] = 0
    dyn[i, D_ROUND] = 0
    dyn[i, D_HIT_BY] = -1
    dyn[i, D_HIT_AT] = -1
    dyn[i, D_OPEN_BY] = -1
    dyn[i, D_OPEN_UNTIL] = 0
    dyn[i, D_OPEN_BONUS] = 0
    dyn[i, D_SEALED_UNTIL] = -1
    dyn[i, D_AMP_HEAL] = 0
    dyn[i, D_AMP_AIL] = 0
    dyn[i, D_AMP_HEX_BY] = 0
    dyn[i, D_AMP_HEX] = 0
    dyn[i, D_HEX_EXTRA] = 0
    dyn[i, D_AMBUSH] = 0
    dyn[i, D_BELKAN] = 0
    dyn[i, D_LINK_TO] = -1
    dyn[i, D_LINKED] = -1
    dyn[i, D_LINK_DMG] = 0
    dyn[i, D_ROUGH_PLACES] = 0
    dyn[i, D_REBIRTHS] = 0
    dyn[i, D_CASTING] = 0


@kernel(forceinline=True)
def is_standing(i, w):
    """Standing = Resolve above 0 and not dead."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_DEAD] != 0:
        return False
    return dyn[i, D_RES] > 0


@kernel(forceinline=True)
def _candidate(j, side, finish, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[j, C_SIDE] == side:
        return False
    if dyn[j, D_DEAD] != 0:
        return False
    if dyn[j, D_RES] > 0:
        return True
    return finish


@kernel(forceinline=True)
def beats(a_total, a_sixes, a_stat, d_total, d_sixes, d_stat, attacker_wins_full_tie):
    """The 4.1 contest (L1453): higher total, then more sixes, then higher stat."""
    if a_total != d_total:
        return a_total > d_total
    if a_sixes != d_sixes:
        return a_sixes > d_sixes
    if a_stat != d_stat:
        return a_stat > d_stat
    return attacker_wins_full_tie


@kernel(forceinline=True)
def sealed(i, w):
    """Seal Magic (L2098): ``i`` may use no talent (Boost included) until
    the end of round ``D_SEALED_UNTIL``; passive talents still work."""
    comb, rules, dyn, streams, bf = unpack(w)
    return dyn[i, D_SEALED_UNTIL] >= dyn[0, D_ROUND]


@kernel(forceinline=True)
def _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie):
    """Does the attack hit? A rolled defence uses :func:`beats` (L1453); a
    minion's passive defence (L2170) is hit by a higher total, and an equal
    total hits per ``minion_tie`` (A35): 0 with a six, 1 never, 2 always."""
    if passive:
        if a_total != d_total:
            return a_total > d_total
        if tie_mode == 0:
            return a_six > 0
        return tie_mode == 2
    return beats(a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)


@kernel
def attack_call(i, t, w):
    """:func:`.attack.attack` through its procedure (``PR_ATTACK``, :func:`.attack.p_attack`, the one
    function it is compiled into), for the attack sites outside the turn's own."""
    comb, rules, dyn, streams, bf = unpack(w)
    return call(rules[PR_ATTACK], i, t, 0, w)


@kernel(forceinline=True)
def roll_penalty(i, w):
    """Penalty to all of ``i``'s rolls: Bound -2 (L1463), plus the Fear Auras
    of standing enemies (-2 each, L2031)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_AIL + A_BOUND] != 0:
        return rules[R_BOUND_PENALTY] + dyn[i, D_FEAR]
    return dyn[i, D_FEAR]


@kernel(forceinline=True)
def has_ailment(i, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_AIL + A_STUN] != 0:
        return True
    if dyn[i, D_AIL + A_BOUND] != 0:
        return True
    return dyn[i, D_AIL + A_BLEED] != 0


@kernel(forceinline=True)
def other_ally(i, j, w):
    """``j`` is a standing member of ``i``'s side other than ``i``."""
    comb, rules, dyn, streams, bf = unpack(w)
    if j == i:
        return False
    if comb[j, C_SIDE] != comb[i, C_SIDE]:
        return False
    return is_standing(j, w)


@kernel
def has_other_ally(i, w):
    """Some member of ``i``'s side other than ``i`` stands."""
    comb, rules, dyn, streams, bf = unpack(w)
    for j in range(comb.shape[0]):
        if other_ally(i, j, w):
            return True
    return False


@kernel(forceinline=True)
def keeps_side_in(j, defeat, w):
    """Row ``j`` keeps her side in the fight under the rule ``defeat`` (``R_DEFEAT``): not
    dead and standing (0 ``all_down``); not dead (1 ``all_dead``); not dead and standing
    or rising, her revive's Resolve pending for her next turn (2 ``all_out``, L1445-1451);
    an illusion (Marionette's copy) keeps no side in it. The one statement of the rule:
    :func:`side_alive`, :func:`outcome_now`."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_DEAD] != 0:
        return False
    if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
        return False
    if defeat == 1:
        return True
    if dyn[j, D_RES] > 0:
        return True
    return defeat == 2 and dyn[j, D_PENDING] != -1


@kernel(forceinline=True)
def side_alive(side, w):
    """Side ``side`` is still in the fight: one of its rows keeps it in (:func:`keeps_side_in`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    defeat = rules[R_DEFEAT]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] == side:
            if keeps_side_in(j, defeat, w):
                return True
    return False


@kernel(forceinline=True)
def _still_keeps(side, n, defeat, w):
    """The row :func:`outcome_now` last found keeping ``side`` in the fight (``D_KEEPER``)
    still does: a row of the fight, of that side, kept in (:func:`keeps_side_in`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    h = dyn[0, D_KEEPER + side]
    if h < 0 or h >= n:
        return False  # a value carried from another scene's rows
    if comb[h, C_SIDE] != side:
        return False
    return keeps_side_in(h, defeat, w)


@kernel(forceinline=True)
def outcome_now(w):
    """-1 while both sides fight on; else F_WIN (side 0 wins), F_LOSS or F_DRAW. A side is
    still in the fight while one of its rows keeps it in (:func:`keeps_side_in`). First the
    rows that kept each side in at the last full check (``D_KEEPER``: most checks end
    there); else one pass over the rows (two calls of :func:`side_alive` would be two),
    which notes the first row keeping each side in. The outcome is the rows' state's
    alone: the hint only spares the pass."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    defeat = rules[R_DEFEAT]
    if _still_keeps(0, n, defeat, w):
        if _still_keeps(1, n, defeat, w):
            return -1
    a = False
    b = False
    for j in range(n):
        if not keeps_side_in(j, defeat, w):
            continue
        if comb[j, C_SIDE] == 0:
            if not a:
                dyn[0, D_KEEPER] = j
            a = True
        else:
            if not b:
                dyn[0, D_KEEPER + 1] = j
            b = True
        if a:
            if b:
                return -1
    if a:
        return F_WIN
    if b:
        return F_LOSS
    return F_DRAW


@kernel(forceinline=True)
def wound_level(dmg):
    """Wound level of ``dmg`` wound damage on the cumulative track (L1422, A16a):
    1-2 level 1, 3-4 level 2, 5 and more level 3."""
    if dmg <= 0:
        return 0
    if dmg <= 2:
        return 1
    if dmg <= 4:
        return 2
    return 3


@kernel
def p_missing(a, b, c, w):
    """A slot this scenario's table was not expected to need: counted (``K_MISSING``,
    row 0) so that a run with one fails loudly (:func:`.registry.check`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[0, K_MISSING] += 1
    return -1
