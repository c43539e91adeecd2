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
from sim._jit import kernel, pjit
from sim.dice import exploding_d6, opposed_2d6, sum_d6, sum_dice
from sim.rng import STATE_WORDS, randbelow, seed_stream

from . import battle_grid as BG  # the hex battlefield's turn (it uses this module's K.* at compile time)

# ---------------------------------------------------------------- columns
# static combatant columns
C_SIDE = 0
C_MONSTER = 1
C_ATT = 2          # Attack-role stat value
C_DEF = 3          # Defence-role stat value
C_SUP = 4          # Support-role stat value
C_RA = 5           # magical stat (0 heart, 1 fury, 2 judgment) filling the Attack role
C_RD = 6           # ... the Defence role
C_RS = 7           # ... the Support role
C_RES = 8          # maximum Resolve
C_DMG = 9          # flat damage bonus of the basic attack (melee 2 / ranged 0, + monster bonus)
C_POOL = 10        # monster overcharge pool at the start
C_OC0 = 11         # starting overcharge counters, 3 columns (heart, fury, judgment)
C_BOOSTS = 14      # Boost uses per scene
C_TEN = 15         # Tenacity
C_ORDER = 16       # position in the listed order
C_PDEF = 17        # passive defence (minions, L2172); -1 = rolls 2d6! + Defence
MAXT = 6           # talent slots per combatant (besides Boost), see talents.py
C_TCODE = 18       # MAXT columns: effect code E_* (0 = empty slot)
C_TCOST = 24       # MAXT columns: overcharge cost
C_TROLE = 30       # MAXT columns: magical stat that takes the cost (0 heart, 1 fury, 2 judgment)
C_TUSES = 36       # MAXT columns: uses per scene, -1 unlimited
C_TP1 = 42         # MAXT columns: first parameter (e.g. heal dice)
C_TP2 = 48         # MAXT columns: second parameter (e.g. heal bonus)
C_TMASK = 54       # bit (1 << code) set for every effect code in her slots
# the hex battlefield (grid: hex; :mod:`.battle_grid`)
C_CELL = 55        # starting cell, -1 without a grid
C_MELEE_DMG = 56   # flat damage bonus of her melee attack (melee_bonus, + monster bonus)
C_RANGED_DMG = 57  # ... of her ranged attack (ranged_bonus, + monster bonus)
C_FORM = 58        # preferred attack form (attack_kind): 0 melee, 1 ranged
C_COVER = 59       # allies whose policy may intercept for her (grid)
NC = 60

# talent effect codes (catalog ``mechanic: {code: ...}``, talents.MECHANICS)
E_HEAL = 1
E_INFLICT = 2
E_BONUS_ACTION = 3

# ailments (L1459-1467): columns D_AIL + these
A_STUN = 0
A_BOUND = 1
A_BLEED = 2

# policy columns
P_TARGET = 0
P_BOOST = 1
P_MARGIN = 2
P_OCCAP = 3
P_FINISH = 4
P_PASSIVE = 5      # 1 = take the passive defence when the rules allow it (draft)
P_HEAL_BELOW = 6   # heal an ally (or herself) below this percent of maximum Resolve
P_INFLICT = 7      # first ailment Inflict tries: A_STUN, A_BOUND or A_BLEED
P_MOVE = 8         # movement on a grid: MOVE_*
P_INTERCEPT = 9    # intercept a hit on an adjacent ally: -1 never; else when it leaves her below this % (1000 always)
P_RECKLESS = 10    # 1 = Reckless Movement instead of Disengage / a double move out of rough terrain
NP = 11
TARGET_WEAKEST = 0
TARGET_RANDOM = 1
TARGET_STRONGEST = 2
TARGET_NEAREST = 3
MOVE_CLOSE = 0     # close in to melee range
MOVE_KEEP = 1      # keep at ranged range (2-3)
MOVE_HOLD = 2      # never move
MOVE_PROTECT = 3   # stay next to the most hurt ally
BOOST_NEVER = 0
BOOST_ALWAYS = 1
BOOST_LOSING = 2

# dynamic columns
D_RES = 0
D_WOUNDS = 1
D_DEAD = 2
D_PENDING = 3      # Resolve to regain at the start of her next turn; -1 none; -2 revive roll due (draft)
D_REVIVES = 4
D_OC = 5           # 3 columns: overcharge counters heart, fury, judgment
D_POOL = 8
D_BOOSTS = 9       # Boost uses left
D_KO = 10          # dropped to 0 at least once this fight
D_BURSTED = 11     # 3 columns: this stat's burst was counted and its counter kept (burst_resets false)
D_AIL = 14         # 3 columns: Stun, Bound, Bleed (1 = has it)
D_TUSES = 17       # MAXT columns: uses left per talent slot (-1 unlimited)
D_BURST_TRIAL = 23  # 3 columns: a burst of this stat was counted in this trial
D_POS = 26         # her cell on the battlefield, -1 without a grid
D_GUARD = 27       # who may intercept the attack now aimed at her (set by the grid turn), -1 nobody
D_DMG_ADJ = 28     # added to her attack's damage bonus (the grid turn's choice of melee or ranged)
D_PAID = 29        # hexes of movement already paid toward leaving her rough hex (rough_cost split)
ND = 30

# counters per combatant
K_DEALT = 0
K_TAKEN = 1
K_KO_TRIALS = 2
K_KOS = 3
K_DEATHS = 4
K_REVIVES = 5
K_BOOSTS = 6
K_ATTACKS = 7
K_HITS = 8
K_RES_END = 9
K_STANDING_END = 10
K_OC_GAIN = 11     # 3 columns
K_BURSTS = 14      # 3 columns
K_POOL_SPENT = 17
K_WOUND_DMG = 18
K_TUSE = 19        # MAXT columns: talent uses per slot
K_HEALED = 25      # Resolve restored by her heals
K_AILED = 26       # ailments she received
K_AIL_REMOVED = 27
K_BLEED_DMG = 28
K_TIER = 29        # 3 x NTIERS columns: trials whose highest tier on stat s was t (s * NTIERS + t)
NTIERS = 6         # 0 none, 1 minor flair, 2 major flair, 3 temporary change, 4 permanent change, 5 burst
K_MOVES = K_TIER + 3 * NTIERS  # hexes moved (grid)
K_RECKLESS = K_MOVES + 1       # Reckless Movement rolls
K_RECKLESS_DMG = K_MOVES + 2   # damage Reckless Movement dealt her
K_INTERCEPTS = K_MOVES + 3     # successful intercepts (she took the hit)
K_INTERCEPT_DMG = K_MOVES + 4  # damage she took for others by intercepting
NK = K_MOVES + 5

# fight counters
F_WIN = 0
F_LOSS = 1
F_DRAW = 2
F_ROUNDS = 3
NF = 4

# stream purposes
S_SETUP = 0
S_CHECK = 1
S_DAMAGE = 2
S_POLICY = 3
NS = 4

# rule table indices (must equal RULES.index(name); tests/test_mb41_rules.py checks)
R_GRID = 0
R_INITIATIVE = 1
R_ROUND_CAP = 2
R_DEFEAT = 3
R_FULL_TIE = 4
R_MIN_DAMAGE = 5
R_SIX_DAMAGE = 6
R_MELEE_BONUS = 7
R_RANGED_BONUS = 8
R_DAMAGE_DICE = 9
R_BOOST_USES = 10
R_BOOST_DAMAGE = 11
R_BOOST_TIMING = 12
R_BOOSTS_PER_ROLL = 13
R_BURST_AT = 14
R_BURST_RESETS = 15
R_RESOLVE = 16
R_DEATH_WOUNDS = 17
R_REVIVE = 18
R_REVIVE_LIMIT = 19
R_REVIVE_BANDS = 20   # 2 entries
R_REVIVE_OC = 22      # 3 entries
R_REVIVE_BONUS = 25   # 3 entries
R_DOWNED_DEFENCE = 28
R_MONSTER_RESOLVE = 29  # 5 entries
R_MONSTER_DAMAGE_BONUS = 34
R_MONSTER_OC_POOL = 35
R_MONSTER_SIX_COST = 36
R_MINION_TIE = 37
R_DEFENDER_SIX_DAMAGE = 38
R_REVIVE_TIMING = 39
R_PASSIVE_DEFENCE = 40
R_REMOVAL_BANDS = 41  # 2 entries
R_BOUND_PENALTY = 43
R_BLEED_DAMAGE = 44
R_FLAIR_TIERS = 45    # 4 entries
R_MELEE_RANGE = 49    # 2 entries
R_RANGED_RANGE = 51   # 2 entries
R_DISENGAGE = 53
R_ROUGH_COST = 54
R_RECKLESS_BANDS = 55  # 2 entries
R_RECKLESS_DAMAGE = 57  # 2 entries
R_BOUND_RECKLESS = 59
R_INTERCEPT_BANDS = 60  # 2 entries
R_INTERCEPT_HALF = 62
R_SIZE = 63

BOOST_FLAT_DAMAGE = 2  # "adds or subtracts 2 from the final damage" (L1565)


# ---------------------------------------------------------------- state


@kernel(inline="always")
def reset(comb, rules, dyn):
    """Start-of-fight state: full Resolve, starting overcharge, Boost uses."""
    n = comb.shape[0]
    for i in range(n):
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
        dyn[i, D_POS] = comb[i, C_CELL]
        dyn[i, D_GUARD] = -1
        dyn[i, D_DMG_ADJ] = 0
        dyn[i, D_PAID] = 0


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


@kernel(inline="always")
def choose_target(i, comb, pol, dyn, st_policy):
    """Target of combatant ``i``'s attack, or -1 if nobody can be attacked.

    Candidates: living enemies that are standing, and downed enemies (0
    Resolve, not dead) if the policy finishes downed girls. focus-weakest:
    lowest current Resolve (downed first), ties to the first listed;
    strongest-threat: highest Attack stat, ties to the lowest Resolve, then
    the first listed; random-target: uniform over candidates.
    """
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    finish = pol[i, P_FINISH] != 0
    strongest = pol[i, P_TARGET] == TARGET_STRONGEST
    best = -1
    best_res = 1 << 60
    best_att = -1
    count = 0
    for j in range(n):
        if not _candidate(j, side, finish, comb, dyn):
            continue
        count += 1
        better = dyn[j, D_RES] < best_res
        if strongest:
            if comb[j, C_ATT] != best_att:
                better = comb[j, C_ATT] > best_att
        if better:
            best_res = dyn[j, D_RES]
            best_att = comb[j, C_ATT]
            best = j
    if count == 0:
        return best
    if pol[i, P_TARGET] != TARGET_RANDOM:
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
def can_boost(i, stat, pending, comb, pol, dyn):
    """Boost is possible: a girl, uses left, and the +1 overcharge within her cap.

    ``pending``: overcharge the roll already carries but that is not on the
    counter yet (its sixes, L149); a boost decided after the roll must count it.
    """
    if comb[i, C_MONSTER] != 0:
        return False
    if dyn[i, D_BOOSTS] <= 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    return dyn[i, D_OC + stat] + pending + 1 <= pol[i, P_OCCAP]


@kernel(inline="always")
def gain_overcharge(i, stat, amount, comb, rules, dyn, cc):
    """Sixes on a magical check: +1 per six for a girl (L149); a monster loses
    ``monster_six_cost`` per six from its pool, not below 0 (L1892)."""
    if amount <= 0:
        return
    if comb[i, C_MONSTER] != 0:
        spend = amount * rules[R_MONSTER_SIX_COST]
        if spend > dyn[i, D_POOL]:
            spend = dyn[i, D_POOL]
        dyn[i, D_POOL] -= spend
        cc[i, K_POOL_SPENT] += spend
    else:
        dyn[i, D_OC + stat] += amount
        cc[i, K_OC_GAIN + stat] += amount


@kernel(inline="always")
def check_bursts(i, comb, rules, dyn, cc):
    """Count a burst for every stat of girl ``i`` at or above ``burst_at`` (L161).

    A burst "happens as soon as the counter hits 13": once per crossing. With
    ``burst_resets`` the counter returns to 0 (L151); without it the counter
    stays and ``D_BURSTED`` keeps the same crossing from counting again.
    """
    if comb[i, C_MONSTER] != 0:
        return
    for s in range(3):
        if dyn[i, D_OC + s] >= rules[R_BURST_AT]:
            if rules[R_BURST_RESETS] != 0:
                cc[i, K_BURSTS + s] += 1
                dyn[i, D_OC + s] = 0
                dyn[i, D_BURST_TRIAL + s] = 1
            elif dyn[i, D_BURSTED + s] == 0:
                cc[i, K_BURSTS + s] += 1
                dyn[i, D_BURSTED + s] = 1
                dyn[i, D_BURST_TRIAL + s] = 1


@kernel
def revive_roll(t, comb, rules, dyn, streams, cc):
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
    gain_overcharge(t, stat, sixes + rules[R_REVIVE_OC + band], comb, rules, dyn, cc)
    dyn[t, D_PENDING] = sum_d6(streams[S_DAMAGE], 1) + rules[R_REVIVE_BONUS + band]
    dyn[t, D_REVIVES] += 1
    cc[t, K_REVIVES] += 1


@kernel(inline="always")
def dropped(t, comb, rules, dyn, streams, cc):
    """``t`` has just dropped to 0 Resolve (L1420): a KO; a monster is dead
    (L1892); a girl makes her revive roll if the rules allow one (L1445,
    A19a), or rolls it as her next Major action in the draft."""
    cc[t, K_KOS] += 1
    if dyn[t, D_KO] == 0:
        dyn[t, D_KO] = 1
        cc[t, K_KO_TRIALS] += 1
    if comb[t, C_MONSTER] != 0:
        dyn[t, D_DEAD] = 1
        cc[t, K_DEATHS] += 1
    elif rules[R_REVIVE] != 0:
        allowed = True
        if rules[R_REVIVE_LIMIT] >= 0:
            if dyn[t, D_REVIVES] >= rules[R_REVIVE_LIMIT]:
                allowed = False
        if allowed:
            if rules[R_REVIVE_TIMING] == 1:
                dyn[t, D_PENDING] = -2  # the draft: she rolls as her next Major action
            else:
                revive_roll(t, comb, rules, dyn, streams, cc)


@kernel(inline="always")
def apply_damage(t, dmg, comb, rules, dyn, streams, cc):
    """Deal ``dmg`` to ``t``; returns the damage that took effect.

    Above 0 Resolve: Resolve falls, overflow is ignored (L1420); reaching 0
    drops her (revive roll if allowed) or kills a monster. At 0 Resolve: the
    damage is wound damage; ``death_wounds`` of it kills (L1422, A16a).
    """
    if dmg <= 0:
        return 0
    if dyn[t, D_DEAD] != 0:
        return 0
    if dyn[t, D_RES] > 0:
        take = dmg if dmg < dyn[t, D_RES] else dyn[t, D_RES]
        dyn[t, D_RES] -= take
        if dyn[t, D_RES] == 0:
            dropped(t, comb, rules, dyn, streams, cc)
        return take
    dyn[t, D_WOUNDS] += dmg
    cc[t, K_WOUND_DMG] += dmg
    if dyn[t, D_WOUNDS] >= rules[R_DEATH_WOUNDS]:
        dyn[t, D_DEAD] = 1
        dyn[t, D_PENDING] = -1
        cc[t, K_DEATHS] += 1
    return dmg


@kernel(inline="always")
def _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, pol, rules):
    mode = pol[i, P_BOOST]
    if mode == BOOST_ALWAYS:
        return boosted == 0
    if mode == BOOST_LOSING:
        if rules[R_BOOST_TIMING] == 1:  # declared before rolling: boost when the stat is lower
            if boosted != 0:
                return False
            return own_stat < opp_stat
        if not losing:
            return False
        return deficit <= pol[i, P_MARGIN]
    return False


@kernel(inline="always")
def _boost_ok(i, role, boosted, bpr, losing, deficit, own_stat, opp_stat, pending, comb, pol, rules, dyn):
    if boosted >= bpr:
        return False
    if rules[R_BOOST_TIMING] == 1:
        pending = 0  # declared before rolling: the roll's sixes are not known yet
    if not can_boost(i, role, pending, comb, pol, dyn):
        return False
    return _wants_boost(i, losing, deficit, own_stat, opp_stat, boosted, pol, rules)


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
def _takes_passive(t, pol, rules):
    if rules[R_PASSIVE_DEFENCE] < 0:
        return False
    return pol[t, P_PASSIVE] != 0


@kernel(inline="always")
def _spend_boost(i, role, chk, comb, rules, dyn, cc):
    """One Boost (L1565): a use, +1 overcharge on the rolled stat, and an
    exploding die; returns the die's ``(total, sixes)``."""
    dyn[i, D_BOOSTS] -= 1
    cc[i, K_BOOSTS] += 1
    gain_overcharge(i, role, 1, comb, rules, dyn, cc)
    return exploding_d6(chk, 1)


@kernel(inline="always")
def attack(i, t, comb, pol, rules, dyn, streams, cc):
    """Basic attack of ``i`` on ``t`` (L1453). Returns the damage dealt (>= 0), -1 on a miss."""
    chk = streams[S_CHECK]
    a_stat = comb[i, C_ATT]
    a_role = comb[i, C_RA]
    magical_defence = dyn[t, D_RES] > 0
    d_role = comb[t, C_RD]
    # Random check stream and a rolled 2d6! defence: one draw gives both
    # pools and the first damage die (sim.dice.opposed_2d6; the duel fast
    # path draws the same); injected dice go die by die in the book's order.
    combined = False
    if chk[6] == 0:
        if comb[t, C_PDEF] < 0:
            if magical_defence:
                combined = not _takes_passive(t, pol, rules)
    first_die = 0
    if combined:
        a_total, a_six, od_total, od_six, first_die = opposed_2d6(chk)
    else:
        a_total, a_six = exploding_d6(chk, 2)
        od_total = 0
        od_six = 0
    a_total += a_stat - roll_penalty(i, rules, dyn)
    if comb[t, C_PDEF] >= 0:
        # a minion's passive defence (L2170): no roll, no sixes, no boosts; the
        # attack needs a higher total, or an equal one with a six (A35 default)
        magical_defence = False
        passive = True
        d_total = comb[t, C_PDEF]
        d_six = 0
        d_stat = 0
    elif magical_defence:
        passive = False
        d_stat = comb[t, C_DEF]
        if _takes_passive(t, pol, rules):
            # the draft's passive defence: Defence + 4 without rolling (DRAFT L486)
            magical_defence = False
            d_total = d_stat + rules[R_PASSIVE_DEFENCE]
            d_six = 0
        else:
            if combined:
                d_total = od_total
                d_six = od_six
            else:
                d_total, d_six = exploding_d6(chk, 2)
            d_total += d_stat - roll_penalty(t, rules, dyn)
    elif rules[R_DOWNED_DEFENCE] == 0:  # a human defends with Tenacity, no explosions
        passive = False
        d_stat = comb[t, C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - roll_penalty(t, rules, dyn)
        d_six = 0
    else:
        passive = False
        d_stat = 0
        d_total = -(1 << 40)
        d_six = 0
    a_boosts = 0
    d_boosts = 0
    bpr = rules[R_BOOSTS_PER_ROLL]
    full_tie = rules[R_FULL_TIE] == 1
    boosting = pol[i, P_BOOST] != BOOST_NEVER
    if magical_defence:
        if pol[t, P_BOOST] != BOOST_NEVER:
            boosting = True
    tie_mode = rules[R_MINION_TIE]
    # Damage dice: a random damage stream draws them for every attack, hit or
    # miss (the first one comes with a combined draw), so the duel fast path
    # stays branch-free and bit-identical (fast.py); the values a hit uses
    # are fair dice either way. Injected damage dice are read on a hit only.
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
    hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
    while boosting:
        hit = _hits(passive, tie_mode, a_total, a_six, a_stat, d_total, d_six, d_stat, full_tie)
        if _boost_ok(i, a_role, a_boosts, bpr, not hit, d_total - a_total, a_stat, d_stat, a_six,
                     comb, pol, rules, dyn):
            r, s = _spend_boost(i, a_role, chk, comb, rules, dyn, cc)
            a_total += r
            a_six += s
            a_boosts += 1
            continue
        if magical_defence:
            d_ok = _boost_ok(t, d_role, d_boosts, bpr, hit, a_total - d_total, d_stat, a_stat, d_six,
                             comb, pol, rules, dyn)
        else:
            d_ok = False
        if d_ok:
            r, s = _spend_boost(t, d_role, chk, comb, rules, dyn, cc)
            d_total += r
            d_six += s
            d_boosts += 1
            continue
        break
    gain_overcharge(i, a_role, a_six, comb, rules, dyn, cc)
    if magical_defence:
        gain_overcharge(t, d_role, d_six, comb, rules, dyn, cc)
    cc[i, K_ATTACKS] += 1
    dealt = -1
    if hit:
        cc[i, K_HITS] += 1
        if dmg_dice < 0:
            dmg_dice = sum_dice(dmg_st, ndice, 6)
        dmg = dmg_dice + comb[i, C_DMG] + dyn[i, D_DMG_ADJ]
        dmg += rules[R_SIX_DAMAGE] * a_six - rules[R_DEFENDER_SIX_DAMAGE] * d_six
        if rules[R_BOOST_DAMAGE] == 0:
            dmg += BOOST_FLAT_DAMAGE * (a_boosts - d_boosts)
        if dmg < rules[R_MIN_DAMAGE]:
            dmg = rules[R_MIN_DAMAGE]
        if dyn[t, D_GUARD] >= 0:  # an ally may intercept (grid, L1469)
            dmg = BG.intercept(i, t, dmg, comb, pol, rules, dyn, streams, cc)
        dealt = apply_damage(t, dmg, comb, rules, dyn, streams, cc)
        cc[i, K_DEALT] += dealt
        cc[t, K_TAKEN] += dealt
        if comb[i, C_TMASK] != 0:
            try_inflict(i, t, comb, pol, rules, dyn, cc)
    check_bursts(i, comb, rules, dyn, cc)
    check_bursts(t, comb, rules, dyn, cc)
    return dealt


@kernel(inline="always")
def roll_penalty(i, rules, dyn):
    """Bound: -2 to all rolls (L1463)."""
    if dyn[i, D_AIL + A_BOUND] != 0:
        return rules[R_BOUND_PENALTY]
    return 0


@kernel(inline="always")
def has_ailment(i, dyn):
    if dyn[i, D_AIL + A_STUN] != 0:
        return True
    if dyn[i, D_AIL + A_BOUND] != 0:
        return True
    return dyn[i, D_AIL + A_BLEED] != 0


@kernel
def removal_roll(i, comb, rules, dyn, streams, cc):
    """Remove ailments (L1467): 2d6! + Support; 11-13 one of her choice
    (Stun, then Bound, then Bleed), 14+ all (``removal_bands``)."""
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += comb[i, C_SUP] - roll_penalty(i, rules, dyn)
    gain_overcharge(i, comb[i, C_RS], sixes, comb, rules, dyn, cc)
    if total <= rules[R_REMOVAL_BANDS]:
        return
    all_of_them = total > rules[R_REMOVAL_BANDS + 1]
    for a in range(3):
        if dyn[i, D_AIL + a] != 0:
            dyn[i, D_AIL + a] = 0
            cc[i, K_AIL_REMOVED] += 1
            if not all_of_them:
                return


@kernel(inline="always")
def find_talent(i, code, comb, dyn):
    """The first slot of ``i`` holding effect ``code`` with uses left, or -1."""
    if (comb[i, C_TMASK] >> code) & 1 == 0:
        return -1
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == code:
            if dyn[i, D_TUSES + s] != 0:
                return s
    return -1


@kernel(inline="always")
def can_pay(i, s, comb, pol, dyn):
    """A talent's overcharge cost: within a girl's cap, or within a monster's pool."""
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        return dyn[i, D_POOL] >= cost
    return dyn[i, D_OC + comb[i, C_TROLE + s]] + cost <= pol[i, P_OCCAP]


@kernel(inline="always")
def pay_talent(i, s, comb, rules, dyn, cc):
    """Spend a use; a girl takes the cost as overcharge on the role's stat (L149),
    a monster spends it from its pool (L1892)."""
    if dyn[i, D_TUSES + s] > 0:
        dyn[i, D_TUSES + s] -= 1
    cc[i, K_TUSE + s] += 1
    cost = comb[i, C_TCOST + s]
    if comb[i, C_MONSTER] != 0:
        dyn[i, D_POOL] -= cost
        cc[i, K_POOL_SPENT] += cost
    else:
        dyn[i, D_OC + comb[i, C_TROLE + s]] += cost
        cc[i, K_OC_GAIN + comb[i, C_TROLE + s]] += cost


@kernel
def try_heal(i, comb, pol, rules, dyn, streams, cc):
    """Heal (Minor): restore P1 d6 + P2 Resolve to the standing ally (or
    herself) lowest in Resolve share, if below ``heal_below`` percent."""
    s = find_talent(i, E_HEAL, comb, dyn)
    if s < 0:
        return False
    if not can_pay(i, s, comb, pol, dyn):
        return False
    n = comb.shape[0]
    best = -1
    best_share = 1 << 40
    for j in range(n):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(dyn, j):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < pol[i, P_HEAL_BELOW]:
            if share < best_share:
                best_share = share
                best = j
    if best < 0:
        return False
    pay_talent(i, s, comb, rules, dyn, cc)
    amount = sum_d6(streams[S_DAMAGE], comb[i, C_TP1 + s]) + comb[i, C_TP2 + s]
    room = comb[best, C_RES] - dyn[best, D_RES]
    if amount > room:
        amount = room
    dyn[best, D_RES] += amount
    cc[i, K_HEALED] += amount
    check_bursts(i, comb, rules, dyn, cc)
    return True


@kernel
def try_inflict(i, t, comb, pol, rules, dyn, cc):
    """Inflict (free, after a successful basic attack, L1607): put an ailment
    the target does not have yet on her, trying the policy's first choice
    first (Stun -> Bound -> Bleed order from there)."""
    s = find_talent(i, E_INFLICT, comb, dyn)
    if s < 0:
        return
    if not is_standing(dyn, t):
        return
    if not can_pay(i, s, comb, pol, dyn):
        return
    for k in range(3):
        a = (pol[i, P_INFLICT] + k) % 3
        if dyn[t, D_AIL + a] == 0:
            pay_talent(i, s, comb, rules, dyn, cc)
            dyn[t, D_AIL + a] = 1
            cc[t, K_AILED] += 1
            return


@kernel
def bleed(j, comb, rules, dyn, streams, cc):
    """Bleed (L1465): damage at the beginning of each round; not an attack."""
    if dyn[j, D_AIL + A_BLEED] == 0:
        return
    if dyn[j, D_DEAD] != 0:
        return
    d = apply_damage(j, rules[R_BLEED_DAMAGE], comb, rules, dyn, streams, cc)
    cc[j, K_BLEED_DMG] += d
    cc[j, K_TAKEN] += d
    check_bursts(j, comb, rules, dyn, cc)


@kernel(inline="always")
def take_turn(i, comb, pol, rules, dyn, streams, cc):
    """One turn of ``i`` (L1410): a Major and a Minor action, free actions.

    1. Ailments: a removal roll (2d6! + Support) with the Minor action, or
       with her only action if Stunned; removing Stun gives the second
       action back (L1461, L1467, A25: Minor).
    2. Minor: Heal (talent) on the ally (or herself) lowest in Resolve below
       the policy's ``heal_below`` percent.
    3. Major: a basic attack on the policy's target (A13).
    4. Free: Bonus Action (talent) for another Major action (a basic attack).
    """
    actions = 2
    if dyn[i, D_AIL + A_STUN] != 0:
        actions = 1  # "can take only one action per turn" (L1461)
    if has_ailment(i, dyn):
        stunned = dyn[i, D_AIL + A_STUN] != 0
        removal_roll(i, comb, rules, dyn, streams, cc)
        actions -= 1
        if stunned:
            if dyn[i, D_AIL + A_STUN] == 0:
                actions += 1  # "she regains the second action"
        check_bursts(i, comb, rules, dyn, cc)
    if actions >= 2:
        if comb[i, C_TMASK] != 0:
            if try_heal(i, comb, pol, rules, dyn, streams, cc):
                actions -= 1
    # Major action, then (Bonus Action, free) another Major: one attack site,
    # so the inlined attack is compiled once
    majors = 1 if actions >= 1 else 0
    for m in range(2):
        if m >= majors:
            if m > 0:
                break
            continue
        t = choose_target(i, comb, pol, dyn, streams[S_POLICY])
        if t < 0:
            break
        attack(i, t, comb, pol, rules, dyn, streams, cc)
        if m == 0:
            if comb[i, C_TMASK] != 0:
                if bonus_action(i, comb, pol, rules, dyn, cc):
                    majors = 2


@kernel
def bonus_action(i, comb, pol, rules, dyn, cc):
    """Bonus Action (free, L1579): pay for one more Major action if she can."""
    s = find_talent(i, E_BONUS_ACTION, comb, dyn)
    if s < 0:
        return False
    if dyn[i, D_RES] <= 0:
        return False
    if not can_pay(i, s, comb, pol, dyn):
        return False
    side = comb[i, C_SIDE]
    finish = pol[i, P_FINISH] != 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, comb, dyn):
            pay_talent(i, s, comb, rules, dyn, cc)
            return True
    return False  # nobody left to attack: keep the use


@kernel(inline="always")
def side_alive(side, comb, rules, dyn):
    """A side is still in the fight: some member standing (all_down) or not dead (all_dead)."""
    n = comb.shape[0]
    all_dead = rules[R_DEFEAT] == 1
    for j in range(n):
        if comb[j, C_SIDE] != side:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        if all_dead:
            return True
        if dyn[j, D_RES] > 0:
            return True
    return False


@kernel(inline="always")
def outcome_now(comb, rules, dyn):
    """-1 while both sides fight on; else F_WIN (side 0 wins), F_LOSS or F_DRAW."""
    a = side_alive(0, comb, rules, dyn)
    b = side_alive(1, comb, rules, dyn)
    if a:
        if b:
            return -1
        return F_WIN
    if b:
        return F_LOSS
    return F_DRAW


@kernel(inline="always")
def _record_round(r, plane, comb, dyn, side_curve, comb_curve):
    """Add who stands now to ``[..., plane, r]`` of the curve counters."""
    n = comb.shape[0]
    s0 = 0
    s1 = 0
    for j in range(n):
        if is_standing(dyn, j):
            comb_curve[j, plane, r] += 1
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


@kernel(inline="always")
def count_tiers(j, oc0, oc1, oc2, comb, rules, dyn, cc):
    """Count girl ``j``'s highest tier per stat, her counters being ``oc0..oc2``."""
    if comb[j, C_MONSTER] != 0:
        return
    cc[j, K_TIER + flair_tier(oc0, dyn[j, D_BURST_TRIAL], rules)] += 1
    cc[j, K_TIER + NTIERS + flair_tier(oc1, dyn[j, D_BURST_TRIAL + 1], rules)] += 1
    cc[j, K_TIER + 2 * NTIERS + flair_tier(oc2, dyn[j, D_BURST_TRIAL + 2], rules)] += 1


@kernel
def fight(comb, pol, rules, dyn, order, key, streams, cc, side_curve, comb_curve):
    """Play one gridless fight from the current ``dyn`` (:func:`fight_on`)."""
    return fight_on(comb, pol, rules, dyn, order, key, streams, cc, side_curve, comb_curve, None)


@kernel
def fight_on(comb, pol, rules, dyn, order, key, streams, cc, side_curve, comb_curve, bf):
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
    n = comb.shape[0]
    cap = rules[R_ROUND_CAP]
    for j in range(n):  # a girl may start the scene at or over the threshold
        check_bursts(j, comb, rules, dyn, cc)
    if bf is not None:
        BG.place_all(dyn, bf)
    roll_initiative(comb, rules, streams[S_SETUP], order, key)
    outcome = -1
    rounds = cap
    for r in range(1, cap + 1):
        bled = False
        for j in range(n):
            if dyn[j, D_AIL + A_BLEED] != 0:
                bleed(j, comb, rules, dyn, streams, cc)
                bled = True
        if bled:
            outcome = outcome_now(comb, rules, dyn)
            if outcome >= 0:
                rounds = r
                break
        for k in range(n):
            i = order[k]
            if dyn[i, D_DEAD] != 0:
                continue
            acts = True
            if dyn[i, D_RES] <= 0:
                if dyn[i, D_PENDING] == -1:
                    continue
                if dyn[i, D_PENDING] == -2:
                    # the draft: the revive roll is her Major action (DRAFT L512-516)
                    revive_roll(i, comb, rules, dyn, streams, cc)
                    check_bursts(i, comb, rules, dyn, cc)
                    acts = False
                # revive: Resolve returns at the start of her next turn (A19a)
                back = dyn[i, D_PENDING]
                dyn[i, D_RES] = back if back < comb[i, C_RES] else comb[i, C_RES]
                dyn[i, D_PENDING] = -1
            if acts:
                if bf is None:
                    take_turn(i, comb, pol, rules, dyn, streams, cc)
                else:
                    BG.take_turn_grid(i, comb, pol, rules, dyn, streams, cc, bf)
            outcome = outcome_now(comb, rules, dyn)
            if outcome >= 0:
                break
        if outcome >= 0:
            rounds = r
            break
        if r < cap:
            _record_round(r, 0, comb, dyn, side_curve, comb_curve)
    _record_round(rounds, 1, comb, dyn, side_curve, comb_curve)
    if outcome < 0:
        outcome = F_DRAW
    for j in range(n):
        cc[j, K_RES_END] += dyn[j, D_RES]
        if is_standing(dyn, j):
            cc[j, K_STANDING_END] += 1
        if comb[j, C_MONSTER] == 0:
            count_tiers(j, dyn[j, D_OC], dyn[j, D_OC + 1], dyn[j, D_OC + 2], comb, rules, dyn, cc)
    return outcome, rounds


@pjit
def simulate_blocks(comb, pol, rules, key, start, count, nblocks,
                    fights, rounds_hist, side_curve, comb_curve, ccount):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its four streams from ``(key, t, purpose)``, so the
    result does not depend on how trials are split over threads or blocks.
    Counters have a leading block axis and are summed by the caller:
    ``fights[nb, NF]``, ``rounds_hist[nb, cap+1]``, ``side_curve[nb, 2, 2, cap+1]``,
    ``comb_curve[nb, n, 2, cap+1]``, ``ccount[nb, n, NK]``.
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        dyn = np.zeros((n, ND), dtype=np.int64)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            reset(comb, rules, dyn)
            outcome, rounds = fight(comb, pol, rules, dyn, order, ikey, streams, ccount[b],
                                    side_curve[b], comb_curve[b])
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
