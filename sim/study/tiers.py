"""Ranking with multiple comparisons: Holm-adjusted tests and statistical tiers.

Entries (candidate arms and the base) are compared pairwise on the same
trials. For a 0/1 metric the test of entries ``i`` and ``j`` is the exact
McNemar test (two-sided binomial test on the trials where exactly one of the
two won, :func:`scipy.stats.binomtest`); for a mean, the paired t test.
Paired tests are valid under common random numbers (and, trivially, on
independent streams).

All ``K(K-1)/2`` p-values are adjusted together with Holm's step-down
procedure (:func:`sim.stats.holm`), which controls the family-wise error rate
(the chance of declaring *any* false difference) at ``alpha`` under any
dependence between the tests.

Tier algorithm (:func:`tiers`): sort the entries by estimate, best first.
Tier 1 starts with the best entry (its *head*). Walking down the list, an
entry joins the current tier unless it is significantly worse than the
tier's head (Holm-adjusted p <= alpha); then it starts the next tier and
becomes its head. So every entry is indistinguishable from its tier's head,
and consecutive heads are separated by a significant test. When nothing
differs, every entry is in tier 1 with probability at least ``1 - alpha``.
"""
from __future__ import annotations

import itertools

import numpy as np
from scipy import stats as sps

from sim.stats import holm

from .paired import RATES


def pair_pvalue(metric: str, a, b) -> float:
    """Two-sided p-value of ``mean(a) == mean(b)`` for paired per-trial values."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if metric in RATES:
        only_a = int(((a == 1) & (b == 0)).sum())
        k = only_a + int(((b == 1) & (a == 0)).sum())
        return 1.0 if k == 0 else float(sps.binomtest(only_a, k, 0.5).pvalue)
    d = a - b
    if d.size < 2 or not d.std() > 0:
        return 1.0 if not d.size or d.mean() == 0 else 0.0
    return float(sps.ttest_1samp(d, 0.0).pvalue)


def pairwise(metric: str, values: dict[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """Holm-adjusted p-values of every pair of entries ``{(i, j): p}`` (both orders)."""
    names = list(values)
    pairs = list(itertools.combinations(names, 2))
    raw = [pair_pvalue(metric, values[i], values[j]) for i, j in pairs]
    adj = holm(raw) if raw else []
    out = {}
    for (i, j), p in zip(pairs, np.atleast_1d(adj)):
        out[(i, j)] = out[(j, i)] = float(p)
    return out


def tiers(order: list[str], adjusted: dict[tuple[str, str], float], alpha: float) -> dict[str, int]:
    """Tier (1 = best) of each entry of ``order`` (best first), by the algorithm above."""
    out: dict[str, int] = {}
    head, tier = None, 0
    for name in order:
        if head is None or adjusted[(head, name)] <= alpha:
            head, tier = name, tier + 1
        out[name] = tier
    return out
