"""The trials of a whole-file study kind (the lethality study), played like a study's arms.

A whole-file kind (:data:`sim.study.registry.FILE_KINDS`) builds its own scenarios
(one per rule system, each calibration step, each mapping of a sensitivity band)
and plays them on the keyed streams ``stream_key(seed, 0)``. :class:`FileStreams`
plays them for it:

* :meth:`FileStreams.rows`: a scenario's per-trial rows, a stream of a
  :class:`~sim.study.arms.StudyContext` (one per system, all in one
  :class:`~sim.study.group.ContextGroup`) named by the SHA-256 of the scenario's
  data, so the same scenario is the same stream (a calibration step and the fights
  of the value it chose share their first trials) and another is never confused
  with it. Played in chunks that follow the cost of a trial, kept, checkpointed
  with the group (:mod:`sim.study.checkpoint`), handed back on ``--resume``;
* :meth:`FileStreams.counters`: a scenario's summed counters (per round, per
  combatant), played in the same chunks by the runner (:func:`sim.runner._advance`):
  stopped like the rows, never kept (a resumed study plays them again).

Either stops within about a second on Ctrl-C or ``cancel`` (:mod:`sim.cancel`) with
a :class:`sim.runner.RunCancelled`, the rows saved first. Trial ``i`` of a stream is
always the same fight, so chunking, stops and resumes change no number.
"""
from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .group import ContextGroup


class FileStreams:
    """See the module doc. ``seed``: the study's master seed (the streams are
    ``stream_key(seed, 0)``, as :func:`sim.lethality.run`'s key)."""

    def __init__(self, seed: int, cancel=None, progress=None):
        self.seed = int(seed)
        self.group = ContextGroup(cancel=cancel, progress=progress)
        self._contexts: dict[str, object] = {}

    def _context(self, system: str):
        if system not in self._contexts:
            from sim.study.arms import StudyContext
            from sim.systems import get_system

            bare = SimpleNamespace(system=system, module=get_system(system), raw={}, base=SimpleNamespace(crn=True))
            ctx = StudyContext(bare, None, seed=self.seed, trials=1, max_trials=1)
            self._contexts[system] = self.group.add(system, ctx)
        return self._contexts[system]

    @staticmethod
    def name_of(data: dict) -> str:
        """The stream of a scenario: ``scenario <first 16 hex of the SHA-256 of its data>``."""
        text = json.dumps(data, sort_keys=True, default=str)
        return "scenario " + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def rows(self, system: str, data: dict, inputs, n: int) -> pd.DataFrame:
        """Trials ``0..n-1`` of the scenario ``data`` (compiled: ``inputs``), one row each
        (:func:`sim.trials.per_trial`'s frame)."""
        cols = self._context(system).rows_of("arm", self.name_of(data), inputs, 0, n)
        return pd.DataFrame({"trial": np.arange(n, dtype=np.int64), **cols})

    def counters(self, system: str, inputs, n: int) -> dict:
        """The counters of trials ``0..n-1`` (``simulate``'s), played in chunks."""
        from sim import rng, runner

        v = runner._Variant("counters", None, inputs, rng.stream_key(self.seed, 0))
        try:
            runner._advance(system, [v], [int(n)], 1, None, self.group.progress, cancel=self.group.cancel)
        except KeyboardInterrupt:  # a RunCancelled too: keep the rows played so far
            if self.group.saver is not None:
                self.group.saver(self.group, force=True)
            raise
        return v.counters

    def done(self) -> dict[str, int]:
        return self.group.done()
