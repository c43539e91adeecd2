"""Balance workbench for magical-girl tabletop games.

The public Python surface lives in :mod:`sim.api`; the ``sim`` command in
:mod:`sim.cli` is a thin wrapper around it.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def _source_hash() -> str:
    """Hash of every .py file of the package.

    numba's on-disk cache only notices edits to the file that defines a
    kernel, not to the kernels it calls in other files, so a stale cache
    could run old dice code. Keying the cache directory on all sources makes
    any change start from a clean cache.
    """
    h = hashlib.sha256(__version__.encode())
    root = Path(__file__).parent
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mgsim", "numba-" + _source_hash())


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _cache_dir()
