"""Hex battlefield geometry (sim/systems/mb41/grid.py): distances, ranges, lines, circles,
wraparound, rough terrain, path steps and formations, checked against brute force."""
from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.systems.mb41 import grid as G
from sim.systems.mb41.grid import BLOCK_MOVE, OBSTACLE, ROUGH, Battlefield

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ------------------------------------------------------------------ brute force helpers


def bfs(bf: Battlefield, sources, passable=lambda c: True) -> list[int]:
    """Plain BFS over the neighbour graph (sources at 0; enters only passable cells)."""
    dist = [-1] * bf.n
    dq = deque()
    for s in sources:
        if dist[s] < 0:
            dist[s] = 0
            dq.append(s)
    while dq:
        c = dq.popleft()
        for m in bf.nbr[c]:
            if m >= 0 and dist[m] < 0 and passable(m):
                dist[m] = dist[c] + 1
                dq.append(m)
    return dist


@st.composite
def fields(draw, allow_wrap=True):
    shape = draw(st.sampled_from(G.SHAPES))
    wrap = draw(st.booleans()) if allow_wrap else False
    if shape == "rect":
        if wrap:
            bf = Battlefield("rect", width=draw(st.integers(3, 9)), height=2 * draw(st.integers(2, 5)), wrap=True)
        else:
            bf = Battlefield("rect", width=draw(st.integers(1, 9)), height=draw(st.integers(1, 9)))
    else:
        bf = Battlefield("hexagon", radius=draw(st.integers(1 if wrap else 0, 4)), wrap=wrap)
    flags = draw(st.lists(st.sampled_from([0, 0, 0, OBSTACLE, ROUGH, G.BARRIER]), min_size=bf.n, max_size=bf.n))
    bf.terrain[:] = np.array(flags, dtype=np.uint8)
    return bf


# ------------------------------------------------------------------ structure


def test_sizes_and_neighbours():
    assert Battlefield("rect", width=8, height=6).n == 48
    assert Battlefield("hexagon", radius=3).n == 37
    bf = Battlefield("hexagon", radius=3)
    for c in range(bf.n):
        for d, (dq, dr) in enumerate(G.DIRECTIONS):
            m = bf.nbr[c, d]
            assert m == bf.cell(bf.q[c] + dq, bf.r[c] + dr)
            if m >= 0:  # neighbourhood is symmetric: the opposite direction comes back
                assert bf.nbr[m, (d + 3) % 6] == c
    # every cell of a wrapped field has six neighbours
    for w in (Battlefield("rect", width=5, height=4, wrap=True), Battlefield("hexagon", radius=2, wrap=True)):
        assert (w.nbr >= 0).all()
        for c in range(w.n):
            for d in range(6):
                assert w.nbr[w.nbr[c, d], (d + 3) % 6] == c


def test_offset_round_trip_and_bad_shapes():
    for col in range(-3, 4):
        for row in range(-3, 4):
            assert G.axial_to_offset(*G.offset_to_axial(col, row)) == (col, row)
    with pytest.raises(ValueError, match="shape"):
        Battlefield("square")
    with pytest.raises(ValueError, match="even height"):
        Battlefield("rect", width=5, height=5, wrap=True)


# ------------------------------------------------------------------ distances


@settings(max_examples=60, **SETTINGS)
@given(fields(), st.data())
def test_distance_matches_bfs_and_is_symmetric(bf, data):
    a = data.draw(st.integers(0, bf.n - 1))
    ref = bfs(bf, [a])  # geometric distance: obstacles do not lengthen a range
    for b in range(bf.n):
        d = bf.distance(a, b)
        assert d == ref[b], (bf.shape, bf.wrap, a, b)
        assert d == bf.distance(b, a)
        assert (d == 0) == (a == b)


@settings(max_examples=40, **SETTINGS)
@given(fields(), st.data())
def test_bfs_field_matches_brute_force_with_obstacles(bf, data):
    occ = bf.occupancy()
    for c in data.draw(st.lists(st.integers(0, bf.n - 1), max_size=4)):
        occ[c] = 0
    srcs = data.draw(st.lists(st.integers(0, bf.n - 1), min_size=1, max_size=3))
    dist = np.empty(bf.n, dtype=np.int64)
    queue = np.empty(bf.n, dtype=np.int64)
    reached = G.bfs_field(bf.nbr, bf.terrain, occ, BLOCK_MOVE, np.array(srcs, dtype=np.int64), len(srcs), dist,
                          queue)
    ref = bfs(bf, srcs, lambda c: not bf.terrain[c] & BLOCK_MOVE and occ[c] < 0)
    assert dist.tolist() == ref
    assert reached == sum(d >= 0 for d in ref)


def test_ranges():
    bf = Battlefield("hexagon", radius=5)
    o = bf.cell(0, 0)
    adj, two, three, four = bf.cell(1, 0), bf.cell(1, 1), bf.cell(-3, 0), bf.cell(2, -4)
    assert bf.in_range(o, adj, 1, 1) and not bf.in_range(o, two, 1, 1)  # melee: adjacent (L1453)
    assert not bf.in_range(o, adj, 2, 3) and bf.in_range(o, two, 2, 3) and bf.in_range(o, three, 2, 3)
    assert not bf.in_range(o, four, 2, 3) and bf.in_range(o, four, 2, 4)  # [Mid-Childan System]: 2..4
    assert bf.in_range(o, o, 0, 2) and not bf.in_range(o, o, 1, 3)  # Remedy 0-2 includes self
    assert G.axial_distance(0, 0, 3, -3) == 3 and G.axial_distance(0, 0, 2, 1) == 3


def test_wraparound_distances():
    rect = Battlefield("rect", width=8, height=6, wrap=True)
    plain = Battlefield("rect", width=8, height=6)
    a, b = rect.cell_offset(0, 2), rect.cell_offset(7, 2)
    assert plain.distance(a, b) == 7 and rect.distance(a, b) == 1  # opposite edges adjacent (L2166)
    top, bottom = rect.cell_offset(3, 0), rect.cell_offset(3, 5)
    assert plain.distance(top, bottom) == 5 and rect.distance(top, bottom) == 1
    assert rect.in_range(a, b, 1, 1)  # "for movement and ability ranges"
    hexw = Battlefield("hexagon", radius=3, wrap=True)
    e, w = hexw.cell(3, 0), hexw.cell(-3, 0)
    assert hexw.distance(e, w) < Battlefield("hexagon", radius=3).distance(e, w)
    assert max(hexw.distance(0, c) for c in range(hexw.n)) == 3


# ------------------------------------------------------------------ circles, lines, rays


def test_circle_sizes():
    bf = Battlefield("hexagon", radius=6)
    o = bf.cell(0, 0)
    assert [len(bf.circle(o, k)) for k in range(4)] == [1, 7, 19, 37]
    assert o in bf.circle(o, 0)
    assert [len(bf.ring(o, k)) for k in range(4)] == [1, 6, 12, 18]
    corner = bf.cell(6, 0)  # clipped by the edge
    assert len(bf.circle(corner, 1)) == 4
    circ = bf.circle(o, 3)
    assert all(bf.distance(o, c) <= 3 for c in circ) and len(set(circ)) == len(circ)


def test_rays_stop_at_the_edge():
    bf = Battlefield("hexagon", radius=4)
    o = bf.cell(0, 0)
    for d, (dq, dr) in enumerate(G.DIRECTIONS):
        cells = bf.ray(o, d)
        assert cells == [bf.cell(dq * k, dr * k) for k in range(1, 5)]
    edge = bf.cell(4, 0)
    assert bf.ray(edge, 0) == [] and len(bf.ray(edge, 3)) == 8
    assert bf.ray(o, 0, max_len=2) == [bf.cell(1, 0), bf.cell(2, 0)]
    bf.add_terrain([(3, 0)], OBSTACLE)
    assert bf.ray(o, 0, stop_mask=OBSTACLE) == [bf.cell(1, 0), bf.cell(2, 0)]
    assert len(bf.ray(o, 0)) == 4  # the grid edge only, by default
    rect = Battlefield("rect", width=6, height=5)
    c = rect.cell_offset(2, 2)
    assert len(rect.ray(c, 0)) == 3 and len(rect.ray(c, 3)) == 2
    wrapped = Battlefield("rect", width=6, height=4, wrap=True)
    loop = wrapped.ray(wrapped.cell_offset(0, 0), 0)  # under wraparound the line stops when it comes back
    assert len(loop) == 5 and wrapped.cell_offset(0, 0) not in loop


@settings(max_examples=40, **SETTINGS)
@given(fields(), st.data())
def test_line_between_is_a_connected_shortest_line(bf, data):
    a = data.draw(st.integers(0, bf.n - 1))
    b = data.draw(st.integers(0, bf.n - 1))
    line = bf.line_between(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == bf.distance(a, b) + 1
    assert all(c >= 0 for c in line)  # never off the grid (odd-r zigzag edges included)
    for x, y in zip(line, line[1:]):
        assert bf.distance(x, y) == 1


def test_line_between_straight():
    bf = Battlefield("hexagon", radius=5)
    assert bf.line_between(bf.cell(-3, 0), bf.cell(3, 0)) == [bf.cell(k, 0) for k in range(-3, 4)]
    assert bf.line_between(bf.cell(0, 0), bf.cell(0, 0)) == [bf.cell(0, 0)]
    # line_between is reproducible (nudged ties), not symmetric by design; both ends are always included
    line = bf.line_between(bf.cell(0, 0), bf.cell(2, -1))
    assert line == bf.line_between(bf.cell(0, 0), bf.cell(2, -1)) and len(line) == 3


# ------------------------------------------------------------------ movement


def test_rough_terrain_costs_two_hexes_to_leave():
    bf = Battlefield("rect", width=5, height=5, rough=[(2, 2)])
    rough = bf.cell(2, 2)
    assert bf.leave_cost(rough) == 2  # L1414
    assert bf.leave_cost(bf.cell(1, 2)) == 1
    bf.add_terrain([bf.cell(1, 2)], ROUGH)
    assert bf.leave_cost(bf.cell(1, 2)) == 2


@settings(max_examples=60, **SETTINGS)
@given(fields(), st.data())
def test_step_toward_never_enters_obstacles_or_occupied(bf, data):
    free = bf.free_cells()
    if len(free) < 2:
        return
    mover, target = data.draw(st.lists(st.sampled_from(free), min_size=2, max_size=2, unique=True))
    occ = bf.occupancy()
    occ[mover], occ[target] = 0, 1
    for c in data.draw(st.lists(st.sampled_from(free), max_size=5)):
        if occ[c] < 0:
            occ[c] = 2
    lo, hi = data.draw(st.sampled_from([(1, 1), (2, 3), (1, 3)]))
    step = bf.step_toward(occ, mover, target, lo, hi)
    if bf.in_range(mover, target, lo, hi):
        assert step == mover
        return
    goals = [c for c in range(bf.n) if bf.in_range(c, target, lo, hi)
             and not bf.terrain[c] & BLOCK_MOVE and occ[c] < 0]
    ref = bfs(bf, goals, lambda c: not bf.terrain[c] & BLOCK_MOVE and occ[c] < 0)
    options = [m for m in bf.nbr[mover] if m >= 0 and ref[m] >= 0 and not bf.terrain[m] & BLOCK_MOVE and occ[m] < 0]
    if not options:
        assert step == -1
        return
    assert step in bf.nbr[mover]
    assert not bf.terrain[step] & BLOCK_MOVE and occ[step] < 0
    assert ref[step] == min(ref[m] for m in options)  # a shortest path


def test_step_toward_walks_around_a_wall():
    bf = Battlefield("rect", width=7, height=7)
    wall = [bf.cell_offset(c, 3) for c in range(0, 6)]
    bf.add_terrain(wall, OBSTACLE)
    occ = bf.occupancy()
    me, foe = bf.cell_offset(0, 6), bf.cell_offset(0, 0)
    bf.place(occ, 0, me)
    bf.place(occ, 1, foe)
    path = [me]
    for _ in range(30):
        nxt = bf.step_toward(occ, path[-1], foe, 1, 1)
        if nxt == path[-1]:
            break
        assert nxt >= 0 and nxt not in wall
        bf.place(occ, 0, nxt)
        path.append(nxt)
    assert bf.distance(path[-1], foe) == 1
    assert bf.cell_offset(6, 3) in path  # the only gap
    # no reachable free cell in range: -1
    boxed = Battlefield("hexagon", radius=2)
    o = boxed.cell(0, 0)
    boxed.add_terrain(boxed.ring(o, 1), OBSTACLE)
    occ = boxed.occupancy()
    boxed.place(occ, 0, o)
    boxed.place(occ, 1, boxed.cell(2, 0))
    assert boxed.step_toward(occ, o, boxed.cell(2, 0), 1, 1) == -1


def test_enemy_adjacent_for_disengage():
    bf = Battlefield("hexagon", radius=3)
    occ = bf.occupancy()
    side = np.array([0, 1, 0], dtype=np.int64)
    me, foe, friend = bf.cell(0, 0), bf.cell(1, 0), bf.cell(-1, 0)
    for who, c in enumerate((me, foe, friend)):
        bf.place(occ, who, c)
    assert G.enemy_adjacent(bf.nbr, occ, side, 0, me)  # leaving needs Disengage (L1412)
    assert not G.enemy_adjacent(bf.nbr, occ, side, 0, bf.cell(-2, 0))
    assert G.enemy_adjacent(bf.nbr, occ, side, 1, bf.cell(-2, 0))  # for side 1, girl 2 at (-1, 0) is an enemy
    out = np.empty(bf.n, dtype=np.int64)
    n = G.enemy_adjacent_cells(bf.nbr, occ, side, 0, out)
    assert n == 6 and set(np.flatnonzero(out)) == set(bf.ring(foe, 1))
    n1 = G.enemy_adjacent_cells(bf.nbr, occ, side, 1, out)
    assert set(np.flatnonzero(out)) == set(bf.ring(me, 1)) | set(bf.ring(friend, 1)) and n1 == len(
        set(bf.ring(me, 1)) | set(bf.ring(friend, 1)))


# ------------------------------------------------------------------ occupancy and formations


def test_place_one_per_hex():
    bf = Battlefield("rect", width=4, height=4, obstacles=[(1, 1)])
    occ = bf.occupancy()
    bf.place(occ, 0, 0)
    with pytest.raises(ValueError, match="already holds"):
        bf.place(occ, 1, 0)
    with pytest.raises(ValueError, match="obstacle"):
        bf.place(occ, 1, bf.cell(1, 1))
    dest = bf.cell_offset(3, 3)
    bf.place(occ, 0, dest)  # moving: the old cell is freed
    assert occ[0] == -1 and occ[dest] == 0 and (occ >= 0).sum() == 1


@settings(max_examples=60, **SETTINGS)
@given(fields(allow_wrap=True), st.sampled_from(G.FORMATIONS), st.sampled_from(G.FORMATIONS), st.integers(1, 6),
       st.integers(1, 6))
def test_formations_place_everyone_on_distinct_free_cells(bf, f0, f1, n0, n1):
    occ = bf.occupancy()
    if n0 + n1 > len(bf.free_cells()):
        with pytest.raises(ValueError):
            bf.deploy(occ, range(n0), 0, f0)
            bf.deploy(occ, range(n0, n0 + n1), 1, f1)
        return
    d0 = bf.deploy(occ, range(n0), 0, f0)
    d1 = bf.deploy(occ, range(n0, n0 + n1), 1, f1)
    cells = d0.cells + d1.cells
    assert len(set(cells)) == n0 + n1
    assert all(not bf.terrain[c] & BLOCK_MOVE for c in cells)
    assert sorted(occ[occ >= 0].tolist()) == list(range(n0 + n1))
    for who, c in zip(d0.members + d1.members, cells):
        assert occ[c] == who


def test_formation_shapes():
    bf = Battlefield("rect", width=10, height=8)
    occ = bf.occupancy()
    line = bf.deploy(occ, range(4), 0, "line")
    assert {bf.coords(c)[1] for c in line.cells} == {7}  # abreast on the bottom edge
    foes = bf.deploy(occ, range(4, 8), 1, "opposite-edges")
    assert {bf.coords(c)[1] for c in foes.cells} == {0}
    cols = sorted(G.axial_to_offset(*bf.coords(c))[0] for c in foes.cells)
    assert cols[0] <= 1 and cols[-1] >= 8  # spread over the whole edge
    bf2 = Battlefield("hexagon", radius=5)
    occ2 = bf2.occupancy()
    wedge = bf2.deploy(occ2, range(5), 0, "wedge")
    rows = [bf2.coords(c)[1] for c in wedge.cells]
    assert rows[0] == min(rows) == 3 and max(rows) == 5  # point toward the enemy (up), arms back
    with pytest.raises(ValueError, match="formation"):
        bf2.formation_cells("phalanx", 3, 0)
    assert "0" in bf2.render(occ2)
