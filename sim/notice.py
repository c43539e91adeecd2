"""Say so on stderr while numba compiles: a first run, or the first after an edit.

numba compiles a kernel the first time it is called with new argument types
and keeps the machine code in its cache (:mod:`sim.cache`); a cold first run
of a rule system can take a minute. :class:`CompileNotice` listens to numba's
``numba:compile`` event (fired on a cache miss only, for the kernel called and
for every kernel it calls): when the outermost compile has run for
:data:`DELAY` seconds it prints which family is compiling, and when it ends,
how long it took. Quick compiles print nothing. :func:`sim.procs.addresses`
announces a procedure table as one batch (:meth:`CompileNotice.batch`): a batch
that takes a while only because it loads kernels from the cache (a warm run)
says ``loading compiled kernels``, and ``compiling`` only once one of its
kernels compiles.
"""
from __future__ import annotations

import contextlib
import inspect
import sys
import threading
import time

from numba.core import event

from sim.cache import group_of

#: seconds a compile runs before it is announced
DELAY = 1.0

#: how a cache group is named on stderr
FAMILIES = {"mb41": "Magical Burst 4.1", "d10": "d10 add-on", "cards": "Mahou Shoujo cards",
            "shared": "shared"}


class CompileNotice(event.Listener):
    """Announces the outermost numba compile that runs longer than :data:`DELAY`."""

    def __init__(self, stream=None):
        self.stream = stream
        self.depth = 0
        self.quiet = 0
        self.timer = None
        self.label = ""
        self.t0 = 0.0
        self.said = False
        self.compiled = False
        self.said_compiling = False

    def _out(self):
        return self.stream or sys.stderr

    def _begin(self, label, compiled=True):
        self.label = label
        self.t0 = time.perf_counter()
        self.said = False
        self.compiled = compiled
        self.said_compiling = False
        self.timer = threading.Timer(DELAY, self._say)
        self.timer.daemon = True
        self.timer.start()

    def _finish(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
            if self.said:
                took = time.perf_counter() - self.t0
                if self.compiled:
                    print(f"compiled {self.label} in {took:.0f} s", file=self._out(), flush=True)
                else:
                    print(f"loaded compiled kernels: {self.label} in {took:.1f} s", file=self._out(), flush=True)

    def on_start(self, ev):
        if self.quiet and not self.compiled:  # a batch that was only loading compiles one now
            self.compiled = True
            if self.said and not self.said_compiling:
                self._say()
        if self.depth == 0 and not self.quiet:
            fn = ev.data["dispatcher"].py_func
            try:
                group = group_of(inspect.getsourcefile(fn) or "")
            except TypeError:
                group = None
            family = FAMILIES.get(group, group or "user")
            if fn.__module__.startswith("mgsim_t2_"):  # a tier-2 build (sim.systems.mb41.tier2)
                family = "tier 2 (the 4.1 engine generated for this structure)"
            self._begin(f"{family} kernels ({fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__})")
        self.depth += 1

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0 and not self.quiet:
            self._finish()

    @contextlib.contextmanager
    def batch(self, label: str, compiling: bool = False):
        """Announce the compiles inside the ``with`` block as one: ``label``. ``compiling``:
        the block is known to compile (else it says so once a compile starts in it)."""
        self.quiet += 1
        if self.quiet == 1:
            self._begin(label, compiled=compiling)
        try:
            yield self
        finally:
            if self.quiet == 1:
                self._finish()
            self.quiet -= 1

    def _say(self):
        self.said = True
        if self.compiled:
            self.said_compiling = True
            print(f"compiling {self.label}: first run only, cached after...", file=self._out(), flush=True)
        else:
            print(f"loading compiled kernels: {self.label}...", file=self._out(), flush=True)


NOTICE = CompileNotice()
_installed = False


def install() -> None:
    """Register :data:`NOTICE` with numba (once; done by :mod:`sim._jit`)."""
    global _installed
    if not _installed:
        event.register("numba:compile", NOTICE)
        _installed = True
