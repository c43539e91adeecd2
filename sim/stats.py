"""Interval estimates and multiple-comparison adjustments for simulated rates.

Conventions (see ``ARCHITECTURE.md``, "Statistics conventions"):

* every rate is reported with a 95% Wilson score interval, never the Wald
  interval ``p ± z·sqrt(p(1-p)/n)`` (which collapses to zero width at 0 and 1
  and undercovers for small or extreme rates);
* draws are a third outcome, reported separately, never folded into wins;
* differences between two independent rates use Newcombe's hybrid score
  interval; paired rates (variants on common random numbers) use Newcombe's
  paired method 10 (:func:`paired_difference`); rankings of many comparisons
  use Holm-adjusted p-values.

Everything here is plain numpy (no scipy at run time) and vectorized: the
functions accept Python scalars or numpy arrays (broadcast together) and
return Python floats for scalar input, arrays otherwise.
"""
from __future__ import annotations

import numpy as np

#: two-sided 95% standard normal quantile, ``Phi^-1(0.975)``
Z95 = 1.959963984540054

__all__ = [
    "Z95",
    "wilson",
    "wilson_half_width",
    "rate_table",
    "mean_and_se_from_hist",
    "holm",
    "two_proportion_ci",
    "paired_difference",
    "paired_difference_trials",
]


def _out(x):
    """0-d arrays -> Python float; arrays unchanged."""
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _check_counts(k, n):
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(np.isnan(k)) or np.any(np.isnan(n)):
        raise ValueError("counts must not be NaN")
    if np.any(n < 0):
        raise ValueError("n must be >= 0")
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= k <= n")
    return np.broadcast_arrays(k, n)


def wilson(k, n, z: float = Z95):
    r"""Wilson score interval ``(lo, hi)`` for a binomial proportion ``k/n``.

    With :math:`\hat p = k/n`:

    .. math::

        \text{centre} = \frac{k + z^2/2}{n + z^2}, \qquad
        \text{half} = \frac{z}{n + z^2}\sqrt{\frac{k(n-k)}{n} + \frac{z^2}{4}}

    and ``(lo, hi) = (centre - half, centre + half)``; this is the same as the
    textbook form
    :math:`\frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}`.
    The default ``z`` gives a two-sided 95% interval.

    Edge cases, exact by construction (not by rounding luck): ``n == 0`` gives
    ``(0.0, 1.0)`` (nothing is known); ``k == 0`` gives ``lo == 0.0``;
    ``k == n`` gives ``hi == 1.0``. Bounds are clipped to ``[0, 1]``.

    ``k`` and ``n`` may be scalars or arrays (broadcast together); scalar input
    returns Python floats, array input returns two arrays.
    """
    k, n = _check_counts(k, n)
    z2 = float(z) * float(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = n + z2
        centre = (k + z2 / 2.0) / denom
        half = (float(z) / denom) * np.sqrt(k * (n - k) / n + z2 / 4.0)
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    empty = n == 0
    lo = np.where(empty, 0.0, lo)
    hi = np.where(empty, 1.0, hi)
    return _out(lo), _out(hi)


def wilson_half_width(k, n, z: float = Z95):
    """Half the width of the Wilson interval: ``(hi - lo) / 2``.

    This is the precision target of "run until precise" (``--precision``).
    ``n == 0`` gives ``0.5``.
    """
    lo, hi = wilson(k, n, z)
    return _out((np.asarray(hi) - np.asarray(lo)) / 2.0)


def rate_table(wins, losses, draws, z: float = Z95) -> dict:
    """Rates of the three outcomes with their Wilson bounds.

    ``n = wins + losses + draws``; each rate is ``count / n`` (NaN when
    ``n == 0``, whose interval is ``(0, 1)``) and each bound comes from
    :func:`wilson` on ``(count, n)``. Draws are their own outcome, never
    counted as half a win.

    Returns a dict with keys ``win_rate, win_lo, win_hi, loss_rate, loss_lo,
    loss_hi, draw_rate, draw_lo, draw_hi`` (floats for scalar input, arrays
    for array input), ready to be merged into a summary row.
    """
    w, l, d = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (wins, losses, draws)))
    n = w + l + d
    out = {}
    for name, k in (("win", w), ("loss", l), ("draw", d)):
        lo, hi = wilson(k, n, z)
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(n > 0, k / np.where(n > 0, n, 1.0), np.nan)
        out[f"{name}_rate"] = _out(rate)
        out[f"{name}_lo"] = lo
        out[f"{name}_hi"] = hi
    return out


def mean_and_se_from_hist(values, counts):
    r"""Mean and its standard error from a histogram (e.g. fight length in rounds).

    With :math:`N = \sum c_i`:

    .. math::

        \bar x = \frac{\sum c_i x_i}{N}, \qquad
        s^2 = \frac{\sum c_i (x_i - \bar x)^2}{N - 1}, \qquad
        \mathrm{se} = \sqrt{s^2 / N}

    Returns ``(mean, se)`` as floats; ``N == 0`` gives ``(nan, nan)`` and
    ``N == 1`` gives ``(x, nan)`` (no spread can be estimated from one trial).
    """
    x = np.asarray(values, dtype=float).ravel()
    c = np.asarray(counts, dtype=float).ravel()
    if x.shape != c.shape:
        raise ValueError("values and counts must have the same length")
    if np.any(c < 0):
        raise ValueError("counts must be >= 0")
    n = c.sum()
    if n <= 0:
        return float("nan"), float("nan")
    mean = float((c * x).sum() / n)
    if n <= 1:
        return mean, float("nan")
    var = float((c * (x - mean) ** 2).sum() / (n - 1))
    return mean, float(np.sqrt(var / n))


def holm(pvalues):
    r"""Holm-Bonferroni step-down adjusted p-values.

    Sort the ``m`` p-values ascending, :math:`p_{(1)} \le \dots \le p_{(m)}`;
    then

    .. math::

        \tilde p_{(i)} = \min\Bigl(1,\ \max_{j \le i} (m - j + 1)\, p_{(j)}\Bigr)

    and the adjusted values are returned in the input order. Rejecting every
    hypothesis with :math:`\tilde p \le \alpha` controls the family-wise error
    rate at :math:`\alpha` under any dependence. The result is monotone in the
    sorted order and capped at 1.

    NaN p-values (comparisons that could not be made) are left NaN and do not
    count towards ``m``. Returns an array of the input's shape (a float for a
    scalar).
    """
    p = np.asarray(pvalues, dtype=float)
    shape = p.shape
    flat = p.ravel()
    if np.any((flat < 0) | (flat > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    out = np.full(flat.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(flat))
    m = ok.size
    if m:
        order = ok[np.argsort(flat[ok], kind="stable")]
        scaled = (m - np.arange(m)) * flat[order]
        out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    out = out.reshape(shape)
    return float(out) if out.ndim == 0 else out


def two_proportion_ci(k1, n1, k2, n2, z: float = Z95):
    r"""Difference of two independent proportions, ``p1 - p2``, with the
    Newcombe (1998) hybrid score interval (his method 10).

    With :math:`\hat p_i = k_i/n_i` and Wilson intervals :math:`(l_i, u_i)`
    from :func:`wilson`, :math:`D = \hat p_1 - \hat p_2` and

    .. math::

        \text{lo} = D - \sqrt{(\hat p_1 - l_1)^2 + (u_2 - \hat p_2)^2}, \qquad
        \text{hi} = D + \sqrt{(u_1 - \hat p_1)^2 + (\hat p_2 - l_2)^2}.

    Reference: R. G. Newcombe, "Interval estimation for the difference between
    independent proportions: comparison of eleven methods", *Statistics in
    Medicine* 17 (1998) 873-890; worked example 56/70 vs 48/80 gives
    D = 0.2000, 95% CI (0.0524, 0.3339).

    Use this only for *independent* samples. Variants run with common random
    numbers are paired, and this interval is then conservative (too wide).

    Returns ``(diff, lo, hi)`` (floats for scalar input). If either ``n`` is 0
    the difference is NaN and the interval is ``(-1, 1)``.
    """
    k1, n1 = _check_counts(k1, n1)
    k2, n2 = _check_counts(k2, n2)
    l1, u1 = (np.asarray(v) for v in wilson(k1, n1, z))
    l2, u2 = (np.asarray(v) for v in wilson(k2, n2, z))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = k1 / n1
        p2 = k2 / n2
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    empty = (n1 == 0) | (n2 == 0)
    d = np.where(empty, np.nan, d)
    lo = np.where(empty, -1.0, np.clip(lo, -1.0, 1.0))
    hi = np.where(empty, 1.0, np.clip(hi, -1.0, 1.0))
    return _out(d), _out(lo), _out(hi)


def paired_difference(a_success, b_success, n, both=None, z: float = Z95):
    r"""Difference of two *paired* rates, ``p_A - p_B``, with Newcombe's (1998)
    hybrid score interval for paired proportions (his method 10).

    Paired means the two variants ran on common random numbers (the same trial
    seeds), so trial ``i`` of A and trial ``i`` of B form a pair. The interval
    needs the joint counts, not just the two totals: over ``n`` pairs let

    * ``both`` = pairs where A and B both succeeded (``e`` in Newcombe),
    * ``a_success - both`` = only A succeeded (``f``),
    * ``b_success - both`` = only B succeeded (``g``),
    * ``n - a_success - b_success + both`` = neither (``h``).

    With :math:`\hat p_A = a/n`, :math:`\hat p_B = b/n`, Wilson intervals
    :math:`(l_A, u_A)`, :math:`(l_B, u_B)` from :func:`wilson`,
    :math:`D = \hat p_A - \hat p_B = (f - g)/n` and the continuity-corrected
    correlation :math:`\hat\phi = C / \sqrt{(e+f)(g+h)(e+g)(f+h)}` with
    :math:`C = eh - fg - n/2` if :math:`eh - fg > n/2`, :math:`0` if
    :math:`0 \le eh - fg \le n/2`, :math:`eh - fg` if negative (and
    :math:`\hat\phi = 0` if any margin is 0):

    .. math::

        \text{lo} = D - \sqrt{(\hat p_A - l_A)^2 - 2\hat\phi(\hat p_A - l_A)(u_B - \hat p_B)
                     + (u_B - \hat p_B)^2}

        \text{hi} = D + \sqrt{(u_A - \hat p_A)^2 - 2\hat\phi(u_A - \hat p_A)(\hat p_B - l_B)
                     + (\hat p_B - l_B)^2}

    Reference: R. G. Newcombe, "Improved confidence intervals for the
    difference between binomial proportions based on paired data",
    *Statistics in Medicine* 17 (1998) 2635-2650, method 10; the same
    formula is in Altman et al., *Statistics with Confidence* (2nd ed., 2000)
    and Fagerland, Lydersen & Laake, *Statistical Analysis of Contingency
    Tables* (2017), ch. 8 ("Newcombe square-and-add"). With ``phi = 0`` it is
    :func:`two_proportion_ci`; positive correlation (what common random
    numbers give) narrows it.

    ``both`` is required: the totals alone cannot give a paired interval
    (``ValueError`` says so; use :func:`two_proportion_ci` for a valid but
    conservative interval from totals, or :func:`paired_difference_trials`
    with the per-trial outcomes). Returns ``(diff, lo, hi)``, floats for
    scalar input, arrays otherwise (inputs broadcast); ``n == 0`` gives a NaN
    difference and the interval ``(-1, 1)``. Bounds are clipped to ``[-1, 1]``.
    """
    if both is None:
        raise ValueError(
            "paired_difference needs the joint count `both` (pairs where A and B both "
            "succeeded); from totals alone use two_proportion_ci (valid, conservative for "
            "paired data), or pass per-trial outcomes to paired_difference_trials")
    a, n1 = _check_counts(a_success, n)
    b, n2 = _check_counts(b_success, n)
    e = np.asarray(both, dtype=float)
    a, b, e, n = np.broadcast_arrays(a, b, e, np.asarray(n1, dtype=float))
    f, g = a - e, b - e
    h = n - a - b + e
    if np.any(np.isnan(e)) or np.any((e < 0) | (f < 0) | (g < 0) | (h < 0)):
        raise ValueError("need 0 <= both <= min(a_success, b_success) and "
                         "a_success + b_success - both <= n")
    la, ua = (np.asarray(v) for v in wilson(a, n, z))
    lb, ub = (np.asarray(v) for v in wilson(b, n, z))
    with np.errstate(divide="ignore", invalid="ignore"):
        pa, pb = a / n, b / n
        cross = e * h - f * g
        c = np.where(cross > n / 2.0, cross - n / 2.0, np.where(cross >= 0, 0.0, cross))
        margins = a * (n - a) * b * (n - b)
        phi = np.where(margins > 0, c / np.sqrt(np.where(margins > 0, margins, 1.0)), 0.0)
        x, y = pa - la, ub - pb
        lo = (pa - pb) - np.sqrt(np.maximum(x * x - 2 * phi * x * y + y * y, 0.0))
        x, y = ua - pa, pb - lb
        hi = (pa - pb) + np.sqrt(np.maximum(x * x - 2 * phi * x * y + y * y, 0.0))
    empty = n == 0
    d = np.where(empty, np.nan, pa - pb)
    lo = np.where(empty, -1.0, np.clip(lo, -1.0, 1.0))
    hi = np.where(empty, 1.0, np.clip(hi, -1.0, 1.0))
    return _out(d), _out(lo), _out(hi)


def paired_difference_trials(a, b, z: float = Z95):
    """:func:`paired_difference` from per-trial outcomes.

    ``a`` and ``b`` are equal-length 1-d arrays of booleans (or 0/1), element
    ``i`` being trial ``i``'s success under variant A and under variant B (the
    same seed). Returns ``(diff, lo, hi)`` as floats.
    """
    a = np.asarray(a).ravel()
    b = np.asarray(b).ravel()
    if a.shape != b.shape:
        raise ValueError("a and b must have one outcome per trial (the same length)")
    for name, v in (("a", a), ("b", b)):
        if v.size and not np.all((v == 0) | (v == 1)):
            raise ValueError(f"{name} must hold booleans or 0/1")
    a, b = a.astype(bool), b.astype(bool)
    return paired_difference(int(a.sum()), int(b.sum()), a.size, both=int((a & b).sum()), z=z)
