"""Movement talents on the hex grid: Dash Strike / Pounce, Teleport, Bypass, Let's Move,
Sprint, Slither Away, Get Over Here / Repel, Safe Place.
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from . import field as F
from . import grid as G
from .world import unpack
from .damage import may_guard
from .hex import (away, band_gap, barrier_field, engaged, foe_next_to, form_at, goal_of, guard_for, hexes, in_sight,
                  lashed, move_to, potential, potential_at, raised_between, refresh_fear, relocate, sight_mask)
from .hex_moves import best_step, held, mines_check, stepped, walk_to
from .overcharge import check_bursts
from .slots import find_usable, has_code, pay_slot, side_has_code
from .state import _candidate, is_standing
from .talents.movement import off_turn_sprint, pay_sprint


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
    if not _candidate(t, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
        return -1
    s = find_usable(i, E_MOVE_ATTACK, w)
    if s < 0:
        return -1
    c = dyn[i, D_POS]
    terrain = F.row(bf, BF_TERRAIN)
    if terrain[c] & G.PERILOUS:
        return -1
    free = rules[R_MOVE_ATTACK_STEP] == 1
    if not free:
        if terrain[c] & G.ROUGH:
            return -1
        if engaged(i, w):
            return -1
    nbr = F.nbr_of(bf)
    occ = F.row(bf, BF_OCC)
    pt = dyn[t, D_POS]
    best = -1
    best_k = 3
    for d in range(6):
        m = nbr[c, d]
        if m < 0:
            continue
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        f = form_at(hexes(m, pt, w), dyn[i, D_RANGED_HI], w)
        if f < 0:
            continue
        k = 0 if f == comb[i, C_FORM] else 1
        if k < best_k:
            best_k = k
            best = m
    if best < 0:
        return -1
    pay_slot(i, s, w)
    check_bursts(i, w)
    if not free:
        if not walk_to(i, best, w):
            return -2
    else:
        move_to(i, best, w)
    dyn[i, K_TALENT_MOVES] += 1
    refresh_fear(w)
    return t


@kernel
def teleport_cell(i, goal, lo, hi, sight, w):
    """The free hex ``lo..hi`` hexes from ``goal`` nearest to ``i`` (in sight of her
    when ``sight``; ties: the lowest cell), -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    c = dyn[i, D_POS]
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    mask = sight_mask(w)
    best = -1
    best_d = F.UNREACHABLE
    for m in range(occ.shape[0]):
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        if band_gap(hexes(m, goal, w), lo, hi) != 0:
            continue
        d = hexes(c, m, w)
        if d >= best_d:
            continue
        if sight != 0:
            if not in_sight(c, m, mask, w):
                continue
        elif bf[BF_LST][LST_BARRIERS] != 0:
            if raised_between(c, m, w):
                continue  # no teleport across a raised barrier, sight or not (Create Barrier, L1697)
        best_d = d
        best = m
    return best


@kernel
def extra_cell(i, goal, lo, hi, n, through, w):
    """Bypass (``through``: ignores barriers, rough terrain and Disengage and
    passes obstacles and people, ending on a free hex) / Swift (up to 2
    hexes, 1 out of or through rough terrain; engaged, the Minor is a
    Disengage: 1 hex): the end hex of up to ``n`` hexes with the lowest
    :func:`potential` (ties: not rough, the fewest hexes, the lowest
    direction); returns ``(cell, hexes)``, cell -1 when none gets nearer."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    c = dyn[i, D_POS]
    rt = False  # Swift walks round a raised barrier (barrier_field); Bypass passes it
    if through == 0:
        if bf[BF_LST][LST_BARRIERS] != 0:
            rt = True
            barrier_field(goal, lo, hi, w)
    now = potential_at(c, goal, lo, hi, rt, w)
    best = -1
    best_n = 0
    best_key = 4 * now
    two = n >= 2
    if through == 0:
        if terrain[c] & G.ROUGH:
            two = False
        if engaged(i, w):
            two = False
    for d1 in range(6):
        m1 = nbr[c, d1]
        if m1 < 0:
            continue
        open1 = not G.blocked(terrain, occ, G.BLOCK_MOVE, m1)
        if open1:
            k = 4 * potential_at(m1, goal, lo, hi, rt, w)
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
            k = 4 * potential_at(m2, goal, lo, hi, rt, w) + 1
            if terrain[m2] & (G.ROUGH | G.PERILOUS):
                k += 2
            if k < best_key:
                best_key = k
                best = m2
                best_n = 2
    if best_key >= 4 * now:
        return -1, 0
    return best, best_n


@kernel(forceinline=True)
def talent_move(i, goal, lo, hi, w):
    """:func:`talent_move_try` when she has Swift / Bypass or Teleport (inlined:
    anyone else pays a load, not a call)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if ((comb[i, C_TMASK] >> E_EXTRA_MOVE) | (comb[i, C_TMASK] >> E_TELEPORT)) & 1 == 0:
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
    c = dyn[i, D_POS]
    gap = band_gap(hexes(c, goal, w), lo, hi)
    if gap == 0:
        return False
    terrain = F.row(bf, BF_TERRAIN)
    bound = dyn[i, D_AIL + A_BOUND] != 0
    need = gap >= 2 or bound or terrain[c] & (G.ROUGH | G.PERILOUS) != 0
    if not need:
        need = engaged(i, w)
    if not need:
        return False
    es = -1
    em = -1
    en = 0
    if has_code(i, E_EXTRA_MOVE, w):
        if not bound:
            if terrain[c] & G.PERILOUS == 0:
                es = find_usable(i, E_EXTRA_MOVE, w)
                if es >= 0:
                    em, en = extra_cell(i, goal, lo, hi, comb[i, C_TP1 + es], comb[i, C_TP2 + es], w)
                    if em >= 0:
                        if comb[i, C_TCOST + es] == 0 or potential(em, goal, lo, hi, w) == 0:
                            return extra_move(i, es, em, en, w)
    if has_code(i, E_TELEPORT, w):
        s = find_usable(i, E_TELEPORT, w)
        if s >= 0:
            m = teleport_cell(i, goal, lo, hi, comb[i, C_TP1 + s], w)
            if m >= 0:
                pay_slot(i, s, w)
                dyn[i, K_TALENT_MOVES] += hexes(c, m, w)
                relocate(i, m, w)
                check_bursts(i, w)
                refresh_fear(w)
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
    pay_slot(i, s, w)
    check_bursts(i, w)
    if (comb[i, C_FOEMASK] >> E_CLOSER) & 1 != 0:
        if held(i, m, w):
            return True
    if n == 2:
        if (comb[0, C_ALLMASK] >> E_MINES) & 1 != 0:
            via = pass_cell(dyn[i, D_POS], m, w)
            if via >= 0:
                relocate(i, via, w)
                mines_check(w)
                stop = not is_standing(i, w)
                if dyn[i, D_POS] != via:
                    stop = True  # a Defensive Switch took her place (and moved her)
                elif F.row(bf, BF_OCC)[m] >= 0:
                    stop = True  # someone stands on her end hex now
                if stop:
                    dyn[i, K_MOVES] += 1
                    dyn[i, K_TALENT_MOVES] += 1
                    refresh_fear(w)
                    return True
    relocate(i, m, w)
    dyn[i, K_MOVES] += n
    dyn[i, K_TALENT_MOVES] += n
    refresh_fear(w)
    return True


@kernel
def pass_cell(c, m, w):
    """The hex a 2-hex move from cell ``c`` to cell ``m`` passes through: the first
    neighbour of ``c`` (lowest direction) next to ``m`` that is free and ordinary
    (not rough, Perilous or a door); -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    for d in range(6):
        x = nbr[c, d]
        if x >= 0:
            if hexes(x, m, w) == 1:
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
    if dyn[i, D_SPRINT_AT] == dyn[0, D_ROUND]:
        return False
    if not away(i, goal, lo, hi, w):
        return False
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False
    c = dyn[i, D_POS]
    if F.row(bf, BF_TERRAIN)[c] & (G.ROUGH | G.PERILOUS):
        return False
    if (comb[i, C_ALLMASK] >> E_LASHING) & 1 != 0:
        if lashed(i, c, w):
            return False  # Lashing Ground: her hex is rough terrain for her (L2045)
    if engaged(i, w):
        return False
    s = find_usable(i, E_SPRINT, w)
    if s < 0:
        return False
    step = best_step(i, goal, lo, hi, 2, w)
    if step < 0:
        return False
    pay_slot(i, s, w)
    dyn[i, D_SPRINT_AT] = dyn[0, D_ROUND]
    if walk_to(i, step, w):
        dyn[i, K_TALENT_MOVES] += 1
    refresh_fear(w)
    return True


@kernel
def guard_sprint(i, t, w):
    """Sprint off her turn (L1726-1729, free, 2/Scene, once per round: "in
    response to an enemy making an attack on your ally"; A12ii): before ``i``'s
    attack roll on ``t`` (a basic attack of the turn, a frenzy's attack or
    retaliation, :func:`.hex_turn.grid_attack_call`, or one target of an area attack,
    :func:`.hex_areas.area_strike`; not a mine's, which nobody intercepts), when nobody could
    intercept it (:func:`guard_for`, L1469), the first listed ally of ``t`` with
    Sprint usable who may intercept (:func:`.damage.may_guard`) and whose
    policy would (``t`` below her ``intercept`` share of Resolve, as for
    Defensive Switch) steps one ordinary hex to stand next to ``t``, so she can
    intercept the hit. As on her turn: not while Bound, engaged, on rough or
    Perilous terrain or her Lashing Ground; the step is a free ordinary hex
    (not rough, Perilous or a door), the lowest direction first. Only a row
    usable off her turn (:func:`.talents.movement.off_turn_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pt = dyn[t, D_POS]
    if pt < 0:
        return
    if comb[t, C_COVER] == 0:
        return  # nobody may intercept for her
    a = dyn[i, D_POS]
    if dyn[i, D_BLAST] != 0:
        a = dyn[dyn[i, D_BLAST] - 1, D_POS]
    ranged = hexes(a, pt, w) > rules[R_MELEE_RANGE + 1]
    if guard_for(i, a, t, ranged, w) >= 0:
        return  # someone can intercept already
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if not may_guard(j, t, -1, w):
            continue
        if dyn[t, D_RES] * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            continue
        if dyn[j, D_AIL + A_BOUND] != 0:
            continue
        c = dyn[j, D_POS]
        if c < 0:
            continue
        if terrain[c] & (G.ROUGH | G.PERILOUS):
            continue
        if (comb[j, C_ALLMASK] >> E_LASHING) & 1 != 0:
            if lashed(j, c, w):
                continue
        if engaged(j, w):
            continue
        s = off_turn_sprint(j, w)
        if s < 0:
            continue
        step = -1
        for d in range(6):
            m = nbr[c, d]
            if m >= 0:
                if not G.blocked(terrain, occ, G.BLOCK_MOVE, m):
                    if terrain[m] & (G.ROUGH | G.PERILOUS | G.DOOR) == 0:
                        if hexes(m, pt, w) == 1:
                            step = m
                            break
        if step < 0:
            continue
        pay_sprint(j, s, w)
        if walk_to(j, step, w):
            dyn[j, K_TALENT_MOVES] += 1
            dyn[j, K_GUARD_SPRINTS] += 1
        refresh_fear(w)
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
    if not is_standing(t, w):
        return
    if dyn[t, D_POS] < 0:
        return
    if dyn[t, D_AIL + A_BOUND] != 0:
        return
    s = find_usable(t, E_SLITHER, w)
    if s < 0:
        return
    goal, lo, hi = goal_of(t, a, w)
    if goal < 0:
        return
    if comb[t, P_MOVE] == MOVE_PROTECT:
        return
    step = best_step(t, goal, lo, hi, 0, w)
    if step < 0:
        return
    pay_slot(t, s, w)
    if held(t, step, w):
        check_bursts(t, w)
        return  # And Your Enemies Closer: the move attempted is used up (L1526)
    move_to(t, step, w)
    dyn[t, K_TALENT_MOVES] += 1
    check_bursts(t, w)


@kernel
def shove(i, t, sign, w):
    """Get Over Here (``sign`` -1, L1708-1712) / Repel (+1, L2087-2090): after
    a hit, ``t`` is forced 1 hex closer to / away from ``i``: the free
    neighbour of its hex nearest to (farthest from) her (ties: the lowest
    direction); forced, so rough terrain and enemies do not hold it;
    obstacles, barriers and people do (it stays)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pt = dyn[t, D_POS]
    if pt < 0:
        return
    if dyn[t, D_DEAD] != 0:
        return
    pi = dyn[i, D_POS]
    nbr = F.nbr_of(bf)
    terrain = F.row(bf, BF_TERRAIN)
    occ = F.row(bf, BF_OCC)
    now = hexes(pt, pi, w)
    best = -1
    best_key = 0
    for d in range(6):
        m = nbr[pt, d]
        if m < 0:
            continue
        if G.blocked(terrain, occ, G.BLOCK_MOVE, m):
            continue
        k = sign * (hexes(m, pi, w) - now)
        if k > best_key:
            best_key = k
            best = m
    if best < 0:
        return
    relocate(t, best, w)
    dyn[i, K_SHOVED] += 1
    refresh_fear(w)


@kernel
def safe_place(i, w):
    """Safe Place (L1782-1785, Major, 1 Support overcharge): a willing ally in
    her line of sight (rule ``teleport_sight``) moves to a free hex adjacent
    to her. Used on the ally (not herself; standing, or down and alive)
    lowest in Resolve share below ``heal_below`` who stands next to a
    standing enemy, to a hex next to her with no standing enemy adjacent
    (the lowest direction); True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_SAFE_PLACE, w)
    if s < 0:
        return False
    c = dyn[i, D_POS]
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
        if foe_next_to(m, i, w):
            continue
        dest = m
        break
    if dest < 0:
        return False
    mask = sight_mask(w)
    best = -1
    best_share = comb[i, P_HEAL_BELOW]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, C_SIDE] != comb[i, C_SIDE]:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        pj = dyn[j, D_POS]
        if pj < 0:
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share >= best_share:
            continue
        if not foe_next_to(pj, i, w):
            continue
        if comb[i, C_TP1 + s] != 0:
            if not in_sight(c, pj, mask, w):
                continue
        best = j
        best_share = share
    if best < 0:
        return False
    pay_slot(i, s, w)
    dyn[i, K_SHOVED] += hexes(dyn[best, D_POS], dest, w)
    relocate(best, dest, w)
    check_bursts(i, w)
    refresh_fear(w)
    return True


@kernel(forceinline=True)
def sprint_on_turn(i, goal, lo, hi, w):
    """Sprint on her turn when she holds it: :func:`sprint` toward ``goal``'s range, then
    what her steps set off (:func:`.hex_moves.stepped`). Returns whether she holds it (the
    turn then settles what it set off)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_SPRINT, w):
        return False
    sprint(i, goal, lo, hi, w)
    stepped(i, w)
    return True


@kernel
def sprint_turn_end(i, t0, w):
    """Sprint again at the end of her turn (she holds it, stands, has a target ``t0``):
    toward ``t0``'s range (:func:`sprint`, :func:`.hex_moves.stepped`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_SPRINT, w):
        return
    if not is_standing(i, w):
        return
    if t0 >= 0:
        goal, lo, hi = goal_of(i, t0, w)
        sprint(i, goal, lo, hi, w)
        stepped(i, w)


@kernel(forceinline=True)
def guard_sprint_for(i, t, w):
    """Before ``i``'s attack on ``t``: when ``t``'s side holds Sprint, an ally may Sprint off
    her turn to intercept it (:func:`guard_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if side_has_code(t, E_SPRINT, w):
        guard_sprint(i, t, w)


@kernel(forceinline=True)
def slither_after(t, a, w):
    """After ``a``'s attack on ``t``: Slither Away when ``t`` holds it (:func:`slither`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if side_has_code(t, E_SLITHER, w):
        if has_code(t, E_SLITHER, w):
            slither(t, a, w)


@kernel(forceinline=True)
def safe_place_turn(i, w):
    """Safe Place as her Major when she holds it (:func:`safe_place`); True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_SAFE_PLACE, w):
        return False
    return safe_place(i, w)


@kernel(forceinline=True)
def move_attack_turn(i, t0, w):
    """Dash Strike / Pounce when nobody is in reach and she holds it (:func:`move_attack`);
    the target, -1 none."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_MOVE_ATTACK, w):
        return -1
    return move_attack(i, t0, w)
