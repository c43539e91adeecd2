"""The hex battlefield as one int64 array for the kernels (``bf``).

A :class:`.grid.Battlefield` (the Python description: cells, terrain, the
labyrinth's features) becomes ``bf[rows, w]``, laid out by :mod:`.layout`:

* one row per per-cell vector (``BF_Q``, ``BF_R``, ``BF_TERRAIN``, ``BF_BASE``,
  ``BF_OCC``, the search scratch ``BF_DIST``/``BF_QUEUE``/``BF_LINE``), read
  through :func:`row`, which gives exactly one entry per cell;
* ``BF_META`` (sizes and where the tables start, ``M_*``), ``BF_LST`` (the
  trial's labyrinth and barrier state, ``LST_*``), ``BF_LAB`` (the
  labyrinth's numbers, ``L_*``), ``BF_PATH`` (the Pendulum's trajectory);
* blocks of rows for the tables: first, at row ``NBF``, the hexes between
  every two cells (``hexd[a, b]``, :func:`hexd_of`: the field is static, so
  a distance is one load); then neighbours (``nbr[c, d]``, :func:`nbr_of`),
  wraparound shifts (:func:`shifts_of`), the axial lookup table
  (:func:`lut_of`), steps round obstacles (:func:`walk_of`), the labyrinth's
  per-cell features (:func:`cellfx_of`).

The width ``w`` is at least cells + 1 (the line scratch); padding is -1 in
the neighbour and lookup tables (no cell) and 0 elsewhere. A block of trials
works on its own copy (:func:`make_bf`); :func:`.hex.place_all`
resets the per-trial rows at the start of every fight.
"""
from __future__ import annotations

import numpy as np

from sim._jit import kernel

from . import grid as G
from .layout import (BF_BASE, BF_LAB, BF_LINE, BF_LST, BF_META, BF_OCC, BF_PATH, BF_Q, BF_R, BF_TERRAIN, L_SIZE,
                     LST_PDIR, LST_SIZE, M_CELLFX, M_HAS_WALK, M_LUT, M_NBR, M_NCELL, M_NLUT, M_NPATH,
                     M_NSHIFTS, M_NWALK, M_QMIN, M_RMIN, M_SHIFTS, M_SIZE, M_WALK, NBF, NFX)

#: steps between two cells with no walking path between them (the walking table)
UNREACHABLE = 30000


def _walk_table(field) -> np.ndarray | None:
    """``walk[a, b]``: the fewest steps from ``a`` to ``b`` round obstacles and
    barriers (people ignored), or ``None`` when nothing blocks movement."""
    n = field.n
    if not bool((field.terrain & G.BLOCK_MOVE).any()):
        return None
    walk = np.full((n, n), UNREACHABLE, dtype=np.int64)
    occ = np.full(n, -1, dtype=np.int64)
    dist = np.zeros(n, dtype=np.int64)
    queue = np.zeros(n, dtype=np.int64)
    src = np.zeros(1, dtype=np.int64)
    for b in range(n):
        src[0] = b
        G.bfs_field(field.nbr, field.terrain, occ, G.BLOCK_MOVE, src, 1, dist, queue)
        walk[:, b] = np.where(dist >= 0, dist, UNREACHABLE)
    return walk


def _hex_table(field) -> np.ndarray:
    """``hexd[a, b]``: the hexes between cells ``a`` and ``b`` (:func:`.grid.distance`: the
    nearest image of ``b`` under wraparound)."""
    q = np.asarray(field.q, dtype=np.int64)
    r = np.asarray(field.r, dtype=np.int64)
    best = None
    for sq, sr in np.asarray(field.shifts, dtype=np.int64):
        dq = q[:, None] - (q[None, :] + sq)
        dr = r[:, None] - (r[None, :] + sr)
        d = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
        best = d if best is None else np.minimum(best, d)
    return best.astype(np.int64)


def template(field) -> np.ndarray:
    """The battlefield array of ``field`` (cached on it): tables filled, the
    per-trial rows as at the start of a fight (nobody placed)."""
    cached = getattr(field, "_bf_template", None)
    if cached is not None:
        return cached
    n = field.n
    walk = _walk_table(field)
    path = np.asarray(field.path, dtype=np.int64)
    width = max(n + 1, 6, NFX, L_SIZE, LST_SIZE, M_SIZE, field.lut.shape[1], len(path))
    blocks = [("hexd", _hex_table(field), 0), ("nbr", field.nbr, -1), ("shifts", field.shifts, 0), ("lut", field.lut, -1),
              ("walk", walk if walk is not None else np.zeros((1, 1), dtype=np.int64), 0),
              ("cellfx", field.cellfx, 0)]
    rows = NBF + sum(b.shape[0] for _, b, _ in blocks)
    bf = np.zeros((rows, width), dtype=np.int64)
    start = {}
    r0 = NBF
    for name, table, pad in blocks:
        k, m = table.shape
        bf[r0:r0 + k, :] = pad
        bf[r0:r0 + k, :m] = table
        start[name] = r0
        r0 += k
    assert start["hexd"] == NBF  # hexd_of reads it there, no table row to look up
    bf[BF_Q, :n] = field.q
    bf[BF_R, :n] = field.r
    bf[BF_BASE, :n] = field.terrain
    bf[BF_TERRAIN, :n] = field.terrain
    bf[BF_OCC, :] = -1
    meta = bf[BF_META]
    meta[M_NCELL] = n
    meta[M_QMIN] = field.qmin
    meta[M_RMIN] = field.rmin
    meta[M_HAS_WALK] = int(walk is not None)
    meta[M_NBR] = start["nbr"]
    meta[M_SHIFTS] = start["shifts"]
    meta[M_NSHIFTS] = field.shifts.shape[0]
    meta[M_LUT] = start["lut"]
    meta[M_NLUT] = field.lut.shape[0]
    meta[M_WALK] = start["walk"]
    meta[M_NWALK] = n if walk is not None else 1
    meta[M_CELLFX] = start["cellfx"]
    meta[M_NPATH] = len(path)
    bf[BF_LAB, :L_SIZE] = field.lab
    bf[BF_PATH, :len(path)] = path
    bf[BF_LST, LST_PDIR] = 1
    field._bf_template = bf
    return bf


def make_bf(field) -> np.ndarray:
    """A fresh copy of :func:`template` for one block of trials (or a test)."""
    return template(field).copy()


def no_field() -> np.ndarray:
    """The battlefield array of a fight without a grid: no cells."""
    bf = np.zeros((NBF, M_SIZE), dtype=np.int64)
    bf[BF_OCC, :] = -1
    return bf


# ---------------------------------------------------------------- accessors (tiny: inlined where called,
# so they can hand back a view of ``bf`` without reference counting)


@kernel(inline="always")
def ncell(bf):
    """Cells on the field."""
    return bf[BF_META, M_NCELL]


@kernel(inline="always")
def row(bf, k):
    """Row ``k`` (a ``BF_*`` per-cell vector) with exactly one entry per cell."""
    return bf[k, :bf[BF_META, M_NCELL]]


@kernel(inline="always")
def line_row(bf):
    """The line scratch: cells + 1 entries."""
    return bf[BF_LINE, :bf[BF_META, M_NCELL] + 1]


@kernel(inline="always")
def hexd_of(bf):
    """``hexd[a, b]``: the hexes between cells ``a`` and ``b`` (wraparound included), the
    first table block (row ``NBF``)."""
    n = bf[BF_META, M_NCELL]
    return bf[NBF:NBF + n, :n]


@kernel(inline="always")
def nbr_of(bf):
    """``nbr[c, d]``: the neighbour of cell ``c`` in direction ``d`` (-1 none)."""
    m = bf[BF_META, M_NBR]
    return bf[m:m + bf[BF_META, M_NCELL]]


@kernel(inline="always")
def shifts_of(bf):
    """``shifts[k]``: the wraparound images' (dq, dr); one row (0, 0) without wraparound."""
    m = bf[BF_META, M_SHIFTS]
    return bf[m:m + bf[BF_META, M_NSHIFTS]]


@kernel(inline="always")
def lut_of(bf):
    """``lut[q - qmin, r - rmin]``: the cell at axial (q, r), -1 none."""
    m = bf[BF_META, M_LUT]
    return bf[m:m + bf[BF_META, M_NLUT]]


@kernel(inline="always")
def walk_of(bf):
    """``walk[a, b]``: steps from ``a`` to ``b`` round obstacles (``M_HAS_WALK``)."""
    m = bf[BF_META, M_WALK]
    return bf[m:m + bf[BF_META, M_NWALK]]


@kernel(inline="always")
def cellfx_of(bf):
    """``cellfx[c, FX_*]``: the labyrinth's features of cell ``c``."""
    m = bf[BF_META, M_CELLFX]
    return bf[m:m + bf[BF_META, M_NCELL]]


@kernel(inline="always")
def path_of(bf):
    """The Pendulum's trajectory (cells)."""
    return bf[BF_PATH, :bf[BF_META, M_NPATH]]
