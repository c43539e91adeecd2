"""The movement, area and terrain talents on the draft's positions (seed 001, DRAFT
L474-510; :mod:`.positions`: the map, reach and steps): a movement talent as her Minor
(Let's Move, Teleport, Bypass, Swift), Sprint and Speed Burst (on her turn, and off it to
Cover), Dash Strike, Safe Place, Get Back, Get Over Here / Repel, Blast Strike's position,
Rough Going. The turn's own moves on positions are :mod:`.positions_turn`'s.
"""
from __future__ import annotations

from sim._jit import kernel

from .codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from .world import unpack
from .damage import may_guard
from .hex import band_gap
from .overcharge import check_bursts
from .slots import can_pay, find_usable, has_code, pay_slot, side_has_code
from .state import _candidate, is_standing
from .talents.areas import area_done, area_next
from .talents.movement import off_turn_sprint, pay_sprint
from .talents.team import area_switch
from . import state as ST
from .positions import (apart, apart_to, away, done, engaged, foe_at, form_at, goal_of, held, is_rough, move_to, pick,
                        ready, rough_short, step_to)


@kernel
def shove(i, t, sign, w):
    """Get Over Here (``sign`` -1, DRAFT L125-129) / Repel (+1): after a hit,
    ``t`` moves 1 position closer to / farther from ``i`` (forced: rough
    terrain, enemies and Guardian do not hold it; the map's end does). Pulled
    from her own position: it stays; pushed out of her position: toward its
    own side's end."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[t, D_DEAD] != 0:
        return
    pt = dyn[t, D_PLACE]
    pi = dyn[i, D_PLACE]
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
            m = pt - 1 if comb[t, C_SIDE] == 0 else pt + 1
    if m < 0 or m > rules[R_POSITIONS] - 1:
        return
    dyn[t, D_PLACE] = m
    dyn[t, D_PAID] = 0
    dyn[i, K_SHOVED] += 1


@kernel
def sprint(i, t, w):
    """Sprint (DRAFT L149-153, free, 2/Scene, once per round, on her turn):
    one position toward her band around target ``t`` as a free action, when
    she is out of it and a plain Movement would do (not while Bound, engaged
    or short of leaving a rough position: so never out of a Guardian's
    position). Speed Burst (DRAFT L63-67, free, 2 Support overcharge, the
    mechanic's ``any_round``) is the same step with no limit a round; a
    girl with both takes the first listed she can use; one step a turn.
    Returns True if she sprinted."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_SPRINT, w):
        return False
    who, lo, hi = goal_of(i, t, w)
    if not away(i, who, lo, hi, w):
        return False
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False
    if rough_short(i, w):
        return False
    if engaged(i, w):
        return False
    p = step_to(i, who, lo, hi, w)
    if p < 0:
        return False
    s = -1
    again = dyn[i, D_SPRINT_AT] == dyn[0, D_ROUND]
    for k in range(MAXT):
        if comb[i, C_TCODE + k] == E_SPRINT:
            if dyn[i, D_TUSES + k] != 0:
                if comb[i, C_TP2 + k] != 0 or not again:
                    if can_pay(i, k, w):
                        s = k
                        break
    if s < 0:
        return False
    pay_slot(i, s, w)
    check_bursts(i, w)
    if comb[i, C_TP2 + s] == 0:
        dyn[i, D_SPRINT_AT] = dyn[0, D_ROUND]
    move_to(i, p, w)
    dyn[i, K_TALENT_MOVES] += 1
    return True


@kernel
def cover_sprint(i, t, w):
    """Sprint off her turn on positions (the draft's Speed Burst, DRAFT L63-67:
    "You may use this power outside your normal turn"; a 4.1 Sprint row,
    L1726-1729): before ``i``'s attack roll on ``t``, when nobody in ``t``'s
    position could Cover her (L490-492), the first listed ally of ``t`` one
    position away who may Cover (:func:`.damage.may_guard`) and whose policy
    would (``t`` below her ``intercept`` share of Resolve, as for Defensive
    Switch) moves into ``t``'s position (not while Bound, engaged or short of
    leaving a rough position; not into a rough position), so she can Cover
    the hit. Only rows usable off her turn (:func:`.talents.movement.off_turn_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pt = dyn[t, D_PLACE]
    if pt < 0:
        return
    if comb[t, C_COVER] == 0:
        return
    n = comb.shape[0]
    for j in range(n):
        if j != i:
            if dyn[j, D_PLACE] == pt:
                if may_guard(j, t, -1, w):
                    return  # someone can Cover her already
    if is_rough(pt, w):
        return
    for j in range(n):
        if j == i:
            continue
        if not may_guard(j, t, -1, w):
            continue
        if dyn[t, D_RES] * 100 >= comb[j, P_INTERCEPT] * comb[t, C_RES]:
            continue
        if abs(dyn[j, D_PLACE] - pt) != 1:
            continue
        if dyn[j, D_AIL + A_BOUND] != 0:
            continue
        if rough_short(j, w):
            continue
        if engaged(j, w):
            continue
        s = off_turn_sprint(j, w)
        if s < 0:
            continue
        pay_sprint(j, s, w)
        move_to(j, pt, w)
        dyn[j, K_TALENT_MOVES] += 1
        dyn[j, K_GUARD_SPRINTS] += 1
        return


@kernel
def dash(i, t, w):
    """Dash Strike (DRAFT L277-281, Major, 2/Scene) / Pounce: move 1 position
    and make a basic attack. Used when nobody is in reach and one position
    brings the policy's target ``t`` into reach (her attack_kind's form
    first, then the step toward her side's end); the move is ordinary
    movement (not out of an enemy's position, so never out of a Guardian's,
    nor short of leaving a rough one, not while Bound). Returns the target to
    attack, -1 if not used."""
    comb, rules, dyn, streams, bf = unpack(w)
    if t < 0:
        return -1
    if not _candidate(t, comb[i, C_SIDE], comb[i, P_FINISH] != 0, w):
        return -1
    if dyn[i, D_AIL + A_BOUND] != 0:
        return -1
    if rough_short(i, w):
        return -1
    if engaged(i, w):
        return -1
    s = find_usable(i, E_MOVE_ATTACK, w)
    if s < 0:
        return -1
    p = dyn[i, D_PLACE]
    q = dyn[t, D_PLACE]
    last = rules[R_POSITIONS] - 1
    home = -1 if comb[i, C_SIDE] == 0 else 1
    best = -1
    best_k = 3
    for k in range(2):
        m = p + (home if k == 0 else -home)
        if m < 0 or m > last:
            continue
        f = form_at(i, m - q if m >= q else q - m, w)
        if f < 0:
            continue
        key = 0 if f == comb[i, C_FORM] else 1
        if key < best_k:
            best_k = key
            best = m
    if best < 0:
        return -1
    pay_slot(i, s, w)
    check_bursts(i, w)
    move_to(i, best, w)
    dyn[i, K_TALENT_MOVES] += 1
    return t


@kernel
def extra_place(i, who, lo, hi, n, through, w):
    """Where Bypass / Swift (``extra_move``: ``n`` positions, ``through`` =
    ignoring rough terrain and enemies) takes ``i``: up to ``n`` steps toward
    her band (:func:`step_to`), stopping in it; without ``through`` she cannot
    leave an enemy's position or a rough one (Swift then is a plain move).
    Returns ``(position, steps)``, (-1, 0) if it gets her nowhere."""
    comb, rules, dyn, streams, bf = unpack(w)
    p0 = dyn[i, D_PLACE]
    if through == 0:
        if engaged(i, w):
            return -1, 0
        if is_rough(p0, w):
            return -1, 0
    k = 0
    for _ in range(n):
        p = step_to(i, who, lo, hi, w)
        if p < 0:
            break
        dyn[i, D_PLACE] = p
        k += 1
        if through == 0:
            if is_rough(p, w):
                break
    m = dyn[i, D_PLACE]
    dyn[i, D_PLACE] = p0
    if k == 0:
        return -1, 0
    return m, k


@kernel
def teleport_place(i, who, lo, hi, w):
    """Teleport's destination (DRAFT L69-73): the position in her band around
    ``who`` nearest to hers (ties toward position 1), -1 if none differs."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = dyn[i, D_PLACE]
    q = dyn[who, D_PLACE]
    best = -1
    best_d = 1 << 30
    for m in range(rules[R_POSITIONS]):
        if m == p:
            continue
        e = m - q if m >= q else q - m
        if band_gap(e, lo, hi) != 0:
            continue
        d = m - p if m >= p else p - m
        if d < best_d:
            best_d = d
            best = m
    return best


@kernel
def talent_move(i, who, lo, hi, w):
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
    comb, rules, dyn, streams, bf = unpack(w)
    gap = band_gap(apart(i, who, w), lo, hi)
    if gap == 0:
        return False
    bound = dyn[i, D_AIL + A_BOUND] != 0
    need = gap >= 2 or bound or rough_short(i, w)
    if not need:
        need = engaged(i, w)
    if not need:
        return False
    es = -1
    em = -1
    en = 0
    if has_code(i, E_EXTRA_MOVE, w):
        if not bound:
            es = find_usable(i, E_EXTRA_MOVE, w)
            if es >= 0:
                em, en = extra_place(i, who, lo, hi, comb[i, C_TP1 + es], comb[i, C_TP2 + es], w)
                if em >= 0:
                    e = em - dyn[who, D_PLACE]
                    if e < 0:
                        e = -e
                    if comb[i, C_TCOST + es] == 0 or band_gap(e, lo, hi) == 0:
                        return extra_move(i, es, em, en, w)
    if has_code(i, E_TELEPORT, w):
        s = find_usable(i, E_TELEPORT, w)
        if s >= 0:
            m = teleport_place(i, who, lo, hi, w)
            if m >= 0:
                pay_slot(i, s, w)
                check_bursts(i, w)
                dyn[i, K_TALENT_MOVES] += apart_to(i, m, w)
                dyn[i, D_PLACE] = m
                dyn[i, D_PAID] = 0
                return True
    if em >= 0:
        return extra_move(i, es, em, en, w)
    return False


@kernel
def extra_move(i, s, m, n, w):
    """Pay for Bypass / Swift in slot ``s`` and move ``n`` positions to ``m``
    (Guardian may hold her: the Minor is spent)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_slot(i, s, w)
    check_bursts(i, w)
    if held(i, w):
        return True
    dyn[i, D_PLACE] = m
    dyn[i, D_PAID] = 0
    dyn[i, K_PLACES] += n
    dyn[i, K_TALENT_MOVES] += n
    return True


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
    side = comb[i, C_SIDE]
    finish = comb[i, P_FINISH] != 0
    allies = rules[R_AREA_ALLIES] != 0
    here = dyn[i, D_PLACE]
    best = -1
    best_n = 0
    best_a = 0
    best_d = 0
    for p in range(rules[R_POSITIONS]):
        d = p - here if p >= here else here - p
        if form_at(i, d, w) < 0:
            continue
        n = 0
        a = 0
        for j in range(comb.shape[0]):
            if dyn[j, D_PLACE] != p:
                continue
            if _candidate(j, side, finish, w):
                n += 1
            elif allies:
                if j != i:
                    if comb[j, C_SIDE] == side:
                        if is_standing(j, w):
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
    need = comb[i, P_AREA_MIN]
    if need < 1:
        need = 1
    if best < 0 or best_n < need:
        return False
    pay_slot(i, s, w)
    n = comb.shape[0]
    for j in range(n):  # the targets: those in the position when the attack is made
        if j != i:
            if dyn[j, D_PLACE] == best:
                dyn[j, D_AREA_HIT] = 1
    for j in range(n):
        if not area_next(j, w):
            continue
        if not is_standing(i, w):
            break
        if dyn[j, D_PLACE] != best:
            continue
        hit = _candidate(j, side, finish, w)
        if not hit:
            if allies:
                if comb[j, C_SIDE] == side:
                    hit = is_standing(j, w)
        if not hit:
            continue
        # Defensive Switch (DRAFT L103-107): an ally outside the position may take her place
        t = area_switch(i, j, w)
        ready(i, t, w)
        ST.attack_call(i, t, w)
        done(i, t, w)
        dyn[i, K_AREA_TARGETS] += 1
    area_done(w)
    check_bursts(i, w)
    return True


@kernel
def safe_place(i, w):
    """Safe Place (DRAFT L241-243, Major): one willing ally moves to her
    position. Used, as on the hex grid, on the ally (not herself; standing,
    or down and alive) lowest in Resolve share below ``heal_below`` who shares
    a position with a standing enemy, when no standing enemy is in hers; the
    move is the talent's (no Disengage, rough terrain or Guardian, as the
    grid's). True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_SAFE_PLACE, w)
    if s < 0:
        return False
    here = dyn[i, D_PLACE]
    if foe_at(here, comb[i, C_SIDE], w):
        return False
    best = rescue_ally(i, here, -1, w)
    if best < 0:
        return False
    send(i, s, best, here, w)
    return True


@kernel
def get_back(i, w):
    """Get Back (DRAFT L119-123, Minor): send one willing ally within
    ``range_positions`` (0-2, ``C_TREACH``) to Position 1 (rule
    ``get_back_to``: ``own_end`` = her side's end of the map, Position 1 for
    the first side and the last position for the second; ``position_1`` =
    Position 1 for both). Used on the ally (not herself; standing, or down and
    alive) lowest in Resolve share below ``heal_below`` who shares a position
    with a standing enemy, when no standing enemy is at Position 1; the move
    is the talent's (no Disengage, rough terrain or Guardian, like Safe
    Place). True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_GET_BACK, w)
    if s < 0:
        return False
    side = comb[i, C_SIDE]
    dest = 0
    if rules[R_GET_BACK_TO] == 0 and side != 0:
        dest = rules[R_POSITIONS] - 1
    if foe_at(dest, side, w):
        return False
    best = rescue_ally(i, dest, comb[i, C_TREACH + s], w)
    if best < 0:
        return False
    send(i, s, best, dest, w)
    return True


@kernel
def send(i, s, j, dest, w):
    """Pay ``i``'s talent in slot ``s`` and put ally ``j`` at position ``dest``
    (the talent's move, counted in her K_SHOVED)."""
    comb, rules, dyn, streams, bf = unpack(w)
    pay_slot(i, s, w)
    dyn[i, K_SHOVED] += apart_to(j, dest, w)
    dyn[j, D_PLACE] = dest
    dyn[j, D_PAID] = 0
    check_bursts(i, w)


@kernel
def rescue_ally(i, dest, hi, w):
    """Safe Place's and Get Back's ally: of ``i``'s allies (not herself;
    standing, or down and alive) not at position ``dest`` and at most ``hi``
    positions from her (-1: any), the one lowest in Resolve share below her
    ``heal_below`` who shares a position with a standing enemy (ties to the
    first listed); -1 if none."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    best = -1
    best_share = comb[i, P_HEAL_BELOW]
    for j in range(comb.shape[0]):
        if j == i:
            continue
        if comb[j, C_SIDE] != side:
            continue
        if dyn[j, D_DEAD] != 0:
            continue
        pj = dyn[j, D_PLACE]
        if pj < 0 or pj == dest:
            continue
        if hi >= 0 and apart(i, j, w) > hi:
            continue
        share = dyn[j, D_RES] * 100 // comb[j, C_RES]
        if share >= best_share:
            continue
        if not foe_at(pj, side, w):
            continue
        best = j
        best_share = share
    return best


@kernel
def lets_move(i, who, lo, hi, w):
    """Let's Move (DRAFT L47-51, Minor, 1 Support overcharge): she moves one
    position and one willing ally immediately moves 1 position. Used in
    place of her plain Movement toward her band (not while Bound, engaged or
    short of leaving a rough position) when an ally could use a step too:
    the first listed standing ally who is outside her own band around her
    policy's target (:func:`pick`, :func:`goal_of`) and could make that
    step by plain Movement. Both moves are Movement (a Guardian may hold
    either). True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    p = step_to(i, who, lo, hi, w)
    if p < 0:
        return False
    if not free_to_step(i, w):
        return False
    s = find_usable(i, E_LETS_MOVE, w)
    if s < 0:
        return False
    side = comb[i, C_SIDE]
    mate = -1
    mp = -1
    for j in range(comb.shape[0]):
        if j == i or comb[j, C_SIDE] != side:
            continue
        if not is_standing(j, w):
            continue
        if dyn[j, D_PLACE] < 0:
            continue
        if not free_to_step(j, w):
            continue
        tj = pick(j, False, w)
        wj, lj, hj = goal_of(j, tj, w)
        if not away(j, wj, lj, hj, w):
            continue
        q = step_to(j, wj, lj, hj, w)
        if q >= 0:
            mate = j
            mp = q
            break
    if mate < 0:
        return False
    pay_slot(i, s, w)
    if not held(i, w):
        move_to(i, p, w)
    if not held(mate, w):
        move_to(mate, mp, w)
        dyn[i, K_TALENT_MOVES] += 1
    check_bursts(i, w)
    return True


@kernel(forceinline=True)
def free_to_step(i, w):
    """A plain Movement could move ``i`` now: not Bound, not engaged, not short
    of leaving a rough position."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_AIL + A_BOUND] != 0:
        return False
    if rough_short(i, w):
        return False
    return not engaged(i, w)


@kernel
def rough_going(i, s, w):
    """The draft's Rough Going (DRAFT L319-323, Minor, 1 Attack overcharge): a
    position within 0-2 of her (the slot's ``range_positions``) takes on Rough
    Terrain for the rest of the scene (:func:`is_rough`). She picks the
    position of the standing enemy nearest her (ties to the first listed) that
    is not rough yet and holds no standing ally of hers (herself included);
    not used when there is none. Counted in ``K_ROUGHENED`` (positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    side = comb[i, C_SIDE]
    hi = comb[i, C_TREACH + s]
    if hi < 0:
        hi = rules[R_POSITIONS]
    best = -1
    best_d = 1 << 30
    for j in range(comb.shape[0]):
        if comb[j, C_SIDE] == side:
            continue
        if not is_standing(j, w):
            continue
        p = dyn[j, D_PLACE]
        if p < 0:
            continue
        d = apart(i, j, w)
        if d > hi or d >= best_d:
            continue
        if is_rough(p, w):
            continue
        if foe_at(p, 1 - side, w):
            continue  # an ally of hers stands there
        best = p
        best_d = d
    if best < 0:
        return False
    pay_slot(i, s, w)
    dyn[0, D_ROUGH_PLACES] |= 1 << best
    dyn[i, K_ROUGHENED] += 1
    return True


@kernel
def p_area(i, s, c, w):
    """PR_AREA and PR_GRAVITY: :func:`area_position` (no pull on positions)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if area_position(i, s, w) else 0


@kernel
def p_rough_going(i, s, c, w):
    """PR_ROUGH_GOING: :func:`rough_going`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if rough_going(i, s, w) else 0


@kernel
def p_safe_place(i, b, c, w):
    """PR_SAFE_PLACE on positions: :func:`safe_place`."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if safe_place(i, w) else 0


@kernel
def p_shove(i, t, sign, w):
    """PR_SHOVE on positions: :func:`shove`."""
    comb, rules, dyn, streams, bf = unpack(w)
    shove(i, t, sign, w)
    return 0


@kernel(forceinline=True)
def cover_sprint_for(i, t, w):
    """Before ``i``'s attack on ``t``: when ``t``'s side holds Sprint, an ally may Speed Burst
    into ``t``'s position to Cover her (:func:`cover_sprint`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if side_has_code(t, E_SPRINT, w):
        cover_sprint(i, t, w)


@kernel(forceinline=True)
def lets_move_for(i, who, lo, hi, w):
    """Let's Move as her Minor step when she holds it (:func:`lets_move`); True if used."""
    comb, rules, dyn, streams, bf = unpack(w)
    if not has_code(i, E_LETS_MOVE, w):
        return False
    return lets_move(i, who, lo, hi, w)
