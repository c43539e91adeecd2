"""Study kind ``audit``: value every entry of a catalog in one reference encounter.

::

    study:
      kind: audit
      tester: Akari            # who gets each girl's talent (d10: power or perk; cards: the side
                               # whose deck takes each card)
      monster: Brute           # who gets each monster talent (fight systems; optional)
      policies:                # two or more named set: (the first: the scenario as written)
        - name: as written
        - name: careful girls
          set: {Akari.policy: careful, Beni.policy: careful}
      yardstick: {path: Akari.attack, changes: [-1, 1, 2, 3]}        # the tester's stat: exchange rates
      monster_yardstick: {path: Brute.attack, changes: [-1, 1, 2, 3]}
      filler: Mochi the Bunny  # cards: the card each candidate replaces (the deck keeps its size)
      entries: null            # only these names (default: every simulated entry, sim.study.entries)
      usage_trials: 1000       # trials counted for how often each entry is used (0: not counted)

Each cell (this encounter under one policy) is a talent-value study with every
entry a candidate, on common random numbers: the base (the policy's changes
only), one arm per entry (the entry added to its holder, or, if the holder has
it already, taken away: the value is always *with it minus without it*, for the
holder: a monster talent's value is the girls' loss) and the yardstick arms
(the holder's stat changed by each of ``changes``). ``sim audit SYSTEM`` runs
the bundled reference encounters of a system (``scenarios/audit/<system>/``,
docs/audit.md) and reads all their cells together (:mod:`.audit_read`); ``sim
study FILE`` on one of them audits that encounter alone.

Every arm is built by :meth:`StudyContext.arm` and played by
:meth:`StudyContext.metrics` (the study runner's one path to trials: a cluster
with ``--scheduler``, the runner's checkpoints when it has them). An entry the
scenario refuses for its holder (a talent a monster cannot take...) is
skipped with the reason, never silently.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal, Union

import numpy as np
from pydantic import Field

from sim.scenario.base import StrictModel
from sim.scenario.errors import ScenarioError, doc_error
from sim.scenario.suggest import suggest

from .entries import Entry, entries_of
from .report import Section
from .spec import ArmSpec, StudySpec

#: separator of policy and arm in the arms' names (as policy-robustness)
SEP = " | "
BASE = "base"
#: mechanics (mb41, the draft) whose holder acts only when her policy says so: (policy field, the
#: value under which it never acts, the value the audit gives her). In a cell whose policy leaves
#: the field off, the entry is played with the field on *and* paired with a base of its own with the
#: same field on, so its value is the talent's rule alone (Battle Sorcery's +3 needs sorcery cast,
#: seed 000 L1577; Defensive Switch, L1703, is played below her intercept share)
POLICY_CONTEXT = {"battle_sorcery": ("sorcery", "never", "minor"),
                  "defensive_switch": ("intercept", "never", "protect-below 50")}
#: why an entry is skipped where it cannot act (:meth:`sim.study.entries.Entry.acts_in`)
NOT_HERE = {"map": "acts only on a map (4.1's hex grid, the draft's positions); valued in the encounters that have one",
            "hex": "acts only on 4.1's hex grid (the draft's positions do not play it)"}


class Yardstick(StrictModel):
    """A stat of the holder (a ``set:`` path) and the changes to try (0 is the base)."""

    path: Annotated[str, Field(min_length=1)]
    changes: Annotated[list[Union[int, float]], Field(min_length=1, max_length=8)]


class AuditSpec(StudySpec):
    """See the module docstring."""

    kind: Literal["audit"]
    tester: Annotated[str, Field(min_length=1)]
    monster: str | None = None
    policies: Annotated[list[ArmSpec], Field(min_length=1, max_length=6)] = [ArmSpec(name="as written")]
    yardstick: Yardstick | None = None
    monster_yardstick: Yardstick | None = None
    filler: str | None = None
    entries: Annotated[list[str], Field(min_length=1, max_length=500)] | None = None
    usage_trials: Annotated[int, Field(ge=0, le=100_000)] = 1000


SPEC = AuditSpec


@dataclass
class Cell:
    """One encounter under one policy: per-trial wins of the first side (``n`` trials)
    for the base, every entry and every yardstick change; the sign that turns them into
    the holder's value; how often each entry was used; the entries skipped and why."""

    encounter: str
    policy: str
    n: int
    base: np.ndarray
    wins: dict = field(default_factory=dict)
    sign: dict = field(default_factory=dict)
    yard: dict = field(default_factory=dict)       # holder -> (changes, wins (k, n))
    usage: dict = field(default_factory=dict)
    skipped: dict = field(default_factory=dict)
    bases: dict = field(default_factory=dict)      # entry -> its own base's wins (a policy context)
    context: dict = field(default_factory=dict)    # entry -> the policy context it is played in (text)
    draws: dict = field(default_factory=dict)      # entry -> its arm's draws (0/1 a trial); BASE, (BASE, entry) -> its bases'
    where: str = "none"                            # the map: none, hex, positions

    def base_of(self, name: str) -> np.ndarray:
        """The wins ``name``'s arm is paired with: its own base (:data:`POLICY_CONTEXT`) or the cell's."""
        return self.bases.get(name, self.base)

    def draw_change(self, name: str) -> float | None:
        """How much ``name`` moves the draw rate (a fraction, its arm minus the base it is paired
        with), or None when the draws were not kept (a cell built elsewhere)."""
        mine = self.draws.get(name)
        base = self.draws.get((BASE, name), self.draws.get(BASE))
        if mine is None or base is None:
            return None
        return float(mine.mean() - base.mean())


def _holder(spec: AuditSpec, entry: Entry) -> str | None:
    return spec.monster if entry.holder == "monster" else spec.tester


def side_of(ctx, who: str) -> int:
    """0 or 1: the side whose name is ``who`` or that lists a member ``who``."""
    for i, side in enumerate(ctx.loaded.raw.get("sides") or []):
        if not isinstance(side, dict):
            continue
        if side.get("name") == who or who in [m.get("name") for m in side.get("members") or []
                                               if isinstance(m, dict)]:
            return i
    return 0


def check_holders(ctx, spec: AuditSpec) -> None:
    """The tester (and monster) exist; in the card game the tester's side writes its deck
    out (``cards:``) and holds the ``filler``."""
    raw_sides = [sd for sd in ctx.loaded.raw.get("sides") or [] if isinstance(sd, dict)]
    names = [sd.get("name") for sd in raw_sides] + [m.get("name") for sd in raw_sides
                                                    for m in sd.get("members") or [] if isinstance(m, dict)]
    for f in ("tester", "monster"):
        who = getattr(spec, f)
        if who is not None and who not in names:
            raise doc_error(ctx.doc, ("study", f), f"no member or side {who!r}.{suggest(who, names)}")
    if ctx.system == "cards":
        deck = ctx.value_at(f"{spec.tester}.cards", ("study", "tester"))
        if not isinstance(deck, dict):
            raise doc_error(ctx.doc, ("study", "tester"), f"side {spec.tester!r} needs its deck written out "
                            "(cards: {card: count}) for the audit to swap cards into it.")
        if spec.filler is None or spec.filler not in deck:
            raise doc_error(ctx.doc, ("study", "filler"), "the card game's audit swaps each card in for one "
                            f"'filler' of the tester's deck; give one of: {', '.join(deck)}."
                            + (suggest(spec.filler, list(deck)) if spec.filler else ""))


def _changes(ctx, spec: AuditSpec, entry: Entry) -> tuple[list, int] | None:
    """The arm's changes for ``entry`` and the sign of its value (+1 added, -1 taken
    away); None when the encounter has nobody to hold it."""
    who = _holder(spec, entry)
    if who is None:
        return None
    if ctx.system == "cards":
        from .talents import TalentValueSpec, _edited

        path = f"{who}.cards"
        deck = ctx.value_at(path, ("study", "tester")) or {}
        tv = TalentValueSpec(kind="talent-value", member=who, field="cards", replace=spec.filler)
        return [(path, _edited(deck, entry.name, tv))], 1
    path = f"{who}.{entry.field}"
    current = list(ctx.value_at(path, ("study", "tester")) or [])
    if entry.name in current:
        return [(path, [t for t in current if t != entry.name])], -1
    return [(path, current + [entry.name])] + _needs(ctx, who, entry), 1


def _needs(ctx, who: str, entry: Entry) -> list:
    """What an entry needs besides itself: d10's Dual Weapon a second form (the other of
    melee and ranged: seed 003 L181)."""
    if ctx.system != "d10":
        return []
    from sim.systems.d10 import catalog as d10_catalog

    if d10_catalog.by_name().get(entry.name, {}).get("code") != "dual_weapon":
        return []
    kind = ctx.value_at(f"{who}.attack_kind", ("study", "tester")) or "melee"
    return [(f"{who}.second_form", "ranged" if kind == "melee" else "melee")]


def _usage(ctx, arm, who: str, entry: Entry, m: int, key) -> float | None:
    """Uses per fight (a card: games it was played in) of ``entry`` by ``who`` over ``m``
    trials of ``arm``; None where the system does not count uses (d10) and in a dry
    context (a preflight plays nothing). Counted afresh on a resume (not checkpointed:
    a few percent of the audit's time), stopped like a chunk (:meth:`StudyContext.guarded`)."""
    if m <= 0 or ctx.system == "d10" or ctx.dry:
        return None
    module = ctx.loaded.module
    counters = ctx.guarded(module.simulate, arm.inputs, 0, m, key)
    n = max(int(counters["outcomes"].sum()), 1)
    if ctx.system == "cards":
        names = arm.inputs.card_names[0 if who == arm.inputs.side_names[0] else 1]
        side = 0 if who == arm.inputs.side_names[0] else 1
        return float(counters["cards"][side, names.index(entry.name), 2]) / n if entry.name in names else 0.0
    from sim.systems.mb41.summarize import talent_uses

    t = talent_uses(counters, arm.inputs, "")
    row = t[(t["combatant"] == who) & (t["talent"] == entry.name)]
    return float(row["uses_per_fight"].sum()) if len(row) else 0.0


def _yardsticks(ctx, spec, pol_name, changes0, n, cell) -> None:
    for holder, ys in (("tester", spec.yardstick), ("monster", spec.monster_yardstick)):
        if ys is None:
            continue
        loc = ("study", "yardstick" if holder == "tester" else "monster_yardstick")
        v0 = ctx.value_at(ys.path, loc)
        if not isinstance(v0, (int, float)) or isinstance(v0, bool):
            raise doc_error(ctx.doc, loc + ("path",), f"{ys.path} is not a number in the scenario ({v0!r}); a "
                            "yardstick is a numeric stat written in the scenario (e.g. Akari.attack: 4).")
        deltas = sorted(set(ys.changes) | {0})
        rows = []
        for d in deltas:
            name = pol_name + SEP + (BASE if d == 0 else f"{ys.path}{d:+g}")
            arm = ctx.arm(name, changes0 + ([] if d == 0 else [(ys.path, v0 + d)]), loc, set_key=False)
            rows.append(ctx.metrics(arm, n)["win"])
        cell.yard[holder] = (deltas, np.vstack(rows))


def map_kind(model) -> str:
    """The map a fight of ``model`` is played on: ``hex`` (4.1's grid), ``positions`` (the
    draft's) or ``none`` (gridless; every system without either)."""
    resolved = getattr(model, "resolved_rules", None)
    if resolved is None:
        return "none"
    rules = resolved()
    if rules.get("grid") == "hex":
        return "hex"
    return "positions" if (rules.get("positions") or 0) > 0 else "none"


def _member_policy(model, who: str):
    for side in getattr(model, "sides", None) or []:
        for m in side.members:
            if m.name == who:
                return getattr(m, "policy", None)
    return None


def _context(model, who: str, entry: Entry) -> list:
    """The policy change ``entry`` needs to act (:data:`POLICY_CONTEXT`) when ``who``'s policy in
    ``model`` (the cell's base) leaves it off: ``[(path, policy)]``, or []."""
    need = POLICY_CONTEXT.get(entry.mechanic)
    pol = _member_policy(model, who) if need else None
    if pol is None or getattr(pol, need[0], None) != need[1]:
        return []
    return [(f"{who}.policy", {**pol.model_dump(exclude={"preset"}), need[0]: need[2]})]


def _entry(ctx, spec, e: Entry, pol, i: int, changes0: list, n: int, cell: Cell, base_model) -> None:
    """Play ``e``'s arm in this cell (and its own base under a policy context); or say why not."""
    if not e.acts_in(cell.where):
        cell.skipped[e.name] = NOT_HERE[e.acts_on]
        return
    got = _changes(ctx, spec, e)
    if got is None:
        cell.skipped[e.name] = f"this encounter has no {e.holder} to hold it"
        return
    ch, sign = got
    who = _holder(spec, e)
    context = _context(base_model, who, e)
    loc = ("study", "policies", i)
    try:
        if context:
            label = f"{who}.policy.{POLICY_CONTEXT[e.mechanic][0]}: {POLICY_CONTEXT[e.mechanic][2]}"
            own = ctx.arm(pol.name + SEP + f"{BASE} ({label})", changes0 + context, loc, set_key=False)
            cell.bases[e.name] = ctx.metrics(own, n)["win"]
            cell.draws[(BASE, e.name)] = ctx.draws(own, n)
            cell.context[e.name] = label
        arm = ctx.arm(pol.name + SEP + e.name, changes0 + context + ch, loc, set_key=False)
    except ScenarioError as err:
        cell.skipped[e.name] = err.detail.split(". ")[0]
        cell.bases.pop(e.name, None)
        cell.draws.pop((BASE, e.name), None)
        cell.context.pop(e.name, None)
        return
    cell.wins[e.name] = ctx.metrics(arm, n)["win"]
    cell.draws[e.name] = ctx.draws(arm, n)
    cell.sign[e.name] = sign * (1 if side_of(ctx, who) == 0 else -1)
    cell.usage[e.name] = _usage(ctx, arm, who, e, min(spec.usage_trials, n), _usage_key(ctx))


def _usage_key(ctx):
    from sim import rng

    return rng.stream_key(ctx.seed, 1 << 22)  # streams of their own: counting uses changes no result


def measure(ctx, spec: AuditSpec, entries: list[Entry], encounter: str, n: int) -> list[Cell]:
    """Every cell of this encounter (one per policy), ``n`` trials per arm. An entry is played
    only where it can act (:meth:`~sim.study.entries.Entry.acts_in` the cell's map), and under a
    policy context when it needs one (:data:`POLICY_CONTEXT`)."""
    cells = []
    for i, pol in enumerate(spec.policies):
        changes0 = list(pol.changes.items())
        base_arm = ctx.arm(pol.name + SEP + BASE, changes0, ("study", "policies", i))
        cell = Cell(encounter, pol.name, n, ctx.metrics(base_arm, n)["win"], where=map_kind(base_arm.model))
        cell.draws[BASE] = ctx.draws(base_arm, n)
        for e in entries:
            _entry(ctx, spec, e, pol, i, changes0, n, cell, base_arm.model)
        _yardsticks(ctx, spec, pol.name, changes0, n, cell)
        cells.append(cell)
    return cells


def selected(ctx, spec: AuditSpec, extra: list[Entry] | None = None) -> list[Entry]:
    """The entries of this encounter's catalog (the scenario's data block included), limited
    to ``spec.entries`` (misspelt names: an error with a suggestion)."""
    all_entries = entries_of(ctx.system, ctx.loaded.base) + list(extra or [])
    by_name = {e.name: e for e in without_filler(spec, all_entries)}
    if spec.entries is None:
        return list(by_name.values())
    for i, name in enumerate(spec.entries):
        if name not in by_name:
            raise doc_error(ctx.doc, ("study", "entries", i), f"no simulated entry {name!r}."
                            f"{suggest(name, list(by_name))}")
    return [by_name[n] for n in spec.entries]


def without_filler(spec: AuditSpec, entries: list[Entry]) -> list[Entry]:
    """The card game values every card but the filler (it is what each card replaces)."""
    return [e for e in entries if e.name != spec.filler]


def run(ctx, spec: AuditSpec) -> Section:
    """Audit this one encounter (``sim study FILE``): its cells read as ``sim audit`` reads
    several encounters' (:func:`sim.study.audit_read.sections`, the first section)."""
    from .audit_read import sections

    check_holders(ctx, spec)
    entries = selected(ctx, spec)
    cells = measure(ctx, spec, entries, ctx.loaded.name, ctx.trials)
    secs = sections(ctx.system, entries, cells, spec.alpha, seed=ctx.seed)
    head = secs[0]
    for s in secs[1:]:  # one study section: the categories' tables and charts join the overview
        head.tables.update(s.tables)
        head.charts.update(s.charts)
    return head
