"""Magical Burst 4.1 combat kernel (numba): gridless skirmishes, and the hooks
of the hex battlefield (``grid: hex``; the turn on the grid, movement,
Disengage, Reckless Movement, rough terrain, Bound's movement rule and
Intercept live in :mod:`.battle_grid`: :func:`fight_on` with a battlefield
tuple calls :func:`.battle_grid.take_turn_grid` instead of :func:`take_turn`,
:func:`attack` calls :func:`.battle_grid.intercept` when ``D_GUARD`` names
an interceptor and adds ``D_DMG_ADJ`` (melee or ranged on the grid) to the
damage bonus).

Rules implemented (seed 000 line numbers; audit ids in brackets):

* initiative 2d6 + Support, no explosion, no overcharge, ties by Support then
  at random (L1408, A11c), or the listed order;
* each turn a Major action (a basic attack, A13) and a Minor action (unused
  without a grid) (L1410);
* attacks: 2d6! + Attack vs 2d6! + Defence; higher total wins, then more
  sixes, then the higher stat, a full tie to the defender (L1453, A20, A21);
  damage 1d6+2 melee / 1d6 ranged, +2 per attacker six, -2 per defender six,
  floored at ``min_damage`` (L1453, A22);
* Boost: 3/scene, +1 overcharge on the stat rolled, an extra exploding die,
  +/-2 damage on attack/defence (L1565, A4, A5);
* overcharge per magical stat, +1 per six on magical checks (L149); a
  burst is counted when a counter reaches 13 and resets it (L151, L161, A6a),
  checked after the action resolves (A7b);
* Resolve (L1420): overflow ignored; at 0 a girl is a non-magical human,
  defends with 2d6 + Tenacity (L1455, A24a) and takes wounds from further
  damage, dying at 6 wound damage (L1422, A16a); revive roll 2d6! + Support
  at once, Resolve back at the start of her next turn (L1445-1451, A19a);
* monsters (L1892): one overcharge pool, each six they roll costs a point,
  out (dead) at 0 Resolve;
* minions (L2170-2172): no defence roll but a passive defence (hit when the
  attack total exceeds it, or equals it with a six: ``minion_tie``, A35),
  HP boxes, the same number for attack and support, no damage bonus, no
  overcharge (their dice explode but cost nothing: a pool of 0);
* the highest overcharge tier per girl and stat in each fight (L153-161,
  rule ``flair_tiers``; :func:`flair_tier`).

Dice: on random streams an attack against a rolled defence draws both 2d6!
pools and its first damage die in one number (:func:`sim.dice.opposed_2d6`);
injected dice go die by die in the book's order. Duels (one combatant per
side, no talents) take the bit-identical fast path of :mod:`.fast`.

Arrays (all int64 unless said):

* ``comb[n, NC]``  static combatant columns ``C_*``;
* ``pol[n, NP]``   policy parameter columns ``P_*``;
* ``rules[R]``     the packed rule table (indices ``R_*``, checked against
  :data:`sim.systems.mb41.rules.RULES` by the tests);
* ``dyn[n, ND]``   dynamic state columns ``D_*`` (reset per trial);
* ``streams[4, W]`` uint64 stream states, one per purpose ``S_*``;
* ``cc[n, NK]``    per-combatant counters ``K_*`` (summed over trials).
"""
from __future__ import annotations

import numba
import numpy as np

from sim.curves import standing_curves  # noqa: F401 - used by the plug-in
from sim._jit import kernel, part, pjit
from sim.dice import exploding_d6, exploding_d6_ones, opposed_2d6, sum_d6, sum_dice
from sim.rng import STATE_WORDS, randbelow, seed_stream

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_...)
from .hooks import (DECLARE_GATE, DECLARE_GATE2, MAJOR_GATE, MAJOR_GATE2, MAJOR_GATES, MAJOR_GATES2, MINOR_GATE, MINOR_GATE2,
                    MINOR_GATES, MINOR_GATES2, N_MAJOR, N_MINOR, REDUCE_GATE)
from .world import WORLD_WORDS, call, gridless, keep, no_field, on_grid, on_positions, pack, unpack


# ---------------------------------------------------------------- state


@kernel(inline="always")
def reset(comb, rules, dyn):
    """Start-of-fight state: full Resolve, starting overcharge, Boost uses."""
    n = comb.shape[0]
    for i in range(n):
        reset_row(i, comb, dyn)


@kernel
def reset_row(i, comb, dyn):
    """Start-of-fight (and start-of-episode) state of combatant ``i``."""
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
    scene_state(i, comb, dyn)


@kernel
def scene_state(i, comb, dyn):
    """The columns every fight and every scene of an episode starts afresh
    (a part of ``SCENE_COLUMNS``): Fear Aura, the talents' marks, the
    position, bursts due and the frenzy (:func:`burst_state`), the team
    talents and fight clocks (:func:`team_state`)."""
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
    burst_state(i, dyn)
    team_state(i, dyn)
    spawn_state(i, comb, dyn)


@kernel
def spawn_state(i, comb, dyn):
    """A reserve row (``C_SPAWN_KIND``) starts every fight and every scene
    absent (``D_ABSENT``, with ``D_DEAD`` set so that nothing targets it, it
    takes no turn, its side does not count it, it holds no hex and stands in
    no survival curve) until :func:`appear`."""
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
    if (comb[j, C_TMASK] >> E_FEAR_AURA) & 1 != 0:
        end_fear_aura(j, comb, dyn, 1)  # its aura arrives with it (none at the start: C_FEAR0)
    return True


@kernel(inline="always")
def waits(i, r, comb, rules, dyn):
    """A row that appeared in round ``r`` takes its first turn next round
    (``spawn_acts: next_round``); Marionette's copy never takes a turn."""
    if comb[i, C_SPAWN_KIND] == 0:
        return False
    if comb[i, C_SPAWN_KIND] == SPAWN_COPY:
        return True
    if rules[R_SPAWN_ACTS] != 0:
        return False
    return dyn[i, D_APPEARED] == r + 1


@kernel
def create_minions(i, w):
    """Minion Creation (L1981-1985, Minor, 1+ OC): 1 minion per overcharge
    point spent, at most its spread (P1) in one turn. The monster creates
    whenever it has the pool and reserve rows left (its scenario's
    ``creates``: the stat block and the most that can exist); the minions
    appear on the free hexes nearest to it (grid). Returns whether it did."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_MINION_CREATION, comb, dyn)
    if s < 0:
        return False
    made = 0
    cost = comb[i, C_TCOST + s]
    for j in range(comb.shape[0]):
        if made >= comb[i, C_TP1 + s]:
            break
        if comb[j, C_SPAWN_KIND] != SPAWN_MINION:
            continue
        if comb[j, C_SPAWN_BY] != i:
            continue
        if dyn[j, D_ABSENT] == 0:
            continue
        if not can_pay(i, s, comb, dyn):
            break
        if not appear(j, dyn[i, D_POS], w):
            break
        if made == 0:
            pay_slot(i, s, w)  # the Minor action: one use, the first point
        elif comb[i, C_MONSTER] != 0:
            dyn[i, D_POOL] -= cost
            dyn[i, K_POOL_SPENT] += cost
        else:
            dyn[i, D_OC + comb[i, C_TROLE + s]] += cost
            dyn[i, K_OC_GAIN + comb[i, C_TROLE + s]] += cost
        made += 1
    dyn[i, K_CREATED] += made
    return made > 0


@kernel
def make_copy(i, w):
    """Marionette (L1831-1834, Minor, 1 OC Attack): while she has no copy
    standing, her reserve row (the copy: her attack, defence and support, 1
    Resolve so that any damage destroys it, no turns, no pool) appears;
    gridless it is a decoy (:func:`choose_target`), on the grid also a second
    origin of her attacks (:func:`.battle_grid.reach`), placed within the
    slot's range (1-4) by ``marionette_place`` (:func:`.battle_grid.copy_cell`);
    on the draft's positions the same within 0-3 positions
    (:func:`.positions.copy_place`, :func:`.positions.reach`).
    It fades at the end of the scene (:func:`spawn_state`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_COPY] != 0:
        return False
    s = find_usable(i, E_MARIONETTE, comb, dyn)
    if s < 0:
        return False
    for j in range(comb.shape[0]):
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            if comb[j, C_SPAWN_BY] == i:
                if dyn[j, D_ABSENT] == 0:
                    return False  # (a destroyed copy's row is made anew below)
                anchor = call(rules[PR_COPY_PLACE], i, s, 0, w)
                if anchor < 0:
                    return False  # the grid: no hex in range
                if not appear(j, anchor, w):
                    return False
                if on_positions(rules):
                    dyn[j, D_PLACE] = anchor
                pay_slot(i, s, w)
                dyn[i, D_COPY] = j + 1
                return True
    return False


@kernel
def copy_destroyed(t, comb, dyn):
    """Her copy took damage and is destroyed (L1834): its row goes back to
    the reserve, so she may make a new one with another use."""
    g = comb[t, C_SPAWN_BY]
    dyn[g, D_COPY] = 0
    dyn[g, K_COPY_ABSORBED] += 1
    dyn[t, D_ABSENT] = 1


@kernel
def heart_creature(j, anchor, w):
    """The Heart Burst's creature (L451-453, ``heart_burst: spawn``, A8a):
    girl ``j``'s reserve row appears on the other side (on the grid on the
    free hex nearest to her); one creature per girl and fight."""
    comb, rules, dyn, streams, bf = unpack(w)
    for m in range(comb.shape[0]):
        if comb[m, C_SPAWN_KIND] == SPAWN_HEART:
            if comb[m, C_SPAWN_BY] == j:
                if appear(m, anchor, w):
                    dyn[j, K_HEART_SPAWNS] += 1
                return


@kernel(inline="always")
def burst_state(i, dyn):
    """Per-scene state of the bursts (none due, no frenzy, no retaliation)."""
    for s in range(3):
        dyn[i, D_PEND + s] = 0
    dyn[i, D_FRENZY] = 0
    dyn[i, D_FURY_PAID] = 0
    dyn[i, D_RETALIATE] = -1
    dyn[i, D_DUE] = 0


@kernel
def team_state(i, dyn):
    """Per-scene state of the team talents, sorcery and the fight clocks
    (row 0): reset at the start of every fight and scene."""
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


@kernel(inline="always")
def is_standing(dyn, i):
    """Standing = Resolve above 0 and not dead."""
    if dyn[i, D_DEAD] != 0:
        return False
    return dyn[i, D_RES] > 0


@kernel
def roll_initiative(comb, rules, st, order, key):
    """Fill ``order`` with combatant indices in acting order.

    'roll': 2d6 + Support (no explosion, no overcharge), higher first; ties
    by the higher Support stat, then at random (L1408, A11c).
    'listed': the order of the scenario file. ``key`` is int64[n] scratch.
    """
    n = comb.shape[0]
    if rules[R_INITIATIVE] == 1:
        for i in range(n):
            order[comb[i, C_ORDER]] = i
        return
    for i in range(n):
        total = sum_d6(st, 2) + comb[i, C_SUP]
        key[i] = (total * 1024 + comb[i, C_SUP] + 512) * 1048576 + randbelow(st, 1048576)
        order[i] = i
    # insertion sort, descending key
    for a in range(1, n):
        v = order[a]
        b = a - 1
        while b >= 0 and key[order[b]] < key[v]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = v


@kernel(inline="always")
def _candidate(j, side, finish, comb, dyn):
    if comb[j, C_SIDE] == side:
        return False
    if dyn[j, D_DEAD] != 0:
        return False
    if dyn[j, D_RES] > 0:
        return True
    return finish


@kernel
def choose_target(i, comb, dyn, st_policy):
    """:func:`pick_target` for a caller that holds the arrays (:func:`target_of` for one
    that holds the world)."""
    return pick_target(i, comb, dyn, st_policy)


@kernel
def target_of(i, w):
    """:func:`pick_target` with the policy stream, called with the world ``w``: two
    words of arguments where the arrays take 26 (the turn asks it every Major)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_target(i, comb, dyn, streams[S_POLICY])


@part
def pick_target(i, comb, dyn, st_policy):
    """Target of combatant ``i``'s attack, or -1 if nobody can be attacked.

    Candidates: living enemies that are standing, and downed enemies (0
    Resolve, not dead) if the policy finishes downed girls. focus-weakest:
    lowest current Resolve (downed first), ties to the first listed;
    strongest-threat: highest Attack stat, ties to the lowest Resolve, then
    the first listed; random-target: uniform over candidates.
    """
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    strongest = comb[i, P_TARGET] == TARGET_STRONGEST
    best = -1
    best_res = 1 << 60
    best_att = -1
    count = 0
    for j in range(n):
        if not _candidate(j, side, finish, comb, dyn):
            continue
        count += 1
        res = target_res(i, j, comb, dyn)
        better = res < best_res
        if strongest:
            if comb[j, C_ATT] != best_att:
                better = comb[j, C_ATT] > best_att
        if better:
            best_res = res
            best_att = comb[j, C_ATT]
            best = j
    if count == 0:
        return best
    if comb[i, P_TARGET] != TARGET_RANDOM:
        if comb[i, C_FOE_COPIES] != 0:
            return decoy(i, best, comb, dyn, st_policy)
        return best
    k = randbelow(st_policy, count)
    for j in range(n):
        if not _candidate(j, side, finish, comb, dyn):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel(inline="always")
def target_res(i, j, comb, dyn):
    """The Resolve ``i``'s targeting policy sees on ``j``: Marionette's copy
    passes for her (A53: her Resolve)."""
    if comb[i, C_FOE_COPIES] != 0:
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            return dyn[comb[j, C_SPAWN_BY], D_RES]
    return dyn[j, D_RES]


@kernel
def decoy(i, best, comb, dyn, st_policy):
    """Gridless, the policy picked ``best``; if her Marionette copy stands,
    the enemy cannot tell them apart (A53, ``marionette_decoy``): a coin flip
    (policy stream), always the copy, or always her."""
    if best < 0:
        return best
    c = dyn[best, D_COPY] - 1
    if c < 0:
        return best
    mode = comb[i, C_FOE_COPIES] - 1
    if mode == 1:
        return c
    if mode == 0:
        if randbelow(st_policy, 2) == 1:
            return c
    return best


@kernel(inline="always")
def beats(a_total, a_sixes, a_stat, d_total, d_sixes, d_stat, attacker_wins_full_tie):
    """The 4.1 contest (L1453): higher total, then more sixes, then higher stat."""
    if a_total != d_total:
        return a_total > d_total
    if a_sixes != d_sixes:
        return a_sixes > d_sixes
    if a_stat != d_stat:
        return a_stat > d_stat
    return attacker_wins_full_tie


@kernel(inline="always")
def sealed(i, dyn):
    """Seal Magic (L2098): ``i`` may use no talent (Boost included) until
    the end of round ``D_SEALED_UNTIL``; passive talents still work."""
    return dyn[i, D_SEALED_UNTIL] >= dyn[0, D_ROUND]


@part
def can_boost(i, stat, pending, comb, dyn):
    """Boost is possible: uses left, standing, and for a girl the +1 overcharge
    within her cap; a monster needs Monster Boost (its only source of Boost
    uses) and a point in its pool (L2068).

    ``pending``: overcharge the roll already carries but that is not on the
    counter yet (its sixes, L149); a boost decided after the roll must count it.
    """
    if dyn[i, D_BOOSTS] <= 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if sealed(i, dyn):
        return False
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= 1
    if dyn[i, D_FRENZY] != 0:
        return False  # a frenzy's only talents are paid with Fury overcharge (L752; A9ii: no Boost)
    return dyn[i, D_OC + stat] + pending + 1 <= comb[i, P_OCCAP]


@kernel(inline="always")
def gain_overcharge(i, stat, amount, comb, rules, dyn):
    """Sixes on a magical check: +1 per six for a girl (L149); a monster loses
    ``monster_six_cost`` per six from its pool, not below 0 (L1892); a witch's
    pool gains them up to her cap (L2216; counted in ``K_OC_GAIN``). Marionette's copy
    defends 'as usual' (L1834): its sixes are the girl's overcharge (and her burst check)."""
    if amount <= 0:
        return
    copy = comb[i, C_SPAWN_KIND] == SPAWN_COPY
    if copy:
        i = comb[i, C_SPAWN_BY]
    if comb[i, C_MONSTER] != 0:
        if comb[i, C_MONSTER] == WITCH:
            # a witch "still gains overcharge whenever she rolls 6s", up to her cap (L2216-2222)
            room = comb[i, C_POOL_CAP] - dyn[i, D_POOL]
            if amount > room:
                amount = room
            dyn[i, D_POOL] += amount
            dyn[i, K_OC_GAIN] += amount
            return
        spend = amount * rules[R_MONSTER_SIX_COST]
        if spend > dyn[i, D_POOL]:
            spend = dyn[i, D_POOL]
        dyn[i, D_POOL] -= spend
        dyn[i, K_POOL_SPENT] += spend
    elif dyn[i, D_FRENZY] == 0:  # a frenzied girl gains no overcharge (L752)
        if comb[i, C_SIDEMASK2] != 0:
            amount = dampen_overcharge(i, stat, amount, comb, rules, dyn)
        dyn[i, D_OC + stat] += amount
        dyn[i, K_OC_GAIN + stat] += amount
        if copy:
            check_bursts(i, comb, rules, dyn)


@kernel
def dampen_overcharge(i, stat, amount, comb, rules, dyn):
    """Dampen Overcharge (seed 000 L1748-1752; free, out of turn, 2/Scene, 1
    Support overcharge): a Medium on girl ``i``'s side halves (round down)
    the ``amount`` of overcharge ``i`` takes on ``stat`` from one roll or one
    talent cost. Returns the amount ``i`` takes.

    Who: the first standing girl of her side (listed order) holding it with
    uses left, other than ``i`` unless ``dampen_self``; she pays only if her
    own counter stays below ``burst_at``. When (``dampen_overcharge_ai``):
    'burst' = the gain would make ``i`` burst and half of it would not;
    'always' = any gain of 2 or more."""
    if amount < 1:
        return amount
    after = dyn[i, D_OC + stat] + amount // 2
    if rules[R_DAMPEN_OVERCHARGE_AI] == 0:
        if dyn[i, D_OC + stat] + amount < rules[R_BURST_AT]:
            return amount
        if after >= rules[R_BURST_AT]:
            return amount
    elif amount < 2:
        return amount
    for d in range(comb.shape[0]):
        if comb[d, C_SIDE] != comb[i, C_SIDE] or comb[d, C_MONSTER] != 0:
            continue
        if d == i and rules[R_DAMPEN_SELF] == 0:
            continue
        if not is_standing(dyn, d):
            continue
        s = find_talent(d, E_DAMPEN_OC, comb, dyn)
        if s < 0:
            continue
        pay_stat = comb[d, C_TROLE + s]
        cost = comb[d, C_TCOST + s]
        if dyn[d, D_FRENZY] != 0:  # a frenzied girl: only Fury-linked, paid with her Fury (L752, A9ii)
            if not frenzy_can_pay(d, s, comb, dyn):
                continue
            if dyn[d, D_TUSES + s] > 0:
                dyn[d, D_TUSES + s] -= 1
            dyn[d, K_TUSE + s] += 1
            spend_fury(d, cost, dyn)
            dyn[i, K_DAMPENED] += amount - amount // 2
            return amount // 2
        if d == i and pay_stat == stat:
            if after + cost >= rules[R_BURST_AT]:
                continue
        elif dyn[d, D_OC + pay_stat] + cost >= rules[R_BURST_AT]:
            continue
        if dyn[d, D_TUSES + s] > 0:
            dyn[d, D_TUSES + s] -= 1
        dyn[d, K_TUSE + s] += 1
        dyn[d, D_OC + pay_stat] += cost   # paid directly: her own cost is not dampened again
        dyn[d, K_OC_GAIN + pay_stat] += cost
        dyn[i, K_DAMPENED] += amount - amount // 2
        return amount // 2
    return amount


@kernel
def power_dampening(i, comb, dyn):
    """Power Dampening (seed 000 L1554-1558; free, 2/Scene): a die of her
    magical action showed 1, so she removes 1 overcharge from herself or an
    ally: the fullest counter of a living girl of her side (her own on a
    tie, then the listed order). P1 = 0 (the draft, DRAFT L175): an ally only."""
    s = find_talent(i, E_POWER_DAMPENING, comb, dyn)
    if s < 0:
        return
    best = -1
    best_stat = 0
    best_oc = 0
    for k in range(comb.shape[0] + 1):
        j = i if k == 0 else k - 1
        if k > 0 and j == i:
            continue
        if j == i and comb[i, C_TP1 + s] == 0:  # the draft: 'from an ally' only (DRAFT L175)
            continue
        if comb[j, C_SIDE] != comb[i, C_SIDE] or comb[j, C_MONSTER] != 0:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        for st in range(3):
            if dyn[j, D_OC + st] > best_oc:
                best_oc = dyn[j, D_OC + st]
                best = j
                best_stat = st
    if best < 0:
        return
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    dyn[i, K_TUSE + s] += 1
    dyn[best, D_OC + best_stat] -= 1
    dyn[best, K_DAMPENED] += 1


@kernel
def overcharge_radiation(w):
    """Overcharge Radiation (seed 000 L2047-2049): at the end of a scene every
    magical girl near a monster with it (``radiation_range``; gridless: all)
    takes 1d6 overcharge, per such monster, on the stat ``radiation_stat``
    names (A34). A dead girl takes none. Bursts it causes are checked (and,
    with ``bursts: play``, played by the caller's :func:`settle`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    for m in range(n):
        if not has_code(m, E_RADIATION, comb):
            continue
        role = C_RA
        if comb[m, C_DEF] > comb[m, C_ATT]:
            role = C_RD
        if comb[m, C_SUP] > comb[m, C_ATT] and comb[m, C_SUP] > comb[m, C_DEF]:
            role = C_RS
        for j in range(n):
            if comb[j, C_MONSTER] != 0 or dyn[j, D_DEAD] != 0:
                continue
            if rules[R_RADIATION_RANGE] >= 0 and on_grid(bf):
                if dyn[j, D_POS] >= 0 and dyn[m, D_POS] >= 0:
                    if call(rules[PR_DISTANCE], j, m, 0, w) > rules[R_RADIATION_RANGE]:
                        continue
            stat = comb[j, role]
            if rules[R_RADIATION_STAT] == 1:
                stat = 0
                for st in range(1, 3):
                    if dyn[j, D_OC + st] > dyn[j, D_OC + stat]:
                        stat = st
            amount = sum_d6(streams[S_CHECK], 1)
            before = dyn[j, D_OC + stat]
            gain_overcharge(j, stat, amount, comb, rules, dyn)
            dyn[j, K_RADIATION] += dyn[j, D_OC + stat] - before
            check_bursts(j, comb, rules, dyn)


@kernel
def evasion(t, a_total, d_total, comb, rules, dyn):
    """The draft's Evasion (DRAFT L113-117; free, 1/Scene): 'just been hit
    ... before damage is rolled', + P1 to her defence result; the attacker
    misses if that exceeds his result (strictly), and boosts no further. She
    uses it only when it turns the hit into a miss. Returns True if it did."""
    s = find_usable(t, E_EVASION, comb, dyn)
    if s < 0:
        return False
    if d_total + comb[t, C_TP1 + s] <= a_total:
        return False
    pay_talent(t, s, comb, rules, dyn)
    return True


@kernel
def try_hex(i, w):
    """The draft's Hex (DRAFT L251-255; Minor, no cost): a Hex on the
    policy's target (on positions within 0-2, :func:`range_target`), which takes P1 damage at the start of every round until
    the end of the scene (not an attack; Hexes stack); one Hex a round."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_HEX, comb, dyn)
    if s < 0:
        return False
    if dyn[i, D_HEX_ROUND] == dyn[0, D_ROUND]:
        return False
    t = range_target(i, s, w)  # positions: within 0-2
    if t < 0:
        return False
    pay_slot(i, s, w)
    dyn[t, D_HEXES] += comb[i, C_TP1 + s]
    if dyn[t, D_AMP_HEX_BY] == i + 1:  # her Amplify Magic on t (DRAFT L267): her Hexes deal D_AMP_HEX times
        extra = comb[i, C_TP1 + s] * (dyn[t, D_AMP_HEX] - 1)
        dyn[t, D_HEXES] += extra
        dyn[t, D_HEX_EXTRA] += extra
    dyn[i, D_HEX_ROUND] = dyn[0, D_ROUND]
    return True


@kernel
def mood_for(j, rules, comb):
    """The status (1 Excited, 2 Calm) Empower or Rouse gives ``j`` (``mood_status``)."""
    m = rules[R_MOOD_STATUS]
    if m == 0:
        return 1
    if m == 1:
        return 2
    return 1 if comb[j, C_ATT] >= comb[j, C_DEF] else 2


@kernel
def try_mood(i, to_self, w):
    """The draft's Empower (DRAFT L17-21; 1/Scene, herself, ``to_self``) and
    Rouse (L235-239; Minor, 1/Scene, an ally within 0-2, gridless any):
    Excited or Calm (:func:`mood_for`) on one who has neither; Rouse picks
    the first listed standing ally without one (on positions within its
    ``range_positions``, :func:`within`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] != E_MOOD:
            continue
        if (comb[i, C_TP1 + s] != 0) != to_self:
            continue
        if dyn[i, D_TUSES + s] == 0 or not can_pay(i, s, comb, dyn):
            continue
        j = -1
        if to_self:
            if dyn[i, D_MOOD] == 0:
                j = i
        else:
            for k in range(comb.shape[0]):
                if other_ally(i, k, comb, dyn):
                    if dyn[k, D_MOOD] == 0:
                        if within(i, k, s, w):  # positions: 0-2 (range_positions)
                            j = k
                            break
        if j < 0:
            continue
        pay_slot(i, s, w)
        dyn[j, D_MOOD] = mood_for(j, rules, comb)
        return True
    return False


@kernel
def try_regeneration(i, comb, rules, dyn):
    """The draft's Regeneration (DRAFT L137-141; free, 1/Episode): once she has
    lost Resolve, she turns it on: P1 Resolve at the start of every round for
    the rest of the scene, never above her Base Resolve (:func:`round_effects`)."""
    if dyn[i, D_REGEN] != 0 or dyn[i, D_RES] >= comb[i, C_RES]:
        return
    s = find_usable(i, E_REGEN, comb, dyn)
    if s < 0:
        return
    pay_talent(i, s, comb, rules, dyn)
    dyn[i, D_REGEN] = comb[i, C_TP1 + s]


@kernel
def round_effects(j, w):
    """Start of a round for ``j``: Regeneration's Resolve (standing only: at 0
    she is a non-magical human), then her Hexes' damage (DRAFT L255: not an
    attack; it may drop her, or wound her at 0). Returns True if damage was dealt."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_REGEN] != 0:
        if dyn[j, D_RES] > 0:
            _heal(j, j, dyn[j, D_REGEN], comb, dyn)
    if dyn[j, D_HEXES] != 0:
        took = apply_damage(j, dyn[j, D_HEXES], w)
        dyn[j, K_HEX_DMG] += took
        return True
    return False


@kernel
def detonation_slot(i, t, comb, rules, dyn):
    """The draft's Magic Detonation (DRAFT L307-311; Major, 1 Attack
    overcharge): a basic attack whose hit deals the target's overcharge
    instead of the usual damage (:func:`detonation_damage`); the AI uses it
    when that is at least ``detonation_min``. Returns the slot paid, or -1."""
    s = find_usable(i, E_DETONATION, comb, dyn)
    if s < 0:
        return -1
    if detonation_damage(t, comb, dyn) < rules[R_DETONATION_MIN]:
        return -1
    pay_talent(i, s, comb, rules, dyn)
    return s


@kernel(inline="always")
def detonation_damage(t, comb, dyn):
    """What Magic Detonation deals ``t``: 'the amount of Overcharge (or Magic
    Overcharge if it's a magical girl) they currently have' (DRAFT L311): a
    girl's Magic (4.1's Judgment) counter, a monster's or witch's pool."""
    if comb[t, C_MONSTER] != 0:
        return dyn[t, D_POOL]
    return dyn[t, D_OC + JUDGMENT]


@kernel(inline="always")
def check_bursts(i, comb, rules, dyn):
    """Count a burst for every stat of girl ``i`` at or above ``burst_at`` (L161).

    A burst "happens as soon as the counter hits 13": once per crossing. With
    ``burst_resets`` the counter returns to 0 (L151); without it the counter
    stays and ``D_BURSTED`` keeps the same crossing from counting again.
    """
    if comb[i, C_MONSTER] != 0:
        return
    at = rules[R_BURST_AT]
    if dyn[i, D_OC] < at:  # no counter there: nothing to count (no call)
        if dyn[i, D_OC + 1] < at:
            if dyn[i, D_OC + 2] < at:
                return
    if rules[R_BURSTS] != BURSTS_COUNT:
        mark_bursts(i, rules, dyn)
        return
    count_bursts(i, comb, rules, dyn)


@kernel
def count_bursts(i, comb, rules, dyn):
    """``bursts: count``: count a burst per stat at or above ``burst_at`` and
    reset the counter (``burst_resets``); the duel fast path uses this in
    either mode and replays the trials where it counted one (:mod:`.fast`)."""
    for s in range(3):
        if dyn[i, D_OC + s] >= rules[R_BURST_AT]:
            if rules[R_BURST_RESETS] != 0:
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_OC + s] = 0
                dyn[i, D_BURST_TRIAL + s] = 1
            elif dyn[i, D_BURSTED + s] == 0:
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_BURSTED + s] = 1
                dyn[i, D_BURST_TRIAL + s] = 1


@kernel
def mark_bursts(i, rules, dyn):
    """``bursts: play``: a counter at or above ``burst_at`` makes a burst due
    (counted now, played by :func:`settle` after the action, A7b). A frenzied
    girl's Fury counter is her frenzy's pool, not a new burst; a lost girl
    bursts no more."""
    if dyn[i, D_LOST] != 0:
        return
    for s in range(3):
        if dyn[i, D_OC + s] >= rules[R_BURST_AT]:
            if dyn[i, D_PEND + s] == 0:
                if s == FURY:
                    if dyn[i, D_FRENZY] != 0:
                        continue
                dyn[i, D_PEND + s] = 1
                dyn[0, D_DUE] = 1
                dyn[i, K_BURSTS + s] += 1
                dyn[i, D_BURST_TRIAL + s] = 1


@kernel
def revive_roll(t, comb, rules, dyn, streams):
    """The revive roll (L1445-1451): 2d6! + Support, overcharge and Resolve by band.

    The Resolve comes back at the start of her next turn (A19a); it is
    stored in ``D_PENDING``.
    """
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[t, C_SUP] - roll_penalty(t, rules, dyn)
    stat = comb[t, C_RS]
    if total <= rules[R_REVIVE_BANDS]:
        band = 0
    elif total <= rules[R_REVIVE_BANDS + 1]:
        band = 1
    else:
        band = 2
    gain_overcharge(t, stat, sixes + rules[R_REVIVE_OC + band], comb, rules, dyn)
    dyn[t, D_PENDING] = sum_d6(streams[S_DAMAGE], 1) + rules[R_REVIVE_BONUS + band]
    dyn[t, D_REVIVES] += 1
    dyn[t, K_REVIVES] += 1


@kernel
def dropped(t, w):
    """``t`` has just dropped to 0 Resolve (L1420): a KO; a monster is dead
    (L1892); a girl makes her revive roll if the rules allow one (L1445,
    A19a), or rolls it as her next Major action in the draft."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, K_KOS] += 1
    if dyn[t, D_KO] == 0:
        dyn[t, D_KO] = 1
        dyn[t, K_KO_TRIALS] += 1
    if (comb[t, C_SIDEMASK] | comb[t, C_FOEMASK]) != 0:  # talents of her side or her enemies on her
        call(rules[PR_DROP_EFFECTS], t, 0, 0, w)
    if comb[t, C_MONSTER] != 0:
        if (comb[t, C_TMASK] >> E_BROOD) & 1 != 0:
            if call(rules[PR_BROOD], t, 0, 0, w) != 0:
                return
        dyn[t, D_DEAD] = 1
        dyn[t, K_DEATHS] += 1
        if (comb[t, C_TMASK] >> E_FEAR_AURA) & 1 != 0:
            end_fear_aura(t, comb, dyn)
        if comb[t, C_SPAWN_KIND] == SPAWN_COPY:
            copy_destroyed(t, comb, dyn)
    elif rules[R_REVIVE] != 0:
        allowed = True
        if dyn[t, D_FRENZY] != 0:
            allowed = end_frenzy_on_drop(t, rules, dyn)
        if rules[R_REVIVE_LIMIT] >= 0:
            if dyn[t, D_REVIVES] >= rules[R_REVIVE_LIMIT]:
                allowed = False
        if allowed:
            if rules[R_REVIVE_TIMING] == 1:
                dyn[t, D_PENDING] = -2  # the draft: she rolls as her next Major action
            else:
                revive_roll(t, comb, rules, dyn, streams)
    elif dyn[t, D_FRENZY] != 0:
        end_frenzy_on_drop(t, rules, dyn)


@kernel
def end_frenzy_on_drop(t, rules, dyn):
    """A frenzied girl at 0 Resolve: the frenzy ends (L760) and its Fury
    counter is gone; returns whether she still makes the revive roll (A9iv)."""
    dyn[t, D_FRENZY] = 0
    dyn[t, D_OC + FURY] = 0
    return rules[R_FURY_DROP] == 0


@kernel(inline="always")
def apply_damage(t, dmg, w):
    """Deal ``dmg`` to ``t``; returns the damage that took effect.

    Above 0 Resolve: Resolve falls, overflow is ignored (L1420); reaching 0
    drops her (revive roll if allowed) or kills a monster. At 0 Resolve: the
    damage is wound damage; ``death_wounds`` of it kills (L1422, A16a).
    The draft's Link (DRAFT L165-169, ``damage: 1``) on ``t``: her standing
    secondary takes the same ``dmg`` too (:func:`link_damage`).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_LINK_DMG] != 0:
        call(rules[PR_LINK_DAMAGE], t, 0, dmg, w)
    return _damage(t, dmg, w)


@kernel
def link_damage(t, dmg, w):
    """The draft's Link copies damage (DRAFT L167: "any effect (damage, ...)"):
    the primary ``t`` is about to take ``dmg``; her secondary, if standing,
    takes the same amount first (counted in her ``K_TAKEN``; a copy is not
    copied on). Returns what the secondary took."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dmg <= 0:
        return 0
    if dyn[t, D_DEAD] != 0:
        return 0
    k = dyn[t, D_LINK_TO]
    if k < 0:
        return 0
    if not is_standing(dyn, k):
        return 0
    took = _damage(k, dmg, w)
    dyn[k, K_TAKEN] += took
    return took


@kernel
def take_wound(t, dmg, rules, dyn):
    """A hit of ``dmg`` wound damage on ``t`` at 0 Resolve (L1422; A16, rule
    ``wound_model``), already counted in ``D_WOUNDS`` (damage) and ``D_WOUND_HITS``
    (hits). Returns whether the wound kills her.

    * ``track`` (A16a): one track of all her wound damage; ``death_wounds`` of
      it kills.
    * ``per_hit`` (A16b): each hit a separate wound of the level its own damage
      gives (kept in ``D_WOUND_TOP``, the worst, and ``D_WOUND_LEVELS``, their
      sum); a single hit of ``death_wounds`` kills.
    * ``boxes`` (A16c): each hit fills a box, levels 1, 2, 3; the fourth kills.
    """
    model = rules[R_WOUND_MODEL]
    if model == 0:
        return dyn[t, D_WOUNDS] >= rules[R_DEATH_WOUNDS]
    if model == 1:
        lv = wound_level(dmg)
        if lv > dyn[t, D_WOUND_TOP]:
            dyn[t, D_WOUND_TOP] = lv
        dyn[t, D_WOUND_LEVELS] += lv
        return dmg >= rules[R_DEATH_WOUNDS]
    return dyn[t, D_WOUND_HITS] > 3


@kernel
def wound_levels(t, worst, rules, dyn):
    """Her wound level by the wound model (:func:`take_wound`): ``track`` the
    level of her total wound damage (:func:`wound_level`), ``boxes`` the boxes
    filled (at most 3), ``per_hit`` her worst wound (``worst``, for the roll
    penalty) or the sum of her wounds' levels (for the maximum-Resolve penalty
    between scenes, A18i a)."""
    model = rules[R_WOUND_MODEL]
    if model == 0:
        return wound_level(dyn[t, D_WOUNDS])
    if model == 1:
        if worst:
            return dyn[t, D_WOUND_TOP]
        return dyn[t, D_WOUND_LEVELS]
    h = dyn[t, D_WOUND_HITS]
    return h if h < 3 else 3


@kernel(inline="always")
def human_penalty(t, rules, dyn):
    """The penalty her wounds give the rolls of ``t`` at 0 Resolve, a non-magical
    human (L1422: -2 / -3 / -4 by wound level, rule ``wound_roll_penalty``; a
    transformed girl ignores them, L1443)."""
    lv = wound_levels(t, True, rules, dyn)
    if lv <= 0:
        return 0
    return rules[R_WOUND_ROLL_PENALTY + lv - 1]


@kernel
def _damage(t, dmg, w):
    """:func:`apply_damage` without the Link's copy."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dmg <= 0:
        return 0
    if dyn[t, D_DEAD] != 0:
        return 0
    if dyn[t, D_RES] > 0:
        take = dmg if dmg < dyn[t, D_RES] else dyn[t, D_RES]
        dyn[t, D_RES] -= take
        if comb[t, C_TMASK] != 0:
            if dyn[t, D_RES] * 2 <= comb[t, C_RES]:
                dyn[t, D_STICKY] = 1  # Memory Blaze: reached half of its Base Resolve
        if dyn[t, D_RES] == 0:
            dropped(t, w)
        return take
    dyn[t, D_WOUNDS] += dmg
    dyn[t, D_WOUND_HITS] += 1
    dyn[t, K_WOUND_DMG] += dmg
    if take_wound(t, dmg, rules, dyn):
        dyn[t, D_DEAD] = 1
        dyn[t, D_PENDING] = -1
        dyn[t, K_DEATHS] += 1
    return dmg


@part
def _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, comb, rules):
    mode = comb[i, P_BOOST]
    if mode == BOOST_ALWAYS:
        return boosted == 0
    if mode == BOOST_LOSING:
        if rules[R_BOOST_TIMING] == 1:  # declared before rolling: boost when the stat is lower
            if boosted != 0:
                return False
            return own_stat < opp_stat
        if not losing:
            return False
        return deficit <= comb[i, P_MARGIN]
    return False


@kernel(inline="always")
def _boost_ok(i, role, boosted, bpr, losing, deficit, own_stat, opp_stat, pending, comb, rules, dyn):
    if boosted >= bpr:
        return False
    if rules[R_BOOST_TIMING] == 1:
        pending = 0  # declared before rolling: the roll's sixes are not known yet
    if not can_boost(i, role, pending, comb, dyn):
        return False
    return _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, comb, rules)


@kernel(inline="always")
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


@kernel(inline="always")
def _takes_passive(t, comb, rules):
    if rules[R_PASSIVE_DEFENCE] < 0:
        return False
    return comb[t, P_PASSIVE] != 0


@kernel(inline="always")
def _spend_boost(i, role, chk, comb, rules, dyn):
    """One Boost (L1565): a use, +1 overcharge on the rolled stat, and an
    exploding die; returns the die's ``(total, sixes)``. A monster's Monster
    Boost costs 1 from its pool (L2068)."""
    dyn[i, D_BOOSTS] -= 1
    dyn[i, K_BOOSTS] += 1
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= 1
        dyn[i, K_POOL_SPENT] += 1
    else:
        gain_overcharge(i, role, 1, comb, rules, dyn)
    return exploding_d6(chk, 1)


@kernel
def intercept(i, t, dmg, w):
    """Intercept (L1469, A26a), called by :func:`attack` after a hit
    on ``t`` for ``dmg`` when ``D_GUARD`` names an ally (the grid turn, :func:`.battle_grid.guard_for`; Cover on positions, :func:`.positions.ready`): if her policy is
    willing she rolls 2d6! + Defence; returns the damage left for ``t``."""
    comb, rules, dyn, streams, bf = unpack(w)
    j = dyn[t, D_GUARD]
    dyn[t, D_GUARD] = -1
    if dmg <= 0:
        return dmg
    if not is_standing(dyn, j):
        return dmg
    if dyn[t, D_RES] > 0:  # a downed target always needs it
        left = dyn[t, D_RES] - dmg
        if left * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            return dmg
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[j, C_DEF] - roll_penalty(j, rules, dyn)
    gain_overcharge(j, comb[j, C_RD], sixes, comb, rules, dyn)
    if total <= rules[R_INTERCEPT_BANDS]:
        check_bursts(j, comb, rules, dyn)
        return dmg
    take = dmg
    if total > rules[R_INTERCEPT_BANDS + 1]:
        take = dmg // 2
        if rules[R_INTERCEPT_HALF] == 1:
            take = (dmg + 1) // 2
    d = apply_damage(j, take, w)
    dyn[j, K_TAKEN] += d
    dyn[i, K_DEALT] += d
    dyn[j, K_INTERCEPTS] += 1
    dyn[j, K_INTERCEPT_DMG] += d
    check_bursts(j, comb, rules, dyn)
    return 0


@part
def attack(i, t, w):
    """Basic attack of ``i`` on ``t`` (L1453). Returns the damage dealt (>= 0), -1 on a miss.

    In this order: what her talents add before the roll (:func:`attack_bonus`:
    Killing Blow, Binding/Debilitating Attack, Desperation, Memory Blaze, Follow
    Target... declared and paid, Make an Opening, Veil); the rolls
    (:func:`roll_attack`, :func:`roll_defence`: the defender's Ranged/Melee Defence
    dice and Second Wind bonus, a minion's passive defence, a human's Tenacity);
    the boosts and a re-roll of a miss (:func:`contest`: Want it Hard, Want it
    Now); the sixes' overcharge; on a hit the damage (:func:`hit_damage`: bonuses,
    then Intercept and the reductions: Thick Hide, Shield, Bulwark, Reflector) and
    what it sets off (:func:`land_hit`: Drain Life, ailments, Make an Opening,
    Inflict, Seal Magic); after the attack Backlash, Disruptive Strikes and a
    frenzied target's retaliation (:func:`after_attack`).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus, dmg_bonus, kb_slot, ail_slot, open_slot = attack_bonus(i, t, w)
    if dyn[i, D_MOOD] == 1:
        a_bonus += rules[R_EXCITED_BONUS]  # the draft's Excited (a reading: the seed never defines it)
    a_pd, d_pd, combined = roll_modes(i, t, comb, rules, dyn, streams)
    a_total, a_six, a_ones, od_total, od_six, first_die = roll_attack(i, a_bonus, combined, a_pd, comb, rules, dyn,
                                                                      streams)
    passive, magical, d_stat, d_total, d_six, d_ones = roll_defence(i, t, combined, d_pd, od_total, od_six, w)
    dmg_dice = damage_dice(combined, first_die, rules, streams)
    hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones = contest(
        i, t, passive, magical, a_bonus, a_total, a_six, a_ones, a_pd, d_stat, d_total, d_six, w)
    if hit:
        if comb[t, C_TMASK] != 0:
            if magical:
                if (comb[t, C_TMASK] >> E_MORE) & 1 != 0:
                    if has_code(t, E_EVASION, comb):
                        hit = call(rules[PR_EVASION], t, a_total, d_total, w) == 0
    gain_overcharge(i, comb[i, C_RA], a_six, comb, rules, dyn)
    if magical:
        gain_overcharge(t, comb[t, C_RD], d_six, comb, rules, dyn)
    if a_ones > 0:
        call(rules[PR_DAMPEN_ROLL], i, 0, 0, w)
    if d_ones > 0:
        call(rules[PR_DAMPEN_ROLL], t, 0, 0, w)
    dyn[i, K_ATTACKS] += 1
    fury_dice = 0
    if dyn[i, D_FRENZY] != 0:
        fury_dice = fury_spend(i, hit, rules, dyn)
    dealt = -1
    if not hit:
        if magical:
            if (comb[t, C_TMASK] >> E_AURA_STRENGTH) & 1 != 0:
                call(rules[PR_MISS], t, i, 0, w)
    if hit:
        dmg = hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, kb_slot, fury_dice, w)
        dealt = land_hit(i, t, dmg, ail_slot, open_slot, w)
    after_attack(i, t, hit, w)
    return dealt


@part
def attack_bonus(i, t, w):
    """What ``i``'s talents and her side's add to her attack on ``t`` before the roll:
    ``(attack bonus, damage bonus, Killing Blow-like slot, ailment slot, Make an
    Opening slot)`` (the hook DECLARE, :func:`declare_riders`, when her talents open
    its gate; Make an Opening's bonus from an ally's; Veil's penalty)."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    dmg_bonus = 0
    kb_slot = -1
    ail_slot = -1
    open_slot = -1
    if (comb[i, C_TMASK] & DECLARE_GATE) | (comb[i, C_TMASK2] & DECLARE_GATE2) != 0:
        call(rules[PR_DECLARE], i, t, 0, w)  # declare_riders, into her D_DECLARE
        a_bonus = dyn[i, D_DECLARE]
        dmg_bonus = dyn[i, D_DECLARE + 1]
        kb_slot = dyn[i, D_DECLARE + 2]
        ail_slot = dyn[i, D_DECLARE + 3]
        open_slot = dyn[i, D_DECLARE + 4]
    if (comb[i, C_SIDEMASK] >> E_OPENING) & 1 != 0:
        a_bonus += opening_bonus(i, t, comb, dyn)
    if (comb[t, C_TMASK] >> E_VEIL) & 1 != 0:
        a_bonus -= veil_penalty(i, t, comb, rules, dyn)
    return a_bonus, dmg_bonus, kb_slot, ail_slot, open_slot


@part
def roll_modes(i, t, comb, rules, dyn, streams):
    """How the dice of ``i``'s attack on ``t`` are drawn: ``(attacker's Power Dampening,
    defender's, combined)``. A random check stream and a rolled 2d6! defence: one draw
    gives both pools and the first damage die (:func:`sim.dice.opposed_2d6`; the duel
    fast path draws the same); injected dice go die by die in the book's order. Power
    Dampening rolls her dice one by one to see the 1s (L1554)."""
    combined = False
    if streams[S_CHECK, 6] == 0:
        if comb[t, C_PDEF] < 0:
            if dyn[t, D_RES] > 0:
                combined = not _takes_passive(t, comb, rules)
    a_pd = False
    if comb[i, C_TMASK] != 0:
        a_pd = has_code(i, E_POWER_DAMPENING, comb)
    d_pd = False
    if comb[t, C_TMASK] != 0:
        if rules[R_POWER_DAMPENING_ROLLS] == 1:
            d_pd = has_code(t, E_POWER_DAMPENING, comb)
    if a_pd | d_pd:
        combined = False
    return a_pd, d_pd, combined


@part
def roll_attack(i, a_bonus, combined, a_pd, comb, rules, dyn, streams):
    """``i``'s 2d6! + Attack (L1453) with her bonus (the draft's Excited in it): ``(total, sixes, ones, the defence's
    total and sixes of a combined draw, the first damage die of a combined draw)``."""
    chk = streams[S_CHECK]
    a_ones = 0
    first_die = 0
    if combined:
        a_total, a_six, od_total, od_six, first_die = opposed_2d6(chk)
    elif a_pd:
        a_total, a_six, a_ones = exploding_d6_ones(chk, 2)
        od_total = 0
        od_six = 0
    else:
        a_total, a_six = exploding_d6(chk, 2)
        od_total = 0
        od_six = 0
    a_total += comb[i, C_ATT] - roll_penalty(i, rules, dyn) + a_bonus
    return a_total, a_six, a_ones, od_total, od_six, first_die


@part
def roll_defence(i, t, combined, d_pd, od_total, od_six, w):
    """``t``'s defence against ``i``: ``(passive, magical, stat, total, sixes, ones)``. A
    minion's passive defence (L2170): no roll, no sixes, no boosts, hit by a higher
    total or an equal one with a six (A35); the draft's passive defence (Defence + 4,
    DRAFT L486); 2d6! + Defence with Ranged/Melee Defence's extra dice (L2084), Second
    Wind's bonus, the draft's Calm; a human at 0 Resolve 2d6 + Tenacity (L1455)."""
    comb, rules, dyn, streams, bf = unpack(w)
    chk = streams[S_CHECK]
    d_ones = 0
    if comb[t, C_PDEF] >= 0:
        return True, False, 0, comb[t, C_PDEF], 0, d_ones
    if dyn[t, D_RES] > 0:
        d_stat = comb[t, C_DEF]
        if _takes_passive(t, comb, rules):
            return False, False, d_stat, d_stat + rules[R_PASSIVE_DEFENCE], 0, d_ones
        if combined:
            d_total = od_total
            d_six = od_six
        elif d_pd:
            d_total, d_six, d_ones = exploding_d6_ones(chk, 2)
        else:
            d_total, d_six = exploding_d6(chk, 2)
        d_extra = 0
        if (comb[t, C_TMASK] >> E_DEFENCE_DIE) & 1 != 0:
            d_extra = defence_dice(i, t, comb, dyn)
        if d_extra > 0:
            x_total, x_six = exploding_d6(chk, d_extra)
            d_total += x_total
            d_six += x_six
        d_total += d_stat - roll_penalty(t, rules, dyn) + dyn[t, D_DEF_BONUS]
        if dyn[t, D_MOOD] == 2:
            d_total += rules[R_CALM_BONUS]  # the draft's Calm (a reading)
        return False, True, d_stat, d_total, d_six, d_ones
    if rules[R_DOWNED_DEFENCE] == 0:  # a human defends with Tenacity, no explosions
        d_stat = comb[t, C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - roll_penalty(t, rules, dyn) - human_penalty(t, rules, dyn)
        return False, False, d_stat, d_total, 0, d_ones
    return False, False, 0, -(1 << 40), 0, d_ones


@part
def damage_dice(combined, first_die, rules, streams):
    """The damage dice of the attack, drawn now from a random damage stream (every
    attack, hit or miss, the first die from a combined draw: the duel fast path
    stays branch-free and bit-identical, and the values a hit uses are fair dice
    either way); -1 with injected dice, read on a hit only."""
    dmg_st = streams[S_DAMAGE]
    ndice = rules[R_DAMAGE_DICE]
    dmg_dice = -1
    if dmg_st[6] == 0:
        if combined:
            dmg_dice = first_die
            if ndice > 1:
                dmg_dice += sum_dice(dmg_st, ndice - 1, 6)
        else:
            dmg_dice = sum_dice(dmg_st, ndice, 6)
    return dmg_dice


@part
def contest(i, t, passive, magical, a_bonus, a_total, a_six, a_ones, a_pd, d_stat, d_total, d_six, w):
    """The boosts and the re-roll (L1453, L1565, L1545): each side boosts by its policy
    (:func:`_boost_ok`) until neither will; a miss may be re-rolled once with Want it
    Hard, Want it Now (the first roll's sixes still give overcharge, its boost dice
    are lost, A55 i-ii; the draft's Second Chance Attack takes her Minor). Returns
    ``(hit, attack total, sixes, boosts, defence total, sixes, boosts, ones)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    chk = streams[S_CHECK]
    a_stat = comb[i, C_ATT]
    a_role = comb[i, C_RA]
    d_role = comb[t, C_RD]
    a_boosts = 0
    d_boosts = 0
    bpr = rules[R_BOOSTS_PER_ROLL]
    full_tie = rules[R_FULL_TIE] == 1
    boosting = comb[i, P_BOOST] != BOOST_NEVER
    if magical:
        if comb[t, P_BOOST] != BOOST_NEVER:
            boosting = True
    tie_mode = rules[R_MINION_TIE]
    rerolled = comb[i, C_TMASK] == 0  # without talents there is nothing to re-roll with
    hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    while True:
        while boosting:
            hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
            if _boost_ok(i, a_role, a_boosts, bpr, not hit, d_total - a_total, a_stat, d_stat, a_six,
                         comb, rules, dyn):
                r, s = _spend_boost(i, a_role, chk, comb, rules, dyn)
                a_total += r
                a_six += s
                a_boosts += 1
                continue
            d_ok = False
            if magical:
                d_ok = _boost_ok(t, d_role, d_boosts, bpr, hit, a_total - d_total, d_stat, a_stat, d_six,
                                 comb, rules, dyn)
            if d_ok:
                r, s = _spend_boost(t, d_role, chk, comb, rules, dyn)
                d_total += r
                d_six += s
                d_boosts += 1
                continue
            break
        if hit:
            break
        if rerolled:
            break
        rerolled = True
        s_re = find_usable(i, E_REROLL, comb, dyn)
        if s_re < 0:
            break
        if comb[i, C_TP1 + s_re] != 0:
            if dyn[i, D_MINOR_USED] != 0:
                break
            dyn[i, D_MINOR_USED] = 1
        pay_slot(i, s_re, w)
        gain_overcharge(i, a_role, a_six, comb, rules, dyn)
        if a_pd:
            a_total, a_six, re_ones = exploding_d6_ones(chk, 2)
            a_ones += re_ones
        else:
            a_total, a_six = exploding_d6(chk, 2)
        a_total += a_stat - roll_penalty(i, rules, dyn) + a_bonus
        a_boosts = 0
        hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    return hit, a_total, a_six, a_boosts, d_total, d_six, d_boosts, a_ones


@part
def hit_damage(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, kb_slot, fury_dice, w):
    """The damage of ``i``'s hit on ``t`` before it lands (L1453, A22 order): the dice,
    her attack's bonus, +2 per her six and -2 per his, the boosts' +/-2 (Monster Boost
    only on attacks, L2068), her talents' bonuses (All or Nothing, Killing Blow), the
    frenzy's +1d6 (L756), Magic Detonation's overcharge instead, the minimum, a weapon's
    1d6 to a human at 0 Resolve (A17b), then Intercept (L1469) and the reductions
    (Thick Hide, Shield, Bulwark, Reflector)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dmg_st = streams[S_DAMAGE]
    a_mask = comb[i, C_TMASK]
    dyn[i, K_HITS] += 1
    if (comb[i, C_SIDEMASK] >> E_FOLLOW_UP) & 1 != 0:
        dyn[t, D_HIT_BY] = i   # Follow Up: an ally may follow this hit next turn
        dyn[t, D_HIT_AT] = dyn[0, D_CLOCK]
    if dmg_dice < 0:
        dmg_dice = sum_dice(dmg_st, rules[R_DAMAGE_DICE], 6)
    dmg = dmg_dice + comb[i, C_DMG] + dyn[i, D_DMG_ADJ]
    dmg += rules[R_SIX_DAMAGE] * a_six - rules[R_DEFENDER_SIX_DAMAGE] * d_six
    if rules[R_BOOST_DAMAGE] == 0:
        d_flat = d_boosts
        if comb[t, C_MONSTER] != 0:
            d_flat = 0  # Monster Boost adds damage on attacks only (L2068)
        dmg += BOOST_FLAT_DAMAGE * (a_boosts - d_flat)
    if a_mask != 0:
        dmg += dmg_bonus
        if (a_mask >> E_ALL_OR_NOTHING) & 1 != 0:
            dmg += call(rules[PR_ALL_IN], i, 0, 0, w)
        if kb_slot >= 0:
            # Killing Blow (L1821): a hit deals +P1 d6 + P2
            dmg += sum_d6(dmg_st, comb[i, C_TP1 + kb_slot]) + comb[i, C_TP2 + kb_slot]
    if fury_dice > 0:
        dmg += sum_d6(dmg_st, fury_dice)  # the frenzy's +1d6 (L756)
    if kb_slot >= 0:
        if comb[i, C_TCODE + kb_slot] == E_DETONATION:
            dmg = detonation_damage(t, comb, dyn)  # "instead of the usual damage" (DRAFT L311)
    if dmg < rules[R_MIN_DAMAGE]:
        dmg = rules[R_MIN_DAMAGE]
    if dyn[t, D_RES] <= 0:
        if rules[R_DOWNED_DAMAGE] == 1:
            if comb[t, C_MONSTER] == 0:
                dmg = sum_d6(dmg_st, 1)  # A17b: to a non-magical human, a regular weapon's 1d6 (L1455)
    if dyn[t, D_GUARD] >= 0:  # an ally may intercept (grid and positions, L1469)
        dmg = call(rules[PR_INTERCEPT], i, t, dmg, w)
    if comb[t, C_SIDEMASK] != 0:
        if (comb[t, C_SIDEMASK] & REDUCE_GATE) != 0:  # Thick Hide on her, a Shield / Bulwark on her side
            dmg = call(rules[PR_REDUCE], t, 0, dmg, w)
        if dyn[t, D_REFLECT_BY] >= 0:
            dmg = call(rules[PR_REFLECT], i, t, dmg, w)
    return dmg


@part
def land_hit(i, t, dmg, ail_slot, open_slot, w):
    """``i``'s hit lands on ``t`` for ``dmg``: Drain Life halves it (round down, A46)
    and heals her for what it dealt (L1815); what her side's talents set off
    (AFTER_HIT: Life Bomb, Implode); her ailment attack's ailment, Belkan System's
    stored bonus, Make an Opening (L1776: allies get +P1 against ``t`` until the end
    of her next turn), Inflict, Seal Magic. Returns the damage dealt."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_mask = comb[i, C_TMASK]
    drain = -1
    if (a_mask >> E_DRAIN) & 1 != 0:
        drain = find_drain(i, comb, dyn)
        if drain >= 0:
            pay_slot(i, drain, w)
            dmg = dmg // comb[i, C_TP1 + drain]
    dealt = apply_damage(t, dmg, w)
    dyn[i, K_DEALT] += dealt
    dyn[t, K_TAKEN] += dealt
    if comb[t, C_SIDEMASK] != 0:
        # what after_hit plays: her Life Bomb, the attacker's Implode
        if dyn[t, D_BOMB] != 0 or dyn[i, D_IMPLODE_BY] >= 0:
            call(rules[PR_AFTER_HIT], i, t, dealt, w)
    if a_mask != 0:
        if drain >= 0:
            restore(i, i, dealt, comb, dyn)
        if ail_slot >= 0:
            if is_standing(dyn, t):
                give_ailment(t, comb[i, C_TP1 + ail_slot], dyn)
        if (a_mask >> E_BELKAN) & 1 != 0:
            belkan_hit(i, comb, dyn)
        if open_slot >= 0:
            dyn[t, D_OPEN_BY] = i
            dyn[t, D_OPEN_UNTIL] = dyn[i, D_TURNS_DONE] + 2
            dyn[t, D_OPEN_BONUS] = comb[i, C_TP1 + open_slot]
        if has_code(i, E_INFLICT, comb):
            call(rules[PR_INFLICT], i, t, 0, w)
        if (a_mask >> E_SEAL_MAGIC) & 1 != 0:
            call(rules[PR_SEAL], i, t, 0, w)
    return dealt


@part
def after_attack(i, t, hit, w):
    """After ``i``'s attack on ``t``, hit or miss: Follow Target's count, Backlash on a
    girl attacking it (L1956), Disruptive Strikes on a girl (L2028), a frenzied
    target's retaliation due (L758), the bursts the rolls' overcharge made due."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_mask = comb[i, C_TMASK]
    t_mask = comb[t, C_TMASK]
    if (a_mask >> E_FOLLOW_TARGET) & 1 != 0:
        follow_target_after(i, t, hit, comb, dyn)
    if t_mask != 0:
        if comb[i, C_MONSTER] == 0:
            if (t_mask >> E_BACKLASH) & 1 != 0:
                call(rules[PR_BACKLASH], i, t, 1 if hit else 0, w)
    if a_mask != 0:
        if comb[t, C_MONSTER] == 0:
            if (a_mask >> E_DISRUPTIVE) & 1 != 0:
                call(rules[PR_DISRUPTIVE], i, t, 0, w)
    if dyn[t, D_FRENZY] != 0:
        if rules[R_FURY_RETALIATE] != 0:
            dyn[t, D_RETALIATE] = i  # she may strike back after this action (L758)
            dyn[0, D_DUE] = 1
    check_bursts(i, comb, rules, dyn)
    check_bursts(t, comb, rules, dyn)


@kernel
def all_in_after(i, comb, rules, dyn):
    """The draft's All or Nothing (DRAFT L259-263, free, 1/Scene, param ``after``): on an
    attack she just made that hit, she takes up to P1 damage (the policy's ``all_or_nothing``,
    only while it leaves her standing) and the attack deals as much more. Returns the bonus."""
    s = find_usable(i, E_ALL_OR_NOTHING, comb, dyn)
    if s < 0:
        return 0
    if comb[i, C_TP2 + s] == 0:
        return 0
    x = comb[i, P_ALL_IN]
    if x > comb[i, C_TP1 + s]:
        x = comb[i, C_TP1 + s]
    if x <= 0:
        return 0
    if dyn[i, D_RES] <= x:
        return 0
    pay_talent(i, s, comb, rules, dyn)
    dyn[i, D_RES] -= x
    dyn[i, K_TAKEN] += x
    dyn[i, K_SELF_DMG] += x
    return x


@kernel
def attack_call(i, t, w):
    """:func:`attack` through its procedure (``PR_ATTACK``, :func:`p_attack`, the one
    function it is compiled into), for the attack sites outside the turn's own."""
    comb, rules, dyn, streams, bf = unpack(w)
    return call(rules[PR_ATTACK], i, t, 0, w)


@kernel
def spend_fury(i, k, dyn):
    """A frenzied girl spends ``k`` Fury overcharge; at 0 the frenzy ends (L760)."""
    dyn[i, D_OC + FURY] -= k
    dyn[i, K_FURY_SPENT] += k
    if dyn[i, D_OC + FURY] <= 0:
        dyn[i, D_OC + FURY] = 0
        dyn[i, D_FRENZY] = 0


@kernel
def fury_spend(i, hit, rules, dyn):
    """What a frenzied girl must spend on each attack (L754-758, A9iii):
    ``fury_spend`` damage: 2 for +1d6 on a hit when she has 2, else 1 for a
    hex of movement; movement: 1. Nothing when she already paid for this
    attack with the frenzy's extra point of movement toward her target
    (``D_FURY_PAID``, :func:`.battle_grid.frenzy_step`). Returns the extra
    damage dice."""
    if dyn[i, D_FURY_PAID] != 0:
        dyn[i, D_FURY_PAID] = 0
        return 0
    oc = dyn[i, D_OC + FURY]
    if oc <= 0:
        return 0
    if rules[R_FURY_SPEND] == 0:
        if hit:
            if oc >= 2:
                spend_fury(i, 2, dyn)
                return 1
    spend_fury(i, 1, dyn)
    return 0


@kernel(inline="always")
def roll_penalty(i, rules, dyn):
    """Penalty to all of ``i``'s rolls: Bound -2 (L1463), plus the Fear Auras
    of standing enemies (-2 each, L2031)."""
    if dyn[i, D_AIL + A_BOUND] != 0:
        return rules[R_BOUND_PENALTY] + dyn[i, D_FEAR]
    return dyn[i, D_FEAR]


@kernel(inline="always")
def has_ailment(i, dyn):
    if dyn[i, D_AIL + A_STUN] != 0:
        return True
    if dyn[i, D_AIL + A_BOUND] != 0:
        return True
    return dyn[i, D_AIL + A_BLEED] != 0


@kernel
def removal_roll(i, w):
    """:func:`removal_body`, called with the world ``w`` (two words of arguments where
    the arrays take 35)."""
    comb, rules, dyn, streams, bf = unpack(w)
    removal_body(i, comb, rules, dyn, streams)


@part
def removal_body(i, comb, rules, dyn, streams):
    """Remove ailments (L1467): 2d6! + Support; 11-13 one of her choice
    (Stun, then Bound, then Bleed), 14+ all (``removal_bands``)."""
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[i, C_SUP] - roll_penalty(i, rules, dyn) - dyn[i, D_AMP_AIL]
    gain_overcharge(i, comb[i, C_RS], sixes, comb, rules, dyn)
    if total <= rules[R_REMOVAL_BANDS]:
        return
    all_of_them = total > rules[R_REMOVAL_BANDS + 1]
    for a in range(3):
        if dyn[i, D_AIL + a] != 0:
            dyn[i, D_AIL + a] = 0
            dyn[i, K_AIL_REMOVED] += 1
            if not all_of_them:
                return


@kernel(inline="always")
def has_code(i, code, comb):
    """Combatant ``i`` holds effect ``code`` in a talent slot (codes below 63 in
    ``C_TMASK``, codes from 64 in ``C_TMASK2``)."""
    if code < E_MORE:
        return (comb[i, C_TMASK] >> code) & 1 != 0
    return (comb[i, C_TMASK2] >> (code - 64)) & 1 != 0


@kernel(inline="always")
def side_has_code(i, code, comb):
    """Some member of ``i``'s side holds effect ``code`` (``C_SIDEMASK``/``C_SIDEMASK2``)."""
    if code < E_MORE:
        return (comb[i, C_SIDEMASK] >> code) & 1 != 0
    return (comb[i, C_SIDEMASK2] >> (code - 64)) & 1 != 0


@kernel(inline="always")
def find_talent(i, code, comb, dyn):
    """The first slot of ``i`` holding effect ``code`` with uses left, or -1."""
    if not has_code(i, code, comb):
        return -1
    if sealed(i, dyn):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                return s
    return -1


@kernel(inline="always")
def can_pay(i, s, comb, dyn):
    """A talent's overcharge cost: within a girl's cap, or within a monster's
    pool; never while Seal Magic holds her (:func:`sealed`)."""
    if sealed(i, dyn):
        return False
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= cost
    if dyn[i, D_FRENZY] != 0:
        return frenzy_can_pay(i, s, comb, dyn)
    return dyn[i, D_OC + comb[i, C_TROLE + s]] + cost <= comb[i, P_OCCAP]


@kernel(inline="always")
def frenzy_can_pay(i, s, comb, dyn):
    """Frenzied ``i`` may use slot ``s`` (L752: "she may spend it on using
    Talents, but only the Talents linked to Fury Overcharge"; A9ii, rule
    ``fury_talents``, held in ``D_FRENZY`` from the frenzy's start): a cost
    on the role Fury fills for her (``C_TROLE`` = Fury) within the Fury she
    has left; a talent costing no overcharge only under ``and_costless``
    (A9ii-a); nothing under ``none``. :func:`pay_talent` spends the cost."""
    mode = dyn[i, D_FRENZY]
    if mode == FRENZY_NO_TALENTS:
        return False
    cost = comb[i, C_TCOST + s]
    if cost <= 0:
        return mode == FRENZY_COSTLESS_TOO
    if comb[i, C_TROLE + s] != FURY:
        return False
    return dyn[i, D_OC + FURY] >= cost


@kernel
def pay_talent(i, s, comb, rules, dyn):
    """:func:`pay_body` for a caller that holds the arrays (:func:`pay_slot` for one that
    holds the world)."""
    pay_body(i, s, comb, rules, dyn)


@kernel
def pay_slot(i, s, w):
    """:func:`pay_body`, called with the world ``w`` (three words of arguments where the
    arrays take 27)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_body(i, s, comb, rules, dyn)


@part
def pay_body(i, s, comb, rules, dyn):
    """Spend a use of ``i``'s talent in slot ``s``; a girl takes the cost as overcharge
    on the role's stat (L149), a monster spends it from its pool (L1892)."""
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    dyn[i, K_TUSE + s] += 1
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= cost
        dyn[i, K_POOL_SPENT] += cost
    elif dyn[i, D_FRENZY] != 0:
        if cost > 0:  # no overcharge in a frenzy: a Fury-linked talent spends her Fury (L752, frenzy_can_pay)
            spend_fury(i, cost, dyn)
    else:
        if cost > 0:
            if comb[i, C_SIDEMASK2] != 0:
                cost = dampen_overcharge(i, comb[i, C_TROLE + s], cost, comb, rules, dyn)
        dyn[i, D_OC + comb[i, C_TROLE + s]] += cost
        dyn[i, K_OC_GAIN + comb[i, C_TROLE + s]] += cost


@part
def within(i, j, s, w):
    """``j`` is within the range of ``i``'s talent in slot ``s``: on the grid
    at most ``C_TREACH`` hexes away (-1 = the whole field, a reading where
    the book gives no range); on the draft's positions at most ``C_TREACH``
    positions (the row's ``range_positions``: Heal, Healing Magic, Remedy,
    Reflector 0-2, Healing Wave 0-1). Gridless without positions everyone's
    ``D_PLACE`` stays 0 (only :func:`.positions.place_all` and moves on
    positions set it), so always."""
    comb, rules, dyn, streams, bf = unpack(w)
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        return True
    if on_grid(bf):
        return call(rules[PR_DISTANCE], i, j, 0, w) <= hi
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE]) <= hi


@kernel
def heal_target(i, s, w):
    """Who ``i``'s heal in slot ``s`` would restore: the standing ally lowest
    in Resolve share below ``heal_below`` percent, among those the row's P3
    allows (0 herself or any ally, 1 herself only, 2 a monster ally that is
    not a minion: A Little Longer), or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    who = comb[i, C_TP3 + s]
    if comb[i, C_TCODE + s] == E_SECOND_WIND:
        who = 1
    n = comb.shape[0]
    best = -1
    best_share = 1 << 40
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if who == 1:
            if j != i:
                continue
        elif who == 2:
            if comb[j, C_MONSTER] == 0:
                continue
            if comb[j, C_PDEF] >= 0:
                continue
        if not is_standing(dyn, j):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < comb[i, P_HEAL_BELOW]:
            if share < best_share:
                best_share = share
                best = j
    return best


@part
def try_heal(i, w):
    """A healing Minor action: the first of her healing rows (listed order)
    with uses left, an affordable cost and someone to heal (:func:`heal_target`).

    * ``heal`` (Heal L1602 1d6+1; Healing Magic L1741 1d6+4; A Little Longer
      L2186 1d6+2): restore P1 d6 + P2;
    * ``second_wind`` (Second Wind L1716): herself, P1 d6 + P2, and +P3 to her
      Defence rolls until the start of her next turn.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    if (mask >> E_HEAL) & 1 == 0:
        if (mask >> E_SECOND_WIND) & 1 == 0:
            return False
    for s in range(MAXT):
        code = comb[i, C_TCODE + s]
        if code != E_HEAL:
            if code != E_SECOND_WIND:
                continue
        if dyn[i, D_TUSES + s] == 0:
            continue
        if not can_pay(i, s, comb, dyn):
            continue
        best = heal_target(i, s, w)
        if best < 0:
            continue
        pay_slot(i, s, w)
        amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
        restore(i, best, amount, comb, dyn)
        if code == E_SECOND_WIND:
            dyn[i, D_DEF_BONUS] = comb[i, C_TP3 + s]
        check_bursts(i, comb, rules, dyn)
        return True
    return False


@part
def try_inflict(i, t, comb, rules, dyn):
    """Inflict (free, after a successful basic attack, L1607): put an ailment
    the target does not have yet on her, trying the policy's first choice
    first (Stun -> Bound -> Bleed order from there)."""
    s = find_talent(i, E_INFLICT, comb, dyn)
    if s < 0:
        return
    if not is_standing(dyn, t):
        return
    if not can_pay(i, s, comb, dyn):
        return
    for k in range(3):
        a = (comb[i, P_INFLICT] + k) % 3
        if dyn[t, D_AIL + a] == 0:
            pay_talent(i, s, comb, rules, dyn)
            give_ailment(t, a, dyn)
            return


@kernel
def bleed(j, w):
    """Bleed (L1465): damage at the beginning of each round; not an attack."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_AIL + A_BLEED] == 0:
        return
    if dyn[j, D_DEAD] != 0:
        return
    d = apply_damage(j, rules[R_BLEED_DAMAGE], w)
    dyn[j, K_BLEED_DMG] += d
    dyn[j, K_TAKEN] += d
    check_bursts(j, comb, rules, dyn)


# ---------------------------------------------------------------- talent mechanics
# Each helper plays one mechanic of talents.MECHANICS; callers check the
# combatant's C_TMASK first, so fights without talents never reach them.


@kernel(inline="always")
def find_usable(i, code, comb, dyn):
    """The first slot of ``i`` (listed order = priority) holding ``code`` with
    uses left and an affordable cost, or -1."""
    if not has_code(i, code, comb):
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                if can_pay(i, s, comb, dyn):
                    return s
    return -1


@kernel
def off_turn_sprint(j, comb, dyn):
    """The first slot of ``j`` holding a Sprint she may use off her turn
    (``C_TP3`` off_turn: 4.1 Sprint L1726-1729 "in response to an enemy
    making an attack on your ally", the draft's Speed Burst DRAFT L63-67)
    with uses left, an affordable cost and, unless the row has no limit a
    round (``C_TP2`` any_round), no Sprint yet this round; -1 if none."""
    again = dyn[j, D_SPRINT_AT] == dyn[0, D_ROUND]
    for s in range(MAXT):
        if comb[j, C_TCODE + s] == E_SPRINT:
            if comb[j, C_TP3 + s] != 0:
                if dyn[j, D_TUSES + s] != 0:
                    ok = comb[j, C_TP2 + s] != 0  # no limit a round
                    if not again:
                        ok = True
                    if ok:
                        if can_pay(j, s, comb, dyn):
                            return s
    return -1


@kernel
def pay_sprint(j, s, comb, rules, dyn):
    """Pay Sprint slot ``s`` of ``j`` (and mark the round unless the row has
    no limit a round); its overcharge may burst her."""
    pay_talent(j, s, comb, rules, dyn)
    if comb[j, C_TP2 + s] == 0:
        dyn[j, D_SPRINT_AT] = dyn[0, D_ROUND]
    check_bursts(j, comb, rules, dyn)


@kernel
def _ail(t, a, dyn):
    if dyn[t, D_AIL + a] == 0:
        dyn[t, D_AIL + a] = 1
        dyn[t, K_AILED] += 1


@kernel
def give_ailment(t, a, dyn):
    """Put ailment ``a`` on ``t`` (no stacking of the same ailment, A25iii);
    a Link copies it to her secondary if standing (L1746, A47)."""
    _ail(t, a, dyn)
    k = dyn[t, D_LINK_TO]
    if k >= 0:
        if is_standing(dyn, k):
            _ail(k, a, dyn)


@kernel
def _heal(i, j, amount, comb, dyn):
    if amount > 0:
        amount += dyn[j, D_AMP_HEAL]  # Amplify Magic: +P1 from every healing effect (L1797)
    room = comb[j, C_RES] - dyn[j, D_RES]
    if amount > room:
        amount = room
    if amount < 0:
        amount = 0
    if dyn[j, D_FRENZY] != 0:
        amount = 0  # a frenzied girl has "no other ways of recovering resolve" (L750)
    dyn[j, D_RES] += amount
    dyn[i, K_HEALED] += amount
    return amount


@kernel
def restore(i, j, amount, comb, dyn):
    """``i`` restores up to ``amount`` Resolve to ``j`` (never above her maximum);
    returns what ``j`` got. A Link on ``j`` gives her secondary, if standing,
    the same amount (A47b), capped by her own maximum; not on an enemy
    link of the draft's Link (``D_LINK_DMG``: the linker gives no copy of
    her enemies' healing)."""
    got = _heal(i, j, amount, comb, dyn)
    k = dyn[j, D_LINK_TO]
    if k >= 0 and dyn[j, D_LINK_DMG] == 0:  # an enemy link (the draft's): she gives no copy of their healing
        if is_standing(dyn, k):
            _heal(i, k, amount, comb, dyn)
    return got


@kernel
def end_fear_aura(t, comb, dyn, sign=-1):
    """A monster with Fear Aura is dead: its -P1 to its enemies' rolls ends (gridless; the
    grid recomputes auras, :func:`.battle_grid.refresh_fear`). ``sign`` +1: it begins (a
    reserve row appearing mid-fight, :func:`appear`)."""
    p = 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_FEAR_AURA:
            p += comb[t, C_TP1 + s]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[t, C_SIDE]:
            dyn[j, D_FEAR] += sign * p


@part
def declare_riders(i, t, w):
    """Talents ``i`` adds to an attack on ``t``, before rolling.

    Returns ``(attack_bonus, damage_bonus, killing_blow_slot, ailment_slot,
    opening_slot)``.

    * Desperation (L1707) / Memory Blaze (L2056), ``low_resolve``: +P1 to the
      attack and +P2 damage while her Resolve is at most half her Base
      Resolve; with P3 = 1 (Memory Blaze) for the rest of the scene once reached;
    * Follow Target (L1540): +P1 per miss in a row against this same target;
    * Killing Blow (L1821): on a target below 1/``killing_blow_below`` of its
      Base Resolve (A37), pay its cost; a hit deals +P1 d6 + P2;
    * Binding / Debilitating Attack (L2011, L2025), ``attack_ailment``: on a
      target without ailment P1, pay the cost; a hit gives it;
    * Follow Up (L1819): on a target an ally hit in the turn just before
      this one (``D_HIT_AT`` = clock - 1), pay; +P1 to the attack, +P2 damage;
    * Make an Opening (L1776): while another ally stands, pay; a hit opens
      the target (see :func:`attack`, :func:`opening_bonus`);
    * Ambush Tactics (L2006): during its turn before round 1, +P3 to the
      attack and +P1 d6 + P2 damage on a hit (the Killing Blow slot);
    * Minion Explosion (L1987): see :func:`minion_explosion` (the Killing
      Blow slot: +P1 d6 on a hit);
    * Belkan System (L1675): she spends the bonuses her melee hits stored
      (+P1 each) on this attack;
    * Fight for Friends (L1590): see :func:`fight_for_friends`;
    * Hate the World (L1597): at or above ``heal_below``, a bond point for
      +P1 to the attack and +P1 damage (:func:`hate_the_world`).

    Killing Blow, Minion Explosion, an ailment attack, Follow Up and Make an
    Opening are each the Major action itself: at most one of them, in that
    order.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    dmg_bonus = 0
    if (comb[i, C_TMASK] >> E_ALL_OR_NOTHING) & 1 != 0:
        dmg_bonus += all_in_before(i, comb, rules, dyn)
    a, d, kb = slot_riders(i, t, comb, rules, dyn)
    a_bonus += a
    dmg_bonus += d
    kb, a = special_attack(i, t, kb, w)
    a_bonus += a
    ail = -1
    if kb < 0:
        ail = ailment_attack(i, t, comb, rules, dyn)
    opening = -1
    if kb < 0:
        if ail < 0:
            a, d, opening = follow_or_open(i, t, w)
            a_bonus += a
            dmg_bonus += d
    a, d = bond_riders(i, comb, rules, dyn)
    return a_bonus + a, dmg_bonus + d, kb, ail, opening


@part
def all_in_before(i, comb, rules, dyn):
    """All or Nothing (L1800): before rolling, she takes up to P1 damage (the policy's
    ``all_or_nothing``, only while it leaves her standing); the attack's damage rises as
    much, lost on a miss (A49). The draft's (``after``) is :func:`all_in_after`. Returns
    the damage bonus."""
    s = find_usable(i, E_ALL_OR_NOTHING, comb, dyn)
    if s >= 0:
        if comb[i, C_TP2 + s] != 0:
            s = -1  # the draft's: after the attack, on a hit (all_in_after)
    if s < 0:
        return 0
    x = comb[i, P_ALL_IN]
    if x > comb[i, C_TP1 + s]:
        x = comb[i, C_TP1 + s]
    if x > 0:
        if dyn[i, D_RES] > x:
            pay_talent(i, s, comb, rules, dyn)
            dyn[i, D_RES] -= x
            dyn[i, K_TAKEN] += x
            dyn[i, K_SELF_DMG] += x
            return x
    return 0


@part
def slot_riders(i, t, comb, rules, dyn):
    """Desperation / Memory Blaze (``low_resolve``), Follow Target and a Killing Blow
    ``t`` qualifies for (not paid yet): ``(attack bonus, damage bonus, Killing Blow slot)``."""
    a_bonus = 0
    dmg_bonus = 0
    kb = -1
    for s in range(MAXT):
        code = comb[i, C_TCODE + s]
        if code == E_LOW_RESOLVE:
            low = dyn[i, D_RES] * 2 <= comb[i, C_RES]
            if comb[i, C_TP3 + s] != 0:
                if low:
                    dyn[i, D_STICKY] = 1
                low = dyn[i, D_STICKY] != 0
            if low:
                a_bonus += comb[i, C_TP1 + s]
                dmg_bonus += comb[i, C_TP2 + s]
                dyn[i, K_TUSE + s] += 1
        elif code == E_FOLLOW_TARGET:
            if dyn[i, D_FT_TARGET] == t:
                if dyn[i, D_FT_STACK] > 0:
                    a_bonus += comb[i, C_TP1 + s] * dyn[i, D_FT_STACK]
                    dyn[i, K_TUSE + s] += 1
        elif code == E_KILLING_BLOW:
            if kb < 0:
                if dyn[t, D_RES] * rules[R_KILLING_BLOW_BELOW] < comb[t, C_RES]:
                    if dyn[i, D_TUSES + s] != 0:
                        if can_pay(i, s, comb, dyn):
                            kb = s
    return a_bonus, dmg_bonus, kb


@part
def special_attack(i, t, kb, w):
    """The special attacks, each the Major action itself: the first that applies of
    Minion Explosion from the hex the grid turn chose, Killing Blow (paid), the ambush
    (Ambush Tactics, L2006: +P3 to the attack, +P1 d6 + P2 on a hit), Minion
    Explosion, Magic Detonation. Returns ``(slot or -1, attack bonus)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus = 0
    if dyn[i, D_BLAST] != 0:
        kb = minion_explosion(i, comb, rules, dyn)  # the grid turn chose it from a minion's hex
    elif kb >= 0:
        pay_slot(i, kb, w)
    elif dyn[i, D_AMBUSH] != 0:
        for s in range(MAXT):
            if comb[i, C_TCODE + s] == E_AMBUSH:
                kb = s
        a_bonus += comb[i, C_TP3 + kb]
        dyn[i, K_TUSE + kb] += 1
    elif has_code(i, E_MINION_EXPLOSION, comb):  # (no call for those without it)
        kb = minion_explosion(i, comb, rules, dyn)
    if kb < 0:
        if (comb[i, C_TMASK] >> E_MORE) & 1 != 0:
            if has_code(i, E_DETONATION, comb):
                kb = detonation_slot(i, t, comb, rules, dyn)
    return kb, a_bonus


@part
def follow_or_open(i, t, w):
    """Follow Up on a target an ally hit in the turn just before (paid; +P1 attack, +P2
    damage), else Make an Opening while another ally stands (paid). Returns ``(attack
    bonus, damage bonus, Make an Opening slot or -1)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    fu = -1
    if followed(i, t, comb, dyn):
        fu = find_usable(i, E_FOLLOW_UP, comb, dyn)
    if fu >= 0:
        pay_slot(i, fu, w)
        return comb[i, C_TP1 + fu], comb[i, C_TP2 + fu], -1
    opening = find_usable(i, E_OPENING, comb, dyn)
    if opening >= 0:
        if has_other_ally(i, comb, dyn):
            pay_slot(i, opening, w)
        else:
            opening = -1
    return 0, 0, opening


@part
def bond_riders(i, comb, rules, dyn):
    """Hate the World at or above ``heal_below`` (a bond point: +P1 attack and damage),
    Fight for Friends (+P1 / +P2 and her strongest bond with an ally present), Belkan
    System's stored bonuses (spent, A48a, or standing, A48b). ``(attack, damage)``."""
    a_bonus = 0
    dmg_bonus = 0
    if (comb[i, C_TMASK] >> E_HATE) & 1 != 0:
        if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
            h = hate_the_world(i, comb, rules, dyn)
            if h >= 0:
                a_bonus += comb[i, C_TP1 + h]
                dmg_bonus += comb[i, C_TP1 + h]
    if (comb[i, C_TMASK] >> E_FRIENDS) & 1 != 0:
        f = fight_for_friends(i, comb, rules, dyn)
        if f >= 0:
            b = friends_bonus(i, f, comb, dyn)
            a_bonus += comb[i, C_TP1 + f] + b
            dmg_bonus += comb[i, C_TP2 + f] + b
    if dyn[i, D_BELKAN] != 0:
        for s in range(MAXT):
            if comb[i, C_TCODE + s] == E_BELKAN:
                a_bonus += dyn[i, D_BELKAN] * comb[i, C_TP1 + s]
                dyn[i, K_TUSE + s] += 1
        if rules[R_BELKAN_STACKS] == 0:
            dyn[i, D_BELKAN] = 0  # spent (A48a); 'standing' keeps them (A48b)
    return a_bonus, dmg_bonus


@kernel
def defence_dice(i, t, comb, dyn):
    """Ranged/Melee Defence (L2084): P2 extra exploding dice when ``t``
    defends against an attack of form P1 (0 melee, 1 ranged)."""
    extra = 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_DEFENCE_DIE:
            if comb[t, C_TP1 + s] == comb[i, C_FORM]:
                extra += comb[t, C_TP2 + s]
                dyn[t, K_TUSE + s] += 1
    return extra


@kernel
def find_drain(i, comb, dyn):
    """Drain Life (L1815) is used on a hit while her Resolve share is below
    the policy's ``heal_below`` percent."""
    s = find_usable(i, E_DRAIN, comb, dyn)
    if s < 0:
        return -1
    if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        return -1
    return s


@part
def reduce_damage(t, dmg, comb, rules, dyn):
    """Reductions of the damage of a hit on ``t`` (A22 order: after bonuses).

    * Thick Hide (L1997), ``armour``: -P1, not below P2 (a hit already at or
      below P2 is unchanged);
    * Shield (L1613; any standing member of ``t``'s side, herself included,
      P2 = 0) and Bulwark (L2014; only ``t`` itself, P2 = 1): -P1 per point,
      each point costing the row's overcharge; spent when the hit deals at
      least the shielder's ``shield_above``, as many points as cover the
      damage, within the uses (points per scene) and her cap or pool.
    """
    if (comb[t, C_TMASK] >> E_ARMOUR) & 1 != 0:
        for s in range(MAXT):
            if comb[t, C_TCODE + s] == E_ARMOUR:
                floor = comb[t, C_TP2 + s]
                if dmg > floor:
                    new = dmg - comb[t, C_TP1 + s]
                    if new < floor:
                        new = floor
                    dyn[t, K_PREVENTED] += dmg - new
                    dyn[t, K_TUSE + s] += 1
                    dmg = new
    if dmg <= 0:
        return dmg
    if (comb[t, C_SIDEMASK] >> E_SHIELD) & 1 == 0:
        return dmg  # nobody on her side holds a Shield or Bulwark
    side = comb[t, C_SIDE]
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != side:
            continue
        if (comb[j, C_TMASK] >> E_SHIELD) & 1 == 0:
            continue
        if not is_standing(dyn, j):
            continue
        if sealed(j, dyn):
            continue
        if dmg < comb[j, P_SHIELD_ABOVE]:
            continue
        for s in range(MAXT):
            if comb[j, C_TCODE + s] != E_SHIELD:
                continue
            if comb[j, C_TP2 + s] != 0:
                if j != t:
                    continue
            per = comb[j, C_TP1 + s]
            points = (dmg + per - 1) // per
            if comb[j, C_TP3 + s] > 0:  # the draft: 'up to 3 Overcharge this way for one attack' (DRAFT L55)
                if points > comb[j, C_TP3 + s]:
                    points = comb[j, C_TP3 + s]
            left = dyn[j, D_TUSES + s]
            if left >= 0:
                if points > left:
                    points = left
            cost = comb[j, C_TCOST + s]
            frenzied = dyn[j, D_FRENZY] != 0
            if frenzied:
                if not frenzy_can_pay(j, s, comb, dyn):
                    continue  # only a Fury-linked Shield in a frenzy, paid with her Fury (L752, A9ii)
            if cost > 0:
                if comb[j, C_MONSTER] != 0:
                    room = dyn[j, D_POOL] // cost
                elif frenzied:
                    room = dyn[j, D_OC + FURY] // cost
                else:
                    room = (comb[j, P_OCCAP] - dyn[j, D_OC + comb[j, C_TROLE + s]]) // cost
                if points > room:
                    points = room
            if points <= 0:
                continue
            if left >= 0:
                dyn[j, D_TUSES + s] -= points
            dyn[j, K_TUSE + s] += 1
            if comb[j, C_MONSTER] != 0:
                dyn[j, D_POOL] -= points * cost
                dyn[j, K_POOL_SPENT] += points * cost
            elif frenzied:
                spend_fury(j, points * cost, dyn)
            else:
                dyn[j, D_OC + comb[j, C_TROLE + s]] += points * cost
                dyn[j, K_OC_GAIN + comb[j, C_TROLE + s]] += points * cost
                check_bursts(j, comb, rules, dyn)
            cut = points * per
            if cut > dmg:
                cut = dmg
            dyn[t, K_PREVENTED] += cut
            dmg -= cut
            if dmg <= 0:
                return 0
    return dmg


@kernel
def follow_target_after(i, t, hit, comb, dyn):
    """Follow Target (L1540): misses in a row against the same target stack;
    a hit, or a miss on another target, starts over (A55iii: only the kept
    result of a re-rolled attack counts)."""
    if (comb[i, C_TMASK] >> E_FOLLOW_TARGET) & 1 == 0:
        return
    if hit:
        dyn[i, D_FT_TARGET] = -1
        dyn[i, D_FT_STACK] = 0
    elif dyn[i, D_FT_TARGET] == t:
        dyn[i, D_FT_STACK] += 1
    else:
        dyn[i, D_FT_TARGET] = t
        dyn[i, D_FT_STACK] = 1


@kernel
def backlash(i, t, hit, w):
    """Backlash (L1956): a magical girl ``i`` attacking ``t`` takes P1 d6
    damage, on every attack (A30a) or on hits only (``backlash_on``); it is
    not an attack (no reductions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[t, C_TMASK] >> E_BACKLASH) & 1 == 0:
        return
    if not hit:
        if rules[R_BACKLASH_ON] != 0:
            return
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_BACKLASH:
            d = sum_d6(streams[S_DAMAGE], comb[t, C_TP1 + s])
            dyn[t, K_TUSE + s] += 1
            took = apply_damage(i, d, w)
            dyn[i, K_TAKEN] += took
            dyn[i, K_SELF_DMG] += took


@kernel
def disruptive(i, t, comb, rules, dyn, streams):
    """Disruptive Strikes (L2028): every attack of ``i`` on a girl, hit or
    miss, gives her 1 overcharge on a random stat: 1d6, 1-2 Heart, 3-4 Fury,
    5-6 Judgment."""
    if (comb[i, C_TMASK] >> E_DISRUPTIVE) & 1 == 0:
        return
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_DISRUPTIVE:
            d = sum_d6(streams[S_DAMAGE], 1)
            gain_overcharge(t, (d - 1) // 2, 1, comb, rules, dyn)
            dyn[i, K_TUSE + s] += 1


@kernel
def talent_on_target(i, code, w):
    """``(slot, target)`` for a talent used on the policy's target: the first
    usable slot of ``code`` (:func:`find_usable`) and a standing target, or
    ``(-1, -1)``. The target is chosen only when a slot is usable; on the grid
    among the enemies within the talent's range (:func:`.battle_grid.pick_near`),
    on the draft's positions within its ``range_positions`` (:func:`range_target`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, code, comb, dyn)
    if s < 0:
        return -1, -1
    if on_grid(bf):
        t = call(rules[PR_PICK_WITHIN], i, comb[i, C_TREACH + s], 0, w)
    else:
        t = range_target(i, s, w)
    if t < 0:
        return -1, -1
    if not is_standing(dyn, t):
        return -1, -1
    return s, t


@kernel
def range_target(i, s, w):
    """Gridless, the policy's target for ``i``'s talent in slot ``s``
    (:func:`choose_target`); on the draft's positions, when the slot has a
    reach (``C_TREACH``, the row's ``range_positions``), the policy's pick
    among the enemies within it (:func:`.positions.pick_within`); -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_positions(rules):
        hi = comb[i, C_TREACH + s]
        if hi >= 0:
            return call(rules[PR_PICK_WITHIN], i, hi, 0, w)
    return target_of(i, w)


@kernel
def support_roll(i, w):
    """:func:`support_body` on the check stream, called with the world ``w`` (two words
    of arguments where the arrays take 33)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return support_body(i, comb, rules, dyn, streams[S_CHECK])


@part
def support_body(i, comb, rules, dyn, chk):
    """2d6! + Support for a Support vs Support challenge (L1453 tie rules
    apply); its sixes give Support overcharge (a monster pays them).
    Returns ``(total, sixes)``."""
    total, sixes = exploding_d6(chk, 2)
    total += comb[i, C_SUP] - roll_penalty(i, rules, dyn)
    gain_overcharge(i, comb[i, C_RS], sixes, comb, rules, dyn)
    return total, sixes


@part
def try_curse(i, w):
    """Curse (L1728) / Hello There (L2189), ``curse``: a Minor action giving
    the policy's target an ailment it lacks, no roll (A51); P1 is the mask of
    allowed ailments (1 Stun, 2 Bound, 4 Bleed), tried in the policy's
    ``inflict`` order."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_CURSE, w)
    if s < 0:
        return False
    for k in range(3):
        a = (comb[i, P_INFLICT] + k) % 3
        if (comb[i, C_TP1 + s] >> a) & 1 != 0:
            if dyn[t, D_AIL + a] == 0:
                pay_slot(i, s, w)
                give_ailment(t, a, dyn)
                check_bursts(i, comb, rules, dyn)
                return True
    return False


@part
def try_scream(i, w):
    """Deafening Scream (L1972) / Blood Rain (L1962), ``scream``: a Major
    action, Support vs Support against every standing enemy in the area
    (gridless: all of them; grid: P2 ``area`` circle = within the row's
    range of her, line = on the straight line of that length from her, in the
    direction that catches the most; the draft's positions: circle = within
    the row's range in positions, line = her position and those up to the
    range on the side that catches the most: :func:`scream_direction`); those
    who lose get ailment P1. One roll for the user, one per target; ties to
    the defender (A21). Used when at least ``scream_min`` enemies in the area
    (or all that are left in it) lack the ailment."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_SCREAM, comb, dyn)
    if s < 0:
        return False
    a = comb[i, C_TP1 + s]
    side = comb[i, C_SIDE]
    n = comb.shape[0]
    d = -1
    if on_grid(bf):
        if comb[i, C_TP2 + s] == 1:
            d = scream_direction(i, s, a, 6, w)  # one of the six hex directions
    elif on_positions(rules):
        d = 2  # a circle of positions
        if comb[i, C_TP2 + s] == 1:
            d = scream_direction(i, s, a, 2, w)  # a line of positions: 0 upward, 1 downward
    open_ = 0
    left = 0
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if not in_area(i, j, s, d, w):
                continue
            if is_standing(dyn, j):
                left += 1
                if dyn[j, D_AIL + a] == 0:
                    open_ += 1
    if open_ == 0:
        return False
    if open_ < comb[i, P_SCREAM_MIN]:
        if open_ < left:
            return False
    pay_slot(i, s, w)
    u_total, u_six = support_roll(i, w)
    for j in range(n):
        if comb[j, C_SIDE] == side:
            continue
        if not is_standing(dyn, j):
            continue
        if not in_area(i, j, s, d, w):
            continue
        d_total, d_six = support_roll(j, w)
        d_total -= dyn[j, D_AMP_AIL]  # Amplify Magic: -P2 to resist ailments (L1797)
        if beats(u_total, u_six, comb[i, C_SUP], d_total, d_six, comb[j, C_SUP], False):
            give_ailment(j, a, dyn)
        check_bursts(j, comb, rules, dyn)
    check_bursts(i, comb, rules, dyn)
    return True


@kernel
def scream_direction(i, s, a, nd, w):
    """Blood Rain's line (``area: line``, L1962): of directions ``0 .. nd-1`` (grid: the six
    hex directions; positions: 0 upward, 1 downward), the one whose line (:func:`in_area`)
    holds the most standing enemies without ailment ``a`` (ties: the lowest)."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = 0
    best_n = -1
    side = comb[i, C_SIDE]
    for d in range(nd):
        k = 0
        for j in range(comb.shape[0]):
            if comb[j, C_SIDE] != side:
                if is_standing(dyn, j):
                    if dyn[j, D_AIL + a] == 0:
                        if in_area(i, j, s, d, w):
                            k += 1
        if k > best_n:
            best_n = k
            best = d
    return best


@part
def in_area(i, j, s, d, w):
    """``j`` stands in the area of ``i``'s Scream in slot ``s`` (line direction ``d``); gridless always.
    On positions (``d`` >= 0): ``d`` 2 a circle (:func:`within`), 0 / 1 the line of
    positions upward / downward from hers (:func:`.positions.on_side`); on the grid a
    circle (:func:`within`) or the line (:func:`.battle_grid.on_line`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_grid(bf):
        if comb[i, C_TP2 + s] == 1:
            return call(rules[PR_ON_LINE], i, j, d * 8 + s, w) != 0
        return within(i, j, s, w)
    if d < 0:
        return True
    if d == 2:
        return within(i, j, s, w)
    return call(rules[PR_ON_LINE], i, j, d * 8 + s, w) != 0


@kernel
def shrug_off(j, w):
    """Shrug Off (L1993): at the beginning of each round remove P1 ailments
    (Stun, then Bound, then Bleed)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[j, C_TCODE + s] == E_SHRUG_OFF:
            k = comb[j, C_TP1 + s]
            for a in range(3):
                if k > 0:
                    if dyn[j, D_AIL + a] != 0:
                        dyn[j, D_AIL + a] = 0
                        dyn[j, K_AIL_REMOVED] += 1
                        dyn[j, K_TUSE + s] += 1
                        k -= 1


@kernel
def extra_turns(i, comb):
    """Extra Action (L1979): P1 extra turns per round per row."""
    if (comb[i, C_TMASK] >> E_EXTRA_TURN) & 1 == 0:
        return 0
    k = 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_EXTRA_TURN:
            k += comb[i, C_TP1 + s]
    return k


@kernel(inline="always")
def other_ally(i, j, comb, dyn):
    """``j`` is a standing member of ``i``'s side other than ``i``."""
    if j == i:
        return False
    if comb[j, C_SIDE] != comb[i, C_SIDE]:
        return False
    return is_standing(dyn, j)


@kernel
def ailing_ally(i, s, w):
    """The standing ally of ``i`` (not herself) with the most ailments within
    the range of her talent in slot ``s``, or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = -1
    most = 0
    for j in range(comb.shape[0]):
        if not other_ally(i, j, comb, dyn):
            continue
        if not within(i, j, s, w):
            continue
        k = dyn[j, D_AIL] + dyn[j, D_AIL + 1] + dyn[j, D_AIL + 2]
        if k > most:
            most = k
            best = j
    return best


@kernel
def try_remedy(i, j, comb, rules, dyn):
    """Remedy (L1617): a Minor action removing one ailment of ``j`` (herself or
    an ally; Stun, then Bound, then Bleed); each further one costs P1
    Support overcharge, taken while within her cap."""
    s = find_usable(i, E_REMEDY, comb, dyn)
    if s < 0:
        return False
    if not has_ailment(j, dyn):
        return False
    if j != i:
        if comb[i, C_TP2 + s] != 0:  # the draft's Purge: 'from yourself' (DRAFT L61)
            return False
    pay_talent(i, s, comb, rules, dyn)
    removed = 0
    extra = comb[i, C_TP1 + s]
    stat = comb[i, C_RS]
    for a in range(3):
        if dyn[j, D_AIL + a] == 0:
            continue
        if removed > 0:
            if comb[i, C_MONSTER] != 0:
                break
            if dyn[i, D_FRENZY] != 0:
                break  # a frenzied girl gains no overcharge (L752): one ailment only
            if dyn[i, D_OC + stat] + extra > comb[i, P_OCCAP]:
                break
            dyn[i, D_OC + stat] += extra
            dyn[i, K_OC_GAIN + stat] += extra
        dyn[j, D_AIL + a] = 0
        dyn[j, K_AIL_REMOVED] += 1
        removed += 1
    check_bursts(i, comb, rules, dyn)
    return True


@kernel
def try_steal(i, w):
    """Steal Action (L1725): a Minor action, an attack challenge (2d6! + Attack
    against the target's defence; no damage, A50a) on the policy's target if
    it is not Stunned; on success it is Stunned and she may take another
    Minor action. Returns 0 (not used), 1 (failed) or 2 (succeeded)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_STEAL_ACTION, w)
    if s < 0:
        return 0
    if dyn[t, D_AIL + A_STUN] != 0:
        return 0
    pay_slot(i, s, w)
    chk = streams[S_CHECK]
    a_total, a_six = exploding_d6(chk, 2)
    a_total += comb[i, C_ATT] - roll_penalty(i, rules, dyn)
    gain_overcharge(i, comb[i, C_RA], a_six, comb, rules, dyn)
    passive = comb[t, C_PDEF] >= 0
    if passive:
        d_total = comb[t, C_PDEF]
        d_six = 0
        d_stat = 0
    else:
        d_total, d_six = exploding_d6(chk, 2)
        d_stat = comb[t, C_DEF]
        d_total += d_stat - roll_penalty(t, rules, dyn) + dyn[t, D_DEF_BONUS]
        gain_overcharge(t, comb[t, C_RD], d_six, comb, rules, dyn)
    won = _hits(passive, rules[R_MINION_TIE], a_total, a_six, comb[i, C_ATT], d_total, d_six, d_stat,
                rules[R_FULL_TIE] == 1)
    check_bursts(i, comb, rules, dyn)
    check_bursts(t, comb, rules, dyn)
    if won:
        give_ailment(t, A_STUN, dyn)
        return 2
    return 1


@part
def try_group_heal(i, w):
    """Wave of Courage (L1746): a Major action; she and every standing ally
    within the row's range (3; gridless: all) regain P1 d6 + P2, one roll
    each (A45b) or one roll for all (rule ``group_heal_roll: once``, A45a). Used
    when at least P3 of them (or all, if fewer) are below ``heal_below``."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GROUP_HEAL, comb, dyn)
    if s < 0:
        return False
    low = 0
    standing = 0
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(dyn, j):
            continue
        if not within(i, j, s, w):
            continue
        standing += 1
        if dyn[j, D_RES] * 100 < comb[i, P_HEAL_BELOW] * comb[j, C_RES]:
            low += 1
    if low == 0:
        return False
    if low < comb[i, C_TP3 + s]:
        if low < standing:
            return False
    pay_slot(i, s, w)
    once = rules[R_GROUP_HEAL_ROLL] == 1
    amount = 0
    if once:
        amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(dyn, j):
            continue
        if not within(i, j, s, w):
            continue
        if not once:
            amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
        restore(i, j, amount, comb, dyn)
    check_bursts(i, comb, rules, dyn)
    return True


@kernel
def guided_strike(i, comb, rules, dyn):
    """Guided Strike (L1736): a Major action letting an ally act; she spends it
    on the standing, un-Stunned ally with the highest Attack when that is
    higher than her own (the ally then makes the basic attack). Returns the
    ally, or -1 (she attacks herself)."""
    s, best = guided_choice(i, comb, dyn)
    if best >= 0:
        pay_talent(i, s, comb, rules, dyn)
        check_bursts(i, comb, rules, dyn)
    return best


@kernel
def guided_choice(i, comb, dyn):
    """Guided Strike's slot and ally (see :func:`guided_strike`), nothing paid;
    ``(-1, -1)`` when she would not use it."""
    s = find_usable(i, E_GUIDED_STRIKE, comb, dyn)
    if s < 0:
        return -1, -1
    best = -1
    best_att = comb[i, C_ATT]
    for j in range(comb.shape[0]):
        if not other_ally(i, j, comb, dyn):
            continue
        if dyn[j, D_AIL + A_STUN] != 0:
            continue
        if comb[j, C_ATT] > best_att:
            best_att = comb[j, C_ATT]
            best = j
    return s, best


@kernel
def give_reflector(i, w):
    """Reflector (L1528): after her successful attack (once per round: her
    first Major of the turn), the standing ally lowest in Resolve share
    within the row's range (1-3; gridless: any) bears a Reflector until the
    end of her next turn; herself with no ally in range."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = -1
    for k in range(MAXT):
        if comb[i, C_TCODE + k] == E_REFLECTOR:
            s = k
    if s < 0:
        return
    if sealed(i, dyn):
        return
    best = i
    best_share = 1 << 40
    if comb[i, C_TP2 + s] != 0:  # the draft: 'on yourself or an ally' (DRAFT L89)
        best_share = dyn[i, D_RES] * 100 // comb[i, C_RES]
    for j in range(comb.shape[0]):
        if not other_ally(i, j, comb, dyn):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < best_share:
            best_share = share
            best = j
    dyn[best, D_REFLECT_BY] = i
    dyn[best, D_REFLECT_UNTIL] = dyn[i, D_TURNS_DONE] + 2
    dyn[i, K_TUSE + s] += 1


@kernel
def reflect(i, t, dmg, w):
    """A hit by ``i`` on a Reflector bearer ``t``: she ignores up to P1 of the
    damage and the attacker takes those points (not an attack); returns the
    damage left. An expired Reflector is removed."""
    comb, rules, dyn, streams, bf = unpack(w)
    g = dyn[t, D_REFLECT_BY]
    if dyn[g, D_TURNS_DONE] >= dyn[t, D_REFLECT_UNTIL]:
        dyn[t, D_REFLECT_BY] = -1
        return dmg
    if comb[i, C_SIDE] == comb[t, C_SIDE]:
        return dmg
    cap = 0
    for k in range(MAXT):
        if comb[g, C_TCODE + k] == E_REFLECTOR:
            cap = comb[g, C_TP1 + k]
    cut = dmg if dmg < cap else cap
    if cut <= 0:
        return dmg
    dyn[t, K_PREVENTED] += cut
    took = apply_damage(i, cut, w)
    dyn[i, K_TAKEN] += took
    dyn[i, K_SELF_DMG] += took
    dyn[g, K_DEALT] += took
    return dmg - cut


@kernel
def after_hit(i, t, dealt, w):
    """What a hit on ``t`` (dealing ``dealt``) sets off on her side's talents:

    * Life Bomb (L1712): her bomb goes off; she heals half the attack's
      damage (round down, A46) if still standing (at 0 she has no magic, L1420);
    * Implode (L1763): if the attacker ``i`` is imploded, it takes half the
      damage it dealt (round up) itself.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_BOMB] != 0:
        dyn[t, D_BOMB] = 0
        if is_standing(dyn, t):
            restore(t, t, dealt // 2, comb, dyn)
    g = dyn[i, D_IMPLODE_BY]
    if g >= 0:
        if dyn[g, D_TURNS_DONE] >= dyn[i, D_IMPLODE_UNTIL]:
            dyn[i, D_IMPLODE_BY] = -1
        elif dealt > 0:
            took = apply_damage(i, (dealt + 1) // 2, w)
            dyn[i, K_TAKEN] += took
            dyn[i, K_SELF_DMG] += took
            dyn[g, K_DEALT] += took


@kernel
def try_life_bomb(i, comb, rules, dyn):
    """Life Bomb (L1712): a Major action placing a bomb that heals her half
    the damage of the next hit on her; placed when she has none and is
    below ``heal_below``."""
    if dyn[i, D_BOMB] != 0:
        return False
    if dyn[i, D_RES] * 100 >= comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        return False
    s = find_usable(i, E_LIFE_BOMB, comb, dyn)
    if s < 0:
        return False
    pay_talent(i, s, comb, rules, dyn)
    dyn[i, D_BOMB] = 1
    return True


@kernel
def try_implode(i, w):
    """Implode (L1763): a Major action, Support vs Support against the
    policy's target (ties to the defender, A21); on success, until the end of
    her next turn, whenever it deals damage it takes half (round up) itself.
    Used on a target with a higher Attack than hers that is not imploded."""
    comb, rules, dyn, streams, bf = unpack(w)
    s, t = talent_on_target(i, E_IMPLODE, w)
    if s < 0:
        return False
    if comb[t, C_ATT] <= comb[i, C_ATT]:
        return False
    g = dyn[t, D_IMPLODE_BY]
    if g >= 0:
        if dyn[g, D_TURNS_DONE] < dyn[t, D_IMPLODE_UNTIL]:
            return False
    pay_slot(i, s, w)
    u_total, u_six = support_roll(i, w)
    d_total, d_six = support_roll(t, w)
    if beats(u_total, u_six, comb[i, C_SUP], d_total, d_six, comb[t, C_SUP], False):
        dyn[t, D_IMPLODE_BY] = i
        dyn[t, D_IMPLODE_UNTIL] = dyn[i, D_TURNS_DONE] + 2
    check_bursts(i, comb, rules, dyn)
    check_bursts(t, comb, rules, dyn)
    return True


# ---------------------------------------------------------------- team talents


@kernel
def has_other_ally(i, comb, dyn):
    """Some member of ``i``'s side other than ``i`` stands."""
    for j in range(comb.shape[0]):
        if other_ally(i, j, comb, dyn):
            return True
    return False


@kernel
def followed(i, t, comb, dyn):
    """Follow Up (L1819): an ally of ``i`` (not herself) hit ``t`` in the
    turn just before the current one (the fight's turn clock, ``D_CLOCK``)."""
    if dyn[t, D_HIT_AT] != dyn[0, D_CLOCK] - 1:
        return False
    by = dyn[t, D_HIT_BY]
    if by < 0:
        return False
    if by == i:
        return False
    return comb[by, C_SIDE] == comb[i, C_SIDE]


@kernel
def follow_up_target(i, comb, dyn):
    """The standing enemy an ally hit in the turn just before hers, when she
    can use Follow Up on it (her Major action then follows the hit); -1 else."""
    if find_usable(i, E_FOLLOW_UP, comb, dyn) < 0:
        return -1
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for t in range(comb.shape[0]):
        if _candidate(t, side, finish, comb, dyn):
            if followed(i, t, comb, dyn):
                return t
    return -1


@kernel
def opening_bonus(i, t, comb, dyn):
    """Make an Opening (L1776): +P1 to ``i``'s attack on ``t`` when an ally
    (not ``i``) opened ``t`` and that ally's next turn has not ended yet."""
    g = dyn[t, D_OPEN_BY]
    if g < 0:
        return 0
    if g == i:
        return 0
    if comb[g, C_SIDE] != comb[i, C_SIDE]:
        return 0
    if dyn[g, D_TURNS_DONE] >= dyn[t, D_OPEN_UNTIL]:
        return 0
    return dyn[t, D_OPEN_BONUS]


@kernel
def seal_magic(i, t, comb, rules, dyn):
    """Seal Magic (L2098, free, after a successful attack): pay; ``t`` uses
    no talent until the end of the next round. Used on a standing target
    with talents, or with Boost uses and a policy that boosts, not sealed
    already."""
    if not is_standing(dyn, t):
        return
    if comb[t, C_TMASK] == 0:
        if dyn[t, D_BOOSTS] <= 0:
            return
        if comb[t, P_BOOST] == BOOST_NEVER:
            return
    if dyn[t, D_SEALED_UNTIL] > dyn[0, D_ROUND]:
        return
    s = find_usable(i, E_SEAL_MAGIC, comb, dyn)
    if s < 0:
        return
    pay_talent(i, s, comb, rules, dyn)
    dyn[t, D_SEALED_UNTIL] = dyn[0, D_ROUND] + 1


@kernel
def aura_of_strength(t, i, w):
    """Aura of Strength (L1689): ``t`` succeeded on a defence roll against
    ``i``; enemies adjacent to her take P1 damage each (not an attack, no
    reductions). Adjacent = the attacker when its attack is melee
    (``C_FORM``); see the STATUS file for the grid. On the draft's positions
    (DRAFT L95, 'all enemies in the same position as you'): every enemy of
    ``t`` in her position, standing or downed, the attacker or not."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_POSITIONS] > 0:
        for s in range(MAXT):
            if comb[t, C_TCODE + s] == E_AURA_STRENGTH:
                dyn[t, K_TUSE + s] += 1
                for j in range(comb.shape[0]):
                    if comb[j, C_SIDE] == comb[t, C_SIDE]:
                        continue
                    if dyn[j, D_DEAD] != 0:
                        continue
                    if dyn[j, D_PLACE] != dyn[t, D_PLACE]:
                        continue
                    took = apply_damage(j, comb[t, C_TP1 + s], w)
                    dyn[t, K_DEALT] += took
                    dyn[j, K_TAKEN] += took
                    dyn[j, K_SELF_DMG] += took
        return
    if comb[i, C_FORM] != 0:
        return
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_AURA_STRENGTH:
            dyn[t, K_TUSE + s] += 1
            took = apply_damage(i, comb[t, C_TP1 + s], w)
            dyn[t, K_DEALT] += took
            dyn[i, K_TAKEN] += took
            dyn[i, K_SELF_DMG] += took


@kernel
def courage_aura(i, sign, comb, dyn):
    """Courage Aura (L1739): her allies (not herself) get +P1 to all
    challenges while she stands (gridless: all of them; the bonus is a
    negative entry in their ``D_FEAR`` penalty). ``sign`` +1 removes it (she
    dropped), -1 gives it back (she revived)."""
    p = 0
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_COURAGE:
            p += comb[i, C_TP1 + s]
    for j in range(comb.shape[0]):
        if j != i:
            if comb[j, C_SIDE] == comb[i, C_SIDE]:
                dyn[j, D_FEAR] += sign * p


@kernel
def drop_effects(t, comb, dyn):
    """Effects that end when ``t`` drops to 0 Resolve: Amplify Magic on her
    (L1797; the draft's L269: her amplified Hexes go back to their normal
    damage), her Courage Aura."""
    dyn[t, D_AMP_HEAL] = 0
    dyn[t, D_AMP_AIL] = 0
    if dyn[t, D_AMP_HEX_BY] != 0:
        dyn[t, D_HEXES] -= dyn[t, D_HEX_EXTRA]
        dyn[t, D_HEX_EXTRA] = 0
        dyn[t, D_AMP_HEX_BY] = 0
        dyn[t, D_AMP_HEX] = 0
    if (comb[t, C_TMASK] >> E_COURAGE) & 1 != 0:
        courage_aura(t, 1, comb, dyn)


@kernel
def try_amplify(i, comb, rules, dyn, streams):
    """Amplify Magic (L1795, Minor, until the scene ends or the target drops):
    on the standing ally (herself included) lowest in Resolve share below
    ``heal_below`` when her side heals, +P1 to every healing she receives;
    else, when her side gives ailments, on the policy's target, -P2 to its
    rolls to resist or remove ailments (only with ``ailment`` > 0). The
    draft's Amplify Magic (DRAFT L265-269, ``hex`` > 1) has the healing half
    and, in its place, the Hex half: when she has Hex, on the policy's
    target while it bears no Hex yet (so every Hex she places on it later
    counts), her Hexes on it deal ``hex`` times their damage
    (:func:`try_hex`). Not on someone already amplified."""
    s = find_usable(i, E_AMPLIFY, comb, dyn)
    if s < 0:
        return False
    side_mask = comb[i, C_SIDEMASK]
    heals = (1 << E_HEAL) | (1 << E_SECOND_WIND) | (1 << E_GROUP_HEAL) | (1 << E_DRAIN) | (1 << E_LIFE_BOMB)
    if (side_mask & heals) != 0:
        best = -1
        best_share = 1 << 40
        for j in range(comb.shape[0]):
            if comb[j, C_SIDE] != comb[i, C_SIDE]:
                continue
            if not is_standing(dyn, j):
                continue
            if dyn[j, D_AMP_HEAL] != 0:
                continue
            share = dyn[j, D_RES] * 100 // comb[j, C_RES]
            if share < comb[i, P_HEAL_BELOW]:
                if share < best_share:
                    best_share = share
                    best = j
        if best >= 0:
            pay_talent(i, s, comb, rules, dyn)
            dyn[best, D_AMP_HEAL] = comb[i, C_TP1 + s]
            return True
    if comb[i, C_TP3 + s] > 1:
        if has_code(i, E_HEX, comb):
            t = choose_target(i, comb, dyn, streams[S_POLICY])
            if t >= 0:
                if is_standing(dyn, t):
                    if dyn[t, D_AMP_HEX_BY] == 0:
                        if dyn[t, D_HEXES] == 0:
                            pay_talent(i, s, comb, rules, dyn)
                            dyn[t, D_AMP_HEX_BY] = i + 1
                            dyn[t, D_AMP_HEX] = comb[i, C_TP3 + s]
                            return True
    if comb[i, C_TP2 + s] == 0:
        return False
    ailing = (1 << E_INFLICT) | (1 << E_CURSE) | (1 << E_SCREAM) | (1 << E_ATTACK_AILMENT) | (1 << E_STEAL_ACTION)
    if (side_mask & ailing) != 0:
        t = choose_target(i, comb, dyn, streams[S_POLICY])
        if t >= 0:
            if is_standing(dyn, t):
                if dyn[t, D_AMP_AIL] == 0:
                    pay_talent(i, s, comb, rules, dyn)
                    dyn[t, D_AMP_AIL] = comb[i, C_TP2 + s]
                    return True
    return False


@part
def ailment_attack(i, t, comb, rules, dyn):
    """Binding / Debilitating Attack (L2011, L2025): the first usable slot
    whose ailment a standing ``t`` lacks; paid; returns it or -1."""
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_ATTACK_AILMENT:
            if dyn[t, D_RES] > 0:
                if dyn[t, D_AIL + comb[i, C_TP1 + s]] == 0:
                    if dyn[i, D_TUSES + s] != 0:
                        if can_pay(i, s, comb, dyn):
                            pay_talent(i, s, comb, rules, dyn)
                            return s
    return -1


@kernel
def minion_explosion(i, comb, rules, dyn):
    """Minion Explosion (L1987, Major, its cost): the monster's attack
    originates from one of its standing minions, which is destroyed (dead);
    returns the slot (a hit adds P1 d6 + P2) or -1. Used whenever it has a
    standing minion and the pool for it (gridless: the minion's position is
    as good as its own). On the hex grid the attack originates from the hex of
    the minion the turn chose (``D_BLAST``, :func:`.battle_grid.blast_choice`:
    its hex must reach the target) and only then; the turn clears ``D_BLAST``."""
    s = find_usable(i, E_MINION_EXPLOSION, comb, dyn)
    if s < 0:
        return -1
    m = -1
    if dyn[i, D_BLAST] != 0:
        if other_ally(i, dyn[i, D_BLAST] - 1, comb, dyn):
            m = dyn[i, D_BLAST] - 1
    elif rules[R_GRID] == 0:  # on the grid: only from a minion's hex that reaches the target
        for k in range(comb.shape[0]):
            if m < 0:
                if comb[k, C_PDEF] >= 0:
                    if other_ally(i, k, comb, dyn):
                        m = k
    if m < 0:
        return -1
    pay_talent(i, s, comb, rules, dyn)
    dyn[m, D_RES] = 0
    dyn[m, D_DEAD] = 1
    dyn[m, K_DEATHS] += 1
    return s


@kernel
def belkan_hit(i, comb, dyn):
    """Belkan System (L1675): each successful melee hit (she has no ranged
    attacks) stores one +P1 bonus, at most P2 of them."""
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BELKAN:
            if dyn[i, D_BELKAN] < comb[i, C_TP2 + s]:
                dyn[i, D_BELKAN] += 1


@kernel
def try_curse_shift(i, w):
    """Curse Shift (L2017, Major, its cost + 1 per further effect): move the
    ailments it bears to the policy's target (1-2 hexes on the grid ``bf``), those
    the target lacks, while its pool pays. Used when it bears an ailment
    the target lacks."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_ailment(i, dyn):
        return False
    s, t = talent_on_target(i, E_CURSE_SHIFT, w)
    if s < 0:
        return False
    moved = 0
    for a in range(3):
        if dyn[i, D_AIL + a] != 0:
            if dyn[t, D_AIL + a] == 0:
                if moved > 0:
                    if not can_pay(i, s, comb, dyn):
                        break
                pay_slot(i, s, w)
                dyn[i, D_AIL + a] = 0
                give_ailment(t, a, dyn)
                moved += 1
    return moved > 0


@kernel
def ambush_turns(order, w):
    """Ambush Tactics (L2006): before round 1 each standing combatant with it
    (initiative order) takes an extra turn, its attack at +P3 and +P1 d6 + P2
    damage; then the ambushers go first in round 1 ("can go first if it
    chooses": it always does). Returns the outcome, -1 while the fight goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    outcome = -1
    front = 0
    for k in range(n):
        i = order[k]
        if (comb[i, C_TMASK] >> E_AMBUSH) & 1 == 0:
            continue
        for m in range(k, front, -1):  # move it to the front, keeping the others' order
            order[m] = order[m - 1]
        order[front] = i
        front += 1
        if outcome >= 0:
            continue
        if not is_standing(dyn, i):
            continue
        dyn[i, D_AMBUSH] = 1
        play_turn(i, w)
        dyn[i, D_AMBUSH] = 0
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
    return outcome


@kernel
def _lowest_two(i, s, w):
    """The two standing members of ``i``'s side (herself included) within the
    range of her slot ``s`` (:func:`within`) lowest in Resolve share,
    ``(first, second)``; -1 where there are not enough."""
    comb, rules, dyn, streams, bf = unpack(w)
    a = -1
    b = -1
    sa = 1 << 40
    sb = 1 << 40
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(dyn, j):
            continue
        if not within(i, j, s, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < sa:
            b = a
            sb = sa
            a = j
            sa = share
        elif share < sb:
            b = j
            sb = share
    return a, b


@kernel
def try_link(i, w):
    """Link (L1743, Minor, one link at a time, to the end of the scene):
    when her side heals, link the two allies (herself included) lowest in
    Resolve share, the lowest as primary: healing on the primary is copied to
    the secondary (A47b, :func:`restore`); else, when her side gives
    ailments, the policy's target as primary and another standing enemy as
    secondary: ailments on the primary are copied (:func:`give_ailment`).
    She makes a new link when she has none or one of the linked dropped.

    The draft's Link (DRAFT L165-169, ``damage: 1``, range 0-2 positions)
    copies damage too: while two enemies stand she links the policy's target
    (primary) and the other standing enemy lowest in Resolve (secondary), and
    every damage on the primary is dealt to the secondary as well
    (:func:`link_damage`).

    Both linked must be within the slot's range of her (:func:`within`): 4.1
    "2 enemies or 2 allies within 1-3, may include yourself" on the hex grid,
    the draft's 0-2 on positions; gridless always."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = dyn[i, D_LINKED]
    if p >= 0:
        k = dyn[p, D_LINK_TO]
        if k >= 0:
            if is_standing(dyn, p):
                if is_standing(dyn, k):
                    return False
    s = find_usable(i, E_LINK, comb, dyn)
    if s < 0:
        return False
    side_mask = comb[i, C_SIDEMASK]
    heals = (1 << E_HEAL) | (1 << E_SECOND_WIND) | (1 << E_GROUP_HEAL) | (1 << E_DRAIN) | (1 << E_LIFE_BOMB)
    ailing = (1 << E_INFLICT) | (1 << E_CURSE) | (1 << E_SCREAM) | (1 << E_ATTACK_AILMENT) | (1 << E_STEAL_ACTION)
    a = -1
    b = -1
    hurts = False
    if comb[i, C_TP1 + s] != 0:
        a, b = _enemy_pair(i, s, w)
        hurts = b >= 0
    if hurts:
        pass
    elif (side_mask & heals) != 0:
        a, b = _lowest_two(i, s, w)
    elif (side_mask & ailing) != 0:
        a = target_of(i, w)
        if a >= 0:
            if not is_standing(dyn, a):
                a = -1
            elif not within(i, a, s, w):
                a = -1
        if a >= 0:
            for j in range(comb.shape[0]):
                if j != a:
                    if comb[j, C_SIDE] == comb[a, C_SIDE]:
                        if is_standing(dyn, j):
                            if within(i, j, s, w):
                                b = j
                                break
    if b < 0:
        return False
    if p >= 0:
        dyn[p, D_LINK_TO] = -1  # one link at a time: the old one ends
        dyn[p, D_LINK_DMG] = 0
    pay_slot(i, s, w)
    dyn[a, D_LINK_TO] = b
    dyn[a, D_LINK_DMG] = 1 if hurts else 0
    dyn[i, D_LINKED] = a
    return True


@kernel
def _enemy_pair(i, s, w):
    """The draft's Link on enemies: ``(primary, secondary)`` = the policy's
    target and the other standing enemy lowest in Resolve (ties to the first
    listed; never a Marionette copy), both within the slot's reach
    (:func:`within`); ``(-1, -1)`` when there is no such pair."""
    comb, rules, dyn, streams, bf = unpack(w)
    a = target_of(i, w)
    if a < 0:
        return -1, -1
    if comb[a, C_SPAWN_KIND] == SPAWN_COPY:
        a = comb[a, C_SPAWN_BY]  # the decoy: she links the girl it copies
    if not is_standing(dyn, a):
        return -1, -1
    if not within(i, a, s, w):
        return -1, -1
    b = -1
    br = 1 << 40
    for j in range(comb.shape[0]):
        if j == a:
            continue
        if comb[j, C_SIDE] != comb[a, C_SIDE]:
            continue
        if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
            continue
        if not is_standing(dyn, j):
            continue
        if not within(i, j, s, w):
            continue
        if dyn[j, D_RES] < br:
            br = dyn[j, D_RES]
            b = j
    if b < 0:
        return -1, -1
    return a, b


@kernel
def undying_brood(t, comb, rules, dyn):
    """Undying Brood (L1999, free, its cost): the monster ``t`` has just
    dropped; if a minion of its side stands and the pool pays, that minion
    becomes the monster: the minion is gone (dead) and ``t`` stands again
    with Resolve = its Base Resolve // P1 (its side's minions at the start),
    halved for every earlier rebirth (at least 1), its pool carried over and
    ailments cleared (a new body). Returns True when it was reborn. On a grid
    it stays on its own hex."""
    s = find_talent(t, E_BROOD, comb, dyn)
    if s < 0:
        return False
    cost = comb[t, C_TCOST + s]
    if dyn[t, D_POOL] < cost:
        return False
    for m in range(comb.shape[0]):
        if comb[m, C_PDEF] < 0:
            continue
        if not other_ally(t, m, comb, dyn):
            continue
        pay_talent(t, s, comb, rules, dyn)
        dyn[m, D_RES] = 0
        dyn[m, D_DEAD] = 1
        dyn[m, K_DEATHS] += 1
        res = comb[t, C_RES] // comb[t, C_TP1 + s]
        res = res >> dyn[t, D_REBIRTHS]
        if res < 1:
            res = 1
        dyn[t, D_RES] = res
        dyn[t, D_REBIRTHS] += 1
        for a in range(3):
            dyn[t, D_AIL + a] = 0
        return True
    return False


@kernel
def hate_the_world(i, comb, rules, dyn):
    """Hate the World (L1597-1600, uses: the draft's 2/Scene): lower a bond
    by 1 (her strongest; never her last bond point, which would leave her lost)
    for +3 to a challenge and damage, or 1d6+4 Resolve (the callers). Returns
    the slot, or -1 when she cannot or will not."""
    s = find_usable(i, E_HATE, comb, dyn)
    if s < 0:
        return -1
    left = 0
    for b in range(MAXB):
        left += dyn[i, D_BOND + b]
    if left <= 1:
        return -1
    pay_talent(i, s, comb, rules, dyn)
    lose_bond(i, True, comb, dyn)
    return s


@kernel
def fight_for_friends(i, comb, rules, dyn):
    """Fight for Friends (L1590): +P1 to the attack and +P2 damage, declared
    before rolling, when the attack aims to prevent a disaster to someone
    close: read as an ally of hers lying at 0 Resolve, alive (wounds can kill
    her). Pays a use (the 4.1 uses line is lost; the draft's 2/Scene); returns
    the slot or -1.

    P3 = 1, the draft (DRAFT L23-27): + the level of her relationship to a
    character that is present, on any action: any living ally present, and
    her strongest bond's rank (bonds are not tied to characters here; see
    :func:`friends_bonus`)."""
    side = comb[i, C_SIDE]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, C_SIDE] != side:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        if dyn[j, D_RES] > 0:  # a standing ally counts only for the draft's reading
            s = find_usable(i, E_FRIENDS, comb, dyn)
            if s < 0 or comb[i, C_TP3 + s] == 0:
                continue
        s = find_usable(i, E_FRIENDS, comb, dyn)
        if s >= 0:
            pay_talent(i, s, comb, rules, dyn)
        return s
    return -1


@kernel(inline="always")
def friends_bonus(i, s, comb, dyn):
    """The draft's Fight for Friends bonus (slot P3 = 1): her strongest bond's
    rank (0 without bonds); 0 for the 4.1 row."""
    if comb[i, C_TP3 + s] == 0:
        return 0
    best = 0
    for b in range(MAXB):
        if dyn[i, D_BOND + b] > best:
            best = dyn[i, D_BOND + b]
    return best


# ---------------------------------------------------------------- bursts (rule bursts: play)


@kernel(inline="always")
def settle(w):
    """What an action left due, played after it (``bursts: play``, A7b): a
    frenzied girl's retaliation on whoever attacked her (L758), then every
    due burst (:func:`play_burst`), by :func:`settle_due`.

    Looking for something due is one load (``D_DUE``, set with every burst due and
    every retaliation); the work is the procedure ``PR_SETTLE``, compiled once."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_BURSTS] == BURSTS_COUNT:
        return
    if dyn[0, D_DUE] != 0:
        call(rules[PR_SETTLE], 0, 0, 0, w)


@kernel
def settle_due(w):
    """The work of :func:`settle`: retaliations and due bursts, in passes over
    the combatants until none is left. What they set off (a Judgment Burst's
    damage, a revive roll's overcharge) is played in the same call; every
    burst empties its counter, so this ends."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    dyn[0, D_DUE] = 0
    for _ in range(1000 + 64 * n):  # a bound for safety only: every pass spends or empties a counter
        busy = False
        for j in range(n):
            a = dyn[j, D_RETALIATE]
            if a >= 0:
                dyn[j, D_RETALIATE] = -1
                busy = True
                retaliate(j, a, w)
            for s in range(3):
                if dyn[j, D_PEND + s] != 0:
                    dyn[j, D_PEND + s] = 0
                    busy = True
                    play_burst(j, s, w)
        if not busy:
            dyn[0, D_DUE] = 0  # a pass found nothing: whatever set it again was played
            return


@kernel
def retaliate(j, a, w):
    """Frenzied ``j`` spends 2 Fury overcharge for a basic attack on ``a``, who
    attacked her (L758), if she is still frenzied and standing, has the 2
    points, ``a`` is alive and (on the grid or positions) within her reach."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_FRENZY] == 0:
        return
    if not is_standing(dyn, j):
        return
    if dyn[a, D_DEAD] != 0:
        return
    if dyn[j, D_OC + FURY] < 2:
        return
    if not gridless(rules):
        if call(rules[PR_REACH], j, a, 0, w) < 0:
            return  # a basic attack: only on an attacker within her reach (grid, positions)
    spend_fury(j, 2, dyn)
    dyn[j, K_RETALIATIONS] += 1
    if side_has_code(a, E_SWITCH, comb):
        a = defensive_switch(j, a, w)
    call(rules[PR_ATTACK_AT], j, a, 0, w)


@kernel
def lose_bond(j, strongest, comb, dyn):
    """A burst burns one point of ``j``'s strongest (or weakest) bond, the
    first listed on ties (L451, L762, L1165); with no bonds left she is lost
    (out of the fight). Returns whether she is lost."""
    best = -1
    for b in range(MAXB):
        v = dyn[j, D_BOND + b]
        if v <= 0:
            continue
        if best < 0:
            best = b
        elif strongest:
            if v > dyn[j, D_BOND + best]:
                best = b
        elif v < dyn[j, D_BOND + best]:
            best = b
    if best >= 0:
        dyn[j, D_BOND + best] -= 1
        dyn[j, K_BONDS_LOST] += 1
    left = 0
    for b in range(MAXB):
        left += dyn[j, D_BOND + b]
    if left > 0:
        return False
    if dyn[j, D_RES] > 0:
        if (comb[j, C_SIDEMASK] | comb[j, C_FOEMASK]) != 0:
            drop_effects(j, comb, dyn)  # her Courage Aura and Amplify Magic on her end (a burst: not a drop)
    dyn[j, D_LOST] = 1
    dyn[j, D_DEAD] = 1     # out of the fight: never targeted, never acts, her side no longer counts her
    dyn[j, D_RES] = 0
    dyn[j, D_PENDING] = -1
    dyn[j, D_FRENZY] = 0
    for s in range(3):
        dyn[j, D_PEND + s] = 0
    dyn[j, K_LOST] += 1
    return True


@kernel
def play_burst(j, s, w):
    """Girl ``j``'s burst on stat ``s`` (counted when it became due):

    * Heart (L451-453): the creature is a separate encounter (A8b,
      ``heart_burst: apart``); she loses a point of her strongest bond and
      the counter resets (L151);
    * Fury (L744-762): she burns a point of a bond (``fury_bond``) and, unless
      lost or at 0 Resolve (then the counter just resets), is frenzied: the
      counter is the Fury she must spend
      (:func:`frenzy_turn`, :func:`fury_spend`, :func:`retaliate`);
    * Judgment (L1163-1165): the counter is released as damage
      (:func:`judgment_blast`), resets, and she loses a point of her weakest
      bond.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_LOST] != 0:
        return
    if s == HEART:
        dyn[j, D_OC + HEART] = 0
        anchor = dyn[j, D_POS]
        lose_bond(j, True, comb, dyn)
        if rules[R_HEART_BURST] == 1:
            heart_creature(j, anchor, w)
    elif s == FURY:
        if not lose_bond(j, rules[R_FURY_BOND] == 0, comb, dyn):
            if dyn[j, D_RES] > 0:
                dyn[j, D_FRENZY] = 1 + rules[R_FURY_TALENTS]  # which talents she may use (frenzy_can_pay)
            else:  # at 0 Resolve she is a non-magical human (L1420): no frenzy, the counter is spent
                dyn[j, D_OC + FURY] = 0
    else:
        released = dyn[j, D_OC + JUDGMENT]
        dyn[j, D_OC + JUDGMENT] = 0
        judgment_blast(j, released, w)
        lose_bond(j, False, comb, dyn)


@kernel
def judgment_blast(j, released, w):
    """A Judgment Burst (L1163): ``released`` damage to everyone in the
    vicinity (gridless: the whole battlefield; on the grid within
    ``judgment_radius`` hexes, -1 = all, A10i), herself only with
    ``judgment_self`` (A10ii). Each bystander may avoid it entirely with a
    Support check reaching ``judgment_difficulty`` x released (L1163, A10iii:
    ``judgment_avoid``): 2d6! + Support (sixes give overcharge as usual), a
    girl at 0 Resolve 2d6 + Tenacity. Not an attack: no defence, no
    reductions."""
    comb, rules, dyn, streams, bf = unpack(w)
    if released <= 0:
        return
    n = comb.shape[0]
    diff = rules[R_JUDGMENT_DIFFICULTY] * released
    mode = rules[R_JUDGMENT_AVOID]
    chk = streams[S_CHECK]
    for k in range(n):
        if dyn[k, D_DEAD] != 0:
            continue
        if k == j:
            if rules[R_JUDGMENT_SELF] == 0:
                continue
        if on_grid(bf):
            if k != j:
                if rules[R_JUDGMENT_RADIUS] >= 0:
                    if call(rules[PR_DISTANCE], j, k, 0, w) > rules[R_JUDGMENT_RADIUS]:
                        continue
        rolls = k != j
        if mode == 2:
            rolls = False
        elif mode == 1:
            if comb[k, C_MONSTER] != 0:
                rolls = False
        if rolls:
            if dyn[k, D_RES] > 0:
                total, sixes = exploding_d6(chk, 2)
                total += comb[k, C_SUP] - roll_penalty(k, rules, dyn)
                gain_overcharge(k, comb[k, C_RS], sixes, comb, rules, dyn)
            else:  # a non-magical human (L1420, L1455), her wounds' penalty too (L1422)
                total = sum_d6(chk, 2) + comb[k, C_TEN] - roll_penalty(k, rules, dyn) - human_penalty(k, rules, dyn)
            if total >= diff:
                dyn[k, K_JUDG_AVOIDED] += 1
                check_bursts(k, comb, rules, dyn)
                continue
        took = apply_damage(k, released, w)
        dyn[k, K_TAKEN] += took
        dyn[k, K_JUDG_TAKEN] += took
        dyn[j, K_DEALT] += took  # damage dealt and taken stay two views of the same hits
        if k != j:
            dyn[j, K_JUDG_DEALT] += took
        check_bursts(k, comb, rules, dyn)


@kernel
def frenzy_gap(i, j, w):
    """How far ``j`` is from frenzied ``i``: hexes on the grid, positions on the
    draft's map (``positions`` > 0), 0 gridless (``D_PLACE`` stays 0 there, so
    every target is as close, A9)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if on_grid(bf):
        return call(rules[PR_DISTANCE], i, j, 0, w)
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE])


@kernel(inline="always")
def _frenzy_candidate(i, j, dyn):
    """A standing combatant other than frenzied ``i`` and her own Marionette copy."""
    if j == i:
        return False
    if j == dyn[i, D_COPY] - 1:
        return False
    return is_standing(dyn, j)


@kernel
def frenzy_target(i, w):
    """Whom frenzied ``i`` attacks or moves toward (L746: "preference is given
    to closest targets, then to the targets that pose greater threat, then to
    the hostiles"; A9 ``fury_target``). Among the standing combatants (allies
    included, not her own Marionette copy) the closest (:func:`frenzy_gap`:
    gridless all are as close), then 'threat' the highest Attack, ties to
    hostiles, then the first listed; 'random' any of the closest; 'enemies'
    her policy's target. -1 if nobody."""
    comb, rules, dyn, streams, bf = unpack(w)
    mode = rules[R_FURY_TARGET]
    if mode == 2:
        return target_of(i, w)
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    best = -1
    best_d = 0
    count = 0
    for j in range(n):
        if not _frenzy_candidate(i, j, dyn):
            continue
        d = frenzy_gap(i, j, w)
        if best < 0 or d < best_d:
            best = j
            best_d = d
            count = 1
            continue
        if d > best_d:
            continue
        count += 1
        if comb[j, C_ATT] > comb[best, C_ATT]:
            best = j
        elif comb[j, C_ATT] == comb[best, C_ATT]:
            if comb[best, C_SIDE] == side:
                if comb[j, C_SIDE] != side:
                    best = j
    if mode == 0:
        return best
    if count == 0:
        return -1
    k = randbelow(streams[S_POLICY], count)
    for j in range(n):
        if not _frenzy_candidate(i, j, dyn):
            continue
        if frenzy_gap(i, j, w) != best_d:
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel
def sorcery_target(i, comb, dyn, streams):
    """The policy's target when it lacks an ailment sorcery could give, else -1."""
    t = choose_target(i, comb, dyn, streams[S_POLICY])
    if t < 0:
        return -1
    if not is_standing(dyn, t):
        return -1
    if dyn[t, D_AIL] + dyn[t, D_AIL + 1] + dyn[t, D_AIL + 2] >= 3:
        return -1
    return t


@kernel
def cast_sorcery(i, mode, comb, rules, dyn, streams):
    """Sorcery in battle (L1169-1223, L1471), read as an ailment on the
    policy's target (A27iv: "floorboards sprout and entangle an enemy").

    ``mode``: 0 Minor, 1 Major, 2 the whole turn (``sorcery_penalty``). The
    roll is 2d6! + Fury (hurting is Fury's intent, L1169; its sixes are Fury
    overcharge) - the mode's penalty + Battle Sorcery, against
    ``sorcery_window`` [low, mid, high]: at or below low it fails (exactly low:
    ``sorcery_low``); below mid a success with a side effect (+1 Fury
    overcharge); below high a clean success; from high a drawback (+1 Fury
    overcharge) and a benefit (a second ailment). The target does not resist
    (A27iii: the 4.1 text gives no roll). Returns True if she cast.
    """
    t = sorcery_target(i, comb, dyn, streams)
    if t < 0:
        return False
    fury = comb[i, C_ATT]
    if comb[i, C_RD] == 1:
        fury = comb[i, C_DEF]
    elif comb[i, C_RS] == 1:
        fury = comb[i, C_SUP]
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += fury - roll_penalty(i, rules, dyn) - rules[R_SORCERY_PENALTY + mode]
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BATTLE_SORCERY:
            total += comb[i, C_TP1 + s]
            dyn[i, K_TUSE + s] += 1
    extra = 0
    low = rules[R_SORCERY_WINDOW]
    ok = total > low
    if total == low:
        ok = rules[R_SORCERY_LOW] != 0
        if rules[R_SORCERY_LOW] == 1:
            extra = 1
    elif total < rules[R_SORCERY_WINDOW + 1]:
        extra = 1
    elif total >= rules[R_SORCERY_WINDOW + 2]:
        extra = 1
    dyn[i, K_SPELLS] += 1
    if not ok:
        extra = 0
    gain_overcharge(i, 1, sixes + extra, comb, rules, dyn)
    if ok:
        dyn[i, K_SPELLS_OK] += 1
        n = 1
        if total >= rules[R_SORCERY_WINDOW + 2]:
            n = 2
        for k in range(3):
            a = (comb[i, P_INFLICT] + k) % 3
            if n > 0:
                if dyn[t, D_AIL + a] == 0:
                    give_ailment(t, a, dyn)
                    n -= 1
    check_bursts(i, comb, rules, dyn)
    return True


@kernel
def frenzy_turn(i, w):
    """A turn of frenzied ``i`` (L746-752): she regains ``fury_regen_dice``
    d6 Resolve, then attacks :func:`frenzy_target` (the closest standing
    combatant, allies included), her Minor a removal roll when she has an
    ailment and it takes no step (:func:`frenzy_removal`); her attack's riders
    (Killing Blow, Drain Life, ...) only as rule ``fury_talents`` allows
    (:func:`frenzy_can_pay`, L752, A9ii). Gridless the
    attack is her one action; on the hex grid (:func:`.battle_grid.frenzy_turn`)
    and on the draft's positions (:func:`.positions.frenzy_turn`) she moves
    toward it when it is out of reach (a Minor step, then the Major), and
    attacks it when in reach. ``fury_target: enemies`` on the grid: her usual
    grid turn (her policy's target among enemies, with her talents)."""
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
    if on_grid(bf):
        if rules[R_FURY_TARGET] == 2:
            call(rules[PR_TURN], i, 0, 0, w)  # 'enemies': her usual grid turn
        else:
            call(rules[PR_FRENZY_MOVE], i, frenzy_target(i, w), 0,
                 w)
        return
    if not on_positions(rules):
        frenzy_removal(i, comb, rules, dyn, streams)  # gridless her Minor never moves her
    t = frenzy_target(i, w)
    if on_positions(rules):
        call(rules[PR_FRENZY_MOVE], i, t, 0, w)
    elif t >= 0:
        if side_has_code(t, E_SWITCH, comb):
            t = defensive_switch(i, t, w)
        call(rules[PR_ATTACK], i, t, 0, w)
    if comb[i, C_TMASK] != 0:
        dyn[i, D_TURNS_DONE] += 1


@kernel
def frenzy_removal(i, comb, rules, dyn, streams):
    """A frenzied girl's Minor action when it does not step toward her target
    (L746: her turns "must attack a living target or move towards one", which the
    Major does): with an ailment she tries to remove it (L1467: 2d6! + Support,
    :func:`removal_roll`; Remedy instead when rule ``fury_talents`` lets her use
    it, :func:`try_remedy`). Stunned she has one action (L1461), the attack: no
    removal. Returns whether the Minor was used."""
    if not has_ailment(i, dyn):
        return False
    if dyn[i, D_AIL + A_STUN] != 0:
        return False
    remedied = False
    if (comb[i, C_TMASK] >> E_REMEDY) & 1 != 0:
        remedied = try_remedy(i, i, comb, rules, dyn)
    if not remedied:
        removal_body(i, comb, rules, dyn, streams)
    return True


@kernel(inline="always")
def frenzy_again(i, comb, rules, dyn):
    """``i`` is frenzied and standing: she has the frenzy's second turn due."""
    if dyn[i, D_FRENZY] == 0:
        return False
    return is_standing(dyn, i)


@part
def take_turn(i, w):
    """One turn of ``i`` (L1410): a Major and a Minor action, free actions.

    1. Ailments: with Remedy she removes them for sure (:func:`try_remedy`),
       else a removal roll (2d6! + Support); either takes the Minor action,
       or her only action if Stunned; removing Stun gives the second action
       back (L1461, L1467, A25: Minor).
    2. Minor: a talent (:func:`minor_talent`: heal, Remedy on an ally,
       Curse, Steal Action; a successful Steal Action gives another Minor).
    3. Major: a Scream-like ability or Wave of Courage if enough would be
       affected (:func:`major_talent`); else a basic attack on the policy's
       target (A13) with its talent riders (:func:`declare_riders`), made by
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
    turn_start(i, w)
    actions = turn_ailments(i, w)
    actions = turn_minor(i, actions, w)
    minor = actions >= 2
    t0 = -1
    if pos:  # the policy's target and a Minor step toward its range first
        actions, minor, t0 = positions_before(i, actions, minor, w)
    # the Major action, then (Bonus Action, free) another Major
    majors = 1 if actions >= 1 else 0
    for m in range(2):
        if m >= majors:
            if m > 0:
                break
            continue
        acted, who, t, t0 = major_choice(i, m, t0, w)
        if not acted:
            if t < 0:
                if not pos:
                    break
                if t0 < 0:
                    break  # nobody left to fight
                # nobody in reach: the Major moves her (Disengage when engaged)
                if call(rules[PR_POS_MAJOR_TOWARD], i, t0, 1 if minor else 0, w) != 0:
                    minor = False
                    dyn[i, D_MINOR_USED] = 1
                if not is_standing(dyn, i):
                    break
            else:
                major_strike(i, m, who, t, w)
        if settle_now(rules):
            if settle_in_turn(i, 1, w) == 0:
                break
        if m == 0:
            if mask != 0:
                bonus = True
                if pos:
                    bonus = call(rules[PR_POS_ANY_IN_REACH], i, 0, 0, w) != 0
                if bonus:
                    if bonus_action(i, comb, rules, dyn):
                        majors = 2
    if pos:  # a Minor still unused: one more position toward her range
        if minor:
            positions_after(i, t0, w)
    if mask != 0:
        dyn[i, D_TURNS_DONE] += 1


@part
def turn_start(i, w):
    """The start of ``i``'s turn: Second Wind's bonus ends (L1716), her Minor is free;
    on positions the rough-terrain payment of ``rough_cost: same_turn`` (A15a) and
    the auras by position; the draft's free Empower and Regeneration."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    dyn[i, D_DEF_BONUS] = 0
    dyn[i, D_MINOR_USED] = 0
    if on_positions(rules):
        if rules[R_ROUGH_COST] == 0:
            dyn[i, D_PAID] = 0
        call(rules[PR_AURAS], i, 0, 0, w)
    if (mask >> E_MORE) & 1 != 0:
        if has_code(i, E_MOOD, comb):
            try_mood(i, True, w)
        if has_code(i, E_REGEN, comb):
            try_regeneration(i, comb, rules, dyn)


@part
def turn_ailments(i, w):
    """Her actions this turn (2; 1 Stunned, L1461) after her ailments: with Remedy she
    removes them for sure (:func:`try_remedy`), else a removal roll (2d6! + Support,
    L1467); either takes her Minor, or her only action if Stunned, and removing Stun
    gives the second action back (A25); what it set off is settled."""
    comb, rules, dyn, streams, bf = unpack(w)
    actions = 2
    if dyn[i, D_AIL + A_STUN] != 0:
        actions = 1  # "can take only one action per turn" (L1461)
    if has_ailment(i, dyn):
        stunned = dyn[i, D_AIL + A_STUN] != 0
        remedied = False
        if (comb[i, C_TMASK] >> E_REMEDY) & 1 != 0:
            remedied = try_remedy(i, i, comb, rules, dyn)
        if not remedied:
            removal_roll(i, w)
        actions -= 1
        dyn[i, D_MINOR_USED] = 1
        if stunned:
            if dyn[i, D_AIL + A_STUN] == 0:
                actions += 1  # "she regains the second action"
        check_bursts(i, comb, rules, dyn)
        if settle_now(rules):
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
            if settle_now(rules):
                actions = settle_in_turn(i, actions, w)
    return actions


@part
def positions_before(i, actions, minor, w):
    """On the draft's positions, before her Major: the policy's target ``t0``, Sprint
    (free, before her Minor, DRAFT L149-153), Get Back, or a Minor step toward her
    range. Returns ``(actions, minor still free, t0)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    t0 = -1
    if actions >= 1:
        t0 = call(rules[PR_POS_PICK], i, 0, 0, w)
        if mask != 0:
            if has_code(i, E_SPRINT, comb):
                call(rules[PR_POS_SPRINT], i, t0, 0, w)  # no damage: she still stands
        if minor:
            if mask != 0:
                if has_code(i, E_GET_BACK, comb):  # Get Back: an engaged, hurt ally to Position 1
                    if call(rules[PR_POS_GET_BACK], i, 0, 0, w) != 0:
                        minor = False
                        actions -= 1
                        dyn[i, D_MINOR_USED] = 1
        if minor:
            if call(rules[PR_POS_MINOR_TOWARD], i, t0, 0, w) != 0:
                minor = False
                actions -= 1
                dyn[i, D_MINOR_USED] = 1
                if not is_standing(dyn, i):
                    actions = 0
                if settle_now(rules):
                    actions = settle_in_turn(i, actions, w)
    return actions, minor, t0


@part
def major_choice(i, m, t0, w):
    """Her ``m``-th Major action (the second after Bonus Action): Safe Place (positions),
    a Major talent (:func:`major_talent`), or the attack's maker and target: an ally
    with Guided Strike, Follow Up's target, the policy's (on positions among those in
    reach; Dash Strike when nobody is). Returns ``(acted, who attacks, her target or
    -1, t0)`` (``t0``: the positions' target, picked again when it is down)."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, C_TMASK]
    pos = on_positions(rules)
    acted = False
    who = i
    t = -1
    if mask != 0:
        if pos:
            if has_code(i, E_SAFE_PLACE, comb):  # Safe Place: an engaged ally to her position
                acted = call(rules[PR_POS_SAFE_PLACE], i, 0, 0, w) != 0
        if not acted:
            acted = major_talent(i, w)
        if not acted:
            if pos:  # Guided Strike only when the ally has someone in reach
                gs, g = guided_choice(i, comb, dyn)
                if g >= 0:
                    tg = call(rules[PR_POS_PICK], g, 1, 0, w)
                    if tg >= 0:
                        pay_slot(i, gs, w)
                        check_bursts(i, comb, rules, dyn)
                        who = g
                        t = tg
            elif has_code(i, E_GUIDED_STRIKE, comb):
                g = guided_strike(i, comb, rules, dyn)
                if g >= 0:
                    who = g
    if acted:
        return acted, who, t, t0
    if who == i:
        if (mask >> E_FOLLOW_UP) & 1 != 0:
            t = follow_up_target(i, comb, dyn)
            if pos:
                if t >= 0:
                    if call(rules[PR_REACH], i, t, 0, w) < 0:
                        t = -1
    if t < 0:
        if pos:
            if who == i:
                if m > 0:  # after a Bonus Action: her target may be down
                    if t0 >= 0:
                        if not _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, comb, dyn):
                            t0 = call(rules[PR_POS_PICK], i, 0, 0, w)
                if t0 >= 0:
                    if _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, comb, dyn):
                        if call(rules[PR_REACH], i, t0, 0, w) >= 0:
                            t = t0
            if t < 0:
                t = call(rules[PR_POS_PICK], who, 1, 0, w)
            if t < 0:
                if who == i:
                    if mask != 0:
                        if has_code(i, E_MOVE_ATTACK, comb):  # Dash Strike: a step, then the attack
                            t = call(rules[PR_POS_DASH], i, t0, 0, w)
        else:
            t = target_of(who, w)
    return acted, who, t, t0


@part
def major_strike(i, m, who, t, w):
    """The basic attack of ``who`` (she, or the ally her Guided Strike sends) on ``t``:
    Defensive Switch, Speed Burst off her turn to Cover (positions), Get Over Here /
    Repel paid, the attack (on positions: the form by distance, Cover, the shove),
    Reflector after her own first Major's hit."""
    comb, rules, dyn, streams, bf = unpack(w)
    pos = on_positions(rules)
    if side_has_code(t, E_SWITCH, comb):
        t = defensive_switch(who, t, w)
    if pos:
        if side_has_code(t, E_SPRINT, comb):
            call(rules[PR_POS_COVER_SPRINT], who, t, 0, w)  # Speed Burst off her turn
    sh = -1
    if who == i:
        if has_code(i, E_SHOVE, comb):
            sh = pay_shove(i, comb, rules, dyn)  # gridless: a basic attack, paid (no hex to move)
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
            if dealt >= 0:
                if (comb[i, C_TMASK] >> E_REFLECTOR) & 1 != 0:
                    give_reflector(i, w)


@part
def positions_after(i, t0, w):
    """On positions, her Minor still unused after the Majors: one more position toward
    her range (the target picked again when it is down)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_MINOR_USED] == 0:
        if is_standing(dyn, i):
            if t0 >= 0:
                if not _candidate(t0, comb[i, C_SIDE], comb[i, P_FINISH] != 0, comb, dyn):
                    t0 = call(rules[PR_POS_PICK], i, 0, 0, w)
            call(rules[PR_POS_MINOR_TOWARD], i, t0, 0, w)


@kernel
def may_guard(j, t, best, comb, dyn):
    """``j`` may intercept (Cover) an attack on ``t`` and is a better guard than ``best`` (-1
    none): a standing ally of ``t`` other than ``t`` whose intercept policy is willing, who
    rolls Defence (not a minion with passive defence), with a higher Defence than ``best``
    (the first listed on ties). Where she must stand is the caller's (grid, positions)."""
    if j == t:
        return False
    if comb[j, C_SIDE] != comb[t, C_SIDE]:
        return False
    if comb[j, P_INTERCEPT] < 0:
        return False
    if comb[j, C_PDEF] >= 0:
        return False
    if not is_standing(dyn, j):
        return False
    if best >= 0:
        if comb[j, C_DEF] <= comb[best, C_DEF]:
            return False
    return True


@kernel
def defensive_switch(i, t, w):
    """Defensive Switch (L1699-1703, free, 2/Scene, an ally 1-3 hexes away):
    before ``i``'s attack roll on ``t``, an ally of ``t`` holding it, whose
    intercept policy is willing (``P_INTERCEPT`` >= 0) and ``t`` below that
    share of its Resolve (1000: always), standing and higher in Resolve than
    ``t``, swaps places with it (grid, ``bf``; gridless she only becomes the
    target) and is attacked instead; she defends normally. Returns the target.
    On the grid it serves the turn's basic attack (Minion Explosion from the
    minion's hex too), a frenzy's attacks, retaliations, each target of an
    area attack or a mine (not by an ally who is herself a target of it,
    ``D_AREA_HIT``: she would be attacked twice) and the Pendulum (``i`` its
    owner, or -1)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[t, C_SIDE]
    for j in range(comb.shape[0]):
        if j == t:
            continue
        if j == i:
            continue  # a frenzied attacker never switches into her own attack
        if comb[j, C_SIDE] != side:
            continue
        if comb[j, P_INTERCEPT] < 0:
            continue
        if not is_standing(dyn, j):
            continue
        if dyn[t, D_RES] * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            continue
        if dyn[j, D_RES] <= dyn[t, D_RES]:
            continue
        if dyn[j, D_AREA_HIT] != 0:
            continue  # a target of the same area attack herself (or its switcher already)
        s = find_usable(j, E_SWITCH, comb, dyn)
        if s < 0:
            continue
        if on_grid(bf):
            if dyn[t, D_POS] < 0:
                continue
            if not within(j, t, s, w):
                continue
            call(rules[PR_SWITCH_TO], j, t, 0, w)
        elif on_positions(rules):  # the draft's positions: an ally 0-3 positions away (DRAFT L103-107)
            hi = comb[j, C_TREACH + s]
            if hi >= 0:
                if abs(dyn[j, D_PLACE] - dyn[t, D_PLACE]) > hi:
                    continue
            pj = dyn[j, D_PLACE]
            dyn[j, D_PLACE] = dyn[t, D_PLACE]
            dyn[t, D_PLACE] = pj
        pay_slot(j, s, w)
        dyn[j, K_SWITCHES] += 1
        check_bursts(j, comb, rules, dyn)
        return j
    return t


@kernel
def area_switch(i, t, w):
    """:func:`defensive_switch` before ``i``'s attack on ``t``, a target of an area attack
    (grid: Blast Strike, Burst Attack, Gravity Wave, a mine; positions: a position's
    targets): the switcher counts as attacked by it (``D_AREA_HIT`` 2: no second switch or
    attack) when ``t`` is marked. Returns who is attacked."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not side_has_code(t, E_SWITCH, comb):
        return t
    j = defensive_switch(i, t, w)
    if j != t:
        if dyn[t, D_AREA_HIT] != 0:
            dyn[j, D_AREA_HIT] = 2
    return j


@kernel(inline="always")
def area_next(j, dyn):
    """An area attack's pass over its marked targets (``D_AREA_HIT``): True (and marked 2,
    attacked) when ``j`` is a target not yet attacked by it."""
    if dyn[j, D_AREA_HIT] != 1:
        return False
    dyn[j, D_AREA_HIT] = 2
    return True


@kernel(inline="always")
def area_done(dyn):
    """The area attack is over: no marks (``D_AREA_HIT``) left."""
    for j in range(dyn.shape[0]):
        dyn[j, D_AREA_HIT] = 0


@kernel
def pay_shove(i, comb, rules, dyn):
    """Get Over Here / Repel (L1708-1712, L2087-2090): the policy uses it on
    every basic attack it can pay for; returns the slot paid (-1 none)."""
    s = find_usable(i, E_SHOVE, comb, dyn)
    if s >= 0:
        pay_talent(i, s, comb, rules, dyn)
        check_bursts(i, comb, rules, dyn)
    return s


@kernel(inline="always")
def settle_now(rules):
    """Bursts play after each action of a turn (bursts play, A7b): gridless and on
    positions (:func:`settle_in_turn`), on the grid (:func:`.battle_grid.settle_action`)."""
    if rules[R_BURSTS] == BURSTS_COUNT:
        return False
    return rules[R_BURST_TIMING] == 0


@part
def settle_in_turn(i, actions, w):
    """:func:`settle` between the actions of ``i``'s turn; returns the actions
    she has left (0 once she is down or lost)."""
    comb, rules, dyn, streams, bf = unpack(w)
    settle(w)
    if not is_standing(dyn, i):
        return 0
    return actions


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
    if (comb[i, C_TMASK] & MINOR_GATE) | (comb[i, C_TMASK2] & MINOR_GATE2) == 0:
        return 0  # no Minor hook: not even a call (this part is inlined where it is asked)
    return minor_hooks(i, w)


@kernel
def minor_hooks(i, w):
    """The work of :func:`minor_talent`: her Minor hooks in order until one acts."""
    comb, rules, dyn, streams, bf = unpack(w)
    m1 = comb[i, C_TMASK]
    m2 = comb[i, C_TMASK2]
    for k in range(N_MINOR):
        if (m1 & MINOR_GATES[k]) | (m2 & MINOR_GATES2[k]) != 0:
            r = call(rules[PR_MINOR + k], i, 0, 0, w)
            if r != 0:
                return r
    return 0


@part
def major_talent(i, w):
    """A Major action from her talents instead of an attack: the Major hooks
    (:data:`.hooks.HOOKS`, timing ``MAJOR``) whose gate her talents open, in their
    order, until one acts: sorcery (the whole turn's cast, or as a Major action), Wave
    of Courage (:func:`try_group_heal`), a Scream (:func:`try_scream`), Gravity Wave,
    Blast Strike / Burst Attack, Scattering shot, Life Bomb (:func:`try_life_bomb`),
    Curse Shift (:func:`try_curse_shift`), Implode (:func:`try_implode`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] & MAJOR_GATE) | (comb[i, C_TMASK2] & MAJOR_GATE2) == 0:
        return False  # no Major hook: not even a call
    return major_hooks(i, w)


@kernel
def major_hooks(i, w):
    """The work of :func:`major_talent`: her Major hooks in order until one acts."""
    comb, rules, dyn, streams, bf = unpack(w)
    m1 = comb[i, C_TMASK]
    m2 = comb[i, C_TMASK2]
    for k in range(N_MAJOR):
        if (m1 & MAJOR_GATES[k]) | (m2 & MAJOR_GATES2[k]) != 0:
            if call(rules[PR_MAJOR + k], i, 0, 0, w) != 0:
                return True
    return False


# ---------------------------------------------------------------- the Minor and Major hooks (:mod:`.hooks`)


@kernel
def h_sorcery_turn(i, b, c, w):
    """Sorcery for the whole turn (policy ``sorcery: whole-turn``): her Minor is taken,
    the Major casts (:func:`h_sorcery_major`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, P_SORCERY] == SORCERY_TURN:
        if sorcery_target(i, comb, dyn, streams) >= 0:
            dyn[i, D_CASTING] = 1
            return 1
    return 0


@kernel
def h_heal(i, b, c, w):
    """Heal, Healing Magic, A Little Longer, Second Wind (:func:`try_heal`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_heal(i, w) else 0


@kernel
def h_hex(i, b, c, w):
    """The draft's Hex (:func:`try_hex`), its Amplify Magic first (:func:`try_amplify`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] >> E_AMPLIFY) & 1 != 0:
        if try_amplify(i, comb, rules, dyn, streams):
            return 1
    return 1 if try_hex(i, w) else 0


@kernel
def h_rouse(i, b, c, w):
    """The draft's Rouse on an ally (:func:`try_mood`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_mood(i, False, w) else 0


@kernel
def h_minion_creation(i, b, c, w):
    """Minion Creation (:func:`create_minions`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if create_minions(i, w) else 0


@kernel
def h_marionette(i, b, c, w):
    """Marionette (:func:`make_copy`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if make_copy(i, w) else 0


@kernel
def h_veil(i, b, c, w):
    """Veil (:func:`try_veil`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_veil(i, w) else 0


@kernel
def h_rough_going(i, b, c, w):
    """Rough Going (:func:`try_rough_going`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_rough_going(i, w) else 0


@kernel
def h_mines(i, b, c, w):
    """Mines (:func:`try_mines`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_mines(i, w) else 0


@kernel
def h_barrier(i, b, c, w):
    """Create Barrier (:func:`try_barrier`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_barrier(i, w) else 0


@kernel
def h_hate_heal(i, b, c, w):
    """Hate the World (L1597) below her ``heal_below`` share: a bond point for P2 d6 + P3 Resolve."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_RES] * 100 < comb[i, P_HEAL_BELOW] * comb[i, C_RES]:
        h = hate_the_world(i, comb, rules, dyn)
        if h >= 0:
            restore(i, i, sum_d6(streams[S_DAMAGE], comb[i, C_TP2 + h]) + comb[i, C_TP3 + h], comb, dyn)
            return 1
    return 0


@kernel
def h_remedy(i, b, c, w):
    """Remedy on an ailing ally in range (:func:`ailing_ally`, :func:`try_remedy`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_REMEDY, comb, dyn)
    if s >= 0:
        j = ailing_ally(i, s, w)
        if j >= 0:
            if try_remedy(i, j, comb, rules, dyn):
                return 1
    return 0


@kernel
def h_curse(i, b, c, w):
    """Curse, Hello There (:func:`try_curse`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_curse(i, w) else 0


@kernel
def h_steal(i, b, c, w):
    """Steal Action (:func:`try_steal`): 2 when it gives her another Minor."""
    comb, rules, dyn, streams, bf = unpack(w)
    return try_steal(i, w)


@kernel
def h_amplify(i, b, c, w):
    """Amplify Magic (:func:`try_amplify`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_amplify(i, comb, rules, dyn, streams) else 0


@kernel
def h_link(i, b, c, w):
    """Link (:func:`try_link`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_link(i, w) else 0


@kernel
def h_sorcery_minor(i, b, c, w):
    """Sorcery as a Minor action (policy ``sorcery: minor``, :func:`cast_sorcery`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, P_SORCERY] == SORCERY_MINOR:
        if cast_sorcery(i, 0, comb, rules, dyn, streams):
            return 1
    return 0


@kernel
def h_sorcery_major(i, b, c, w):
    """Sorcery as her Major action: the whole turn's cast (:func:`h_sorcery_turn`), or
    a cast as a Major (``sorcery: major``, and a whole-turn caster without her Minor)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_CASTING] != 0:
        dyn[i, D_CASTING] = 0
        cast_sorcery(i, 2, comb, rules, dyn, streams)
        return 1
    if comb[i, P_SORCERY] >= SORCERY_MAJOR:
        if cast_sorcery(i, 1, comb, rules, dyn, streams):
            return 1
    return 0


@kernel
def h_group_heal(i, b, c, w):
    """Wave of Courage (:func:`try_group_heal`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_group_heal(i, w) else 0


@kernel
def h_scream(i, b, c, w):
    """Deafening Scream, Blood Rain (:func:`try_scream`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_scream(i, w) else 0


@kernel
def h_gravity(i, b, c, w):
    """Gravity Wave (:func:`try_gravity`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_gravity(i, w) else 0


@kernel
def h_area_attack(i, b, c, w):
    """Blast Strike, Burst Attack (:func:`try_area_attack`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_area_attack(i, w) else 0


@kernel
def h_scatter(i, b, c, w):
    """Scattering shot (:func:`try_scatter`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_scatter(i, w) else 0


@kernel
def h_life_bomb(i, b, c, w):
    """Life Bomb (:func:`try_life_bomb`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_life_bomb(i, comb, rules, dyn) else 0


@kernel
def h_curse_shift(i, b, c, w):
    """Curse Shift (:func:`try_curse_shift`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_curse_shift(i, w) else 0


@kernel
def h_implode(i, b, c, w):
    """Implode (:func:`try_implode`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_implode(i, w) else 0


# ---------------------------------------------------------------- area and terrain talents


@kernel
def area_gridless(i, comb, rules, dyn, streams):
    """An area attack without a grid (Blast Strike, Burst Attack, Gravity Wave): it reaches
    ``area_targets`` enemies: the policy's target, then the next ones listed. Used when
    that is at least the policy's ``area_min`` (and 1). Returns the attacks planned (0 = not used;
    the caller pays and this attacks)."""
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    k = 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, comb, dyn):
            k += 1
    if k > rules[R_AREA_TARGETS]:
        k = rules[R_AREA_TARGETS]
    if k < 1:
        return 0
    if k < comb[i, P_AREA_MIN]:
        return 0
    return k


@kernel
def area_attacks(i, k, w):
    """Gridless: ``k`` basic attacks of one area attack, each target defending separately."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    t = target_of(i, w)
    if t < 0:
        return
    attack_call(i, t, w)
    dyn[i, K_AREA_TARGETS] += 1
    left = k - 1
    for j in range(comb.shape[0]):
        if left <= 0:
            break
        if j == t:
            continue
        if not is_standing(dyn, i):
            break
        if _candidate(j, side, finish, comb, dyn):
            attack_call(i, j, w)
            dyn[i, K_AREA_TARGETS] += 1
            left -= 1


@kernel
def area_gridless_use(i, s, w):
    """Gridless Blast Strike / Burst Attack / Gravity Wave from slot ``s``: when it reaches
    enough enemies (:func:`area_gridless`), pay and make its attacks (:func:`area_attacks`).
    Returns whether it was used."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = area_gridless(i, comb, rules, dyn, streams)
    if k == 0:
        return False
    pay_slot(i, s, w)
    area_attacks(i, k, w)
    check_bursts(i, comb, rules, dyn)
    return True


@kernel
def try_area_attack(i, w):
    """Blast Strike (L1801) / Burst Attack (L1965), ``area_attack``: a Major action, one basic
    attack against every target in the area, each defending separately (each target is its
    own attack: the attacker rolls per target). Grid: a straight line as long as her attack
    range (``ranged_range``'s far end) in the direction that reaches the most enemies (P2
    ``width`` 2: and the parallel line beside it); P1 ``shape`` blast: or every adjacent hex,
    whichever reaches more (:func:`.battle_grid.area_attack`). Gridless: ``area_targets``
    enemies. Used when it reaches at least the policy's ``area_min`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_AREA_ATTACK, comb, dyn)
    if s < 0:
        return False
    if gridless(rules):
        return area_gridless_use(i, s, w)
    # the draft's positions: every target in one position (DRAFT L271-275); the grid: a line or a blast
    return call(rules[PR_AREA], i, s, 0, w) != 0


@kernel
def try_gravity(i, w):
    """Gravity Wave (L2037), ``gravity_wave``: a Major action when at least ``area_min``
    enemies stand within its range (1-3): pull each P1 hex(es) closer, then one basic
    attack against the targets (rule ``gravity_targets``, A43) (:func:`.battle_grid.gravity_wave`).
    Gridless: no pull; it attacks ``area_targets`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GRAVITY, comb, dyn)
    if s < 0:
        return False
    if gridless(rules):
        return area_gridless_use(i, s, w)
    # positions: every target in one position in reach, no pull; the grid: the pull, then the attacks
    return call(rules[PR_GRAVITY], i, s, 0, w) != 0


@kernel
def try_veil(i, w):
    """Veil (L2119), ``veil``: a Minor action while no Veil of hers holds: until the end of
    her next turn, attacks on her from anyone not within 1-2 hexes (the row's range) take
    - P1 (:func:`veil_penalty`). Grid: used when a standing enemy is not within 1-2 of her;
    gridless: used unless ``veil_gridless`` is none (then it would do nothing)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_VEIL_UNTIL] > dyn[i, D_TURNS_DONE]:
        return False
    s = find_usable(i, E_VEIL, comb, dyn)
    if s < 0:
        return False
    if on_grid(bf):
        if call(rules[PR_VEIL_WORTH], i, s, 0, w) == 0:
            return False
    elif rules[R_VEIL_GRIDLESS] == 1:
        return False
    pay_slot(i, s, w)
    dyn[i, D_VEIL_UNTIL] = dyn[i, D_TURNS_DONE] + 2
    return True


@kernel
def veil_penalty(i, t, comb, rules, dyn):
    """Veil on ``t`` (L2121): the penalty to ``i``'s attack on her while it holds and ``i``
    is not within 1-2 hexes (grid: ``D_VEIL_D`` set by the grid attack; gridless: every
    attacker unless ``veil_gridless`` is none)."""
    if dyn[t, D_VEIL_UNTIL] <= dyn[t, D_TURNS_DONE]:
        return 0
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_VEIL:
            if dyn[t, D_POS] < 0:
                if rules[R_VEIL_GRIDLESS] == 1:
                    return 0
            else:
                d = dyn[i, D_VEIL_D]
                hi = comb[t, C_TREACH + s]
                if d >= 1:
                    if hi < 0 or d <= hi:
                        return 0
            dyn[t, K_VEILED] += 1
            return comb[t, C_TP1 + s]
    return 0


@kernel
def try_rough_going(i, w):
    """Rough Going (L1836), ``rough_going``: a Minor action on the grid (gridless it is never
    used and costs nothing): :func:`.battle_grid.rough_going`; on the draft's positions
    (DRAFT L319-323) :func:`.positions.rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    if gridless(rules):
        return False
    s = find_usable(i, E_ROUGH_GOING, comb, dyn)
    if s < 0:
        return False
    return call(rules[PR_ROUGH_GOING], i, s, 0, w) != 0


@kernel
def try_scatter(i, w):
    """Scattering shot (L2092-2096), ``scattering_shot``: a Major action on the grid
    (:func:`.battle_grid.scattering_shot`); gridless never used (the push does nothing there)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    s = find_usable(i, E_SCATTER, comb, dyn)
    if s < 0:
        return False
    return call(rules[PR_SCATTER], i, s, 0, w) != 0


@kernel
def try_mines(i, w):
    """Mines (L2059-2066), ``mines``: a Minor action on the grid (gridless never used, no
    cost): a mine in her hex (:func:`.battle_grid.place_mine`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    s = find_usable(i, E_MINES, comb, dyn)
    if s < 0:
        return False
    return call(rules[PR_MINE], i, s, 0, w) != 0


@kernel
def try_barrier(i, w):
    """Create Barrier (L1693-1697), ``create_barrier``: a Minor action on the grid
    (:func:`.battle_grid.create_barrier`); gridless it is never used and costs nothing
    (with no hexes there is nothing for a barrier to block)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    if dyn[i, D_BARRIER_RES] > 0:
        return False
    s = find_usable(i, E_BARRIER, comb, dyn)
    if s < 0:
        return False
    return call(rules[PR_BARRIER], i, s, 0, w) != 0


@kernel(inline="always")
def bonus_action(i, comb, rules, dyn):
    """Bonus Action (free, L1579): pay for one more Major action if she can
    (:func:`bonus_action_try`, called only when she has the talent)."""
    if (comb[i, C_TMASK] >> E_BONUS_ACTION) & 1 == 0:
        return False
    return bonus_action_try(i, comb, rules, dyn)


@part
def bonus_action_try(i, comb, rules, dyn):
    """The work of :func:`bonus_action`."""
    s = find_talent(i, E_BONUS_ACTION, comb, dyn)
    if s < 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if not can_pay(i, s, comb, dyn):
        return False
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, comb, dyn):
            pay_talent(i, s, comb, rules, dyn)
            return True
    return False  # nobody left to attack: keep the use


@kernel(inline="always")
def play_turn(i, w):
    """One turn of ``i``: gridless (``bf`` None) or on the battlefield.
    Every turn advances the fight's turn clock (``D_CLOCK``, row 0)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[0, D_CLOCK] += 1
    call(rules[PR_TURN], i, 0, 0, w)


@kernel
def extra_turns_now(i, w):
    """Extra Action (L1979): ``i`` takes its extra turns of this round (if
    standing; on the battlefield ``bf`` when there is one); returns the
    fight's outcome after them, -1 while it goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = extra_turns(i, comb)
    outcome = -1
    for e in range(k):
        if not is_standing(dyn, i):
            break
        play_turn(i, w)
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
        if outcome >= 0:
            break
    return outcome


@kernel
def frenzy_turns(i, k, w):
    """Up to ``k`` frenzy turns of ``i`` (:func:`frenzy_turn`), each settled;
    stops when the frenzy ends, she falls or the fight is decided. Returns
    the outcome (-1 while it goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    outcome = -1
    for _ in range(k):
        if not frenzy_again(i, comb, rules, dyn):
            break
        frenzy_turn(i, w)
        settle(w)
        outcome = outcome_now(comb, rules, dyn)
        if outcome >= 0:
            break
    return outcome


@kernel(inline="always")
def keeps_side_in(j, all_dead, comb, dyn):
    """Row ``j`` keeps her side in the fight: not dead and, unless the defeat rule is
    ``all_dead``, standing (``all_down``); an illusion (Marionette's copy) keeps no side
    in it. The one statement of the rule: :func:`side_alive`, :func:`outcome_now`."""
    if dyn[j, D_DEAD] != 0:
        return False
    if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
        return False
    if all_dead:
        return True
    return dyn[j, D_RES] > 0


@kernel(inline="always")
def side_alive(side, comb, rules, dyn):
    """Side ``side`` is still in the fight: one of its rows keeps it in (:func:`keeps_side_in`)."""
    all_dead = rules[R_DEFEAT] == 1
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] == side:
            if keeps_side_in(j, all_dead, comb, dyn):
                return True
    return False


@kernel(inline="always")
def outcome_now(comb, rules, dyn):
    """-1 while both sides fight on; else F_WIN (side 0 wins), F_LOSS or F_DRAW. A side is
    still in the fight while one of its rows keeps it in (:func:`keeps_side_in`). One pass
    over the rows (two calls of :func:`side_alive` would be two)."""
    n = comb.shape[0]
    all_dead = rules[R_DEFEAT] == 1
    a = False
    b = False
    for j in range(n):
        if not keeps_side_in(j, all_dead, comb, dyn):
            continue
        if comb[j, C_SIDE] == 0:
            a = True
        else:
            b = True
        if a:
            if b:
                return -1
    if a:
        return F_WIN
    if b:
        return F_LOSS
    return F_DRAW


@kernel
def _record_round(r, plane, side_curve, comb_curve, w):
    """Add who stands now to ``[..., plane, r]`` of the curve counters (the world ``w``:
    no array descriptor has to live across the round loop for this call)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    s0 = 0
    s1 = 0
    for j in range(n):
        if is_standing(dyn, j):
            comb_curve[j, plane, r] += 1
            if comb[j, C_SPAWN_KIND] == SPAWN_COPY:
                continue
            if comb[j, C_SIDE] == 0:
                s0 = 1
            else:
                s1 = 1
    side_curve[0, plane, r] += s0
    side_curve[1, plane, r] += s1


@kernel(inline="always")
def flair_tier(oc, burst, rules):
    """The highest overcharge tier of a stat in a fight (L153-161): 5 if it
    burst, else the tier its counter ended in (counters only grow between
    bursts, A6 default), 0 below the first flair."""
    if burst != 0:
        return NTIERS - 1
    t = 0
    for k in range(NTIERS - 2):
        if oc >= rules[R_FLAIR_TIERS + k]:
            t = k + 1
    return t


@kernel
def count_tiers(j, oc0, oc1, oc2, comb, rules, dyn):
    """Count girl ``j``'s highest tier per stat, her counters being ``oc0..oc2``."""
    if comb[j, C_MONSTER] != 0:
        return
    dyn[j, K_TIER + flair_tier(oc0, dyn[j, D_BURST_TRIAL], rules)] += 1
    dyn[j, K_TIER + NTIERS + flair_tier(oc1, dyn[j, D_BURST_TRIAL + 1], rules)] += 1
    dyn[j, K_TIER + 2 * NTIERS + flair_tier(oc2, dyn[j, D_BURST_TRIAL + 2], rules)] += 1


@kernel
def fight(order, key, side_curve, comb_curve, w):
    """Play one fight from the current ``dyn`` (:func:`fight_on`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return fight_on(order, key, side_curve, comb_curve, w)


@kernel
def fight_on(order, key, side_curve, comb_curve, w):
    """Play one fight from the current ``dyn``; returns ``(outcome, rounds)``.

    ``bf``: ``None`` (gridless; numba prunes the grid branches) or the
    battlefield tuple of :func:`.battle_grid.field` (positions in ``D_POS``,
    turns by :func:`.battle_grid.take_turn_grid`).

    Curves: ``side_curve[s, 0, r]`` / ``comb_curve[j, 0, r]`` count fights
    still running after round r in which side s had someone standing /
    combatant j stood; plane 1 counts the final state of fights that ended in
    round r. Standing at the end of round r is plane 0 at r plus plane 1
    summed over rounds <= r (:func:`standing_curves` does this), which
    avoids a loop over the remaining rounds in every trial.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    cap = rules[R_ROUND_CAP]
    outcome = fight_start(order, key, w)
    rounds = cap
    if outcome >= 0:
        rounds = 1  # over before round 1 (Ambush Tactics): counted as a one-round fight
    m = n  # order[:m]: who may still act (the dead leave it after each round)
    for r in range(1, cap + 1):
        if outcome >= 0:
            break
        dyn[0, D_ROUND] = r
        outcome = round_start(w)
        if outcome >= 0:
            rounds = r
            break
        for k in range(m):
            outcome = turn_of(order[k], r, w)
            if outcome >= 0:
                break
        if outcome < 0:
            outcome = round_end(r, order, m, w)
        if outcome >= 0:
            rounds = r
            break
        if r < cap:
            _record_round(r, 0, side_curve, comb_curve, w)
            m = drop_the_dead(order, m, comb, dyn)
    fight_end(rounds, side_curve, comb_curve, w)
    if outcome < 0:
        outcome = F_DRAW
    return outcome, rounds


@kernel(inline="always")
def drop_the_dead(order, m, comb, dyn):
    """Remove the dead from ``order[:m]``, keeping the others' order; the new ``m``.

    Only a listed row leaves: a dead one never takes a turn or acts again (nothing
    clears ``D_DEAD`` in a fight but :func:`appear`, and that only for a reserve
    row, ``C_SPAWN_KIND``, which therefore stays). Every later round would skip the
    dead anyway (:func:`turn_of`, :func:`round_end`); this skips them once."""
    k = 0
    for q in range(m):
        i = order[q]
        if dyn[i, D_DEAD] != 0:
            if comb[i, C_SPAWN_KIND] == 0:
                continue
        order[k] = i
        k += 1
    return k


@part
def fight_start(order, key, w):
    """Before round 1: bursts due from a starting counter (L161), everyone to her place
    and the auras, initiative (:func:`roll_initiative`), Ambush Tactics' turns (L2006).
    Returns the outcome (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    for j in range(n):  # a girl may start the scene at or over the threshold
        check_bursts(j, comb, rules, dyn)
    if not gridless(rules):  # everyone to her starting place, the auras by place
        call(rules[PR_START], 0, 0, 0, w)
    settle(w)
    roll_initiative(comb, rules, streams[S_SETUP], order, key)
    masks = comb[0, C_SIDEMASK] | comb[n - 1, C_SIDEMASK]  # the two sides' masks (reserve rows: any side last)
    if comb[n - 1, C_SPAWN_KIND] != 0:
        for j in range(n):
            masks |= comb[j, C_TMASK]
    if (masks >> E_AMBUSH) & 1 != 0:
        return ambush_turns(order, w)
    return -1


@part
def round_start(w):
    """The start of a round: Shrug Off, Bleed (L1465), the draft's Hexes and Regeneration;
    what they set off is settled. Returns the outcome (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    bled = False
    for j in range(comb.shape[0]):
        if (comb[j, C_TMASK] >> E_SHRUG_OFF) & 1 != 0:
            if dyn[j, D_DEAD] == 0:
                if has_ailment(j, dyn):  # (nothing to shrug off: no call)
                    shrug_off(j, w)
        if dyn[j, D_AIL + A_BLEED] != 0:
            bleed(j, w)
            bled = True
        if dyn[j, D_HEXES] + dyn[j, D_REGEN] != 0:  # the draft's Hex and Regeneration
            if dyn[j, D_DEAD] == 0:
                if round_effects(j, w):
                    bled = True
    if bled:
        settle(w)
        return outcome_now(comb, rules, dyn)
    return -1


@part
def turn_of(i, r, w):
    """``i``'s turn in round ``r`` when she may take one: Resolve back from her revive
    roll (A19a; the draft's roll as her Major, DRAFT L512-516), her turn or her frenzy's
    turns, then what it set off; Extra Action right after it (A32). Returns the outcome
    (-1 while the fight goes on)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_DEAD] != 0:
        return -1
    if waits(i, r, comb, rules, dyn):
        return -1
    acts = True
    if dyn[i, D_RES] <= 0:
        if dyn[i, D_PENDING] == -1:
            return -1
        if dyn[i, D_PENDING] == -2:
            revive_roll(i, comb, rules, dyn, streams)
            check_bursts(i, comb, rules, dyn)
            acts = False
        back = dyn[i, D_PENDING]
        dyn[i, D_RES] = back if back < comb[i, C_RES] else comb[i, C_RES]
        dyn[i, D_PENDING] = -1
        if (comb[i, C_TMASK] >> E_COURAGE) & 1 != 0:
            courage_aura(i, -1, comb, dyn)  # standing again: her aura is back
            if on_grid(bf):
                call(rules[PR_AURAS], i, 0, 0, w)
    outcome = -1
    if acts:
        if dyn[i, D_FRENZY] != 0:
            outcome = frenzy_turns(i, 1 + rules[R_FURY_SECOND_TURN], w)
        else:
            play_turn(i, w)
            settle(w)
        if on_grid(bf):
            call(rules[PR_AFTER_TURN], i, 0, 0, w)  # mines; labyrinth: Pendulum (A44b)
    outcome = outcome_now(comb, rules, dyn)
    if outcome >= 0:
        return outcome
    if (comb[i, C_TMASK] >> E_EXTRA_TURN) & 1 != 0:  # Extra Action (extra_turns)
        if rules[R_EXTRA_TURN_AT] == 0:
            return extra_turns_now(i, w)
    return -1


@part
def round_end(r, order, m, w):
    """The end of round ``r``: Extra Action's turns (``extra_turn_at: round_end``, A32),
    a frenzy's second turn (A9v-a), the labyrinth's features. Returns the outcome (-1
    while the fight goes on). ``order[:m]``: who may still act (:func:`drop_the_dead`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    outcome = -1
    if rules[R_EXTRA_TURN_AT] == 1:
        for k in range(m):
            i = order[k]
            if (comb[i, C_TMASK] >> E_EXTRA_TURN) & 1 != 0:
                outcome = extra_turns_now(i, w)
                if outcome >= 0:
                    return outcome
    if rules[R_BURSTS] != BURSTS_COUNT:
        if rules[R_FURY_SECOND_TURN] == 0:  # the frenzy's second turn at the end of the round (A9v-a)
            for k in range(m):
                i = order[k]
                if frenzy_again(i, comb, rules, dyn):
                    outcome = frenzy_turns(i, 1, w)
                    if outcome >= 0:
                        return outcome
    if on_grid(bf):
        return call(rules[PR_END_OF_ROUND], r, 0, 0, w)  # labyrinth features
    return -1


@part
def fight_end(rounds, side_curve, comb_curve, w):
    """The end of the fight (``rounds`` played): Overcharge Radiation (L2047), the final
    state in the curves (plane 1), Resolve and standing at the end, the highest
    overcharge tiers (L153-161)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    radiating = False
    for j in range(n):
        if comb[j, C_TMASK2] != 0:
            if has_code(j, E_RADIATION, comb):
                radiating = True
    if radiating:  # Overcharge Radiation at the end of the scene (L2047)
        overcharge_radiation(w)
        if rules[R_BURSTS] != BURSTS_COUNT:
            settle(w)
    _record_round(rounds, 1, side_curve, comb_curve, w)
    for j in range(n):
        dyn[j, K_RES_END] += dyn[j, D_RES]
        if is_standing(dyn, j):
            dyn[j, K_STANDING_END] += 1
        if comb[j, C_MONSTER] == 0:
            count_tiers(j, dyn[j, D_OC], dyn[j, D_OC + 1], dyn[j, D_OC + 2], comb, rules, dyn)


@pjit
def simulate_blocks(comb, rules, key, start, count, nblocks,
                    fights, rounds_hist, side_curve, comb_curve, ccount):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its four streams from ``(key, t, purpose)``, so the
    result does not depend on how trials are split over threads or blocks.
    Counters have a leading block axis and are summed by the caller:
    ``fights[nb, NF]``, ``rounds_hist[nb, cap+1]``, ``side_curve[nb, 2, 2, cap+1]``,
    ``comb_curve[nb, n, 2, cap+1]``, ``ccount[nb, n, NDYN]`` (each block's ``dyn``: its
    counters ``K_*`` are the block's sums).
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        dyn = ccount[b]  # counters (K_*) accumulate over the block's trials; reset sets the state (D_*)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        bf = no_field()
        wbuf = np.zeros(WORLD_WORDS, dtype=np.int64)
        w = pack(comb, rules, dyn, streams, bf, wbuf)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            reset(comb, rules, dyn)
            outcome, rounds = fight(order, ikey, side_curve[b], comb_curve[b], w)
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
        keep(bf)  # the world's arrays and buffer live until its last use (world.keep)
        keep(wbuf)


# ---------------------------------------------------------------- episodes
# An episode (several scenes with rests, schema ``episode:``) plays on a
# stacked combatant array: scene s occupies rows ``off[s] .. off[s+1]-1``, the
# party's ``ng`` girls first (the same girls, in the same order, in every
# block), then that scene's enemies. Each block is an ordinary fight for
# :func:`fight`; between scenes :func:`next_scene` copies the party's dynamic
# rows into the next block and resets only the per-scene columns
# (``SCENE_COLUMNS``), so any other column (wounds, overcharge, per-episode
# uses, and columns added later such as bonds) carries over.


@kernel(inline="always")
def wound_level(w):
    """Wound level of ``w`` wound damage on the cumulative track (L1422, A16a):
    1-2 level 1, 3-4 level 2, 5 and more level 3."""
    if w <= 0:
        return 0
    if w <= 2:
        return 1
    if w <= 4:
        return 2
    return 3


@kernel
def scene_columns(i, comb, rules, dyn):
    """Reset girl ``i``'s per-scene columns (``SCENE_COLUMNS``) for a new scene
    whose static row is ``comb[i]``; overcharge and per-episode talent uses by
    rule (``scene_overcharge``, ``episode_uses``)."""
    dyn[i, D_REVIVES] = 0
    dyn[i, D_BOOSTS] = comb[i, C_BOOSTS]  # Boost: 3/Scene (L1565)
    dyn[i, D_KO] = 0
    for s in range(3):
        dyn[i, D_BURST_TRIAL + s] = 0
        dyn[i, D_AIL + s] = 0  # ailments end with the scene (A25)
    if rules[R_SCENE_OVERCHARGE] == 1:
        for s in range(3):
            dyn[i, D_OC + s] = comb[i, C_OC0 + s]
            dyn[i, D_BURSTED + s] = 0
    for s in range(MAXT):
        if (comb[i, C_TEPISODE] >> s) & 1 == 0:
            dyn[i, D_TUSES + s] = comb[i, C_TUSES + s]
        elif rules[R_EPISODE_USES] == 1:
            dyn[i, D_TUSES + s] = comb[i, C_TUSES + s]
    scene_state(i, comb, dyn)


@kernel
def next_scene(comb, rules, dyn, prev, a, e, ng, recover, streams, party):
    """Set up the block ``a .. e-1`` after the scene in the block starting at
    ``prev``: fresh enemies; the party carried over, then the rest.

    For every living girl, in this order: her maximum Resolve after the wound
    penalty (``wound_penalty``: 1d6 per wound level, or per wound, minus
    Tenacity, rolled for the levels she gained since the last roll, L1443,
    A18; not below ``min_max_resolve``; written to ``comb[i, C_RES]``, the
    block's copy); a downed girl's pending revive (``scene_downed``);
    Resolve carried and capped or refilled (``scene_resolve``); then
    ``recover`` uses of Recover (1d6+2, never above the penalised maximum,
    L1571; at most ``recover_uses`` per episode) while below the maximum.
    Dice from the setup stream.
    """
    st = streams[S_SETUP]
    for i in range(a + ng, e):
        reset_row(i, comb, dyn)
    for g in range(ng):
        p = prev + g
        i = a + g
        for c in range(NK, NDYN):  # her state (D_*), not the row's own counters
            dyn[i, c] = dyn[p, c]
        comb[i, C_RES] = comb[p, C_RES]
        pending = dyn[i, D_PENDING]
        dyn[i, D_PENDING] = -1
        scene_columns(i, comb, rules, dyn)
        if dyn[i, D_DEAD] != 0:
            continue
        if comb[i, C_MONSTER] == 0:
            # the wound penalty to her maximum Resolve (A18)
            if rules[R_WOUND_PENALTY] != 2:
                if rules[R_WOUND_PENALTY] == 0:
                    levels = wound_levels(i, False, rules, dyn)  # by the wound model (A16)
                else:
                    levels = dyn[i, D_WOUND_HITS]
                if levels > dyn[i, D_PEN_LEVELS]:
                    dyn[i, D_PEN_DICE] += sum_d6(st, levels - dyn[i, D_PEN_LEVELS])
                    dyn[i, D_PEN_LEVELS] = levels
                pen = dyn[i, D_PEN_DICE] - comb[g, C_TEN]
                if pen < 0:
                    pen = 0
                top = comb[g, C_RES] - pen
                if top < rules[R_MIN_MAX_RESOLVE]:
                    top = rules[R_MIN_MAX_RESOLVE]
                comb[i, C_RES] = top
        top = comb[i, C_RES]
        if dyn[i, D_RES] <= 0:
            if rules[R_SCENE_DOWNED] == 0:
                if pending >= 0:
                    dyn[i, D_RES] = pending
                elif pending == -2:
                    dyn[i, D_PENDING] = -2  # the draft: she rolls as her first Major action
        if rules[R_SCENE_RESOLVE] == 1:
            dyn[i, D_RES] = top
        elif dyn[i, D_RES] > top:
            dyn[i, D_RES] = top
        if comb[i, C_MONSTER] != 0:
            continue
        for k in range(recover):
            if dyn[i, D_RES] >= top:
                break
            if rules[R_RECOVER_USES] >= 0:
                if dyn[i, D_RECOVERS] >= rules[R_RECOVER_USES]:
                    break
            gain = sum_d6(st, rules[R_RECOVER]) + rules[R_RECOVER + 1]
            if gain > top - dyn[i, D_RES]:
                gain = top - dyn[i, D_RES]
            dyn[i, D_RES] += gain
            dyn[i, D_RECOVERS] += 1
            party[g, PE_RECOVERS] += 1
            party[g, PE_RECOVERED] += gain


@kernel
def play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams,
                 fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve, party, bf, wbuf):
    """One episode on seeded ``streams`` (:func:`simulate_episode_blocks`; the counters are one
    block's): the scenes in turn, each an ordinary fight (:func:`fight_on`, gridless when ``bf``
    is None, else on that battlefield, every scene deployed afresh from its own starting hexes:
    :func:`scene_state` reads the block's ``C_CELL``); between them :func:`next_scene`.
    ``wbuf``: int64[WORLD_WORDS x scenes], a slot per scene's world."""
    n_sc = off.shape[0] - 1
    reset(cb[off[0]:off[1]], rules, dyn[off[0]:off[1]])
    total = 0
    result = F_WIN
    last = 0
    for s in range(n_sc):
        a = off[s]
        e = off[s + 1]
        if s > 0:
            next_scene(cb, rules, dyn, off[s - 1], a, e, ng, recover[s - 1], streams, party)
        # the scene's world, in its own slot of ``wbuf``: a world's words never change once
        # written (its loads are invariant, :func:`.world.unpack`)
        w = pack(cb[a:e], rules, dyn[a:e], streams, bf, wbuf[s * WORLD_WORDS:(s + 1) * WORLD_WORDS])
        outcome, rounds = fight_on(order[:e - a], ikey[:e - a], side_curve[s], comb_curve[a:e], w)
        scene_fights[s, outcome] += 1
        scene_fights[s, F_ROUNDS] += rounds
        scene_hist[s, rounds] += 1
        total += rounds
        last = s
        if outcome == F_DRAW:
            result = F_DRAW
            if rules[R_EPISODE_DRAW] == 1:
                if side_alive(0, cb[a:e], rules, dyn[a:e]):
                    continue
            break
        if outcome == F_LOSS:
            result = F_LOSS
            break
    fights[result] += 1
    fights[F_ROUNDS] += total
    rounds_hist[total] += 1
    a = off[last]
    for g in range(ng):
        i = a + g
        party[g, PE_RES_END] += dyn[i, D_RES]
        if is_standing(dyn, i):
            party[g, PE_STANDING_END] += 1
        if dyn[i, D_DEAD] != 0:
            party[g, PE_DEAD] += 1
        party[g, PE_WOUNDS_END] += dyn[i, D_WOUNDS]
        party[g, PE_MAXRES_END] += cb[i, C_RES]
        party[g, PE_PENALTY_END] += cb[g, C_RES] - cb[i, C_RES]


@kernel(inline="always")
def episode_width(off):
    """The most rows any scene of an episode has (the size of the turn-order scratch)."""
    width = 0
    for s in range(off.shape[0] - 1):
        if off[s + 1] - off[s] > width:
            width = off[s + 1] - off[s]
    return width


@pjit
def simulate_episode_blocks(comb, rules, off, ng, recover, key, start, count, nblocks,
                            fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve,
                            ccount, party):
    """Play episodes ``start .. start+count-1`` in ``nblocks`` blocks (prange), gridless.

    ``comb``/``pol``: the stacked arrays (scene s in rows ``off[s] ..
    off[s+1]-1``, the ``ng`` party rows first); ``recover[s]``: Recover
    uses per girl in the rest after scene s. A trial is one episode: its
    streams are seeded once, and the scenes use them in turn. The episode
    ends after a scene the party does not win (``episode_draw`` lets a
    round-cap draw go on) or after the last scene (:func:`play_episode`;
    on a battlefield :func:`.battle_grid.simulate_episode_blocks_grid`).

    Counters (leading block axis): ``fights[nb, NF]`` the episode's outcome
    (win = every scene won) and total rounds, ``rounds_hist[nb, S*cap+1]``
    its total rounds; per scene ``scene_fights[nb, S, NF]``,
    ``scene_hist[nb, S, cap+1]``, ``side_curve[nb, S, 2, 2, cap+1]``; per
    stacked row ``comb_curve[nb, N, 2, cap+1]``, ``ccount[nb, N, NDYN]`` (each block's ``dyn``); per
    party girl ``party[nb, ng, NPE]`` (the end of the episode).
    """
    n_all = comb.shape[0]
    width = episode_width(off)
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        cb = comb.copy()  # the party's maximum Resolve per scene is written here
        dyn = ccount[b]  # counters (K_*) accumulate; reset and next_scene set the state (D_*)
        order = np.zeros(width, dtype=np.int64)
        ikey = np.zeros(width, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        bf = no_field()
        wbuf = np.zeros(WORLD_WORDS * (off.shape[0] - 1), dtype=np.int64)  # a world per scene
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams, fights[b], rounds_hist[b],
                         scene_fights[b], scene_hist[b], side_curve[b], comb_curve[b], party[b], bf, wbuf)


# ---------------------------------------------------------------- procedures (the world's signature, :mod:`.world`)
# The table (:mod:`.registry`) names these for every geometry: the core's own
# procedures. Each is compiled on its own (:mod:`sim.procs`).


@kernel
def p_take_turn(i, b, c, w):
    """PR_TURN without a grid: :func:`take_turn` (gridless and the draft's positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    take_turn(i, w)
    return 0


@kernel
def p_attack(i, t, c, w):
    """PR_ATTACK: :func:`attack`; the damage dealt, -1 on a miss."""
    comb, rules, dyn, streams, bf = unpack(w)
    return attack(i, t, w)


@kernel
def p_settle(a, b, c, w):
    """PR_SETTLE: :func:`settle_due`."""
    comb, rules, dyn, streams, bf = unpack(w)
    settle_due(w)
    return 0


@kernel
def p_missing(a, b, c, w):
    """A slot this scenario's table was not expected to need: counted (``K_MISSING``,
    row 0) so that a run with one fails loudly (:func:`.registry.check`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[0, K_MISSING] += 1
    return -1


# ---------------------------------------------------------------- the attack's and the damage's hooks (:mod:`.hooks`)


@kernel
def h_declare(i, t, c, w):
    """DECLARE: :func:`declare_riders` of ``i``'s attack on ``t``, into her ``D_DECLARE``."""
    comb, rules, dyn, streams, bf = unpack(w)
    a_bonus, dmg_bonus, kb, ail, opening = declare_riders(i, t, w)
    dyn[i, D_DECLARE] = a_bonus
    dyn[i, D_DECLARE + 1] = dmg_bonus
    dyn[i, D_DECLARE + 2] = kb
    dyn[i, D_DECLARE + 3] = ail
    dyn[i, D_DECLARE + 4] = opening
    return 0


@kernel
def h_evasion(t, a_total, d_total, w):
    """EVASION: the draft's Evasion (:func:`evasion`); 1 when it turned the hit into a miss."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if evasion(t, a_total, d_total, comb, rules, dyn) else 0


@kernel
def h_power_dampening(i, b, c, w):
    """DAMPEN_ROLL: Power Dampening after a rolled 1 (:func:`power_dampening`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    power_dampening(i, comb, dyn)
    return 0


@kernel
def h_aura_of_strength(t, i, c, w):
    """MISS: Aura of Strength of the defender ``t`` who made ``i`` miss (:func:`aura_of_strength`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    aura_of_strength(t, i, w)
    return 0


@kernel
def h_all_in_after(i, b, c, w):
    """ALL_IN: the draft's All or Nothing after a hit (:func:`all_in_after`); the bonus damage."""
    comb, rules, dyn, streams, bf = unpack(w)
    return all_in_after(i, comb, rules, dyn)


@kernel
def h_reduce_damage(t, b, dmg, w):
    """REDUCE: Thick Hide, Shield, Bulwark on a hit of ``dmg`` on ``t`` (:func:`reduce_damage`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reduce_damage(t, dmg, comb, rules, dyn)


@kernel
def h_reflect(i, t, dmg, w):
    """REFLECT: Reflector on ``t`` (:func:`reflect`); the damage left for her."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reflect(i, t, dmg, w)


@kernel
def h_after_hit(i, t, dealt, w):
    """AFTER_HIT: Life Bomb and Implode after a hit (:func:`after_hit`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    after_hit(i, t, dealt, w)
    return 0


@kernel
def h_inflict(i, t, c, w):
    """INFLICT: Inflict after a hit (:func:`try_inflict`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    try_inflict(i, t, comb, rules, dyn)
    return 0


@kernel
def h_seal_magic(i, t, c, w):
    """SEAL: Seal Magic after a hit (:func:`seal_magic`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    seal_magic(i, t, comb, rules, dyn)
    return 0


@kernel
def h_backlash(i, t, hit, w):
    """BACKLASH: Backlash on a girl attacking ``t`` (:func:`backlash`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    backlash(i, t, hit != 0, w)
    return 0


@kernel
def h_disruptive(i, t, c, w):
    """DISRUPTIVE: Disruptive Strikes on a girl (:func:`disruptive`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    disruptive(i, t, comb, rules, dyn, streams)
    return 0


@kernel
def h_intercept(i, t, dmg, w):
    """INTERCEPT: an ally named in ``D_GUARD`` may take the hit (:func:`intercept`); the damage
    left for ``t`` (grid and positions only: nothing sets ``D_GUARD`` gridless)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return intercept(i, t, dmg, w)


@kernel
def h_link_damage(t, b, dmg, w):
    """LINK_DAMAGE: the draft's Link copies ``dmg`` to the secondary (:func:`link_damage`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return link_damage(t, dmg, w)


@kernel
def h_undying_brood(t, b, c, w):
    """BROOD: Undying Brood (:func:`undying_brood`); 1 when the monster is reborn."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if undying_brood(t, comb, rules, dyn) else 0


@kernel
def h_drop_effects(t, b, c, w):
    """DROP_EFFECTS: what ends when ``t`` drops (:func:`drop_effects`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    drop_effects(t, comb, dyn)
    return 0
