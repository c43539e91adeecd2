"""The draft's Battlefield map of positions (seed 001, DRAFT L474-510), played
by the gridless turn (:func:`.turn.take_turn`) when the rule ``positions``
is above 0 (``mb-draft`` scenarios; the hex grid is 4.1's, :mod:`.hex`).

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
  :func:`.hex_moves.reckless_roll`, shared with the hex grid);
* Cover (free, DRAFT L490-492): someone in the same position as the target
  may take the hit for her (the engine's Intercept, :func:`.damage.intercept`:
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

* Sprint (:func:`.positions_talents.sprint`): a free position at the start of her turn, once
  per round, when a plain Movement would do; Speed Burst the same, for 2
  Support overcharge, with no limit a round; off her turn Speed Burst
  (:func:`.positions_talents.cover_sprint`) steps into an attacked ally's position to Cover her;
* Bypass / Swift and Teleport (:func:`.positions_talents.talent_move`): her Minor when a plain
  Movement would not (2+ positions out of her band, engaged, short of
  leaving a rough position); Bypass ignores enemies and rough terrain,
  Teleport goes to the nearest position in her band and is not movement;
* Dash Strike / Pounce (:func:`.positions_talents.dash`): one position into reach, then the
  attack, as her Major;
* Get Over Here / Repel (:func:`.positions_talents.shove`): a hit moves the target 1 position;
* Guardian (:func:`held`, the 4.1 And Your Enemies Closer mechanic): every
  move out of the Guardian's position but Teleport and forced moves;
* Defensive Switch (:func:`.talents.team.defensive_switch`): an ally up to
  ``range_positions`` (3) away swaps positions with the target;
* Blast Strike / Burst Attack / Gravity Wave (:func:`.positions_talents.area_position`): every
  target in one position in reach;
* Safe Place (:func:`.positions_talents.safe_place`): an engaged, hurt ally to her position;
* Get Back (:func:`.positions_talents.get_back`): an engaged, hurt ally within 0-2 positions
  to Position 1 (rule ``get_back_to``), her Minor;
* Let's Move (:func:`.positions_talents.lets_move`): her Movement and a step for an ally who
  wants one;
* Aura of Strength hits every standing enemy in her position;
* Marionette (:func:`copy_place`): her copy appears within 0-3 positions
  (rule ``marionette_place``) and her attacks may start from it
  (:func:`reach`; she does not move while it reaches her target);
* the draft's Link: both linked enemies within 0-2 positions of her;
* Rough Going (:func:`.positions_talents.rough_going`): the position of the nearest enemy
  within 0-2 turns rough for the scene (:func:`is_rough`);
* Courage Aura helps only the allies in her position, a monster's Fear
  Aura hurts only the enemies in its position (:func:`refresh_auras`);
* Heal, Healing Magic, Remedy, Reflector, Rouse reach 0-2 positions,
  Healing Wave 0-1 (:func:`.slots.within`, the row's ``range_positions``).

Curse, Hex and the other talents on the policy's target pick it among the
enemies within their ``range_positions`` (:func:`pick_within`).

A Fury frenzy (4.1 L746-758) moves toward and attacks the closest standing
combatant by position, allies included (:func:`.turn.take_turn` with the frenzy's choices); her
retaliation needs the attacker within reach.

The 4.1 monsters' screams (Deafening Scream, Blood Rain) reach by position:
a circle within the row's range, a line of positions from hers on one side
(:func:`.talents.afflictions.scream_direction`, :func:`on_side`). Not on positions yet (these still act as gridless):
Speed Burst for a movement talent, and Create Barrier (listed as not simulated in
``sim catalog mb-draft``).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.rng import randbelow

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .damage import may_guard
from .hex import band_gap, protectee
from .hex_moves import hold_challenge, reckless_roll
from .slots import find_usable
from .state import _candidate, is_standing
from .targets import target_res


@kernel(forceinline=True)
def apart(a, b, w):
    """Positions between combatants ``a`` and ``b``."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = dyn[a, D_PLACE] - dyn[b, D_PLACE]
    if d < 0:
        return -d
    return d


@kernel
def place_all(w):
    """Start of a fight: everyone present to her starting position
    (``P_PLACE``); rows absent at the start get theirs when they appear."""
    comb, rules, dyn, streams, bf = unpack(w)
    for i in range(comb.shape[0]):
        if dyn[i, D_ABSENT] != 0:
            dyn[i, D_PLACE] = -1
        else:
            dyn[i, D_PLACE] = comb[i, P_PLACE]
        dyn[i, D_PAID] = 0


@kernel
def form_at(i, d, w):
    """The basic attack ``i`` makes at ``d`` positions: 0 melee, 1 ranged, -1 none
    (her attack_kind when both reach; ``position_forms: kind``: only it)."""
    comb, rules, dyn, streams, bf = unpack(w)
    melee = d >= rules[R_MELEE_POSITIONS] and d <= rules[R_MELEE_POSITIONS + 1]
    ranged = d >= rules[R_RANGED_POSITIONS] and d <= rules[R_RANGED_POSITIONS + 1]
    pref = comb[i, C_FORM]
    if rules[R_POSITION_FORMS] == 1:
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
def reach(i, t, w):
    """The form ``i`` attacks ``t`` with from where they stand (-1: out of reach).
    Marionette (DRAFT L317): her attacks may originate from her copy's
    position when hers reaches nothing."""
    comb, rules, dyn, streams, bf = unpack(w)
    f = form_at(i, apart(i, t, w), w)
    if f < 0:
        if dyn[i, D_COPY] != 0:
            return form_at(i, apart(dyn[i, D_COPY] - 1, t, w), w)
    return f


@kernel
def copy_place(i, s, w):
    """Where Marionette's copy appears (DRAFT L313-317: within 0-3 positions,
    the slot's ``range_positions``): under ``marionette_place: enemy`` the
    position in that band nearest to the nearest standing enemy (ties to the
    one nearest her), under ``self`` her own position."""
    comb, rules, dyn, streams, bf = unpack(w)
    me = dyn[i, D_PLACE]
    if rules[R_MARIONETTE_PLACE] != 0:
        return me
    goal = -1
    gd = 1 << 30
    for e in range(comb.shape[0]):
        if comb[e, C_SIDE] != comb[i, C_SIDE]:
            if is_standing(e, w):
                if dyn[e, D_PLACE] >= 0:
                    d = apart(i, e, w)
                    if d < gd:
                        gd = d
                        goal = dyn[e, D_PLACE]
    if goal < 0:
        return me
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        hi = rules[R_POSITIONS]
    best = me
    best_key = 1 << 30
    for p in range(rules[R_POSITIONS]):
        dm = p - me if p >= me else me - p
        if dm > hi:
            continue
        dg = p - goal if p >= goal else goal - p
        key = dg * 64 + dm
        if key < best_key:
            best_key = key
            best = p
    return best


@kernel(forceinline=True)
def is_rough(p, w):
    """Position ``p`` (0-based) has Rough Terrain: rule ``rough_positions``
    (1-based), or Rough Going made it rough this scene (bit ``p`` of
    ``dyn[0, D_ROUGH_PLACES]``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (dyn[0, D_ROUGH_PLACES] >> p) & 1 != 0:
        return True
    for k in range(4):
        if rules[R_ROUGH_POSITIONS + k] == p + 1:
            return True
    return False


@kernel
def engaged(i, w):
    """An enemy in her position keeps her from leaving with Movement (DRAFT L498):
    standing enemies, and downed ones too under ``engage_downed``."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = dyn[i, D_PLACE]
    side = comb[i, C_SIDE]
    downed = rules[R_ENGAGE_DOWNED] != 0
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] == side:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        if dyn[j, D_PLACE] != p:
            continue
        if dyn[j, D_RES] > 0:
            return True
        if downed:
            return True
    return False


@kernel
def pick(i, in_reach, w):
    """The enemy ``i``'s targeting policy picks (``in_reach``: only among
    those a basic attack reaches now), -1 if none. Candidates as gridless
    (:func:`.state._candidate`); focus-weakest: lowest Resolve;
    strongest-threat: highest Attack, then lowest Resolve; nearest: fewest
    positions, then lowest Resolve; ties to the first listed; random-target:
    uniform (policy stream)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_within(i, in_reach, -1, w)


@kernel
def pick_within(i, in_reach, hi, w):
    """:func:`pick` among the enemies at most ``hi`` positions from ``i``
    (-1: all), for a talent with a range (the draft's Curse, Hex: 0-2)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    mode = comb[i, P_TARGET]
    best = -1
    best_res = 1 << 60
    best_att = -1
    best_d = 1 << 60
    count = 0
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        if in_reach:
            if reach(i, j, w) < 0:
                continue
        if hi >= 0 and apart(i, j, w) > hi:
            continue
        count += 1
        res = target_res(i, j, w)  # Marionette's copy passes for her
        better = res < best_res
        if mode == TARGET_STRONGEST:
            if comb[j, C_ATT] != best_att:
                better = comb[j, C_ATT] > best_att
        elif mode == TARGET_NEAREST:
            d = apart(i, j, w)
            if d != best_d:
                better = d < best_d
        if better:
            best_res = res
            best_att = comb[j, C_ATT]
            best_d = apart(i, j, w)
            best = j
    if count == 0:
        return best
    if mode != TARGET_RANDOM:
        return best
    k = randbelow(streams[S_POLICY], count)
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        if in_reach:
            if reach(i, j, w) < 0:
                continue
        if hi >= 0 and apart(i, j, w) > hi:
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel
def goal_of(i, t, w):
    """Whom ``i`` moves relative to and the band of distances she wants:
    ``(who, lo, hi)``; who -1 = she stays."""
    comb, rules, dyn, streams, bf = unpack(w)
    mode = comb[i, P_MOVE]
    if mode == MOVE_HOLD:
        return -1, 0, 0
    if mode == MOVE_PROTECT:
        a = protectee(i, w)
        if a >= 0:
            return a, 0, 0
        mode = MOVE_CLOSE if comb[i, C_FORM] == 0 else MOVE_KEEP
    if t < 0:
        return -1, 0, 0
    if mode == MOVE_KEEP:
        return t, rules[R_RANGED_POSITIONS], rules[R_RANGED_POSITIONS + 1]
    return t, rules[R_MELEE_POSITIONS], rules[R_MELEE_POSITIONS + 1]


@kernel
def step_to(i, who, lo, hi, w):
    """The neighbouring position that brings ``i`` nearer to being ``lo..hi``
    positions from ``who`` (ties toward her side's end), -1 when none does
    or she is already in that band."""
    comb, rules, dyn, streams, bf = unpack(w)
    if who < 0:
        return -1
    p = dyn[i, D_PLACE]
    q = dyn[who, D_PLACE]
    d = p - q if p >= q else q - p
    now = band_gap(d, lo, hi)
    if now == 0:
        return -1
    last = rules[R_POSITIONS] - 1
    home = -1 if comb[i, C_SIDE] == 0 else 1
    best = -1
    best_gap = now
    for k in range(2):
        s = home if k == 0 else -home
        m = p + s
        if m < 0 or m > last:
            continue
        e = m - q if m >= q else q - m
        g = band_gap(e, lo, hi)
        if g < best_gap:
            best_gap = g
            best = m
    return best


@kernel(forceinline=True)
def away(i, who, lo, hi, w):
    """She has someone to move relative to and is outside her band of distances."""
    comb, rules, dyn, streams, bf = unpack(w)
    if who < 0:
        return False
    return band_gap(apart(i, who, w), lo, hi) > 0


@kernel(forceinline=True)
def move_to(i, p, w):
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_PLACE] = p
    dyn[i, D_PAID] = 0
    dyn[i, K_PLACES] += 1


@kernel
def reckless(i, p, w):
    """Reckless Movement (DRAFT L510) to position ``p``; returns whether she moved."""
    comb, rules, dyn, streams, bf = unpack(w)
    if reckless_roll(i, w):
        move_to(i, p, w)
        return True
    return False


@kernel
def minor_move(i, who, lo, hi, w):
    """Movement (Minor, DRAFT L502-504) one position toward her band; returns
    True if the Minor was spent (a move, a Reckless Movement, or a payment
    toward leaving rough terrain under ``rough_cost: split``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = step_to(i, who, lo, hi, w)
    if p < 0:
        return False
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False  # Bound: movement requires a Major action (4.1 L1463)
    rash = comb[i, P_RECKLESS] != 0
    eng = engaged(i, w)
    short = False
    if is_rough(dyn[i, D_PLACE], w):
        short = dyn[i, D_PAID] + 1 < 2
    if eng or short:
        if rash:
            if not held(i, w):
                reckless(i, p, w)
            return True
        if not eng:
            if rules[R_ROUGH_COST] == 1:
                dyn[i, D_PAID] += 1
                return True
        return False
    if not held(i, w):
        move_to(i, p, w)
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
    p = step_to(i, who, lo, hi, w)
    if p < 0:
        return False
    eng = engaged(i, w)
    rough = is_rough(dyn[i, D_PLACE], w)
    if dyn[i, D_AIL + A_BOUND] != 0:
        if eng or rough:
            if comb[i, P_RECKLESS] != 0:
                if not held(i, w):
                    reckless(i, p, w)
            return False
        if not held(i, w):
            move_to(i, p, w)
        return False
    pts = 1
    if eng:
        dyn[i, K_DISENGAGES] += 1
        if rules[R_DISENGAGE] == 1:
            pts = 0
    need = 2 if rough else 1
    paid = dyn[i, D_PAID] + pts
    if paid >= need:
        if not held(i, w):
            move_to(i, p, w)
        return False
    if minor:
        if paid + 1 >= need:
            if not held(i, w):
                move_to(i, p, w)
            return True
    dyn[i, D_PAID] = paid
    return False


@kernel
def ready(i, t, w):
    """Before ``i``'s basic attack on ``t``: the damage of the form the
    distance allows (``D_DMG_ADJ``, as on the hex grid) and who may Cover
    ``t`` (``D_GUARD``: a standing ally of ``t`` in her position whose
    intercept policy is willing, the highest Defence, then the first listed;
    not minions, who never roll Defence)."""
    comb, rules, dyn, streams, bf = unpack(w)
    form = reach(i, t, w)
    if form == 0:
        dyn[i, D_DMG_ADJ] = comb[i, C_MELEE_DMG] - comb[i, C_DMG]
    else:
        dyn[i, D_DMG_ADJ] = comb[i, C_RANGED_DMG] - comb[i, C_DMG]
    g = -1
    if comb[t, C_COVER] > 0:
        for j in range(comb.shape[0]):
            if j == i:
                continue  # a frenzied girl attacking an ally does not Cover against herself
            if not may_guard(j, t, g, w):
                continue
            if dyn[j, D_PLACE] != dyn[t, D_PLACE]:
                continue
            g = j
    dyn[t, D_GUARD] = g


@kernel(forceinline=True)
def done(i, t, w):
    """After the attack: back to the gridless state."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_DMG_ADJ] = 0
    dyn[t, D_GUARD] = -1


@kernel
def any_in_reach(i, w):
    """Some enemy ``i`` may target is within reach of a basic attack (Bonus Action)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
            if reach(i, j, w) >= 0:
                return True
    return False


@kernel
def held(i, w):
    """Guardian (DRAFT L79-83, free, 1 Defense overcharge; the 4.1 And Your
    Enemies Closer mechanic ``enemies_closer``): ``i`` attempts to move out of
    her position; each standing enemy in that position holding the talent
    (its policy always uses it when it can pay) makes a Support vs Support
    challenge against her (L1453 tie rules, the full tie to the mover unless
    ``full_tie: attacker``); a win keeps her there, and the action used for
    the attempt is spent (as 4.1 L1524). Teleport is not movement (DRAFT L73)
    and forced moves are not hers: neither calls this. Returns True if held."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_FOEMASK] >> E_CLOSER) & 1 == 0:
        return False
    p = dyn[i, D_PLACE]
    side = comb[i, C_SIDE]
    for k in range(comb.shape[0]):
        if comb[k, C_SIDE] == side:
            continue
        if dyn[k, D_PLACE] != p:
            continue
        if not is_standing(k, w):
            continue
        s = find_usable(k, E_CLOSER, w)
        if s < 0:
            continue
        if hold_challenge(k, s, i, w):
            return True
    return False


@kernel(forceinline=True)
def rough_short(i, w):
    """She stands on a rough position and one more position's worth of movement
    would not pay its two (DRAFT L510, ``D_PAID``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not is_rough(dyn[i, D_PLACE], w):
        return False
    return dyn[i, D_PAID] + 1 < 2


@kernel(forceinline=True)
def on_side(i, j, d, hi, w):
    """``j`` stands in ``i``'s position or up to ``hi`` positions (-1: any) from it on side
    ``d`` (0 toward higher positions, 1 toward lower): a 4.1 line area read on positions."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = dyn[j, D_PLACE] - dyn[i, D_PLACE]
    if d == 1:
        k = -k
    if k < 0:
        return False
    if hi < 0:
        return True
    return k <= hi


@kernel(forceinline=True)
def apart_to(i, m, w):
    """Positions between ``i`` and position ``m``."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = dyn[i, D_PLACE] - m
    if d < 0:
        return -d
    return d


@kernel(forceinline=True)
def foe_at(p, side, w):
    """A standing combatant not of ``side`` is at position ``p``."""
    comb, rules, dyn, streams, bf = unpack(w)
    for k in range(comb.shape[0]):
        if comb[k, C_SIDE] != side:
            if dyn[k, D_PLACE] == p:
                if is_standing(k, w):
                    return True
    return False


@kernel
def refresh_auras(w):
    """Fear Aura (L2031) and Courage Aura (DRAFT L183-185: "allies in your
    position") on positions: ``D_FEAR`` of each present combatant is the sum
    of the penalties (P1) of the enemies with Fear Aura still alive, less the
    bonuses (P1) of her standing allies with Courage Aura, that stand within
    the melee band's far end of her (``melee_positions``: the same position).
    Recomputed at the start of every turn and before every attack on
    positions (:func:`.turn.take_turn`); as :func:`.hex.refresh_fear`."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    any_ = False
    for k in range(n):
        if (comb[k, C_TMASK] >> E_FEAR_AURA) & 1 != 0:
            any_ = True
        if (comb[k, C_TMASK] >> E_COURAGE) & 1 != 0:
            any_ = True
    if not any_:
        return
    reach = rules[R_MELEE_POSITIONS + 1]
    for j in range(n):
        dyn[j, D_FEAR] = 0
    for k in range(n):
        if dyn[k, D_PLACE] < 0 or dyn[k, D_ABSENT] != 0:
            continue
        for s in range(MAXT):
            code = comb[k, C_TCODE + s]
            if code == E_FEAR_AURA:
                if dyn[k, D_DEAD] != 0:
                    continue
                sign = 1
            elif code == E_COURAGE:
                if not is_standing(k, w):
                    continue
                sign = -1
            else:
                continue
            for j in range(n):
                if j == k:
                    continue
                if (comb[j, C_SIDE] == comb[k, C_SIDE]) != (sign < 0):
                    continue
                if dyn[j, D_PLACE] < 0 or dyn[j, D_ABSENT] != 0:
                    continue
                if apart(j, k, w) <= reach:
                    dyn[j, D_FEAR] += sign * comb[k, C_TP1 + s]


@kernel
def p_start(a, b, c, w):
    """PR_START: everyone to her starting position, then the auras by position."""
    comb, rules, dyn, streams, bf = unpack(w)
    place_all(w)
    refresh_auras(w)
    return 0


@kernel
def p_auras(a, b, c, w):
    """PR_AURAS: :func:`refresh_auras`."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_auras(w)
    return 0


@kernel
def p_reach(i, t, c, w):
    """PR_REACH: :func:`reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reach(i, t, w)


@kernel
def p_distance(i, j, c, w):
    """PR_DISTANCE: positions between ``i`` and ``j`` (:func:`apart`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return apart(i, j, w)


@kernel
def p_pick_within(i, hi, c, w):
    """PR_PICK_WITHIN: :func:`pick_within` (not only those in reach)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_within(i, False, hi, w)


@kernel
def p_on_line(i, j, ds, w):
    """PR_ON_LINE: ``j`` on the side ``ds // 8`` of ``i``'s Scream in slot ``ds % 8`` (:func:`on_side`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = ds % 8
    return 1 if on_side(i, j, ds // 8, comb[i, C_TREACH + s], w) else 0


@kernel
def p_copy_place(i, s, c, w):
    """PR_COPY_PLACE: :func:`copy_place`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return copy_place(i, s, w)


@kernel
def p_pick(i, in_reach, c, w):
    """PR_PICK: :func:`pick`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick(i, in_reach != 0, w)


@kernel
def p_any_in_reach(i, b, c, w):
    """PR_ANY_IN_REACH: :func:`any_in_reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if any_in_reach(i, w) else 0
