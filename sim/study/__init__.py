"""Studies: questions one scenario run does not answer (issue 21).

A scenario file with a ``study:`` block is run by ``sim study FILE``. Every
study builds *arms*, variants of the base scenario made with the same ``set:``
paths as ``variants:`` (:mod:`sim.scenario.variants`), plays trial ``i`` of each
arm on the same keyed streams (common random numbers) through
:func:`sim.trials.per_trial`, and compares the arms trial by trial.

Modules:

* :mod:`.registry`: ``kind -> module`` (one module per study kind);
* :mod:`.load`: the ``study:`` block read and validated, the base scenario;
* :mod:`.arms`: :class:`~.arms.StudyContext`, arms built and played, per-trial tables;
* :mod:`.paired`: paired statistics (rate and mean differences, variance reduction);
* :mod:`.tiers`: pairwise Holm tests and the tier algorithm;
* :mod:`.curve`: monotone win-rate curves and their inversion with bootstrap intervals;
* :mod:`.plan`: sample sizes for comparisons of two proportions;
* :mod:`.charts`, :mod:`.report`: PNG charts, CSV tables and ``report.html``;
* the kinds: :mod:`.compare`, :mod:`.talents`, :mod:`.exchange`, :mod:`.calibrate`.

Public entry point: :func:`run_study`.
"""
from __future__ import annotations

from .run import StudyResult, run_study

__all__ = ["StudyResult", "run_study"]
