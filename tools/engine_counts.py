#!/usr/bin/env python
"""Grep-level counts of the 4.1 engine's shape (issue 34): direct talent checks in its rule
modules, its turn procedures, its frenzy turns.

A *direct talent check* is a test of one effect code written in a rule module instead of a
hook point (:mod:`sim.systems.mb41.points`) or a talent's own module: ``has_code(`` /
``side_has_code(`` (and their ``_w`` forms), a mask bit ``>> E_X) & 1`` or ``(1 << E_X)``,
``find_usable(`` / ``find_talent(``, a comparison with an effect code ``== E_X`` / ``!= E_X``
(a slot scan ``C_TCODE + s] == E_X``, or a slot's code read into a variable first).
Each match counts (two checks on a line are two). The *rule modules* are every module of ``sim/systems/mb41`` but the
talents' own: ``talents/``, the geometries' talent modules (``hex_movement.py``,
``hex_areas.py``, ``positions_talents.py``: nothing but talents' rules), and ``slots.py``,
which defines those tests. The turns (``turn.py``, ``hex_turn.py``, ``positions_turn.py``)
are rule modules. Comment lines and ``def`` lines are not counted.

    .venv/bin/python tools/engine_counts.py          # the counts, per module
    .venv/bin/python tools/engine_counts.py --json   # the same as JSON

*Turn procedures*: the functions named ``take_turn*`` and the distinct procedures the
geometries put in the turn's slot ``PR_TURN``. *Frenzy turns of their own*: see
:func:`frenzy_turns` (a function named for the frenzy that plays a Major). *The turn's
talent choices* (:func:`talent_call_sites`): who calls the Minor and Major talent choice,
Guided Strike, Bonus Action, Reflector, Follow Up, Get Over Here, a frenzy's removal roll
and Safe Place's gate; one caller each means one turn plays them.

``tests/test_structure.py`` holds the counts to their bounds. A development tool; nothing in
``sim`` imports it.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "sim" / "systems" / "mb41"
#: modules whose checks are their own talents' (or the tests themselves)
TALENT_MODULES = {"hex_movement.py", "hex_areas.py", "positions_talents.py", "slots.py"}
PATTERNS = {
    "has_code": re.compile(r"\b(side_)?has_code(_w)?\("),
    "mask_bit": re.compile(r">>\s*(K\.)?E_[A-Z0-9_]+\)\s*&\s*1|\(1 << E_[A-Z0-9_]+\)"),
    "find": re.compile(r"\bfind_(usable|talent)\("),
    "code_compare": re.compile(r"[!=]=\s*(K\.)?E_[A-Z0-9_]+\b"),
}


def rule_modules() -> list[Path]:
    return sorted(p for p in ROOT.glob("*.py") if p.name not in TALENT_MODULES)


def checks() -> dict[str, int]:
    """``{module: direct talent checks}`` over the rule modules (only those with some)."""
    out = {}
    for p in rule_modules():
        lines = [ln for ln in p.read_text().splitlines() if not ln.strip().startswith(("#", "def "))]
        n = sum(len(pat.findall(ln)) for ln in lines for pat in PATTERNS.values())
        if n:
            out[p.name] = n
    return out


def defs(pattern: str) -> list[str]:
    """``module.function`` of every function of the engine whose name matches ``pattern``."""
    rx = re.compile(rf"^def ({pattern})\(", re.M)
    return [f"{p.stem}.{m}" for p in engine_files() for m in rx.findall(p.read_text())]


def engine_files() -> list[Path]:
    return sorted(ROOT.glob("*.py")) + sorted((ROOT / "talents").glob("*.py"))


#: a call that plays a turn's Major: an attack, or a Major's move
MAJOR_CALL = re.compile(r"attack|major_move|major_toward|take_turn|major_actions|MAJOR_MOVE", re.I)


def frenzy_turns() -> list[str]:
    """Functions that play a frenzy's turn of their own: named ``frenzy_turn*``, or any
    function named for the frenzy (``frenz``) that calls an attack or a Major's move (a
    name in :data:`MAJOR_CALL`; docstrings and comments are not read). The frenzy's start
    (``turn.frenzy_start``: the regeneration), its removal roll and its extra point of
    movement (``frenzy_step``) play no Major."""
    out = []
    for p in engine_files():
        for node in ast.walk(ast.parse(p.read_text())):
            if not isinstance(node, ast.FunctionDef) or "frenz" not in node.name:
                continue
            called = {c.func.id if isinstance(c.func, ast.Name) else getattr(c.func, "attr", "")
                      for c in ast.walk(node) if isinstance(c, ast.Call)}
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if re.match(r"frenzy_turn(_|$)", node.name) or any(MAJOR_CALL.search(n) for n in called | names):
                out.append(f"{p.stem}.{node.name}")
    return out


def turn_procedures() -> list[str]:
    """The distinct procedures the geometries put in the turn's slot (``PR_TURN``,
    :data:`sim.systems.mb41.registry.GEOMETRIES`), and every function named ``take_turn*``:
    one turn means one of each."""
    from sim.systems.mb41 import layout, registry

    procs = {f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}" for g in registry.GEOMETRIES.values()
             for slot, fn in g.items() if slot == layout.PR_TURN}
    return sorted(procs), defs(r"take_turn\w*")


#: the turn's talent choices: each must be called from one place (the one turn), so that a
#: geometry cannot grow a turn of its own around them
TURN_TALENT_CALLS = ("minor_talent", "major_talent", "guided_strike", "bonus_major", "reflector_after",
                     "follow_up_for", "shove_paid", "frenzy_removal", "safe_place_held")


def talent_call_sites() -> dict[str, list[str]]:
    """``{talent choice: the functions (module.function) that call it}`` over the engine's
    modules (:data:`TURN_TALENT_CALLS`; calls read from the syntax tree, not from docstrings)."""
    out = {name: [] for name in TURN_TALENT_CALLS}
    for p in engine_files():
        for node in ast.walk(ast.parse(p.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for c in ast.walk(node):
                if isinstance(c, ast.Call):
                    f = c.func.id if isinstance(c.func, ast.Name) else getattr(c.func, "attr", "")
                    if f in out and f"{p.stem}.{node.name}" not in out[f]:
                        out[f].append(f"{p.stem}.{node.name}")
    return out


def counts() -> dict:
    c = checks()
    procs, named = turn_procedures()
    return {"direct_talent_checks": sum(c.values()), "per_module": c,
            "take_turn": named, "turn_slot_procedures": procs, "frenzy_turns": frenzy_turns(),
            "talent_call_sites": talent_call_sites()}


if __name__ == "__main__":
    out = counts()
    if "--json" in sys.argv:
        print(json.dumps(out, indent=1))
    else:
        print(f"direct talent checks in the rule modules: {out['direct_talent_checks']}")
        for k, v in sorted(out["per_module"].items(), key=lambda kv: -kv[1]):
            print(f"  {k:22s} {v}")
        print(f"turn procedures (take_turn*): {', '.join(out['take_turn'])}")
        print(f"procedures in the turn's slot (PR_TURN): {', '.join(out['turn_slot_procedures'])}")
        print(f"frenzy turns of their own: {', '.join(out['frenzy_turns'])}")
        print("the turn's talent choices, called from:")
        for k, v in out["talent_call_sites"].items():
            print(f"  {k:22s} {', '.join(v)}")
