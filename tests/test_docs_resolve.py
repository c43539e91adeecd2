"""Docs that check themselves: every module, function and file a docstring or a page of
docs/ names exists.

* In the engine's docstrings (module, class and function, and ``#:`` comments;
  the 4.1 / draft plug-ins and the shared kernel modules, :data:`ENGINE`): every Sphinx role
  (``:func:`.hex.reach```, ``:mod:`sim.cache```, ``:data:`HOOKS```...) resolves,
  relative to the module that names it; every path of the repository
  (``sim/systems/mb41/hooks.py``, ``tests/test_x.py``, ``docs/engine.md``) exists.
* In docs/*.md and README.md: every such path exists, every dotted name in
  backticks that starts with ``sim.`` or a module of the engine
  (``sim.cache.module_key``, ``registry.slots_for``, ``hooks.HOOKS``; :data:`CODE_HEADS`)
  resolves, every ``x.py`` is a module, every ``sim <command>`` is a command of the CLI.

The d10 add-on's and the card game's modules and pages are left to their own
check (the other rule systems' engines are being rebuilt on the declared layout).
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the modules whose docstrings this holds: the engine (the 4.1 / draft plug-ins) and the shared
#: kernel modules under sim/ (the other packages' docstrings are their owners' to hold)
ENGINE = ("sim.systems.mb41", "sim.systems.mbdraft", "sim._jit", "sim.cache", "sim.notice", "sim.procs",
          "sim.compile_helper", "sim.layout", "sim.rng", "sim.dice", "sim.curves", "sim.warmup")
#: modules and pages not held here (see the module docstring)
OTHERS = ("sim.systems.d10", "sim.systems.cards")
OTHER_PAGES = {"d10.md", "cards.md", "status-d10.md", "status-cards.md"}
#: names in backticks on a page that are code of the engine when they start a dotted name (the
#: old ``kernel`` and ``battle_grid`` included, so that a page naming them fails; not ``labyrinth``:
#: ``labyrinth.owner`` is a scenario key)
CODE_HEADS = {"state", "slots", "overcharge", "targets", "damage", "ailments", "attack", "bursts", "turn", "fight",
              "episode", "hooks", "gates", "points", "registry", "world", "layout", "codes", "hex", "hex_moves",
              "hex_movement", "hex_areas", "hex_turn", "positions", "positions_turn", "positions_talents",
              "gridless",
              "procs", "cache", "notice", "compile_helper", "kernel", "battle_grid", "field", "grid", "deploy",
              "fast", "summarize", "schema", "compile"}

ROLE = re.compile(r":(?:func|mod|data|class|meth|attr|obj|exc):`~?([^`<>]+?)`")
PATH = re.compile(r"(?<![\w/.])((?:sim|tests|docs|tools|scenarios|notebooks)/[\w./-]*\w)")
DOTTED = re.compile(r"`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
COMMAND = re.compile(r"`sim ([a-z][\w-]*)")


def _modules():
    import sim

    out = {"sim": sim}
    for m in pkgutil.walk_packages(sim.__path__, "sim."):
        if m.name.startswith(OTHERS) or m.name.endswith("__main__"):
            continue
        out[m.name] = importlib.import_module(m.name)
    return out


def _resolve(name: str, base: str, modules: dict) -> bool:
    """``name`` (absolute ``sim.x.y``, relative ``.x.y`` / ``..x``, or bare in module ``base``)
    is an attribute path that exists."""
    if name.startswith("."):
        dots = len(name) - len(name.lstrip("."))
        pkg = base if hasattr(modules.get(base), "__path__") else base.rsplit(".", 1)[0]
        for _ in range(dots - 1):
            pkg = pkg.rsplit(".", 1)[0]
        name = pkg + "." + name.lstrip(".")
    elif not name.startswith("sim.") and name != "sim":
        parts = name.split(".")
        if _external(parts):
            return True
        obj = modules[base]
        for p in parts:
            if not hasattr(obj, p):
                break
            obj = getattr(obj, p)
        else:
            return True
        # a name of the module's package (``hooks.HOOKS`` from a sibling), or of a module
        # the name starts with (``registry.slots_for``)
        pkg = base.rsplit(".", 1)[0]
        for cand in (f"{pkg}.{name}", f"{base}.{name}"):
            if _resolve(cand, base, modules):
                return True
        return False
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        mod = ".".join(parts[:cut])
        if mod in modules:
            obj = modules[mod]
            for p in parts[cut:]:
                if not hasattr(obj, p):
                    return False
                obj = getattr(obj, p)
            return True
    return False


def _external(parts) -> bool:
    """A builtin (``ValueError``) or a name of another package (``threading.Event``,
    ``scipy.stats.binomtest``)."""
    import builtins

    if len(parts) == 1:
        return hasattr(builtins, parts[0])
    if parts[0] == "sim":
        return False
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for p in parts[cut:]:
            if not hasattr(obj, p):
                return False
            obj = getattr(obj, p)
        return True
    return False


def _docstrings(mod):
    src = Path(mod.__file__).read_text()
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                args = {a.arg for a in node.args.args + node.args.kwonlyargs} if hasattr(node, "args") else set()
                yield getattr(node, "name", "<module>"), doc, args
    for line in src.splitlines():  # ``#:`` attribute comments document too
        if line.lstrip().startswith("#:"):
            yield "#:", line, set()


def _path_ok(p: str) -> bool:
    p = p.rstrip(".")
    return (ROOT / p).exists()


def test_docstrings_resolve():
    modules = _modules()
    bad = []
    for name, mod in sorted(modules.items()):
        if not getattr(mod, "__file__", None) or not name.startswith(ENGINE):
            continue
        for where, doc, args in _docstrings(mod):
            for ref in ROLE.findall(doc):
                ref = ref.strip()
                if ref in args or ref.split(".")[0] in args:
                    continue  # a parameter of the documented function
                if not _resolve(ref, name, modules):
                    bad.append(f"{name} ({where}): {ref}")
            for p in PATH.findall(doc):
                if not _path_ok(p):
                    bad.append(f"{name} ({where}): {p}")
    assert bad == [], "stale names in docstrings:\n" + "\n".join(bad)


def _pages():
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    return [p for p in pages if p.name not in OTHER_PAGES]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_docs_pages_resolve(page):
    from sim import cli

    modules = _modules()
    short = {}
    for full in modules:
        short.setdefault(full.rsplit(".", 1)[-1], []).append(full)
    commands = set(re.findall(r'add_parser\(\s*"([a-z][\w-]*)"', Path(cli.__file__).read_text()))
    text = page.read_text()
    bad = []
    for p in PATH.findall(text):
        if not _path_ok(p):
            bad.append(p)
    for ref in DOTTED.findall(text):
        head, tail = ref.split(".", 1)[0], ref.rsplit(".", 1)[-1]
        if tail in ("csv", "png", "json", "yaml", "md", "html", "parquet", "npz"):
            continue  # a file name
        if tail == "py":
            if head not in short and not any((ROOT / d / ref).exists() for d in ("tests", "tools")):
                bad.append(ref)
            continue
        if ref.startswith("sim."):
            if ref.startswith(OTHERS):
                continue
            if not _resolve(ref, "sim", modules):
                bad.append(ref)
        elif head in CODE_HEADS:
            fulls = [f for f in short.get(head, []) if not f.startswith(OTHERS)]
            if not any(_resolve(f + ref[len(head):], "sim", modules) for f in fulls):
                bad.append(ref)
    for c in COMMAND.findall(text):
        if c not in commands:
            bad.append(f"sim {c}")
    assert bad == [], f"{page.name}: stale names: {bad}"
