"""The 4.1 engine as plain Python, for ``sim play``'s log (:mod:`.fight_log`).

Every function of the engine's modules (each numba dispatcher's ``py_func``, and
the plain functions beside them) is copied with its globals set to a private copy
of its module's namespace; in every copy, a name that held an engine function
holds its Python copy and a name that held an engine module (``from . import grid
as G``) holds a view of that module's copy. So the calls between the engine's
functions stay in Python, whichever module they cross to, and go through
``wrap(name, fn)`` when a wrapper is given (the log's observers, which return what
the wrapped function returns and draw nothing). Three things differ from the
compiled run, none in what is played:

* :func:`.world.pack` / :func:`.world.unpack` keep the world's arrays in a dict
  (the compiled ones store array descriptors at a buffer's address);
* the procedure table (``rules[PR_*]``, :mod:`.registry`) holds indices into the
  Python copies of the scenario's procedures, not machine addresses, and
  :func:`sim.procs.call` looks them up (every hook dispatch of :mod:`.points` and
  every geometry call goes through it), so nothing is compiled for a replay;
* :mod:`sim.rng`'s stream functions stay compiled (the same uint64 arithmetic);
  :mod:`sim.dice` is copied like the engine, so each die drawn passes through
  ``randbelow`` / ``randbelow_inline`` (wrappable).

The entry kernels (:func:`.fight.simulate_blocks`, :func:`.episode.simulate_episode_blocks`,
:func:`.hex.simulate_episode_blocks_grid`) played on one block of one trial give the
arrays the compiled kernel gives for that trial (``tests/test_mb41_play.py``).
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import types

import numpy as np

import sim.dice

from . import layout as L
from . import registry
from .gates import armed_table

#: the engine's package (its modules are this file's siblings)
PACKAGE = __package__
#: modules never copied: the package's own plumbing (no kernel of the fight)
SKIP = {"sim.systems.mb41.__init__", "sim.systems.mb41.replay", "sim.systems.mb41.fight_log",
        "sim.systems.mb41.fight_log_hooks", "sim.systems.mb41.registry", "sim.systems.mb41.compile",
        "sim.systems.mb41.schema", "sim.systems.mb41.summarize", "sim.systems.mb41.charts",
        "sim.systems.mb41.benchmark", "sim.systems.mb41.exact_duel", "sim.systems.mb41.policies",
        "sim.systems.mb41.rules", "sim.systems.mb41.talent_edits", "sim.systems.mb41.deploy"}


def engine_modules() -> list[types.ModuleType]:
    """The modules whose functions the replay copies: every module of the 4.1 engine
    (``sim/systems/mb41/*.py`` and ``talents/*.py`` that define kernels) and :mod:`sim.dice`."""
    out = [sim.dice]
    for info in pkgutil.walk_packages([os.path.dirname(__file__)], PACKAGE + "."):
        if info.name in SKIP or info.name.startswith(PACKAGE + ".catalog"):
            continue
        mod = importlib.import_module(info.name)
        if any(hasattr(v, "py_func") and getattr(v.py_func, "__module__", None) == mod.__name__
               for v in vars(mod).values()):
            out.append(mod)
    return out


class Engine:
    """The engine's functions in Python: ``fn(name)`` / ``module(name)``; built for one
    scenario's procedure table (:meth:`rules`)."""

    def __init__(self, wrap=None):
        self.wrap = wrap
        mods = engine_modules()
        self.ns: dict[str, dict] = {m.__name__: dict(vars(m)) for m in mods}
        self.views = {m.__name__: types.SimpleNamespace() for m in mods}
        self.copies: dict[int, object] = {}  # id(original) -> the Python copy (wrapped)
        self.worlds: dict[int, tuple] = {}
        self._procs: list = []
        for m in mods:
            ns = self.ns[m.__name__]
            for name, obj in vars(m).items():
                py = getattr(obj, "py_func", obj)
                if isinstance(py, types.FunctionType) and py.__module__ == m.__name__:
                    fn = types.FunctionType(py.__code__, ns, py.__name__, py.__defaults__, py.__closure__)
                    fn.__kwdefaults__ = py.__kwdefaults__
                    if wrap is not None:
                        fn = wrap(name, fn)
                    self.copies[id(obj)] = fn
        for m in mods:  # every name that held an engine function or module now holds its copy
            ns = self.ns[m.__name__]
            for name, obj in list(ns.items()):
                if id(obj) in self.copies:
                    ns[name] = self.copies[id(obj)]
                elif isinstance(obj, types.ModuleType) and obj.__name__ in self.views:
                    ns[name] = self.views[obj.__name__]
            ns["pack"], ns["unpack"], ns["call"] = self._pack, self._unpack, self._call
            self.views[m.__name__].__dict__.update(ns)

    # ------------------------------------------------------------ the three stand-ins
    def _pack(self, comb, rules, dyn, streams, bf, buf):
        """:func:`.world.pack`: a new world id (never reused in a replay)."""
        w = len(self.worlds) + 1
        self.worlds[w] = (comb, rules, dyn, streams, bf)
        return w

    def _unpack(self, w):
        return self.worlds[int(w)]

    def _call(self, addr, *args):
        """:func:`sim.procs.call`: the procedure at index ``addr`` of :meth:`rules`'s table."""
        return self._procs[int(addr)](*args)

    # ------------------------------------------------------------ access
    def fn(self, module: str, name: str):
        """The copy of ``sim.systems.mb41.<module>.<name>``."""
        return self.ns[f"{PACKAGE}.{module}"][name]

    def rules(self, comb: np.ndarray, rule_table: np.ndarray) -> np.ndarray:
        """``rules`` as :func:`.registry.live_rules` builds them, the procedure table holding
        indices of the copies of the scenario's procedures (:func:`.registry.slots_for`)."""
        chosen = registry.slots_for(comb, rule_table)
        table = np.zeros(L.NPR, dtype=np.int64)
        index: dict[int, int] = {}
        for slot in range(L.R_SIZE, L.R_SIZE + L.NPR):
            disp = chosen[slot]
            if id(disp) not in index:
                index[id(disp)] = len(self._procs)
                self._procs.append(self.copies[id(disp)])
            table[slot - L.R_SIZE] = index[id(disp)]
        return np.concatenate([np.asarray(rule_table, dtype=np.int64), table, armed_table()])
