"""The code's shape, held by tests: import contracts, function length, one layout.

- the import contracts in ``pyproject.toml`` (``[tool.importlinter]``): no
  import cycle inside ``sim/``, the 4.1 core rules never import a geometry,
  the rule systems independent of one another (checked with import-linter);
- no function in ``sim/`` is longer than 120 lines;
- the 4.1 engine's columns are declared in ``sim/systems/mb41/layout.py``
  only: no other module assigns a column constant, and every declared field
  is read somewhere.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "sim"
MAX_LINES = 120

#: the prefixes of the 4.1 layout's constants (sim/systems/mb41/layout.py)
COLUMN = re.compile(r"^(C|P|D|K|R|PR|BF|M|LST|L|FX|S|F|PE)_[A-Z0-9_]+$")


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


def column_assignments(path: Path) -> list[str]:
    """Module-level assignments in ``path`` of a name shaped like a layout column."""
    out = []
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(e, ast.Name) and COLUMN.match(e.id):
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


@pytest.mark.parametrize("pkg", ["mb41", "mbdraft"])
def test_only_the_layout_declares_columns(pkg):
    found = []
    for path in sorted((SIM / "systems" / pkg).glob("*.py")):
        if path.name != "layout.py":
            found += column_assignments(path)
    assert found == [], "declare columns in sim/systems/mb41/layout.py, not by hand"


def test_the_column_check_can_fail(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("D_RES = 4\nC_ATK, C_DEF = 1, 2\nNOT_A_COLUMN = 3\n")
    assert column_assignments(p) == ["k.py:1 D_RES", "k.py:2 C_ATK", "k.py:2 C_DEF"]


def test_every_declared_field_is_used():
    """Every column, counter, field row and procedure slot is read somewhere.

    The rule table is left out: it holds one entry per rule option of
    ``rules.RULES`` (some are read only when the scenario is compiled)."""
    from sim.systems.mb41 import layout
    from sim.systems.mb41.rules import RULES

    offsets = layout.RULE_TABLE.offsets()
    assert {o.name.upper(): RULES.index(o.name) for o in RULES.options} == offsets
    text = "\n".join(p.read_text() for p in SIM.rglob("*.py") if p.name != "layout.py")
    unused = []
    for section in layout.SECTIONS:
        if section is layout.RULE_TABLE:
            continue
        for name in section.constants():
            if not re.search(rf"\b{name}\b", text):
                unused.append(name)
    assert unused == [], "declared but never read: remove the field or use it"


def test_layout_sections_tile_their_arrays():
    """Stacked sections do not overlap and leave no gap; every field has a meaning."""
    from sim.systems.mb41 import layout

    for s in layout.SECTIONS:
        assert all(f.meaning.strip() for f in s.fields), s.prefix
        offs = list(s.offsets().values())
        widths = [f.width for f in s.fields]
        assert offs == [s.start + sum(widths[:k]) for k in range(len(widths))]
    assert layout.STATIC.stop == layout.POLICY.start and layout.POLICY.stop == layout.NC
    assert layout.COUNTERS.start == 0 and layout.COUNTERS.stop == layout.STATE.start
    assert layout.STATE.stop == layout.NDYN


#: numba code at a module's top level: a kernel decorator, or numba imported for the module
#: (an ``import numba`` inside a function, to set the thread count, is not kernel code)
_NUMBA_CODE = re.compile(r"^(@(kernel|jit|pjit|part|njit|numba\.\w+)\b|import numba|from numba)", re.M)


def _numba_modules(folder: Path) -> set[str]:
    return {p.name for p in folder.glob("*.py") if _NUMBA_CODE.search(p.read_text())}


def test_every_shared_kernel_module_keys_the_cache():
    """A module directly under sim/ with numba code must be in the cache key
    (sim.cache.SHARED_KERNEL_MODULES), or an edit to it would leave stale kernels;
    a module of plain Python must not be (an edit to the CLI recompiles nothing)."""
    from sim.cache import SHARED_KERNEL_MODULES

    plain_ok = {"notice.py"}  # listens to numba's compile events; no kernel
    found = _numba_modules(SIM) - plain_ok
    assert found <= set(SHARED_KERNEL_MODULES), f"numba code outside the cache key: {found - set(SHARED_KERNEL_MODULES)}"
    assert all((SIM / m).is_file() for m in SHARED_KERNEL_MODULES)


def test_the_cache_key_check_can_fail(tmp_path):
    (tmp_path / "newkernel.py").write_text("from sim._jit import kernel\n\n@kernel\ndef f(x):\n    return x\n")
    (tmp_path / "plain.py").write_text("import json\n")
    assert _numba_modules(tmp_path) == {"newkernel.py"}
