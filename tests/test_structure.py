"""The code's shape, held by tests: import contracts, function length, one layout.

- the import contracts in ``pyproject.toml`` (``[tool.importlinter]``): no
  import cycle inside ``sim/``, the 4.1 core rules never import a geometry,
  the rule systems independent of one another (checked with import-linter);
- no function in ``sim/`` is longer than 120 lines;
- each engine's columns are declared in its ``layout.py`` only (4.1 and the
  draft: ``sim/systems/mb41/layout.py``; ``sim/systems/d10/layout.py``;
  ``sim/systems/cards/layout.py``): no other module of the package assigns a
  column constant, every declared field is read somewhere, and the sections
  tile their arrays;
- no module of the d10 and card engines is longer than 1,500 lines.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "sim"
MAX_LINES = 120

MAX_MODULE_LINES = 1500

#: the prefixes of the 4.1 layout's constants (sim/systems/mb41/layout.py)
COLUMN = re.compile(r"^(C|P|D|K|R|PR|BF|M|LST|L|FX|S|F|PE)_[A-Z0-9_]+$")
#: per package: the layout module and the prefixes of its column constants
LAYOUTS = {
    "mb41": ("sim.systems.mb41.layout", COLUMN),
    "mbdraft": ("sim.systems.mb41.layout", COLUMN),
    "d10": ("sim.systems.d10.layout", re.compile(r"^(C|P|D|K|R|F|S)_[A-Z0-9_]+$")),
    "cards": ("sim.systems.cards.layout", re.compile(r"^(G|P|SL|CT|R|S|PP|CC|LG)_[A-Z0-9_]+$")),
}


def _functions(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def long_functions(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``path:line name (n lines)`` for every function longer than ``limit``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for name, line, n in _functions(path):
            if n > limit:
                out.append(f"{path.relative_to(ROOT)}:{line} {name} ({n} lines)")
    return out


def column_assignments(path: Path, pattern=COLUMN) -> list[str]:
    """Module-level assignments in ``path`` of a name shaped like a layout column."""
    out = []
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(e, ast.Name) and pattern.match(e.id):
                    out.append(f"{path.name}:{node.lineno} {e.id}")
    return out


def test_import_contracts_hold():
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0, (
        "an import contract of pyproject.toml is broken: run `lint-imports` for the chain")


def test_no_function_longer_than_120_lines():
    assert long_functions(SIM) == []


def test_the_length_check_can_fail(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def f():\n{body}\n")
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        assert long_functions(tmp_path) == [f"m.py:1 f ({MAX_LINES + 1} lines)"]
    finally:
        ROOT = old


@pytest.mark.parametrize("pkg", list(LAYOUTS))
def test_only_the_layout_declares_columns(pkg):
    found = []
    for path in sorted((SIM / "systems" / pkg).glob("*.py")):
        if path.name != "layout.py":
            found += column_assignments(path, LAYOUTS[pkg][1])
    assert found == [], f"declare columns in {LAYOUTS[pkg][0]}, not by hand"


@pytest.mark.parametrize("system", ["d10", "cards"])
def test_no_module_of_the_d10_and_card_engines_longer_than_1500_lines(system):
    """Issue 34: modules by phase of the fight (the 4.1 engine's are held by its own test)."""
    long = [f"{p.relative_to(ROOT)} ({n} lines)" for p in sorted((SIM / "systems" / system).rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES]
    assert long == [], "split these modules by phase"


def test_the_column_check_can_fail(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("D_RES = 4\nC_ATK, C_DEF = 1, 2\nNOT_A_COLUMN = 3\n")
    assert column_assignments(p) == ["k.py:1 D_RES", "k.py:2 C_ATK", "k.py:2 C_DEF"]


@pytest.mark.parametrize("system", ["mb41", "d10", "cards"])
def test_every_declared_field_is_used(system):
    """Every column, counter, field row and procedure slot is read somewhere.

    The rule table is left out: it holds one entry per rule option of
    ``rules.RULES`` (some are read only when the scenario is compiled); so are the 4.1
    hook slots and their armed states, which the hook points address from ``PR_HOOKS``
    and ``ARM_HOOKS`` by timing point (sim/systems/mb41/points.py)."""
    import importlib

    from sim.systems.mb41 import hooks

    layout = importlib.import_module(LAYOUTS[system][0])
    RULES = importlib.import_module(f"sim.systems.{system}.rules").RULES

    offsets = layout.RULE_TABLE.offsets()
    assert {o.name.upper(): RULES.index(o.name) for o in RULES.options} == offsets
    where = SIM if system == "mb41" else SIM / "systems" / system
    text = "\n".join(p.read_text() for p in where.rglob("*.py") if p.name != "layout.py")
    unused = []
    for section in layout.SECTIONS:
        if section is layout.RULE_TABLE:
            continue
        for name in section.constants():
            if system == "mb41" and (section is layout.ARMED
                                     or (section is layout.PROCS and name[3:] in hooks.TIMINGS)):
                continue
            if not re.search(rf"\b{name}\b", text):
                unused.append(name)
    assert unused == [], "declared but never read: remove the field or use it"


@pytest.mark.parametrize("system", ["mb41", "d10", "cards"])
def test_layout_sections_tile_their_arrays(system):
    """Stacked sections do not overlap and leave no gap; every field has a meaning."""
    import importlib

    layout = importlib.import_module(LAYOUTS[system][0])
    for s in layout.SECTIONS:
        assert all(f.meaning.strip() for f in s.fields), s.prefix
        offs = list(s.offsets().values())
        widths = [f.width for f in s.fields]
        assert offs == [s.start + sum(widths[:k]) for k in range(len(widths))]
    if system == "mb41":
        assert layout.STATIC.stop == layout.POLICY.start and layout.POLICY.stop == layout.NC
        assert layout.COUNTERS.start == 0 and layout.COUNTERS.stop == layout.STATE.start
        assert layout.STATE.stop == layout.NDYN
    else:  # one section per array, each from column 0
        assert all(s.start == 0 for s in layout.SECTIONS)
        for s, size in layout.SIZES.items():
            assert s.size == size, s.prefix


#: numba code at a module's top level: a kernel decorator, or numba imported for the module
#: (an ``import numba`` inside a function, to set the thread count, is not kernel code)
_NUMBA_CODE = re.compile(r"^(@(kernel|jit|pjit|part|njit|numba\.\w+)\b|import numba|from numba)", re.M)


def _numba_modules(folder: Path) -> set[str]:
    return {p.name for p in folder.glob("*.py") if _NUMBA_CODE.search(p.read_text())}


def _all_systems():
    import sim.systems.cards.engine  # noqa: F401
    import sim.systems.d10.kernel  # noqa: F401
    import sim.systems.mb41.registry  # noqa: F401
    import sim.systems.mb41.episode  # noqa: F401


def test_every_kernel_is_cached_under_its_module_key():
    """Every jitted function of the package keeps its machine code in its own module's
    directory, keyed by what the module's kernels are built from (sim.cache.module_key),
    not by the file's place: an edit recompiles the modules it reaches, nothing else."""
    from numba.core.dispatcher import Dispatcher

    from sim import cache

    _all_systems()
    seen = 0
    for name, mod in list(sys.modules.items()):
        if not name.startswith("sim.") or cache.module_of(getattr(mod, "__file__", "") or "") != name:
            continue
        for v in vars(mod).values():
            if isinstance(v, Dispatcher) and v.py_func.__module__ == name and v._cache is not None:
                path = getattr(v._cache, "_cache_path", None)
                if path is None:
                    continue  # cache=False
                assert path == cache.module_dir(name), (name, v.py_func.__name__)
                seen += 1
    assert seen > 300
    assert not cache.PARTIAL, f"kernel modules that import each other (their keys vary by import order): {cache.PARTIAL}"


def test_the_core_key_never_covers_a_geometry_or_a_talent_hook():
    """The 4.1 block kernel and its core never reach the geometries' modules, so an edit to
    the hex grid keeps a gridless fight's kernels; the hex grid's key covers the core; the
    attack, compiled apart, is in no caller's key."""
    from sim import cache

    _all_systems()
    core = set(cache.closure("sim.systems.mb41.fight"))
    for geo in ("hex", "hex_turn", "hex_moves", "labyrinth", "positions", "gridless", "grid", "field", "registry"):
        assert f"sim.systems.mb41.{geo}" not in core
    assert "sim.systems.mb41.state" in cache.closure("sim.systems.mb41.hex_turn")
    for caller in ("fight", "turn", "hex_turn"):  # the attack is a procedure of its own, reached by address
        assert "sim.systems.mb41.attack" not in cache.closure(f"sim.systems.mb41.{caller}")
    assert "sim.systems.mb41.world" in core and "sim.rng" in core
    assert "sim.cache" not in core and "sim.notice" not in core  # sim._jit's NOT_IN_KERNELS


def test_module_key_follows_the_values_a_module_names(monkeypatch):
    """A module's key changes with the value of a constant it names (a layout column, an
    effect code) and not with one it does not name: a new effect code or column recompiles
    only the modules that use it."""
    from sim import cache
    from sim.systems.mb41 import gridless

    name = gridless.__name__

    def key():
        cache._KEYS.pop(name, None)
        return cache.module_key(name)

    before = key()
    assert "D_PLACE" in vars(gridless)
    monkeypatch.setattr(gridless, "D_PLACE", gridless.D_PLACE + 1)
    assert key() != before
    monkeypatch.undo()
    assert key() == before
    monkeypatch.setattr(gridless, "NOT_A_NAME_IT_USES", 12345, raising=False)
    assert key() == before
    cache._KEYS.pop(name, None)


def test_the_engines_talent_checks_stay_in_their_hook_points():
    """tools/engine_counts.py: direct talent checks in the 4.1 rule modules (a code tested in a
    rule module instead of at a hook point or in the talent's own module), the turn procedures
    and the frenzy turns of their own. Issue 34's bounds: at most 40 checks (198 in kernel.py,
    battle_grid.py and positions.py before the hook points; 61 by the tool's honest definitions
    before the talents' gates went to their modules) and no frenzy turn of its own (a frenzy's
    turn is the turn with the frenzy's choices); one turn procedure (``turn.take_turn``, in
    every geometry's ``PR_TURN``; the geometries add steps in its slots, docs/engine.md
    section 4)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import engine_counts

    c = engine_counts.counts()
    assert c["direct_talent_checks"] <= 40, c["per_module"]
    assert c["frenzy_turns"] == [], c["frenzy_turns"]
    assert c["take_turn"] == ["turn.take_turn"], c["take_turn"]
    assert c["turn_slot_procedures"] == ["turn.p_take_turn"], c["turn_slot_procedures"]
    # each of the turn's talent choices has one caller (on the two turns before, most had two)
    sites = c["talent_call_sites"]
    assert all(len(v) == 1 for v in sites.values()), sites


def test_engine_counts_sees_a_check_and_a_frenzy_turn_however_named(tmp_path, monkeypatch):
    """The counts are not a name game: a talent's gate written in a rule module counts
    wherever it sits, and a function named for the frenzy that plays an attack is a frenzy turn
    of its own whatever its name."""
    sys.path.insert(0, str(ROOT / "tools"))
    import engine_counts

    eng = tmp_path / "mb41"
    (eng / "talents").mkdir(parents=True)
    (eng / "turn.py").write_text("def frenzied_round(i, w):\n    if has_code(i, E_X, w):\n"
                                 "        call(rules[PR_ATTACK], i, t, 0, w)\n    if code == E_Y:\n        pass\n")
    (eng / "hex_movement.py").write_text("def sprint_on_turn(i, w):\n    return has_code(i, E_SPRINT, w)\n")
    monkeypatch.setattr(engine_counts, "ROOT", eng)
    assert engine_counts.checks() == {"turn.py": 2}
    assert engine_counts.frenzy_turns() == ["turn.frenzied_round"]
