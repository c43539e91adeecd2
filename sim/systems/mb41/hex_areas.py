"""Area and terrain talents on the hex grid: Blast Strike / Burst Attack, Gravity Wave,
Veil, Rough Going, Scattering shot, Create Barrier (L1693-1697); Minion Explosion's
minion (the hex an attack originates from).
"""
from __future__ import annotations

import numpy as np

from sim._jit import kernel
from sim.dice import sum_d6

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import unpack
from .hex import (band_gap, barrier_field, form_at, guard_for, hexes, leave_if_dead, on_line, pick, raised_between,
                  reach_from, refresh_fear, relocate)
from .hex_movement import guard_sprint
from .overcharge import check_bursts
from .slots import find_usable, pay_slot, side_has_code
from .state import _candidate, attack_call, is_standing, other_ally
from .talents.areas import area_done, area_next
from .talents.team import area_switch


@kernel
def area_has(c, d, width, length, p, w):
    """Cell ``p`` lies in an area attack's area from cell ``c``: ``d`` 0-5 the straight line
    of ``length`` hexes in that direction (``width`` 2: and the parallel line starting at the
    neighbour in direction ``d + 1``, ``length - 1`` hexes more, so it stays within range);
    ``d`` 6 every adjacent hex."""
    comb, rules, dyn, streams, bf = unpack(w)
    if p < 0:
        return False
    if d == 6:
        return hexes(c, p, w) == 1
    if on_line(c, d, length, p, w):
        return True
    if width > 1:
        m = F.nbr_of(bf)[c, (d + 1) % 6]
        if m >= 0:
            if p == m:
                return True
            if length > 1:
                return on_line(m, d, length - 1, p, w)
    return False


@kernel
def area_count(i, d, width, length, w):
    """Enemies ``i`` may attack (:func:`.state._candidate`) in the area ``d``."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    k = 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
            if area_has(c, d, width, length, dyn[j, D_POS], w):
                k += 1
    return k


@kernel
def area_strike(i, t, w):
    """One target of an area attack: the grid's attack (as :func:`.hex_turn.grid_attack_call`)
    through the called attack; melee damage at the melee range, else ranged.
    Defensive Switch (L1699-1703) before the roll: an ally outside the area may take her
    place (:func:`.talents.team.area_switch`); then, nobody able to intercept, an ally may Sprint
    off her turn to stand next to her (:func:`guard_sprint`; the area's targets were
    marked when the attack was made, so stepping into it does not make her one)."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = area_switch(i, t, w)
    if side_has_code(t, E_SPRINT, w):
        guard_sprint(i, t, w)
    refresh_fear(w)
    d = hexes(dyn[i, D_POS], dyn[t, D_POS], w)
    if d <= rules[R_MELEE_RANGE + 1]:
        dyn[i, D_DMG_ADJ] = comb[i, C_MELEE_DMG] - comb[i, C_DMG]
    else:
        dyn[i, D_DMG_ADJ] = comb[i, C_RANGED_DMG] - comb[i, C_DMG]
    g = -1
    if comb[t, C_COVER] > 0:
        g = guard_for(i, dyn[i, D_POS], t, d > rules[R_MELEE_RANGE + 1], w)
    dyn[t, D_GUARD] = g
    dyn[i, D_VEIL_D] = d
    dealt = attack_call(i, t, w)
    dyn[t, D_GUARD] = -1
    dyn[i, D_DMG_ADJ] = 0
    dyn[i, K_AREA_TARGETS] += 1
    leave_if_dead(t, w)
    if g >= 0:
        leave_if_dead(g, w)
    refresh_fear(w)
    return dealt


@kernel
def area_targets_in(i, d, width, length, w):
    """Attack every target in area ``d`` of ``i`` (enemies she may attack; her allies too under
    ``area_allies``), in listed order, while she stands. The targets are those in the area
    when the attack is made (``D_AREA_HIT`` 1; 2 once attacked by it); one whom a Defensive
    Switch moved out of it is not attacked again, nor a switcher who moved into it."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    n = comb.shape[0]
    for j in range(n):
        if j == i:
            continue
        if comb[j, C_SIDE] == side:
            if rules[R_AREA_ALLIES] == 0:
                continue
            if not is_standing(j, w):
                continue
        elif not _candidate(j, side, finish, w):
            continue
        if area_has(c, d, width, length, dyn[j, D_POS], w):
            dyn[j, D_AREA_HIT] = 1
    for j in range(n):
        if not area_next(j, w):
            continue
        if not is_standing(i, w):
            break  # she fell: the rest are spared
        if comb[j, C_SIDE] == side:
            if not is_standing(j, w):
                continue
        elif not _candidate(j, side, finish, w):
            continue
        if area_has(c, d, width, length, dyn[j, D_POS], w):
            area_strike(i, j, w)
    area_done(w)


@kernel
def area_attack(i, s, w):
    """Blast Strike / Burst Attack on the grid (:func:`.talents.areas.try_area_attack`): the line
    (``ranged_range``'s far end long, P2 ``width``) in the direction reaching the most enemies
    (ties: the lowest direction), or for P1 ``shape`` blast every adjacent hex when that reaches
    more; used when it reaches at least ``area_min`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    width = comb[i, C_TP2 + s]
    length = dyn[i, D_RANGED_HI]  # her attack's range (Mid-Childan System: 4)
    if rules[R_MELEE_RANGE + 1] > length:
        length = rules[R_MELEE_RANGE + 1]
    best_d = -1
    best_n = 0
    for d in range(6):
        k = area_count(i, d, width, length, w)
        if k > best_n:
            best_n = k
            best_d = d
    if comb[i, C_TP1 + s] == 1:
        k = area_count(i, 6, width, length, w)
        if k > best_n:
            best_n = k
            best_d = 6
    if best_n == 0:
        return False
    if best_n < comb[i, P_AREA_MIN]:
        return False
    pay_slot(i, s, w)
    area_targets_in(i, best_d, width, length, w)
    check_bursts(i, w)
    return True


@kernel
def pull_step(j, c, w):
    """The free neighbour of ``j``'s hex one hex nearer to cell ``c`` (the lowest direction), -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = dyn[j, D_POS]
    d0 = hexes(p, c, w)
    nbr = F.nbr_of(bf)
    for d in range(6):
        m = nbr[p, d]
        if m >= 0:
            if not G.blocked(F.row(bf, BF_TERRAIN), F.row(bf, BF_OCC), G.BLOCK_MOVE, m):
                if hexes(m, c, w) < d0:
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
    c = dyn[i, D_POS]
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        hi = F.UNREACHABLE
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    n = comb.shape[0]
    k = 0
    far = 0
    for j in range(n):
        if _candidate(j, side, finish, w):
            d = hexes(c, dyn[j, D_POS], w)
            if d >= 1:
                if d <= hi:
                    k += 1
                    if d > far:
                        far = d
    if k == 0:
        return False
    if k < comb[i, P_AREA_MIN]:
        return False
    pay_slot(i, s, w)
    for step in range(comb[i, C_TP1 + s]):
        for dist in range(2, far + 1):
            for j in range(n):
                if comb[j, C_SIDE] == side:
                    continue
                if dyn[j, D_POS] < 0:
                    continue
                if hexes(c, dyn[j, D_POS], w) != dist:
                    continue
                m = pull_step(j, c, w)
                if m >= 0:
                    relocate(j, m, w)
                    dyn[i, K_FORCED] += 1
        far -= 1
    refresh_fear(w)
    top = hi
    if rules[R_GRAVITY_TARGETS] == 1:
        top = 1
    for j in range(n):
        if _candidate(j, side, finish, w):
            d = hexes(c, dyn[j, D_POS], w)
            if d >= 1:
                if d <= top:
                    dyn[j, D_AREA_HIT] = 1  # the targets when the wave strikes (Defensive Switch)
    for j in range(n):
        if not area_next(j, w):
            continue
        if not is_standing(i, w):
            break
        if _candidate(j, side, finish, w):
            d = hexes(c, dyn[j, D_POS], w)
            if d >= 1:
                if d <= top:
                    area_strike(i, j, w)
    area_done(w)
    check_bursts(i, w)
    return True


@kernel
def veil_worth(i, s, w):
    """Veil is worth raising: a standing enemy is not within 1 to the row's far end (2) of ``i``."""
    comb, rules, dyn, streams, bf = unpack(w)
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        return False
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            if is_standing(j, w):
                if dyn[j, D_POS] >= 0:
                    if hexes(dyn[i, D_POS], dyn[j, D_POS], w) > hi:
                        return True
    return False


@kernel
def rough_going(i, s, w):
    """Rough Going (L1836) on the grid: up to P1 (9) hexes at most the row's far end (4) from
    her become rough terrain (the per-trial copy ``F.row(bf, BF_TERRAIN)``, reset by :func:`.hex.place_all`):
    first the hexes of the standing enemies within reach (listed order), then the free hexes
    next to them within reach (directions in order). Used when a standing enemy within reach
    stands on a hex that is not rough."""
    comb, rules, dyn, streams, bf = unpack(w)
    terrain = F.row(bf, BF_TERRAIN)
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, D_POS]
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        hi = F.UNREACHABLE
    most = comb[i, C_TP1 + s]
    side = comb[i, C_SIDE]
    n = comb.shape[0]
    worth = False
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if is_standing(j, w):
                p = dyn[j, D_POS]
                if p >= 0:
                    if hexes(c, p, w) <= hi:
                        if terrain[p] & G.ROUGH == 0:
                            worth = True
    if not worth:
        return False
    pay_slot(i, s, w)
    k = 0
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if is_standing(j, w):
                p = dyn[j, D_POS]
                if p >= 0:
                    if k < most:
                        if hexes(c, p, w) <= hi:
                            if terrain[p] & G.ROUGH == 0:
                                terrain[p] |= G.ROUGH
                                k += 1
    for j in range(n):
        if comb[j, C_SIDE] != side:
            if is_standing(j, w):
                p = dyn[j, D_POS]
                if p >= 0:
                    if hexes(c, p, w) <= hi:
                        for d in range(6):
                            m = nbr[p, d]
                            if m >= 0:
                                if k < most:
                                    if occ[m] < 0:
                                        if terrain[m] & (G.ROUGH | G.BLOCK_MOVE) == 0:
                                            if hexes(c, m, w) <= hi:
                                                terrain[m] |= G.ROUGH
                                                k += 1
    dyn[i, K_ROUGHENED] += k
    check_bursts(i, w)
    return True


@kernel
def push_out(j, centre, edge, shooter, w):
    """Push ``j`` hex by hex away from cell ``centre`` until ``edge`` hexes from it or the first
    hex that blocks (an obstacle, a barrier, someone, the field's edge): the first step to the
    free neighbour one hex farther from the centre (straight on when she stands on a line from
    it, from the centre itself the neighbour farthest from cell ``shooter``, else the lowest
    direction), then straight on in that direction."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    last = -1
    for _ in range(edge + 1):
        p = dyn[j, D_POS]
        d = hexes(p, centre, w)
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
            if hexes(m, centre, w) != d + 1:
                continue
            if last >= 0:
                if dd != last:
                    continue  # straight on: a blocked hex stops her
            key = dd
            if d == 0:
                key = 6 * (F.UNREACHABLE - hexes(m, shooter, w)) + dd
            elif on_line(centre, dd, d, p, w):
                key = -1  # on a straight line from the centre: straight on outward
            if key < best_key:
                best_key = key
                best = dd
        if best < 0:
            return
        relocate(j, nbr[p, best], w)
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
    t = pick(i, True, w)
    if t < 0:
        return False
    centre = dyn[t, D_POS]
    edge = rules[R_SCATTER_EDGE]
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    n = comb.shape[0]
    k = 0
    for j in range(n):
        if _candidate(j, side, finish, w):
            if hexes(centre, dyn[j, D_POS], w) <= edge:
                k += 1
    if k < comb[i, P_AREA_MIN]:
        return False
    pay_slot(i, s, w)
    shooter = dyn[i, D_POS]
    dealt = area_strike(i, t, w)
    dyn[i, K_AREA_TARGETS] -= 1  # one attack on one target: not an area attack's target
    if dealt >= 0:
        for dist in range(edge - 1, -1, -1):
            for j in range(n):
                if j == i:
                    if rules[R_SCATTER_SELF] == 0:
                        continue
                p = dyn[j, D_POS]
                if p < 0:
                    continue
                if hexes(centre, p, w) != dist:
                    continue
                p0 = p
                push_out(j, centre, edge, shooter, w)
                dyn[i, K_FORCED] += hexes(p0, dyn[j, D_POS], w)
        refresh_fear(w)
    check_bursts(i, w)
    return True


@kernel
def barrier_cell_of(k, c, w):
    """Cell ``c`` lies on the shape of ``k``'s barrier (``D_BARRIER_*``): the ring ``D_BARRIER_ARG``
    hexes from its centre, or the straight wall of ``D_BARRIER_LEN`` hexes through ``D_BARRIER_AT``
    in direction ``D_BARRIER_ARG`` and its opposite ((len - 1) // 2 hexes that way, the rest the
    other way)."""
    comb, rules, dyn, streams, bf = unpack(w)
    kind = dyn[k, D_BARRIER_KIND]
    at = dyn[k, D_BARRIER_AT]
    if kind == 1:
        return hexes(at, c, w) == dyn[k, D_BARRIER_ARG]
    if kind == 2:
        if c == at:
            return True
        n = dyn[k, D_BARRIER_LEN]
        la = (n - 1) // 2
        e = dyn[k, D_BARRIER_ARG]
        if on_line(at, e, la, c, w):
            return True
        return on_line(at, (e + 3) % 6, n - 1 - la, c, w)
    return False


@kernel
def raise_cells(k, commit, w):
    """The hexes of ``k``'s barrier shape that can hold barrier (no obstacle, barrier or person
    there: those are skipped); with ``commit`` they become barrier (``BARRIER | RAISED``).
    Returns their count."""
    comb, rules, dyn, streams, bf = unpack(w)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    n = 0
    for c in range(terrain.shape[0]):
        if terrain[c] & G.BLOCK_MOVE != 0:
            continue
        if occ[c] >= 0:
            continue
        if barrier_cell_of(k, c, w):
            n += 1
            if commit:
                terrain[c] |= G.BARRIER | G.RAISED
    return n


@kernel
def barrier_owner(c, w):
    """Whose standing barrier raised hex ``c`` belongs to (the first listed whose shape holds it), -1 none."""
    comb, rules, dyn, streams, bf = unpack(w)
    if F.row(bf, BF_TERRAIN)[c] & G.RAISED == 0:
        return -1
    for k in range(dyn.shape[0]):
        if dyn[k, D_BARRIER_RES] > 0:
            if barrier_cell_of(k, c, w):
                return k
    return -1


@kernel
def create_barrier(i, s, w):
    """Create Barrier (L1693-1697; Minor, 1 Defence overcharge, 1/Episode): barrier hexes with
    P1 (20) points of Resolve between them, in the per-trial terrain copy (``BARRIER | RAISED``,
    gone at the next fight: :func:`.hex.place_all`).

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
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    if c < 0:
        return False
    near, near_d = barrier_foe(i, c, w)
    if near < 0:
        return False
    placed = 0
    if rules[R_BARRIER_SHAPE] == 0:
        placed = barrier_circle(i, c, near_d, w)
    if placed == 0:
        if barrier_wall(i, c, dyn[near, D_POS], w) == 0:
            dyn[i, D_BARRIER_KIND] = 0
            return False
    pay_slot(i, s, w)
    raise_cells(i, True, w)
    dyn[i, D_BARRIER_RES] = comb[i, C_TP1 + s]
    bf[BF_LST][LST_BARRIERS] += 1
    dyn[i, K_BARRIERS] += 1
    check_bursts(i, w)
    return True


@kernel
def barrier_foe(i, c, w):
    """The standing enemy nearest to her cell ``c`` and its hexes, or ``(-1, 0)`` when
    none is on the field or one already stands next to a standing member of her side."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    n = comb.shape[0]
    near = -1
    near_d = F.UNREACHABLE
    for j in range(n):
        if comb[j, C_SIDE] == side:
            continue
        if not is_standing(j, w):
            continue
        pj = dyn[j, D_POS]
        if pj < 0:
            continue
        for a in range(n):
            if comb[a, C_SIDE] == side:
                if is_standing(a, w):
                    if dyn[a, D_POS] >= 0:
                        if hexes(dyn[a, D_POS], pj, w) <= 1:
                            return -1, 0  # already engaged: nothing left to keep out
        d = hexes(c, pj, w)
        if d < near_d:
            near_d = d
            near = j
    return near, near_d


@kernel
def barrier_circle(i, c, near_d, w):
    """The largest circle round ``c`` whose ring lies wholly on the field with no enemy
    within it (``near_d``: the nearest enemy's hexes), laid out in her ``D_BARRIER_*``;
    the hexes it would raise (0: none fits)."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    for r in range(rules[R_BARRIER_RADIUS], 0, -1):
        if near_d <= r + 1:
            continue
        k = 0
        for m in range(nbr.shape[0]):
            if hexes(c, m, w) == r + 1:
                k += 1
        if k != 6 * (r + 1):
            continue  # the ring leaves the field: not enough space for this circle
        dyn[i, D_BARRIER_KIND] = 1
        dyn[i, D_BARRIER_AT] = c
        dyn[i, D_BARRIER_ARG] = r + 1
        dyn[i, D_BARRIER_LEN] = 0
        placed = raise_cells(i, False, w)
        if placed > 0:
            return placed
    return 0


@kernel
def barrier_wall(i, c, pn, w):
    """The straight wall through her neighbour nearest to the enemy at cell ``pn``, across
    her line to it (the axis whose ends are nearer equally far from the enemy; ties: more
    hexes on the field, then 60 degrees), laid out in her ``D_BARRIER_*``; the hexes it
    would raise (0: none)."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    dn = -1
    best = F.UNREACHABLE
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            x = hexes(m, pn, w)
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
    wl = rules[R_BARRIER_WALL_LENGTH]
    la = (wl - 1) // 2
    lb = wl - 1 - la
    for t in range(1, 3):
        e = (dn + t) % 6
        dyn[i, D_BARRIER_KIND] = 2
        dyn[i, D_BARRIER_AT] = at
        dyn[i, D_BARRIER_ARG] = e
        dyn[i, D_BARRIER_LEN] = wl
        k = raise_cells(i, False, w)
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
        dyn[i, D_BARRIER_ARG] = best_e
    return placed


@kernel
def collapse_barrier(k, w):
    """``k``'s barrier is down (its Resolve spent): every hex of it is open again."""
    comb, rules, dyn, streams, bf = unpack(w)
    terrain = F.row(bf, BF_TERRAIN)
    keep = np.uint8(255 - G.BARRIER - G.RAISED)
    for c in range(terrain.shape[0]):
        if terrain[c] & G.RAISED != 0:
            if barrier_cell_of(k, c, w):
                terrain[c] = terrain[c] & keep
    dyn[k, D_BARRIER_RES] = 0
    dyn[k, D_BARRIER_KIND] = 0
    bf[BF_LST][LST_BARRIERS] -= 1


@kernel(forceinline=True)
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
    if rules[R_BARRIER_DEFENCE] == 1:
        return False
    if goal < 0:
        return False
    c = dyn[i, D_POS]
    if c < 0:
        return False
    if band_gap(hexes(c, goal, w), lo, hi) != 0:
        barrier_field(goal, lo, hi, w)
        if F.row(bf, BF_DIST)[c] >= 0:
            return False  # she can walk there, round the barrier
    terrain = F.row(bf, BF_TERRAIN)
    side = comb[i, C_SIDE]
    best = -1
    best_k = 0
    for m in range(terrain.shape[0]):
        if terrain[m] & G.RAISED == 0:
            continue
        dm = hexes(c, m, w)
        f = form_at(dm, dyn[i, D_RANGED_HI], w)
        if f < 0:
            continue
        k = barrier_owner(m, w)
        if k < 0:
            continue
        if comb[k, C_SIDE] == side:
            continue
        if dm >= 2:
            if rules[R_BARRIER_BLOCKS_RANGED] == 1:
                if raised_between(c, m, w):
                    continue
        key = 2 * hexes(m, goal, w)
        if f != comb[i, C_FORM]:
            key += 1
        if best < 0:
            best = m
            best_k = key
        elif key < best_k:
            best = m
            best_k = key
    if best < 0:
        return False
    f = form_at(hexes(c, best, w), dyn[i, D_RANGED_HI], w)
    dmg = sum_d6(streams[S_DAMAGE], rules[R_DAMAGE_DICE])
    if f == 0:
        dmg += comb[i, C_MELEE_DMG]
    else:
        dmg += comb[i, C_RANGED_DMG]
    if dmg < rules[R_MIN_DAMAGE]:
        dmg = rules[R_MIN_DAMAGE]
    k = barrier_owner(best, w)
    take = dmg
    if take > dyn[k, D_BARRIER_RES]:
        take = dyn[k, D_BARRIER_RES]
    dyn[k, D_BARRIER_RES] -= take
    dyn[k, K_BARRIER_DMG] += take
    dyn[i, K_BARRIER_ATTACKS] += 1
    if dyn[k, D_BARRIER_RES] == 0:
        collapse_barrier(k, w)
    return True


@kernel(forceinline=True)
def blast_target(i, t, t0, w):
    """Her own attack's target after Minion Explosion's choice when she holds it
    (:func:`blast_choice`); ``t`` else."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] >> E_MINION_EXPLOSION) & 1 == 0:
        return t
    return blast_choice(i, t, t0, w)


@kernel
def blast_choice(i, t, t0, w):
    """Minion Explosion on the grid (L1987-1989, boss ability, Major, its cost):
    "an attack originating from one of its minions' hexes"; that minion is
    destroyed (:func:`.talents.riders.minion_explosion`). With the ability usable (uses,
    pool) the monster explodes a minion whenever a standing minion's hex reaches
    a target with its attack (melee next to it, ranged 2 to ``D_RANGED_HI``: the
    audit leaves the form open, so the distance decides as for any attack):
    its target ``t`` when it has one in reach from its own hex (else no
    explosion), otherwise the policy's target ``t0``, otherwise the first listed
    enemy some minion reaches. The first listed minion whose hex reaches is
    chosen (``D_BLAST`` = row + 1). Returns the target (``t`` when nothing changes).
    Not in an Ambush Tactics turn: the ambush's bonuses take the attack's special slot
    (as gridless, where the ambush comes before Minion Explosion)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_AMBUSH] != 0:
        return t
    if find_usable(i, E_MINION_EXPLOSION, w) < 0:
        return t
    if t >= 0:
        m = blast_minion(i, t, w)
        if m >= 0:
            dyn[i, D_BLAST] = m + 1
        return t
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    if t0 >= 0:
        if _candidate(t0, side, finish, w):
            m = blast_minion(i, t0, w)
            if m >= 0:
                dyn[i, D_BLAST] = m + 1
                return t0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
            m = blast_minion(i, j, w)
            if m >= 0:
                dyn[i, D_BLAST] = m + 1
                return j
    return -1


@kernel
def blast_minion(i, t, w):
    """The first listed standing minion of ``i``'s side on the battlefield from
    whose hex ``i``'s attack reaches ``t`` (:func:`reach_from`), or -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    for m in range(comb.shape[0]):
        if comb[m, C_PDEF] >= 0:
            if other_ally(i, m, w):
                if dyn[m, D_POS] >= 0:
                    if reach_from(dyn[m, D_POS], t, dyn[i, D_RANGED_HI], w) >= 0:
                        return m
    return -1


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
    return 1 if veil_worth(i, s, w) else 0


@kernel
def p_rough_going(i, s, c, w):
    """PR_ROUGH_GOING: :func:`rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if rough_going(i, s, w) else 0


@kernel
def p_scatter(i, s, c, w):
    """PR_SCATTER: :func:`scattering_shot`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if scattering_shot(i, s, w) else 0


@kernel
def p_barrier(i, s, c, w):
    """PR_BARRIER: :func:`create_barrier`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if create_barrier(i, s, w) else 0
