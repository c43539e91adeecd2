"""Area and terrain talents, their gridless parts: Blast Strike / Burst Attack, Gravity
Wave, Veil, Rough Going, Scattering shot, Mines, Create Barrier (the grid's and
the positions' parts are their geometry's).
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import call, gridless, on_grid, unpack
from ..overcharge import check_bursts
from ..slots import find_usable, pay_slot
from ..state import _candidate, attack_call, is_standing
from ..targets import target_of


@kernel(forceinline=True)
def area_next(j, w):
    """An area attack's pass over its marked targets (``D_AREA_HIT``): True (and marked 2,
    attacked) when ``j`` is a target not yet attacked by it."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_AREA_HIT] != 1:
        return False
    dyn[j, D_AREA_HIT] = 2
    return True


@kernel(forceinline=True)
def area_done(w):
    """The area attack is over: no marks (``D_AREA_HIT``) left."""
    comb, rules, dyn, streams, bf = unpack(w)
    for j in range(dyn.shape[0]):
        dyn[j, D_AREA_HIT] = 0


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
def area_gridless(i, w):
    """An area attack without a grid (Blast Strike, Burst Attack, Gravity Wave): it reaches
    ``area_targets`` enemies: the policy's target, then the next ones listed. Used when
    that is at least the policy's ``area_min`` (and 1). Returns the attacks planned (0 = not used;
    the caller pays and this attacks)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    k = 0
    for j in range(comb.shape[0]):
        if _candidate(j, side, finish, w):
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
        if not is_standing(i, w):
            break
        if _candidate(j, side, finish, w):
            attack_call(i, j, w)
            dyn[i, K_AREA_TARGETS] += 1
            left -= 1


@kernel
def area_gridless_use(i, s, w):
    """Gridless Blast Strike / Burst Attack / Gravity Wave from slot ``s``: when it reaches
    enough enemies (:func:`area_gridless`), pay and make its attacks (:func:`area_attacks`).
    Returns whether it was used."""
    comb, rules, dyn, streams, bf = unpack(w)
    k = area_gridless(i, w)
    if k == 0:
        return False
    pay_slot(i, s, w)
    area_attacks(i, k, w)
    check_bursts(i, w)
    return True


@kernel
def try_area_attack(i, w):
    """Blast Strike (L1801) / Burst Attack (L1965), ``area_attack``: a Major action, one basic
    attack against every target in the area, each defending separately (each target is its
    own attack: the attacker rolls per target). Grid: a straight line as long as her attack
    range (``ranged_range``'s far end) in the direction that reaches the most enemies (P2
    ``width`` 2: and the parallel line beside it); P1 ``shape`` blast: or every adjacent hex,
    whichever reaches more (:func:`..hex_areas.area_attack`). Gridless: ``area_targets``
    enemies. Used when it reaches at least the policy's ``area_min`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_AREA_ATTACK, w)
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
    attack against the targets (rule ``gravity_targets``, A43) (:func:`..hex_areas.gravity_wave`).
    Gridless: no pull; it attacks ``area_targets`` enemies."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GRAVITY, w)
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
    s = find_usable(i, E_VEIL, w)
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
def veil_penalty(i, t, w):
    """Veil on ``t`` (L2121): the penalty to ``i``'s attack on her while it holds and ``i``
    is not within 1-2 hexes (grid: ``D_VEIL_D`` set by the grid attack; gridless: every
    attacker unless ``veil_gridless`` is none)."""
    comb, rules, dyn, streams, bf = unpack(w)
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
    used and costs nothing): :func:`..hex_areas.rough_going`; on the draft's positions
    (DRAFT L319-323) :func:`..positions_talents.rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    if gridless(rules):
        return False
    s = find_usable(i, E_ROUGH_GOING, w)
    if s < 0:
        return False
    return call(rules[PR_ROUGH_GOING], i, s, 0, w) != 0


@kernel
def try_scatter(i, w):
    """Scattering shot (L2092-2096), ``scattering_shot``: a Major action on the grid
    (:func:`..hex_areas.scattering_shot`); gridless never used (the push does nothing there)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    s = find_usable(i, E_SCATTER, w)
    if s < 0:
        return False
    return call(rules[PR_SCATTER], i, s, 0, w) != 0


@kernel
def try_mines(i, w):
    """Mines (L2059-2066), ``mines``: a Minor action on the grid (gridless never used, no
    cost): a mine in her hex (:func:`..hex_moves.place_mine`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    s = find_usable(i, E_MINES, w)
    if s < 0:
        return False
    return call(rules[PR_MINE], i, s, 0, w) != 0


@kernel
def try_barrier(i, w):
    """Create Barrier (L1693-1697), ``create_barrier``: a Minor action on the grid
    (:func:`..hex_areas.create_barrier`); gridless it is never used and costs nothing
    (with no hexes there is nothing for a barrier to block)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not on_grid(bf):
        return False
    if dyn[i, D_BARRIER_RES] > 0:
        return False
    s = find_usable(i, E_BARRIER, w)
    if s < 0:
        return False
    return call(rules[PR_BARRIER], i, s, 0, w) != 0


@kernel
def h_veiled(i, t, c, w):
    """DECLARE, Veil on the target (L2121): its penalty to ``i``'s attack (:func:`veil_penalty`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[i, D_ATK_BONUS] -= veil_penalty(i, t, w)
    return 0
