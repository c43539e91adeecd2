"""Balance workbench for magical-girl tabletop games.

The public Python surface lives in :mod:`sim.api`; the ``sim`` command in
:mod:`sim.cli` is a thin wrapper around it.
"""
from __future__ import annotations

import os

__version__ = "0.1.0"


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mgsim", "numba")


# numba's cache: one directory per kernel module, keyed by what its kernels are built from (:mod:`sim.cache`)
if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _cache_dir()
