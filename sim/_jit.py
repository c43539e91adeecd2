"""The house numba decorator: every kernel compiles the same way.

``cache=True`` writes compiled machine code into ``NUMBA_CACHE_DIR``, one
directory per module, keyed by what its kernels are built from (:mod:`sim.cache`),
so the second run of the CLI starts warm and an edit recompiles only the modules
whose kernels it reaches; ``nogil``
lets joblib threads run kernels side by side; ``error_model='numpy'``
removes division-by-zero checks from hot loops (kernels never divide by a
value that can be zero; this is asserted in their tests).

House rules for hot code, measured on numba 0.68:

* no ``a and b`` / ``a or b`` in hot paths, not even in an ``if``: each
  short-circuit costs ~10 ns (array reference counts the optimiser can no
  longer prune); write nested ``if`` statements instead;
* no ``raise`` in functions called per die: an exception path makes every
  caller ~15x slower; report errors through flags (see ``sim.rng``);
* prange blocks allocate their state once and loop over trials;
* helpers that only index arrays (never allocate) use :func:`kernel`, which
  compiles without reference counting (``_nrt=False``): a row view inside a
  branch otherwise costs ~20 ns of atomic reference counting per call.
"""
from __future__ import annotations

import os

import numba
import numba.core.config

# numba reads NUMBA_CACHE_DIR when it is first imported; if something
# imported numba before ``sim`` set it (see sim/__init__.py), set it here.
if os.environ.get("NUMBA_CACHE_DIR") and numba.core.config.CACHE_DIR != os.environ["NUMBA_CACHE_DIR"]:
    numba.core.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

#: modules this one calls when it is imported, never from a kernel: left out of the
#: cache key of every kernel module (:func:`sim.cache.module_key`)
NOT_IN_KERNELS = ("sim.cache", "sim.notice")

# the package's caches: one per module and what its kernels are built from (sim/cache.py)
from sim.cache import install as _install_cache  # noqa: E402

_install_cache()

# say so on stderr when a compile takes a while (sim/notice.py)
from sim.notice import install as _install_notice  # noqa: E402

_install_notice()

# ``forceinline`` set (False) on every kernel: numba would otherwise pass a caller's
# ``forceinline=True`` on to the functions it calls (see :func:`part`)
_OPTIONS = dict(cache=True, nogil=True, error_model="numpy", forceinline=False)
if os.environ.get("MGSIM_LINEINFO"):
    # line tables in the object code, the optimisation unchanged (no bounds checks, no extended
    # lifetimes): for ``tools/kernel_instructions.py --lines`` only, in a numba cache of its own
    _OPTIONS.update(debug=True, boundscheck=False, _dbg_extend_lifetimes=False)


def jit(fn=None, **overrides):
    """``numba.njit`` with the house options; usable bare or with overrides."""
    opts = dict(_OPTIONS, **overrides)
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)


def kernel(fn=None, **overrides):
    """A hot-path helper: :func:`jit` without reference counting.

    Such a function must not allocate arrays (``np.empty`` and friends);
    numba refuses to compile it if it does. It may index and slice arrays it
    is given.
    """
    return jit(fn, _nrt=False, **overrides)


# The small helpers of the 4.1 engine that many procedures call (``state.is_standing``,
# ``slots.has_code`` ...) are ``kernel(forceinline=True)``: LLVM inlines them, as a part.
# numba's ``inline="always"`` is kept only where a helper returns an array view from a kernel
# without reference counting (``mb41/field.py``'s rows), which only IR inlining allows.
# Measured in docs/performance.md ("Inlining: LLVM's, not numba's").


def part(fn=None, **overrides):
    """A :func:`kernel` that is a part of its one caller, kept apart for length.

    Compiled once, on its own (numba types it once), and marked ``alwaysinline``
    for LLVM, which then inlines it into its caller: the speed of one function,
    without numba's IR-level ``inline="always"``, which types the body again at
    every call site and roughly doubles the caller's compile time.
    """
    return kernel(fn, forceinline=True, **overrides)


def pjit(fn=None, **overrides):
    """Like :func:`jit` but with ``parallel=True`` for kernels that use ``prange``."""
    return jit(fn, parallel=True, **overrides)
