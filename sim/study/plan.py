"""How many trials a comparison needs (``sim plan``).

Two win rates ``p1`` and ``p2``, a two-sided test at level ``alpha`` with power
``power``:

* independent arms (``crn: false``, or two separate runs): the normal-approximation
  power of two proportions on Cohen's effect size ``h = 2 asin(sqrt(p1)) -
  2 asin(sqrt(p2))`` (:func:`statsmodels.stats.proportion.proportion_effectsize`,
  :class:`statsmodels.stats.power.NormalIndPower`): trials *per arm*;
* paired arms (common random numbers, the default): McNemar's test needs only
  the discordant trials (one arm wins, the other does not); with ``psi`` the
  discordant share and ``delta = p1 - p2`` (Connor 1987, *Biometrics* 43:207)

  .. math:: n = \\frac{\\bigl(z_{1-\\alpha/2}\\sqrt{\\psi} + z_{1-\\beta}\\sqrt{\\psi - \\delta^2}\\bigr)^2}{\\delta^2}

  ``psi`` comes from a pilot: the ``discordant`` column of a ``compare`` study.

For precision instead of power (``half_width``): the trials for a ``1 - alpha``
interval of half-width ``H``: ``z^2 p (1 - p) / H^2`` for one rate,
``z^2 (psi - delta^2) / H^2`` for a paired difference, ``z^2 (p1 q1 + p2 q2) / H^2``
for an unpaired one.

Several comparisons (``comparisons = K``, e.g. the ``K (K - 1) / 2`` pairs a
tier list of ``K`` entries tests, or a talent-value study's ``m`` candidates
against the base): each is planned at level ``alpha / K`` (Bonferroni), so
that all hold together at ``alpha``. Holm's procedure, which the studies use
for their p-values, tests its most significant comparison at exactly
``alpha / K`` and the others at larger levels, so trials planned this way are
enough for Holm too (never too few).

A flag that changes nothing in the combination given (``--discordant``
without ``--paired``, ``--power`` with ``--half-width``) is named in
``warnings`` rather than dropped in silence.
"""
from __future__ import annotations

import math

from scipy import stats as sps


class PlanError(ValueError):
    """Inconsistent planning inputs."""


def _check(p1, p2, alpha, power, discordant):
    for name, v in (("--p1", p1), ("--p2", p2)):
        if v is not None and not 0 < v < 1:
            raise PlanError(f"{name} must be a rate strictly between 0 and 1 (e.g. 0.62), got {v}")
    if not 0 < alpha < 0.5:
        raise PlanError(f"--alpha must be between 0 and 0.5 (e.g. 0.05), got {alpha}")
    if power is not None and not 0 < power < 1:
        raise PlanError(f"--power must be between 0 and 1 (e.g. 0.8), got {power}")
    if discordant is not None:
        if not 0 < discordant <= 1:
            raise PlanError(f"--discordant must be a share between 0 and 1, got {discordant}")
        if p1 is not None and p2 is not None and discordant < abs(p1 - p2):
            raise PlanError(f"--discordant ({discordant}) cannot be below |p1 - p2| ({abs(p1 - p2):.4g}): "
                            "every trial that changes the win rate is discordant")


def ignored_flags(paired: bool, discordant, half_width, power, power_given: bool = True) -> list[str]:
    """Sentences for the flags that change nothing in this combination."""
    out = []
    if discordant is not None and not paired:
        out.append("--discordant is ignored without --paired (the discordant share only matters for "
                   "paired arms on common random numbers): add --paired to use it")
    if half_width is not None and power_given and power is not None:
        out.append("--power is ignored with --half-width (a precision plan has no power)")
    return out


def plan(p1: float, p2: float | None = None, *, alpha: float = 0.05, power: float | None = None,
         paired: bool = False, discordant: float | None = None, half_width: float | None = None,
         comparisons: int = 1) -> dict:
    """Trials per arm for the comparison described above; returns a dict with
    ``trials`` (whole number), ``method``, the inputs, ``alpha_per_comparison`` and
    ``warnings`` (flags ignored). ``power`` defaults to 0.8; ``comparisons``: how many
    comparisons share ``alpha`` (Bonferroni, enough for Holm)."""
    warnings = ignored_flags(paired, discordant, half_width, power, power is not None)
    power = 0.8 if power is None else power
    _check(p1, p2, alpha, power, discordant if paired else None)
    if isinstance(comparisons, bool) or not isinstance(comparisons, int) or not 1 <= comparisons <= 10**6:
        raise PlanError(f"--comparisons must be a whole number from 1 to 10^6, got {comparisons}")
    if paired and discordant is None:
        raise PlanError("--paired needs --discordant: the share of trials where exactly one arm wins "
                        "(the 'discordant' column of a compare study on a pilot run)")
    a = alpha / comparisons
    z = sps.norm.ppf(1 - a / 2)
    out = {"p1": p1, "p2": p2, "alpha": alpha, "paired": paired, "discordant": discordant if paired else None,
           "comparisons": comparisons, "alpha_per_comparison": a, "warnings": warnings}
    if half_width is not None:
        if not 0 < half_width < 0.5:
            raise PlanError(f"--half-width must be between 0 and 0.5 (e.g. 0.01), got {half_width}")
        if p2 is None:
            var, method = p1 * (1 - p1), "half-width of one rate (normal approximation)"
        elif paired:
            var, method = discordant - (p1 - p2) ** 2, "half-width of a paired difference"
        else:
            var, method = p1 * (1 - p1) + p2 * (1 - p2), "half-width of an unpaired difference"
        n = z * z * var / half_width ** 2
        return {**out, "half_width": half_width, "method": method, "trials": max(1, math.ceil(n))}
    if p2 is None or p1 == p2:
        raise PlanError("give two different rates --p1 and --p2 (the effect to detect), or --half-width")
    out["power"] = power
    delta = p1 - p2
    if paired:
        zb = sps.norm.ppf(power)
        n = (z * math.sqrt(discordant) + zb * math.sqrt(discordant - delta ** 2)) ** 2 / delta ** 2
        return {**out, "method": "paired: McNemar (Connor 1987)", "trials": math.ceil(n)}
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    h = proportion_effectsize(p1, p2)
    n = NormalIndPower().solve_power(effect_size=h, alpha=a, power=power, ratio=1.0,
                                     alternative="two-sided")
    return {**out, "method": "independent: two proportions, Cohen's h (statsmodels)",
            "trials": math.ceil(n)}


def format_plan(r: dict) -> str:
    """One paragraph for ``sim plan``."""
    k = r.get("comparisons", 1)
    a = r.get("alpha_per_comparison", r["alpha"])
    what = (f"a {100 * (1 - a):.4g}% interval of half-width {r['half_width']:g}"
            if "half_width" in r else
            f"a win-rate change from {r['p1']:g} to {r['p2']:g} at alpha {a:.4g} with power {r['power']:g}")
    pairing = (f" (paired on common random numbers, discordant share {r['discordant']:g})" if r["paired"]
               else " (independent arms)")
    multi = (f" Each of {k} comparisons is planned at alpha {r['alpha']:g}/{k} = {a:.4g} (Bonferroni), so "
             f"all {k} hold together at {r['alpha']:g}; Holm, which the studies use, needs no more."
             if k > 1 else "")
    return f"{r['trials']:,} trials per arm for {what}{pairing}. Method: {r['method']}.{multi}"
