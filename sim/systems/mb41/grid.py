"""Hex battlefield geometry for Magical Burst 4.1 (seed 000 L1406-1416).

"The battlefield is a hex grid, one person per hex" (L1406). This module is
pure geometry: numba :func:`~sim._jit.kernel` functions on small integer
arrays, plus the :class:`Battlefield` builder that makes those arrays.

Conventions (redblobgames "Hexagonal Grids"): pointy-top hexes, **axial**
coordinates ``(q, r)`` (cube ``s = -q - r``); rectangles are laid out in
**odd-r** offset coordinates (``col, row``; odd rows shifted right). The six
directions, in the order of ``nbr[:, d]`` and :data:`DIRECTIONS`::

    0 E (+1, 0)   1 NE (+1, -1)   2 NW (0, -1)
    3 W (-1, 0)   4 SW (-1, +1)   5 SE (0, +1)

Cells are numbered ``0..N-1``. Arrays (all ``int64`` except ``terrain``):

``q[N], r[N]``        axial coordinates
``nbr[N, 6]``         neighbour cell per direction, -1 off the grid
``terrain[N]``        ``uint8`` flags :data:`OBSTACLE`, :data:`ROUGH`,
                      :data:`BARRIER`
``shifts[K, 2]``      axial translations under which the field repeats:
                      ``[[0, 0]]`` without wraparound; with wraparound (the
                      labyrinth feature Wraparound, L2166) the images of the
                      field that touch it (8 for a rectangle, 6 mirror
                      centres for a hexagon) come after ``[0, 0]``
``lut[Q, R], qmin, rmin``  cell index at ``(qmin + i, rmin + j)``, -1 if none
``occ[N]``            occupancy: combatant index per cell, -1 if empty
``side[M]``           side index per combatant (for "enemy")

Distances are geometric (obstacles do not lengthen a range); movement uses
:func:`bfs_field` / :func:`step_toward`, which avoid blocked cells.

House rules (see :mod:`sim._jit`): kernels never allocate, never raise and
use nested ``if`` instead of ``and``/``or``; callers pass output buffers and
get back how many entries were written.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim._jit import kernel

from .layout import FX_ALT, FX_DOOR, L_SIZE, NFX  # noqa: F401
from .layout import (L_ALT_DMG, L_ALT_EXEMPT, L_ALT_SETS, L_ANY, L_CUR_ARG, L_CUR_EXEMPT,  # noqa: F401
                     L_CUR_MODE, L_DOOR_CHOOSE, L_DOORS, L_OWNER, L_PEND_DICE, L_PEND_EXEMPT, L_PEND_LEN)

#: axial direction vectors, index = direction = column of ``nbr``
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")

#: terrain flags (bits of ``terrain``)
OBSTACLE = 1  #: solid: blocks movement; no one may stand there
ROUGH = 2  #: leaving costs two hexes of movement (L1414)
BARRIER = 4  #: magical barrier (Create Barrier, L1697): blocks movement except Bypass-like talents
PERILOUS = 8  #: labyrinth Perilous Terrain (L2146): leaving takes a Minor action and Reckless Movement
DOOR = 16  #: labyrinth Escher Doors (L2135): a door hex (its partner in ``cellfx[:, FX_DOOR]``)
#: a barrier raised during the fight by Create Barrier (L1697), always together with :data:`BARRIER`
#: (the scenario's static barriers do not have it; :mod:`.hex` ``create_barrier``)
RAISED = 32

#: labyrinth feature arrays of a :class:`Battlefield` (seed 000 L2126-2166): ``cellfx[N, NFX]``
#: per cell (columns ``FX_*``) and ``lab[L_SIZE]`` the features' numbers (``L_*``), declared in
#: :mod:`.layout`
#: exemptions (``L_*_EXEMPT``): nobody, the labyrinth's owner, the owner's whole side
EXEMPT_NONE, EXEMPT_OWNER, EXEMPT_SIDE = 0, 1, 2
#: Current modes (``L_CUR_MODE``): off, a direction (``L_CUR_ARG`` 0-5), toward a cell, toward the owner
CUR_OFF, CUR_DIRECTION, CUR_HEX, CUR_OWNER = 0, 1, 2, 3

#: cells a normal move may not enter
BLOCK_MOVE = OBSTACLE | BARRIER

SHAPES = ("rect", "hexagon")
FORMATIONS = ("line", "wedge", "opposite-edges")

_DQ = np.array([d[0] for d in DIRECTIONS], dtype=np.int64)
_DR = np.array([d[1] for d in DIRECTIONS], dtype=np.int64)


# ======================================================================= kernels


@kernel
def axial_distance(q1, r1, q2, r2):
    """Hex distance between two axial coordinates on an unbounded plane."""
    dq = q1 - q2
    dr = r1 - r2
    ds = dq + dr
    if dq < 0:
        dq = -dq
    if dr < 0:
        dr = -dr
    if ds < 0:
        ds = -ds
    return (dq + dr + ds) // 2


@kernel
def distance(q, r, shifts, a, b):
    """Hexes between cells ``a`` and ``b`` (the nearest image of ``b`` under wraparound)."""
    best = axial_distance(q[a], r[a], q[b] + shifts[0, 0], r[b] + shifts[0, 1])
    for k in range(1, shifts.shape[0]):
        d = axial_distance(q[a], r[a], q[b] + shifts[k, 0], r[b] + shifts[k, 1])
        if d < best:
            best = d
    return best


@kernel
def in_range(q, r, shifts, a, b, lo, hi):
    """True when ``lo <= distance(a, b) <= hi`` (melee 1..1, ranged 2..3, L1453)."""
    d = distance(q, r, shifts, a, b)
    if d < lo:
        return False
    if d > hi:
        return False
    return True


@kernel
def cell_at(lut, qmin, rmin, shifts, qq, rr):
    """The cell at axial ``(qq, rr)`` or at one of its wraparound images; -1 if none."""
    nq = lut.shape[0]
    nr = lut.shape[1]
    for k in range(shifts.shape[0]):
        i = qq - shifts[k, 0] - qmin
        j = rr - shifts[k, 1] - rmin
        if i >= 0:
            if i < nq:
                if j >= 0:
                    if j < nr:
                        c = lut[i, j]
                        if c >= 0:
                            return c
    return -1


@kernel
def ray(nbr, terrain, a, d, max_len, stop_mask, out):
    """Cells on the straight line from ``a`` (excluded) in direction ``d``, "as far as the grid
    allows" (Blast Strike L1805, Blood Rain L1963, Burst Attack L1967).

    Stops at the grid edge, before a cell whose terrain has a bit of ``stop_mask`` (0 = edge
    only), after ``max_len`` cells (<0 = no limit), when the line comes back to ``a`` under
    wraparound, or when ``out`` is full. Returns the number of cells written to ``out``.
    """
    n = 0
    c = nbr[a, d]
    cap = out.shape[0]
    if max_len >= 0:
        if max_len < cap:
            cap = max_len
    while c >= 0:
        if n >= cap:
            break
        if c == a:
            break
        if terrain[c] & stop_mask:
            break
        out[n] = c
        n += 1
        c = nbr[c, d]
    return n


@kernel
def circle(q, r, shifts, centre, radius, out):
    """Cells within ``radius`` hexes of ``centre``, centre included (Deafening Scream L1975,
    Scattering shot L2096). Returns the count (1, 7, 19, ... on a large grid)."""
    n = 0
    for c in range(q.shape[0]):
        if distance(q, r, shifts, centre, c) <= radius:
            if n < out.shape[0]:
                out[n] = c
                n += 1
    return n


@kernel
def ring(q, r, shifts, centre, radius, out):
    """Cells at exactly ``radius`` hexes of ``centre`` (a circle's edge, Scattering shot)."""
    n = 0
    for c in range(q.shape[0]):
        if distance(q, r, shifts, centre, c) == radius:
            if n < out.shape[0]:
                out[n] = c
                n += 1
    return n


@kernel
def _round_cell(lut, qmin, rmin, shifts, fq, fr, fs):
    """The cell holding fractional cube point (fq, fr, fs) (cube rounding), -1 if off-grid."""
    rq = np.floor(fq + 0.5)
    rr = np.floor(fr + 0.5)
    rs = np.floor(fs + 0.5)
    eq = abs(rq - fq)
    er = abs(rr - fr)
    es = abs(rs - fs)
    if eq > er:
        if eq > es:
            rq = -rr - rs
        else:
            rs = -rq - rr
    elif er > es:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return cell_at(lut, qmin, rmin, shifts, np.int64(rq), np.int64(rr))


@kernel
def line_between(q, r, shifts, lut, qmin, rmin, a, b, out):
    """Hex line drawing from ``a`` to ``b``, both included (intercepts "on the line of ranged
    attack", L1469). Linear interpolation in cube coordinates, nudged by a small epsilon so
    that points on a hex edge round the same way every time; when that puts a point off the
    grid (the zigzag edge of an odd-r rectangle) the opposite nudge is tried. Under
    wraparound the line goes to the nearest image of ``b``. Returns the count
    (distance + 1); a point still off the grid is written as -1.
    """
    k_best = 0
    best = axial_distance(q[a], r[a], q[b] + shifts[0, 0], r[b] + shifts[0, 1])
    for k in range(1, shifts.shape[0]):
        d = axial_distance(q[a], r[a], q[b] + shifts[k, 0], r[b] + shifts[k, 1])
        if d < best:
            best = d
            k_best = k
    if out.shape[0] < 1:
        return 0
    out[0] = a
    if best == 0:
        return 1
    aq = float(q[a])
    ar = float(r[a])
    a_s = -aq - ar
    bq = float(q[b] + shifts[k_best, 0])
    br = float(r[b] + shifts[k_best, 1])
    b_s = -bq - br
    n = 1
    for i in range(1, best + 1):
        if n >= out.shape[0]:
            break
        t = i / best
        fq = aq + (bq - aq) * t
        fr = ar + (br - ar) * t
        fs = a_s + (b_s - a_s) * t
        c = _round_cell(lut, qmin, rmin, shifts, fq + 1e-6, fr + 1e-6, fs - 2e-6)
        if c < 0:
            c = _round_cell(lut, qmin, rmin, shifts, fq - 1e-6, fr - 1e-6, fs + 2e-6)
        out[n] = c
        n += 1
    return n


@kernel
def leave_cost(terrain, c):
    """Hexes of movement it costs to leave cell ``c``: 2 from rough terrain (L1414), else 1."""
    if terrain[c] & ROUGH:
        return 2
    return 1


@kernel
def blocked(terrain, occ, block_mask, c):
    """True when a mover may not enter ``c``: terrain in ``block_mask`` or someone there."""
    if terrain[c] & block_mask:
        return True
    if occ[c] >= 0:
        return True
    return False


@kernel
def bfs_field(nbr, terrain, occ, block_mask, sources, n_sources, dist, queue):
    """Multi-source BFS in steps: ``dist[c]`` = fewest moves from ``c`` to a source through
    unblocked cells (-1 unreachable). Sources get 0 whatever stands on them; expansion only
    enters cells that are not :func:`blocked`. ``queue`` is a scratch buffer of length N.
    Returns the number of cells reached.
    """
    for c in range(dist.shape[0]):
        dist[c] = -1
    head = 0
    tail = 0
    for i in range(n_sources):
        s = sources[i]
        if dist[s] < 0:
            dist[s] = 0
            queue[tail] = s
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            m = nbr[c, d]
            if m >= 0:
                if dist[m] < 0:
                    if not blocked(terrain, occ, block_mask, m):
                        dist[m] = dist[c] + 1
                        queue[tail] = m
                        tail += 1
    return tail


@kernel
def step_toward(q, r, shifts, nbr, terrain, occ, block_mask, mover, target, lo, hi, dist, queue):
    """The next hex for ``mover``'s cell on a shortest path to a free cell within ``lo..hi`` of
    ``target``'s cell (melee: 1..1; ranged: 2..3), avoiding blocked and occupied cells.

    Returns ``mover`` when it is already in range, the neighbour to step to, or -1 when no
    free cell in range can be reached. Ties go to the lowest direction index. ``dist`` and
    ``queue`` are scratch buffers of length N (``dist`` is left holding the BFS field).
    """
    if in_range(q, r, shifts, mover, target, lo, hi):
        return mover
    n_src = 0
    for c in range(q.shape[0]):
        if in_range(q, r, shifts, c, target, lo, hi):
            if not blocked(terrain, occ, block_mask, c):
                queue[n_src] = c
                n_src += 1
    return _first_step(nbr, terrain, occ, block_mask, mover, n_src, dist, queue)


@kernel
def step_toward_d(hexd, nbr, terrain, occ, block_mask, mover, target, lo, hi, dist, queue):
    """:func:`step_toward` with the distances read from ``hexd[a, b]`` (the hexes between
    every two cells, :func:`.field.hexd_of`) instead of computed from coordinates."""
    d = hexd[mover, target]
    if d >= lo:
        if d <= hi:
            return mover
    n_src = 0
    for c in range(nbr.shape[0]):
        d = hexd[c, target]
        if d >= lo:
            if d <= hi:
                if not blocked(terrain, occ, block_mask, c):
                    queue[n_src] = c
                    n_src += 1
    return _first_step(nbr, terrain, occ, block_mask, mover, n_src, dist, queue)


@kernel(forceinline=True)
def _first_step(nbr, terrain, occ, block_mask, mover, n_src, dist, queue):
    """The rest of :func:`step_toward`: from the ``n_src`` goal cells in ``queue``, the breadth-first
    field, then ``mover``'s free neighbour nearest a goal (lowest direction on a tie); -1 if none."""
    if n_src == 0:
        for c in range(dist.shape[0]):
            dist[c] = -1
        return -1
    # bfs_field reads its sources from queue[0:n_src] before overwriting them in order
    bfs_field(nbr, terrain, occ, block_mask, queue, n_src, dist, queue)
    best = -1
    best_d = -1
    for d in range(6):
        m = nbr[mover, d]
        if m >= 0:
            dm = dist[m]
            if dm >= 0:
                if not blocked(terrain, occ, block_mask, m):
                    if best < 0:
                        best = m
                        best_d = dm
                    elif dm < best_d:
                        best = m
                        best_d = dm
    return best


@kernel
def enemy_adjacent(nbr, occ, side, my_side, c):
    """True when a hex adjacent to ``c`` holds a combatant of another side: leaving ``c`` then
    needs Disengage (L1412) or Reckless Movement (L1416)."""
    for d in range(6):
        m = nbr[c, d]
        if m >= 0:
            who = occ[m]
            if who >= 0:
                if side[who] != my_side:
                    return True
    return False


@kernel
def enemy_adjacent_cells(nbr, occ, side, my_side, out):
    """``out[c] = 1`` for every cell adjacent to an enemy of ``my_side``, else 0; returns the count."""
    n = 0
    for c in range(nbr.shape[0]):
        if enemy_adjacent(nbr, occ, side, my_side, c):
            out[c] = 1
            n += 1
        else:
            out[c] = 0
    return n


# ======================================================================= builder


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    """odd-r offset -> axial."""
    return col - (row - (row & 1)) // 2, row


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """axial -> odd-r offset."""
    return q + (r - (r & 1)) // 2, r


@dataclass(frozen=True)
class Deployment:
    """Where a formation put a side: ``cells[i]`` for ``members[i]``."""

    side: int
    formation: str
    members: tuple[int, ...]
    cells: tuple[int, ...]


class Battlefield:
    """A hex battlefield: the arrays the kernels take, plus Python helpers.

    ``shape="rect"``: ``width`` columns x ``height`` rows in odd-r offset coordinates;
    ``shape="hexagon"``: every hex within ``radius`` of (0, 0). ``wrap=True`` joins opposite
    edges (Wraparound, L2166); a wrapped rectangle needs ``width >= 3`` and an even
    ``height >= 4`` (odd-r rows must keep their parity across the seam), a wrapped hexagon
    ``radius >= 1``.

    Side 0 deploys along the bottom edge (largest ``r``) facing up, side 1 along the top.
    """

    def __init__(self, shape: str = "rect", width: int = 8, height: int = 8, radius: int = 4,
                 wrap: bool = False, obstacles=(), rough=(), barriers=()):
        if shape not in SHAPES:
            raise ValueError(f"unknown battlefield shape {shape!r}; use one of {', '.join(SHAPES)}")
        self.shape, self.wrap = shape, bool(wrap)
        if shape == "rect":
            if width < 1 or height < 1:
                raise ValueError("a rectangular battlefield needs width >= 1 and height >= 1")
            if wrap and (width < 3 or height < 4 or height % 2):
                raise ValueError("a wrapped rectangle needs width >= 3 and an even height >= 4")
            self.width, self.height, self.radius = int(width), int(height), None
            coords = [offset_to_axial(c, rw) for rw in range(height) for c in range(width)]
            base = [(width, 0), (-(height // 2), height)]
        else:
            if radius < 0 or (wrap and radius < 1):
                raise ValueError("a hexagon needs radius >= 0 (>= 1 with wraparound)")
            self.width = self.height = None
            self.radius = int(radius)
            R = self.radius
            coords = [(qq, rr) for rr in range(-R, R + 1) for qq in range(-R, R + 1) if abs(qq + rr) <= R]
        shifts = [(0, 0)]
        if wrap:
            if shape == "rect":
                (aq, ar), (bq, br) = base
                shifts += [(i * aq + j * bq, i * ar + j * br) for i in (-1, 0, 1) for j in (-1, 0, 1)
                           if (i, j) != (0, 0)]
            else:  # mirror centres of a hexagon of radius R (redblobgames, "Wraparound")
                R = self.radius
                m = (2 * R + 1, -R)
                for _ in range(6):
                    shifts.append(m)
                    mq, mr = m
                    ms = -mq - mr
                    m = (-mr, -ms)  # rotate 60 degrees: (q, r, s) -> (-r, -s, -q)
        self.n = len(coords)
        self.q = np.array([c[0] for c in coords], dtype=np.int64)
        self.r = np.array([c[1] for c in coords], dtype=np.int64)
        self.shifts = np.array(shifts, dtype=np.int64).reshape(-1, 2)
        self.qmin, self.rmin = int(self.q.min()), int(self.r.min())
        self.lut = np.full((int(self.q.max()) - self.qmin + 1, int(self.r.max()) - self.rmin + 1), -1, dtype=np.int64)
        self.lut[self.q - self.qmin, self.r - self.rmin] = np.arange(self.n)
        self.nbr = np.full((self.n, 6), -1, dtype=np.int64)
        for c in range(self.n):
            for d in range(6):
                self.nbr[c, d] = cell_at(self.lut, self.qmin, self.rmin, self.shifts,
                                         self.q[c] + _DQ[d], self.r[c] + _DR[d])
        self.terrain = np.zeros(self.n, dtype=np.uint8)
        # labyrinth features (none by default): see FX_* and L_*
        self.cellfx = np.zeros((self.n, NFX), dtype=np.int64)
        self.cellfx[:, FX_DOOR] = -1
        self.lab = np.zeros(L_SIZE, dtype=np.int64)
        self.lab[L_OWNER] = -1
        self.lab[L_DOOR_CHOOSE] = 6
        self.path = np.zeros(1, dtype=np.int64)  # Pendulum trajectory (cells), used when lab[L_PEND_LEN] > 0
        self.add_terrain(obstacles, OBSTACLE)
        self.add_terrain(rough, ROUGH)
        self.add_terrain(barriers, BARRIER)

    # ------------------------------------------------------------- cells
    def cell(self, q: int, r: int) -> int:
        """Cell index at axial (q, r) (its wraparound image if wrapped); -1 if none."""
        return int(cell_at(self.lut, self.qmin, self.rmin, self.shifts, int(q), int(r)))

    def cell_offset(self, col: int, row: int) -> int:
        """Cell index at odd-r offset (col, row)."""
        return self.cell(*offset_to_axial(col, row))

    def coords(self, c: int) -> tuple[int, int]:
        return int(self.q[c]), int(self.r[c])

    def add_terrain(self, cells, flag: int) -> None:
        """Set ``flag`` on cells given as indices or (q, r) pairs."""
        for c in cells:
            i = self.cell(*c) if isinstance(c, (tuple, list)) else int(c)
            if not 0 <= i < self.n:
                raise ValueError(f"no such cell {c!r}")
            self.terrain[i] |= flag

    def free_cells(self, occ=None, block_mask: int = BLOCK_MOVE) -> list[int]:
        return [c for c in range(self.n)
                if not self.terrain[c] & block_mask and (occ is None or occ[c] < 0)]

    # ------------------------------------------------------------- geometry wrappers
    def distance(self, a: int, b: int) -> int:
        return int(distance(self.q, self.r, self.shifts, a, b))

    def in_range(self, a: int, b: int, lo: int, hi: int) -> bool:
        return bool(in_range(self.q, self.r, self.shifts, a, b, lo, hi))

    def ray(self, a: int, d: int, max_len: int = -1, stop_mask: int = 0) -> list[int]:
        out = np.empty(self.n, dtype=np.int64)
        return out[:ray(self.nbr, self.terrain, a, d, max_len, stop_mask, out)].tolist()

    def circle(self, centre: int, radius: int) -> list[int]:
        out = np.empty(self.n, dtype=np.int64)
        return out[:circle(self.q, self.r, self.shifts, centre, radius, out)].tolist()

    def ring(self, centre: int, radius: int) -> list[int]:
        out = np.empty(self.n, dtype=np.int64)
        return out[:ring(self.q, self.r, self.shifts, centre, radius, out)].tolist()

    def line_between(self, a: int, b: int) -> list[int]:
        out = np.empty(self.n + 1, dtype=np.int64)
        n = line_between(self.q, self.r, self.shifts, self.lut, self.qmin, self.rmin, a, b, out)
        return out[:n].tolist()

    def leave_cost(self, c: int) -> int:
        return int(leave_cost(self.terrain, c))

    def step_toward(self, occ, mover: int, target: int, lo: int = 1, hi: int = 1,
                    block_mask: int = BLOCK_MOVE) -> int:
        """Cell index of the next step (see the kernel); ``mover`` / ``target`` are cells."""
        dist = np.empty(self.n, dtype=np.int64)
        queue = np.empty(self.n, dtype=np.int64)
        return int(step_toward(self.q, self.r, self.shifts, self.nbr, self.terrain, np.asarray(occ, dtype=np.int64),
                               block_mask, mover, target, lo, hi, dist, queue))

    # ------------------------------------------------------------- occupancy and formations
    def occupancy(self) -> np.ndarray:
        """An empty occupancy array (``occ[c]`` = combatant index or -1)."""
        return np.full(self.n, -1, dtype=np.int64)

    def place(self, occ: np.ndarray, who: int, c: int) -> None:
        """Put combatant ``who`` on cell ``c``: one per hex (L1406), never on an obstacle/barrier."""
        if not 0 <= c < self.n:
            raise ValueError(f"no such cell {c}")
        if self.terrain[c] & BLOCK_MOVE:
            raise ValueError(f"cell {c} {self.coords(c)} is an obstacle or barrier")
        if occ[c] >= 0 and occ[c] != who:
            raise ValueError(f"cell {c} {self.coords(c)} already holds combatant {int(occ[c])}")
        occ[occ == who] = -1
        occ[c] = who

    def _xy(self, c: int) -> tuple[float, float]:
        # pixel centre in units of hex width (x) and rows (y)
        return float(self.q[c]) + float(self.r[c]) / 2.0, float(self.r[c])

    def formation_cells(self, name: str, count: int, side: int, occ=None) -> list[int]:
        """Starting cells for ``count`` members of ``side`` (0 = bottom edge, 1 = top edge).

        ``line``: abreast along the home edge, centred (extra members fill the next row in);
        ``wedge``: a V whose point is toward the enemy, its arms back to the home edge;
        ``opposite-edges``: spread evenly along the whole home edge (two sides deployed this
        way start as far apart as the field allows). Ideal points are snapped greedily to the
        nearest free, unused cell, so members always get distinct free cells.
        """
        if name not in FORMATIONS:
            raise ValueError(f"unknown formation {name!r}; use one of {', '.join(FORMATIONS)}")
        if side not in (0, 1):
            raise ValueError("side must be 0 (bottom edge) or 1 (top edge)")
        free = self.free_cells(occ)
        if count > len(free):
            raise ValueError(f"{count} members but only {len(free)} free cells")
        if count <= 0:
            return []
        xy = {c: self._xy(c) for c in free}
        ys = [xy[c][1] for c in free]
        home_y = max(ys) if side == 0 else min(ys)
        fwd = -1.0 if side == 0 else 1.0
        row = [xy[c][0] for c in free if xy[c][1] == home_y]
        cx = (min(row) + max(row)) / 2.0
        span = max(row) - min(row)
        pts: list[tuple[float, float]] = []
        if name == "line":
            pts = [(cx + (i - (count - 1) / 2.0), home_y) for i in range(count)]
        elif name == "opposite-edges":
            step = (span + 1.0) / count
            pts = [(min(row) - 0.5 + step * (i + 0.5), home_y) for i in range(count)]
        else:  # wedge
            depth = count // 2
            pts.append((cx, home_y + fwd * depth))
            for j in range(1, count):
                rank = (j + 1) // 2
                sign = -1.0 if j % 2 else 1.0
                pts.append((cx + sign * rank * 0.5, home_y + fwd * (depth - rank)))
        used: set[int] = set()
        cells = []
        s3 = math.sqrt(3.0)
        for px, py in pts:
            best = min((c for c in free if c not in used),
                       key=lambda c: (((xy[c][0] - px) * s3) ** 2 + ((xy[c][1] - py) * 1.5) ** 2, c))
            used.add(best)
            cells.append(best)
        return cells

    def deploy(self, occ: np.ndarray, members, side: int, formation: str = "line") -> Deployment:
        """Place combatants ``members`` (indices) of ``side`` in ``formation``; updates ``occ``."""
        members = tuple(int(m) for m in members)
        cells = self.formation_cells(formation, len(members), side, occ)
        for m, c in zip(members, cells):
            self.place(occ, m, c)
        return Deployment(side, formation, members, tuple(cells))

    def render(self, occ=None) -> str:
        """ASCII picture (rect: odd rows indented; hexagon: by row) for debugging and docs."""
        lines = []
        for rr in range(int(self.r.min()), int(self.r.max()) + 1):
            cells = sorted((c for c in range(self.n) if self.r[c] == rr), key=lambda c: self.q[c])
            indent = " " * int(round(4 * (self._xy(cells[0])[0] - min(self._xy(c)[0] for c in range(self.n)))))
            row = []
            for c in cells:
                ch = "."
                if self.terrain[c] & OBSTACLE:
                    ch = "#"
                elif self.terrain[c] & BARRIER:
                    ch = "|"
                elif self.terrain[c] & ROUGH:
                    ch = "~"
                elif self.terrain[c] & DOOR:
                    ch = "D"
                elif self.terrain[c] & PERILOUS:
                    ch = "!"
                if occ is not None and occ[c] >= 0:
                    ch = str(int(occ[c]) % 10)
                row.append(ch)
            lines.append(indent + "   ".join(row))
        return "\n".join(lines)
