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

Talents on positions (each a scripted test in
``tests/test_mbdraft_position_talents.py``):

* Sprint (:func:`sprint`): a free position at the start of her turn, once
  per round, when a plain Movement would do; Speed Burst the same, for 2
  Support overcharge, with no limit a round; off her turn Speed Burst
  (:func:`cover_sprint`) steps into an attacked ally's position to Cover her;
* Bypass / Swift and Teleport (:func:`talent_move`): her Minor when a plain
  Movement would not (2+ positions out of her band, engaged, short of
  leaving a rough position); Bypass ignores enemies and rough terrain,
  Teleport goes to the nearest position in her band and is not movement;
* Dash Strike / Pounce (:func:`dash`): one position into reach, then the
  attack, as her Major;
* Get Over Here / Repel (:func:`shove`): a hit moves the target 1 position;
* Guardian (:func:`held`, the 4.1 And Your Enemies Closer mechanic): every
  move out of the Guardian's position but Teleport and forced moves;
* Defensive Switch (:func:`.kernel.defensive_switch`): an ally up to
  ``range_positions`` (3) away swaps positions with the target;
* Blast Strike / Burst Attack / Gravity Wave (:func:`area_position`): every
  target in one position in reach;
* Safe Place (:func:`safe_place`): an engaged, hurt ally to her position;
* Get Back (:func:`get_back`): an engaged, hurt ally within 0-2 positions
  to Position 1 (rule ``get_back_to``), her Minor;
* Let's Move (:func:`lets_move`): her Movement and a step for an ally who
  wants one;
* Aura of Strength hits every standing enemy in her position;
* Marionette (:func:`copy_place`): her copy appears within 0-3 positions
  (rule ``marionette_place``) and her attacks may start from it
  (:func:`reach`; she does not move while it reaches her target);
* the draft's Link: both linked enemies within 0-2 positions of her;
* Rough Going (:func:`rough_going`): the position of the nearest enemy
  within 0-2 turns rough for the scene (:func:`is_rough`);
* Courage Aura helps only the allies in her position, a monster's Fear
  Aura hurts only the enemies in its position (:func:`refresh_auras`);
* Heal, Healing Magic, Remedy, Reflector, Rouse reach 0-2 positions,
  Healing Wave 0-1 (:func:`.kernel.within`, the row's ``range_positions``).

Curse, Hex and the other talents on the policy's target pick it among the
enemies within their ``range_positions`` (:func:`pick_within`).

A Fury frenzy (4.1 L746-758) moves toward and attacks the closest standing
combatant by position, allies included (:func:`frenzy_turn`); her
retaliation needs the attacker within reach.

The 4.1 monsters' screams (Deafening Scream, Blood Rain) reach by position:
a circle within the row's range, a line of positions from hers on one side
(:func:`.kernel.scream_direction`, :func:`on_side`). Not on positions yet (these still act as gridless):
Speed Burst for a movement talent, and Create Barrier (listed as not simulated in
``sim catalog mb-draft``).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.rng import randbelow

from . import battle_grid as BG
from .world import unpack
from . import kernel as K  # circular on purpose: K.* is read when numba compiles, not at import


@kernel(inline="always")
def apart(a, b, dyn):
    """Positions between combatants ``a`` and ``b``."""
    d = dyn[a, K.D_PLACE] - dyn[b, K.D_PLACE]
    if d < 0:
        return -d
    return d


@kernel
def place_all(comb, dyn):
    """Start of a fight: everyone present to her starting position
    (``P_PLACE``); rows absent at the start get theirs when they appear."""
    for i in range(comb.shape[0]):
        if dyn[i, K.D_ABSENT] != 0:
            dyn[i, K.D_PLACE] = -1
        else:
            dyn[i, K.D_PLACE] = comb[i, K.P_PLACE]
        dyn[i, K.D_PAID] = 0


@kernel
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


@kernel
def reach(i, t, comb, rules, dyn):
    """The form ``i`` attacks ``t`` with from where they stand (-1: out of reach).
    Marionette (DRAFT L317): her attacks may originate from her copy's
    position when hers reaches nothing."""
    f = form_at(i, apart(i, t, dyn), comb, rules)
    if f < 0:
        if dyn[i, K.D_COPY] != 0:
            return form_at(i, apart(dyn[i, K.D_COPY] - 1, t, dyn), comb, rules)
    return f


@kernel
def copy_place(i, s, comb, rules, dyn):
    """Where Marionette's copy appears (DRAFT L313-317: within 0-3 positions,
    the slot's ``range_positions``): under ``marionette_place: enemy`` the
    position in that band nearest to the nearest standing enemy (ties to the
    one nearest her), under ``self`` her own position."""
    me = dyn[i, K.D_PLACE]
    if rules[K.R_MARIONETTE_PLACE] != 0:
        return me
    goal = -1
    gd = 1 << 30
    for e in range(comb.shape[0]):
        if comb[e, K.C_SIDE] != comb[i, K.C_SIDE]:
            if K.is_standing(dyn, e):
                if dyn[e, K.D_PLACE] >= 0:
                    d = apart(i, e, dyn)
                    if d < gd:
                        gd = d
                        goal = dyn[e, K.D_PLACE]
    if goal < 0:
        return me
    hi = comb[i, K.C_TREACH + s]
    if hi < 0:
        hi = rules[K.R_POSITIONS]
    best = me
    best_key = 1 << 30
    for p in range(rules[K.R_POSITIONS]):
        dm = p - me if p >= me else me - p
        if dm > hi:
            continue
        dg = p - goal if p >= goal else goal - p
        key = dg * 64 + dm
        if key < best_key:
            best_key = key
            best = p
    return best


@kernel(inline="always")
def is_rough(p, rules, dyn):
    """Position ``p`` (0-based) has Rough Terrain: rule ``rough_positions``
    (1-based), or Rough Going made it rough this scene (bit ``p`` of
    ``dyn[0, D_ROUGH_PLACES]``)."""
    if (dyn[0, K.D_ROUGH_PLACES] >> p) & 1 != 0:
        return True
    for k in range(4):
        if rules[K.R_ROUGH_POSITIONS + k] == p + 1:
            return True
    return False


@kernel
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
def pick(i, in_reach, comb, rules, dyn, st_policy):
    """The enemy ``i``'s targeting policy picks (``in_reach``: only among
    those a basic attack reaches now), -1 if none. Candidates as gridless
    (:func:`.kernel._candidate`); focus-weakest: lowest Resolve;
    strongest-threat: highest Attack, then lowest Resolve; nearest: fewest
    positions, then lowest Resolve; ties to the first listed; random-target:
    uniform (policy stream)."""
    return pick_within(i, in_reach, -1, comb, rules, dyn, st_policy)


@kernel
def pick_within(i, in_reach, hi, comb, rules, dyn, st_policy):
    """:func:`pick` among the enemies at most ``hi`` positions from ``i``
    (-1: all), for a talent with a range (the draft's Curse, Hex: 0-2)."""
    n = comb.shape[0]
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    mode = comb[i, K.P_TARGET]
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
        if hi >= 0 and apart(i, j, dyn) > hi:
            continue
        count += 1
        res = K.target_res(i, j, comb, dyn)  # Marionette's copy passes for her
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
        if hi >= 0 and apart(i, j, dyn) > hi:
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel
def goal_of(i, t, comb, rules, dyn):
    """Whom ``i`` moves relative to and the band of distances she wants:
    ``(who, lo, hi)``; who -1 = she stays."""
    mode = comb[i, K.P_MOVE]
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


@kernel
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
def move_to(i, p, dyn):
    dyn[i, K.D_PLACE] = p
    dyn[i, K.D_PAID] = 0
    dyn[i, K.K_PLACES] += 1


@kernel
def reckless(i, p, w):
    """Reckless Movement (DRAFT L510) to position ``p``; returns whether she moved."""
    comb, rules, dyn, streams, bf = unpack(w)
    if BG.reckless_roll(i, w):
        move_to(i, p, dyn)
        return True
    return False


@kernel
def minor_move(i, who, lo, hi, w):
    """Movement (Minor, DRAFT L502-504) one position toward her band; returns
    True if the Minor was spent (a move, a Reckless Movement, or a payment
    toward leaving rough terrain under ``rough_cost: split``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False  # Bound: movement requires a Major action (4.1 L1463)
    rash = comb[i, K.P_RECKLESS] != 0
    eng = engaged(i, comb, rules, dyn)
    short = False
    if is_rough(dyn[i, K.D_PLACE], rules, dyn):
        short = dyn[i, K.D_PAID] + 1 < 2
    if eng or short:
        if rash:
            if not held(i, comb, rules, dyn, streams):
                reckless(i, p, w)
            return True
        if not eng:
            if rules[K.R_ROUGH_COST] == 1:
                dyn[i, K.D_PAID] += 1
                return True
        return False
    if not held(i, comb, rules, dyn, streams):
        move_to(i, p, dyn)
    return True


@kernel
def major_move(i, who, lo, hi, minor, w):
    """Move toward her band with the Major (nobody in reach). Engaged:
    Disengage (DRAFT L498; ``disengage: unlocks`` = the Minor then moves her).
    Rough terrain: the Major and, if still free, the Minor pay the two
    positions (DRAFT L510, ``rough_cost``). Bound: a plain move, or
    Reckless Movement (policy ``reckless``) out of rough terrain or an
    enemy's position. Returns whether the Minor was spent too."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    eng = engaged(i, comb, rules, dyn)
    rough = is_rough(dyn[i, K.D_PLACE], rules, dyn)
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        if eng or rough:
            if comb[i, K.P_RECKLESS] != 0:
                if not held(i, comb, rules, dyn, streams):
                    reckless(i, p, w)
            return False
        if not held(i, comb, rules, dyn, streams):
            move_to(i, p, dyn)
        return False
    pts = 1
    if eng:
        dyn[i, K.K_DISENGAGES] += 1
        if rules[K.R_DISENGAGE] == 1:
            pts = 0
    need = 2 if rough else 1
    paid = dyn[i, K.D_PAID] + pts
    if paid >= need:
        if not held(i, comb, rules, dyn, streams):
            move_to(i, p, dyn)
        return False
    if minor:
        if paid + 1 >= need:
            if not held(i, comb, rules, dyn, streams):
                move_to(i, p, dyn)
            return True
    dyn[i, K.D_PAID] = paid
    return False


@kernel
def ready(i, t, comb, rules, dyn):
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
            if j == i:
                continue  # a frenzied girl attacking an ally does not Cover against herself
            if not K.may_guard(j, t, g, comb, dyn):
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
def minor_toward(i, t, w):
    """Step 2 / 4 of the turn: Movement toward her band around target ``t``
    (or the ally she protects); returns whether the Minor was spent."""
    comb, rules, dyn, streams, bf = unpack(w)
    who, lo, hi = goal_of(i, t, comb, rules, dyn)
    if not away(i, who, lo, hi, dyn):
        return False
    if who == t and dyn[i, K.D_COPY] != 0:
        if reach(i, t, comb, rules, dyn) >= 0:
            return False  # her Marionette copy reaches the target: she stays
    if comb[i, K.C_TMASK] != 0:
        if talent_move(i, who, lo, hi, comb, rules, dyn, streams):
            return True
        if K.has_code(i, K.E_LETS_MOVE, comb):
            if lets_move(i, who, lo, hi, comb, rules, dyn, streams):
                return True
    return minor_move(i, who, lo, hi, w)


@kernel
def major_toward(i, t, minor, w):
    """Step 3 with nobody in reach: the Major moves her toward her band
    (Disengage when engaged); returns whether the Minor was spent too."""
    comb, rules, dyn, streams, bf = unpack(w)
    who, lo, hi = goal_of(i, t, comb, rules, dyn)
    if not away(i, who, lo, hi, dyn):
        return False
    return major_move(i, who, lo, hi, minor, w)


@kernel
def attack_call(i, t, w):
    """A basic attack of ``i`` on ``t`` on positions outside the turn's own
    attack site (a frenzy's attacks and retaliations): the auras by position,
    :func:`ready`, :func:`.kernel.attack_call`, :func:`done`; first, as for
    the turn's attack, an ally may Speed Burst into ``t``'s position to Cover
    her (:func:`cover_sprint`). Returns what the attack returns."""
    comb, rules, dyn, streams, bf = unpack(w)
    if K.side_has_code(t, K.E_SPRINT, comb):
        cover_sprint(i, t, comb, rules, dyn)
    refresh_auras(comb, rules, dyn)
    ready(i, t, comb, rules, dyn)
    dealt = K.attack_call(i, t, w)
    done(i, t, dyn)
    return dealt


@kernel
def frenzy_step(i, t, lo, hi, comb, rules, dyn):
    """The frenzy's extra point of movement (4.1 L758) on positions: when one
    plain position toward ``t`` (not engaged, not Bound, not out of a rough
    position) brings it within her reach, she spends 1 Fury on it, which pays
    for the attack that follows (``D_FURY_PAID``). Returns whether she moved."""
    if dyn[i, K.D_OC + K.FURY] < 1:
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False
    if engaged(i, comb, rules, dyn):
        return False
    if is_rough(dyn[i, K.D_PLACE], rules, dyn):
        return False
    p = step_to(i, t, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    d = p - dyn[t, K.D_PLACE]
    if d < 0:
        d = -d
    if form_at(i, d, comb, rules) < 0:
        return False
    move_to(i, p, dyn)
    K.spend_fury(i, 1, dyn)
    dyn[i, K.D_FURY_PAID] = 1
    return True


@kernel
def frenzy_turn(i, t, w):
    """A Fury frenzy's turn on positions (4.1 L746 on the draft's map: the
    draft defines no bursts, the engine plays 4.1's): ``t`` is
    :func:`.kernel.frenzy_target` (the closest standing combatant, allies
    included; -1 nobody). Out of her reach: Movement toward her attack's band
    of it (melee 0, ranged 1-2 by her ``attack_kind``); then the Major attacks
    it if in reach (Defensive Switch, Cover), else moves her toward it
    (Disengage when engaged). Stunned: the Major only. Still out of reach
    after the Minor: the frenzy's extra point of movement (:func:`frenzy_step`).
    A Minor that took no step goes to a removal roll when she has an ailment
    (:func:`.kernel.frenzy_removal`). No Major or Minor talents of her own; the
    attack's riders as rule ``fury_talents`` allows (:func:`.kernel.frenzy_can_pay`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if t < 0:
        return
    refresh_auras(comb, rules, dyn)
    lo = rules[K.R_MELEE_POSITIONS]
    hi = rules[K.R_MELEE_POSITIONS + 1]
    if comb[i, K.C_FORM] == 1:
        lo = rules[K.R_RANGED_POSITIONS]
        hi = rules[K.R_RANGED_POSITIONS + 1]
    minor = dyn[i, K.D_AIL + K.A_STUN] == 0
    if minor:
        if reach(i, t, comb, rules, dyn) < 0:
            if away(i, t, lo, hi, dyn):
                if minor_move(i, t, lo, hi, w):
                    minor = False
    if not K.is_standing(dyn, i):
        return
    if minor:
        if K.frenzy_removal(i, comb, rules, dyn, streams):
            minor = False
    if reach(i, t, comb, rules, dyn) < 0:
        frenzy_step(i, t, lo, hi, comb, rules, dyn)
    if reach(i, t, comb, rules, dyn) >= 0:
        if K.side_has_code(t, K.E_SWITCH, comb):
            t = K.defensive_switch(i, t, w)
        attack_call(i, t, w)
    elif away(i, t, lo, hi, dyn):
        major_move(i, t, lo, hi, minor, w)
    dyn[i, K.D_FURY_PAID] = 0
    refresh_auras(comb, rules, dyn)


@kernel
def any_in_reach(i, comb, rules, dyn):
    """Some enemy ``i`` may target is within reach of a basic attack (Bonus Action)."""
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    for j in range(comb.shape[0]):
        if K._candidate(j, side, finish, comb, dyn):
            if reach(i, j, comb, rules, dyn) >= 0:
                return True
    return False


# ---------------------------------------------------------------- the draft's movement talents on positions


@kernel
def held(i, comb, rules, dyn, streams):
    """Guardian (DRAFT L79-83, free, 1 Defense overcharge; the 4.1 And Your
    Enemies Closer mechanic ``enemies_closer``): ``i`` attempts to move out of
    her position; each standing enemy in that position holding the talent
    (its policy always uses it when it can pay) makes a Support vs Support
    challenge against her (L1453 tie rules, the full tie to the mover unless
    ``full_tie: attacker``); a win keeps her there, and the action used for
    the attempt is spent (as 4.1 L1524). Teleport is not movement (DRAFT L73)
    and forced moves are not hers: neither calls this. Returns True if held."""
    if (comb[i, K.C_FOEMASK] >> K.E_CLOSER) & 1 == 0:
        return False
    p = dyn[i, K.D_PLACE]
    side = comb[i, K.C_SIDE]
    for k in range(comb.shape[0]):
        if comb[k, K.C_SIDE] == side:
            continue
        if dyn[k, K.D_PLACE] != p:
            continue
        if not K.is_standing(dyn, k):
            continue
        s = K.find_usable(k, K.E_CLOSER, comb, dyn)
        if s < 0:
            continue
        if BG.hold_challenge(k, s, i, comb, rules, dyn, streams):
            return True
    return False


@kernel(inline="always")
def rough_short(i, rules, dyn):
    """She stands on a rough position and one more position's worth of movement
    would not pay its two (DRAFT L510, ``D_PAID``)."""
    if not is_rough(dyn[i, K.D_PLACE], rules, dyn):
        return False
    return dyn[i, K.D_PAID] + 1 < 2


@kernel
def shove(i, t, sign, comb, rules, dyn):
    """Get Over Here (``sign`` -1, DRAFT L125-129) / Repel (+1): after a hit,
    ``t`` moves 1 position closer to / farther from ``i`` (forced: rough
    terrain, enemies and Guardian do not hold it; the map's end does). Pulled
    from her own position: it stays; pushed out of her position: toward its
    own side's end."""
    if dyn[t, K.D_DEAD] != 0:
        return
    pt = dyn[t, K.D_PLACE]
    pi = dyn[i, K.D_PLACE]
    if pt < 0:
        return
    if sign < 0:
        if pt == pi:
            return
        m = pt - 1 if pt > pi else pt + 1
    else:
        if pt > pi:
            m = pt + 1
        elif pt < pi:
            m = pt - 1
        else:
            m = pt - 1 if comb[t, K.C_SIDE] == 0 else pt + 1
    if m < 0 or m > rules[K.R_POSITIONS] - 1:
        return
    dyn[t, K.D_PLACE] = m
    dyn[t, K.D_PAID] = 0
    dyn[i, K.K_SHOVED] += 1


@kernel
def sprint(i, t, comb, rules, dyn, streams):
    """Sprint (DRAFT L149-153, free, 2/Scene, once per round, on her turn):
    one position toward her band around target ``t`` as a free action, when
    she is out of it and a plain Movement would do (not while Bound, engaged
    or short of leaving a rough position: so never out of a Guardian's
    position). Speed Burst (DRAFT L63-67, free, 2 Support overcharge, the
    mechanic's ``any_round``) is the same step with no limit a round; a
    girl with both takes the first listed she can use; one step a turn.
    Returns True if she sprinted."""
    who, lo, hi = goal_of(i, t, comb, rules, dyn)
    if not away(i, who, lo, hi, dyn):
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False
    if rough_short(i, rules, dyn):
        return False
    if engaged(i, comb, rules, dyn):
        return False
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    s = -1
    again = dyn[i, K.D_SPRINT_AT] == dyn[0, K.D_ROUND]
    for k in range(K.MAXT):
        if comb[i, K.C_TCODE + k] == K.E_SPRINT:
            if dyn[i, K.D_TUSES + k] != 0:
                if comb[i, K.C_TP2 + k] != 0 or not again:
                    if K.can_pay(i, k, comb, dyn):
                        s = k
                        break
    if s < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    if comb[i, K.C_TP2 + s] == 0:
        dyn[i, K.D_SPRINT_AT] = dyn[0, K.D_ROUND]
    move_to(i, p, dyn)
    dyn[i, K.K_TALENT_MOVES] += 1
    return True


@kernel(inline="always")
def on_side(i, j, d, hi, dyn):
    """``j`` stands in ``i``'s position or up to ``hi`` positions (-1: any) from it on side
    ``d`` (0 toward higher positions, 1 toward lower): a 4.1 line area read on positions."""
    k = dyn[j, K.D_PLACE] - dyn[i, K.D_PLACE]
    if d == 1:
        k = -k
    if k < 0:
        return False
    if hi < 0:
        return True
    return k <= hi


@kernel
def cover_sprint(i, t, comb, rules, dyn):
    """Sprint off her turn on positions (the draft's Speed Burst, DRAFT L63-67:
    "You may use this power outside your normal turn"; a 4.1 Sprint row,
    L1726-1729): before ``i``'s attack roll on ``t``, when nobody in ``t``'s
    position could Cover her (L490-492), the first listed ally of ``t`` one
    position away who may Cover (:func:`.kernel.may_guard`) and whose policy
    would (``t`` below her ``intercept`` share of Resolve, as for Defensive
    Switch) moves into ``t``'s position (not while Bound, engaged or short of
    leaving a rough position; not into a rough position), so she can Cover
    the hit. Only rows usable off her turn (:func:`.kernel.off_turn_sprint`)."""
    pt = dyn[t, K.D_PLACE]
    if pt < 0:
        return
    if comb[t, K.C_COVER] == 0:
        return
    n = comb.shape[0]
    for j in range(n):
        if j != i:
            if dyn[j, K.D_PLACE] == pt:
                if K.may_guard(j, t, -1, comb, dyn):
                    return  # someone can Cover her already
    if is_rough(pt, rules, dyn):
        return
    for j in range(n):
        if j == i:
            continue
        if not K.may_guard(j, t, -1, comb, dyn):
            continue
        if dyn[t, K.D_RES] * 100 >= comb[j, K.P_INTERCEPT] * comb[t, K.C_RES]:
            continue
        if abs(dyn[j, K.D_PLACE] - pt) != 1:
            continue
        if dyn[j, K.D_AIL + K.A_BOUND] != 0:
            continue
        if rough_short(j, rules, dyn):
            continue
        if engaged(j, comb, rules, dyn):
            continue
        s = K.off_turn_sprint(j, comb, dyn)
        if s < 0:
            continue
        K.pay_sprint(j, s, comb, rules, dyn)
        move_to(j, pt, dyn)
        dyn[j, K.K_TALENT_MOVES] += 1
        dyn[j, K.K_GUARD_SPRINTS] += 1
        return


@kernel
def dash(i, t, comb, rules, dyn, streams):
    """Dash Strike (DRAFT L277-281, Major, 2/Scene) / Pounce: move 1 position
    and make a basic attack. Used when nobody is in reach and one position
    brings the policy's target ``t`` into reach (her attack_kind's form
    first, then the step toward her side's end); the move is ordinary
    movement (not out of an enemy's position, so never out of a Guardian's,
    nor short of leaving a rough one, not while Bound). Returns the target to
    attack, -1 if not used."""
    if t < 0:
        return -1
    if not K._candidate(t, comb[i, K.C_SIDE], comb[i, K.P_FINISH] != 0, comb, dyn):
        return -1
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return -1
    if rough_short(i, rules, dyn):
        return -1
    if engaged(i, comb, rules, dyn):
        return -1
    s = K.find_usable(i, K.E_MOVE_ATTACK, comb, dyn)
    if s < 0:
        return -1
    p = dyn[i, K.D_PLACE]
    q = dyn[t, K.D_PLACE]
    last = rules[K.R_POSITIONS] - 1
    home = -1 if comb[i, K.C_SIDE] == 0 else 1
    best = -1
    best_k = 3
    for k in range(2):
        m = p + (home if k == 0 else -home)
        if m < 0 or m > last:
            continue
        f = form_at(i, m - q if m >= q else q - m, comb, rules)
        if f < 0:
            continue
        key = 0 if f == comb[i, K.C_FORM] else 1
        if key < best_k:
            best_k = key
            best = m
    if best < 0:
        return -1
    K.pay_talent(i, s, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    move_to(i, best, dyn)
    dyn[i, K.K_TALENT_MOVES] += 1
    return t


@kernel
def extra_place(i, who, lo, hi, n, through, comb, rules, dyn):
    """Where Bypass / Swift (``extra_move``: ``n`` positions, ``through`` =
    ignoring rough terrain and enemies) takes ``i``: up to ``n`` steps toward
    her band (:func:`step_to`), stopping in it; without ``through`` she cannot
    leave an enemy's position or a rough one (Swift then is a plain move).
    Returns ``(position, steps)``, (-1, 0) if it gets her nowhere."""
    p0 = dyn[i, K.D_PLACE]
    if through == 0:
        if engaged(i, comb, rules, dyn):
            return -1, 0
        if is_rough(p0, rules, dyn):
            return -1, 0
    k = 0
    for _ in range(n):
        p = step_to(i, who, lo, hi, comb, rules, dyn)
        if p < 0:
            break
        dyn[i, K.D_PLACE] = p
        k += 1
        if through == 0:
            if is_rough(p, rules, dyn):
                break
    m = dyn[i, K.D_PLACE]
    dyn[i, K.D_PLACE] = p0
    if k == 0:
        return -1, 0
    return m, k


@kernel
def teleport_place(i, who, lo, hi, rules, dyn):
    """Teleport's destination (DRAFT L69-73): the position in her band around
    ``who`` nearest to hers (ties toward position 1), -1 if none differs."""
    p = dyn[i, K.D_PLACE]
    q = dyn[who, K.D_PLACE]
    best = -1
    best_d = 1 << 30
    for m in range(rules[K.R_POSITIONS]):
        if m == p:
            continue
        e = m - q if m >= q else q - m
        if BG.band_gap(e, lo, hi) != 0:
            continue
        d = m - p if m >= p else p - m
        if d < best_d:
            best_d = d
            best = m
    return best


@kernel
def talent_move(i, who, lo, hi, comb, rules, dyn, streams):
    """A movement talent as her Minor toward her band (the draft's Bypass,
    DRAFT L11-15, and Teleport, L69-73; a monster's Swift / Monster Teleport
    alike); True if the Minor was spent. Used only when a plain Movement
    would not do (she is 2+ positions out of her band, engaged, short of
    leaving a rough position, or Bound):

    1. Bypass / Swift when it ends in her band, or (Swift costs nothing)
       whenever it gets her nearer; not while Bound (every move needs a
       Major, 4.1 L1463); Guardian may hold her (the Minor is spent);
    2. Teleport to the position in her band nearest to hers (not movement:
       enemies, rough terrain, Bound and Guardian do not stop it);
    3. Bypass when it gets her nearer at all.
    """
    gap = BG.band_gap(apart(i, who, dyn), lo, hi)
    if gap == 0:
        return False
    bound = dyn[i, K.D_AIL + K.A_BOUND] != 0
    need = gap >= 2 or bound or rough_short(i, rules, dyn)
    if not need:
        need = engaged(i, comb, rules, dyn)
    if not need:
        return False
    es = -1
    em = -1
    en = 0
    if K.has_code(i, K.E_EXTRA_MOVE, comb):
        if not bound:
            es = K.find_usable(i, K.E_EXTRA_MOVE, comb, dyn)
            if es >= 0:
                em, en = extra_place(i, who, lo, hi, comb[i, K.C_TP1 + es], comb[i, K.C_TP2 + es], comb, rules, dyn)
                if em >= 0:
                    e = em - dyn[who, K.D_PLACE]
                    if e < 0:
                        e = -e
                    if comb[i, K.C_TCOST + es] == 0 or BG.band_gap(e, lo, hi) == 0:
                        return extra_move(i, es, em, en, comb, rules, dyn, streams)
    if K.has_code(i, K.E_TELEPORT, comb):
        s = K.find_usable(i, K.E_TELEPORT, comb, dyn)
        if s >= 0:
            m = teleport_place(i, who, lo, hi, rules, dyn)
            if m >= 0:
                K.pay_talent(i, s, comb, rules, dyn)
                K.check_bursts(i, comb, rules, dyn)
                dyn[i, K.K_TALENT_MOVES] += apart_to(i, m, dyn)
                dyn[i, K.D_PLACE] = m
                dyn[i, K.D_PAID] = 0
                return True
    if em >= 0:
        return extra_move(i, es, em, en, comb, rules, dyn, streams)
    return False


@kernel(inline="always")
def apart_to(i, m, dyn):
    """Positions between ``i`` and position ``m``."""
    d = dyn[i, K.D_PLACE] - m
    if d < 0:
        return -d
    return d


@kernel
def extra_move(i, s, m, n, comb, rules, dyn, streams):
    """Pay for Bypass / Swift in slot ``s`` and move ``n`` positions to ``m``
    (Guardian may hold her: the Minor is spent)."""
    K.pay_talent(i, s, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    if held(i, comb, rules, dyn, streams):
        return True
    dyn[i, K.D_PLACE] = m
    dyn[i, K.D_PAID] = 0
    dyn[i, K.K_PLACES] += n
    dyn[i, K.K_TALENT_MOVES] += n
    return True


# ---------------------------------------------------------------- area attacks on positions


@kernel
def area_position(i, s, w):
    """Blast Strike on positions (DRAFT L271-275: "choose one position within
    range. Each target within that position must attempt to defend
    themselves"); Burst Attack and Gravity Wave (no pull) alike. The position
    her basic attack reaches with the most enemies she may target (ties: the
    fewest of her allies in it under ``area_allies``, then the nearest, then
    the lowest), used when that is at least her policy's ``area_min`` (and
    1): pay (slot ``s``), then one basic attack on each of them, the form
    the distance allows, each defending separately (Cover as for any attack;
    Defensive Switch by an ally outside the position, who then takes that
    attack and no other of it, ``D_AREA_HIT``); under ``area_allies`` her
    standing allies in it are attacked too (not herself). Returns whether it
    was used."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    allies = rules[K.R_AREA_ALLIES] != 0
    here = dyn[i, K.D_PLACE]
    best = -1
    best_n = 0
    best_a = 0
    best_d = 0
    for p in range(rules[K.R_POSITIONS]):
        d = p - here if p >= here else here - p
        if form_at(i, d, comb, rules) < 0:
            continue
        n = 0
        a = 0
        for j in range(comb.shape[0]):
            if dyn[j, K.D_PLACE] != p:
                continue
            if K._candidate(j, side, finish, comb, dyn):
                n += 1
            elif allies:
                if j != i:
                    if comb[j, K.C_SIDE] == side:
                        if K.is_standing(dyn, j):
                            a += 1
        if n == 0:
            continue
        better = best < 0 or n > best_n
        if not better:
            if n == best_n:
                if a != best_a:
                    better = a < best_a
                elif d < best_d:
                    better = True
        if better:
            best = p
            best_n = n
            best_a = a
            best_d = d
    need = comb[i, K.P_AREA_MIN]
    if need < 1:
        need = 1
    if best < 0 or best_n < need:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    n = comb.shape[0]
    for j in range(n):  # the targets: those in the position when the attack is made
        if j != i:
            if dyn[j, K.D_PLACE] == best:
                dyn[j, K.D_AREA_HIT] = 1
    for j in range(n):
        if not K.area_next(j, dyn):
            continue
        if not K.is_standing(dyn, i):
            break
        if dyn[j, K.D_PLACE] != best:
            continue
        hit = K._candidate(j, side, finish, comb, dyn)
        if not hit:
            if allies:
                if comb[j, K.C_SIDE] == side:
                    hit = K.is_standing(dyn, j)
        if not hit:
            continue
        # Defensive Switch (DRAFT L103-107): an ally outside the position may take her place
        t = K.area_switch(i, j, w)
        ready(i, t, comb, rules, dyn)
        K.attack_call(i, t, w)
        done(i, t, dyn)
        dyn[i, K.K_AREA_TARGETS] += 1
    K.area_done(dyn)
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel
def safe_place(i, comb, rules, dyn):
    """Safe Place (DRAFT L241-243, Major): one willing ally moves to her
    position. Used, as on the hex grid, on the ally (not herself; standing,
    or down and alive) lowest in Resolve share below ``heal_below`` who shares
    a position with a standing enemy, when no standing enemy is in hers; the
    move is the talent's (no Disengage, rough terrain or Guardian, as the
    grid's). True if used."""
    s = K.find_usable(i, K.E_SAFE_PLACE, comb, dyn)
    if s < 0:
        return False
    here = dyn[i, K.D_PLACE]
    if foe_at(here, comb[i, K.C_SIDE], comb, dyn):
        return False
    best = rescue_ally(i, here, -1, comb, dyn)
    if best < 0:
        return False
    send(i, s, best, here, comb, rules, dyn)
    return True


@kernel
def get_back(i, comb, rules, dyn):
    """Get Back (DRAFT L119-123, Minor): send one willing ally within
    ``range_positions`` (0-2, ``C_TREACH``) to Position 1 (rule
    ``get_back_to``: ``own_end`` = her side's end of the map, Position 1 for
    the first side and the last position for the second; ``position_1`` =
    Position 1 for both). Used on the ally (not herself; standing, or down and
    alive) lowest in Resolve share below ``heal_below`` who shares a position
    with a standing enemy, when no standing enemy is at Position 1; the move
    is the talent's (no Disengage, rough terrain or Guardian, like Safe
    Place). True if used."""
    s = K.find_usable(i, K.E_GET_BACK, comb, dyn)
    if s < 0:
        return False
    side = comb[i, K.C_SIDE]
    dest = 0
    if rules[K.R_GET_BACK_TO] == 0 and side != 0:
        dest = rules[K.R_POSITIONS] - 1
    if foe_at(dest, side, comb, dyn):
        return False
    best = rescue_ally(i, dest, comb[i, K.C_TREACH + s], comb, dyn)
    if best < 0:
        return False
    send(i, s, best, dest, comb, rules, dyn)
    return True


@kernel
def send(i, s, j, dest, comb, rules, dyn):
    """Pay ``i``'s talent in slot ``s`` and put ally ``j`` at position ``dest``
    (the talent's move, counted in her K_SHOVED)."""
    K.pay_talent(i, s, comb, rules, dyn)
    dyn[i, K.K_SHOVED] += apart_to(j, dest, dyn)
    dyn[j, K.D_PLACE] = dest
    dyn[j, K.D_PAID] = 0
    K.check_bursts(i, comb, rules, dyn)


@kernel
def rescue_ally(i, dest, hi, comb, dyn):
    """Safe Place's and Get Back's ally: of ``i``'s allies (not herself;
    standing, or down and alive) not at position ``dest`` and at most ``hi``
    positions from her (-1: any), the one lowest in Resolve share below her
    ``heal_below`` who shares a position with a standing enemy (ties to the
    first listed); -1 if none."""
    side = comb[i, K.C_SIDE]
    best = -1
    best_share = comb[i, K.P_HEAL_BELOW]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, K.C_SIDE] != side:
            continue
        if dyn[j, K.D_DEAD] != 0:
            continue
        pj = dyn[j, K.D_PLACE]
        if pj < 0 or pj == dest:
            continue
        if hi >= 0 and apart(i, j, dyn) > hi:
            continue
        share = dyn[j, K.D_RES] * 100 // comb[j, K.C_RES]
        if share >= best_share:
            continue
        if not foe_at(pj, side, comb, dyn):
            continue
        best = j
        best_share = share
    return best


@kernel(inline="always")
def foe_at(p, side, comb, dyn):
    """A standing combatant not of ``side`` is at position ``p``."""
    for k in range(comb.shape[0]):
        if comb[k, K.C_SIDE] != side:
            if dyn[k, K.D_PLACE] == p:
                if K.is_standing(dyn, k):
                    return True
    return False


@kernel
def lets_move(i, who, lo, hi, comb, rules, dyn, streams):
    """Let's Move (DRAFT L47-51, Minor, 1 Support overcharge): she moves one
    position and one willing ally immediately moves 1 position. Used in
    place of her plain Movement toward her band (not while Bound, engaged or
    short of leaving a rough position) when an ally could use a step too:
    the first listed standing ally who is outside her own band around her
    policy's target (:func:`pick`, :func:`goal_of`) and could make that
    step by plain Movement. Both moves are Movement (a Guardian may hold
    either). True if used."""
    p = step_to(i, who, lo, hi, comb, rules, dyn)
    if p < 0:
        return False
    if not free_to_step(i, comb, rules, dyn):
        return False
    s = K.find_usable(i, K.E_LETS_MOVE, comb, dyn)
    if s < 0:
        return False
    side = comb[i, K.C_SIDE]
    mate = -1
    mp = -1
    for j in range(comb.shape[0]):
        if j == i or comb[j, K.C_SIDE] != side:
            continue
        if not K.is_standing(dyn, j):
            continue
        if dyn[j, K.D_PLACE] < 0:
            continue
        if not free_to_step(j, comb, rules, dyn):
            continue
        tj = pick(j, False, comb, rules, dyn, streams[K.S_POLICY])
        wj, lj, hj = goal_of(j, tj, comb, rules, dyn)
        if not away(j, wj, lj, hj, dyn):
            continue
        q = step_to(j, wj, lj, hj, comb, rules, dyn)
        if q >= 0:
            mate = j
            mp = q
            break
    if mate < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    if not held(i, comb, rules, dyn, streams):
        move_to(i, p, dyn)
    if not held(mate, comb, rules, dyn, streams):
        move_to(mate, mp, dyn)
        dyn[i, K.K_TALENT_MOVES] += 1
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel(inline="always")
def free_to_step(i, comb, rules, dyn):
    """A plain Movement could move ``i`` now: not Bound, not engaged, not short
    of leaving a rough position."""
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False
    if rough_short(i, rules, dyn):
        return False
    return not engaged(i, comb, rules, dyn)


@kernel
def rough_going(i, s, comb, rules, dyn):
    """The draft's Rough Going (DRAFT L319-323, Minor, 1 Attack overcharge): a
    position within 0-2 of her (the slot's ``range_positions``) takes on Rough
    Terrain for the rest of the scene (:func:`is_rough`). She picks the
    position of the standing enemy nearest her (ties to the first listed) that
    is not rough yet and holds no standing ally of hers (herself included);
    not used when there is none. Counted in ``K_ROUGHENED`` (positions)."""
    side = comb[i, K.C_SIDE]
    hi = comb[i, K.C_TREACH + s]
    if hi < 0:
        hi = rules[K.R_POSITIONS]
    best = -1
    best_d = 1 << 30
    for j in range(comb.shape[0]):
        if comb[j, K.C_SIDE] == side:
            continue
        if not K.is_standing(dyn, j):
            continue
        p = dyn[j, K.D_PLACE]
        if p < 0:
            continue
        d = apart(i, j, dyn)
        if d > hi or d >= best_d:
            continue
        if is_rough(p, rules, dyn):
            continue
        if foe_at(p, 1 - side, comb, dyn):
            continue  # an ally of hers stands there
        best = p
        best_d = d
    if best < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    dyn[0, K.D_ROUGH_PLACES] |= 1 << best
    dyn[i, K.K_ROUGHENED] += 1
    return True


@kernel
def refresh_auras(comb, rules, dyn):
    """Fear Aura (L2031) and Courage Aura (DRAFT L183-185: "allies in your
    position") on positions: ``D_FEAR`` of each present combatant is the sum
    of the penalties (P1) of the enemies with Fear Aura still alive, less the
    bonuses (P1) of her standing allies with Courage Aura, that stand within
    the melee band's far end of her (``melee_positions``: the same position).
    Recomputed at the start of every turn and before every attack on
    positions (:func:`.kernel.take_turn`); as :func:`.battle_grid.refresh_fear`."""
    n = comb.shape[0]
    any_ = False
    for k in range(n):
        if (comb[k, K.C_TMASK] >> K.E_FEAR_AURA) & 1 != 0:
            any_ = True
        if (comb[k, K.C_TMASK] >> K.E_COURAGE) & 1 != 0:
            any_ = True
    if not any_:
        return
    reach = rules[K.R_MELEE_POSITIONS + 1]
    for j in range(n):
        dyn[j, K.D_FEAR] = 0
    for k in range(n):
        if dyn[k, K.D_PLACE] < 0 or dyn[k, K.D_ABSENT] != 0:
            continue
        for s in range(K.MAXT):
            code = comb[k, K.C_TCODE + s]
            if code == K.E_FEAR_AURA:
                if dyn[k, K.D_DEAD] != 0:
                    continue
                sign = 1
            elif code == K.E_COURAGE:
                if not K.is_standing(dyn, k):
                    continue
                sign = -1
            else:
                continue
            for j in range(n):
                if j == k:
                    continue
                if (comb[j, K.C_SIDE] == comb[k, K.C_SIDE]) != (sign < 0):
                    continue
                if dyn[j, K.D_PLACE] < 0 or dyn[j, K.D_ABSENT] != 0:
                    continue
                if apart(j, k, dyn) <= reach:
                    dyn[j, K.D_FEAR] += sign * comb[k, K.C_TP1 + s]


# ---------------------------------------------------------------- procedures (the world's signature, :mod:`.world`)
# What the table (:mod:`.registry`) names on the draft's positions.


@kernel
def p_start(a, b, c, w):
    """PR_START: everyone to her starting position, then the auras by position."""
    comb, rules, dyn, streams, bf = unpack(w)
    place_all(comb, dyn)
    refresh_auras(comb, rules, dyn)
    return 0


@kernel
def p_auras(a, b, c, w):
    """PR_AURAS: :func:`refresh_auras`."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_auras(comb, rules, dyn)
    return 0


@kernel
def p_reach(i, t, c, w):
    """PR_REACH: :func:`reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reach(i, t, comb, rules, dyn)


@kernel
def p_distance(i, j, c, w):
    """PR_DISTANCE: positions between ``i`` and ``j`` (:func:`apart`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return apart(i, j, dyn)


@kernel
def p_frenzy_move(i, t, c, w):
    """PR_FRENZY_MOVE: :func:`frenzy_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    frenzy_turn(i, t, w)
    return 0


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT: :func:`attack_call` (the form by distance, Cover)."""
    comb, rules, dyn, streams, bf = unpack(w)
    attack_call(i, t, w)
    return 0


@kernel
def p_pick_within(i, hi, c, w):
    """PR_PICK_WITHIN: :func:`pick_within` (not only those in reach)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_within(i, False, hi, comb, rules, dyn, streams[K.S_POLICY])


@kernel
def p_on_line(i, j, ds, w):
    """PR_ON_LINE: ``j`` on the side ``ds // 8`` of ``i``'s Scream in slot ``ds % 8`` (:func:`on_side`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = ds % 8
    return 1 if on_side(i, j, ds // 8, comb[i, K.C_TREACH + s], dyn) else 0


@kernel
def p_copy_place(i, s, c, w):
    """PR_COPY_PLACE: :func:`copy_place`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return copy_place(i, s, comb, rules, dyn)


@kernel
def p_area(i, s, c, w):
    """PR_AREA and PR_GRAVITY: :func:`area_position` (no pull on positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if area_position(i, s, w) else 0


@kernel
def p_rough_going(i, s, c, w):
    """PR_ROUGH_GOING: :func:`rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if rough_going(i, s, comb, rules, dyn) else 0


@kernel
def p_pick(i, in_reach, c, w):
    """PR_POS_PICK: :func:`pick`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick(i, in_reach != 0, comb, rules, dyn, streams[K.S_POLICY])


@kernel
def p_sprint(i, t, c, w):
    """PR_POS_SPRINT: :func:`sprint`."""
    comb, rules, dyn, streams, bf = unpack(w)
    sprint(i, t, comb, rules, dyn, streams)
    return 0


@kernel
def p_get_back(i, b, c, w):
    """PR_POS_GET_BACK: :func:`get_back`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if get_back(i, comb, rules, dyn) else 0


@kernel
def p_minor_toward(i, t, c, w):
    """PR_POS_MINOR_TOWARD: :func:`minor_toward`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if minor_toward(i, t, w) else 0


@kernel
def p_major_toward(i, t, minor, w):
    """PR_POS_MAJOR_TOWARD: :func:`major_toward`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if major_toward(i, t, minor != 0, w) else 0


@kernel
def p_safe_place(i, b, c, w):
    """PR_POS_SAFE_PLACE: :func:`safe_place`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if safe_place(i, comb, rules, dyn) else 0


@kernel
def p_dash(i, t, c, w):
    """PR_POS_DASH: :func:`dash`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return dash(i, t, comb, rules, dyn, streams)


@kernel
def p_cover_sprint(i, t, c, w):
    """PR_POS_COVER_SPRINT: :func:`cover_sprint`."""
    comb, rules, dyn, streams, bf = unpack(w)
    cover_sprint(i, t, comb, rules, dyn)
    return 0


@kernel
def p_ready(i, t, c, w):
    """PR_POS_READY: :func:`ready`."""
    comb, rules, dyn, streams, bf = unpack(w)
    ready(i, t, comb, rules, dyn)
    return 0


@kernel
def p_done(i, t, c, w):
    """PR_POS_DONE: :func:`done`."""
    comb, rules, dyn, streams, bf = unpack(w)
    done(i, t, dyn)
    return 0


@kernel
def p_shove(i, t, sign, w):
    """PR_POS_SHOVE: :func:`shove`."""
    comb, rules, dyn, streams, bf = unpack(w)
    shove(i, t, sign, comb, rules, dyn)
    return 0


@kernel
def p_any_in_reach(i, b, c, w):
    """PR_POS_ANY_IN_REACH: :func:`any_in_reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if any_in_reach(i, comb, rules, dyn) else 0
