"""Magical Burst 4.1 fights on the hex grid (rule ``grid: hex``).

The turn of a combatant on the battlefield (seed 000 L1406-1416, L1453,
L1463, L1469; audit ids in brackets), played by :func:`take_turn_grid` in
place of the gridless :func:`.kernel.take_turn`:

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
Blood Rain's line: :func:`.kernel.scream_direction`), Reflector's recipient reach only so
far (:func:`.kernel.within`, :func:`pick_near`); Fear Aura counts only within
its range (:func:`refresh_fear`).

Labyrinth features (seed 000 L2126-2166; the scenario's
``battlefield.labyrinth``, built by :mod:`.deploy` into ``cellfx``, ``lab``,
``path`` and the terrain flags ``PERILOUS`` / ``DOOR``): at the end of each
round :func:`end_of_round` plays Alternating Damage, the Current and the
Pendulum (or :func:`after_turn` after every turn, ``pendulum_moves: turn``);
Escher Doors are entered by :func:`minor_move` / :func:`major_move`
(:func:`use_door`) and :func:`best_step` walks to a door that leads nearer;
Perilous Terrain makes leaving a Reckless Movement. The Pendulum roughens a
per-block copy of the terrain (``F.row(bf, BF_TERRAIN)``; ``F.row(bf, BF_BASE)`` is the
field's, restored by :func:`place_all`).

Create Barrier (L1693-1697, :func:`create_barrier`): a Minor action that
writes barrier hexes (``BARRIER | RAISED``) into the per-trial terrain copy,
20 Resolve between them, per owner (``D_BARRIER_*``); ``bf[BF_LST][LST_BARRIERS]``
counts those standing. While one stands, walking goals use a breadth-first
field round the barriers (:func:`barrier_field`; the static ``walk`` matrix
does not know them), Teleport never crosses one, attacks from 2+ hexes whose
line crosses one are impossible (rule ``barrier_blocks_ranged``), and an enemy
kept from everyone by it attacks it (:func:`strike_barrier`, rule
``barrier_defence``). With no barrier standing every path is the one it was.

The dead leave the battlefield (their hex is freed, ``D_POS`` -1); downed
girls stay on their hex. Gridless fights never reach this module: numba
prunes the ``bf is None`` branches of :func:`.kernel.fight_on`.

``bf``, the battlefield tuple, is ``(q, r, shifts, nbr, terrain, lut, meta,
walk, occ, dist, queue, line, cellfx, lab, path, base, lst)``: the static arrays of :class:`.grid.Battlefield`
(``meta = [qmin, rmin, has_walk]``; ``walk[a, b]`` the fewest steps from
``a`` to ``b`` round obstacles and barriers, people ignored, when the field
has any, else a 1 x 1 dummy and steps follow the hex distance) and
per-block scratch (``occ[N]`` combatant per cell or -1, ``dist[N]``,
``queue[N]``, ``line[N + 1]``), the labyrinth's arrays (``cellfx``, ``lab``,
``path``: :mod:`.grid` ``FX_*`` / ``L_*``), ``base`` the field's terrain
(``terrain`` is then a per-block copy) and ``lst`` the labyrinth's per-trial
state (``LST_*``); :func:`field_arrays` gives the static part, :func:`make_bf`
the whole tuple.
"""
from __future__ import annotations

import numba
import numpy as np

from sim._jit import kernel, part, pjit
from sim.dice import exploding_d6, sum_d6
from sim.rng import STATE_WORDS, randbelow, seed_stream

from . import field as F
from .world import WORLD_WORDS, call, unpack  # noqa: F401
from . import grid as G
from .layout import *  # noqa: F401,F403 - the declared columns and rows (BF_, M_, LST_...)
from . import kernel as K  # circular on purpose: K.* is read when numba compiles, not at import



def field_arrays(field):
    """The battlefield array of a :class:`.grid.Battlefield` (:func:`.field.template`)."""
    return F.template(field)


def make_bf(field):
    """A battlefield array of ``field`` with fresh scratch (:func:`.field.make_bf`)."""
    return F.make_bf(field)


# ---------------------------------------------------------------- occupancy


@kernel
def place_all(dyn, bf):
    """Rebuild the occupancy from ``D_POS`` (the start of a fight): the dead hold no hex.
    The terrain and the labyrinth state start afresh (the Pendulum at the start of its trajectory)."""
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
        dyn[i, K.D_MINE_FROM] = 0
        if dyn[i, K.D_DEAD] != 0:
            dyn[i, K.D_POS] = -1
        elif dyn[i, K.D_POS] >= 0:
            occ[dyn[i, K.D_POS]] = i


@kernel
def place_near(j, a, dyn, bf):
    """Put combatant ``j`` (a reserve row appearing, :func:`.kernel.appear`) on
    the free hex nearest to cell ``a`` (fewest hexes; ties to the lowest cell;
    ``a`` -1: the first free hex); False when no hex is free."""
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
            d = hexes(a, c, bf)
        if d < best_d:
            best_d = d
            best = c
    if best < 0:
        return False
    occ[best] = j
    dyn[j, K.D_POS] = best
    dyn[j, K.D_MINE_FROM] = 0  # appearing is not entering (Mines)
    return True


@kernel
def copy_cell(i, s, comb, rules, dyn, bf):
    """Marionette's copy (L1833: within 1-4 hexes, the slot's ``C_TREACH``; -1
    the whole field): the free hex in that band nearest to the nearest
    standing enemy (``marionette_place: enemy``) or to her (``self``); ties
    to the lowest cell; -1 if none."""
    occ = F.row(bf, BF_OCC)
    terrain = F.row(bf, BF_TERRAIN)
    me = dyn[i, K.D_POS]
    goal = me
    if rules[K.R_MARIONETTE_PLACE] == 0:
        gd = 1 << 30
        for e in range(comb.shape[0]):
            if comb[e, K.C_SIDE] != comb[i, K.C_SIDE]:
                if K.is_standing(dyn, e):
                    if dyn[e, K.D_POS] >= 0:
                        d = hexes(me, dyn[e, K.D_POS], bf)
                        if d < gd:
                            gd = d
                            goal = dyn[e, K.D_POS]
    hi = comb[i, K.C_TREACH + s]
    best = -1
    best_d = 1 << 30
    for c in range(occ.shape[0]):
        if occ[c] >= 0:
            continue
        if terrain[c] & G.BLOCK_MOVE != 0:
            continue
        dm = hexes(me, c, bf)
        if dm < 1:
            continue
        if hi >= 0:
            if dm > hi:
                continue
        d = hexes(goal, c, bf)
        if d < best_d:
            best_d = d
            best = c
    return best


@kernel(inline="always")
def sweep(dyn, bf):
    """The dead leave the battlefield: free their hexes."""
    occ = F.row(bf, BF_OCC)
    for i in range(dyn.shape[0]):
        if dyn[i, K.D_DEAD] != 0:
            c = dyn[i, K.D_POS]
            if c >= 0:
                if occ[c] == i:
                    occ[c] = -1
                dyn[i, K.D_POS] = -1


@kernel(inline="always")
def leave_if_dead(j, dyn, bf):
    if dyn[j, K.D_DEAD] != 0:
        c = dyn[j, K.D_POS]
        if c >= 0:
            occ = F.row(bf, BF_OCC)
            if occ[c] == j:
                occ[c] = -1
            dyn[j, K.D_POS] = -1


@kernel(inline="always")
def move_to(i, c, dyn, bf):
    moved_from(i, dyn, bf)
    occ = F.row(bf, BF_OCC)
    occ[dyn[i, K.D_POS]] = -1
    occ[c] = i
    dyn[i, K.D_POS] = c
    dyn[i, K.D_PAID] = 0
    dyn[i, K.K_MOVES] += 1


# ---------------------------------------------------------------- geometry


@kernel(inline="always")
def hexes(a, b, bf):
    """Hexes between cells ``a`` and ``b`` (:func:`.grid.distance`, wraparound included): one
    load from the field's table (:func:`.field.hexd_of`, indexed directly: no slice bounds to
    compute). A negative cell counts from the end, as an index into a per-cell row does."""
    n = bf[BF_META, M_NCELL]
    if a < 0:
        a += n
    if b < 0:
        b += n
    return bf[NBF + a, b]


@kernel(inline="always")
def away(i, goal, lo, hi, dyn, bf):
    """She has a goal and is not in its range yet (a move is worth looking for)."""
    if goal < 0:
        return False
    return band_gap(hexes(dyn[i, K.D_POS], goal, bf), lo, hi) > 0


@kernel(inline="always")
def band_gap(d, lo, hi):
    """How many hexes distance ``d`` lies outside ``lo..hi`` (0 inside)."""
    if d < lo:
        return lo - d
    if d > hi:
        return d - hi
    return 0


@kernel(inline="always")
def reach(i, t, rules, dyn, bf):
    """The form ``i`` can attack ``t`` with from where they stand: 0 melee, 1 ranged, -1 none.
    Marionette: her attacks may originate from her copy's hex (L1833) when hers reaches nothing."""
    hi = dyn[i, K.D_RANGED_HI]
    f = reach_from(dyn[i, K.D_POS], t, hi, rules, dyn, bf)
    if f < 0:
        if dyn[i, K.D_COPY] != 0:
            return reach_from(dyn[dyn[i, K.D_COPY] - 1, K.D_POS], t, hi, rules, dyn, bf)
    return f


@part
def reach_from(a, t, hi, rules, dyn, bf):
    """The form an attack from cell ``a`` reaches ``t`` with: 0 melee, 1 ranged, -1 none;
    ``hi`` is the attacker's farthest ranged hex (``D_RANGED_HI``: 3, Mid-Childan System 4,
    Belkan System 0 = none, L1669-1678).
    A raised barrier (Create Barrier, L1697) on the hex line of an attack from 2+ hexes blocks it
    (rule ``barrier_blocks_ranged``, A52)."""
    d = hexes(a, dyn[t, K.D_POS], bf)
    if d >= 2:
        if bf[BF_LST][LST_BARRIERS] != 0:
            if rules[K.R_BARRIER_BLOCKS_RANGED] == 1:
                if raised_between(a, dyn[t, K.D_POS], bf):
                    return -1
    if d >= rules[K.R_MELEE_RANGE]:
        if d <= rules[K.R_MELEE_RANGE + 1]:
            return 0
    if d >= rules[K.R_RANGED_RANGE]:
        if d <= hi:
            return 1
    return -1


@kernel(inline="always")
def engaged(i, comb, dyn, bf):
    """A standing enemy stands next to ``i``: leaving her hex needs Disengage (L1412)."""
    return foe_next_to(dyn[i, K.D_POS], i, comb, dyn, bf)


@part
def potential(m, goal, lo, hi, bf):
    """How far cell ``m`` is from being ``lo..hi`` hexes from ``goal``: 0 in
    range; too close, the hexes to back off; too far, the steps round
    obstacles (``walk``) beyond ``hi``."""
    d = hexes(m, goal, bf)
    if d < lo:
        return lo - d
    if d <= hi:
        return 0
    if bf[BF_META, M_HAS_WALK] != 0:
        return np.int64(F.walk_of(bf)[m, goal]) - hi
    return d - hi


@kernel(inline="always")
def potential_at(m, goal, lo, hi, rt, bf):
    """:func:`potential`, or with ``rt`` (a barrier raised during the fight stands, so the
    static ``walk`` is stale) :func:`field_potential`."""
    if rt:
        return field_potential(m, goal, lo, hi, bf)
    return potential(m, goal, lo, hi, bf)


@kernel
def field_potential(m, goal, lo, hi, bf):
    """:func:`potential` from the steps of :func:`barrier_field` (already filled for this goal)
    instead of ``walk``: too close, the hexes to back off; too far, the steps to the range;
    F.UNREACHABLE when no walk gets there."""
    d = hexes(m, goal, bf)
    if d < lo:
        return np.int64(lo - d)
    if d <= hi:
        return np.int64(0)
    x = F.row(bf, BF_DIST)[m]
    if x < 0:
        return np.int64(F.UNREACHABLE)
    return np.int64(x)


@kernel
def raised_between(a, b, bf):
    """A raised barrier hex (Create Barrier) lies strictly between cells ``a`` and ``b`` on the hex line."""
    return not in_sight(a, b, G.RAISED, bf)


@kernel
def barrier_field(goal, lo, hi, bf):
    """``F.row(bf, BF_DIST)[c]``: the fewest steps from ``c`` to a hex ``lo..hi`` from ``goal``
    round obstacles and barriers (raised ones included), people ignored; -1 if none.
    Used instead of the static ``walk`` while a Create Barrier barrier stands."""
    terrain = F.row(bf, BF_TERRAIN)
    nbr = F.nbr_of(bf)
    dist = F.row(bf, BF_DIST)
    queue = F.row(bf, BF_QUEUE)
    tail = 0
    for c in range(dist.shape[0]):
        dist[c] = -1
        if terrain[c] & G.BLOCK_MOVE == 0:
            if band_gap(hexes(c, goal, bf), lo, hi) == 0:
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


@kernel
def best_step(i, goal, lo, hi, deep, w):
    """The hex ``i`` steps to toward being ``lo..hi`` hexes from cell ``goal``; -1 if none helps.

    The free neighbour with the lowest :func:`potential` (ties: not rough,
    then the lowest direction); when people block every such step and
    ``deep`` (1 always, 2 when she has nobody in range to attack, 0 never),
    the first step of a shortest path round them (:func:`.grid.step_toward`,
    a breadth-first search).
    """
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, K.D_POS]
    if band_gap(hexes(c, goal, bf), lo, hi) == 0:
        return -1
    rt = bf[BF_LST][LST_BARRIERS] != 0  # a raised barrier stands: walk round it (barrier_field)
    if rt:
        barrier_field(goal, lo, hi, bf)
    now = potential_at(c, goal, lo, hi, rt, bf)
    best = -1
    best_key = 2 * now
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            if not G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                pm = potential_at(m, goal, lo, hi, rt, bf)
                if terrain[m] & G.DOOR:
                    dv = door_value(m, goal, lo, hi, bf)
                    if dv < pm:
                        pm = dv  # an Escher Door that leads nearer (L2135)
                k = 2 * pm
                if terrain[m] & (G.ROUGH | G.PERILOUS):
                    k += 1
                if k < best_key:
                    best_key = k
                    best = m
    if best >= 0:
        if best_key < 2 * now:
            return best
    if deep == 0:
        return -1
    if deep == 2:
        if any_in_reach(i, w):
            return -1
        comb, rules, dyn, streams, bf = unpack(w)
        nbr = F.nbr_of(bf)
        terrain = F.row(bf, BF_TERRAIN)
        occ = F.row(bf, BF_OCC)
    s = G.step_toward_d(F.hexd_of(bf), nbr, terrain, occ, G.BLOCK_MOVE, c, goal, lo, hi,
                        F.row(bf, BF_DIST), F.row(bf, BF_QUEUE))
    if s == c:
        return -1
    return s


# ---------------------------------------------------------------- targets and goals


@part
def _prefer(i, j, best, best_res, best_att, best_d, mode, comb, dyn, bf):
    """Is candidate ``j`` better than ``best`` for targeting ``mode``? (see :func:`pick`)"""
    if best < 0:
        return True
    if mode == K.TARGET_NEAREST:
        d = hexes(dyn[i, K.D_POS], dyn[j, K.D_POS], bf)
        if d != best_d:
            return d < best_d
    elif mode == K.TARGET_STRONGEST:
        if comb[j, K.C_ATT] != best_att:
            return comb[j, K.C_ATT] > best_att
    return K.target_res(i, j, comb, dyn) < best_res


@kernel
def pick_w(i, in_reach, w):
    """:func:`pick` of the world ``w`` (the policy stream ``S_POLICY``): the turn's call passes
    one word and keeps no array descriptor alive across it."""
    comb, rules, dyn, streams, bf = unpack(w)
    return _pick_in(i, in_reach, -1, comb, rules, dyn, streams[K.S_POLICY], bf)


@kernel(inline="always")
def pick(i, in_reach, comb, rules, dyn, st_policy, bf):
    """The policy's target for ``i`` among the enemies it may attack (as
    :func:`.kernel.choose_target`), only those in range when ``in_reach``;
    -1 if none. nearest: fewest hexes, then the lowest Resolve, then the first
    listed."""
    return _pick(i, in_reach, -1, comb, rules, dyn, st_policy, bf)


@kernel
def pick_near(i, hi, comb, rules, dyn, st_policy, bf):
    """:func:`pick` among the enemies at most ``hi`` hexes away (-1: all), for a
    talent with a range (Curse, Steal Action, Implode); -1 if none."""
    return _pick(i, False, hi, comb, rules, dyn, st_policy, bf)


@kernel(inline="always")
def _near(i, j, hi, dyn, bf):
    if hi < 0:
        return True
    return hexes(dyn[i, K.D_POS], dyn[j, K.D_POS], bf) <= hi


@kernel
def _pick(i, in_reach, hi, comb, rules, dyn, st_policy, bf):
    """:func:`pick` / :func:`pick_near` (compiled once, called)."""
    return _pick_in(i, in_reach, hi, comb, rules, dyn, st_policy, bf)


@part
def _pick_in(i, in_reach, hi, comb, rules, dyn, st_policy, bf):
    """The body of :func:`_pick` and :func:`pick_w`."""
    n = comb.shape[0]
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    mode = comb[i, K.P_TARGET]
    best = -1
    best_res = 0
    best_att = 0
    best_d = 0
    count = 0
    for j in range(n):
        if not K._candidate(j, side, finish, comb, dyn):
            continue
        if in_reach:
            if reach(i, j, rules, dyn, bf) < 0:
                continue
        if not _near(i, j, hi, dyn, bf):
            continue
        count += 1
        if _prefer(i, j, best, best_res, best_att, best_d, mode, comb, dyn, bf):
            best = j
            best_res = K.target_res(i, j, comb, dyn)
            best_att = comb[j, K.C_ATT]
            if mode == K.TARGET_NEAREST:
                best_d = hexes(dyn[i, K.D_POS], dyn[j, K.D_POS], bf)
    if count == 0:
        return -1
    if mode != K.TARGET_RANDOM:
        return best
    k = randbelow(st_policy, count)
    for j in range(n):
        if not K._candidate(j, side, finish, comb, dyn):
            continue
        if in_reach:
            if reach(i, j, rules, dyn, bf) < 0:
                continue
        if not _near(i, j, hi, dyn, bf):
            continue
        if k == 0:
            return j
        k -= 1
    return -1


@kernel
def any_in_reach(i, w):
    """Some enemy she may attack is in range (no dice drawn)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    for j in range(comb.shape[0]):
        if K._candidate(j, side, finish, comb, dyn):
            if reach(i, j, rules, dyn, bf) >= 0:
                return True
    return False


@kernel
def protectee(i, comb, dyn):
    """The standing ally (not herself) lowest in Resolve share, -1 if none."""
    best = -1
    best_share = 1 << 40
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, K.C_SIDE] != comb[i, K.C_SIDE]:
            continue
        if not K.is_standing(dyn, j):
            continue
        share = dyn[j, K.D_RES] * 100 // comb[j, K.C_RES]
        if share < best_share:
            best_share = share
            best = j
    return best


@kernel
def goal_of(i, t, w):
    """Where ``i`` moves to this turn: ``(cell, lo, hi)``; cell -1 = stay."""
    comb, rules, dyn, streams, bf = unpack(w)
    mode = comb[i, K.P_MOVE]
    if mode == K.MOVE_HOLD:
        return -1, 0, 0
    if mode == K.MOVE_PROTECT:
        a = protectee(i, comb, dyn)
        if a >= 0:
            return dyn[a, K.D_POS], 1, 1
        mode = K.MOVE_CLOSE if comb[i, K.C_FORM] == 0 else K.MOVE_KEEP
    if t < 0:
        return -1, 0, 0
    if mode == K.MOVE_KEEP:
        if dyn[i, K.D_RANGED_HI] >= rules[K.R_RANGED_RANGE]:  # Belkan System: no ranged attack to keep at
            return dyn[t, K.D_POS], rules[K.R_RANGED_RANGE], dyn[i, K.D_RANGED_HI]
    return dyn[t, K.D_POS], rules[K.R_MELEE_RANGE], rules[K.R_MELEE_RANGE + 1]


# ---------------------------------------------------------------- moves


@kernel
def reckless(i, step, w):
    """Reckless Movement (L1416) to ``step``: 2d6! + Support; returns True if she moved
    (an enemy's And Your Enemies Closer may hold her first: no roll, :func:`held`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, K.C_FOEMASK] >> K.E_CLOSER) & 1 != 0:
        if held(i, step, w):
            return False
    moved = reckless_roll(i, w)
    if moved:
        move_to(i, step, dyn, bf)
    leave_if_dead(i, dyn, bf)  # a monster at 0 Resolve is dead (L1892)
    return moved


@kernel
def reckless_roll(i, w):
    """The challenge of Reckless Movement, shared by the hex grid (L1416) and
    the draft's positions (DRAFT L510, :mod:`.positions`): 2d6! + Support
    (sixes are Support overcharge), ``reckless_bands`` / ``reckless_damage``;
    the damage is dealt here (not an attack) and bursts checked. Returns
    whether she may move (the caller moves her)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, K.K_RECKLESS] += 1
    total, sixes = exploding_d6(streams[K.S_CHECK], 2)
    total += comb[i, K.C_SUP] - K.roll_penalty(i, rules, dyn)
    K.gain_overcharge(i, comb[i, K.C_RS], sixes, comb, rules, dyn)
    moved = True
    dmg = 0
    if total <= rules[K.R_RECKLESS_BANDS]:
        moved = False
        dmg = rules[K.R_RECKLESS_DAMAGE]
    elif total <= rules[K.R_RECKLESS_BANDS + 1]:
        dmg = rules[K.R_RECKLESS_DAMAGE + 1]
    if dmg > 0:
        d = K.apply_damage(i, dmg, w)
        dyn[i, K.K_RECKLESS_DMG] += d
        dyn[i, K.K_TAKEN] += d
    K.check_bursts(i, comb, rules, dyn)
    return moved


@kernel
def minor_move(i, goal, lo, hi, unlocked, deep, w):
    """One hex toward the goal with the Minor action; returns True if the Minor was spent.

    A plain move when she may (not engaged unless she disengaged, not Bound,
    rough terrain paid); else Reckless Movement if her policy takes it; else,
    under ``rough_cost: split``, a payment toward leaving her rough hex.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    bound = dyn[i, K.D_AIL + K.A_BOUND] != 0
    if not bound:
        if door_worth(i, goal, lo, hi, dyn, bf):
            if unlocked:
                use_door(i, goal, lo, hi, w)
                return True
            if not engaged(i, comb, dyn, bf):
                use_door(i, goal, lo, hi, w)
                return True
    step = best_step(i, goal, lo, hi, deep, w)
    if step < 0:
        return False
    comb, rules, dyn, streams, bf = unpack(w)
    here = F.row(bf, BF_TERRAIN)[dyn[i, K.D_POS]]
    rough = here & G.ROUGH != 0
    if not rough:
        if (comb[i, K.C_ALLMASK] >> K.E_LASHING) & 1 != 0:
            rough = lashed(i, dyn[i, K.D_POS], comb, dyn, bf)
    peril = here & G.PERILOUS != 0
    eng = False
    if not unlocked:
        eng = engaged(i, comb, dyn, bf)
    rash = comb[i, K.P_RECKLESS] != 0
    if peril:
        rash = True  # Perilous Terrain: leaving takes a Minor action and Reckless Movement (L2146)
        rough = True
    if bound:  # movement requires a Major action (L1463)
        if rules[K.R_BOUND_RECKLESS] == 1:
            if rash:
                if rough:
                    reckless(i, step, w)
                    return True
                if engaged(i, comb, dyn, bf):
                    reckless(i, step, w)
                    return True
        return False
    if peril:
        reckless(i, step, w)
        return True
    short = False
    if rough:
        short = dyn[i, K.D_PAID] + 1 < 2
    if eng:
        if rash:
            reckless(i, step, w)
            return True
        return False
    if short:
        if rash:
            reckless(i, step, w)
            return True
        if rules[K.R_ROUGH_COST] == 1:
            dyn[i, K.D_PAID] += 1
            return True
        return False
    walk_to(i, step, w)
    return True


@kernel
def major_move(i, goal, lo, hi, minor, w):
    """Move toward the goal with the Major action (nobody in range).

    Engaged: Disengage (moves 1 hex, or only unlocks, A14). Rough terrain:
    the Major and, if still unused, the Minor pay the two hexes (A15).
    Bound: a plain move, or Reckless Movement out of rough terrain or an
    enemy-adjacent hex. Returns ``(minor_spent, disengaged)``: disengaged
    means she may now leave her (engaged) hex with the Minor.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    bound = dyn[i, K.D_AIL + K.A_BOUND] != 0
    eng = engaged(i, comb, dyn, bf)
    if not bound:
        if not eng:
            if door_worth(i, goal, lo, hi, dyn, bf):
                use_door(i, goal, lo, hi, w)  # the Major does what a Minor does
                return False, False
    step = best_step(i, goal, lo, hi, 1, w)
    if step < 0:
        return False, False
    comb, rules, dyn, streams, bf = unpack(w)
    here = F.row(bf, BF_TERRAIN)[dyn[i, K.D_POS]]
    rough = here & G.ROUGH != 0
    if not rough:
        if (comb[i, K.C_ALLMASK] >> K.E_LASHING) & 1 != 0:
            rough = lashed(i, dyn[i, K.D_POS], comb, dyn, bf)
    peril = here & G.PERILOUS != 0
    if bound:
        stuck = rough
        if eng:
            stuck = True  # an enemy-adjacent hex is rough terrain for her (L1463)
        if peril:
            stuck = True
        if stuck:
            if rules[K.R_BOUND_RECKLESS] == 0:
                if comb[i, K.P_RECKLESS] != 0:
                    reckless(i, step, w)
                elif peril:
                    reckless(i, step, w)
            return False, False
    if peril:
        # Perilous Terrain (L2146): the Major acts as the Minor action, with Reckless Movement
        reckless(i, step, w)
        return False, False
        move_to(i, step, dyn, bf)
        return False, False
    pts = 1
    if eng:
        if rules[K.R_DISENGAGE] == 1:
            pts = 0
    need = 2 if rough else 1
    paid = dyn[i, K.D_PAID] + pts
    if paid >= need:
        walk_to(i, step, w)
        return False, False
    if minor:
        if paid + 1 >= need:
            walk_to(i, step, w)
            return True, False
    dyn[i, K.D_PAID] = paid
    return False, eng


# ---------------------------------------------------------------- attacks and intercepts


@kernel
def guard_for(i, a, t, ranged, comb, dyn, bf):
    """Who may intercept ``i``'s attack on ``t`` from cell ``a`` (L1469): a standing
    ally of ``t`` with a willing policy, adjacent to ``t`` or (ranged) on the line
    between ``a`` and ``t``; the highest Defence, then the first listed. -1 if none."""
    n = comb.shape[0]
    pt = dyn[t, K.D_POS]
    best = -1
    nline = -1
    line = F.line_row(bf)
    for j in range(n):
        if j == i:
            continue  # a frenzied girl attacking an ally does not intercept her own attack
        if not K.may_guard(j, t, best, comb, dyn):
            continue
        pj = dyn[j, K.D_POS]
        ok = hexes(pj, pt, bf) == 1
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


@part
def attack_setup(i, t, comb, rules, dyn, bf):
    """Before ``i``'s basic attack on ``t`` on the grid: the Fear Auras, the
    damage of the form the distance allows (her ``attack_kind`` when both
    do, ``D_DMG_ADJ``), an interceptor standing by (L1453, L1469;
    ``D_GUARD``), Veil's distance. Returns the interceptor (-1 none).
    Minion Explosion (``D_BLAST``, L1987): the attack originates from the
    chosen minion's hex: form, line of interception and Veil's distance from there.
    The caller refreshes the Fear Auras just before (:func:`refresh_fear_w`)."""
    a = dyn[i, K.D_POS]
    if dyn[i, K.D_BLAST] != 0:
        a = dyn[dyn[i, K.D_BLAST] - 1, K.D_POS]
        form = reach_from(a, t, dyn[i, K.D_RANGED_HI], rules, dyn, bf)
    else:
        form = reach(i, t, rules, dyn, bf)
    if form == 0:
        if comb[i, K.C_FORM] == 1:
            d = hexes(a, dyn[t, K.D_POS], bf)
            if d >= rules[K.R_RANGED_RANGE]:
                if d <= dyn[i, K.D_RANGED_HI]:
                    form = 1
    if form == 0:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_MELEE_DMG] - comb[i, K.C_DMG]
    else:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_RANGED_DMG] - comb[i, K.C_DMG]
    g = -1
    if comb[t, K.C_COVER] > 0:
        g = guard_for(i, a, t, form == 1, comb, dyn, bf)
    dyn[t, K.D_GUARD] = g
    if (comb[t, K.C_TMASK] >> K.E_VEIL) & 1 != 0:
        dyn[i, K.D_VEIL_D] = hexes(a, dyn[t, K.D_POS], bf)  # Veil: within 1-2 or not
    return g


@part
def attack_cleanup(i, t, g, w):
    """After the attack: back to the gridless state; the dead leave the
    battlefield; Slither Away; the Fear Auras again. Inlined (two sites):
    a call would cost more than its few stores."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[t, K.D_GUARD] = -1
    dyn[i, K.D_DMG_ADJ] = 0
    leave_if_dead(t, dyn, bf)  # the dead leave the battlefield
    if g >= 0:
        leave_if_dead(g, dyn, bf)
    if K.side_has_code(t, K.E_SLITHER, comb):
        if K.has_code(t, K.E_SLITHER, comb):
            slither(t, i, w)
    refresh_fear_w(w)


@kernel
def grid_attack(i, t, w):
    """``i``'s basic attack on ``t`` with the form the distance allows (her
    ``attack_kind`` when both do), an interceptor standing by (L1453, L1469).
    The attack is the called :func:`.kernel.attack_call`, not inlined into the
    grid turn: inlined, the turn's cold compile outgrew the machine's 24 GB."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    g = attack_setup(i, t, comb, rules, dyn, bf)
    dealt = K.attack_call(i, t, w)
    attack_cleanup(i, t, g, w)
    return dealt


@kernel
def grid_attack_call(i, t, w):
    """:func:`grid_attack` through :func:`.kernel.attack_call`, for the rare
    attack sites (a frenzy's attacks and retaliations) so the turn's inlined
    attack stays the only copy. Like the turn's attack, an ally of ``t`` may
    Sprint off her turn to intercept it first (:func:`guard_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if K.side_has_code(t, K.E_SPRINT, comb):
        guard_sprint(i, t, w)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    g = attack_setup(i, t, comb, rules, dyn, bf)
    dealt = K.attack_call(i, t, w)
    attack_cleanup(i, t, g, w)
    return dealt


@kernel
def frenzy_step(i, t, goal, lo, hi, w):
    """The frenzy's extra point of movement (L758: "Spend 1 Fury Overcharge on
    an extra point movement towards the target"): when one plain hex toward
    ``t`` (not engaged, not Bound, not out of rough or perilous terrain)
    brings it within her reach, she spends 1 Fury on it, and that pays for
    the attack that follows (``D_FURY_PAID``: no further Fury for it; "at
    least one of the following"). Returns whether she stepped."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, K.D_OC + K.FURY] < 1:
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False
    if engaged(i, comb, dyn, bf):
        return False
    if F.row(bf, BF_TERRAIN)[dyn[i, K.D_POS]] & (G.ROUGH | G.PERILOUS) != 0:
        return False
    step = best_step(i, goal, lo, hi, 0, w)
    if step < 0:
        return False
    if reach_from(step, t, dyn[i, K.D_RANGED_HI], rules, dyn, bf) < 0:
        return False
    move_to(i, step, dyn, bf)
    K.spend_fury(i, 1, dyn)
    dyn[i, K.D_FURY_PAID] = 1
    stepped(i, w)
    return True


@kernel
def frenzy_turn(i, t, w):
    """A Fury frenzy's turn on the grid (L746: "must attack a living target or
    move towards one"); ``t`` is :func:`.kernel.frenzy_target` (the closest
    standing combatant, allies included; -1 nobody). Out of her reach: a Minor
    step toward her attack's range of it (melee 1, ranged 2-3 by her
    ``attack_kind``); then the Major attacks it if it is in reach (Defensive
    Switch, Intercept, the Fury spent per attack, :func:`.kernel.fury_spend`),
    else moves her toward it (Disengage when engaged). Stunned: the Major only
    (L1461). Still out of reach after the Minor: the frenzy's extra point of
    movement (:func:`frenzy_step`). A Minor that took no step goes to a
    removal roll when she has an ailment (:func:`.kernel.frenzy_removal`,
    L1467; e.g. Bound, she cannot step with a Minor). No Major or Minor
    talents of her own; the attack's riders as rule ``fury_talents`` allows
    (:func:`.kernel.frenzy_can_pay`, A9ii). Mines go off on her steps as
    on any move."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, K.D_DEF_BONUS] = 0  # Second Wind lasts until the start of her next turn (L1716)
    sweep(dyn, bf)
    refresh_fear(comb, dyn, bf)
    if rules[K.R_ROUGH_COST] == 0:
        dyn[i, K.D_PAID] = 0
    if t >= 0:
        goal = dyn[t, K.D_POS]
        lo = rules[K.R_MELEE_RANGE]
        hi = rules[K.R_MELEE_RANGE + 1]
        if comb[i, K.C_FORM] == 1:
            lo = rules[K.R_RANGED_RANGE]
            hi = dyn[i, K.D_RANGED_HI]
        minor = dyn[i, K.D_AIL + K.A_STUN] == 0
        if minor:
            if reach(i, t, rules, dyn, bf) < 0:
                if away(i, goal, lo, hi, dyn, bf):
                    if minor_move(i, goal, lo, hi, False, 2, w):
                        minor = False
                        stepped(i, w)
        if minor:
            if K.is_standing(dyn, i):
                if K.frenzy_removal(i, comb, rules, dyn, streams):
                    minor = False
        if K.is_standing(dyn, i) and K.is_standing(dyn, t):
            if reach(i, t, rules, dyn, bf) < 0:
                frenzy_step(i, t, goal, lo, hi, w)
        if K.is_standing(dyn, i) and K.is_standing(dyn, t):
            if reach(i, t, rules, dyn, bf) >= 0:
                if K.side_has_code(t, K.E_SWITCH, comb):
                    t = K.defensive_switch(i, t, w)
                grid_attack_call(i, t, w)
            elif away(i, goal, lo, hi, dyn, bf):
                major_move(i, goal, lo, hi, minor, w)
                stepped(i, w)
    dyn[i, K.D_FURY_PAID] = 0
    mines_pending(w)
    refresh_fear(comb, dyn, bf)
    if comb[i, K.C_TMASK] != 0:
        dyn[i, K.D_TURNS_DONE] += 1


@part
def take_turn_grid(i, w):
    """One turn of ``i`` on the battlefield (see the module doc for the order).

    Talents play as in the gridless turn (:func:`.kernel.take_turn`): Remedy
    instead of the removal roll, a Minor talent (:func:`.kernel.minor_talent`),
    a Major talent instead of the attack (:func:`.kernel.major_talent`),
    Guided Strike when the ally has someone in reach, Reflector after a hit,
    Bonus Action. Talents reach their catalog range (``C_TREACH``, rule
    ``talent_ranges``): heals, Remedy, Curse, Steal Action, Wave of Courage,
    Screams, Reflector's recipient, Fear Aura (:func:`refresh_fear`).
    """
    _turn_grid(i, w)
    mines_pending(w)  # forced moves of this turn (pulls, pushes, switches)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, K.C_TMASK] != 0:
        dyn[i, K.D_TURNS_DONE] += 1


@part
def settle_action(i, w):
    """After an action of ``i``'s grid turn (``bursts: play`` with ``burst_timing:
    after_action``, A7b: "after the current action resolves"): what the action left due
    plays now (:func:`.kernel.settle`: a frenzied girl's retaliation, L758, then the due
    bursts), as between the actions of a gridless turn. Under ``after_turn`` the fight
    loop settles once the turn is over. Returns whether ``i`` still stands."""
    comb, rules, dyn, streams, bf = unpack(w)
    if K.settle_now(rules):
        K.settle(w)
    return K.is_standing(dyn, i)


@kernel
def _turn_grid(i, w):
    """The grid turn's steps (:func:`take_turn_grid`): the start and ailments, a Minor
    talent, a Minor step toward her range, the Majors (talents, the attack, a move),
    a Minor still unused.

    The turn and its parts load the arrays from ``w`` where they use them (:func:`unpack`
    again after a call) instead of once at the top: a descriptor loaded at the top and used
    after a call stays alive across every call of the turn (a stack slot each, stored at
    every turn's start)."""
    major, minor, ok = grid_turn_start(i, w)
    if not ok:
        return
    t0 = pick_w(i, False, w)
    if t0 < 0:
        return  # nobody left to fight
    goal, lo, hi = goal_of(i, t0, w)
    minor, ok = grid_step_before(i, minor, goal, lo, hi, w)
    if not ok:
        return
    # the Major: attack what is in range, else move; Bonus Action: another Major
    disengaged = False
    for m in range(2):
        if not major:
            break
        major = False
        if m > 0:  # the first Major's bursts, then the Bonus Action's; her target may be down
            if not settle_action(i, w):
                return
            if not still_target(i, t0, w):
                t0 = pick_w(i, False, w)
                if t0 < 0:
                    return
                goal, lo, hi = goal_of(i, t0, w)
        code, who, t, again = grid_major_talents(i, m, w)
        if code == 2:
            return  # she fell
        if code == 1:
            major = again
            continue  # a talent was her Major
        if who == i:
            t = grid_target(i, t0, goal, lo, hi, w)
            if t == -2:
                continue  # held by And Your Enemies Closer: the Major is used up
        if t >= 0:
            ok, again = grid_strike(i, m, who, t, w)
            if not ok:
                return
            major = again
        elif barrier_turn(i, who, goal, lo, hi, w):
            pass  # the Major hit an enemy's barrier that keeps her from everyone (Create Barrier)
        elif away_w(i, goal, lo, hi, w):
            used, dis = major_move(i, goal, lo, hi, minor, w)
            stepped(i, w)
            if used:
                minor = False
            if dis:
                disengaged = True
            if not standing_w(i, w):
                return
    if not settle_action(i, w):
        return
    grid_turn_end(i, minor, t0, disengaged, w)


@kernel(inline="always")
def tmask_w(i, w):
    """``C_TMASK`` of ``i`` (her talents' effect codes below 64), loaded from the world."""
    comb, rules, dyn, streams, bf = unpack(w)
    return comb[i, K.C_TMASK]


@kernel(inline="always")
def has_code_w(i, code, w):
    """:func:`.kernel.has_code` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return K.has_code(i, code, comb)


@kernel(inline="always")
def standing_w(i, w):
    """:func:`.kernel.is_standing` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return K.is_standing(dyn, i)


@kernel(inline="always")
def away_w(i, goal, lo, hi, w):
    """:func:`away` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    return away(i, goal, lo, hi, dyn, bf)


@kernel(inline="always")
def still_target(i, t, w):
    """``t`` is still a target ``i`` may attack (:func:`.kernel._candidate`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return K._candidate(t, comb[i, K.C_SIDE], comb[i, K.P_FINISH] != 0, comb, dyn)


@part
def grid_turn_start(i, w):
    """The start of ``i``'s grid turn: Second Wind's bonus ends (L1716), the dead leave,
    the Fear Auras, rough terrain paid within the turn (A15a); her ailments (Remedy or
    a removal roll: her Minor, or her only action when Stunned, L1461, L1467,
    :func:`grid_ailments`); a Minor talent (a successful Steal Action gives another Minor,
    L1725). Returns ``(Major free, Minor free, still standing)``."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, K.D_DEF_BONUS] = 0
    sweep(dyn, bf)
    refresh_fear_w(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[K.R_ROUGH_COST] == 0:
        dyn[i, K.D_PAID] = 0
    major = True
    minor = True
    if dyn[i, K.D_AIL + K.A_STUN] != 0:
        minor = False  # "can take only one action per turn" (L1461)
    if K.has_ailment(i, dyn):
        major, minor, ok = grid_ailments(i, major, minor, w)
        if not ok:
            return major, minor, False
    if minor:
        if tmask_w(i, w) != 0:
            if K.minor_talent(i, w) == 1:  # inlined: its gate is tested here, the hooks called if open
                minor = False
            if not settle_action(i, w):
                return major, minor, False
    return major, minor, True


@kernel
def grid_ailments(i, major, minor, w):
    """Her ailments at the start of her grid turn: Remedy on herself, else a removal roll
    (L1467), with her Minor, or her only action when Stunned (L1461: "she regains the second
    action" when the Stun is gone); bursts checked, what is due settled. Returns ``(Major
    free, Minor free, still standing)``. Called, not inlined: most turns have no ailment."""
    comb, rules, dyn, streams, bf = unpack(w)
    stunned = dyn[i, K.D_AIL + K.A_STUN] != 0
    remedied = False
    if comb[i, K.C_TMASK] != 0:
        remedied = K.try_remedy(i, i, comb, rules, dyn)
    if not remedied:
        K.removal_roll(i, w)
    if minor:
        minor = False
    else:
        major = False
    if stunned:
        if dyn[i, K.D_AIL + K.A_STUN] == 0:
            major = True  # "she regains the second action"
    K.check_bursts(i, comb, rules, dyn)
    if not settle_action(i, w):
        return major, minor, False
    return major, minor, True


@part
def grid_step_before(i, minor, goal, lo, hi, w):
    """Before her Major: a Minor step toward her range (a movement talent when a step
    would not do), then Sprint. Returns ``(Minor free, still standing)``."""
    mask = tmask_w(i, w)
    if minor:
        if away_w(i, goal, lo, hi, w):
            if mask != 0:
                if talent_move(i, goal, lo, hi, w):
                    minor = False
                    stepped(i, w)
                    if not settle_action(i, w):
                        return minor, False
        if minor:
            if away_w(i, goal, lo, hi, w):
                if minor_move(i, goal, lo, hi, False, 2, w):
                    minor = False
                    stepped(i, w)
                    if not settle_action(i, w):
                        return minor, False
    if mask != 0:
        if has_code_w(i, K.E_SPRINT, w):
            sprint(i, goal, lo, hi, w)
            stepped(i, w)
            if not settle_action(i, w):
                return minor, False
    return minor, True


@part
def grid_major_talents(i, m, w):
    """Her ``m``-th Major from a talent: Safe Place, a Major talent (then Bonus Action
    when someone is in reach), or Guided Strike's ally and target. Returns ``(code,
    who attacks, target, another Major)``: code 0 the attack follows (``who``, ``t``;
    ``t`` -1 when she chooses), 1 a talent was the Major, 2 she fell."""
    if tmask_w(i, w) == 0:
        return 0, i, -1, False
    refresh_fear_w(w)
    if has_code_w(i, K.E_SAFE_PLACE, w):
        comb, rules, dyn, streams, bf = unpack(w)
        if safe_place(i, comb, rules, dyn, bf):
            return 1, i, -1, False
    if K.major_talent(i, w):  # inlined: its gate is tested here, the hooks called if open
        return major_done(i, m, w)
    if not has_code_w(i, K.E_GUIDED_STRIKE, w):  # guided_choice's own first test (find_usable)
        return 0, i, -1, False
    comb, rules, dyn, streams, bf = unpack(w)
    s, g = K.guided_choice(i, comb, dyn)
    if g >= 0:
        tg = pick_w(g, True, w)
        if tg >= 0:
            comb, rules, dyn, streams, bf = unpack(w)
            K.pay_talent(i, s, comb, rules, dyn)
            K.check_bursts(i, comb, rules, dyn)
            return 0, g, tg, False
    return 0, i, -1, False


@part
def major_done(i, m, w):
    """A Major talent was her ``m``-th Major: code 2 if she fell, else 1, with Bonus
    Action's another Major when it was the first and someone is in reach (see
    :func:`grid_major_talents`)."""
    if not standing_w(i, w):
        return 2, i, -1, False
    again = False
    if m == 0:
        if has_code_w(i, K.E_BONUS_ACTION, w):  # bonus_action's own gate, before the scan
            if any_in_reach(i, w):
                comb, rules, dyn, streams, bf = unpack(w)
                if K.bonus_action(i, comb, rules, dyn):
                    again = True
    return 1, i, -1, again


@part
def grid_target(i, t0, goal, lo, hi, w):
    """Her own attack's target: none while a bodyguard is not yet next to her ally
    (``protect-ally``); her policy's target ``t0`` in reach, else the one it prefers in
    reach; Minion Explosion's choice; Dash Strike or Pounce when nobody is in reach.
    -1 none, -2 held by And Your Enemies Closer (the Major is spent)."""
    comb, rules, dyn, streams, bf = unpack(w)
    mask = comb[i, K.C_TMASK]
    t = -1
    if comb[i, K.P_MOVE] == K.MOVE_PROTECT:
        if away(i, goal, lo, hi, dyn, bf):  # a bodyguard gets next to her ally first
            if best_step(i, goal, lo, hi, 1, w) >= 0:
                return t
    comb, rules, dyn, streams, bf = unpack(w)
    if K._candidate(t0, comb[i, K.C_SIDE], comb[i, K.P_FINISH] != 0, comb, dyn):
        if reach(i, t0, rules, dyn, bf) >= 0:
            t = t0
    if t < 0:
        t = pick_w(i, True, w)
    if (mask >> K.E_MINION_EXPLOSION) & 1 != 0:
        comb, rules, dyn, streams, bf = unpack(w)
        t = blast_choice(i, t, t0, comb, rules, dyn, bf)
    if t < 0:
        if mask != 0:
            if has_code_w(i, K.E_MOVE_ATTACK, w):
                t = move_attack(i, t0, w)
    return t


@part
def grid_strike(i, m, who, t, w):
    """The attack of ``who`` on ``t`` on the grid: Get Over Here / Repel paid, Defensive
    Switch, Sprint off her turn to intercept, the attack (:func:`grid_attack`), the
    exploded minion leaves its hex, the shove, Reflector, Bonus Action. Returns
    ``(she still stands, another Major)``."""
    mask = tmask_w(i, w)
    sh = -1
    if who == i:
        if mask != 0:
            if has_code_w(i, K.E_SHOVE, w):
                comb, rules, dyn, streams, bf = unpack(w)
                sh = K.pay_shove(i, comb, rules, dyn)
    comb, rules, dyn, streams, bf = unpack(w)
    if K.side_has_code(t, K.E_SWITCH, comb):
        t = K.defensive_switch(who, t, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if K.side_has_code(t, K.E_SPRINT, comb):
        guard_sprint(who, t, w)
    dealt = grid_attack(who, t, w)
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[who, K.D_BLAST] != 0:  # Minion Explosion: the destroyed minion leaves its hex
        leave_if_dead(dyn[who, K.D_BLAST] - 1, dyn, bf)
        dyn[who, K.D_BLAST] = 0
    if sh >= 0:
        if dealt >= 0:
            shove(i, t, comb[i, K.C_TP1 + sh], comb, dyn, bf)
    if not standing_w(i, w):
        return False, False
    again = False
    if m == 0:
        if who == i:
            if dealt >= 0:
                if (mask >> K.E_REFLECTOR) & 1 != 0:
                    K.give_reflector(i, w)
        if (mask >> K.E_BONUS_ACTION) & 1 != 0:  # bonus_action's own gate, before the scan
            if any_in_reach(i, w):
                comb, rules, dyn, streams, bf = unpack(w)
                if K.bonus_action(i, comb, rules, dyn):
                    again = True
    return True, again


@part
def grid_turn_end(i, minor, t0, disengaged, w):
    """After her Majors: a Minor still unused moves her one more hex toward her goal (a
    movement talent first); Sprint again if she stands."""
    mask = tmask_w(i, w)
    if minor:
        if t0 >= 0:
            if not still_target(i, t0, w):
                t0 = pick_w(i, False, w)
        goal, lo, hi = goal_of(i, t0, w)
        if away_w(i, goal, lo, hi, w):
            used = False
            if mask != 0:
                used = talent_move(i, goal, lo, hi, w)
            if not used:
                minor_move(i, goal, lo, hi, disengaged, 2, w)
            stepped(i, w)
    if mask != 0:
        if has_code_w(i, K.E_SPRINT, w):
            if standing_w(i, w):
                if t0 >= 0:
                    goal, lo, hi = goal_of(i, t0, w)
                    sprint(i, goal, lo, hi, w)
                    stepped(i, w)


@kernel
def blast_choice(i, t, t0, comb, rules, dyn, bf):
    """Minion Explosion on the grid (L1987-1989, boss ability, Major, its cost):
    "an attack originating from one of its minions' hexes"; that minion is
    destroyed (:func:`.kernel.minion_explosion`). With the ability usable (uses,
    pool) the monster explodes a minion whenever a standing minion's hex reaches
    a target with its attack (melee next to it, ranged 2 to ``D_RANGED_HI``: the
    audit leaves the form open, so the distance decides as for any attack):
    its target ``t`` when it has one in reach from its own hex (else no
    explosion), otherwise the policy's target ``t0``, otherwise the first listed
    enemy some minion reaches. The first listed minion whose hex reaches is
    chosen (``D_BLAST`` = row + 1). Returns the target (``t`` when nothing changes).
    Not in an Ambush Tactics turn: the ambush's bonuses take the attack's special slot
    (as gridless, where the ambush comes before Minion Explosion)."""
    if dyn[i, K.D_AMBUSH] != 0:
        return t
    if K.find_usable(i, K.E_MINION_EXPLOSION, comb, dyn) < 0:
        return t
    if t >= 0:
        m = blast_minion(i, t, comb, rules, dyn, bf)
        if m >= 0:
            dyn[i, K.D_BLAST] = m + 1
        return t
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    if t0 >= 0:
        if K._candidate(t0, side, finish, comb, dyn):
            m = blast_minion(i, t0, comb, rules, dyn, bf)
            if m >= 0:
                dyn[i, K.D_BLAST] = m + 1
                return t0
    for j in range(comb.shape[0]):
        if K._candidate(j, side, finish, comb, dyn):
            m = blast_minion(i, j, comb, rules, dyn, bf)
            if m >= 0:
                dyn[i, K.D_BLAST] = m + 1
                return j
    return -1


@kernel
def blast_minion(i, t, comb, rules, dyn, bf):
    """The first listed standing minion of ``i``'s side on the battlefield from
    whose hex ``i``'s attack reaches ``t`` (:func:`reach_from`), or -1."""
    for m in range(comb.shape[0]):
        if comb[m, K.C_PDEF] >= 0:
            if K.other_ally(i, m, comb, dyn):
                if dyn[m, K.D_POS] >= 0:
                    if reach_from(dyn[m, K.D_POS], t, dyn[i, K.D_RANGED_HI], rules, dyn, bf) >= 0:
                        return m
    return -1


# ---------------------------------------------------------------- talent ranges on the grid


@kernel
def on_line(a, d, length, c, bf):
    """Cell ``c`` lies on the straight line of ``length`` hexes (-1: to the edge) from ``a``
    (excluded) in direction ``d``."""
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


@kernel(inline="always")
def refresh_fear(comb, dyn, bf):
    """Fear Aura on the grid (L2031): ``D_FEAR`` of each combatant is the sum
    of the penalties of the enemy monsters with Fear Aura still alive within
    the row's range (melee range: adjacent) of her, less the Courage Auras of
    her standing allies within theirs (adjacent); recomputed after moves,
    attacks and deaths (gridless: every enemy, :func:`.kernel.end_fear_aura`,
    every ally, :func:`.kernel.courage_aura`).

    Inlined at its call sites: the check whether any aura is on the field
    costs a few loads, while a call passing the battlefield tuple costs
    hundreds of stack words (most fights have no aura); :func:`fear_update`
    does the work. The check reads ``C_ALLMASK`` (the OR of every row's talent mask, reserve
    rows included: an aura that may appear counts), one load instead of a loop over the rows."""
    if (comb[0, K.C_ALLMASK] >> K.E_FEAR_AURA) & 1 != 0:
        fear_update(comb, dyn, bf)
    elif (comb[0, K.C_ALLMASK] >> K.E_COURAGE) & 1 != 0:
        fear_update(comb, dyn, bf)


@kernel(inline="always")
def refresh_fear_w(w):
    """:func:`refresh_fear` of the world ``w``: the check loads two words; only a field with an
    aura pays the call (:func:`fear_w`), and no array descriptor stays alive across it."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, K.C_ALLMASK] >> K.E_FEAR_AURA) & 1 != 0:
        fear_w(w)
    elif (comb[0, K.C_ALLMASK] >> K.E_COURAGE) & 1 != 0:
        fear_w(w)


@kernel
def fear_w(w):
    """:func:`fear_update` of the world ``w``."""
    comb, rules, dyn, streams, bf = unpack(w)
    fear_update(comb, dyn, bf)


@kernel
def fear_update(comb, dyn, bf):
    """The work of :func:`refresh_fear` (some aura is on the field)."""
    n = comb.shape[0]
    for j in range(n):
        dyn[j, K.D_FEAR] = 0
    for k in range(n):
        if dyn[k, K.D_POS] < 0:
            continue
        for s in range(K.MAXT):
            code = comb[k, K.C_TCODE + s]
            if code == K.E_FEAR_AURA:
                if dyn[k, K.D_DEAD] != 0:
                    continue
                sign = 1    # a penalty to the enemies within range
            elif code == K.E_COURAGE:
                if not K.is_standing(dyn, k):
                    continue
                sign = -1   # Courage Aura (L1739): a bonus to her allies within range
            else:
                continue
            hi = comb[k, K.C_TREACH + s]
            for j in range(n):
                if j == k:
                    continue
                if (comb[j, K.C_SIDE] == comb[k, K.C_SIDE]) != (sign < 0):
                    continue
                if dyn[j, K.D_POS] < 0:
                    continue
                if hi >= 0:
                    if hexes(dyn[k, K.D_POS], dyn[j, K.D_POS], bf) > hi:
                        continue
                dyn[j, K.D_FEAR] += sign * comb[k, K.C_TP1 + s]


# ---------------------------------------------------------------- area and terrain talents


@kernel
def lashed(i, c, comb, dyn, bf):
    """Lashing Ground (L2043): cell ``c`` is adjacent to a living combatant other than ``i``
    with Lashing Ground, so it is rough terrain for ``i`` (the monster ignores its own)."""
    for k in range(comb.shape[0]):
        if k == i:
            continue
        if (comb[k, K.C_TMASK] >> K.E_LASHING) & 1 == 0:
            continue
        if dyn[k, K.D_DEAD] != 0:
            continue
        pk = dyn[k, K.D_POS]
        if pk < 0:
            continue
        if hexes(pk, c, bf) == 1:
            return True
    return False


@kernel
def area_has(c, d, width, length, p, bf):
    """Cell ``p`` lies in an area attack's area from cell ``c``: ``d`` 0-5 the straight line
    of ``length`` hexes in that direction (``width`` 2: and the parallel line starting at the
    neighbour in direction ``d + 1``, ``length - 1`` hexes more, so it stays within range);
    ``d`` 6 every adjacent hex."""
    if p < 0:
        return False
    if d == 6:
        return hexes(c, p, bf) == 1
    if on_line(c, d, length, p, bf):
        return True
    if width > 1:
        m = F.nbr_of(bf)[c, (d + 1) % 6]
        if m >= 0:
            if p == m:
                return True
            if length > 1:
                return on_line(m, d, length - 1, p, bf)
    return False


@kernel
def area_count(i, d, width, length, comb, dyn, bf):
    """Enemies ``i`` may attack (:func:`.kernel._candidate`) in the area ``d``."""
    c = dyn[i, K.D_POS]
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    k = 0
    for j in range(comb.shape[0]):
        if K._candidate(j, side, finish, comb, dyn):
            if area_has(c, d, width, length, dyn[j, K.D_POS], bf):
                k += 1
    return k


@kernel
def area_strike(i, t, w):
    """One target of an area attack: :func:`grid_attack` through the called attack (the
    turn's inlined one stays the only copy); melee damage at the melee range, else ranged.
    Defensive Switch (L1699-1703) before the roll: an ally outside the area may take her
    place (:func:`.kernel.area_switch`); then, nobody able to intercept, an ally may Sprint
    off her turn to stand next to her (:func:`guard_sprint`; the area's targets were
    marked when the attack was made, so stepping into it does not make her one)."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = K.area_switch(i, t, w)
    if K.side_has_code(t, K.E_SPRINT, comb):
        guard_sprint(i, t, w)
    refresh_fear(comb, dyn, bf)
    d = hexes(dyn[i, K.D_POS], dyn[t, K.D_POS], bf)
    if d <= rules[K.R_MELEE_RANGE + 1]:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_MELEE_DMG] - comb[i, K.C_DMG]
    else:
        dyn[i, K.D_DMG_ADJ] = comb[i, K.C_RANGED_DMG] - comb[i, K.C_DMG]
    g = -1
    if comb[t, K.C_COVER] > 0:
        g = guard_for(i, dyn[i, K.D_POS], t, d > rules[K.R_MELEE_RANGE + 1], comb, dyn, bf)
    dyn[t, K.D_GUARD] = g
    dyn[i, K.D_VEIL_D] = d
    dealt = K.attack_call(i, t, w)
    dyn[t, K.D_GUARD] = -1
    dyn[i, K.D_DMG_ADJ] = 0
    dyn[i, K.K_AREA_TARGETS] += 1
    leave_if_dead(t, dyn, bf)
    if g >= 0:
        leave_if_dead(g, dyn, bf)
    refresh_fear(comb, dyn, bf)
    return dealt


@kernel
def area_targets_in(i, d, width, length, w):
    """Attack every target in area ``d`` of ``i`` (enemies she may attack; her allies too under
    ``area_allies``), in listed order, while she stands. The targets are those in the area
    when the attack is made (``D_AREA_HIT`` 1; 2 once attacked by it); one whom a Defensive
    Switch moved out of it is not attacked again, nor a switcher who moved into it."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, K.D_POS]
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    n = comb.shape[0]
    for j in range(n):
        if j == i:
            continue
        if comb[j, K.C_SIDE] == side:
            if rules[K.R_AREA_ALLIES] == 0:
                continue
            if not K.is_standing(dyn, j):
                continue
        elif not K._candidate(j, side, finish, comb, dyn):
            continue
        if area_has(c, d, width, length, dyn[j, K.D_POS], bf):
            dyn[j, K.D_AREA_HIT] = 1
    for j in range(n):
        if not K.area_next(j, dyn):
            continue
        if not K.is_standing(dyn, i):
            break  # she fell: the rest are spared
        if comb[j, K.C_SIDE] == side:
            if not K.is_standing(dyn, j):
                continue
        elif not K._candidate(j, side, finish, comb, dyn):
            continue
        if area_has(c, d, width, length, dyn[j, K.D_POS], bf):
            area_strike(i, j, w)
    K.area_done(dyn)


@kernel
def area_attack(i, s, w):
    """Blast Strike / Burst Attack on the grid (:func:`.kernel.try_area_attack`): the line
    (``ranged_range``'s far end long, P2 ``width``) in the direction reaching the most enemies
    (ties: the lowest direction), or for P1 ``shape`` blast every adjacent hex when that reaches
    more; used when it reaches at least ``area_min`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    width = comb[i, K.C_TP2 + s]
    length = dyn[i, K.D_RANGED_HI]  # her attack's range (Mid-Childan System: 4)
    if rules[K.R_MELEE_RANGE + 1] > length:
        length = rules[K.R_MELEE_RANGE + 1]
    best_d = -1
    best_n = 0
    for d in range(6):
        k = area_count(i, d, width, length, comb, dyn, bf)
        if k > best_n:
            best_n = k
            best_d = d
    if comb[i, K.C_TP1 + s] == 1:
        k = area_count(i, 6, width, length, comb, dyn, bf)
        if k > best_n:
            best_n = k
            best_d = 6
    if best_n == 0:
        return False
    if best_n < comb[i, K.P_AREA_MIN]:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    area_targets_in(i, best_d, width, length, w)
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel
def pull_step(j, c, comb, dyn, bf):
    """The free neighbour of ``j``'s hex one hex nearer to cell ``c`` (the lowest direction), -1 if none."""
    p = dyn[j, K.D_POS]
    d0 = hexes(p, c, bf)
    nbr = F.nbr_of(bf)
    for d in range(6):
        m = nbr[p, d]
        if m >= 0:
            if not G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
                if hexes(m, c, bf) < d0:
                    return m
    return -1


@kernel
def gravity_wave(i, s, w):
    """Gravity Wave on the grid (L2037): when at least ``area_min`` enemies it may attack
    stand within its range (1 to the row's far end, 3), pull each P1 hex(es) closer (forced
    movement, the nearest first, each to its free neighbour nearer to it, the lowest
    direction; none free: it stays), then one basic attack against each target: those within
    the range (``gravity_targets: pulled``, A43a) or adjacent (``adjacent``, A43b)."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, K.D_POS]
    hi = comb[i, K.C_TREACH + s]
    if hi < 0:
        hi = F.UNREACHABLE
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    n = comb.shape[0]
    k = 0
    far = 0
    for j in range(n):
        if K._candidate(j, side, finish, comb, dyn):
            d = hexes(c, dyn[j, K.D_POS], bf)
            if d >= 1:
                if d <= hi:
                    k += 1
                    if d > far:
                        far = d
    if k == 0:
        return False
    if k < comb[i, K.P_AREA_MIN]:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    for step in range(comb[i, K.C_TP1 + s]):
        for dist in range(2, far + 1):
            for j in range(n):
                if comb[j, K.C_SIDE] == side:
                    continue
                if dyn[j, K.D_POS] < 0:
                    continue
                if hexes(c, dyn[j, K.D_POS], bf) != dist:
                    continue
                m = pull_step(j, c, comb, dyn, bf)
                if m >= 0:
                    relocate(j, m, dyn, bf)
                    dyn[i, K.K_FORCED] += 1
        far -= 1
    refresh_fear(comb, dyn, bf)
    top = hi
    if rules[K.R_GRAVITY_TARGETS] == 1:
        top = 1
    for j in range(n):
        if K._candidate(j, side, finish, comb, dyn):
            d = hexes(c, dyn[j, K.D_POS], bf)
            if d >= 1:
                if d <= top:
                    dyn[j, K.D_AREA_HIT] = 1  # the targets when the wave strikes (Defensive Switch)
    for j in range(n):
        if not K.area_next(j, dyn):
            continue
        if not K.is_standing(dyn, i):
            break
        if K._candidate(j, side, finish, comb, dyn):
            d = hexes(c, dyn[j, K.D_POS], bf)
            if d >= 1:
                if d <= top:
                    area_strike(i, j, w)
    K.area_done(dyn)
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel
def veil_worth(i, s, comb, dyn, bf):
    """Veil is worth raising: a standing enemy is not within 1 to the row's far end (2) of ``i``."""
    hi = comb[i, K.C_TREACH + s]
    if hi < 0:
        return False
    for j in range(comb.shape[0]):
        if comb[j, K.C_SIDE] != comb[i, K.C_SIDE]:
            if K.is_standing(dyn, j):
                if dyn[j, K.D_POS] >= 0:
                    if hexes(dyn[i, K.D_POS], dyn[j, K.D_POS], bf) > hi:
                        return True
    return False


@kernel
def rough_going(i, s, comb, rules, dyn, bf):
    """Rough Going (L1836) on the grid: up to P1 (9) hexes at most the row's far end (4) from
    her become rough terrain (the per-trial copy ``F.row(bf, BF_TERRAIN)``, reset by :func:`place_all`):
    first the hexes of the standing enemies within reach (listed order), then the free hexes
    next to them within reach (directions in order). Used when a standing enemy within reach
    stands on a hex that is not rough."""
    terrain = F.row(bf, BF_TERRAIN)
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, K.D_POS]
    hi = comb[i, K.C_TREACH + s]
    if hi < 0:
        hi = F.UNREACHABLE
    most = comb[i, K.C_TP1 + s]
    side = comb[i, K.C_SIDE]
    n = comb.shape[0]
    worth = False
    for j in range(n):
        if comb[j, K.C_SIDE] != side:
            if K.is_standing(dyn, j):
                p = dyn[j, K.D_POS]
                if p >= 0:
                    if hexes(c, p, bf) <= hi:
                        if terrain[p] & G.ROUGH == 0:
                            worth = True
    if not worth:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    k = 0
    for j in range(n):
        if comb[j, K.C_SIDE] != side:
            if K.is_standing(dyn, j):
                p = dyn[j, K.D_POS]
                if p >= 0:
                    if k < most:
                        if hexes(c, p, bf) <= hi:
                            if terrain[p] & G.ROUGH == 0:
                                terrain[p] |= G.ROUGH
                                k += 1
    for j in range(n):
        if comb[j, K.C_SIDE] != side:
            if K.is_standing(dyn, j):
                p = dyn[j, K.D_POS]
                if p >= 0:
                    if hexes(c, p, bf) <= hi:
                        for d in range(6):
                            m = nbr[p, d]
                            if m >= 0:
                                if k < most:
                                    if occ[m] < 0:
                                        if terrain[m] & (G.ROUGH | G.BLOCK_MOVE) == 0:
                                            if hexes(c, m, bf) <= hi:
                                                terrain[m] |= G.ROUGH
                                                k += 1
    dyn[i, K.K_ROUGHENED] += k
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel
def place_mine(i, s, comb, rules, dyn, bf):
    """Mines (L2059-2066) on the grid: a mine in her hex, when she has a free mine (at most
    ``MAXMINES`` live) and none of hers lies within 1 hex of it."""
    c = dyn[i, K.D_POS]
    free = -1
    for k in range(K.MAXMINES):
        m = dyn[i, K.D_MINE + k]
        if m < 0:
            if free < 0:
                free = k
        elif hexes(m, c, bf) <= 1:
            return False
    if free < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    dyn[i, K.D_MINE + free] = c
    return True


@kernel(inline="always")
def moved_from(i, dyn, bf):
    """``i`` leaves her cell: remember the first cell she left since the mines
    last looked at her (``D_MINE_FROM``, cell + 1); the mines have not seen it yet
    (``LST_SEEN`` 0: :func:`mines_pending` looks)."""
    if dyn[i, K.D_MINE_FROM] == 0:
        dyn[i, K.D_MINE_FROM] = dyn[i, K.D_POS] + 1
    bf[BF_LST][LST_SEEN] = 0


@kernel(inline="always")
def stepped(i, w):
    """After a movement action of ``i``: the mines look at every move since
    they last did (:func:`mines_pending`), hers first in time."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, K.C_ALLMASK] >> K.E_MINES) & 1 != 0:
        mines_pending(w)


@kernel(inline="always")
def mines_pending(w):
    """:func:`mines_check` when some combatant has Mines (``C_ALLMASK``) and someone
    may have changed hexes since the last look (``LST_SEEN`` 0: cleared with every
    ``D_MINE_FROM`` :func:`moved_from` sets and when a fight is placed; set by the look, which
    clears every ``D_MINE_FROM``; a look with nothing to see changes nothing); inlined at its
    call sites so a check with nothing to do pays a few loads, not a call."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, K.C_ALLMASK] >> K.E_MINES) & 1 != 0:
        if bf[BF_LST][LST_SEEN] == 0:
            mines_check(w)


@kernel
def mines_check(w):
    """Every combatant who changed hexes since the mines last looked
    (``D_MINE_FROM``: walking, Reckless Movement, Dash Strike's step, Teleport,
    doors, pulls and pushes, the Current, a Defensive Switch) and still stands
    on the field: a mine sets off when she stepped out of its range (rule
    ``mine_step_out``) or entered a hex within 1 of it (:func:`mine_sweep`,
    L2062-2065: "if someone other than the monster enters a hex adjacent to
    the object"). Called after each movement action, at the end of every
    turn and after the end-of-round labyrinth features; a forced move's mine
    goes off there, not in the middle of the attack that moved her."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[0, K.C_ALLMASK] >> K.E_MINES) & 1 == 0:
        return
    bf[BF_LST][LST_SEEN] = 1  # this look sees every move so far; one a mine's attack makes clears it
    for i in range(comb.shape[0]):
        f = dyn[i, K.D_MINE_FROM]
        if f == 0:
            continue
        dyn[i, K.D_MINE_FROM] = 0
        p0 = f - 1
        here = dyn[i, K.D_POS]
        if here < 0 or here == p0:
            continue
        if dyn[i, K.D_DEAD] != 0:
            continue
        if rules[K.R_MINE_STEP_OUT] != 0:
            mine_sweep(i, p0, w)
        mine_sweep(i, -1, w)


@kernel
def mine_sweep(i, p0, w):
    """The mines ``i``'s move sets off (:func:`detonate`), those of owners other than her (rule
    ``mine_trigger``: anyone, or only the owner's enemies). ``p0`` < 0: she entered her hex,
    every such mine within 1 hex of it goes off (L2062). ``p0`` >= 0: she stepped out from cell
    ``p0``: every such mine within 1 hex of ``p0`` and farther than 1 from her now goes off
    (L2065: 'the next time somebody enters into or steps out of the range'; 'you can step away
    and it will detonate without harming you': its attack reaches those still next to it)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for o in range(comb.shape[0]):
        if o == i:
            continue
        if (comb[o, K.C_TMASK] >> K.E_MINES) & 1 == 0:
            continue
        if rules[K.R_MINE_TRIGGER] == 1:
            if comb[o, K.C_SIDE] == comb[i, K.C_SIDE]:
                continue
        for k in range(K.MAXMINES):
            m = dyn[o, K.D_MINE + k]
            if m < 0:
                continue
            here = dyn[i, K.D_POS]
            if here < 0:
                return  # a mine's attack killed her: she left the field
            d = hexes(m, here, bf)
            if p0 < 0:
                if d <= 1:
                    detonate(o, k, i, w)
            elif d > 1:
                if hexes(m, p0, bf) <= 1:
                    detonate(o, k, i, w)


@kernel
def detonate(o, k, i, w):
    """Mine ``k`` of ``o`` detonates (L2062-2064): ``o``'s basic melee attack against everyone
    in its hex or adjacent to it (its owner excepted; it attacks even after its owner died),
    + ``mine_bonus`` damage against ``i`` when she entered the mine's own hex; the mine is gone.
    An area attack: the targets are those within 1 of it when it goes off (``D_AREA_HIT``), and
    an ally outside it may take a target's place by Defensive Switch (L1699-1703)."""
    comb, rules, dyn, streams, bf = unpack(w)
    m = dyn[o, K.D_MINE + k]
    dyn[o, K.D_MINE + k] = -1
    dyn[o, K.K_MINES] += 1
    n = comb.shape[0]
    for j in range(n):
        if j != o:
            if dyn[j, K.D_DEAD] == 0:
                if dyn[j, K.D_POS] >= 0:
                    if hexes(m, dyn[j, K.D_POS], bf) <= 1:
                        dyn[j, K.D_AREA_HIT] = 1
    for j in range(n):
        if not K.area_next(j, dyn):
            continue
        if dyn[j, K.D_DEAD] != 0:
            continue
        p = dyn[j, K.D_POS]
        if p < 0:
            continue
        d = hexes(m, p, bf)
        if d > 1:
            continue
        t = K.area_switch(o, j, w)  # a switcher takes this attack, no other of it
        adj = comb[o, K.C_MELEE_DMG] - comb[o, K.C_DMG]
        if d == 0:
            if t == i:
                adj += rules[K.R_MINE_BONUS]
        dyn[o, K.D_DMG_ADJ] = adj
        dyn[o, K.D_VEIL_D] = 1
        dyn[t, K.D_GUARD] = -1
        K.attack_call(o, t, w)
        dyn[o, K.D_DMG_ADJ] = 0
        dyn[o, K.K_MINE_ATTACKS] += 1
        leave_if_dead(t, dyn, bf)
    K.area_done(dyn)
    refresh_fear(comb, dyn, bf)


@kernel
def push_out(j, centre, edge, shooter, comb, dyn, bf):
    """Push ``j`` hex by hex away from cell ``centre`` until ``edge`` hexes from it or the first
    hex that blocks (an obstacle, a barrier, someone, the field's edge): the first step to the
    free neighbour one hex farther from the centre (straight on when she stands on a line from
    it, from the centre itself the neighbour farthest from cell ``shooter``, else the lowest
    direction), then straight on in that direction."""
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    last = -1
    for _ in range(edge + 1):
        p = dyn[j, K.D_POS]
        d = hexes(p, centre, bf)
        if d >= edge:
            return
        best = -1
        best_key = 1 << 40
        for dd in range(6):
            m = nbr[p, dd]
            if m < 0:
                continue
            if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                continue
            if hexes(m, centre, bf) != d + 1:
                continue
            if last >= 0:
                if dd != last:
                    continue  # straight on: a blocked hex stops her
            key = dd
            if d == 0:
                key = 6 * (F.UNREACHABLE - hexes(m, shooter, bf)) + dd
            elif on_line(centre, dd, d, p, bf):
                key = -1  # on a straight line from the centre: straight on outward
            if key < best_key:
                best_key = key
                best = dd
        if best < 0:
            return
        relocate(j, nbr[p, best], dyn, bf)
        last = best
    return


@kernel
def scattering_shot(i, s, w):
    """Scattering shot (L2092-2096) on the grid: a Major action, 1 pool: its basic attack on the
    enemy the policy picks in reach (an empty hex is never targeted); used when at least
    ``area_min`` enemies stand within ``scatter_edge`` hexes of that target. A miss ends it; a hit
    pushes everyone within the circle (the target's hex its centre, ``scatter_edge`` hexes to the
    edge; the shooter too under ``scatter_self``) out to the edge or the first hex that blocks,
    the farthest first (:func:`push_out`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = pick(i, True, comb, rules, dyn, streams[K.S_POLICY], bf)
    if t < 0:
        return False
    centre = dyn[t, K.D_POS]
    edge = rules[K.R_SCATTER_EDGE]
    side = comb[i, K.C_SIDE]
    finish = comb[i, K.P_FINISH] != 0
    n = comb.shape[0]
    k = 0
    for j in range(n):
        if K._candidate(j, side, finish, comb, dyn):
            if hexes(centre, dyn[j, K.D_POS], bf) <= edge:
                k += 1
    if k < comb[i, K.P_AREA_MIN]:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    shooter = dyn[i, K.D_POS]
    dealt = area_strike(i, t, w)
    dyn[i, K.K_AREA_TARGETS] -= 1  # one attack on one target: not an area attack's target
    if dealt >= 0:
        for dist in range(edge - 1, -1, -1):
            for j in range(n):
                if j == i:
                    if rules[K.R_SCATTER_SELF] == 0:
                        continue
                p = dyn[j, K.D_POS]
                if p < 0:
                    continue
                if hexes(centre, p, bf) != dist:
                    continue
                p0 = p
                push_out(j, centre, edge, shooter, comb, dyn, bf)
                dyn[i, K.K_FORCED] += hexes(p0, dyn[j, K.D_POS], bf)
        refresh_fear(comb, dyn, bf)
    K.check_bursts(i, comb, rules, dyn)
    return True


# ---------------------------------------------------------------- labyrinth features (L2126-2166)


@kernel(inline="always")
def exempt(j, mode, comb, bf):
    """``j`` is exempt from a labyrinth feature: ``mode`` EXEMPT_OWNER (the
    labyrinth's owner) or EXEMPT_SIDE (the owner's whole side)."""
    if mode == G.EXEMPT_NONE:
        return False
    o = bf[BF_LAB][G.L_OWNER]
    if o < 0:
        return False
    if mode == G.EXEMPT_OWNER:
        return j == o
    return comb[j, K.C_SIDE] == comb[o, K.C_SIDE]


@kernel(inline="always")
def relocate(i, c, dyn, bf):
    """Put ``i`` on free cell ``c`` (forced movement, a door's exit): no movement paid."""
    moved_from(i, dyn, bf)
    occ = F.row(bf, BF_OCC)
    occ[dyn[i, K.D_POS]] = -1
    occ[c] = i
    dyn[i, K.D_POS] = c
    dyn[i, K.D_PAID] = 0


@kernel
def lab_damage(j, dmg, w):
    """A labyrinth feature deals ``dmg`` to ``j`` (not an attack)."""
    comb, rules, dyn, streams, bf = unpack(w)
    d = K.apply_damage(j, dmg, w)
    dyn[j, K.K_LAB_DMG] += d
    dyn[j, K.K_TAKEN] += d
    K.check_bursts(j, comb, rules, dyn)
    leave_if_dead(j, dyn, bf)


@kernel
def alternating_damage(r, w):
    """Alternating Damage (L2128-2130): at the end of round ``r`` everyone
    (standing or down, not dead) in the sections of set ((r - 1) mod k) + 1
    takes ``L_ALT_DMG`` (3), except the exempt."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    k = lab[G.L_ALT_SETS]
    if k <= 0:
        return
    cur = (r - 1) % k + 1
    fx = F.cellfx_of(bf)
    for j in range(comb.shape[0]):
        if dyn[j, K.D_DEAD] != 0:
            continue
        c = dyn[j, K.D_POS]
        if c < 0:
            continue
        if fx[c, G.FX_ALT] != cur:
            continue
        if exempt(j, lab[G.L_ALT_EXEMPT], comb, bf):
            continue
        lab_damage(j, lab[G.L_ALT_DMG], w)


@kernel
def current_step(j, comb, dyn, bf):
    """The hex the Current pushes ``j`` to, -1 if none (blocked, off the field, already there)."""
    lab = bf[BF_LAB]
    mode = lab[G.L_CUR_MODE]
    nbr = F.nbr_of(bf)
    c = dyn[j, K.D_POS]
    if mode == G.CUR_DIRECTION:
        m = nbr[c, lab[G.L_CUR_ARG]]
        if m < 0:
            return -1
        if G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
            return -1
        return m
    goal = lab[G.L_CUR_ARG]
    if mode == G.CUR_OWNER:
        o = lab[G.L_OWNER]
        if o < 0:
            return -1
        if dyn[o, K.D_DEAD] != 0:
            return -1  # the current moved with the monster (L2133): it ends with it
        goal = dyn[o, K.D_POS]
        if goal < 0:
            return -1
    now = hexes(c, goal, bf)
    best = -1
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            if not G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
                dm = hexes(m, goal, bf)
                if dm < now:
                    now = dm
                    best = m
    return best


@kernel
def current(comb, dyn, bf):
    """Current (L2132-2133): at the end of each round everyone (not dead, not
    exempt) is moved 1 hex in the set direction or toward the set hex (or
    the owner); forced, so rough terrain, Perilous Terrain and enemies do not
    hold her, but obstacles, barriers and people do (one per hex: she stays).
    Those blocked by someone who then moves go in a later pass."""
    lab = bf[BF_LAB]
    if lab[G.L_CUR_MODE] == G.CUR_OFF:
        return
    n = comb.shape[0]
    done = F.row(bf, BF_DIST)  # scratch: 1 = moved (or left alone) this round
    for j in range(n):
        done[j] = 0
        if dyn[j, K.D_DEAD] != 0:
            done[j] = 1
        elif dyn[j, K.D_POS] < 0:
            done[j] = 1
        elif exempt(j, lab[G.L_CUR_EXEMPT], comb, bf):
            done[j] = 1
    moved = True
    while moved:
        moved = False
        for j in range(n):
            if done[j] != 0:
                continue
            m = current_step(j, comb, dyn, bf)
            if m >= 0:
                relocate(j, m, dyn, bf)
                dyn[j, K.K_LAB_MOVES] += 1
                done[j] = 1
                moved = True


@kernel
def pendulum(w):
    """Pendulum (L2143-2144): it swings along its trajectory, ``L_PEND_LEN``
    hexes long, moving its length each time (back at either end); the hexes
    it enters become rough terrain; it attacks a random character (not dead,
    not exempt) in the hexes it occupies: 2d6! + the owner's Attack against
    her defence as a basic attack's (passive for minions, Tenacity when
    down; no Boost, no overcharge for the pendulum), 1d6 (``L_PEND_DICE``
    d6) damage on a hit, no sixes added (the book gives 1d6). Defensive Switch
    (L1699-1703): an ally of the target may take her place (and the attack)
    before the roll, as for any attack on her."""
    comb, rules, dyn, streams, bf = unpack(w)
    lab = bf[BF_LAB]
    ln = lab[G.L_PEND_LEN]
    if ln <= 0:
        return
    path = F.path_of(bf)
    lst = bf[BF_LST]
    top = path.shape[0] - ln
    p = lst[LST_PEND]
    if top > 0:
        if lst[LST_PDIR] > 0:
            if p >= top:
                lst[LST_PDIR] = -1
        elif p <= 0:
            lst[LST_PDIR] = 1
        p += lst[LST_PDIR] * ln
        if p > top:
            p = top
        if p < 0:
            p = 0
        lst[LST_PEND] = p
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    count = 0
    for k in range(p, p + ln):
        c = path[k]
        if terrain[c] & G.BLOCK_MOVE == 0:
            terrain[c] |= G.ROUGH
        who = occ[c]
        if who >= 0:
            if dyn[who, K.D_DEAD] == 0:
                if not exempt(who, lab[G.L_PEND_EXEMPT], comb, bf):
                    count += 1
    if count == 0:
        return
    chk = streams[K.S_CHECK]
    pickk = 0
    if count > 1:
        pickk = randbelow(chk, count)
    t = -1
    for k in range(p, p + ln):
        who = occ[path[k]]
        if who >= 0:
            if dyn[who, K.D_DEAD] == 0:
                if not exempt(who, lab[G.L_PEND_EXEMPT], comb, bf):
                    if pickk == 0:
                        t = who
                        break
                    pickk -= 1
    o = lab[G.L_OWNER]
    if K.side_has_code(t, K.E_SWITCH, comb):
        t = K.defensive_switch(o, t, w)
    att = 0
    if o >= 0:
        att = comb[o, K.C_ATT]
    dyn[t, K.K_PENDULUM] += 1
    a_total, a_six = exploding_d6(chk, 2)
    a_total += att
    passive = False
    d_stat = 0
    d_six = 0
    if comb[t, K.C_PDEF] >= 0:
        passive = True
        d_total = comb[t, K.C_PDEF]
    elif dyn[t, K.D_RES] > 0:
        d_stat = comb[t, K.C_DEF]
        d_total, d_six = exploding_d6(chk, 2)
        d_total += d_stat - K.roll_penalty(t, rules, dyn) + dyn[t, K.D_DEF_BONUS]
        K.gain_overcharge(t, comb[t, K.C_RD], d_six, comb, rules, dyn)
    elif rules[K.R_DOWNED_DEFENCE] == 0:
        d_stat = comb[t, K.C_TEN]
        d_total = sum_d6(chk, 2) + d_stat - K.roll_penalty(t, rules, dyn)
    else:
        d_total = -(1 << 40)
    hit = K._hits(passive, rules[K.R_MINION_TIE], a_total, a_six, att, d_total, d_six, d_stat,
                  rules[K.R_FULL_TIE] == 1)
    if hit:
        lab_damage(t, sum_d6(streams[K.S_DAMAGE], lab[G.L_PEND_DICE]), w)
    else:
        K.check_bursts(t, comb, rules, dyn)


@kernel(inline="always")
def end_of_round(r, w):
    """The labyrinth at the end of round ``r`` (:func:`labyrinth_round`) when the
    field has labyrinth features; -1 (the fight goes on) otherwise. Inlined: a
    field without features pays a load, not a call."""
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LAB][G.L_ANY] == 0:
        return -1
    return labyrinth_round(r, w)


@kernel
def labyrinth_round(r, w):
    """The labyrinth at the end of round ``r``, in this order: Alternating
    Damage, Current, then the Pendulum (``pendulum_moves: round``, A44a).
    Returns the fight's outcome after it, -1 while it goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    alternating_damage(r, w)
    current(comb, dyn, bf)
    if rules[K.R_PENDULUM_MOVES] == 0:
        pendulum(w)
    mines_pending(w)  # the Current's moves
    refresh_fear(comb, dyn, bf)
    return K.outcome_now(comb, rules, dyn)


@part
def after_turn(w):
    """After a combatant's turn (and what it set off, retaliations included):
    the mines look at every move still unchecked (:func:`mines_pending`); the
    labyrinth's Pendulum moves (``pendulum_moves: turn``, A44b)."""
    mines_pending(w)
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LAB][G.L_PEND_LEN] > 0:
        if rules[K.R_PENDULUM_MOVES] == 1:
            pendulum(w)
            refresh_fear_w(w)


@kernel
def door_value(c, goal, lo, hi, bf):
    """What going through the door on cell ``c`` is worth: the partner door's
    :func:`potential` + 1 (the Minor it takes); a large number if ``c`` is no door."""
    if F.row(bf, BF_TERRAIN)[c] & G.DOOR == 0:
        return F.UNREACHABLE
    p = F.cellfx_of(bf)[c, G.FX_DOOR]
    if p < 0:
        return F.UNREACHABLE
    return potential(p, goal, lo, hi, bf) + 1


@part
def door_worth(i, goal, lo, hi, dyn, bf):
    """She stands on a door whose partner brings her closer to her goal than she is."""
    if bf[BF_LAB][G.L_DOORS] == 0:
        return False
    if goal < 0:
        return False
    c = dyn[i, K.D_POS]
    if band_gap(hexes(c, goal, bf), lo, hi) == 0:
        return False
    return door_value(c, goal, lo, hi, bf) < potential(c, goal, lo, hi, bf)


@kernel
def exit_cell(d, bf):
    """Where someone coming out of door ``d`` stands: the door hex if free, else
    its first free neighbour (lowest direction); -1 if all are taken."""
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


@kernel
def use_door(i, goal, lo, hi, w):
    """Escher Doors (L2135-2137): she enters the door she stands on (the
    Minor action, or a Major acting as one): 1d6, on 1-5 (below
    ``L_DOOR_CHOOSE``) she comes out of the paired door, on a 6 out of the
    door of her choice (the one nearest her goal; ties: the lowest cell).
    Coming out: the door hex, or the first free hex next to it; if none
    she stays. An enemy's And Your Enemies Closer may hold her when the way
    out leaves it behind (:func:`held`, after the d6; the action is used)."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, K.D_POS]
    dyn[i, K.K_DOORS] += 1
    roll = randbelow(streams[K.S_CHECK], 6) + 1
    dest = F.cellfx_of(bf)[c, G.FX_DOOR]
    if roll >= bf[BF_LAB][G.L_DOOR_CHOOSE]:
        best = F.UNREACHABLE + 1
        terrain = F.row(bf, BF_TERRAIN)
        for m in range(terrain.shape[0]):
            if m == c:
                continue
            if terrain[m] & G.DOOR != 0:
                v = potential(m, goal, lo, hi, bf)
                if v < best:
                    best = v
                    dest = m
    e = exit_cell(dest, bf)
    if e >= 0:
        if held(i, e, w):
            return
        relocate(i, e, dyn, bf)
        refresh_fear(comb, dyn, bf)


# ---------------------------------------------------------------- blocks of trials


@pjit
def simulate_episode_blocks_grid(comb, rules, off, ng, recover, key, start, count, nblocks,
                                 fights, rounds_hist, scene_fights, scene_hist, side_curve, comb_curve, ccount,
                                 party, field):
    """:func:`.kernel.simulate_episode_blocks` on a battlefield: every scene of the episode is
    fought on the same field, each deployed afresh from that scene's starting hexes (the
    party's too), the terrain restored (:func:`place_all`); same streams and counters.

    A plain grid fight is played here too, as an episode of one scene with no party rows
    (``off = [0, n]``, ``ng = 0``): the same trial as :func:`.kernel.simulate_blocks` on the
    battlefield, and one grid kernel to compile. ``field``: the battlefield array
    (:func:`.field.template`); each block works on its own copy (occupancy, scratch,
    terrain)."""
    n_all = comb.shape[0]
    width = K.episode_width(off)
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        cb = comb.copy()
        dyn = ccount[b]  # counters (K_*) accumulate; reset and next_scene set the state (D_*)
        order = np.zeros(width, dtype=np.int64)
        ikey = np.zeros(width, dtype=np.int64)
        streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
        bf = field.copy()
        wbuf = np.zeros(WORLD_WORDS * (off.shape[0] - 1), dtype=np.int64)  # a world per scene
        lo = b * per
        hi = min(count, lo + per)
        for t in range(lo, hi):
            trial = start + t
            for p in range(K.NS):
                seed_stream(streams[p], key, trial, p)
            K.play_episode(cb, rules, off, ng, recover, dyn, order, ikey, streams, fights[b], rounds_hist[b],
                           scene_fights[b], scene_hist[b], side_curve[b], comb_curve[b], party[b], bf, wbuf)


# ---------------------------------------------------------------- movement talents


@kernel
def swap_places(j, t, dyn, bf):
    """Defensive Switch (L1701): ``j`` and ``t`` swap hexes (not movement; each
    still enters a hex, for the mines)."""
    moved_from(j, dyn, bf)
    moved_from(t, dyn, bf)
    occ = F.row(bf, BF_OCC)
    a = dyn[j, K.D_POS]
    b = dyn[t, K.D_POS]
    occ[a] = t
    occ[b] = j
    dyn[j, K.D_POS] = b
    dyn[t, K.D_POS] = a
    dyn[j, K.D_PAID] = 0
    dyn[t, K.D_PAID] = 0


@kernel
def held(i, step, w):
    """And Your Enemies Closer (L1522-1526, free, 1 Defence overcharge): ``i``
    tries to move to ``step``; each standing enemy adjacent to her that
    ``step`` leaves behind (not adjacent to it) and holds the talent (its
    policy always uses it when it can pay) rolls Support vs Support against
    her (L1453 tie rules, the full tie to the mover unless ``full_tie:
    attacker``); a win stops the move and "the action used for an attempt to
    move is still used up". Returns True if she is held."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, K.C_FOEMASK] >> K.E_CLOSER) & 1 == 0:
        return False
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, K.D_POS]
    side = comb[i, K.C_SIDE]
    for d in range(6):
        m = nbr[c, d]
        if m < 0:
            continue
        k = occ[m]
        if k < 0:
            continue
        if comb[k, K.C_SIDE] == side:
            continue
        if not K.is_standing(dyn, k):
            continue
        if hexes(step, m, bf) <= 1:
            continue
        s = K.find_usable(k, K.E_CLOSER, comb, dyn)
        if s < 0:
            continue
        if hold_challenge(k, s, i, comb, rules, dyn, streams):
            return True
    return False


@kernel
def hold_challenge(k, s, i, comb, rules, dyn, streams):
    """``k`` pays its And Your Enemies Closer / Guardian in slot ``s`` and makes the
    Support vs Support challenge against the mover ``i`` (``k`` rolls first; L1453 tie
    rules, the full tie to the mover unless ``full_tie: attacker``). True if ``k`` won
    (the move is stopped, ``K_HELD``)."""
    K.pay_talent(k, s, comb, rules, dyn)
    chk = streams[K.S_CHECK]
    k_total, k_six = K.support_body(k, comb, rules, dyn, chk)
    i_total, i_six = K.support_body(i, comb, rules, dyn, chk)
    won = K.beats(k_total, k_six, comb[k, K.C_SUP], i_total, i_six, comb[i, K.C_SUP], rules[K.R_FULL_TIE] == 1)
    K.check_bursts(k, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    if won:
        dyn[k, K.K_HELD] += 1
    return won


@kernel(inline="always")
def walk_to(i, step, w):
    """An ordinary move of ``i`` to the adjacent ``step`` unless an enemy's
    And Your Enemies Closer holds her (:func:`held`); True if she moved."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, K.C_FOEMASK] >> K.E_CLOSER) & 1 != 0:
        if held(i, step, w):
            return False
    move_to(i, step, dyn, bf)
    return True


@kernel(inline="always")
def form_at(d, hi, rules):
    """The attack form that reaches ``d`` hexes: 0 melee, 1 ranged (up to ``hi``,
    the attacker's ``D_RANGED_HI``), -1 none."""
    if d >= rules[K.R_MELEE_RANGE]:
        if d <= rules[K.R_MELEE_RANGE + 1]:
            return 0
    if d >= rules[K.R_RANGED_RANGE]:
        if d <= hi:
            return 1
    return -1


@kernel
def move_attack(i, t, w):
    """Dash Strike (L1807-1811) / Pounce (L2078-2081), ``move_attack``: a
    Major action, move 1 hex and make a basic attack. Used when nobody is in
    range and one hex brings the policy's target ``t`` into range (her
    preferred form's range first, then the lowest direction); the hex is
    ordinary movement under ``move_attack_step: book`` (not from an
    enemy-adjacent hex, not out of rough or Perilous terrain, And Your
    Enemies Closer may hold her). Returns the target to attack, -1 if not
    used, -2 if held (the Major is used up)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if t < 0:
        return -1
    if not K._candidate(t, comb[i, K.C_SIDE], comb[i, K.P_FINISH] != 0, comb, dyn):
        return -1
    s = K.find_usable(i, K.E_MOVE_ATTACK, comb, dyn)
    if s < 0:
        return -1
    c = dyn[i, K.D_POS]
    terrain = F.row(bf, BF_TERRAIN)
    if terrain[c] & G.PERILOUS:
        return -1
    free = rules[K.R_MOVE_ATTACK_STEP] == 1
    if not free:
        if terrain[c] & G.ROUGH:
            return -1
        if engaged(i, comb, dyn, bf):
            return -1
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    pt = dyn[t, K.D_POS]
    best = -1
    best_k = 3
    for d in range(6):
        m = nbr[c, d]
        if m < 0:
            continue
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        f = form_at(hexes(m, pt, bf), dyn[i, K.D_RANGED_HI], rules)
        if f < 0:
            continue
        k = 0 if f == comb[i, K.C_FORM] else 1
        if k < best_k:
            best_k = k
            best = m
    if best < 0:
        return -1
    K.pay_talent(i, s, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    if not free:
        if not walk_to(i, best, w):
            return -2
    else:
        move_to(i, best, dyn, bf)
    dyn[i, K.K_TALENT_MOVES] += 1
    refresh_fear(comb, dyn, bf)
    return t


@kernel
def in_sight(a, b, mask, bf):
    """No cell strictly between ``a`` and ``b`` on the hex line has terrain in ``mask``."""
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


@kernel(inline="always")
def sight_mask(rules):
    if rules[K.R_TELEPORT_SIGHT] == 1:
        return G.BARRIER
    return G.OBSTACLE | G.BARRIER


@kernel
def teleport_cell(i, goal, lo, hi, sight, rules, dyn, bf):
    """The free hex ``lo..hi`` hexes from ``goal`` nearest to ``i`` (in sight of her
    when ``sight``; ties: the lowest cell), -1 if none."""
    c = dyn[i, K.D_POS]
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    mask = sight_mask(rules)
    best = -1
    best_d = F.UNREACHABLE
    for m in range(occ.shape[0]):
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        if band_gap(hexes(m, goal, bf), lo, hi) != 0:
            continue
        d = hexes(c, m, bf)
        if d >= best_d:
            continue
        if sight != 0:
            if not in_sight(c, m, mask, bf):
                continue
        elif bf[BF_LST][LST_BARRIERS] != 0:
            if raised_between(c, m, bf):
                continue  # no teleport across a raised barrier, sight or not (Create Barrier, L1697)
        best_d = d
        best = m
    return best


@kernel
def extra_cell(i, goal, lo, hi, n, through, comb, dyn, bf):
    """Bypass (``through``: ignores barriers, rough terrain and Disengage and
    passes obstacles and people, ending on a free hex) / Swift (up to 2
    hexes, 1 out of or through rough terrain; engaged, the Minor is a
    Disengage: 1 hex): the end hex of up to ``n`` hexes with the lowest
    :func:`potential` (ties: not rough, the fewest hexes, the lowest
    direction); returns ``(cell, hexes)``, cell -1 when none gets nearer."""
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, K.D_POS]
    rt = False  # Swift walks round a raised barrier (barrier_field); Bypass passes it
    if through == 0:
        if bf[BF_LST][LST_BARRIERS] != 0:
            rt = True
            barrier_field(goal, lo, hi, bf)
    now = potential_at(c, goal, lo, hi, rt, bf)
    best = -1
    best_n = 0
    best_key = 4 * now
    two = n >= 2
    if through == 0:
        if terrain[c] & G.ROUGH:
            two = False
        if engaged(i, comb, dyn, bf):
            two = False
    for d1 in range(6):
        m1 = nbr[c, d1]
        if m1 < 0:
            continue
        open1 = not G.blocked(terrain, occ, G.BLOCK_MOVE, m1)
        if open1:
            k = 4 * potential_at(m1, goal, lo, hi, rt, bf)
            if terrain[m1] & (G.ROUGH | G.PERILOUS):
                k += 2
            if k < best_key:
                best_key = k
                best = m1
                best_n = 1
        if not two:
            continue
        if through == 0:
            if not open1:
                continue
            if terrain[m1] & G.ROUGH:
                continue
        for d2 in range(6):
            m2 = nbr[m1, d2]
            if m2 < 0:
                continue
            if m2 == c:
                continue
            if G.blocked(terrain, occ, G.BLOCK_MOVE, m2):
                continue
            k = 4 * potential_at(m2, goal, lo, hi, rt, bf) + 1
            if terrain[m2] & (G.ROUGH | G.PERILOUS):
                k += 2
            if k < best_key:
                best_key = k
                best = m2
                best_n = 2
    if best_key >= 4 * now:
        return -1, 0
    return best, best_n


@kernel(inline="always")
def talent_move(i, goal, lo, hi, w):
    """:func:`talent_move_try` when she has Swift / Bypass or Teleport (inlined:
    anyone else pays a load, not a call)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if ((comb[i, K.C_TMASK] >> K.E_EXTRA_MOVE) | (comb[i, K.C_TMASK] >> K.E_TELEPORT)) & 1 == 0:
        return False
    return talent_move_try(i, goal, lo, hi, w)


@kernel
def talent_move_try(i, goal, lo, hi, w):
    """A movement talent as her Minor action toward her goal's range; True if
    the Minor was spent. Used only when a plain step would not do (she is 2+
    hexes out of range, engaged, on rough or Perilous terrain, or Bound):

    1. Swift / Bypass (``extra_move``, L2109-2112 / L1585-1588) when it ends
       in range, or (Swift costs nothing) whenever it gets nearer; not while
       Bound (every move needs a Major, L1463) or on Perilous Terrain;
    2. Teleport / Monster Teleport (``teleport``, L1622-1625 / L2114-2117) to
       the nearest free hex in range (Teleport: in sight, rule
       ``teleport_sight``; not movement: no Disengage, And Your Enemies
       Closer or Bound);
    3. Bypass when it gets nearer at all.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    if goal < 0:
        return False
    c = dyn[i, K.D_POS]
    gap = band_gap(hexes(c, goal, bf), lo, hi)
    if gap == 0:
        return False
    terrain = F.row(bf, BF_TERRAIN)
    bound = dyn[i, K.D_AIL + K.A_BOUND] != 0
    need = gap >= 2 or bound or terrain[c] & (G.ROUGH | G.PERILOUS) != 0
    if not need:
        need = engaged(i, comb, dyn, bf)
    if not need:
        return False
    es = -1
    em = -1
    en = 0
    if K.has_code(i, K.E_EXTRA_MOVE, comb):
        if not bound:
            if terrain[c] & G.PERILOUS == 0:
                es = K.find_usable(i, K.E_EXTRA_MOVE, comb, dyn)
                if es >= 0:
                    em, en = extra_cell(i, goal, lo, hi, comb[i, K.C_TP1 + es], comb[i, K.C_TP2 + es], comb, dyn, bf)
                    if em >= 0:
                        if comb[i, K.C_TCOST + es] == 0 or potential(em, goal, lo, hi, bf) == 0:
                            return extra_move(i, es, em, en, w)
    if K.has_code(i, K.E_TELEPORT, comb):
        s = K.find_usable(i, K.E_TELEPORT, comb, dyn)
        if s >= 0:
            m = teleport_cell(i, goal, lo, hi, comb[i, K.C_TP1 + s], rules, dyn, bf)
            if m >= 0:
                K.pay_talent(i, s, comb, rules, dyn)
                dyn[i, K.K_TALENT_MOVES] += hexes(c, m, bf)
                relocate(i, m, dyn, bf)
                K.check_bursts(i, comb, rules, dyn)
                refresh_fear(comb, dyn, bf)
                return True
    if em >= 0:
        return extra_move(i, es, em, en, w)
    return False


@kernel
def extra_move(i, s, m, n, w):
    """Pay for Swift / Bypass in slot ``s`` and move ``n`` hexes to ``m`` (an
    enemy's And Your Enemies Closer may hold her: the Minor is used up).
    Mines (L2062) on the field: a 2-hex move goes hex by hex through the hex
    between (:func:`pass_cell`), so a mine next to it goes off there, with her
    in it; if that leaves her down (or moved, or her end hex taken) she stops
    there. (Without a free ordinary
    hex between, e.g. Bypass through someone, the mines see only where she
    starts and ends.)"""
    comb, rules, dyn, streams, bf = unpack(w)
    K.pay_talent(i, s, comb, rules, dyn)
    K.check_bursts(i, comb, rules, dyn)
    if (comb[i, K.C_FOEMASK] >> K.E_CLOSER) & 1 != 0:
        if held(i, m, w):
            return True
    if n == 2:
        if (comb[0, K.C_ALLMASK] >> K.E_MINES) & 1 != 0:
            via = pass_cell(dyn[i, K.D_POS], m, bf)
            if via >= 0:
                relocate(i, via, dyn, bf)
                mines_check(w)
                stop = not K.is_standing(dyn, i)
                if dyn[i, K.D_POS] != via:
                    stop = True  # a Defensive Switch took her place (and moved her)
                elif F.row(bf, BF_OCC)[m] >= 0:
                    stop = True  # someone stands on her end hex now
                if stop:
                    dyn[i, K.K_MOVES] += 1
                    dyn[i, K.K_TALENT_MOVES] += 1
                    refresh_fear(comb, dyn, bf)
                    return True
    relocate(i, m, dyn, bf)
    dyn[i, K.K_MOVES] += n
    dyn[i, K.K_TALENT_MOVES] += n
    refresh_fear(comb, dyn, bf)
    return True


@kernel
def pass_cell(c, m, bf):
    """The hex a 2-hex move from cell ``c`` to cell ``m`` passes through: the first
    neighbour of ``c`` (lowest direction) next to ``m`` that is free and ordinary
    (not rough, Perilous or a door); -1 if none."""
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    for d in range(6):
        x = nbr[c, d]
        if x >= 0:
            if hexes(x, m, bf) == 1:
                if not G.blocked(terrain, occ, G.BLOCK_MOVE, x):
                    if terrain[x] & (G.ROUGH | G.PERILOUS | G.DOOR) == 0:
                        return x
    return -1


@kernel
def sprint(i, goal, lo, hi, w):
    """Sprint (L1726-1729, free, 2/Scene, once per round), on her turn: one
    ordinary hex toward her goal's range when she is out of it (not while
    Bound, engaged or on rough or Perilous terrain). The off-turn use "in
    response to an enemy making an attack on your ally": :func:`guard_sprint`."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, K.D_SPRINT_AT] == dyn[0, K.D_ROUND]:
        return False
    if not away(i, goal, lo, hi, dyn, bf):
        return False
    if dyn[i, K.D_AIL + K.A_BOUND] != 0:
        return False
    c = dyn[i, K.D_POS]
    if F.row(bf, BF_TERRAIN)[c] & (G.ROUGH | G.PERILOUS):
        return False
    if (comb[i, K.C_ALLMASK] >> K.E_LASHING) & 1 != 0:
        if lashed(i, c, comb, dyn, bf):
            return False  # Lashing Ground: her hex is rough terrain for her (L2045)
    if engaged(i, comb, dyn, bf):
        return False
    s = K.find_usable(i, K.E_SPRINT, comb, dyn)
    if s < 0:
        return False
    step = best_step(i, goal, lo, hi, 2, w)
    if step < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    dyn[i, K.D_SPRINT_AT] = dyn[0, K.D_ROUND]
    if walk_to(i, step, w):
        dyn[i, K.K_TALENT_MOVES] += 1
    refresh_fear(comb, dyn, bf)
    return True


@kernel
def guard_sprint(i, t, w):
    """Sprint off her turn (L1726-1729, free, 2/Scene, once per round: "in
    response to an enemy making an attack on your ally"; A12ii): before ``i``'s
    attack roll on ``t`` (a basic attack of the turn, a frenzy's attack or
    retaliation, :func:`grid_attack_call`, or one target of an area attack,
    :func:`area_strike`; not a mine's, which nobody intercepts), when nobody could
    intercept it (:func:`guard_for`, L1469), the first listed ally of ``t`` with
    Sprint usable who may intercept (:func:`.kernel.may_guard`) and whose
    policy would (``t`` below her ``intercept`` share of Resolve, as for
    Defensive Switch) steps one ordinary hex to stand next to ``t``, so she can
    intercept the hit. As on her turn: not while Bound, engaged, on rough or
    Perilous terrain or her Lashing Ground; the step is a free ordinary hex
    (not rough, Perilous or a door), the lowest direction first. Only a row
    usable off her turn (:func:`.kernel.off_turn_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pt = dyn[t, K.D_POS]
    if pt < 0:
        return
    if comb[t, K.C_COVER] == 0:
        return  # nobody may intercept for her
    a = dyn[i, K.D_POS]
    if dyn[i, K.D_BLAST] != 0:
        a = dyn[dyn[i, K.D_BLAST] - 1, K.D_POS]
    ranged = hexes(a, pt, bf) > rules[K.R_MELEE_RANGE + 1]
    if guard_for(i, a, t, ranged, comb, dyn, bf) >= 0:
        return  # someone can intercept already
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if not K.may_guard(j, t, -1, comb, dyn):
            continue
        if dyn[t, K.D_RES] * 100 >= comb[j, K.P_INTERCEPT] * comb[t, K.C_RES]:
            continue
        if dyn[j, K.D_AIL + K.A_BOUND] != 0:
            continue
        c = dyn[j, K.D_POS]
        if c < 0:
            continue
        if terrain[c] & (G.ROUGH | G.PERILOUS):
            continue
        if (comb[j, K.C_ALLMASK] >> K.E_LASHING) & 1 != 0:
            if lashed(j, c, comb, dyn, bf):
                continue
        if engaged(j, comb, dyn, bf):
            continue
        s = K.off_turn_sprint(j, comb, dyn)
        if s < 0:
            continue
        step = -1
        for d in range(6):
            m = nbr[c, d]
            if m >= 0:
                if not G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                    if terrain[m] & (G.ROUGH | G.PERILOUS | G.DOOR) == 0:
                        if hexes(m, pt, bf) == 1:
                            step = m
                            break
        if step < 0:
            continue
        K.pay_sprint(j, s, comb, rules, dyn)
        if walk_to(j, step, w):
            dyn[j, K.K_TALENT_MOVES] += 1
            dyn[j, K.K_GUARD_SPRINTS] += 1
        refresh_fear(comb, dyn, bf)
        return


@kernel
def slither(t, a, w):
    """Slither Away (L2103-2107, free, 1 overcharge): after ``a``'s attack on
    it (hit or miss), ``t`` moves 1 hex ignoring rough terrain and the
    Disengage requirement, when that gets it nearer its policy's range of
    ``a`` (``keep-range``: back off to 2-3; ``close-in``: to adjacent).
    Not while Bound (a move needs a Major action, L1463). An adjacent girl's
    And Your Enemies Closer may hold it (:func:`held`; the overcharge is spent)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not K.is_standing(dyn, t):
        return
    if dyn[t, K.D_POS] < 0:
        return
    if dyn[t, K.D_AIL + K.A_BOUND] != 0:
        return
    s = K.find_usable(t, K.E_SLITHER, comb, dyn)
    if s < 0:
        return
    goal, lo, hi = goal_of(t, a, w)
    if goal < 0:
        return
    if comb[t, K.P_MOVE] == K.MOVE_PROTECT:
        return
    step = best_step(t, goal, lo, hi, 0, w)
    if step < 0:
        return
    K.pay_talent(t, s, comb, rules, dyn)
    if held(t, step, w):
        K.check_bursts(t, comb, rules, dyn)
        return  # And Your Enemies Closer: the move attempted is used up (L1526)
    move_to(t, step, dyn, bf)
    dyn[t, K.K_TALENT_MOVES] += 1
    K.check_bursts(t, comb, rules, dyn)


@kernel
def shove(i, t, sign, comb, dyn, bf):
    """Get Over Here (``sign`` -1, L1708-1712) / Repel (+1, L2087-2090): after
    a hit, ``t`` is forced 1 hex closer to / away from ``i``: the free
    neighbour of its hex nearest to (farthest from) her (ties: the lowest
    direction); forced, so rough terrain and enemies do not hold it;
    obstacles, barriers and people do (it stays)."""
    pt = dyn[t, K.D_POS]
    if pt < 0:
        return
    if dyn[t, K.D_DEAD] != 0:
        return
    pi = dyn[i, K.D_POS]
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    now = hexes(pt, pi, bf)
    best = -1
    best_key = 0
    for d in range(6):
        m = nbr[pt, d]
        if m < 0:
            continue
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        k = sign * (hexes(m, pi, bf) - now)
        if k > best_key:
            best_key = k
            best = m
    if best < 0:
        return
    relocate(t, best, dyn, bf)
    dyn[i, K.K_SHOVED] += 1
    refresh_fear(comb, dyn, bf)


@kernel
def safe_place(i, comb, rules, dyn, bf):
    """Safe Place (L1782-1785, Major, 1 Support overcharge): a willing ally in
    her line of sight (rule ``teleport_sight``) moves to a free hex adjacent
    to her. Used on the ally (not herself; standing, or down and alive)
    lowest in Resolve share below ``heal_below`` who stands next to a
    standing enemy, to a hex next to her with no standing enemy adjacent
    (the lowest direction); True if used."""
    s = K.find_usable(i, K.E_SAFE_PLACE, comb, dyn)
    if s < 0:
        return False
    c = dyn[i, K.D_POS]
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    dest = -1
    for d in range(6):
        m = nbr[c, d]
        if m < 0:
            continue
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        if foe_next_to(m, i, comb, dyn, bf):
            continue
        dest = m
        break
    if dest < 0:
        return False
    mask = sight_mask(rules)
    best = -1
    best_share = comb[i, K.P_HEAL_BELOW]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, K.C_SIDE] != comb[i, K.C_SIDE]:
            continue
        if dyn[j, K.D_DEAD] != 0:
            continue
        pj = dyn[j, K.D_POS]
        if pj < 0:
            continue
        share = dyn[j, K.D_RES] * 100 // comb[j, K.C_RES]
        if share >= best_share:
            continue
        if not foe_next_to(pj, i, comb, dyn, bf):
            continue
        if comb[i, K.C_TP1 + s] != 0:
            if not in_sight(c, pj, mask, bf):
                continue
        best = j
        best_share = share
    if best < 0:
        return False
    K.pay_talent(i, s, comb, rules, dyn)
    dyn[i, K.K_SHOVED] += hexes(dyn[best, K.D_POS], dest, bf)
    relocate(best, dest, dyn, bf)
    K.check_bursts(i, comb, rules, dyn)
    refresh_fear(comb, dyn, bf)
    return True


@part
def foe_next_to(m, i, comb, dyn, bf):
    """A standing enemy of ``i`` stands next to cell ``m``."""
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    side = comb[i, K.C_SIDE]
    for d in range(6):
        x = nbr[m, d]
        if x >= 0:
            w = occ[x]
            if w >= 0:
                if comb[w, K.C_SIDE] != side:
                    if K.is_standing(dyn, w):
                        return True
    return False


# ---------------------------------------------------------------- Create Barrier (L1693-1697)


@kernel
def barrier_cell_of(k, c, dyn, bf):
    """Cell ``c`` lies on the shape of ``k``'s barrier (``D_BARRIER_*``): the ring ``D_BARRIER_ARG``
    hexes from its centre, or the straight wall of ``D_BARRIER_LEN`` hexes through ``D_BARRIER_AT``
    in direction ``D_BARRIER_ARG`` and its opposite ((len - 1) // 2 hexes that way, the rest the
    other way)."""
    kind = dyn[k, K.D_BARRIER_KIND]
    at = dyn[k, K.D_BARRIER_AT]
    if kind == 1:
        return hexes(at, c, bf) == dyn[k, K.D_BARRIER_ARG]
    if kind == 2:
        if c == at:
            return True
        n = dyn[k, K.D_BARRIER_LEN]
        la = (n - 1) // 2
        e = dyn[k, K.D_BARRIER_ARG]
        if on_line(at, e, la, c, bf):
            return True
        return on_line(at, (e + 3) % 6, n - 1 - la, c, bf)
    return False


@kernel
def raise_cells(k, commit, dyn, bf):
    """The hexes of ``k``'s barrier shape that can hold barrier (no obstacle, barrier or person
    there: those are skipped); with ``commit`` they become barrier (``BARRIER | RAISED``).
    Returns their count."""
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    n = 0
    for c in range(terrain.shape[0]):
        if terrain[c] & G.BLOCK_MOVE != 0:
            continue
        if occ[c] >= 0:
            continue
        if barrier_cell_of(k, c, dyn, bf):
            n += 1
            if commit:
                terrain[c] |= G.BARRIER | G.RAISED
    return n


@kernel
def barrier_owner(c, dyn, bf):
    """Whose standing barrier raised hex ``c`` belongs to (the first listed whose shape holds it), -1 none."""
    if F.row(bf, BF_TERRAIN)[c] & G.RAISED == 0:
        return -1
    for k in range(dyn.shape[0]):
        if dyn[k, K.D_BARRIER_RES] > 0:
            if barrier_cell_of(k, c, dyn, bf):
                return k
    return -1


@kernel
def create_barrier(i, s, comb, rules, dyn, bf):
    """Create Barrier (L1693-1697; Minor, 1 Defence overcharge, 1/Episode): barrier hexes with
    P1 (20) points of Resolve between them, in the per-trial terrain copy (``BARRIER | RAISED``,
    gone at the next fight: :func:`place_all`).

    Raised (a policy-free default) when a standing enemy is on the field and none stands next to
    a standing member of her side. Shape (rule ``barrier_shape``): ``circle``, the largest radius
    r <= ``barrier_radius`` (3) whose ring of hexes r + 1 from her lies wholly on the field with no
    standing enemy within r + 1 hexes: the ring is the barrier, so everyone within r (the radius's
    edge included, L1697) is inside; when no circle fits ("not enough space") or under ``wall``,
    the straight wall of ``barrier_wall_length`` (7) hexes through her neighbour nearest to the
    nearest standing enemy (fewest hexes, ties the first listed, then the lowest direction),
    along whichever of the two axes 60 and 120 degrees from that direction lies more squarely
    across her line to that enemy (the smaller gap between its two ends' distances to the enemy;
    ties: more barrier hexes on the field, then 60), (len - 1) // 2 hexes one way (the 60 or 120
    degree direction) and the rest the other. Hexes of the shape holding an obstacle, a barrier
    or a person are left open. Returns True if raised (never with no hex to raise).
    """
    c = dyn[i, K.D_POS]
    if c < 0:
        return False
    near, near_d = barrier_foe(i, c, comb, dyn, bf)
    if near < 0:
        return False
    placed = 0
    if rules[K.R_BARRIER_SHAPE] == 0:
        placed = barrier_circle(i, c, near_d, rules, dyn, bf)
    if placed == 0:
        if barrier_wall(i, c, dyn[near, K.D_POS], rules, dyn, bf) == 0:
            dyn[i, K.D_BARRIER_KIND] = 0
            return False
    K.pay_talent(i, s, comb, rules, dyn)
    raise_cells(i, True, dyn, bf)
    dyn[i, K.D_BARRIER_RES] = comb[i, K.C_TP1 + s]
    bf[BF_LST][LST_BARRIERS] += 1
    dyn[i, K.K_BARRIERS] += 1
    K.check_bursts(i, comb, rules, dyn)
    return True


@kernel
def barrier_foe(i, c, comb, dyn, bf):
    """The standing enemy nearest to her cell ``c`` and its hexes, or ``(-1, 0)`` when
    none is on the field or one already stands next to a standing member of her side."""
    side = comb[i, K.C_SIDE]
    n = comb.shape[0]
    near = -1
    near_d = F.UNREACHABLE
    for j in range(n):
        if comb[j, K.C_SIDE] == side:
            continue
        if not K.is_standing(dyn, j):
            continue
        pj = dyn[j, K.D_POS]
        if pj < 0:
            continue
        for a in range(n):
            if comb[a, K.C_SIDE] == side:
                if K.is_standing(dyn, a):
                    if dyn[a, K.D_POS] >= 0:
                        if hexes(dyn[a, K.D_POS], pj, bf) <= 1:
                            return -1, 0  # already engaged: nothing left to keep out
        d = hexes(c, pj, bf)
        if d < near_d:
            near_d = d
            near = j
    return near, near_d


@kernel
def barrier_circle(i, c, near_d, rules, dyn, bf):
    """The largest circle round ``c`` whose ring lies wholly on the field with no enemy
    within it (``near_d``: the nearest enemy's hexes), laid out in her ``D_BARRIER_*``;
    the hexes it would raise (0: none fits)."""
    nbr = F.nbr_of(bf)
    for r in range(rules[K.R_BARRIER_RADIUS], 0, -1):
        if near_d <= r + 1:
            continue
        k = 0
        for m in range(nbr.shape[0]):
            if hexes(c, m, bf) == r + 1:
                k += 1
        if k != 6 * (r + 1):
            continue  # the ring leaves the field: not enough space for this circle
        dyn[i, K.D_BARRIER_KIND] = 1
        dyn[i, K.D_BARRIER_AT] = c
        dyn[i, K.D_BARRIER_ARG] = r + 1
        dyn[i, K.D_BARRIER_LEN] = 0
        placed = raise_cells(i, False, dyn, bf)
        if placed > 0:
            return placed
    return 0


@kernel
def barrier_wall(i, c, pn, rules, dyn, bf):
    """The straight wall through her neighbour nearest to the enemy at cell ``pn``, across
    her line to it (the axis whose ends are nearer equally far from the enemy; ties: more
    hexes on the field, then 60 degrees), laid out in her ``D_BARRIER_*``; the hexes it
    would raise (0: none)."""
    nbr = F.nbr_of(bf)
    dn = -1
    best = F.UNREACHABLE
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            x = hexes(m, pn, bf)
            if x < best:
                best = x
                dn = d
    if dn < 0:
        return 0
    placed = 0
    best_e = -1
    best_skew = F.UNREACHABLE
    at = nbr[c, dn]
    qa = F.row(bf, BF_Q)[at]
    ra = F.row(bf, BF_R)[at]
    qn = F.row(bf, BF_Q)[pn]
    rn = F.row(bf, BF_R)[pn]
    wl = rules[K.R_BARRIER_WALL_LENGTH]
    la = (wl - 1) // 2
    lb = wl - 1 - la
    for t in range(1, 3):
        e = (dn + t) % 6
        dyn[i, K.D_BARRIER_KIND] = 2
        dyn[i, K.D_BARRIER_AT] = at
        dyn[i, K.D_BARRIER_ARG] = e
        dyn[i, K.D_BARRIER_LEN] = wl
        k = raise_cells(i, False, dyn, bf)
        # how far from square across her line to the enemy: the gap between its two ends'
        # distances to the enemy (axial, as if the field went on)
        da = G.axial_distance(qa + la * G._DQ[e], ra + la * G._DR[e], qn, rn)
        db = G.axial_distance(qa - lb * G._DQ[e], ra - lb * G._DR[e], qn, rn)
        skew = da - db
        if skew < 0:
            skew = -skew
        if k > 0:
            better = skew < best_skew
            if skew == best_skew:
                better = k > placed
            if better:
                placed = k
                best_e = e
                best_skew = skew
    if placed > 0:
        dyn[i, K.D_BARRIER_ARG] = best_e
    return placed


@kernel
def collapse_barrier(k, dyn, bf):
    """``k``'s barrier is down (its Resolve spent): every hex of it is open again."""
    terrain = F.row(bf, BF_TERRAIN)
    keep = np.uint8(255 - G.BARRIER - G.RAISED)
    for c in range(terrain.shape[0]):
        if terrain[c] & G.RAISED != 0:
            if barrier_cell_of(k, c, dyn, bf):
                terrain[c] = terrain[c] & keep
    dyn[k, K.D_BARRIER_RES] = 0
    dyn[k, K.D_BARRIER_KIND] = 0
    bf[BF_LST][LST_BARRIERS] -= 1


@kernel(inline="always")
def barrier_turn(i, who, goal, lo, hi, w):
    """While a raised barrier stands, ``i``'s Major (nobody in reach) may go on an enemy's
    barrier (:func:`strike_barrier`); True if it did."""
    comb, rules, dyn, streams, bf = unpack(w)
    if bf[BF_LST][LST_BARRIERS] == 0:
        return False
    if who != i:
        return False
    return strike_barrier(i, goal, lo, hi, w)


@kernel
def strike_barrier(i, goal, lo, hi, w):
    """Attacking a barrier (A52, rule ``barrier_defence: auto``): with nobody in reach, when she
    cannot walk to her goal's range (:func:`barrier_field`) or stands in it with her attack's line
    crossing a barrier, she attacks the raised hex of an enemy's barrier in reach (melee or
    ranged range, its line not crossing another raised hex) nearest to her goal (then her
    preferred form, the lowest cell). It is hit automatically (no dice but the damage roll):
    damage_dice d6 + her melee / ranged damage bonus (at least ``min_damage``) off the barrier's
    Resolve; at 0 it is gone (:func:`collapse_barrier`). Not an attack on a combatant (no attack
    counters, no intercept)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if rules[K.R_BARRIER_DEFENCE] == 1:
        return False
    if goal < 0:
        return False
    c = dyn[i, K.D_POS]
    if c < 0:
        return False
    if band_gap(hexes(c, goal, bf), lo, hi) != 0:
        barrier_field(goal, lo, hi, bf)
        if F.row(bf, BF_DIST)[c] >= 0:
            return False  # she can walk there, round the barrier
    terrain = F.row(bf, BF_TERRAIN)
    side = comb[i, K.C_SIDE]
    best = -1
    best_k = 0
    for m in range(terrain.shape[0]):
        if terrain[m] & G.RAISED == 0:
            continue
        dm = hexes(c, m, bf)
        f = form_at(dm, dyn[i, K.D_RANGED_HI], rules)
        if f < 0:
            continue
        k = barrier_owner(m, dyn, bf)
        if k < 0:
            continue
        if comb[k, K.C_SIDE] == side:
            continue
        if dm >= 2:
            if rules[K.R_BARRIER_BLOCKS_RANGED] == 1:
                if raised_between(c, m, bf):
                    continue
        key = 2 * hexes(m, goal, bf)
        if f != comb[i, K.C_FORM]:
            key += 1
        if best < 0:
            best = m
            best_k = key
        elif key < best_k:
            best = m
            best_k = key
    if best < 0:
        return False
    f = form_at(hexes(c, best, bf), dyn[i, K.D_RANGED_HI], rules)
    dmg = sum_d6(streams[K.S_DAMAGE], rules[K.R_DAMAGE_DICE])
    if f == 0:
        dmg += comb[i, K.C_MELEE_DMG]
    else:
        dmg += comb[i, K.C_RANGED_DMG]
    if dmg < rules[K.R_MIN_DAMAGE]:
        dmg = rules[K.R_MIN_DAMAGE]
    k = barrier_owner(best, dyn, bf)
    take = dmg
    if take > dyn[k, K.D_BARRIER_RES]:
        take = dyn[k, K.D_BARRIER_RES]
    dyn[k, K.D_BARRIER_RES] -= take
    dyn[k, K.K_BARRIER_DMG] += take
    dyn[i, K.K_BARRIER_ATTACKS] += 1
    if dyn[k, K.D_BARRIER_RES] == 0:
        collapse_barrier(k, dyn, bf)
    return True


# ---------------------------------------------------------------- procedures (the world's signature, :mod:`.world`)
# What the table (:mod:`.registry`) names on the hex grid.


@kernel
def p_turn(i, b, c, w):
    """PR_TURN: :func:`take_turn_grid`."""
    comb, rules, dyn, streams, bf = unpack(w)
    take_turn_grid(i, w)
    return 0


@kernel
def p_start(a, b, c, w):
    """PR_START: everyone to her starting hex (:func:`place_all`), the Fear Auras."""
    comb, rules, dyn, streams, bf = unpack(w)
    place_all(dyn, bf)
    refresh_fear(comb, dyn, bf)
    return 0


@kernel
def p_auras(a, b, c, w):
    """PR_AURAS: :func:`refresh_fear`."""
    comb, rules, dyn, streams, bf = unpack(w)
    refresh_fear(comb, dyn, bf)
    return 0


@kernel
def p_after_turn(i, b, c, w):
    """PR_AFTER_TURN: :func:`after_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    after_turn(w)
    return 0


@kernel
def p_end_of_round(r, b, c, w):
    """PR_END_OF_ROUND: :func:`end_of_round`; the outcome, -1 while the fight goes on."""
    comb, rules, dyn, streams, bf = unpack(w)
    return end_of_round(r, w)


@kernel
def p_frenzy_move(i, t, c, w):
    """PR_FRENZY_MOVE: :func:`frenzy_turn`."""
    comb, rules, dyn, streams, bf = unpack(w)
    frenzy_turn(i, t, w)
    return 0


@kernel
def p_attack_at(i, t, c, w):
    """PR_ATTACK_AT: :func:`grid_attack_call`."""
    comb, rules, dyn, streams, bf = unpack(w)
    grid_attack_call(i, t, w)
    return 0


@kernel
def p_reach(i, t, c, w):
    """PR_REACH: :func:`reach`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return reach(i, t, rules, dyn, bf)


@kernel
def p_distance(i, j, c, w):
    """PR_DISTANCE: hexes between the cells of ``i`` and ``j`` (:func:`hexes`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return hexes(dyn[i, K.D_POS], dyn[j, K.D_POS], bf)


@kernel
def p_appear_at(j, a, c, w):
    """PR_APPEAR_AT: :func:`place_near`; 0 when no hex is free."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if place_near(j, a, dyn, bf) else 0


@kernel
def p_copy_place(i, s, c, w):
    """PR_COPY_PLACE: :func:`copy_cell`; -1 when no hex in range is free."""
    comb, rules, dyn, streams, bf = unpack(w)
    return copy_cell(i, s, comb, rules, dyn, bf)


@kernel
def p_pick_within(i, hi, c, w):
    """PR_PICK_WITHIN: :func:`pick_near`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return pick_near(i, hi, comb, rules, dyn, streams[K.S_POLICY], bf)


@kernel
def p_on_line(i, j, ds, w):
    """PR_ON_LINE: ``j`` on the line in direction ``ds // 8`` of ``i``'s Scream in slot ``ds % 8``."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = ds % 8
    return 1 if on_line(dyn[i, K.D_POS], ds // 8, comb[i, K.C_TREACH + s], dyn[j, K.D_POS], bf) else 0


@kernel
def p_switch_to(j, t, c, w):
    """PR_SWITCH_TO: :func:`swap_places`."""
    comb, rules, dyn, streams, bf = unpack(w)
    swap_places(j, t, dyn, bf)
    return 1


@kernel
def p_area(i, s, c, w):
    """PR_AREA: :func:`area_attack`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if area_attack(i, s, w) else 0


@kernel
def p_gravity(i, s, c, w):
    """PR_GRAVITY: :func:`gravity_wave`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if gravity_wave(i, s, w) else 0


@kernel
def p_veil_worth(i, s, c, w):
    """PR_VEIL_WORTH: :func:`veil_worth`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if veil_worth(i, s, comb, dyn, bf) else 0


@kernel
def p_rough_going(i, s, c, w):
    """PR_ROUGH_GOING: :func:`rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if rough_going(i, s, comb, rules, dyn, bf) else 0


@kernel
def p_scatter(i, s, c, w):
    """PR_SCATTER: :func:`scattering_shot`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if scattering_shot(i, s, w) else 0


@kernel
def p_mine(i, s, c, w):
    """PR_MINE: :func:`place_mine`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if place_mine(i, s, comb, rules, dyn, bf) else 0


@kernel
def p_barrier(i, s, c, w):
    """PR_BARRIER: :func:`create_barrier`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if create_barrier(i, s, comb, rules, dyn, bf) else 0
