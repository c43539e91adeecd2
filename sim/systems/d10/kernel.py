"""d10 combat add-on kernel (numba): groups, episodes, powers and perks.

Rules implemented (seed 003 line numbers; audit ids D.. in brackets; every
number and reading comes from the rule table ``rules`` or the catalog):

* pools of ceil(score/2) d10, 7-9 one success, 10 two (L11-17); bonus and
  penalty dice add up and a pool can shrink to nothing (D3, rule
  ``penalty_order``);
* wound pool 2 x Vitality, four threshold bands with -0/-1/-2/-3 dice (L31-33,
  D2), out when full: knocked out (cake) or dead (grim) (L65-69); the
  permanent-wound option (L35-49, D4);
* mana = Magic, spent on specialization uses (1), power costs and up to 3
  augmentation dice (L51, L77); refreshed after every fight (L55); Recharge
  (+3 mana, -2 defence dice until her next turn, L113, D18);
* fortune = Luck, one point per test for +2 successes, refreshed per episode
  (L53, L57);
* initiative: Agility successes, ties by Agility score, then opposed Agility
  re-rolls (L73); Awareness counts every die as a 10; or the listed order;
* one action per turn, defences are reactions (D6); attacks by weapon form
  (melee STR, ranged AGI, mystic/specialization MAG, L75); Dodge and Luck
  against anything, Parry only against melee (1 wound to the attacker on a
  full miss), Magic Block only against mystic attacks and specialization
  uses (+1 mana on a full miss, or when it resists a penalty use, and under
  rule ``block_mana_on: any_magic`` a grapple or a trap: seed 002 L241-243)
  (L83-85); wounds max(1, 1 + margin - DR) (L85, D11);
* several targets: one roll, one penalty die per extra target (L81, D8);
  area specialization uses hit every enemy and ``allies_caught`` allies
  (friendly fire) with no penalty; a specialization 'penalty' use sets a
  target number to resist and -2..-4 dice until she pulls free (L79, D7;
  a second spell on a held target: rule ``recast``; a hold whose holder is
  out: rule ``hold_ends``);
* Hide, Aid, Retreat, Pursue, Recharge (L103-113); stunt dice (L115-145);
* powers and perks through the catalog's effect codes (compiled into the
  ``C_*`` columns below): Killing Blow, Focused Assault, Barrage (with a
  Magic Weapon of any form or a specialization use, seed 002 L507-511), Power of
  Friendship, Duplication, Third Eye, Regeneration, Tentacles, Familiar,
  Hammerspace; dice perks, Enhanced Outfit, Mystic Artifact, Blood Magic,
  Healing Artifact, Disguise Artifact, Awareness.

Arrays (int64 unless said): ``comb[n, NC]`` static columns ``C_*``;
``pol[n, NP]`` policy parameters ``P_*``; ``rules`` the rule table
(``R_*`` = :meth:`RULES.index`) followed by the exact chance table
(``R_CHANCE``, :func:`chance_table`); ``tab`` int8 lookup of pool successes
(:func:`success_table`); ``dyn[n, ND]`` state ``D_*``; ``streams[NS, W]``
uint64 stream states; ``cc[n, NK]`` per-combatant counters ``K_*``.

Dice: a pool of up to 4 d10 is one uniform draw below 10^k whose k decimal
digits are the k dice; ``tab`` maps the draw to its successes (exact, and one
random number instead of k). A scripted stream (tests) is read die by die, so
tests inject faces.
"""
from __future__ import annotations

import numba
import numpy as np

from sim.curves import standing_curves  # noqa: F401 - used by the plug-in
from sim._jit import kernel, part, pjit
from sim.rng import STATE_WORDS, randbelow, randbelow_inline, seed_stream

# ---------------------------------------------------------------- abilities and tests
STR = 0
AGI = 1
VIT = 2
MAG = 3
LCK = 4

T_MELEE = 0
T_RANGED = 1
T_MYSTIC = 2
T_SPEC = 3
T_INIT = 4
T_DODGE = 5
T_PARRY = 6
T_BLOCK = 7
T_LUCK = 8
T_HIDE = 9
T_RETREAT = 10
T_PURSUE = 11
T_AID = 12
T_ESCAPE = 13
T_GRAPPLE = 14
NT = 15
TEST_NAMES = ("melee", "ranged", "mystic", "spec", "initiative", "dodge", "parry", "block", "luck", "hide",
              "retreat", "pursue", "aid", "escape", "grapple")

# attack kinds (= their test index)
ATK_MELEE = 0
ATK_RANGED = 1
ATK_MYSTIC = 2
ATK_SPEC = 3

# combatant kinds
KIND_GIRL = 0
KIND_MONSTER = 1
KIND_DARK = 2
KIND_FAMILIAR = 3
KIND_COPY = 4

# ---------------------------------------------------------------- static columns
C_SIDE = 0
C_ORDER = 1         # position in the listed order
C_KIND = 2
C_OWNER = 3         # familiar / copy: its creator; else -1
C_SCORE = 4         # 5 columns: STR AGI VIT MAG LCK scores
C_DICE = 9          # 5 columns: ceil(score / 2)
C_WMAX = 14         # wound pool
C_T1 = 15           # first wound count with the 2nd/3rd/4th threshold penalty
C_T2 = 16
C_T3 = 17
C_BAND = 18         # a quarter of the pool, rounded up (Regeneration, grim healing)
C_MANA = 19
C_FORT = 20
C_DR = 21
C_ATK = 22          # attack kind
C_ATK_COST = 23     # mana cost of the attack (specialization 1, Mystic Artifact 1)
C_BONUS = 24        # NT columns: perk bonus dice per test
C_SPEC_EFFECT = C_BONUS + NT   # 0 damage, 1 penalty
C_SPEC_AREA = C_SPEC_EFFECT + 1
C_SPEC_PEN = C_SPEC_EFFECT + 2
C_SPEC_ALLIES = C_SPEC_EFFECT + 3
C_KB_COST = C_SPEC_EFFECT + 4      # Killing Blow (0 = not had)
C_KB_PEN = C_SPEC_EFFECT + 5
C_KB_FAILX = C_SPEC_EFFECT + 6
C_FA_COST = C_SPEC_EFFECT + 7      # Focused Assault
C_BAR_COST = C_SPEC_EFFECT + 8     # Barrage
C_FRIEND = C_SPEC_EFFECT + 9       # Power of Friendship: aid multiplier (0 = not had)
C_FRIEND_RECV = C_SPEC_EFFECT + 10
C_DUP_COST = C_SPEC_EFFECT + 11    # Duplication: mana per copy (0 = not had)
C_COPY0 = C_SPEC_EFFECT + 12       # first copy row
C_NCOPIES = C_SPEC_EFFECT + 13
C_EYE = C_SPEC_EFFECT + 14         # Third Eye penalty
C_REGEN_W = C_SPEC_EFFECT + 15
C_REGEN_M = C_SPEC_EFFECT + 16
C_REGEN_COST = C_SPEC_EFFECT + 17  # 0 = no Regeneration action
C_TENT_G = C_SPEC_EFFECT + 18      # Tentacles (0 = not had)
C_TENT_P = C_SPEC_EFFECT + 19
C_HAMMER = C_SPEC_EFFECT + 20      # Hammerspace: 1 + the living thing's defence bonus (0 = not had)
C_BLOOD = C_SPEC_EFFECT + 21
C_HEAL_COST = C_SPEC_EFFECT + 22   # Healing Artifact (0 = not had)
C_HEAL_AMT = C_SPEC_EFFECT + 23
C_DISG_COST = C_SPEC_EFFECT + 24   # Disguise Artifact (0 = not had)
C_DISG_DICE = C_SPEC_EFFECT + 25
C_AWARE = C_SPEC_EFFECT + 26
C_ASSIST = C_SPEC_EFFECT + 27      # familiar's Perfect Assistant: extra aid dice for its owner
C_PERM_OK = C_SPEC_EFFECT + 28     # may take permanent wounds
C_CARRY = C_SPEC_EFFECT + 29       # keeps wounds etc. across fights (side 0)
C_START = C_SPEC_EFFECT + 30       # present at the start of a fight (copies: 0)
C_FAMILIAR = C_SPEC_EFFECT + 31    # row of her familiar, -1
C_FORM2 = C_SPEC_EFFECT + 32       # Dual Weapon: the weapon's other form + 1 (0 = none)
C_FORM2_COST = C_SPEC_EFFECT + 33  # mana cost of an attack in that form
C_MAGIC_WEAPON = C_SPEC_EFFECT + 34  # her weapon is a Magic Weapon (Barrage, seed 002 L507-511)
NC = C_SPEC_EFFECT + 35

# ---------------------------------------------------------------- policy columns
P_TARGET = 0
P_DEFENCE = 1
P_AUG = 2
P_SAVE = 3
P_KB = 4
P_FA = 5
P_BARRAGE = 6
P_FORTUNE = 7
P_RECHARGE = 8
P_RETREAT = 9
P_HIDE = 10
P_HEAL = 11
P_AID = 12
P_PURSUE = 13
P_TARGETS = 14
P_STUNT = 15        # expected stunt dice x 1000
P_GRAPPLE = 16
P_ESCAPE = 17
P_BLOOD = 18
P_HAMMER = 19
P_DUP = 20
P_RECAST_HELD = 21  # 1 = her penalty spell may be aimed at a target already held by a spell as strong
NP = 22

TARGET_WEAKEST = 0
TARGET_RANDOM = 1
TARGET_LISTED = 2
TARGET_STRONGEST = 3
DEF_BEST = 0
DEF_DODGE = 1
DEF_LUCK = 2
DEF_PARRY = 3
DEF_BLOCK = 4
DEF_PARRY_MELEE = 5
FORT_NEVER = 0
FORT_ALWAYS = 1
FORT_DEFENCE = 2
FORT_RESCUE = 3
ESC_NEVER = 0       # P_ESCAPE: attack through every hold
ESC_ALWAYS = 1      # spend the action pulling free whenever held (the old default)
ESC_REASONED = 2    # pull free only when the hold costs at least half her attack dice (escape_pays)
GRAPPLE_NEVER = 0   # P_GRAPPLE: Tentacles never
GRAPPLE_ALWAYS = 1  # grapple whenever the target is not held by her (then attack)
GRAPPLE_PIN = 2     # ... and pin a target she has grappled
GRAPPLE_REASONED = 3  # grapple when its chance of success is at least her attack's chance to hit (grapple_pays)

# ---------------------------------------------------------------- dynamic columns
D_W = 0             # wounds
D_OUT = 1           # OUT_*
D_MANA = 2
D_FORT = 3
D_DEFPEN = 4        # defence dice lost until her next turn (Recharge, Killing Blow)
D_HELD = 5          # dice lost on every roll until she pulls free
D_HELD_TN = 6
D_HELD_KIND = 7     # HELD_*
D_HELD_BY = 8
D_DISABLED = 9      # loses her next action
D_HIDDEN = 10       # >0: cannot be targeted (until the end of her next turn)
D_AID = 11          # aid dice for her next action
D_PERM = 12         # permanent wounds this fight
D_RETREAT = 13      # >0: retreating (the successes of her roll); leaves at her next turn
D_ACTIVE = 14       # present in the fight
D_READY = 15        # may act (copies: from the round after their creation)
D_STORED = 16       # >0: trapped in Hammerspace, TN to escape
D_GRIEF = 17        # dice lost on every roll (her familiar died)
D_MAXBAND = 18      # highest threshold band reached this trial
D_KO_TRIAL = 19     # knocked out at least once this trial
D_COPIES_MADE = 20  # Duplication used this fight
D_HELD_TN2 = 21     # spare
ND = 22

OUT_IN = 0
OUT_KO = 1
OUT_DEAD = 2
OUT_FLED = 3
HELD_NONE = 0
HELD_SPELL = 1
HELD_GRAPPLE = 2
HELD_PIN = 3

# ---------------------------------------------------------------- counters per combatant
K_FIGHTS = 0
K_ATTACKS = 1
K_HITS = 2
K_DEALT = 3
K_TAKEN = 4
K_KO_TRIALS = 5
K_KOS = 6
K_DEATHS = 7
K_PERM = 8
K_PERM_SEVERE = 9   # table result 15+ (loss of a hand or worse)
K_MANA = 10
K_FORTUNE = 11
K_BAND = 12         # 3 columns: trials that reached the 2nd / 3rd / 4th threshold
K_FLED = 15
K_KB = 16
K_KB_KILLS = 17
K_FA = 18
K_BARRAGE = 19
K_PARRY_WOUNDS = 20
K_BLOCK_MANA = 21
K_AIDS = 22
K_RECHARGES = 23
K_HIDES = 24
K_GRAPPLES = 25
K_COPIES = 26
K_HEALED = 27
K_STANDING_END = 28
K_WOUNDS_END = 29
K_SPELLS = 30       # penalty effects landed
K_PURSUES = 31
K_TRAPS = 32
K_AUG_DICE = 33
K_STUNT_DICE = 34
K_DEFENCES = 35     # 4 columns: defences rolled: dodge, parry, block, luck
K_FORM2 = 39        # attacks made in the Dual Weapon's second form
K_TARGETED = 40     # targets rolled against by her attacks (one per target of a multi-target or area use)
NK = 41

# fight counters
F_WIN = 0
F_LOSS = 1
F_DRAW = 2
F_ROUNDS = 3
F_FIGHTS = 4
NF = 5

# stream purposes
S_SETUP = 0
S_CHECK = 1
S_POLICY = 2
S_TABLE = 3
NS = 4

# rule table indices (must equal RULES.index(name); tests/test_d10_rules_table.py checks)
R_MODE = 0
R_EPISODES = 1
R_FIGHTS_PER_EPISODE = 2
R_INITIATIVE = 3
R_ROUND_CAP = 4
R_DEFEAT = 5
R_SUCCESS_FACE = 6
R_DOUBLE_FACE = 7
R_PENALTY_ORDER = 8
R_WOUND_MULTIPLIER = 9
R_THRESHOLD_RULE = 10
R_THRESHOLD_PENALTIES = 11   # 3 entries
R_PERMANENT_WOUNDS = 14
R_PERMANENT_DIE = 15
R_PERMANENT_AFTER = 16
R_PERMANENT_LIMIT = 17
R_PERMANENT_NPCS = 18
R_GRIM_HEAL_THRESHOLDS = 19
R_DAMAGE_FORMULA = 20
R_MIN_WOUNDS = 21
R_DEFAULT_DR = 22
R_FAMILIAR_DR = 23
R_AUGMENT_CAP = 24
R_SPEC_COST = 25
R_MULTI_TARGET_PENALTY = 26
R_SPEC_TIE = 27
R_SPEC_PENALTY_UNIT = 28
R_ESCAPE_TIE = 29
R_PARRY_WOUNDS = 30
R_BLOCK_MANA = 31
R_KILLING_BLOW_TEST = 32
R_FOCUSED_ASSAULT = 33
R_FORTUNE_SUCCESSES = 34
R_RECHARGE_MANA = 35
R_RECHARGE_PENALTY = 36
R_RECHARGE_CAP = 37
R_AID_DICE = 38
R_AID_SUCCESS = 39
R_HIDE_EFFECT = 40
R_ENDURANCE = 41
R_PURSUE_REROLL = 42
R_FAMILIAR_GRIEF = 43
R_BLOCK_MANA_ON = 44
R_HOLD_ENDS = 45
R_RECAST = 46
R_SIZE = 47

BLOCK_MANA_ANY = 0      # R_BLOCK_MANA_ON values
BLOCK_MANA_ATTACKS = 1
HOLD_ENDS_ESCAPE = 0    # R_HOLD_ENDS values
HOLD_ENDS_HOLDER_OUT = 1
RECAST_KEEP_HIGHER = 0  # R_RECAST values
RECAST_REPLACE = 1
RECAST_FORBID = 2

#: the chance table follows the rule options in ``rules`` (:func:`chance_table`):
#: ``rules[R_CHANCE + a * NPOOL + d]`` = P(a dice roll at least as many successes as d dice) x CHANCE_ONE
R_CHANCE = R_SIZE
NPOOL = 25
CHANCE_ONE = 1 << 20

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


# ---------------------------------------------------------------- dice


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


# ---------------------------------------------------------------- resources


@kernel(inline="always")
def gain_mana(comb, rules, dyn, i, m):
    v = dyn[i, D_MANA] + m
    if rules[R_RECHARGE_CAP] == 0:
        if v > comb[i, C_MANA]:
            v = comb[i, C_MANA]
    if v < dyn[i, D_MANA]:
        v = dyn[i, D_MANA]
    dyn[i, D_MANA] = v


@kernel(inline="always")
def mana_available(comb, pol, dyn, i):
    """Mana she can spend now: her pool, plus wounds she would take for Blood
    Magic while staying out of her next threshold (policy ``blood_magic``)."""
    m = dyn[i, D_MANA]
    if comb[i, C_BLOOD] != 0:
        if pol[i, P_BLOOD] != 0:
            w = dyn[i, D_W]
            nxt = comb[i, C_T1]
            if w >= nxt:
                nxt = comb[i, C_T2]
            if w >= nxt:
                nxt = comb[i, C_T3]
            if w >= nxt:
                nxt = comb[i, C_WMAX]
            room = nxt - 1 - w
            if room > 0:
                m += room
    return m


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


# ---------------------------------------------------------------- wounds


@kernel(inline="always")
def note_band(comb, dyn, cc, i):
    b = wound_band(comb, dyn, i)
    if dyn[i, D_W] >= comb[i, C_WMAX]:
        b = 3
    while dyn[i, D_MAXBAND] < b:
        dyn[i, D_MAXBAND] += 1
        cc[i, K_BAND + dyn[i, D_MAXBAND] - 1] += 1


@kernel
def permanent_roll(rules, st):
    """A roll on the permanent-wound table (L37-49): 1..20 by rule ``permanent_die`` (D4 i)."""
    mode = rules[R_PERMANENT_DIE]
    if mode == 0:
        return randbelow(st, 20) + 1
    if mode == 1:
        return randbelow(st, 10) + randbelow(st, 10) + 2
    d = randbelow(st, 10) + 1
    if randbelow(st, 2) == 1:
        d += 10
    return d


@kernel
def free_hold(dyn, t):
    """``t`` is held no more."""
    dyn[t, D_HELD] = 0
    dyn[t, D_HELD_TN] = 0
    dyn[t, D_HELD_KIND] = HELD_NONE
    dyn[t, D_HELD_BY] = -1


@kernel
def leave_fight(rules, dyn, j):
    """``j`` has just left the fight (out, dead, fled, a copy popped). Rule ``hold_ends:
    holder_out``: every hold she kept on someone ends with her (``escape``, the literal
    L79 / L175: they last until the held one pulls free)."""
    if rules[R_HOLD_ENDS] != HOLD_ENDS_HOLDER_OUT:
        return
    for k in range(dyn.shape[0]):
        if dyn[k, D_HELD_KIND] != HELD_NONE:
            if dyn[k, D_HELD_BY] == j:
                free_hold(dyn, k)


@kernel
def take_out(comb, rules, dyn, cc, t):
    """A full wound pool: knocked out (cake) or dead (grim); a copy pops."""
    if comb[t, C_KIND] == KIND_COPY:  # a copy pops (L169)
        dyn[t, D_OUT] = OUT_KO
        leave_fight(rules, dyn, t)
        return
    if rules[R_MODE] == 1:
        dyn[t, D_OUT] = OUT_DEAD
        cc[t, K_DEATHS] += 1
        if comb[t, C_KIND] == KIND_FAMILIAR:
            o = comb[t, C_OWNER]
            if o >= 0:
                dyn[o, D_GRIEF] = rules[R_FAMILIAR_GRIEF]
    else:
        dyn[t, D_OUT] = OUT_KO
    cc[t, K_KOS] += 1
    if dyn[t, D_KO_TRIAL] == 0:
        dyn[t, D_KO_TRIAL] = 1
        cc[t, K_KO_TRIALS] += 1
    dyn[t, D_RETREAT] = 0
    dyn[t, D_HIDDEN] = 0
    dyn[t, D_STORED] = 0
    leave_fight(rules, dyn, t)


@kernel
def apply_wounds(comb, rules, dyn, streams, cc, t, w):
    """``w`` wounds to ``t``; returns the wounds that took effect (capped at her pool)."""
    if w <= 0:
        return 0
    if dyn[t, D_OUT] != OUT_IN:
        return 0
    left = comb[t, C_WMAX] - dyn[t, D_W]
    if w > left:
        w = left
    dyn[t, D_W] += w
    cc[t, K_TAKEN] += w
    if dyn[t, D_W] >= comb[t, C_WMAX]:
        note_band(comb, dyn, cc, t)
        perm = False
        if rules[R_PERMANENT_WOUNDS] == 1:
            if comb[t, C_PERM_OK] != 0:
                lim = rules[R_PERMANENT_LIMIT]
                if lim < 0:
                    perm = True
                elif dyn[t, D_PERM] < lim:
                    perm = True
        if perm:
            face = permanent_roll(rules, streams[S_TABLE])
            dyn[t, D_PERM] += 1
            cc[t, K_PERM] += 1
            if face >= 15:
                cc[t, K_PERM_SEVERE] += 1
            if rules[R_PERMANENT_AFTER] == 0:
                dyn[t, D_W] = comb[t, C_WMAX] - 1
            else:
                v = comb[t, C_WMAX] - comb[t, C_BAND]
                dyn[t, D_W] = v if v > 0 else 0
        else:
            take_out(comb, rules, dyn, cc, t)
    else:
        note_band(comb, dyn, cc, t)
    return w


@kernel
def pay_with_blood(comb, rules, dyn, streams, cc, i):
    """After :func:`pay_mana` added Blood Magic wounds directly: settle a full pool."""
    if dyn[i, D_W] >= comb[i, C_WMAX]:
        dyn[i, D_W] = comb[i, C_WMAX] - 1
        apply_wounds(comb, rules, dyn, streams, cc, i, 1)
    else:
        note_band(comb, dyn, cc, i)


# ---------------------------------------------------------------- targeting


@kernel(inline="always")
def in_fight(dyn, j):
    if dyn[j, D_ACTIVE] == 0:
        return False
    return dyn[j, D_OUT] == OUT_IN


@kernel(inline="always")
def targetable(comb, dyn, j, side):
    """An enemy of ``side`` that can be attacked: present, in, not hidden, not stored."""
    if comb[j, C_SIDE] == side:
        return False
    if dyn[j, D_ACTIVE] == 0:
        return False
    if dyn[j, D_OUT] != OUT_IN:
        return False
    if dyn[j, D_HIDDEN] > 0:
        return False
    return dyn[j, D_STORED] == 0


@kernel(inline="always")
def attack_ability(kind):
    """The ability an attack of form ``kind`` rolls: Strength (melee), Agility
    (ranged), Magic (mystic and specialization uses)."""
    if kind == ATK_RANGED:
        return AGI
    if kind >= ATK_MYSTIC:
        return MAG
    return STR


@kernel(inline="always")
def attack_dice_of(comb, j):
    k = comb[j, C_ATK]
    return comb[j, C_DICE + attack_ability(k)] + comb[j, C_BONUS + k]


SKIP_NONE = 0       # spell_skip: any target
SKIP_AS_STRONG = 1  # not a target held by a spell at least as strong as hers (policy recast_held: false)
SKIP_HELD = 2       # not a target held by any spell (rule recast: forbid)


@kernel(inline="always")
def spell_free(dyn, j, skip, pen):
    """May a penalty spell of ``pen`` dice be aimed at ``j`` (``skip``: SKIP_*)?"""
    if skip == SKIP_NONE:
        return True
    if dyn[j, D_HELD_KIND] != HELD_SPELL:
        return True
    if skip == SKIP_HELD:
        return False
    return dyn[j, D_HELD] < pen


@kernel(inline="always")
def spell_skip(comb, pol, rules, i):
    """Which held targets ``i``'s attack leaves alone: SKIP_NONE unless her attack is a
    penalty specialization use (L79); then SKIP_HELD under rule ``recast: forbid``,
    SKIP_AS_STRONG with policy ``recast_held: false`` (a second spell at most tightens
    a hold, rule ``recast``), else SKIP_NONE."""
    if comb[i, C_ATK] != ATK_SPEC:
        return SKIP_NONE
    if comb[i, C_SPEC_EFFECT] == 0:
        return SKIP_NONE
    if rules[R_RECAST] == RECAST_FORBID:
        return SKIP_HELD
    if pol[i, P_RECAST_HELD] == 0:
        return SKIP_AS_STRONG
    return SKIP_NONE


@kernel(inline="always")
def choose_target_inline(comb, pol, dyn, st_policy, i, skip):
    """The primary target of ``i``, or -1. weakest: fewest wounds left (ties: first
    listed); strongest: largest attack pool; listed: first; random: uniform. Only
    enemies her penalty spell may be aimed at (``skip``, :func:`spell_free`)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    mode = pol[i, P_TARGET]
    pen = comb[i, C_SPEC_PEN]
    best = -1
    best_v = 1 << 60
    count = 0
    for j in range(n):
        if not targetable(comb, dyn, j, side):
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        count += 1
        if mode == TARGET_WEAKEST:
            v = comb[j, C_WMAX] - dyn[j, D_W]
        elif mode == TARGET_STRONGEST:
            v = -attack_dice_of(comb, j)
        else:
            v = comb[j, C_ORDER]
        if v < best_v:
            best_v = v
            best = j
    if mode != TARGET_RANDOM:
        return best
    if count == 0:
        return -1
    k = randbelow(st_policy, count)
    for j in range(n):
        if not targetable(comb, dyn, j, side):
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@part
def choose_target(comb, pol, dyn, st_policy, i, skip):
    """:func:`choose_target_inline` for the general path's action (a part of :func:`act`)."""
    return choose_target_inline(comb, pol, dyn, st_policy, i, skip)


@kernel
def count_targets(comb, dyn, side):
    """Enemies of ``side`` that can be attacked now (:func:`targetable`)."""
    c = 0
    for j in range(comb.shape[0]):
        if targetable(comb, dyn, j, side):
            c += 1
    return c


@kernel
def count_enemies(comb, dyn, side):
    """Opponents she faces: enemies still in the fight (for Hide / Retreat TNs)."""
    n = comb.shape[0]
    c = 0
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if in_fight(dyn, j):
                c += 1
    return c


# ---------------------------------------------------------------- defence


@kernel(inline="always")
def defence_choice(comb, pol, rules, dyn, t, atk_kind):
    """Defence test of ``t`` against an attack of kind ``atk_kind`` (L83): dodge
    and luck against anything, parry against melee, block against mystic."""
    parry_ok = atk_kind == ATK_MELEE
    block_ok = atk_kind >= ATK_MYSTIC
    pref = pol[t, P_DEFENCE]
    if pref == DEF_DODGE:
        return T_DODGE
    if pref == DEF_LUCK:
        return T_LUCK
    if pref == DEF_PARRY:
        if parry_ok:
            return T_PARRY
    if pref == DEF_BLOCK:
        if block_ok:
            return T_BLOCK
    if pref == DEF_PARRY_MELEE:
        if parry_ok:
            return T_PARRY
    # best allowed pool; ties prefer parry, block, dodge, luck
    best = T_DODGE
    bv = comb[t, C_DICE + AGI] + comb[t, C_BONUS + T_DODGE]
    v = comb[t, C_DICE + LCK] + comb[t, C_BONUS + T_LUCK]
    if v > bv:
        bv = v
        best = T_LUCK
    if block_ok:
        v = comb[t, C_DICE + MAG] + comb[t, C_BONUS + T_BLOCK]
        if v >= bv:
            bv = v
            best = T_BLOCK
    if parry_ok:
        if pref != DEF_PARRY_MELEE:
            v = comb[t, C_DICE + STR] + comb[t, C_BONUS + T_PARRY]
            if v >= bv:
                best = T_PARRY
    return best


@kernel(inline="always")
def defence_ability(dtest):
    if dtest == T_DODGE:
        return AGI
    if dtest == T_LUCK:
        return LCK
    if dtest == T_PARRY:
        return STR
    return MAG


@part
def defend(comb, pol, rules, tab, dyn, st, cc, t, atk_kind, bonus):
    """Roll ``t``'s defence; returns ``(successes, defence test)``."""
    dt = defence_choice(comb, pol, rules, dyn, t, atk_kind)
    cc[t, K_DEFENCES + dt - T_DODGE] += 1
    d = test_roll(comb, rules, tab, dyn, st, t, defence_ability(dt), dt, bonus, dyn[t, D_DEFPEN])
    return d, dt


@kernel(inline="always")
def fortune_defence(comb, pol, rules, dyn, cc, t, d, a, need_exceed):
    """Fortune on a defence roll ``d`` against ``a``; the defence holds if
    ``d > a`` (``need_exceed``) or ``d >= a``. Returns the new ``d``."""
    mode = pol[t, P_FORTUNE]
    if mode == FORT_NEVER:
        return d
    if dyn[t, D_FORT] <= 0:
        return d
    f = rules[R_FORTUNE_SUCCESSES]
    use = False
    if mode == FORT_ALWAYS:
        use = True
    elif mode == FORT_DEFENCE:
        use = True
    else:
        if need_exceed:
            if d <= a:
                if d + f > a:
                    use = True
        else:
            if d < a:
                if d + f >= a:
                    use = True
    if use:
        dyn[t, D_FORT] -= 1
        cc[t, K_FORTUNE] += 1
        d += f
    return d


@kernel(inline="always")
def fortune_action(pol, rules, dyn, cc, i, a, tn, need_exceed):
    """Fortune on an action roll ``a`` against target number ``tn``; success is
    ``a > tn`` (``need_exceed``) or ``a >= tn``. Returns the new ``a``."""
    mode = pol[i, P_FORTUNE]
    if mode == FORT_NEVER:
        return a
    if dyn[i, D_FORT] <= 0:
        return a
    f = rules[R_FORTUNE_SUCCESSES]
    use = False
    if mode == FORT_ALWAYS:
        use = True
    elif mode == FORT_RESCUE:
        if need_exceed:
            if a <= tn:
                if a + f > tn:
                    use = True
        else:
            if a < tn:
                if a + f >= tn:
                    use = True
    if use:
        dyn[i, D_FORT] -= 1
        cc[i, K_FORTUNE] += 1
        a += f
    return a


# ---------------------------------------------------------------- attack


@kernel(inline="always")
def hit_wounds(comb, rules, dyn, t, margin, fa):
    """Wounds of a hit with ``margin`` = attack - defence >= 0 (L85, D11); Focused
    Assault (D21) when ``fa``."""
    base = 1 if rules[R_DAMAGE_FORMULA] == 0 else 0
    w = base + margin - comb[t, C_DR]
    if w < rules[R_MIN_WOUNDS]:
        w = rules[R_MIN_WOUNDS]
    if fa:
        cur = dyn[t, D_W]
        nxt = comb[t, C_T1]
        if cur >= nxt:
            nxt = comb[t, C_T2]
        if cur >= nxt:
            nxt = comb[t, C_T3]
        if cur >= nxt:
            nxt = comb[t, C_WMAX]
        drop = nxt - cur
        mode = rules[R_FOCUSED_ASSAULT]
        if mode == 0:
            if drop > w:
                w = drop
        elif mode == 1:
            w = drop
        elif mode == 2:
            w += drop
        else:
            w = 1
    return w


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


@kernel
def hold_spell(rules, dyn, t, pen, tn, by):
    """A penalty spell of ``pen`` dice and target number ``tn`` lands on ``t`` (L79).
    On a target a spell already holds, rule ``recast``: ``keep_higher`` keeps the
    stronger hold (the larger penalty; on equal penalties the higher target number),
    ``replace`` lets a penalty at least as large replace it, target number included,
    ``forbid`` changes nothing (the spell could not be aimed at her). Another hold
    (a grapple, a pin) follows :func:`hold`."""
    if dyn[t, D_HELD_KIND] == HELD_SPELL:
        mode = rules[R_RECAST]
        if mode == RECAST_FORBID:
            return
        if mode == RECAST_KEEP_HIGHER:
            old = dyn[t, D_HELD]
            if pen < old:
                return
            if pen == old:
                if tn <= dyn[t, D_HELD_TN]:
                    return
    hold(dyn, t, pen, tn, HELD_SPELL, by)


@kernel
def spell_lands(comb, rules, dyn, cc, i, t, a, d, dt):
    """``i``'s penalty use (result ``a``) against ``t``'s defence ``d`` of type ``dt``, after
    fortune: unless she resists (``d`` above ``a``; with ``spec_tie: defender`` also equal),
    the hold lands (L79, D7; on a held target rule ``recast``, :func:`hold_spell`); a Magic
    Block that resists restores a mana point (seed 002 L241-243)."""
    resisted = d > a
    if rules[R_SPEC_TIE] != 0:
        resisted = d >= a
    if not resisted:
        hold_spell(rules, dyn, t, comb[i, C_SPEC_PEN], a, i)
        cc[i, K_SPELLS] += 1
    elif dt == T_BLOCK:
        block_mana(comb, rules, dyn, cc, t)


@part
def resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa):
    """Attack ``a`` against defence ``d`` of ``t``: wounds, Parry and Block side effects.
    Returns 1 on a hit."""
    if a >= d:
        cc[i, K_HITS] += 1
        if kb:
            w = comb[t, C_WMAX] - dyn[t, D_W]
        else:
            w = hit_wounds(comb, rules, dyn, t, a - d, fa)
        dealt = 0
        if w > 0:
            if w < comb[t, C_WMAX] - dyn[t, D_W]:
                if dyn[t, D_OUT] == OUT_IN:  # below her maximum: apply_wounds' first branch, inline
                    dyn[t, D_W] += w
                    cc[t, K_TAKEN] += w
                    note_band(comb, dyn, cc, t)
                    dealt = w
        if dealt == 0:
            dealt = apply_wounds(comb, rules, dyn, streams, cc, t, w)
        cc[i, K_DEALT] += dealt
        if kb:
            if dyn[t, D_OUT] != OUT_IN:
                cc[i, K_KB_KILLS] += 1
        return 1
    if dt == T_PARRY:
        pw = rules[R_PARRY_WOUNDS]
        if pw > 0:
            got = apply_wounds(comb, rules, dyn, streams, cc, i, pw)
            cc[t, K_PARRY_WOUNDS] += got
            cc[t, K_DEALT] += got
    elif dt == T_BLOCK:
        block_mana(comb, rules, dyn, cc, t)
    return 0


@kernel
def hold(dyn, t, pen, tn, kind, by):
    """A hold (spell effect, grapple, pin): -pen dice until she pulls free; the
    larger penalty stays."""
    if pen >= dyn[t, D_HELD]:
        dyn[t, D_HELD] = pen
        dyn[t, D_HELD_TN] = tn
        dyn[t, D_HELD_KIND] = kind
        dyn[t, D_HELD_BY] = by


@kernel
def attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t0, a, kind, ntargets, area, effect, kb, fa, skip):
    """The other targets of a multi-target or area attack (roll ``a``, D8); a penalty
    spell passes over those ``skip`` leaves alone (rule ``recast: forbid``, :func:`spell_free`)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    chk = streams[S_CHECK]
    pen = comb[i, C_SPEC_PEN]
    hits = 0
    extra = ntargets - 1
    allies = 0
    if area:
        if comb[i, C_FRIEND] == 0:
            allies = comb[i, C_SPEC_ALLIES]
    for j in range(n):
        if j == t0:
            continue
        if j == i:
            continue
        if not spell_free(dyn, j, skip, pen):
            continue
        ok = False
        if targetable(comb, dyn, j, side):
            if area:
                ok = True
            elif extra > 0:
                ok = True
                extra -= 1
        elif allies > 0:
            if comb[j, C_SIDE] == side:
                if in_fight(dyn, j):
                    ok = True
                    allies -= 1
        if not ok:
            continue
        d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, j, kind, 0)
        cc[i, K_TARGETED] += 1
        if effect:
            d = fortune_defence(comb, pol, rules, dyn, cc, j, d, a, rules[R_SPEC_TIE] == 0)
            spell_lands(comb, rules, dyn, cc, i, j, a, d, dt)
        else:
            d = fortune_defence(comb, pol, rules, dyn, cc, j, d, a, True)
            hits += resolve_hit(comb, pol, rules, dyn, streams, cc, i, j, a, d, dt, kb, fa)
    return hits


@kernel(inline="always")
def _form_margin(comb, pol, rules, dyn, i, t, kind):
    """Attack dice of ``i`` in form ``kind`` minus the dice of the defence
    ``t`` would roll against it (each die is worth 0.5 successes on average)."""
    ab = attack_ability(kind)
    dt = defence_choice(comb, pol, rules, dyn, t, kind)
    na = pool_size(comb, rules, dyn, i, ab, kind, 0, 0)
    nd = pool_size(comb, rules, dyn, t, defence_ability(dt), dt, 0, dyn[t, D_DEFPEN])
    return na - nd


@kernel
def second_form_better(comb, pol, rules, dyn, i, t):
    """Dual Weapon (L181): switching form is a non-action, so she attacks in
    the form whose attack pool beats ``t``'s defence pool against it by the
    most; ties keep ``attack_kind``. A form she cannot pay for (mana) is
    taken only if neither can be paid (the attack then fails either way)."""
    k1 = comb[i, C_ATK]
    k2 = comb[i, C_FORM2] - 1
    avail = mana_available(comb, pol, dyn, i)
    ok1 = avail >= comb[i, C_ATK_COST]
    ok2 = avail >= comb[i, C_FORM2_COST]
    if ok1 != ok2:
        return ok2
    return _form_margin(comb, pol, rules, dyn, i, t, k2) > _form_margin(comb, pol, rules, dyn, i, t, k1)


@kernel
def attack_form(comb, pol, rules, dyn, i, t):
    """The attack form ``i`` uses on ``t``: (kind, mana cost, second form?)."""
    kind = comb[i, C_ATK]
    cost = comb[i, C_ATK_COST]
    second = False
    if comb[i, C_FORM2] != 0:
        second = second_form_better(comb, pol, rules, dyn, i, t)
        if second:
            kind = comb[i, C_FORM2] - 1
            cost = comb[i, C_FORM2_COST]
    return kind, cost, second


@kernel
def target_count(comb, pol, dyn, i, area, skip):
    """How many targets ``i`` attacks: the policy's wish, capped by the
    targetable foes (L81) her spell may be aimed at (``skip``); an area attack
    counts 1 (its area adds the rest)."""
    if area:
        return 1
    want = pol[i, P_TARGETS]
    if want <= 1:
        return 1
    c = 0
    side = comb[i, C_SIDE]
    pen = comb[i, C_SPEC_PEN]
    for j in range(comb.shape[0]):
        if targetable(comb, dyn, j, side):
            if spell_free(dyn, j, skip, pen):
                c += 1
    return want if want < c else c


@kernel
def attack_extras(comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets):
    """Killing Blow or Finishing Attack, then Barrage or the multi-target
    penalty, as the policy asks and the mana allows.  Returns (kb, fa, dice
    penalty, cost)."""
    kb = False
    fa = False
    pen = 0
    if not effect:
        kbc = comb[i, C_KB_COST]
        if kbc > 0:
            if pol[i, P_KB] != 0:
                if avail >= cost + kbc:
                    kb = True
                    cost += kbc
        if not kb:
            fac = comb[i, C_FA_COST]
            if fac > 0:
                if pol[i, P_FA] != 0:
                    if avail >= cost + fac:
                        fa = True
                        cost += fac
    if ntargets > 1:
        # Barrage (seed 002 L507-511): a damaging attack with her Magic Weapon
        # (any form, C_MAGIC_WEAPON) or her Specialization
        bar = False
        magic = comb[i, C_MAGIC_WEAPON] != 0
        if kind == ATK_SPEC:
            magic = True
        if magic:
            if not effect:
                bc = comb[i, C_BAR_COST]
                if bc > 0:
                    if pol[i, P_BARRAGE] != 0:
                        if avail >= cost + bc:
                            bar = True
                            cost += bc
                            cc[i, K_BARRAGE] += 1
        if not bar:
            pen += rules[R_MULTI_TARGET_PENALTY] * (ntargets - 1)
    return kb, fa, pen, cost


@kernel
def augmentation(comb, pol, rules, cc, i, avail, cost, kb, fa):
    """Augmentation dice bought with the mana left (L77), capped by the rule
    and, with the policy's save flag, keeping enough for a later Killing Blow
    or Finishing Attack.  Returns (dice, cost)."""
    aug = pol[i, P_AUG]
    if aug <= 0:
        return aug, cost
    if aug > rules[R_AUGMENT_CAP]:
        aug = rules[R_AUGMENT_CAP]
    room = avail - cost
    if pol[i, P_SAVE] != 0:
        keep = 0
        if not kb:
            if pol[i, P_KB] != 0:
                keep = comb[i, C_KB_COST]
        if not fa:
            if pol[i, P_FA] != 0:
                if comb[i, C_FA_COST] > keep:
                    keep = comb[i, C_FA_COST]
        if keep > 0:
            if room >= keep:
                room -= keep
    if aug > room:
        aug = room
    if aug < 0:
        aug = 0
    cc[i, K_AUG_DICE] += aug
    return aug, cost + aug


@part
def attack_primary(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, effect, kb, fa):
    """The roll against the primary target ``t``: a spell effect held on a
    win, or a hit resolved.  Returns (hits, ``i``'s result after fortune)."""
    d, dt = defend(comb, pol, rules, tab, dyn, streams[S_CHECK], cc, t, kind, 0)
    cc[i, K_TARGETED] += 1
    hits = 0
    if effect:
        exceed = rules[R_SPEC_TIE] == 0
        a = fortune_action(pol, rules, dyn, cc, i, a, d, not exceed)
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, exceed)
        spell_lands(comb, rules, dyn, cc, i, t, a, d, dt)
    else:
        a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
        hits = resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa)
    return hits, a


@part
def attack(comb, pol, rules, tab, dyn, streams, cc, i, t, aid):
    """``i`` attacks ``t`` (and more targets per policy/area); returns 1 if the
    attack was made, 0 if it could not be paid (the caller then Recharges)."""
    kind, cost, second = attack_form(comb, pol, rules, dyn, i, t)
    ab = attack_ability(kind)
    spec = kind == ATK_SPEC
    area = False
    effect = False
    if spec:
        area = comb[i, C_SPEC_AREA] != 0
        effect = comb[i, C_SPEC_EFFECT] != 0
    avail = mana_available(comb, pol, dyn, i)
    if avail < cost:
        return 0
    skip = SKIP_NONE  # the other targets: only rule recast: forbid keeps a spell off a held one
    if effect:
        if rules[R_RECAST] == RECAST_FORBID:
            skip = SKIP_HELD
    ntargets = 1
    if not area:
        if pol[i, P_TARGETS] > 1:
            ntargets = target_count(comb, pol, dyn, i, area, skip)
    kb, fa, pen, cost = attack_extras(comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets)
    aug, cost = augmentation(comb, pol, rules, cc, i, avail, cost, kb, fa)
    if cost > 0:
        pay_mana(comb, dyn, cc, i, cost)
        if dyn[i, D_W] > 0:
            if dyn[i, D_W] >= comb[i, C_WMAX]:
                pay_with_blood(comb, rules, dyn, streams, cc, i)
            else:  # pay_with_blood's second branch, inline
                note_band(comb, dyn, cc, i)
        if dyn[i, D_OUT] != OUT_IN:
            return 1
    if kb:
        cc[i, K_KB] += 1
        if rules[R_KILLING_BLOW_TEST] == 1:
            ab = MAG
    if fa:
        cc[i, K_FA] += 1
    # Third Eye: offensive specialization uses aimed at her directly
    if spec:
        if not area:
            pen += comb[t, C_EYE]
    st = stunt_dice(pol, streams[S_POLICY], i)
    cc[i, K_STUNT_DICE] += st
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, ab, kind, aug + aid + st, pen)
    cc[i, K_ATTACKS] += 1
    if second:
        cc[i, K_FORM2] += 1
    dyn[i, D_HIDDEN] = 0  # attacking reveals her (D14)
    hits, a = attack_primary(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, effect, kb, fa)
    if ntargets > 1:
        hits += attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, ntargets, False, effect, kb, fa,
                              skip)
    elif area:
        hits += attack_others(comb, pol, rules, tab, dyn, streams, cc, i, t, a, kind, 1, True, effect, kb, fa, skip)
    if kb:
        p = comb[i, C_KB_PEN]
        if hits == 0:
            p *= comb[i, C_KB_FAILX]
        dyn[i, D_DEFPEN] = p
    # a copy that spends its mana pops once the action resolves (L169)
    if comb[i, C_KIND] == KIND_COPY:
        if cost > 0:
            if dyn[i, D_OUT] == OUT_IN:
                dyn[i, D_OUT] = OUT_KO
                leave_fight(rules, dyn, i)
    return 1


# ---------------------------------------------------------------- other actions


@kernel
def recharge(comb, rules, dyn, cc, i):
    """Recharge (L113): +3 mana, -2 defence dice until her next turn."""
    gain_mana(comb, rules, dyn, i, rules[R_RECHARGE_MANA])
    dyn[i, D_DEFPEN] = rules[R_RECHARGE_PENALTY]
    cc[i, K_RECHARGES] += 1


@kernel
def endurance_roll(comb, rules, tab, dyn, st, i, test, bonus):
    """Endurance (D16: Vitality or Agility by rule) or Strength, the larger pool."""
    e = VIT if rules[R_ENDURANCE] == 0 else AGI
    ne = pool_size(comb, rules, dyn, i, e, test, bonus, 0)
    ns = pool_size(comb, rules, dyn, i, STR, test, bonus, 0)
    return roll_pool(st, ne if ne >= ns else ns, tab, rules)


@kernel
def retreat(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Retreat (L109): Endurance or Strength test, TN = opponents; success ends her
    fight at the start of her next turn unless pursued."""
    tn = count_enemies(comb, dyn, comb[i, C_SIDE])
    a = endurance_roll(comb, rules, tab, dyn, streams[S_CHECK], i, T_RETREAT, bonus)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a >= tn:
        dyn[i, D_RETREAT] = a if a > 0 else 1


@kernel
def pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Pursue (L111): Endurance or Strength test, TN = the retreat's successes; on a
    success the retreater tests again against her first target number (D17)."""
    cc[i, K_PURSUES] += 1
    tn = dyn[t, D_RETREAT]
    a = endurance_roll(comb, rules, tab, dyn, streams[S_CHECK], i, T_PURSUE, bonus)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a < tn:
        return
    dyn[t, D_RETREAT] = 0
    if rules[R_PURSUE_REROLL] == 0:
        retreat(comb, pol, rules, tab, dyn, streams, cc, t, 0)


@kernel
def hide(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Hide (L103): Agility test, TN = opponents; Disguise Artifact +2 dice for 1 mana."""
    cc[i, K_HIDES] += 1
    tn = count_enemies(comb, dyn, comb[i, C_SIDE])
    b = bonus
    c = comb[i, C_DISG_COST]
    if comb[i, C_DISG_DICE] > 0:
        if dyn[i, D_MANA] >= c:
            pay_mana(comb, dyn, cc, i, c)
            b += comb[i, C_DISG_DICE]
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, AGI, T_HIDE, b, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, False)
    if a >= tn:
        dyn[i, D_HIDDEN] = 2


@kernel
def best_ability(comb, i, test):
    best = 0
    bv = -1
    for ab in range(5):
        v = comb[i, C_DICE + ab]
        if v > bv:
            bv = v
            best = ab
    return best


@kernel
def aid_target(comb, dyn, i):
    """The ally with the largest attack pool (not herself, not a copy of her)."""
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    best = -1
    bv = -1
    for j in range(n):
        if j == i:
            continue
        if comb[j, C_SIDE] != side:
            continue
        if not in_fight(dyn, j):
            continue
        if dyn[j, D_STORED] > 0:
            continue
        v = attack_dice_of(comb, j)
        if v > bv:
            bv = v
            best = j
    return best


@kernel
def aid(comb, pol, rules, tab, dyn, streams, cc, i, j, bonus):
    """Aid (L105): a test of her choice (her largest pool); one success gives the ally
    +2 dice on her next action; x2 with Power of Friendship, +1 if the ally has it,
    +1 from a familiar with Perfect Assistant to its owner."""
    cc[i, K_AIDS] += 1
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, best_ability(comb, i, T_AID), T_AID, bonus, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, rules[R_AID_SUCCESS], False)
    if a < rules[R_AID_SUCCESS]:
        return
    g = rules[R_AID_DICE]
    if comb[i, C_FRIEND] > 0:
        g *= comb[i, C_FRIEND]
    g += comb[j, C_FRIEND_RECV]
    if comb[i, C_OWNER] == j:
        g += comb[i, C_ASSIST]
    dyn[j, D_AID] += g


@kernel
def escape(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """Pull free of a hold (D7 iii, D25 iii): Strength test against its target number."""
    tn = dyn[i, D_HELD_TN]
    a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, STR, T_ESCAPE, bonus, 0)
    exceed = rules[R_ESCAPE_TIE] == 1
    a = fortune_action(pol, rules, dyn, cc, i, a, tn, exceed)
    free = a > tn if exceed else a >= tn
    if free:
        free_hold(dyn, i)


@kernel
def escape_pays(comb, rules, dyn, i, bonus):
    """Policy ``escape: reasoned``: is pulling free of her hold worth this turn?

    Pulling free costs this turn's attack (her pool less the hold's dice) and
    gives the hold's dice back on her later rolls, attack and defence. That pays
    once a single later attack regains at least the dice she would attack with
    now (the hold takes half her attack pool or more, ``lost >= kept``), but
    only if the hold stays off: while the one who holds her is still in the
    fight she can put it back with her next action (a penalty spell is re-cast,
    tentacles grapple again), so she attacks through it, unless it leaves her
    no attack die at all. She also needs one die for the Strength test (D7 iii,
    D25 iii), else she attacks.
    """
    kind = comb[i, C_ATK]
    ab = attack_ability(kind)
    kept = pool_size(comb, rules, dyn, i, ab, kind, bonus, 0)
    if kept > 0:
        lost = pool_size(comb, rules, dyn, i, ab, kind, bonus, -dyn[i, D_HELD]) - kept
        if lost < kept:
            return False
        by = dyn[i, D_HELD_BY]
        if by >= 0:
            if in_fight(dyn, by):
                return False
    return pool_size(comb, rules, dyn, i, STR, T_ESCAPE, bonus, 0) > 0


@kernel
def grapple_pays(comb, pol, rules, dyn, i, t, bonus):
    """Policy ``grapple: reasoned``: is grappling ``t`` worth this action? Yes when the
    grapple's chance to take (her larger Magic or Luck pool against ``t``'s defence
    against a use of Magic, L175) is at least her attack's chance to hit (her pool in
    the form she would use against ``t``'s defence against it, L85; 0 if she cannot
    pay for it), both exact (:func:`chance`); augmentation, stunts, extra targets and
    Fortune are left out of both. A Gorgon with 8 melee dice and 4 Magic dice attacks.
    The caller asks only for a target nobody holds: on a held one a grapple would add no
    penalty (:func:`hold` keeps the larger) and only take her next action again, round
    after round (the old ``grapple`` policy does that to a target another holds)."""
    nm = pool_size(comb, rules, dyn, i, MAG, T_GRAPPLE, bonus, 0)
    nl = pool_size(comb, rules, dyn, i, LCK, T_GRAPPLE, bonus, 0)
    dg = defence_choice(comb, pol, rules, dyn, t, ATK_MYSTIC)
    pg = chance(rules, nm if nm >= nl else nl,
                pool_size(comb, rules, dyn, t, defence_ability(dg), dg, 0, dyn[t, D_DEFPEN]))
    kind, cost, second = attack_form(comb, pol, rules, dyn, i, t)
    if mana_available(comb, pol, dyn, i) < cost:
        return True
    da = defence_choice(comb, pol, rules, dyn, t, kind)
    pa = chance(rules, pool_size(comb, rules, dyn, i, attack_ability(kind), kind, bonus, 0),
                pool_size(comb, rules, dyn, t, defence_ability(da), da, 0, dyn[t, D_DEFPEN]))
    return pg >= pa


@part
def grapple(comb, pol, rules, tab, dyn, streams, cc, i, t, pin, bonus):
    """Tentacles (L175, D25): Magic or Luck test (the larger) vs the target's
    defence; a grapple costs her next action and -2 dice, a pin -4."""
    cc[i, K_GRAPPLES] += 1
    nm = pool_size(comb, rules, dyn, i, MAG, T_GRAPPLE, bonus, 0)
    nl = pool_size(comb, rules, dyn, i, LCK, T_GRAPPLE, bonus, 0)
    chk = streams[S_CHECK]
    a = roll_pool(chk, nm if nm >= nl else nl, tab, rules)
    d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, t, ATK_MYSTIC, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a < d:
        block_mana_magic(comb, rules, dyn, cc, t, dt)
        return
    if pin:
        dyn[t, D_HELD] = comb[i, C_TENT_P]
        dyn[t, D_HELD_KIND] = HELD_PIN
        dyn[t, D_HELD_TN] = a
        dyn[t, D_HELD_BY] = i
    else:
        hold(dyn, t, comb[i, C_TENT_G], a, HELD_GRAPPLE, i)
        dyn[t, D_DISABLED] = 1


@kernel
def hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Hammerspace (L153): store a living enemy; Magic test vs its defence (+2 dice);
    she escapes with a Magic test at TN ceil(Magic / 2) (her action)."""
    chk = streams[S_CHECK]
    a = test_roll(comb, rules, tab, dyn, chk, i, MAG, T_SPEC, bonus, 0)
    d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, t, ATK_MYSTIC, comb[i, C_HAMMER] - 1)
    a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a >= d:
        dyn[t, D_STORED] = (comb[i, C_SCORE + MAG] + 1) // 2
        if dyn[t, D_STORED] < 1:
            dyn[t, D_STORED] = 1
        cc[i, K_TRAPS] += 1
    else:
        block_mana_magic(comb, rules, dyn, cc, t, dt)


@kernel
def heal_action(comb, pol, rules, dyn, cc, i):
    """Regeneration's action (3 mana: one band of wounds, D24) on herself, else the
    Healing Artifact (2 mana: 1 wound) on the most wounded ally at ``heal_at``.
    Returns 1 if she healed."""
    lvl = pol[i, P_HEAL]
    rc = comb[i, C_REGEN_COST]
    if rc > 0:
        if wound_band(comb, dyn, i) >= lvl:
            if dyn[i, D_MANA] >= rc:
                pay_mana(comb, dyn, cc, i, rc)
                h = comb[i, C_BAND]
                if h > dyn[i, D_W]:
                    h = dyn[i, D_W]
                dyn[i, D_W] -= h
                cc[i, K_HEALED] += h
                return 1
    hc = comb[i, C_HEAL_COST]
    if comb[i, C_HEAL_AMT] > 0:
        if dyn[i, D_MANA] >= hc:
            n = comb.shape[0]
            best = -1
            bv = 0
            for j in range(n):
                if comb[j, C_SIDE] != comb[i, C_SIDE]:
                    continue
                if not in_fight(dyn, j):
                    continue
                if wound_band(comb, dyn, j) < lvl:
                    continue
                if dyn[j, D_W] > bv:
                    bv = dyn[j, D_W]
                    best = j
            if best >= 0:
                pay_mana(comb, dyn, cc, i, hc)
                h = comb[i, C_HEAL_AMT]
                if h > dyn[best, D_W]:
                    h = dyn[best, D_W]
                dyn[best, D_W] -= h
                cc[i, K_HEALED] += h
                return 1
    return 0


@kernel
def duplicate(comb, dyn, cc, i):
    """Duplication (L169): 1 mana per copy; copies act from the next round."""
    c0 = comb[i, C_COPY0]
    made = 0
    for k in range(comb[i, C_NCOPIES]):
        if dyn[i, D_MANA] < comb[i, C_DUP_COST]:
            break
        c = c0 + k
        if dyn[c, D_ACTIVE] != 0:
            if dyn[c, D_OUT] == OUT_IN:
                continue
        pay_mana(comb, dyn, cc, i, comb[i, C_DUP_COST])
        dyn[c, D_ACTIVE] = 1
        dyn[c, D_OUT] = OUT_IN
        dyn[c, D_W] = 0
        dyn[c, D_MANA] = comb[c, C_MANA]
        dyn[c, D_READY] = 0
        made += 1
    cc[i, K_COPIES] += made
    dyn[i, D_COPIES_MADE] = 1
    return made


@kernel
def retreating_enemy(comb, dyn, side):
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if dyn[j, D_RETREAT] > 0:
                if in_fight(dyn, j):
                    return j
    return -1


@kernel(inline="always")
def special_pending(comb, pol, dyn, i):
    """Could :func:`special_action` take an action other than Pursue now? False
    only when each of its other branches would do nothing (no draw, no write):
    not held, no Aid or Duplication, no way to heal, her band below her
    retreat and hide levels (a cheap test instead of the call)."""
    if dyn[i, D_HELD] > 0:
        return True
    if pol[i, P_AID] != 0:
        return True
    if comb[i, C_DUP_COST] > 0:
        return True
    if pol[i, P_HEAL] > 0:
        if comb[i, C_REGEN_COST] > 0:
            return True
        if comb[i, C_HEAL_AMT] > 0:
            return True
    r = pol[i, P_RETREAT]
    h = pol[i, P_HIDE]
    if r + h > 0:
        band = wound_band(comb, dyn, i)
        if r > 0:
            if band >= r:
                return True
        if h > 0:
            if band >= h:
                if dyn[i, D_HIDDEN] == 0:
                    return True
    return False


@kernel
def special_action(comb, pol, rules, tab, dyn, streams, cc, i, bonus):
    """The policy's non-attack actions, in priority order; returns 1 if one was taken.

    escape a hold > retreat > heal > hide > pursue > duplicate > aid.
    """
    if dyn[i, D_HELD] > 0:
        esc = pol[i, P_ESCAPE]
        if esc == ESC_REASONED:
            if not escape_pays(comb, rules, dyn, i, bonus):
                esc = ESC_NEVER
        if esc != ESC_NEVER:
            escape(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
            return 1
    band = wound_band(comb, dyn, i)
    r = pol[i, P_RETREAT]
    if r > 0:
        if band >= r:
            retreat(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
            return 1
    h = pol[i, P_HEAL]
    if h > 0:
        if heal_action(comb, pol, rules, dyn, cc, i) != 0:
            return 1
    h = pol[i, P_HIDE]
    if h > 0:
        if band >= h:
            if dyn[i, D_HIDDEN] == 0:
                hide(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
                return 1
    if pol[i, P_PURSUE] != 0:
        t = retreating_enemy(comb, dyn, comb[i, C_SIDE])
        if t >= 0:
            pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)
            return 1
    if comb[i, C_DUP_COST] > 0:
        if pol[i, P_DUP] != 0:
            if dyn[i, D_COPIES_MADE] == 0:
                if dyn[i, D_MANA] >= comb[i, C_DUP_COST]:
                    duplicate(comb, dyn, cc, i)
                    return 1
    if pol[i, P_AID] != 0:
        j = aid_target(comb, dyn, i)
        if j >= 0:
            aid(comb, pol, rules, tab, dyn, streams, cc, i, j, bonus)
            return 1
    return 0


@part
def act(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice):
    """Her one action (D6), chosen by her policy."""
    if special_pending(comb, pol, dyn, i):
        if special_action(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice) != 0:
            return
    elif pol[i, P_PURSUE] != 0:
        t = retreating_enemy(comb, dyn, comb[i, C_SIDE])
        if t >= 0:
            pursue(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice)
            return
    skip = spell_skip(comb, pol, rules, i)
    t = choose_target(comb, pol, dyn, streams[S_POLICY], i, skip)
    if t < 0:
        if skip != SKIP_NONE:  # her spell already holds every foe she could aim it at
            if count_targets(comb, dyn, comb[i, C_SIDE]) > 0:
                if dyn[i, D_MANA] < comb[i, C_MANA]:
                    recharge(comb, rules, dyn, cc, i)
        return
    if comb[i, C_HAMMER] > 0:
        if pol[i, P_HAMMER] != 0:
            if count_enemies(comb, dyn, comb[i, C_SIDE]) >= 2:
                hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice)
                return
    if comb[i, C_TENT_G] > 0:
        g = pol[i, P_GRAPPLE]
        if g > 0:
            go = dyn[t, D_HELD_BY] != i
            pin = False
            if not go:
                if g == GRAPPLE_PIN:
                    if dyn[t, D_HELD_KIND] == HELD_GRAPPLE:
                        go = True
                        pin = True
            elif g == GRAPPLE_REASONED:
                go = False  # a held target: a grapple would only disable her again (the hold keeps the larger)
                if dyn[t, D_HELD_KIND] == HELD_NONE:
                    go = grapple_pays(comb, pol, rules, dyn, i, t, aid_dice)
            if go:
                grapple(comb, pol, rules, tab, dyn, streams, cc, i, t, pin, aid_dice)
                return
    rb = pol[i, P_RECHARGE]
    if rb > 0:
        if dyn[i, D_MANA] < rb:
            if comb[i, C_MANA] > 0:
                recharge(comb, rules, dyn, cc, i)
                return
    if attack(comb, pol, rules, tab, dyn, streams, cc, i, t, aid_dice) == 0:
        if comb[i, C_MANA] > 0:
            recharge(comb, rules, dyn, cc, i)


@part
def take_turn(comb, pol, rules, tab, dyn, streams, cc, i):
    """One turn of ``i``: start-of-turn effects, then her action."""
    dyn[i, D_DEFPEN] = 0
    if dyn[i, D_RETREAT] > 0:  # nobody stopped her: she leaves (L109)
        dyn[i, D_OUT] = OUT_FLED
        dyn[i, D_RETREAT] = 0
        cc[i, K_FLED] += 1
        leave_fight(rules, dyn, i)
        return
    if comb[i, C_REGEN_W] + comb[i, C_REGEN_M] > 0:
        h = comb[i, C_REGEN_W]
        if h > dyn[i, D_W]:
            h = dyn[i, D_W]
        dyn[i, D_W] -= h
        cc[i, K_HEALED] += h
        gain_mana(comb, rules, dyn, i, comb[i, C_REGEN_M])
    if dyn[i, D_STORED] > 0:  # trapped in Hammerspace: her action is the escape test
        a = test_roll(comb, rules, tab, dyn, streams[S_CHECK], i, MAG, T_ESCAPE, 0, 0)
        if a >= dyn[i, D_STORED]:
            dyn[i, D_STORED] = 0
        return
    if dyn[i, D_DISABLED] != 0:
        dyn[i, D_DISABLED] = 0
        return
    aid_dice = dyn[i, D_AID]
    dyn[i, D_AID] = 0
    act(comb, pol, rules, tab, dyn, streams, cc, i, aid_dice)
    if dyn[i, D_HIDDEN] > 0:
        dyn[i, D_HIDDEN] -= 1


# ---------------------------------------------------------------- the plain fast path
#
# Fights where no combatant has a power or a non-dice perk, nobody attacks
# with a specialization or several targets, and no policy retreats, hides,
# heals or aids (``compile.is_plain``) take this lean, inlined turn. It makes
# exactly the draws of the general turn (:func:`take_turn`) in the same order,
# so results are bit-identical (tests/test_d10_scenarios.py checks).


@kernel(inline="always")
def attack_plain(comb, pol, rules, tab, dyn, streams, cc, i, t):
    kind = comb[i, C_ATK]
    ab = attack_ability(kind)
    aug = pol[i, P_AUG]
    if aug > 0:
        if aug > rules[R_AUGMENT_CAP]:
            aug = rules[R_AUGMENT_CAP]
        if aug > dyn[i, D_MANA]:
            aug = dyn[i, D_MANA]
        if aug > 0:
            cc[i, K_AUG_DICE] += aug
            pay_mana(comb, dyn, cc, i, aug)
            if dyn[i, D_W] > 0:
                note_band(comb, dyn, cc, i)
    st = 0
    if pol[i, P_STUNT] > 0:
        st = stunt_dice(pol, streams[S_POLICY], i)
        cc[i, K_STUNT_DICE] += st
    chk = streams[S_CHECK]
    a = roll_pool(chk, pool_size(comb, rules, dyn, i, ab, kind, aug + st, 0), tab, rules)
    cc[i, K_ATTACKS] += 1
    cc[i, K_TARGETED] += 1
    dt = defence_choice(comb, pol, rules, dyn, t, kind)
    cc[t, K_DEFENCES + dt - T_DODGE] += 1
    d = roll_pool(chk, pool_size(comb, rules, dyn, t, defence_ability(dt), dt, 0, dyn[t, D_DEFPEN]), tab, rules)
    if pol[i, P_FORTUNE] != FORT_NEVER:
        a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    if pol[t, P_FORTUNE] != FORT_NEVER:
        d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a >= d:
        cc[i, K_HITS] += 1
        base = 1 if rules[R_DAMAGE_FORMULA] == 0 else 0
        w = base + a - d - comb[t, C_DR]
        if w < rules[R_MIN_WOUNDS]:
            w = rules[R_MIN_WOUNDS]
        left = comb[t, C_WMAX] - dyn[t, D_W]
        if w < left:
            dyn[t, D_W] += w
            cc[t, K_TAKEN] += w
            cc[i, K_DEALT] += w
            note_band(comb, dyn, cc, t)
        else:
            cc[i, K_DEALT] += apply_wounds(comb, rules, dyn, streams, cc, t, w)
    else:
        resolve_hit(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, False, False)


@kernel(inline="always")
def take_turn_plain(comb, pol, rules, tab, dyn, streams, cc, i):
    dyn[i, D_DEFPEN] = 0
    t = choose_target_inline(comb, pol, dyn, streams[S_POLICY], i, SKIP_NONE)
    if t < 0:
        return
    rb = pol[i, P_RECHARGE]
    if rb > 0:
        if dyn[i, D_MANA] < rb:
            if comb[i, C_MANA] > 0:
                recharge(comb, rules, dyn, cc, i)
                return
    attack_plain(comb, pol, rules, tab, dyn, streams, cc, i, t)


# ---------------------------------------------------------------- fight structure


@kernel(inline="always")
def side_in(comb, dyn, side):
    n = comb.shape[0]
    for j in range(n):
        if comb[j, C_SIDE] == side:
            if in_fight(dyn, j):
                return True
    return False


@kernel(inline="always")
def outcome_now(comb, dyn):
    """-1 while both sides fight on; else F_WIN (side 0 wins), F_LOSS or F_DRAW."""
    a = side_in(comb, dyn, 0)
    b = side_in(comb, dyn, 1)
    if a:
        if b:
            return -1
        return F_WIN
    if b:
        return F_LOSS
    return F_DRAW


@kernel
def init_roll(comb, rules, tab, dyn, st, i):
    n = pool_size(comb, rules, dyn, i, AGI, T_INIT, 0, 0)
    if comb[i, C_AWARE] != 0:
        return 2 * n
    return roll_pool(st, n, tab, rules)


@kernel
def goes_before(comb, rules, tab, dyn, st, key, a, b):
    """Initiative order (L73): more successes, then the higher Agility score, then
    opposed Agility re-rolls until one is higher."""
    if key[a] != key[b]:
        return key[a] > key[b]
    if comb[a, C_SCORE + AGI] != comb[b, C_SCORE + AGI]:
        return comb[a, C_SCORE + AGI] > comb[b, C_SCORE + AGI]
    for _ in range(64):
        ra = init_roll(comb, rules, tab, dyn, st, a)
        rb = init_roll(comb, rules, tab, dyn, st, b)
        if ra != rb:
            return ra > rb
    return randbelow(st, 2) == 0


@kernel
def roll_initiative(comb, rules, tab, dyn, st, order, key):
    """Fill ``order``: listed (``C_ORDER``) or rolled; copies act right after their
    creator (D23)."""
    n = comb.shape[0]
    if rules[R_INITIATIVE] == 1:
        for i in range(n):
            order[comb[i, C_ORDER]] = i
        return
    m = 0
    for i in range(n):
        if comb[i, C_KIND] == KIND_COPY:
            continue
        key[i] = init_roll(comb, rules, tab, dyn, st, i)
        # insertion: the new one moves up past everyone it goes before
        b = m
        order[m] = i
        m += 1
        while b > 0:
            if goes_before(comb, rules, tab, dyn, st, key, i, order[b - 1]):
                order[b] = order[b - 1]
                b -= 1
            else:
                break
        order[b] = i
    if m == n:
        return
    # insert copies after their creators (from the back)
    w = n - 1
    for r in range(m - 1, -1, -1):
        i = order[r]
        nc = comb[i, C_NCOPIES]
        for k in range(nc - 1, -1, -1):
            order[w] = comb[i, C_COPY0] + k
            w -= 1
        order[w] = i
        w -= 1


@kernel
def start_campaign(comb, dyn):
    n = comb.shape[0]
    for i in range(n):
        dyn[i, D_W] = 0
        dyn[i, D_OUT] = OUT_IN
        dyn[i, D_FORT] = comb[i, C_FORT]
        dyn[i, D_GRIEF] = 0
        dyn[i, D_MAXBAND] = 0
        dyn[i, D_KO_TRIAL] = 0


@kernel
def start_episode(comb, rules, dyn, first):
    """Between episodes (L65-69): cake empties the pool, grim erases thresholds;
    Fortune refreshes (L57)."""
    n = comb.shape[0]
    for i in range(n):
        dyn[i, D_FORT] = comb[i, C_FORT]
        if first:
            continue
        if dyn[i, D_OUT] == OUT_DEAD:
            continue
        if rules[R_MODE] == 0:
            dyn[i, D_W] = 0
            dyn[i, D_OUT] = OUT_IN
        else:
            v = dyn[i, D_W] - rules[R_GRIM_HEAL_THRESHOLDS] * comb[i, C_BAND]
            dyn[i, D_W] = v if v > 0 else 0


@kernel
def start_fight(comb, dyn, cc, first):
    """A new fight: enemies fresh; side 0 keeps wounds, KOs (until the next
    episode), deaths and Fortune; everyone's mana is full (L55)."""
    n = comb.shape[0]
    for i in range(n):
        fresh = first
        if comb[i, C_CARRY] == 0:
            fresh = True
        if fresh:
            dyn[i, D_W] = 0
            dyn[i, D_FORT] = comb[i, C_FORT]
            dyn[i, D_GRIEF] = 0
            if dyn[i, D_OUT] != OUT_DEAD:
                dyn[i, D_OUT] = OUT_IN
            if comb[i, C_CARRY] == 0:
                dyn[i, D_OUT] = OUT_IN
        elif dyn[i, D_OUT] == OUT_FLED:
            dyn[i, D_OUT] = OUT_IN
        dyn[i, D_MANA] = comb[i, C_MANA]
        dyn[i, D_DEFPEN] = 0
        dyn[i, D_HELD] = 0
        dyn[i, D_HELD_TN] = 0
        dyn[i, D_HELD_KIND] = HELD_NONE
        dyn[i, D_HELD_BY] = -1
        dyn[i, D_DISABLED] = 0
        dyn[i, D_HIDDEN] = 0
        dyn[i, D_AID] = 0
        dyn[i, D_PERM] = 0
        dyn[i, D_RETREAT] = 0
        dyn[i, D_STORED] = 0
        dyn[i, D_COPIES_MADE] = 0
        dyn[i, D_ACTIVE] = comb[i, C_START]
        dyn[i, D_READY] = 1
        if comb[i, C_START] != 0:
            if dyn[i, D_OUT] == OUT_IN:
                cc[i, K_FIGHTS] += 1


@kernel(inline="always")
def _record(g, plane, comb, dyn, side_curve, comb_curve):
    n = comb.shape[0]
    s0 = 0
    s1 = 0
    for j in range(n):
        if in_fight(dyn, j):
            comb_curve[j, plane, g] += 1
            if comb[j, C_SIDE] == 0:
                s0 = 1
            else:
                s1 = 1
    side_curve[0, plane, g] += s0
    side_curve[1, plane, g] += s1


@kernel
def fight(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, g0, last, plain):
    """One fight from the current ``dyn``; returns ``(outcome, rounds)``.

    Curves are indexed by the campaign round ``g0 + r``; plane 0 counts
    campaigns still running after that round, plane 1 the final state of
    campaigns that ended in it (``last``: this fight ends the campaign if won).
    """
    n = comb.shape[0]
    cap = rules[R_ROUND_CAP]
    roll_initiative(comb, rules, tab, dyn, streams[S_SETUP], order, key)
    outcome = outcome_now(comb, dyn)
    rounds = 0
    if outcome < 0:
        rounds = cap
        for r in range(1, cap + 1):
            for k in range(n):
                i = order[k]
                if dyn[i, D_ACTIVE] == 0:
                    continue
                if dyn[i, D_OUT] != OUT_IN:
                    continue
                if dyn[i, D_READY] == 0:
                    continue
                if plain:
                    take_turn_plain(comb, pol, rules, tab, dyn, streams, cc, i)
                else:
                    take_turn(comb, pol, rules, tab, dyn, streams, cc, i)
                outcome = outcome_now(comb, dyn)
                if outcome >= 0:
                    break
            for k in range(n):
                dyn[k, D_READY] = 1
            if outcome >= 0:
                rounds = r
                break
            if r < cap:
                _record(g0 + r, 0, comb, dyn, side_curve, comb_curve)
    if outcome < 0:
        outcome = F_DRAW
    if outcome == F_WIN:
        if not last:
            if rounds > 0:
                _record(g0 + rounds, 0, comb, dyn, side_curve, comb_curve)
            return outcome, rounds
    _record(g0 + rounds, 1, comb, dyn, side_curve, comb_curve)
    return outcome, rounds


@kernel
def campaign(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, fights_out, plain):
    """One trial: ``episodes`` x ``fights_per_episode`` fights; stops at the first
    fight side 0 does not win. Returns ``(outcome, total rounds)``."""
    ne = rules[R_EPISODES]
    nf = rules[R_FIGHTS_PER_EPISODE]
    start_campaign(comb, dyn)
    g = 0
    outcome = F_WIN
    for e in range(ne):
        start_episode(comb, rules, dyn, e == 0)
        for f in range(nf):
            start_fight(comb, dyn, cc, (e == 0) and (f == 0))
            last = (e == ne - 1) and (f == nf - 1)
            outcome, r = fight(comb, pol, rules, tab, dyn, order, key, streams, cc, side_curve, comb_curve, g, last, plain)
            fights_out[0] += 1
            g += r
            if outcome != F_WIN:
                break
        if outcome != F_WIN:
            break
    n = comb.shape[0]
    for j in range(n):
        cc[j, K_WOUNDS_END] += dyn[j, D_W]
        if dyn[j, D_ACTIVE] != 0:
            if dyn[j, D_OUT] == OUT_IN:
                cc[j, K_STANDING_END] += 1
    return outcome, g


@pjit
def simulate_blocks(comb, pol, rules, tab, key, start, count, nblocks, plain,
                    fights, rounds_hist, side_curve, comb_curve, ccount):
    """Play trials ``start .. start+count-1`` in ``nblocks`` blocks (prange).

    Trial ``t`` seeds its streams from ``(key, t, purpose)``, so results do not
    depend on the split. Counters have a leading block axis, summed by the caller.
    """
    n = comb.shape[0]
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        dyn = np.zeros((n, ND), dtype=np.int64)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        fo = np.zeros(1, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            outcome, rounds = campaign(comb, pol, rules, tab, dyn, order, ikey, streams, ccount[b],
                                       side_curve[b], comb_curve[b], fo, plain)
            fights[b, outcome] += 1
            fights[b, F_ROUNDS] += rounds
            rounds_hist[b, rounds] += 1
        fights[b, F_FIGHTS] += fo[0]
