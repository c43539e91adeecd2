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
    return bf


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


def layout(scenario) -> tuple[Battlefield, list[int]]:
    """The battlefield and every combatant's starting cell, in the compiled
    order (sides in order, members in order, copies of ``count`` in order)."""
    spec = scenario.battlefield
    if spec is None:
        from .schema import BattlefieldSpec

        spec = BattlefieldSpec()
    bf = build_field(spec)
    occ = bf.occupancy()
    index = []  # (side, member, copy) in compiled order
    for s, side in enumerate(scenario.sides):
        for m_i, m in enumerate(side.members):
            for k in range(m.count):
                index.append((s, m_i, m))
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


def render(scenario) -> str:
    """ASCII picture of the starting positions (digits = combatant index mod 10)."""
    bf, cells = layout(scenario)
    occ = bf.occupancy()
    for i, c in enumerate(cells):
        occ[c] = i
    return bf.render(occ)


__all__ = ["build_field", "cell_of", "coords_of", "layout", "render", "OBSTACLE", "ROUGH", "BARRIER"]
