"""Where numba keeps the package's compiled kernels: one cache per rule system.

numba's on-disk cache checks only the file that defines a kernel, not the
kernels it calls from other files, so a kernel could run old code after an
edit elsewhere. The package therefore keys its caches on source hashes, by
*group*: each rule system (``sim/systems/<name>/``; the draft shares 4.1's
engine) is a group keyed on its own files and on the shared kernel modules
directly under ``sim/`` (:data:`SHARED_KERNEL_MODULES`: dice, random streams,
procedures...), which every system calls. An edit to one system recompiles that system only; an edit to
a shared module recompiles everything, as it must.

The caches live under ``$NUMBA_CACHE_DIR`` (default
``~/.cache/mgsim/numba``), one directory per group and hash:
``<group>-<hash>/``. :func:`install` registers the locator with numba (done
by :mod:`sim._jit`).
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent
#: systems whose kernels call another system's (the draft plays on the 4.1 engine)
SHARES = {"mbdraft": "mb41"}


def default_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mgsim", "numba")


def group_of(path: str | os.PathLike) -> str | None:
    """The cache group of a source file of the package (``None`` outside it)."""
    try:
        rel = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = rel.parts
    if len(parts) >= 3 and parts[0] == "systems":
        return SHARES.get(parts[1], parts[1])
    return "shared"


#: the modules directly under ``sim/`` that kernels are built from: numba code
#: (``_jit``, ``rng``, ``dice``, ``procs``, ``curves``) and what fixes compile-time
#: constants (``layout`` offsets, ``ruleset`` rule tables, the version). Every other
#: module there (the CLI, runner, report, studies...) is plain Python, and editing it
#: recompiles nothing; ``tests/test_structure.py`` checks that every module with numba
#: code is listed here.
SHARED_KERNEL_MODULES = ("__init__.py", "_jit.py", "curves.py", "dice.py", "layout.py",
                         "procs.py", "rng.py", "ruleset.py")


def _files(group: str) -> list[Path]:
    shared = [ROOT / name for name in SHARED_KERNEL_MODULES]
    if group == "shared":
        return shared
    mine = []
    for name in sorted({group} | {k for k, v in SHARES.items() if v == group}):
        mine += sorted((ROOT / "systems" / name).rglob("*.py"))
    return shared + mine


@lru_cache(maxsize=None)
def group_hash(group: str) -> str:
    """Hash of the package version and the sources a group's kernels are built from."""
    from sim import __version__

    h = hashlib.sha256(__version__.encode())
    for p in _files(group):
        h.update(str(p.relative_to(ROOT)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def group_dir(group: str) -> str:
    from numba.core import config

    base = config.CACHE_DIR or default_dir()
    return os.path.join(base, f"{group}-{group_hash(group)}")


_installed = False


def install() -> None:
    """Put :class:`GroupCacheLocator` first among numba's cache locators."""
    global _installed
    if _installed:
        return
    from numba.core import caching

    class GroupCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """The package's kernels: ``<cache dir>/<group>-<hash>/<file's folder>``."""

        def __init__(self, py_func, py_file, group):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(group_dir(group), self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            group = group_of(py_file)
            if group is None:
                return None
            self = cls(py_func, py_file, group)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    impl._locator_classes.insert(0, GroupCacheLocator)
    _installed = True
