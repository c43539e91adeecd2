"""The draft's Battlefield map of positions (seed 001, DRAFT L474-510), played
by the gridless turn (:func:`.kernel.take_turn`) when the rule ``positions``
is above 0 (``mb-draft`` scenarios; the hex grid is 4.1's, :mod:`.battle_grid`).

What the draft states:

* ranges are measured in positions on the Battlefield map; a basic melee
  attack has range 0 (the target's position), a basic ranged attack range
  1-2 (not the same position) (DRAFT L480-484; rules ``melee_positions``,
  ``ranged_positions``); several combatants share a position (L480, L492);
* Movement (Minor) moves her 1 position; with one or more enemies in her
  position she must Disengage instead or attempt Reckless Movement
  (L502-504);
* Disengage (Major) moves her 1 position whether or not enemies are present
  (L496-498; rule ``disengage``: ``moves``; ``unlocks`` = it only lets her
  leave, the Minor then moves her);
* Reckless Movement (free, on top of a move) when leaving a Rough Terrain
  position without 2 positions' worth of movement, or an enemy's position
  without Disengage: 2d6! + Support, 17+ she moves, 14-16 she moves and
  takes 2 damage, 13 or less she stays (L508-510; the draft's defaults of
  ``reckless_bands`` [13, 16] and ``reckless_damage`` [0, 2]; the dice are
  :func:`.battle_grid.reckless_roll`, shared with the hex grid);
* Cover (free, DRAFT L490-492): someone in the same position as the target
  may take the hit for her (the engine's Intercept, :func:`.battle_grid.intercept`:
  after the hit, A26a, with the draft's ``intercept_bands`` [13, 16]; the
  draft has the coverer step in before the defence roll).

What the seed does not state, each a rule option (``sim rules mb-draft``):
the map's shape (``positions``: a line, distance ``|a - b|``), where people
start (``position_gap`` and the member's ``position:``), which positions are
rough (``rough_positions``), whether everyone has both basic attacks
(``position_forms``), whether a downed enemy engages (``engage_downed``).
Rough terrain is paid as on the hex grid (``rough_cost``: both moves of one
turn, or over two turns), and Bound follows 4.1 (L1463, the draft leaves
Bound undefined): she moves only with her Major, and out of rough terrain or
an enemy's position only by Reckless Movement.

The turn (policy ``movement``, ``reckless``, the targeting policy):

1. ailments and Minor talents as gridless;
2. the policy's target among all enemies (``nearest`` = fewest positions,
   then lowest Resolve); if she is outside her preferred range of it
   (``movement``: close-in = melee range, keep-range = ranged range,
   protect-ally = the position of the standing ally lowest in Resolve share,
   hold = never moves; ``auto`` = her attack_kind's range) she moves 1
   position toward that range with the Minor (Movement; engaged:
   Reckless Movement if her policy is ``reckless``, else she keeps the
   Minor; rough: under ``split`` the Minor pays 1 of the 2 positions);
3. the Major: a basic attack on that target if some form reaches it, else
   on the enemy the policy prefers among those reachable, with the form the
   distance allows (a ranged girl sharing a position with an enemy who
   could not step away makes a melee attack, range 0, L482 - she has both
   attacks under ``position_forms: both``); with nobody in reach, the Major
   moves her (Disengage when engaged; out of rough terrain with the Minor
   too); Bonus Action gives another Major;
4. a Minor still unused moves her once more toward her range.

A step goes to the neighbouring position (-1 or +1, inside the map) that
brings her closest to the band of distances she wants (a ranged attacker
in her target's position steps away from it), only when it gets closer;
ties go toward her own side's end (side 0 toward position 1, side 1 toward
the last position).

Not on positions yet (these still act as gridless): talents' ranges (heals,
Remedy, Curse, Screams, Link, Inflict, Reflector...), Courage Aura (every
ally, not only those in her position), the Fury frenzy's turns and
retaliations, Ambush Tactics' turns, Defensive Switch, area attacks and the
movement talents (listed as not simulated in ``sim catalog mb-draft``).
Aura of Strength hits every standing enemy in her position.
"""
from __future__ import annotations

from sim._jit import kernel
from sim.rng import randbelow

from . import battle_grid as BG
from . import kernel as K  # circular on purpose: K.* is read when numba compiles, not at import


@kernel(inline="always")
def apart(a, b, dyn):
    """Positions between combatants ``a`` and ``b``."""
    d = dyn[a, K.D_PLACE] - dyn[b, K.D_PLACE]
    if d < 0:
        return -d
    return d


@kernel
def place_all(comb, pol, dyn):
    """Start of a fight: everyone present to her starting position
    (``P_PLACE``); rows absent at the start get theirs when they appear."""
    for i in range(comb.shape[0]):
        if dyn[i, K.D_ABSENT] != 0:
            dyn[i, K.D_PLACE] = -1
        else:
            dyn[i, K.D_PLACE] = pol[i, K.P_PLACE]
        dyn[i, K.D_PAID] = 0


@kernel(inline="always")
def form_at(i, d, comb, rules):
    """The basic attack ``i`` makes at ``d`` positions: 0 melee, 1 ranged, -1 none
    (her attack_kind when both reach; ``position_forms: kind``: only it)."""
    melee = d >= rules[K.R_MELEE_POSITIONS] and d <= rules[K.R_MELEE_POSITIONS + 1]
    ranged = d >= rules[K.R_RANGED_POSITIONS] and d <= rules[K.R_RANGED_POSITIONS + 1]
    pref = comb[i, K.C_FORM]
    if rules[K.R_POSITION_FORMS] == 1:
        if pref == 0:
            return 0 if melee else -1
        return 1 if ranged else -1
    if melee and ranged:
        return pref
    if melee:
        return 0
    if ranged:
        return 1
    return -1


@kernel(inline="always")
def reach(i, t, comb, rules, dyn):
    """The form ``i`` attacks ``t`` with from where they stand (-1: out of reach)."""
    return form_at(i, apart(i, t, dyn), comb, rules)


@kernel(inline="always")
def is_rough(p, rules):
    """Position ``p`` (0-based) has Rough Terrain (rule ``rough_positions``, 1-based)."""
    for k in range(4):
        if rules[K.R_ROUGH_POSITIONS + k] == p + 1:
            return True
    return False


@kernel(inline="always")
def engaged(i, comb, rules, dyn):
    """An enemy in her position keeps her from leaving with Movement (DRAFT L498):
    standing enemies, and downed ones too under ``engage_downed``."""
    p = dyn[i, K.D_PLACE]
    side = comb[i, K.C_SIDE]
    downed = rules[K.R_ENGAGE_DOWNED] != 0
    for j in range(comb.shape[0]):
        if comb[j, K.C_SIDE] == side:
            continue
        if dyn[j, K.D_DEAD] != 0:
            continue
        if dyn[j, K.D_PLACE] != p:
            continue
        if dyn[j, K.D_RES] > 0:
            return True
        if downed:
            return True
    return False


@kernel
def pick(i, in_reach, comb, pol, rules, dyn, st_policy):
    """The enemy ``i``'s targeting policy picks (``in_reach``: only among
    those a basic attack reaches now), -1 if none. Candidates as gridless
    (:func:`.kernel._candidate`); focus-weakest: lowest Resolve;
    strongest-threat: highest Attack, then lowest Resolve; nearest: fewest
    positions, then lowest Resolve; ties to the first listed; random-target:
    uniform (policy stream)."""
    n = comb.shape[0]
    side = comb[i, K.C_SIDE]
    finish = pol[i, K.P_FINISH] != 0
    mode = pol[i, K.P_TARGET]
    best = -1
    best_res = 1 << 60
    best_att = -1
    best_d = 1 << 60
    count = 0
    for j in range(n):
        if not K._candidate(j, side, finish, comb, dyn):
            continue
        if in_reach:
            if reach(i, j, comb, rules, dyn) < 0:
                continue
        count += 1
        res = dyn[j, K.D_RES]
        better = res < best_res
        if mode == K.TARGET_STRONGEST:
            if comb[j, K.C_ATT] != best_att:
                better = comb[j, K.C_ATT] > best_att
        elif mode == K.TARGET_NEAREST:
            d = apart(i, j, dyn)
            if d != best_d:
                better = d < best_d
        if better:
            best_res = res
            best_att = comb[j, K.C_ATT]
            best_d = apart(i, j, dyn)
            best = j
    if count == 0:
        return best
    if mode != K.TARGET_RANDOM:
        return best
    k = randbelow(st_policy, count)
    for j in range(n):
        if not K._candidate(j, side, finish, comb, dyn):
            continue
        if in_reach:
            if reach(i, j, comb, rules, dyn) < 0:
                continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel(inline="always")
def goal_of(i, t, comb, pol, rules, dyn):
    """Whom ``i`` moves relative to and the band of distances she wants:
    ``(who, lo, hi)``; who -1 = she stays."""
    mode = pol[i, K.P_MOVE]
    if mode == K.MOVE_HOLD:
        return -1, 0, 0
    if mode == K.MOVE_PROTECT:
        a = BG.protectee(i, comb, dyn)
        if a >= 0:
            return a, 0, 0
        mode = K.MOVE_CLOSE if comb[i, K.C_FORM] == 0 else K.MOVE_KEEP
    if t < 0:
        return -1, 0, 0
    if mode == K.MOVE_KEEP:
        return t, rules[K.R_RANGED_POSITIONS], rules[K.R_RANGED_POSITIONS + 1]
    return t, rules[K.R_MELEE_POSITIONS], rules[K.R_MELEE_POSITIONS + 1]


@kernel(inline="always")
def step_to(i, who, lo, hi, comb, rules, dyn):
    """The neighbouring position that brings ``i`` nearer to being ``lo..hi``
    positions from ``who`` (ties toward her side's end), -1 when none does
    or she is already in that band."""
    if who < 0:
        return -1
    p = dyn[i, K.D_PLACE]
    q = dyn[who, K.D_PLACE]
    d = p - q if p >= q else q - p
    now = BG.band_gap(d, lo, hi)
    if now == 0:
        return -1
    last = rules[K.R_POSITIONS] - 1
    home = -1 if comb[i, K.C_SIDE] == 0 else 1
    best = -1
    best_gap = now
    for k in range(2):
        s = home if k == 0 else -home
        m = p + s
        if m < 0 or m > last:
            continue
        e = m - q if m >= q else q - m
        g = BG.band_gap(e, lo, hi)
        if g < best_gap:
            best_gap = g
            best = m
    return best


@kernel(inline="always")
def away(i, who, lo, hi, dyn):
    """She has someone to move relative to and is outside her band of distances."""
    if who < 0:
        return False
    return BG.band_gap(apart(i, who, dyn), lo, hi) > 0


@kernel(inline="always")
def move_to(i, p, dyn, cc):
    dyn[i, K.D_PLACE] = p
    dyn[i, K.D_PAID] = 0
    cc[i, K.K_PLACES] += 1


@kernel
def reckless(i, p, comb, rules, dyn, streams, cc):
    """Reckless Movement (DRAFT L510) to position ``p``; returns whether she moved."""
    if BG.reckless_roll(i, comb, rules, dyn, streams, cc):
        move_to(i, p, dyn, cc)
        return True
    return False


@kernel
def minor_move(i, who, lo, hi, comb, pol, rules, dyn, streams, cc):
    """Movement (Minor, DRAFT L502-504) one position toward her band; returns
    True if the Minor was spent (a move, a Reckless Movement, or a payment
    toward leaving rough terrain under ``rough_cost: split``)."""
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False  # Bound: movement requires a Major action (4.1 L1463)
    rash = pol[i, K.P_RECKLESS] != 0
    eng = engaged(i, comb, rules, dyn)
    short = False
    if is_rough(dyn[i, K.D_PLACE], rules):
        short = dyn[i, K.D_PAID] + 1 < 2
    if eng or short:
        if rash:
            reckless(i, p, comb, rules, dyn, streams, cc)
            return True
        if not eng:
            if rules[K.R_ROUGH_COST] == 1:
                dyn[i, K.D_PAID] += 1
                return True
        return False
    move_to(i, p, dyn, cc)
    return True


@kernel
def major_move(i, who, lo, hi, minor, comb, pol, rules, dyn, streams, cc):
    """Move toward her band with the Major (nobody in reach). Engaged:
    Disengage (DRAFT L498; ``disengage: unlocks`` = the Minor then moves her).
    Rough terrain: the Major and, if still free, the Minor pay the two
    positions (DRAFT L510, ``rough_cost``). Bound: a plain move, or
    Reckless Movement (policy ``reckless``) out of rough terrain or an
    enemy's position. Returns whether the Minor was spent too."""
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    eng = engaged(i, comb, rules, dyn)
    rough = is_rough(dyn[i, K.D_PLACE], rules)
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        if eng or rough:
            if pol[i, K.P_RECKLESS] != 0:
                reckless(i, p, comb, rules, dyn, streams, cc)
            return False
        move_to(i, p, dyn, cc)
        return False
    pts = 1
    if eng:
        cc[i, K.K_DISENGAGES] += 1
        if rules[K.R_DISENGAGE] == 1:
            pts = 0
    need = 2 if rough else 1
    paid = dyn[i, K.D_PAID] + pts
    if paid >= need:
        move_to(i, p, dyn, cc)
        return False
    if minor:
        if paid + 1 >= need:
            move_to(i, p, dyn, cc)
            return True
    dyn[i, K.D_PAID] = paid
    return False


@kernel(inline="always")
def ready(i, t, comb, pol, rules, dyn):
    """Before ``i``'s basic attack on ``t``: the damage of the form the
    distance allows (``D_DMG_ADJ``, as on the hex grid) and who may Cover
    ``t`` (``D_GUARD``: a standing ally of ``t`` in her position whose
    intercept policy is willing, the highest Defence, then the first listed;
    not minions, who never roll Defence)."""
    form = reach(i, t, comb, rules, dyn)
    if form == 0:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_MELEE_DMG] - comb[i, K.C_DMG]
    else:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_RANGED_DMG] - comb[i, K.C_DMG]
    g = -1
    if comb[t, K.C_COVER] > 0:
        for j in range(comb.shape[0]):
            if not K.may_guard(j, t, g, comb, pol, dyn):
                continue
            if dyn[j, K.D_PLACE] != dyn[t, K.D_PLACE]:
                continue
            g = j
    dyn[t, K.D_GUARD] = g


@kernel(inline="always")
def done(i, t, dyn):
    """After the attack: back to the gridless state."""
    dyn[i, K.D_DMG_ADJ] = 0
    dyn[t, K.D_GUARD] = -1


@kernel
def minor_toward(i, t, comb, pol, rules, dyn, streams, cc):
    """Step 2 / 4 of the turn: Movement toward her band around target ``t``
    (or the ally she protects); returns whether the Minor was spent."""
    who, lo, hi = goal_of(i, t, comb, pol, rules, dyn)
    if not away(i, who, lo, hi, dyn):
        return False
    return minor_move(i, who, lo, hi, comb, pol, rules, dyn, streams, cc)


@kernel
def major_toward(i, t, minor, comb, pol, rules, dyn, streams, cc):
    """Step 3 with nobody in reach: the Major moves her toward her band
    (Disengage when engaged); returns whether the Minor was spent too."""
    who, lo, hi = goal_of(i, t, comb, pol, rules, dyn)
    if not away(i, who, lo, hi, dyn):
        return False
    return major_move(i, who, lo, hi, minor, comb, pol, rules, dyn, streams, cc)


@kernel
def any_in_reach(i, comb, pol, rules, dyn):
    """Some enemy ``i`` may target is within reach of a basic attack (Bonus Action)."""
    side = comb[i, K.C_SIDE]
    finish = pol[i, K.P_FINISH] != 0
    for j in range(comb.shape[0]):
        if K._candidate(j, side, finish, comb, dyn):
            if reach(i, j, comb, rules, dyn) >= 0:
                return True
    return False
