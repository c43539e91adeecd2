"""Where numba keeps the package's compiled kernels, keyed by what each module's kernels are built from.

numba's on-disk cache checks only the file that defines a kernel (its source
hash), not the kernels it calls from other files nor the constants it reads
from them, so a kernel could run old code after an edit elsewhere. The package
therefore keys each module's cache on a hash of what its kernels are built
from (:func:`module_key`):

* the module's own source;
* for every constant it names (``D_RES``, ``K.E_VEIL``, ``MINOR_GATES``...), that
  constant's *value*, wherever it is defined: the generated layout offsets, the
  effect codes, the hook gates;
* for every function it names that is defined in another module of the package
  (a kernel it calls or inlines, a decorator, an overload), that module's key,
  recursively (a module's ``NOT_IN_KERNELS`` names those it only calls when it
  is imported: :mod:`sim._jit` installs this cache and :mod:`sim.notice`).

So an edit recompiles the module edited and the modules whose kernels call
into it, nothing else: an edit to one talent's module (whose hooks only the
procedure table reaches) recompiles that module's hooks; a new effect code
recompiles only the modules that name it. A cache entry's directory is
``<cache dir>/<module>-<key>/``; its path does not depend on where the
checkout lives, so worktrees with the same module share its kernels.

The caches live under ``$NUMBA_CACHE_DIR`` (default
``~/.cache/mgsim/numba``). :func:`install` registers the locator with numba
(done by :mod:`sim._jit`).
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import pickle
import sys
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent
#: systems whose kernels call another system's (the draft plays on the 4.1 engine)
SHARES = {"mbdraft": "mb41"}
#: the package's own modules start with this
PACKAGE = "sim"


def default_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mgsim", "numba")


def group_of(path: str | os.PathLike) -> str | None:
    """The family of a source file of the package (``None`` outside it): its rule
    system (``sim/systems/<name>/``, the draft's is 4.1's) or ``shared``."""
    try:
        rel = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = rel.parts
    if len(parts) >= 3 and parts[0] == "systems":
        return SHARES.get(parts[1], parts[1])
    return "shared"


def module_of(path: str | os.PathLike) -> str | None:
    """The dotted name of a source file of the package (``sim.systems.mb41.kernel``)."""
    try:
        rel = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE] + parts)


def _names(path: str, source: bytes) -> tuple[frozenset, frozenset]:
    """The bare names and the ``alias.attr`` pairs a module's source uses (kept on disk
    by the source's hash: parsing the largest modules takes a warm start a few tenths
    of a second)."""
    digest = hashlib.sha256(source).hexdigest()[:24]
    store = os.path.join(_base(), "names", f"{digest}.pickle")
    try:
        with open(store, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.PickleError, EOFError, ValueError):
        pass
    tree = ast.parse(source, filename=path)
    bare, dotted = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            bare.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            dotted.add((node.value.id, node.attr))
    out = (frozenset(bare), frozenset(dotted))
    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(store), exist_ok=True)
        tmp = f"{store}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            pickle.dump(out, f)
        os.replace(tmp, store)
    return out


def _base() -> str:
    from numba.core import config

    return config.CACHE_DIR or default_dir()


def _data(value) -> bytes | None:
    """A constant's value as bytes (what a kernel freezes into its code), or
    ``None`` for what is not data (functions, modules, classes...)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        return f"{type(value).__name__}:{value!r}".encode()
    if isinstance(value, np.ndarray):
        return f"ndarray:{value.dtype}:{value.shape}:".encode() + value.tobytes()
    if isinstance(value, tuple):
        parts = [_data(v) for v in value]
        if all(p is not None for p in parts):
            return b"(" + b",".join(parts) + b")"
    return None


def _home(value) -> str | None:
    """The package module a function, dispatcher or module is defined in (``None``
    outside the package or for data)."""
    if isinstance(value, types.ModuleType):
        name = value.__name__
    else:
        fn = getattr(value, "py_func", value)
        if not callable(fn):
            return None
        name = getattr(fn, "__module__", None)
    if not isinstance(name, str):
        return None
    if name == PACKAGE or name.startswith(PACKAGE + "."):
        return name
    return None


def _local(name: str) -> tuple[bytes, set[str]]:
    """One module's own part of a key: its source and the values of the constants it
    names from elsewhere; and the package modules whose functions it names."""
    mod = sys.modules[name]
    path = getattr(mod, "__file__", None)
    if not path:
        return b"", set()
    source = Path(path).read_bytes()
    h = hashlib.sha256(source)
    deps: set[str] = set()
    bare, dotted = _names(path, source)
    g = vars(mod)
    skip = set(g.get("NOT_IN_KERNELS", ())) | {name}
    for n in sorted(bare):
        if n not in g:
            continue  # a builtin, a local, or a later definition of this module (its source)
        v = g[n]
        d = _data(v)
        if d is not None:
            h.update(n.encode() + b"=" + d + b";")
            continue
        home = _home(v)
        if home is not None and home not in skip:
            deps.add(home)
    for alias, attr in sorted(dotted):
        base = g.get(alias)
        if not isinstance(base, types.ModuleType) or _home(base) is None:
            continue
        if not hasattr(base, attr):
            continue
        v = getattr(base, attr)
        d = _data(v)
        if d is not None:
            h.update(f"{alias}.{attr}=".encode() + d + b";")
            continue
        home = _home(v)
        if home is not None and home not in skip:
            deps.add(home)
    return h.digest(), deps


_KEYS: dict[str, str] = {}
#: ``{module: the package modules its key covers}`` (:func:`closure`)
_CLOSURES: dict[str, tuple[str, ...]] = {}
#: modules that were still being imported when a key that covers them was made (none
#: unless two kernel modules import each other; ``tests/test_structure.py`` checks it)
PARTIAL: set[str] = set()


def module_key(name: str) -> str:
    """The key of package module ``name``'s kernels (see the module doc): its own part
    and the parts of every package module whose functions it reaches, in name order.
    Computed once per process, when its first kernel is declared (its imports are done
    by then; a definition further down the module is in its source)."""
    key = _KEYS.get(name)
    if key is not None:
        return key
    from sim import __version__

    seen: dict[str, bytes] = {}
    todo = [name]
    while todo:
        m = todo.pop()
        if m in seen or m not in sys.modules:
            continue
        own, deps = _local(m)
        seen[m] = own
        spec = getattr(sys.modules[m], "__spec__", None)
        if m != name and getattr(spec, "_initializing", False):
            PARTIAL.add(m)
        todo.extend(sorted(deps))
    h = hashlib.sha256(__version__.encode())
    for m in sorted(seen):
        h.update(m.encode() + b":" + seen[m])
    key = h.hexdigest()[:16]
    _KEYS[name] = key
    _CLOSURES[name] = tuple(sorted(seen))
    return key


def closure(name: str) -> tuple[str, ...]:
    """The package modules :func:`module_key` of ``name`` covers (itself included)."""
    module_key(name)
    return _CLOSURES[name]


def module_dir(name: str) -> str:
    """The cache directory of package module ``name``'s kernels."""
    return os.path.join(_base(), f"{name}-{module_key(name)}")


_installed = False
_READY: set[str] = set()


def install() -> None:
    """Put ``ModuleCacheLocator`` first among numba's cache locators."""
    global _installed
    if _installed:
        return
    from numba.core import caching

    class ModuleCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """The package's kernels: ``<cache dir>/<module>-<key>/`` (:func:`module_key`)."""

        def __init__(self, py_func, py_file, name):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = module_dir(name)

        def get_cache_path(self):
            return self._cache_path

        def ensure_cache_path(self):
            if self._cache_path not in _READY:  # once per directory, not once per kernel
                super().ensure_cache_path()
                _READY.add(self._cache_path)

        @classmethod
        def from_function(cls, py_func, py_file):
            name = module_of(py_file)
            if name is None or name not in sys.modules:
                return None
            self = cls(py_func, py_file, name)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    impl._locator_classes.insert(0, ModuleCacheLocator)
    _installed = True
