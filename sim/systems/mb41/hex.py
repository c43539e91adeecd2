"""The 4.1 hex battlefield (rule ``grid: hex``): occupancy, distances, reach, targets and goals.

The turn of a combatant on the battlefield (seed 000 L1406-1416, L1453,
L1463, L1469; audit ids in brackets), played by :func:`.turn.take_turn` (its grid steps in :mod:`.hex_turn`) in
place of the gridless :func:`.turn.take_turn`:

* a Major and a Minor action; anything a Minor does a Major can do (L1410);
  a basic attack is a Major (A13); moving to an adjacent hex is a Minor
  (L1412); one combatant per hex, obstacles and barriers block;
* leaving a hex adjacent to a standing enemy takes Disengage, a Major action
  that moves her 1 hex (``disengage: moves``, A14a) or only lets her leave
  (``unlocks``, A14b);
* leaving rough terrain costs two hexes of movement (L1414): both movement
  actions of one turn (``rough_cost: same_turn``, A15a) or two actions over
  two turns (``split``, A15b; ``D_PAID`` keeps what she paid);
* Reckless Movement (L1416): with the policy's ``reckless``, she leaves rough
  terrain or an enemy-adjacent hex as a Minor action: 2d6! + Support,
  ``reckless_bands`` / ``reckless_damage`` (<=10 stays and takes 2, 11-13
  moves and takes 2, 14+ moves); sixes are Support overcharge (a monster pays
  them from its pool, L1892);
* Bound (L1463): every move needs a Major action; she leaves rough terrain or
  an enemy-adjacent hex (then treated as rough) only by Reckless Movement,
  itself a Major action unless ``bound_reckless: minor`` (A25v);
* ranges (L1453): melee reaches ``melee_range`` (adjacent), ranged
  ``ranged_range`` (2-3 hexes); every combatant has both attacks (girls
  L1453; monsters and minions likewise, A23a): she attacks with the one the
  distance allows (her ``attack_kind`` when both do) and ``attack_kind`` is
  the range she moves to (policy ``movement: auto``);
* Intercept (L1469, A26a): after an attack has hit, a standing ally of the
  target adjacent to her (or on the line of a ranged attack) whose policy is
  willing rolls 2d6! + Defence: <=10 fails, 11-13 she takes the full damage
  instead, 14+ half of it (rounded by ``intercept_half``) and the target none
  (``intercept_bands``); sixes are Defence overcharge. Minions do not
  intercept (they never roll Defence, L2172). One interceptor per attack: the
  willing candidate with the highest Defence (A26iv; the first listed on a
  tie); the interceptor's sixes do not change the damage (A26ii).

Turn order (what a player does, policy ``P_MOVE``/``P_RECKLESS``/``P_TARGET``):

1. ailments: a removal roll with the Minor (the only action when Stunned),
   as gridless; then a Minor talent when the policy asks (heal, Remedy,
   Curse, Steal Action, each within its range);
2. the policy picks a target among all enemies (``nearest`` = fewest hexes);
   if it is out of her preferred range she moves one hex toward it with the
   Minor, when that is a plain move (or Reckless Movement, or a payment
   toward leaving rough terrain under ``split``);
3. Major: a basic attack on that target if in range, else on the enemy the
   policy prefers among those in range; with nobody in range she moves with
   the Major instead (Disengage when engaged; with the Minor too to leave
   rough terrain); Bonus Action gives another Major;
4. a Minor still unused moves her one more hex toward her goal.

Movement goals: ``close-in`` (melee range of the target), ``keep-range``
(ranged range), ``hold`` (never moves), ``protect-ally`` (next to the
standing ally lowest in Resolve share, else as ``auto``; a bodyguard who is
not next to that ally spends her Major getting there, with Disengage if
need be, before attacking). A step goes to the
neighbour closest to the goal's range (ties: not rough, then the lowest
direction); when no neighbour gets closer, a breadth-first search finds the
way round obstacles and people (:func:`.grid.step_toward`).

Talent ranges (catalog ``range_hexes``, ``C_TREACH``; rule ``talent_ranges``):
heals, Remedy, Curse, Steal Action, Wave of Courage, Screams (a circle, or
Blood Rain's line: :func:`.talents.afflictions.scream_direction`), Reflector's recipient reach only so
far (:func:`.slots.within`, :func:`pick_near`); Fear Aura counts only within
its range (:func:`refresh_fear`).

Labyrinth features (seed 000 L2126-2166; the scenario's
``battlefield.labyrinth``, built by :mod:`.deploy` into ``cellfx``, ``lab``,
``path`` and the terrain flags ``PERILOUS`` / ``DOOR``): at the end of each
round :func:`.labyrinth.end_of_round` plays Alternating Damage, the Current and the
Pendulum (or :func:`.labyrinth.after_turn` after every turn, ``pendulum_moves: turn``);
Escher Doors are entered by :func:`.hex_moves.minor_move` / :func:`.hex_moves.major_move`
(:func:`.hex_moves.use_door`) and :func:`.hex_moves.best_step` walks to a door that leads nearer;
Perilous Terrain makes leaving a Reckless Movement. The Pendulum roughens a
per-block copy of the terrain (``F.row(bf, BF_TERRAIN)``; ``F.row(bf, BF_BASE)`` is the
field's, restored by :func:`place_all`).

Create Barrier (L1693-1697, :func:`.hex_areas.create_barrier`): a Minor action that
writes barrier hexes (``BARRIER | RAISED``) into the per-trial terrain copy,
20 Resolve between them, per owner (``D_BARRIER_*``); ``bf[BF_LST][LST_BARRIERS]``
counts those standing. While one stands, walking goals use a breadth-first
field round the barriers (:func:`barrier_field`; the static ``walk`` matrix
does not know them), Teleport never crosses one, attacks from 2+ hexes whose
line crosses one are impossible (rule ``barrier_blocks_ranged``), and an enemy
kept from everyone by it attacks it (:func:`.hex_areas.strike_barrier`, rule
``barrier_defence``). With no barrier standing every path is the one it was.

The dead leave the battlefield (their hex is freed, ``D_POS`` -1); downed
girls stay on their hex. Gridless fights never reach this module: the
geometry's slots hold :mod:`.gridless`'s procedures there (:mod:`.registry`).

``bf``, the battlefield, is one int64 array of the world (:mod:`.field`): the
per-cell rows (``BF_Q``, ``BF_R``, ``BF_TERRAIN`` the per-trial terrain,
``BF_BASE`` the field's, ``BF_OCC`` the combatant on each cell or -1, the
search scratch ``BF_DIST``, ``BF_QUEUE``, ``BF_LINE``, the labyrinth's ``BF_LST``,
``BF_LAB``, ``BF_PATH``), then the neighbour, lookup, walking and labyrinth
tables whose first rows ``bf[BF_META, M_*]`` names; :func:`field_arrays` gives
a field's template, :func:`make_bf` one with fresh scratch.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, part, pjit
from sim.rng import STATE_WORDS, randbelow, seed_stream

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import WORLD_WORDS, unpack
from .damage import may_guard
from .episode import episode_width, play_episode
from .state import _candidate, is_standing
from .targets import target_res
from sim.trial_rows import after_scenes, before_scenes, scenes_note_size


def field_arrays(field):
    """The battlefield array of a :class:`.grid.Battlefield` (:func:`.field.template`)."""
    return F.template(field)


def make_bf(field):
    """A battlefield array of ``field`` with fresh scratch (:func:`.field.make_bf`)."""
    return F.make_bf(field)


@kernel
def place_all(w):
    """Rebuild the occupancy from ``D_POS`` (the start of a fight): the dead hold no hex.
    The terrain and the labyrinth state start afresh (the Pendulum at the start of its trajectory)."""
    comb, rules, dyn, streams, bf = unpack(w)
    occ = F.row(bf, BF_OCC)
    terrain = F.row(bf, BF_TERRAIN)
    base = F.row(bf, BF_BASE)
    for c in range(occ.shape[0]):
        occ[c] = -1
        terrain[c] = base[c]
    lst = bf[BF_LST]
    lst[LST_PEND] = 0
    lst[LST_PDIR] = 1
    lst[LST_BARRIERS] = 0  # the terrain copy above dropped every raised barrier (Create Barrier)
    lst[LST_SEEN] = 0  # the mines have not looked at this fight yet
    for i in range(dyn.shape[0]):
        dyn[i, D_MINE_FROM] = 0
        if dyn[i, D_DEAD] != 0:
            dyn[i, D_POS] = -1
        elif dyn[i, D_POS] >= 0:
            occ[dyn[i, D_POS]] = i


@kernel
def place_near(j, a, w):
    """Put combatant ``j`` (a reserve row appearing, :func:`.state.appear`) on
    the free hex nearest to cell ``a`` (fewest hexes; ties to the lowest cell;
    ``a`` -1: the first free hex); False when no hex is free."""
    comb, rules, dyn, streams, bf = unpack(w)
    occ = F.row(bf, BF_OCC)
    terrain = F.row(bf, BF_TERRAIN)
    best = -1
    best_d = 1 << 30
    for c in range(occ.shape[0]):
        if occ[c] >= 0:
            continue
        if terrain[c] & G.BLOCK_MOVE != 0:
            continue
        d = 0
        if a >= 0:
            d = hexes(a, c, w)
        if d < best_d:
            best_d = d
            best = c
    if best < 0:
        return False
    occ[best] = j
    dyn[j, D_POS] = best
    dyn[j, D_MINE_FROM] = 0  # appearing is not entering (Mines)
    return True


@kernel
def copy_cell(i, s, w):
    """Marionette's copy (L1833: within 1-4 hexes, the slot's ``C_TREACH``; -1
    the whole field): the free hex in that band nearest to the nearest
    standing enemy (``marionette_place: enemy``) or to her (``self``); ties
    to the lowest cell; -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    occ = F.row(bf, BF_OCC)
    terrain = F.row(bf, BF_TERRAIN)
    me = dyn[i, D_POS]
    goal = me
    if rules[R_MARIONETTE_PLACE] == 0:
        gd = 1 << 30
        for e in range(comb.shape[0]):
            if comb[e, C_SIDE] != comb[i, C_SIDE]:
                if is_standing(e, w):
                    if dyn[e, D_POS] >= 0:
                        d = hexes(me, dyn[e, D_POS], w)
                        if d < gd:
                            gd = d
                            goal = dyn[e, D_POS]
    hi = comb[i, C_TREACH + s]
    best = -1
    best_d = 1 << 30
    for c in range(occ.shape[0]):
        if occ[c] >= 0:
            continue
        if terrain[c] & G.BLOCK_MOVE != 0:
            continue
        dm = hexes(me, c, w)
        if dm < 1:
            continue
        if hi >= 0:
            if dm > hi:
                continue
        d = hexes(goal, c, w)
        if d < best_d:
            best_d = d
            best = c
    return best


@kernel(forceinline=True)
def sweep(w):
    """The dead leave the battlefield: free their hexes."""
    comb, rules, dyn, streams, bf = unpack(w)
    occ = F.row(bf, BF_OCC)
    for i in range(dyn.shape[0]):
        if dyn[i, D_DEAD] != 0:
            c = dyn[i, D_POS]
            if c >= 0:
                if occ[c] == i:
                    occ[c] = -1
                dyn[i, D_POS] = -1


@kernel(forceinline=True)
def leave_if_dead(j, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_DEAD] != 0:
        c = dyn[j, D_POS]
        if c >= 0:
            occ = F.row(bf, BF_OCC)
            if occ[c] == j:
                occ[c] = -1
            dyn[j, D_POS] = -1


@kernel(forceinline=True)
def move_to(i, c, w):
    comb, rules, dyn, streams, bf = unpack(w)
    moved_from(i, w)
    occ = F.row(bf, BF_OCC)
    occ[dyn[i, D_POS]] = -1
    occ[c] = i
    dyn[i, D_POS] = c
    dyn[i, D_PAID] = 0
    dyn[i, K_MOVES] += 1


@kernel(forceinline=True)
def hexes(a, b, w):
    """Hexes between cells ``a`` and ``b`` (:func:`.grid.distance`, wraparound included): one
    load from the field's table (:func:`.field.hexd_of`, indexed directly: no slice bounds to
    compute). A negative cell counts from the end, as an index into a per-cell row does."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = bf[BF_META, M_NCELL]
    if a < 0:
        a += n
    if b < 0:
        b += n
    return bf[NBF + a, b]


@kernel(forceinline=True)
def away(i, goal, lo, hi, w):
    """She has a goal and is not in its range yet (a move is worth looking for)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if goal < 0:
        return False
    return band_gap(hexes(dyn[i, D_POS], goal, w), lo, hi) > 0


@kernel(forceinline=True)
def band_gap(d, lo, hi):
    """How many hexes distance ``d`` lies outside ``lo..hi`` (0 inside)."""
    if d < lo:
        return lo - d
    if d > hi:
        return d - hi
    return 0


@kernel(forceinline=True)
def reach(i, t, w):
    """The form ``i`` can attack ``t`` with from where they stand: 0 melee, 1 ranged, -1 none.
    Marionette: her attacks may originate from her copy's hex (L1833) when hers reaches nothing."""
    comb, rules, dyn, streams, bf = unpack(w)
    hi = dyn[i, D_RANGED_HI]
    f = reach_from(dyn[i, D_POS], t, hi, w)
    if f < 0:
        if dyn[i, D_COPY] != 0:
            return reach_from(dyn[dyn[i, D_COPY] - 1, D_POS], t, hi, w)
    return f


@part
def reach_from(a, t, hi, w):
    """The form an attack from cell ``a`` reaches ``t`` with: 0 melee, 1 ranged, -1 none;
    ``hi`` is the attacker's farthest ranged hex (``D_RANGED_HI``: 3, Mid-Childan System 4,
    Belkan System 0 = none, L1669-1678).
    A raised barrier (Create Barrier, L1697) on the hex line of an attack from 2+ hexes blocks it
    (rule ``barrier_blocks_ranged``, A52)."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = hexes(a, dyn[t, D_POS], w)
    if d >= 2:
        if bf[BF_LST][LST_BARRIERS] != 0:
            if rules[R_BARRIER_BLOCKS_RANGED] == 1:
                if raised_between(a, dyn[t, D_POS], w):
                    return -1
    if d >= rules[R_MELEE_RANGE]:
        if d <= rules[R_MELEE_RANGE + 1]:
            return 0
    if d >= rules[R_RANGED_RANGE]:
        if d <= hi:
            return 1
    return -1


@kernel(forceinline=True)
def engaged(i, w):
    """A standing enemy stands next to ``i``: leaving her hex needs Disengage (L1412)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return foe_next_to(dyn[i, D_POS], i, w)


@part
def potential(m, goal, lo, hi, w):
    """How far cell ``m`` is from being ``lo..hi`` hexes from ``goal``: 0 in
    range; too close, the hexes to back off; too far, the steps round
    obstacles (``walk``) beyond ``hi``."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = hexes(m, goal, w)
    if d < lo:
        return lo - d
    if d <= hi:
        return 0
    if bf[BF_META, M_HAS_WALK] != 0:
        return np.int64(F.walk_of(bf)[m, goal]) - hi
    return d - hi


@kernel(forceinline=True)
def potential_at(m, goal, lo, hi, rt, w):
    """:func:`potential`, or with ``rt`` (a barrier raised during the fight stands, so the
    static ``walk`` is stale) :func:`field_potential`."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rt:
        return field_potential(m, goal, lo, hi, w)
    return potential(m, goal, lo, hi, w)


@kernel
def field_potential(m, goal, lo, hi, w):
    """:func:`potential` from the steps of :func:`barrier_field` (already filled for this goal)
    instead of ``walk``: too close, the hexes to back off; too far, the steps to the range;
    F.UNREACHABLE when no walk gets there."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = hexes(m, goal, w)
    if d < lo:
        return np.int64(lo - d)
    if d <= hi:
        return np.int64(0)
    x = F.row(bf, BF_DIST)[m]
    if x < 0:
        return np.int64(F.UNREACHABLE)
    return np.int64(x)


@kernel
def raised_between(a, b, w):
    """A raised barrier hex (Create Barrier) lies strictly between cells ``a`` and ``b`` on the hex line."""
    comb, rules, dyn, streams, bf = unpack(w)
    return not in_sight(a, b, G.RAISED, w)


@kernel
def barrier_field(goal, lo, hi, w):
    """``F.row(bf, BF_DIST)[c]``: the fewest steps from ``c`` to a hex ``lo..hi`` from ``goal``
    round obstacles and barriers (raised ones included), people ignored; -1 if none.
    Used instead of the static ``walk`` while a Create Barrier barrier stands."""
    comb, rules, dyn, streams, bf = unpack(w)
    terrain = F.row(bf, BF_TERRAIN)
    nbr = F.nbr_of(bf)
    dist = F.row(bf, BF_DIST)
    queue = F.row(bf, BF_QUEUE)
    tail = 0
    for c in range(dist.shape[0]):
        dist[c] = -1
        if terrain[c] & G.BLOCK_MOVE == 0:
            if band_gap(hexes(c, goal, w), lo, hi) == 0:
                dist[c] = 0
                queue[tail] = c
                tail += 1
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            m = nbr[c, d]
            if m >= 0:
                if dist[m] < 0:
                    if terrain[m] & G.BLOCK_MOVE == 0:
                        dist[m] = dist[c] + 1
                        queue[tail] = m
                        tail += 1
    return tail


@part
def _prefer(i, j, best, best_res, best_att, best_d, mode, w):
    """Is candidate ``j`` better than ``best`` for targeting ``mode``? (see :func:`pick`)"""
    comb, rules, dyn, streams, bf = unpack(w)
    if best < 0:
        return True
    if mode == TARGET_NEAREST:
        d = hexes(dyn[i, D_POS], dyn[j, D_POS], w)
        if d != best_d:
            return d < best_d
    elif mode == TARGET_STRONGEST:
        if comb[j, C_ATT] != best_att:
            return comb[j, C_ATT] > best_att
    return target_res(i, j, w) < best_res


@kernel
def pick_w(i, in_reach, w):
    """:func:`pick` of the world ``w`` (the policy stream ``S_POLICY``): the turn's call passes
    one word and keeps no array descriptor alive across it."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _pick_in(i, in_reach, -1, w)


@kernel(forceinline=True)
def pick(i, in_reach, w):
    """The policy's target for ``i`` among the enemies it may attack (as
    :func:`.targets.target_of`), only those in range when ``in_reach``;
    -1 if none. nearest: fewest hexes, then the lowest Resolve, then the first
    listed."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _pick(i, in_reach, -1, w)


@kernel
def pick_near(i, hi, w):
    """:func:`pick` among the enemies at most ``hi`` hexes away (-1: all), for a
    talent with a range (Curse, Steal Action, Implode); -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _pick(i, False, hi, w)


@kernel(forceinline=True)
def _near(i, j, hi, w):
    comb, rules, dyn, streams, bf = unpack(w)
    if hi < 0:
        return True
    return hexes(dyn[i, D_POS], dyn[j, D_POS], w) <= hi


@kernel
def _pick(i, in_reach, hi, w):
    """:func:`pick` / :func:`pick_near` (compiled once, called)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _pick_in(i, in_reach, hi, w)


@part
def _pick_in(i, in_reach, hi, w):
    """The body of :func:`_pick` and :func:`pick_w`."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    mode = comb[i, P_TARGET]
    best = -1
    best_res = 0
    best_att = 0
    best_d = 0
    count = 0
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        if in_reach:
            if reach(i, j, w) < 0:
                continue
        if not _near(i, j, hi, w):
            continue
        count += 1
        if _prefer(i, j, best, best_res, best_att, best_d, mode, w):
            best = j
            best_res = target_res(i, j, w)
            best_att = comb[j, C_ATT]
            if mode == TARGET_NEAREST:
                best_d = hexes(dyn[i, D_POS], dyn[j, D_POS], w)
    if count == 0:
        return -1
    if mode != TARGET_RANDOM:
        return best
    k = randbelow(streams[S_POLICY], count)
    for j in range(n):
        if not _candidate(j, side, finish, w):
            continue
        if in_reach:
            if reach(i, j, w) < 0:
                continue
        if not _near(i, j, hi, w):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel
def any_in_reach(i, w):
    """Some enemy she may attack is in range (no dice drawn)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
            if reach(i, j, w) >= 0:
                return True
    return False


@kernel
def protectee(i, w):
    """The standing ally (not herself) lowest in Resolve share, -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    best = -1
    best_share = 1 << 40
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if not is_standing(j, w):
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share < best_share:
            best_share = share
            best = j
    return best


@kernel
def goal_of(i, t, w):
    """Where ``i`` moves to this turn: ``(cell, lo, hi)``; cell -1 = stay."""
    comb, rules, dyn, streams, bf = unpack(w)
    mode = comb[i, P_MOVE]
    if mode == MOVE_HOLD:
        return -1, 0, 0
    if mode == MOVE_PROTECT:
        a = protectee(i, w)
        if a >= 0:
            return dyn[a, D_POS], 1, 1
        mode = MOVE_CLOSE if comb[i, C_FORM] == 0 else MOVE_KEEP
    if t < 0:
        return -1, 0, 0
    if mode == MOVE_KEEP:
        if dyn[i, D_RANGED_HI] >= rules[R_RANGED_RANGE]:  # Belkan System: no ranged attack to keep at
            return dyn[t, D_POS], rules[R_RANGED_RANGE], dyn[i, D_RANGED_HI]
    return dyn[t, D_POS], rules[R_MELEE_RANGE], rules[R_MELEE_RANGE + 1]


@kernel
def guard_for(i, a, t, ranged, w):
    """Who may intercept ``i``'s attack on ``t`` from cell ``a`` (L1469): a standing
    ally of ``t`` with a willing policy, adjacent to ``t`` or (ranged) on the line
    between ``a`` and ``t``; the highest Defence, then the first listed. -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    pt = dyn[t, D_POS]
    best = -1
    nline = -1
    line = F.line_row(bf)
    for j in range(n):
        if j == i:
            continue  # a frenzied girl attacking an ally does not intercept her own attack
        if not may_guard(j, t, best, w):
            continue
        pj = dyn[j, D_POS]
        ok = hexes(pj, pt, w) == 1
        if not ok:
            if ranged:
                if nline < 0:
                    nline = G.line_between(F.row(bf, BF_Q), F.row(bf, BF_R), F.shifts_of(bf), F.lut_of(bf), bf[BF_META, M_QMIN],
                                           bf[BF_META, M_RMIN], a, pt, line)
                for k in range(1, nline - 1):
                    if line[k] == pj:
                        ok = True
        if ok:
            best = j
    return best


@kernel
def on_line(a, d, length, c, w):
    """Cell ``c`` lies on the straight line of ``length`` hexes (-1: to the edge) from ``a``
    (excluded) in direction ``d``."""
    comb, rules, dyn, streams, bf = unpack(w)
    if d < 0:
        return False
    nbr = F.nbr_of(bf)
    m = nbr[a, d]
    k = 0
    while m >= 0:
        if length >= 0:
            if k >= length:
                break
        if m == a:
            break
        if m == c:
            return True
        m = nbr[m, d]
        k += 1
    return False


@kernel(forceinline=True)
def refresh_fear(w):
    """Fear Aura on the grid (L2031): ``D_FEAR`` of each combatant is the sum
    of the penalties of the enemy monsters with Fear Aura still alive within
    the row's range (melee range: adjacent) of her, less the Courage Auras of
    her standing allies within theirs (adjacent); recomputed after moves,
    attacks and deaths (gridless: every enemy, :func:`.talents.auras.fear_aura`,
    every ally, :func:`.talents.auras.courage_aura`).

    Inlined at its call sites: the check whether any aura is on the field
    costs a few loads, where a call costs a call (most fights have no aura); :func:`fear_update`
    does the work. The check reads ``C_ALLMASK`` (the OR of every row's talent mask, reserve
    rows included: an aura that may appear counts), one load instead of a loop over the rows."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, C_ALLMASK] >> E_FEAR_AURA) & 1 != 0:
        fear_update(w)
    elif (comb[0, C_ALLMASK] >> E_COURAGE) & 1 != 0:
        fear_update(w)


@kernel(forceinline=True)
def refresh_fear_w(w):
    """:func:`refresh_fear` of the world ``w``: the check loads two words; only a field with an
    aura pays the call (:func:`fear_w`), and no array descriptor stays alive across it."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, C_ALLMASK] >> E_FEAR_AURA) & 1 != 0:
        fear_w(w)
    elif (comb[0, C_ALLMASK] >> E_COURAGE) & 1 != 0:
        fear_w(w)


@kernel
def fear_w(w):
    """:func:`fear_update` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    fear_update(w)


@kernel
def fear_update(w):
    """The work of :func:`refresh_fear` (some aura is on the field)."""
    comb, rules, dyn, streams, bf = unpack(w)
    n = comb.shape[0]
    for j in range(n):
        dyn[j, D_FEAR] = 0
    for k in range(n):
        if dyn[k, D_POS] < 0:
            continue
        for s in range(MAXT):
            code = comb[k, C_TCODE + s]
            if code == E_FEAR_AURA:
                if dyn[k, D_DEAD] != 0:
                    continue
                sign = 1    # a penalty to the enemies within range
            elif code == E_COURAGE:
                if not is_standing(k, w):
                    continue
                sign = -1   # Courage Aura (L1739): a bonus to her allies within range
            else:
                continue
            hi = comb[k, C_TREACH + s]
            for j in range(n):
                if j == k:
                    continue
                if (comb[j, C_SIDE] == comb[k, C_SIDE]) != (sign < 0):
                    continue
                if dyn[j, D_POS] < 0:
                    continue
                if hi >= 0:
                    if hexes(dyn[k, D_POS], dyn[j, D_POS], w) > hi:
                        continue
                dyn[j, D_FEAR] += sign * comb[k, C_TP1 + s]


@kernel
def lashed(i, c, w):
    """Lashing Ground (L2043): cell ``c`` is adjacent to a living combatant other than ``i``
    with Lashing Ground, so it is rough terrain for ``i`` (the monster ignores its own)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for k in range(comb.shape[0]):
        if k == i:
            continue
        if (comb[k, C_TMASK] >> E_LASHING) & 1 == 0:
            continue
        if dyn[k, D_DEAD] != 0:
            continue
        pk = dyn[k, D_POS]
        if pk < 0:
            continue
        if hexes(pk, c, w) == 1:
            return True
    return False


@kernel(forceinline=True)
def moved_from(i, w):
    """``i`` leaves her cell: remember the first cell she left since the mines
    last looked at her (``D_MINE_FROM``, cell + 1); the mines have not seen it yet
    (``LST_SEEN`` 0: :func:`.hex_moves.mines_pending` looks)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_MINE_FROM] == 0:
        dyn[i, D_MINE_FROM] = dyn[i, D_POS] + 1
    bf[BF_LST][LST_SEEN] = 0


@kernel(forceinline=True)
def relocate(i, c, w):
    """Put ``i`` on free cell ``c`` (forced movement, a door's exit): no movement paid."""
    comb, rules, dyn, streams, bf = unpack(w)
    moved_from(i, w)
    occ = F.row(bf, BF_OCC)
    occ[dyn[i, D_POS]] = -1
    occ[c] = i
    dyn[i, D_POS] = c
    dyn[i, D_PAID] = 0


@kernel
def door_value(c, goal, lo, hi, w):
    """What going through the door on cell ``c`` is worth: the partner door's
    :func:`potential` + 1 (the Minor it takes); a large number if ``c`` is no door."""
    comb, rules, dyn, streams, bf = unpack(w)
    if F.row(bf, BF_TERRAIN)[c] & G.DOOR == 0:
        return F.UNREACHABLE
    p = F.cellfx_of(bf)[c, G.FX_DOOR]
    if p < 0:
        return F.UNREACHABLE
    return potential(p, goal, lo, hi, w) + 1


@part
def door_worth(i, goal, lo, hi, w):
    """She stands on a door whose partner brings her closer to her goal than she is."""
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LAB][G.L_DOORS] == 0:
        return False
    if goal < 0:
        return False
    c = dyn[i, D_POS]
    if band_gap(hexes(c, goal, w), lo, hi) == 0:
        return False
    return door_value(c, goal, lo, hi, w) < potential(c, goal, lo, hi, w)


@kernel
def exit_cell(d, w):
    """Where someone coming out of door ``d`` stands: the door hex if free, else
    its first free neighbour (lowest direction); -1 if all are taken."""
    comb, rules, dyn, streams, bf = unpack(w)
    occ = F.row(bf, BF_OCC)
    terrain = F.row(bf, BF_TERRAIN)
    if not G.blocked(terrain, occ, G.BLOCK_MOVE, d):
        return d
    nbr = F.nbr_of(bf)
    for k in range(6):
        m = nbr[d, k]
        if m >= 0:
            if not G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                return m
    return -1


@pjit
def simulate_episode_blocks_grid(comb, rules, off, ng, recover, key, start, count, nblocks,
                                 fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve, ccount,
                                 party, field, girls, cols, rows):
    """:func:`.episode.simulate_episode_blocks` on a battlefield: every scene of the episode is
    fought on the same field, each deployed afresh from that scene's starting hexes (the
    party's too), the terrain restored (:func:`place_all`); same streams and counters.

    A plain grid fight is played here too, as an episode of one scene with no party rows
    (``off = [0, n]``, ``ng = 0``): the same trial as :func:`.fight.simulate_blocks` on the
    battlefield, and one grid kernel to compile. ``field``: the battlefield array
    (:func:`.field.template`); each block works on its own copy (occupancy, scratch,
    terrain).

    ``rows`` (int64 ``[count, NROW]``, or ``[0, NROW]`` for none, :func:`sim.trial_rows.none`):
    each trial's row, ``rows[t]`` for trial ``start + t`` (:func:`sim.trial_rows.after_scenes`,
    over the rows ``off[s] + girls`` of every scene, counters ``cols``): an episode's over its
    party (``girls`` ``0 .. ng-1``), a plain grid fight's over its first side's girls (one
    scene: the row :func:`sim.trial_rows.after` gives)."""
    width = episode_width(off)
    per = (count + nblocks - 1) // nblocks
    with_rows = rows.shape[0] > 0
    for b in numba.prange(nblocks):
        cb = comb.copy()
        dyn = ccount[b]  # counters (K_*) accumulate; reset and next_scene set the state (D_*)
        order = np.zeros(width, dtype=np.int64)
        ikey = np.zeros(width, dtype=np.int64)
        streams = np.zeros((NS, STATE_WORDS), dtype=np.uint64)
        note = np.zeros(scenes_note_size(off, girls), dtype=np.int64)
        bf = field.copy()
        wbuf = np.zeros(WORLD_WORDS * off.shape[0], dtype=np.int64)  # a world per scene, one for the episode
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(NS):
                seed_stream(streams[p], key, trial, p)
            if with_rows:
                before_scenes(fights[b], scene_fights[b], dyn, off, girls, cols, note)
            play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams, fights[b], rounds_hist[b],
                           scene_fights[b], scene_hist[b], side_curve[b], comb_curve[b], party[b], bf, wbuf)
            if with_rows:
                after_scenes(fights[b], scene_fights[b], dyn, off, girls, cols, note, rows[t])


@kernel
def swap_places(j, t, w):
    """Defensive Switch (L1701): ``j`` and ``t`` swap hexes (not movement; each
    still enters a hex, for the mines)."""
    comb, rules, dyn, streams, bf = unpack(w)
    moved_from(j, w)
    moved_from(t, w)
    occ = F.row(bf, BF_OCC)
    a = dyn[j, D_POS]
    b = dyn[t, D_POS]
    occ[a] = t
    occ[b] = j
    dyn[j, D_POS] = b
    dyn[t, D_POS] = a
    dyn[j, D_PAID] = 0
    dyn[t, D_PAID] = 0


@kernel(forceinline=True)
def form_at(d, hi, w):
    """The attack form that reaches ``d`` hexes: 0 melee, 1 ranged (up to ``hi``,
    the attacker's ``D_RANGED_HI``), -1 none."""
    comb, rules, dyn, streams, bf = unpack(w)
    if d >= rules[R_MELEE_RANGE]:
        if d <= rules[R_MELEE_RANGE + 1]:
            return 0
    if d >= rules[R_RANGED_RANGE]:
        if d <= hi:
            return 1
    return -1


@kernel
def in_sight(a, b, mask, w):
    """No cell strictly between ``a`` and ``b`` on the hex line has terrain in ``mask``."""
    comb, rules, dyn, streams, bf = unpack(w)
    line = F.line_row(bf)
    n = G.line_between(F.row(bf, BF_Q), F.row(bf, BF_R), F.shifts_of(bf), F.lut_of(bf), bf[BF_META, M_QMIN], bf[BF_META, M_RMIN], a, b, line)
    terrain = F.row(bf, BF_TERRAIN)
    for k in range(1, n - 1):
        c = line[k]
        if c < 0:
            return False
        if terrain[c] & mask:
            return False
    return True


@kernel(forceinline=True)
def sight_mask(w):
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[R_TELEPORT_SIGHT] == 1:
        return G.BARRIER
    return G.OBSTACLE | G.BARRIER


@part
def foe_next_to(m, i, w):
    """A standing enemy of ``i`` stands next to cell ``m``."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    side = comb[i, C_SIDE]
    for d in range(6):
        x = nbr[m, d]
        if x >= 0:
            j = occ[x]
            if j >= 0:
                if comb[j, C_SIDE] != side:
                    if is_standing(j, w):
                        return True
    return False


@kernel
def p_start(a, b, c, w):
    """PR_START: everyone to her starting hex (:func:`place_all`), the Fear Auras."""
    comb, rules, dyn, streams, bf = unpack(w)
    place_all(w)
    refresh_fear(w)
    return 0


@kernel
def p_auras(a, b, c, w):
    """PR_AURAS: :func:`refresh_fear`."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_fear(w)
    return 0


@kernel
def p_reach(i, t, c, w):
    """PR_REACH: :func:`reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reach(i, t, w)


@kernel
def p_distance(i, j, c, w):
    """PR_DISTANCE: hexes between the cells of ``i`` and ``j`` (:func:`hexes`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return hexes(dyn[i, D_POS], dyn[j, D_POS], w)


@kernel
def p_appear_at(j, a, c, w):
    """PR_APPEAR_AT: :func:`place_near`; 0 when no hex is free."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if place_near(j, a, w) else 0


@kernel
def p_copy_place(i, s, c, w):
    """PR_COPY_PLACE: :func:`copy_cell`; -1 when no hex in range is free."""
    comb, rules, dyn, streams, bf = unpack(w)
    return copy_cell(i, s, w)


@kernel
def p_pick_within(i, hi, c, w):
    """PR_PICK_WITHIN: :func:`pick_near`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_near(i, hi, w)


@kernel
def p_on_line(i, j, ds, w):
    """PR_ON_LINE: ``j`` on the line in direction ``ds // 8`` of ``i``'s Scream in slot ``ds % 8``."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = ds % 8
    return 1 if on_line(dyn[i, D_POS], ds // 8, comb[i, C_TREACH + s], dyn[j, D_POS], w) else 0


@kernel
def p_switch_to(j, t, c, w):
    """PR_SWITCH_TO: :func:`swap_places`."""
    comb, rules, dyn, streams, bf = unpack(w)
    swap_places(j, t, w)
    return 1


@kernel
def p_pick(i, in_reach, c, w):
    """PR_PICK: :func:`pick_w` (``in_reach`` 1: among those in reach only)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_w(i, in_reach != 0, w)


@kernel
def p_any_in_reach(i, b, c, w):
    """PR_ANY_IN_REACH: :func:`any_in_reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if any_in_reach(i, w) else 0
