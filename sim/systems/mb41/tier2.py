"""Tier 2: the 4.1 engine generated per scenario *structure*, for long runs (issue 38).

The general engine (tier 1) calls the turn, the attack, the geometry's steps and
every talent hook through addresses in the rule table (:mod:`sim.procs`,
:mod:`.registry`), and a hook point loops over the hook bits of whoever acts
(:mod:`.points`). That keeps its compile small and shared by every scenario, and
costs an indirect call (a prologue, spills, nothing LLVM can see through) for each.

A scenario's *structure* decides every one of those calls before the first die:
which procedure fills each slot (its geometry, the hooks its talents need,
:func:`.registry.slots_for`) and which hooks each timing point can reach (the union
of the combatants' hook bits, :func:`.gates.hook_bits`). Tier 2 is the engine's own
source, generated again with those decisions written in:

* ``call(rules[PR_X], a, b, c, w)`` becomes a direct call of the procedure the
  structure puts in slot ``PR_X``, and the procedure a part of its callers
  (``kernel(forceinline=True)``: LLVM inlines it);
* ``first(T_X, a, b, c, w)`` (and ``every``, ``total``, ``chain``, ``chain_own``)
  becomes a call of a generated function of its own (``_t2points.py``) that tests
  the hook bits once and calls only the hooks the structure holds, in the order the
  loop would, each directly;
* ``rules[R_X]`` of a rule choice (:func:`_options`), the geometry tests (``gridless``,
  ``on_grid``, ``on_positions``), ``holds(T_X, ...)`` at a point without hooks, and the
  checks of a talent nobody holds (``has_code``, ``find_usable``, ``find_talent``,
  ``side_has_code``) become constants;
* everything else, to the letter, is the engine's source: the same dice drawn from
  the same streams in the same order, so tier 2's counters are tier 1's, bit for
  bit (``tests/test_mb41_tier2.py``; ``tools/same_counters.py --tier 2``).

Numbers (stats, talent parameters, thresholds, the rule table) stay run-time arrays,
so a sweep over them shares one build. The generated package is written under the
numba cache, in ``tier2/mgsim_t2_<key>/`` (``MGSIM_TIER2_DIR`` moves it); the key hashes
the structure and the source of every module of the package (``sim/**.py``), so an edit
gives a new key and a stale build is never loaded; numba caches the generated files'
kernels by their path.

The runner chooses the tier (:mod:`sim.tiers`): tier 2 for long runs only, compiled
in the background while the general engine plays the first chunks.
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from . import gates, hooks, layout, registry

#: the generator's version: part of every key (raise it when the generated code changes)
VERSION = 5
#: the engine's package and its files
PACKAGE = __package__
HOME = Path(__file__).resolve().parent
SIM = HOME.parents[1]
#: the hook-point loops of :mod:`.points` a call site may name
KINDS = ("first", "every", "total", "chain", "chain_own")
#: the generated hook points' module in a build
POINTS = "_t2points"
#: the modules whose block kernels the runner plays
ENTRIES = ("fight", "episode", "hex")
#: modules of the engine's package a build does not copy (Python-side only, or this one)
SKIP = ("tier2.py",)
#: the engine's hottest kernels that stay calls in tier 1 (``tools/kernel_instructions.py``
#: on the bench's party fights), made parts of their callers in a build as the procedures are:
#: 7.9% fewer instructions a gridless party fight (docs/performance.md "Tier 2")
HOT = frozenset(f"{PACKAGE}.{name}" for name in (
    "targets:target_of", "turn:major_hooks", "turn:minor_hooks", "talents.heal:heal_target",
    "ailments:removal_roll", "overcharge:support_roll", "damage:_damage", "slots:pay_slot",
    "fight:roll_initiative", "talents.defence:give_reflector", "state:attack_call", "hex:pick_w",
    "hex:goal_of", "hex_moves:best_step"))


def _slot_name(fn) -> tuple[str, str]:
    """``(module, function)`` of a procedure (a dispatcher or, uncompiled, a function)."""
    py = getattr(fn, "py_func", fn)
    return py.__module__, py.__name__


def _timings() -> dict[str, int]:
    """``{T_NAME: index}``: the timing points (:mod:`.gates`)."""
    return {f"T_{t}": getattr(gates, f"T_{t}") for t in hooks.TIMINGS}


def structure(comb: np.ndarray, rule_table: np.ndarray) -> dict:
    """What tier 2 writes into its source for this scenario (JSON-able, sorted).

    ``slots``: ``{PR_NAME: "module:function"}``, the procedure in each named slot;
    ``hooks``: ``{T_NAME: [[k, "module:function", armed], ...]}``, the hooks of each timing
    point some combatant's bits may open (k ascending), with the procedure in each one's slot
    and its armed state (:func:`.gates.armed_code`; 0: none to test);
    ``rules``: the rule choices (:func:`_options`); ``geometry``; ``absent`` / ``absent_side``:
    the effect codes nobody holds (:func:`_absent`).
    """
    chosen = registry.slots_for(comb, rule_table)
    slots = {}
    for name in dir(layout):
        if not name.startswith("PR_") or name == "PR_HOOKS":
            continue
        slot = getattr(layout, name)
        if isinstance(slot, int) and slot in chosen:
            slots[name] = ":".join(_slot_name(chosen[slot]))
    out_hooks = {}
    for tname, t in _timings().items():
        bits = 0
        for col in (layout.C_HOOKS + t, layout.C_HOOKS_B + t):
            for v in comb[:, col]:
                bits |= int(v)
        ks = [k for k in range(layout.HOOK_ROOM) if (bits >> k) & 1]
        base = layout.PR_HOOKS + layout.HOOK_ROOM * t
        armed = gates.armed_table()
        out_hooks[tname] = [[k, ":".join(_slot_name(chosen[base + k])), int(armed[layout.HOOK_ROOM * t + k])]
                            for k in ks]
    return {"slots": dict(sorted(slots.items())), "hooks": out_hooks, "rules": _options(rule_table),
            "geometry": registry.geometry(rule_table), **_absent(comb)}


#: the geometry tests a build writes as constants: ``{function: the geometry it asks about}``
GEOMETRY_TESTS = {"gridless": "none", "on_positions": "positions", "on_grid": "hex"}


#: the talent checks a build folds when nobody holds the code: ``{function: value}``
ABSENT_VALUES = {"has_code": False, "find_usable": -1, "find_talent": -1}
#: the same for a side's talents (``C_SIDEMASK``)
ABSENT_SIDE_VALUES = {"side_has_code": False}


def _options(rule_table: np.ndarray) -> dict[str, int]:
    """``{R_NAME: value}``: the scenario's choices and switches (rule options of kind
    ``choice`` or ``bool``), which the build writes in as constants. Numbers (caps,
    thresholds, bonuses) stay in the rule table, read at run time."""
    from .rules import RULES

    out = {}
    for o in RULES.options:
        if o.kind in ("choice", "bool") and o.width() == 1:
            name = "R_" + o.name.upper()
            out[name] = int(rule_table[getattr(layout, name)])
    return dict(sorted(out.items()))


def _absent(comb: np.ndarray) -> dict[str, list[str]]:
    """The effect codes (``E_*`` names) no combatant holds (``absent``) and no side holds
    (``absent_side``), read as :func:`.slots.has_code` and :func:`.slots.side_has_code` read
    them; the build writes each check of such a code as its answer (none, no slot)."""
    from . import codes

    def held(lo, hi, code):
        if code < codes.E_MORE:
            return bool(((comb[:, lo].astype(np.int64) >> code) & 1).any())
        return bool(((comb[:, hi].astype(np.int64) >> (code - 64)) & 1).any())

    names = sorted(n for n in dir(codes) if n.startswith("E_") and n != "E_MORE"
                   and isinstance(getattr(codes, n), int) and 0 <= getattr(codes, n) < 128)
    return {
        "absent": [n for n in names if not held(layout.C_TMASK, layout.C_TMASK2, getattr(codes, n))],
        "absent_side": [n for n in names if not held(layout.C_SIDEMASK, layout.C_SIDEMASK2, getattr(codes, n))],
    }


def _sources_digest() -> str:
    """A hash of every Python source of the package (``sim/**.py``: the engine, the modules its
    kernels reach, this generator) with numba's and Python's versions: the same in every
    process, whatever it imported or patched first."""
    import numba

    from sim import __version__

    h = hashlib.sha256(f"{__version__}:{numba.__version__}:{sys.version_info[:2]}".encode())
    for p in sorted(SIM.rglob("*.py")):
        h.update(str(p.relative_to(SIM)).encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


_DIGEST: list = []


def _digest() -> str:
    """:func:`_sources_digest`, computed once a process."""
    if not _DIGEST:
        _DIGEST.append(_sources_digest())
    return _DIGEST[0]


def key(struct: dict) -> str:
    """The build's key: the structure, this generator's version, the package's sources."""
    h = hashlib.sha256(json.dumps({"v": VERSION, "s": struct}, sort_keys=True).encode())
    h.update(_digest().encode())
    return h.hexdigest()[:20]


#: where builds live, when set (default ``<numba cache>/tier2``)
DIR_ENV = "MGSIM_TIER2_DIR"


def root() -> Path:
    """Where builds live: ``$MGSIM_TIER2_DIR``, else ``<numba cache>/tier2``."""
    from numba.core import config

    from sim.cache import default_dir

    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    return Path(config.CACHE_DIR or default_dir()) / "tier2"


def package_name(k: str) -> str:
    return f"mgsim_t2_{k}"


def _alias(module: str) -> str:
    """The name a generated file binds engine module ``module`` to."""
    rel = module[len(PACKAGE) + 1:] if module.startswith(PACKAGE + ".") else module
    return "_t2m_" + rel.replace(".", "_")


def _clone_module(module: str, pkg: str) -> str:
    """``module`` of the engine's package, as the build ``pkg`` names it."""
    if module == PACKAGE:
        return pkg
    if module.startswith(PACKAGE + "."):
        return pkg + module[len(PACKAGE):]
    raise ValueError(f"tier 2: procedure from outside the engine: {module}")


class _Rewrite(ast.NodeTransformer):
    """One module's source with the structure's calls written in (see the module doc)."""

    def __init__(self, struct: dict, pkg: str):
        self.slots = struct["slots"]
        self.timings = _timings()
        self.pkg = pkg
        self.imports: set[str] = set()  # engine modules the rewritten calls name
        self.points: set[tuple[str, str]] = set()  # (kind, T_NAME) the module calls
        self.calls = 0  # procedure calls written in
        self.options = struct["rules"]
        self.absent = set(struct["absent"])
        self.absent_side = set(struct["absent_side"])
        self.folded = 0  # rule options and talent checks written as constants
        self.geometry = struct["geometry"]
        self.hookless = {t for t, hks in struct["hooks"].items() if not hks}
        self.inline = ({t for t in struct["slots"].values()} | {h[1] for hks in struct["hooks"].values() for h in hks}
                       | HOT)
        self.module = ""  # the engine module being rewritten (set by :func:`generate`)
        self.inlined = 0  # procedures made parts of their callers

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        if f"{self.module}:{node.name}" in self.inline:
            for k, d in enumerate(node.decorator_list):
                if isinstance(d, ast.Name) and d.id == "kernel":  # a procedure: a part of its callers here
                    node.decorator_list[k] = ast.copy_location(ast.Call(
                        func=ast.Name(id="kernel", ctx=ast.Load()), args=[],
                        keywords=[ast.keyword(arg="forceinline", value=ast.Constant(True))]), d)
                    self.inlined += 1
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id == "rules":
            if isinstance(node.slice, ast.Name) and node.slice.id in self.options:
                self.folded += 1
                return ast.copy_location(ast.Constant(self.options[node.slice.id]), node)
        return node

    def visit_ImportFrom(self, node):
        if node.level == 0 and node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
            node.module = _clone_module(node.module, self.pkg)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        args = node.args
        if fname == "call" and args and isinstance(args[0], ast.Subscript):
            sub = args[0]
            if isinstance(sub.value, ast.Name) and sub.value.id == "rules" and isinstance(sub.slice, ast.Name):
                target = self.slots.get(sub.slice.id)
                if target is None:
                    raise KeyError(f"tier 2: call(rules[{sub.slice.id}]) names no slot of the structure")
                mod, fn = target.split(":")
                self.imports.add(mod)
                self.calls += 1
                return ast.copy_location(
                    ast.Call(func=ast.Attribute(value=ast.Name(id=_alias(mod), ctx=ast.Load()), attr=fn,
                                                ctx=ast.Load()),
                             args=args[1:], keywords=node.keywords), node)
        if fname in GEOMETRY_TESTS and isinstance(f, ast.Name) and len(args) == 1:
            self.folded += 1
            return ast.copy_location(ast.Constant(GEOMETRY_TESTS[fname] == self.geometry), node)
        if fname == "holds" and args and isinstance(args[0], ast.Name) and args[0].id in self.hookless:
            self.folded += 1
            return ast.copy_location(ast.Constant(False), node)
        if len(args) >= 2 and isinstance(args[1], ast.Name):
            for table, absent in ((ABSENT_VALUES, self.absent), (ABSENT_SIDE_VALUES, self.absent_side)):
                if fname in table and args[1].id in absent:
                    self.folded += 1
                    return ast.copy_location(ast.Constant(table[fname]), node)
        if fname in KINDS and args and isinstance(args[0], ast.Name) and args[0].id in self.timings:
            self.points.add((fname, args[0].id))
            return ast.copy_location(
                ast.Call(func=ast.Attribute(value=ast.Name(id="_t2p", ctx=ast.Load()),
                                            attr=f"{fname}__{args[0].id}", ctx=ast.Load()),
                         args=args[1:], keywords=node.keywords), node)
        return node


def _relative(module: str) -> str:
    """An engine module's name inside its package (``talents.team``)."""
    return module[len(PACKAGE) + 1:]


def _points_source(struct: dict, used: set[tuple[str, str]]) -> tuple[str, dict]:
    """``_t2points.py``: one function per hook point a module calls, its hooks unrolled;
    and the engine modules its calls name (``{alias: module}``)."""
    timings = _timings()
    mods = sorted({h[1].split(":")[0] for t in struct["hooks"].values() for h in t})
    out = [
        '"""Generated by sim/systems/mb41/tier2.py: each hook point of the structure, its hooks unrolled',
        '(the loops of points.py with the hooks the structure holds, in order, called directly)."""',
        "from __future__ import annotations",
        "",
        "from sim._jit import part",
        "",
        "from .layout import C_HOOKS",
        "from .points import armed, bits_of",
        "from .world import unpack",
    ]
    for kind, tname in sorted(used):
        t = timings[tname]
        hks = struct["hooks"][tname]
        carried = kind in ("chain", "chain_own")
        out += ["", "", "@part", f"def {kind}__{tname}(a, b, c, w):"]
        if not hks:
            out += ["    return c" if carried else "    return 0"]
            continue
        out += ["    comb, rules, dyn, streams, bf = unpack(w)"]
        if kind == "chain_own":
            out += [f"    bits = comb[a, C_HOOKS + {t}]"]
        else:
            out += [f"    bits = bits_of({t}, a, b, comb)"]
        out += ["    if bits == 0:", "        return c" if carried else "        return 0"]
        if kind == "total":
            out += ["    out = 0"]
        second = "a" if kind == "chain_own" else "b"
        for k, target, code in hks:
            mod, fn = target.split(":")
            callee = f"{_alias(mod)}.{fn}(a, b, c, w)"
            out += [f"    if bits & {1 << k} != 0:"]
            pad = "        "
            if code != 0:  # the slot's armed state, as rules[ARM_HOOKS + ...] holds it
                out += [f"        if armed({code}, a, {second}, dyn):"]
                pad = "            "
            if kind == "first":
                out += [f"{pad}r = {callee}", f"{pad}if r != 0:", f"{pad}    return r"]
            elif kind == "every":
                out += [f"{pad}{callee}"]
            elif kind == "total":
                out += [f"{pad}out += {callee}"]
            else:
                out += [f"{pad}c = {callee}"]
        out += ["    return c" if carried else ("    return out" if kind == "total" else "    return 0")]
    return "\n".join(out) + "\n", {_alias(m): _relative(m) for m in mods}


def generate(struct: dict, dest: Path, pkg: str) -> dict:
    """Write the build ``pkg`` for ``struct`` into folder ``dest``; what it wrote, counted."""
    used: set[tuple[str, str]] = set()
    links: dict[str, dict[str, str]] = {}
    written = {"modules": 0, "calls": 0, "points": 0, "folded": 0, "inlined": 0}
    for src in sorted(HOME.rglob("*.py")):
        rel = src.relative_to(HOME)
        if rel.as_posix() in SKIP:
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.as_posix() == "__init__.py":  # written last (below)
            continue
        tree = ast.parse(src.read_text(), filename=str(src))
        rw = _Rewrite(struct, pkg)
        rw.module = ".".join((PACKAGE,) + rel.with_suffix("").parts)
        tree = rw.visit(tree)
        name = ".".join(rel.with_suffix("").parts)
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        mine = {_alias(m): _relative(m) for m in sorted(rw.imports)}
        if rw.points:
            mine["_t2p"] = POINTS
        if mine:
            links[name] = mine
        ast.fix_missing_locations(tree)
        target.write_text(f"# Generated by sim/systems/mb41/tier2.py from {rel.as_posix()}: do not edit.\n"
                          + ast.unparse(tree) + "\n")
        used |= rw.points
        written["modules"] += 1
        written["calls"] += rw.calls
        written["folded"] += rw.folded
        written["inlined"] += rw.inlined
    source, mine = _points_source(struct, used)
    (dest / f"{POINTS}.py").write_text(source)
    links[POINTS] = mine
    written["points"] = len(used)
    (dest / "__init__.py").write_text(_init_source(links))
    return written


def _init_source(links: dict[str, dict[str, str]]) -> str:
    """The build's ``__init__.py``: it imports the entry modules and every module a rewritten
    call names, then binds each module's aliases to those modules. The engine's modules import
    each other (tier 1 reaches the turn, the attack and the hooks through the table, so their
    imports have no cycle); a rewritten call's module is bound once every module is loaded,
    and numba reads a global when it compiles."""
    needed = set(ENTRIES) | set(links) | {t for m in links.values() for t in m.values()}
    return "\n".join([
        '"""Tier 2 of the 4.1 engine, generated by sim/systems/mb41/tier2.py: do not edit."""',
        "import importlib as _importlib",
        "import sys as _sys",
        "",
        f"_LINKS = {json.dumps(links, indent=1, sort_keys=True)}",
        f"for _m in {sorted(needed)!r}:",
        "    _importlib.import_module(__name__ + '.' + _m)",
        "for _m, _names in _LINKS.items():",
        "    _mod = _sys.modules[__name__ + '.' + _m]",
        "    for _alias, _target in _names.items():",
        "        setattr(_mod, _alias, _sys.modules[__name__ + '.' + _target])",
        "",
    ])


def build(struct: dict) -> tuple[str, Path]:
    """The build of ``struct`` on disk (generated now if missing): its package name and folder.
    Safe when several processes build at once (each writes a folder of its own and renames it)."""
    k = key(struct)
    pkg = package_name(k)
    base = root()
    dest = base / pkg
    if not (dest / "READY").exists():
        base.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{pkg}.", dir=base))
        try:
            written = generate(struct, tmp, pkg)
            (tmp / "STRUCTURE.json").write_text(json.dumps({"key": k, "written": written, "structure": struct,
                                                            "sources": _digest(), "version": VERSION},
                                                           indent=1, sort_keys=True))
            (tmp / "READY").write_text("")
            try:
                os.rename(tmp, dest)
            except OSError:  # another process finished first, or a partial folder is in the way
                if not (dest / "READY").exists():
                    shutil.rmtree(dest, ignore_errors=True)
                    os.rename(tmp, dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        with contextlib.suppress(OSError):
            prune()
    return pkg, dest


#: a build unused for this long (seconds) may be removed by :func:`prune`
IDLE = 24 * 3600
#: builds of this package's sources kept at most (:func:`prune` removes the least recently used)
KEEP = 48


def _last_use(folder: Path) -> float:
    """When a run last built, compiled or loaded the build in ``folder`` (its markers' times)."""
    times = [p.stat().st_mtime for p in folder.iterdir()
             if p.name in ("READY", "USED") or p.name.startswith("COMPILED-")]
    return max(times, default=folder.stat().st_mtime)


def _current(folder: Path) -> bool:
    """The build in ``folder`` was generated from this package's sources by this generator."""
    try:
        meta = json.loads((folder / "STRUCTURE.json").read_text())
    except (OSError, ValueError):
        return False
    return meta.get("sources") == _digest() and meta.get("version") == VERSION


def prune(now: float | None = None) -> list[str]:
    """Remove the builds no run will load again, with their kernels in numba's cache
    (``<cache>/<package>_*``, about 25 MB a build): a build of other sources (an earlier
    version of the package: its key can never come back) and, beyond :data:`KEEP` builds of
    these sources, the least recently used. Only builds idle for :data:`IDLE` seconds go, so
    a run still playing one keeps it. Called when a new build is written; returns the
    packages removed."""
    import time

    from numba.core import config

    from sim.cache import default_dir

    now = time.time() if now is None else now
    base = root()
    if not base.is_dir():
        return []
    builds = [(_last_use(f), _current(f), f) for f in base.iterdir()
              if f.is_dir() and f.name.startswith("mgsim_t2_")]
    mine = sorted(((t, f) for t, cur, f in builds if cur), key=lambda tf: -tf[0])
    gone = [f for t, cur, f in builds if not cur and now - t > IDLE]
    gone += [f for t, f in mine[KEEP:] if now - t > IDLE]
    cache = Path(config.CACHE_DIR or default_dir())
    for f in gone:
        shutil.rmtree(f, ignore_errors=True)
        if cache.is_dir():
            for c in cache.glob(f"{f.name}_*"):
                shutil.rmtree(c, ignore_errors=True)
    return sorted(f.name for f in gone)


def _marker(struct: dict, entry: str) -> Path:
    return root() / package_name(key(struct)) / f"COMPILED-{entry}"


def compiled(struct: dict, entry: str) -> bool:
    """Whether the build's ``entry`` block kernel (``fight``, ``episode``, ``hex``) was compiled
    into numba's cache by an earlier run (:func:`mark_compiled`)."""
    return _marker(struct, entry).exists()


def mark_compiled(struct: dict, entry: str) -> None:
    """Record that the build's ``entry`` block kernel is in numba's cache."""
    with contextlib.suppress(OSError):
        _marker(struct, entry).write_text("")


def load(struct: dict):
    """The build's engine package, imported (generated first if missing)."""
    pkg, dest = build(struct)
    if pkg in sys.modules:
        return sys.modules[pkg]
    with contextlib.suppress(OSError):
        (dest / "USED").write_text("")  # its last use (:func:`prune`)
    base = str(dest.parent)
    if base not in sys.path:
        sys.path.insert(0, base)
    importlib.invalidate_caches()
    return importlib.import_module(pkg)
