"""Paired statistics: arm A against arm B, trial ``i`` against trial ``i``.

Rates (``win``): the difference ``p_A - p_B`` with Newcombe's (1998) paired
hybrid score interval (:func:`sim.stats.paired_difference_trials`), and the
exact McNemar test (a two-sided binomial test on the discordant pairs,
:func:`scipy.stats.binomtest`) for its p-value. A Wald interval would do
badly near 0 and 1; Newcombe's keeps its coverage there.

Means (``rounds``, ``girls_out``, ``girls_dead``): the paired t interval on
the per-trial differences ``d_i = a_i - b_i`` (:func:`scipy.stats.ttest_1samp`);
with thousands of trials the t and normal quantiles agree, and the interval
is the textbook one for a mean of i.i.d. differences.

Variance reduction of common random numbers: ``Var(a_i - b'_i) / Var(a_i - b_i)``
where ``b'`` is arm B replayed on independent streams: how many times more
trials independent streams would need for the same interval width.
"""
from __future__ import annotations

import numpy as np
from scipy import stats as sps

from sim.stats import paired_difference_trials

#: metrics compared as rates (0/1 per trial); the others as means
RATES = ("win",)


def rate_difference(a, b, alpha: float = 0.05) -> dict:
    """``{diff, lo, hi, p, discordant}`` for 0/1 outcomes ``a``, ``b`` (same length).

    ``diff = mean(a) - mean(b)``; ``(lo, hi)`` the Newcombe paired interval at
    level ``1 - alpha``; ``p`` the exact two-sided McNemar p-value;
    ``discordant`` the share of pairs whose outcomes differ (what ``sim plan
    --paired`` needs)."""
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    z = float(sps.norm.ppf(1 - alpha / 2))
    diff, lo, hi = paired_difference_trials(a, b, z=z)
    only_a = int((a & ~b).sum())
    only_b = int((b & ~a).sum())
    k = only_a + only_b
    p = 1.0 if k == 0 else float(sps.binomtest(only_a, k, 0.5).pvalue)
    return {"diff": float(diff), "lo": float(lo), "hi": float(hi), "p": p,
            "discordant": k / max(a.size, 1)}


def mean_difference(a, b, alpha: float = 0.05) -> dict:
    """``{diff, lo, hi, p}``: the paired t interval of ``mean(a - b)`` at level ``1 - alpha``.

    Identical pairs (every ``d_i`` equal) give a zero-width interval and
    ``p = 1`` when the difference is 0, ``p = 0`` otherwise."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = d.size
    mean = float(d.mean()) if n else float("nan")
    sd = float(d.std(ddof=1)) if n > 1 else float("nan")
    if n < 2 or not sd > 0:
        p = 1.0 if mean == 0 else 0.0
        return {"diff": mean, "lo": mean, "hi": mean, "p": p}
    se = sd / np.sqrt(n)
    q = float(sps.t.ppf(1 - alpha / 2, n - 1))
    p = float(sps.ttest_1samp(d, 0.0).pvalue)
    return {"diff": mean, "lo": mean - q * se, "hi": mean + q * se, "p": p}


def difference(metric: str, a, b, alpha: float = 0.05) -> dict:
    """:func:`rate_difference` for rates, :func:`mean_difference` for means."""
    return rate_difference(a, b, alpha) if metric in RATES else mean_difference(a, b, alpha)


def variance_ratio(a, b, b_independent) -> float:
    """``Var(a - b_independent) / Var(a - b)``, per trial (inf if the paired variance is 0)."""
    a = np.asarray(a, dtype=float)
    v_pair = float(np.var(a - np.asarray(b, dtype=float), ddof=1))
    v_ind = float(np.var(a - np.asarray(b_independent, dtype=float), ddof=1))
    if v_pair <= 0:
        return float("inf") if v_ind > 0 else float("nan")
    return v_ind / v_pair
