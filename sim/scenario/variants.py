"""Variants and sweeps: the base scenario with some values changed.

::

    variants:
      - name: stronger
        set: {Akari.attack: 5, rules.revive: true}
    sweep:
      Akari.attack: [3, 4, 5]

``expand_variants(data, doc)`` turns that into ``[(name, data), ...]``, each
``data`` a deep copy of the base with the changes applied and the
``variants``/``sweep`` keys removed. A sweep is a cartesian product (names like
``Akari.attack=3, rules.revive=true``); with explicit variants too, the sweep
applies on top of each of them (``stronger / Akari.attack=3``). Without either,
the result is ``[("base", data)]``.

A path starts with ``rules``, a member's name, a side's name, a top-level
field the system lists in ``VARIANT_FIELDS`` (the card game's ``cards`` and
``what_if``), or is explicit (``sides[0].members[1].attack``). Only the
target object is resolved here;
whether the field exists is checked when the system model validates the variant.
"""
from __future__ import annotations

import copy
import itertools
import json
import re
from typing import Any

from .errors import ScenarioError, doc_error
from .suggest import list_names, suggest

#: most variants one scenario may expand to (explicit x sweep)
MAX_VARIANTS = 1000

_PART = re.compile(r"^([^\[\]]*)((?:\[-?\d+\])*)$")


def _value_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), sort_keys=False, default=str)
    return str(value)


def parse_path(path: str) -> list[str | int] | None:
    """``"sides[0].members[1].attack"`` -> ``["sides", 0, "members", 1, "attack"]``.

    None if the path is malformed (empty parts, stray brackets).
    """
    if not isinstance(path, str) or not path:
        return None
    tokens: list[str | int] = []
    for part in path.split("."):
        m = _PART.match(part)
        if not m or not m.group(1).strip():
            return None
        tokens.append(m.group(1))
        tokens.extend(int(i) for i in re.findall(r"\[(-?\d+)\]", m.group(2)))
    return tokens


class _Targets:
    """Names a path may start with: member names and side names."""

    def __init__(self, data: dict, top: tuple = ()) -> None:
        #: top-level fields a path may start with (the system's ``VARIANT_FIELDS``)
        self.top = tuple(top)
        self.members: dict[str, list[tuple]] = {}
        self.sides: dict[str, list[tuple]] = {}
        self.episode = isinstance(data.get("episode"), dict)
        places: list[tuple[tuple, Any]] = []
        sides = data.get("sides")
        if isinstance(sides, list):
            places += [(("sides", si), side) for si, side in enumerate(sides)]
        scenes = data["episode"].get("scenes") if self.episode else None
        if isinstance(scenes, list):  # an episode's scenes bring their enemy sides (mb41)
            places += [(("episode", "scenes", k, "enemies"), sc.get("enemies"))
                       for k, sc in enumerate(scenes) if isinstance(sc, dict)]
        for at, side in places:
            if not isinstance(side, dict):
                continue
            if isinstance(side.get("name"), str):
                self.sides.setdefault(side["name"], []).append(at)
            members = side.get("members")
            if not isinstance(members, list):
                continue
            for mi, member in enumerate(members):
                if isinstance(member, dict) and isinstance(member.get("name"), str):
                    self.members.setdefault(member["name"], []).append(at + ("members", mi))

    def choices(self) -> list[str]:
        return ["rules", *self.top, *(["episode"] if self.episode else []), *self.members,
                *(s for s in self.sides if s not in self.members)]


_EPISODE_HINT = " or 'episode' ('episode.rest.recover', 'episode.scenes[n]...')"


def _shown(path: tuple) -> str:
    """``("sides", 0, "members", 1)`` -> ``sides[0].members[1]``."""
    out = ""
    for seg in path:
        out += f"[{seg}]" if isinstance(seg, int) else (("." if out else "") + seg)
    return out


def _resolve(data: dict, targets: _Targets, key: str, doc, loc: tuple,
             where: str) -> tuple[tuple, list]:
    """Split ``key`` into (data path of the target object, remaining tokens)."""
    def fail(detail: str) -> ScenarioError:
        return doc_error(doc, loc, detail, where)

    tokens = parse_path(key)
    if tokens is None:
        raise fail(f"malformed path {key!r}; write e.g. 'rules.revive', "
                   "'Akari.attack' or 'sides[0].members[1].attack'.")
    head, rest = tokens[0], tokens[1:]
    if head in targets.top and not (rest and isinstance(rest[0], int)):
        return (), tokens
    # explicit index on the first part: only 'sides[...]'
    if head == "sides" and rest and isinstance(rest[0], int):
        return (), tokens
    if head == "episode" and targets.episode and rest:
        return (), tokens
    if rest and isinstance(rest[0], int):
        raise fail(f"path {key!r}: only 'sides' takes an index ([n]) at the start.")
    if not rest:
        raise fail(f"path {key!r} names no field; write e.g. "
                   f"'{head}.{'revive' if head == 'rules' else 'attack'}'.")
    if head == "rules":
        if "rules" not in data or data["rules"] is None:
            data["rules"] = {}
        return ("rules",), rest
    member = targets.members.get(head, [])
    side = targets.sides.get(head, [])
    if len(member) + len(side) > 1:
        where_found = [f"member {head!r} ({_shown(m)})" for m in member] + \
                      [f"side {head!r} ({_shown(s)})" for s in side]
        raise fail(f"path {key!r} is ambiguous: {head!r} names more than one thing "
                   f"({'; '.join(where_found)}). Give them unique names or write the "
                   f"explicit form, e.g. '{_shown((member + side)[0] + tuple(rest))}'.")
    if member:
        return member[0], rest
    if side:
        return side[0], rest
    members = list(targets.members)
    sides = list(targets.sides)
    raise fail(f"unknown name {head!r} at the start of path {key!r}."
               f"{suggest(head, targets.choices())} A path starts with 'rules', "
               f"{''.join(repr(t) + ', ' for t in targets.top)}a "
               f"member name ({list_names(members) or 'none'}), a side name "
               f"({list_names(sides) or 'none'}) or 'sides[n]'{_EPISODE_HINT if targets.episode else ''}.")


def _apply(data: dict, targets: _Targets, key: str, value: Any, doc, loc: tuple,
           where: str) -> tuple:
    """Set ``key`` to a copy of ``value`` in ``data``; return the data path set."""
    prefix, rest = _resolve(data, targets, key, doc, loc, where)
    cur: Any = data
    for seg in prefix:
        cur = cur[seg]
    path = list(prefix)
    for i, seg in enumerate(rest):
        last = i == len(rest) - 1
        shown_path = ".".join(map(str, path)) or "the top level"
        if isinstance(cur, dict):
            if isinstance(seg, int):
                raise doc_error(doc, loc, f"path {key!r}: {shown_path} is a mapping, "
                                f"not a list, so [{seg}] does not apply.", where)
            if last:
                cur[seg] = copy.deepcopy(value)
            else:
                if cur.get(seg) is None:
                    cur[seg] = {}
                cur = cur[seg]
        elif isinstance(cur, list):
            if not isinstance(seg, int):
                raise doc_error(doc, loc, f"path {key!r}: {shown_path} is a list; "
                                f"use an index such as [0] instead of {seg!r}.", where)
            if not -len(cur) <= seg < len(cur):
                raise doc_error(doc, loc, f"path {key!r}: index [{seg}] is out of range "
                                f"({len(cur)} items).", where)
            seg = seg % len(cur)
            if last:
                cur[seg] = copy.deepcopy(value)
            else:
                cur = cur[seg]
        else:
            raise doc_error(doc, loc, f"path {key!r}: cannot set {seg!r} inside "
                            f"{shown_path}, which is a single value, not a mapping.",
                            where)
        path.append(seg)
    return tuple(path)


def _strip(data: dict) -> dict:
    out = copy.deepcopy(data)
    out.pop("variants", None)
    out.pop("sweep", None)
    return out


def _explicit(data: dict, doc) -> list[tuple[str, list[tuple[str, Any, tuple]]]]:
    """``[(name, [(path, value, doc loc), ...]), ...]`` from ``variants:``."""
    specs = data.get("variants")
    if specs is None:
        return []
    if not isinstance(specs, list):
        raise doc_error(doc, ("variants",), "expected a list of variants "
                        "(- name: ..., set: {...}).")
    out = []
    seen: dict[str, int] = {}
    for i, spec in enumerate(specs):
        loc = ("variants", i)
        if not isinstance(spec, dict):
            raise doc_error(doc, loc, "each variant must be a mapping with 'name' and "
                            "'set'.")
        name = spec.get("name")
        if name is None:
            raise doc_error(doc, loc + ("name",), "required field missing: every "
                            "variant needs a name.")
        if not isinstance(name, str) or not name.strip():
            raise doc_error(doc, loc + ("name",), "a variant name must be non-empty "
                            "text.")
        if name in seen:
            raise doc_error(doc, loc + ("name",), f"duplicate variant name {name!r} "
                            f"(also variants[{seen[name]}]); names must be unique.")
        seen[name] = i
        changes = spec.get("set") or {}
        if not isinstance(changes, dict):
            raise doc_error(doc, loc + ("set",), "expected a mapping of 'path: value' "
                            "(e.g. {Akari.attack: 5}).")
        out.append((name, [(k, v, loc + ("set", k)) for k, v in changes.items()]))
    return out


def _sweep(data: dict, doc, n_explicit: int) -> list[tuple[str, list[tuple[str, Any, tuple]]]]:
    """``[(name, changes), ...]``: the cartesian product of ``sweep:``."""
    sweep = data.get("sweep")
    if sweep is None:
        return []
    if not isinstance(sweep, dict):
        raise doc_error(doc, ("sweep",), "expected a mapping of 'path: [values...]' "
                        "(e.g. Akari.attack: [3, 4, 5]).")
    axes = []
    total = max(n_explicit, 1)
    for key, values in sweep.items():
        if not isinstance(values, list) or not values:
            raise doc_error(doc, ("sweep", key), "expected a non-empty list of values "
                            "to sweep over, e.g. [3, 4, 5].")
        axes.append([(key, v, ("sweep", key)) for v in values])
        total *= len(values)
    if total > MAX_VARIANTS:
        raise doc_error(doc, ("sweep",), f"this expands to {total:,} variants; at most "
                        f"{MAX_VARIANTS} are allowed. Sweep fewer values or split the "
                        "scenario.")
    if not axes:
        return []
    return [(", ".join(f"{k}={_value_name(v)}" for k, v, _ in combo), list(combo))
            for combo in itertools.product(*axes)]


def expand_variants_with_origins(data: dict, doc, top: tuple = ()) -> list[tuple[str, dict, dict]]:
    """Like :func:`expand_variants`, plus ``{data path: document loc}`` per variant.

    ``top`` names top-level fields a path may also start with (a system's
    ``VARIANT_FIELDS``, e.g. the card game's ``cards``: ``cards.Sparkle Ruby.atk``,
    or ``cards`` alone to replace the whole block). The origins tell the validator which lines of the file set which values, so
    a bad value in a variant is reported at the variant's line.
    """
    explicit = _explicit(data, doc)
    swept = _sweep(data, doc, len(explicit))
    if not explicit and not swept:
        return [("base", _strip(data), {})]
    if not explicit:
        combos = [(name, changes) for name, changes in swept]
    elif not swept:
        combos = explicit
    else:
        combos = [(f"{en} / {sn}", ec + sc) for en, ec in explicit for sn, sc in swept]
    out = []
    base = _strip(data)
    targets = _Targets(base, top)
    for name, changes in combos:
        vdata = copy.deepcopy(base)
        origins: dict[tuple, tuple] = {}
        where = f"variant {name!r}"
        for key, value, loc in changes:
            path = _apply(vdata, targets, key, value, doc, loc, where)
            # a later change overrides earlier ones at or below the same path
            for p in [p for p in origins if p[: len(path)] == path]:
                del origins[p]
            origins[path] = loc
        out.append((name, vdata, origins))
    return out


def expand_variants(data: dict, doc) -> list[tuple[str, dict]]:
    """``[(variant name, data with the changes applied), ...]`` (deep copies).

    ``doc`` (a :class:`~sim.scenario.yamlload.Document`, or None) gives line
    numbers for errors. Raises :class:`ScenarioError` for unknown path starts
    (with a suggestion), ambiguous names, duplicate variant names, empty
    sweeps and more than ``MAX_VARIANTS`` variants.
    """
    return [(name, vdata) for name, vdata, _ in expand_variants_with_origins(data, doc)]
