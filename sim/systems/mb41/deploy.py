"""A scenario's ``battlefield:`` block -> a :class:`.grid.Battlefield` and starting cells.

Coordinates in YAML: ``[col, row]`` on a rectangle (odd-r offset: rows 0 at
the top, odd rows shifted half a hex right), ``[q, r]`` (axial, centre
``[0, 0]``) on a hexagon. Side 0 (the first side) deploys along the bottom
edge, side 1 along the top. Members with a ``position`` stand there; the
others are placed by their side's ``formation`` (``line`` by default) on the
free hexes left (:meth:`.grid.Battlefield.formation_cells`).

Errors are ``ValueError`` with the field and what was expected; the scenario
loader shows them with the file and line.
"""
from __future__ import annotations

import numpy as np

from . import grid as G
from .grid import BARRIER, OBSTACLE, ROUGH, Battlefield

DEFAULT_RECT = (8, 8)
DEFAULT_RADIUS = 4


def _describe(spec) -> str:
    if spec.shape == "hexagon":
        return f"hexagon of radius {field_size(spec)[0]} ([q, r] with |q|, |r|, |q + r| <= radius)"
    w, h = field_size(spec)
    return f"{w} x {h} battlefield ([col, row] with col 0-{w - 1}, row 0-{h - 1})"


def field_size(spec):
    if spec.shape == "hexagon":
        return (DEFAULT_RADIUS if spec.radius is None else spec.radius,)
    return (DEFAULT_RECT[0] if spec.width is None else spec.width,
            DEFAULT_RECT[1] if spec.height is None else spec.height)


def build_field(spec) -> Battlefield:
    """The battlefield of a validated ``battlefield:`` block (terrain included)."""
    if spec.shape == "hexagon":
        bf = Battlefield(shape="hexagon", radius=field_size(spec)[0], wrap=spec.wrap)
    else:
        w, h = field_size(spec)
        bf = Battlefield(shape="rect", width=w, height=h, wrap=spec.wrap)
    for name, flag in (("obstacles", OBSTACLE), ("rough", ROUGH), ("barriers", BARRIER)):
        for k, xy in enumerate(getattr(spec, name)):
            c = cell_of(bf, spec, xy)
            if c < 0:
                raise ValueError(f"battlefield.{name}[{k}] {list(xy)} is off the {_describe(spec)}")
            bf.terrain[c] |= flag
    if spec.labyrinth is not None:
        _build_labyrinth(bf, spec)
    return bf


_EXEMPT = {"none": G.EXEMPT_NONE, "owner": G.EXEMPT_OWNER, "side": G.EXEMPT_SIDE}


def _free_cell(bf, spec, xy, field: str, standable: bool = True) -> int:
    c = cell_of(bf, spec, xy)
    if c < 0:
        raise ValueError(f"{field} {list(xy)} is off the {_describe(spec)}")
    if standable and bf.terrain[c] & G.BLOCK_MOVE:
        raise ValueError(f"{field} {list(xy)} is an obstacle or barrier; it must be a hex one can stand on")
    return c


def _build_labyrinth(bf: Battlefield, spec) -> None:
    """Labyrinth features (seed 000 L2126-2166) into ``bf.cellfx``, ``bf.lab``, ``bf.path`` and the terrain."""
    lab = spec.labyrinth
    base = "battlefield.labyrinth"
    any_ = False
    if lab.alternating_damage is not None:
        ad = lab.alternating_damage
        for k, cells in enumerate(ad.sets):
            for m, xy in enumerate(cells):
                c = _free_cell(bf, spec, xy, f"{base}.alternating_damage.sets[{k}][{m}]")
                if bf.cellfx[c, G.FX_ALT] not in (0, k + 1):
                    raise ValueError(f"{base}.alternating_damage.sets[{k}][{m}] {list(xy)} is already in set "
                                     f"{bf.cellfx[c, G.FX_ALT] - 1}; a hex belongs to one set")
                bf.cellfx[c, G.FX_ALT] = k + 1
        bf.lab[G.L_ALT_SETS] = len(ad.sets)
        bf.lab[G.L_ALT_DMG] = ad.damage
        bf.lab[G.L_ALT_EXEMPT] = _EXEMPT[ad.exempt]
        any_ = True
    if lab.current is not None:
        cur = lab.current
        if cur.direction is not None:
            bf.lab[G.L_CUR_MODE] = G.CUR_DIRECTION
            bf.lab[G.L_CUR_ARG] = G.DIRECTION_NAMES.index(cur.direction)
        elif cur.toward == "owner":
            bf.lab[G.L_CUR_MODE] = G.CUR_OWNER
        else:
            bf.lab[G.L_CUR_MODE] = G.CUR_HEX
            bf.lab[G.L_CUR_ARG] = _free_cell(bf, spec, cur.toward, f"{base}.current.toward", standable=False)
        bf.lab[G.L_CUR_EXEMPT] = _EXEMPT[cur.exempt]
        any_ = True
    for k, xy in enumerate(lab.perilous):
        c = _free_cell(bf, spec, xy, f"{base}.perilous[{k}]")
        bf.terrain[c] |= G.PERILOUS
    if lab.escher_doors is not None:
        doors = lab.escher_doors
        for k, (a, b) in enumerate(doors.pairs):
            ca = _free_cell(bf, spec, a, f"{base}.escher_doors.pairs[{k}][0]")
            cb = _free_cell(bf, spec, b, f"{base}.escher_doors.pairs[{k}][1]")
            if ca == cb:
                raise ValueError(f"{base}.escher_doors.pairs[{k}]: a door cannot lead to itself")
            for c, xy in ((ca, a), (cb, b)):
                if bf.terrain[c] & G.DOOR:
                    raise ValueError(f"{base}.escher_doors.pairs[{k}]: {list(xy)} is already a door")
                if bf.terrain[c] & G.PERILOUS:
                    raise ValueError(f"{base}.escher_doors.pairs[{k}]: {list(xy)} is Perilous Terrain; "
                                     "a door hex cannot be")
                bf.terrain[c] |= G.DOOR
            bf.cellfx[ca, G.FX_DOOR] = cb
            bf.cellfx[cb, G.FX_DOOR] = ca
        bf.lab[G.L_DOORS] = 2 * len(doors.pairs)
        bf.lab[G.L_DOOR_CHOOSE] = doors.choose_on
    if lab.pendulum is not None:
        pend = lab.pendulum
        cells = [_free_cell(bf, spec, xy, f"{base}.pendulum.trajectory[{k}]", standable=False)
                 for k, xy in enumerate(pend.trajectory)]
        for k in range(1, len(cells)):
            if bf.distance(cells[k - 1], cells[k]) != 1:
                raise ValueError(f"{base}.pendulum.trajectory[{k}] {list(pend.trajectory[k])} is not next to the "
                                 f"hex before it; a trajectory is a path of adjacent hexes")
        if len(set(cells)) != len(cells):
            raise ValueError(f"{base}.pendulum.trajectory passes a hex twice")
        bf.path = np.array(cells, dtype=np.int64)
        bf.lab[G.L_PEND_LEN] = pend.length
        bf.lab[G.L_PEND_DICE] = pend.damage_dice
        bf.lab[G.L_PEND_EXEMPT] = _EXEMPT[pend.exempt]
        any_ = True
    bf.lab[G.L_ANY] = int(any_)


def cell_of(bf: Battlefield, spec, xy) -> int:
    """Cell index of YAML coordinates ``xy`` (no wraparound images: the field itself), -1 if off it."""
    a, b = int(xy[0]), int(xy[1])
    if spec.shape == "hexagon":
        q, r = a, b
    else:
        w, h = field_size(spec)
        if not (0 <= a < w and 0 <= b < h):
            return -1
        q, r = a - (b - (b & 1)) // 2, b
    i, j = q - bf.qmin, r - bf.rmin
    if not (0 <= i < bf.lut.shape[0] and 0 <= j < bf.lut.shape[1]):
        return -1
    return int(bf.lut[i, j])


def coords_of(bf: Battlefield, spec, c: int) -> list[int]:
    """YAML coordinates of cell ``c`` (inverse of :func:`cell_of`)."""
    q, r = bf.coords(c)
    if spec.shape == "hexagon":
        return [q, r]
    return [q + (r - (r & 1)) // 2, r]


def layout(scenario, spec) -> tuple[Battlefield, list[int]]:
    """The battlefield ``spec`` (the scenario's ``battlefield:``, or the default one)
    and every combatant's starting cell, in the compiled order (sides in order,
    members in order, copies of ``count`` in order)."""
    bf = build_field(spec)
    occ = bf.occupancy()
    index = []  # (side, member, copy) in compiled order
    for s, side in enumerate(scenario.sides):
        for m_i, m in enumerate(side.members):
            for k in range(m.count):
                index.append((s, m_i, m))
    if spec.labyrinth is not None:
        bf.lab[G.L_OWNER] = _owner(scenario, spec.labyrinth, index)
    cells = [-1] * len(index)
    where = {}
    for i, (s, m_i, m) in enumerate(index):
        if m.position is None:
            continue
        field = f"sides[{s}].members[{m_i}] ({m.name}).position {list(m.position)}"
        c = cell_of(bf, spec, m.position)
        if c < 0:
            raise ValueError(f"{field} is off the {_describe(spec)}")
        if bf.terrain[c] & OBSTACLE:
            raise ValueError(f"{field} is an obstacle (battlefield.obstacles); one combatant per free hex (L1406)")
        if bf.terrain[c] & BARRIER:
            raise ValueError(f"{field} is a barrier (battlefield.barriers); one combatant per free hex (L1406)")
        if c in where:
            raise ValueError(f"{field}: {where[c]} already stands there; one combatant per hex (L1406)")
        where[c] = m.name
        occ[c] = i
        cells[i] = c
    for s, side in enumerate(scenario.sides):
        todo = [i for i, (s2, _, m) in enumerate(index) if s2 == s and cells[i] < 0]
        if not todo:
            continue
        free = bf.free_cells(occ)
        if len(todo) > len(free):
            raise ValueError(f"sides[{s}] ({side.name}): {len(todo)} member(s) to deploy but only {len(free)} free "
                             f"hexes on the {_describe(spec)}")
        dep = bf.deploy(occ, todo, s, side.formation)
        for i, c in zip(dep.members, dep.cells):
            cells[i] = c
    return bf, cells


def _owner(scenario, lab, index) -> int:
    """The labyrinth owner's combatant index (-1 none): ``owner`` by name, else the
    first monster (not a minion) of the second side."""
    if lab.owner is not None:
        for i, (s, m_i, m) in enumerate(index):
            if m.name == lab.owner:
                return i
        names = ", ".join(m.name for _, _, m in index)
        raise ValueError(f"battlefield.labyrinth.owner {lab.owner!r} is not a member name ({names})")
    for i, (s, m_i, m) in enumerate(index):
        if s == 1 and m.kind == "monster":
            return i
    if lab.pendulum is not None:
        raise ValueError("battlefield.labyrinth.pendulum attacks with its owner's Attack: give "
                         "battlefield.labyrinth.owner (no monster on the second side)")
    return -1


def render(scenario, spec) -> str:
    """ASCII picture of the starting positions (digits = combatant index mod 10)."""
    bf, cells = layout(scenario, spec)
    occ = bf.occupancy()
    for i, c in enumerate(cells):
        occ[c] = i
    return bf.render(occ)


__all__ = ["build_field", "cell_of", "coords_of", "layout", "render", "OBSTACLE", "ROUGH", "BARRIER"]
