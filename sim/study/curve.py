"""Win rate as a monotone function of a parameter, and its inversion with intervals.

Used by calibration (the parameter value at which the first side wins with a
target probability) and exchange rates (the stat change worth as much as a
talent).

Fit: the measured win rates at the grid values are fitted by isotonic
regression (:func:`scipy.optimize.isotonic_regression`, the least-squares
monotone fit; the direction is that of the end points), which removes the
noise-made wiggles a bisection would trip on without assuming a shape.

Inversion (:func:`invert`): the first grid step where the fitted curve reaches
the target, interpolated linearly inside it. A target outside the fitted
range gives ``-inf`` or ``+inf`` ("beyond the grid").

Interval: bootstrap over trials. All arms share trial ``i``'s streams, so a
resample of trial indices (Poisson weights, ``B`` replicates, seeded from the
study seed so the result is reproducible) is applied to every arm at once,
and to the target when it is itself measured (an exchange rate's talent arm).
Each replicate is fitted and inverted; the ``alpha/2 .. 1-alpha/2``
percentile interval of the inverted values is ``lo_boot, hi_boot``. It counts
the sampling noise only: between two grid points it trusts the straight line,
and the curve between them is not measured (for a whole-number stat it does
not even exist: Resolve 18.4 is no fight). So the reported interval ``lo, hi``
(:func:`honest`) widens it to the grid points around it: any monotone curve
through the measured points may cross the target anywhere inside the step
that brackets it. The reading names that step (:func:`bracket`: "between +0
and +1 Resolve: +1 gives 61.2%, +0 gives 49.8%").

Jumps (:func:`jumps`): a step between neighbouring grid points whose change
in win rate per unit is many times that of both its neighbouring steps (and
beyond the noise) is flagged: a rule or AI threshold sits there (a targeting tie, a
``heal_below`` percent, a success threshold of the dice), and the value found
inside it is the threshold's place, not a smooth exchange rate.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import isotonic_regression

#: bootstrap replicates
BOOTSTRAP = 400


def fit(x, rates, increasing: bool | None = None) -> tuple[np.ndarray, bool]:
    """``(fitted rates, increasing)``: the isotonic fit of ``rates`` over sorted ``x``."""
    rates = np.asarray(rates, dtype=float)
    if increasing is None:
        increasing = bool(rates[-1] >= rates[0])
    return isotonic_regression(rates, increasing=increasing).x, increasing


def invert(x, fitted, target: float, increasing: bool) -> float:
    """The ``x`` at which the monotone ``fitted`` curve reaches ``target`` (linear inside a step)."""
    x = np.asarray(x, dtype=float)
    f = np.asarray(fitted, dtype=float) if increasing else -np.asarray(fitted, dtype=float)
    t = target if increasing else -target
    hit = np.flatnonzero(f >= t)
    if not hit.size:
        return float("inf")
    j = int(hit[0])
    if j == 0:
        return float(x[0]) if f[0] == t else float("-inf")
    lo, hi = f[j - 1], f[j]
    return float(x[j - 1] + (t - lo) / (hi - lo) * (x[j] - x[j - 1]))


def nearest(x, fitted, target: float) -> float:
    """The grid value whose fitted rate is closest to ``target`` (first on ties)."""
    return float(np.asarray(x)[int(np.argmin(np.abs(np.asarray(fitted) - target)))])


#: bootstrap weights held at once (float32 cells): bounds memory for millions of trials
_CELLS = 1 << 24


def _resampled(wins: np.ndarray, tvec, seed: int, b: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Bootstrap rates (b, k) of every arm, and of the target vector, one block of
    replicates at a time (Poisson(1) weights per trial, the same for every arm)."""
    n = wins.shape[1]
    gen = np.random.default_rng([seed, 21])
    block = max(1, min(b, _CELLS // max(n, 1)))
    rates, targets = [], []
    for start in range(0, b, block):
        w = gen.poisson(1.0, size=(min(block, b - start), n)).astype(np.float32)
        tot = np.maximum(w.sum(axis=1), 1.0)
        rates.append((w @ wins.T) / tot[:, None])
        if tvec is not None:
            targets.append((w @ tvec) / tot)
    return np.vstack(rates), (np.concatenate(targets) if tvec is not None else None)


def solve(x, wins: np.ndarray, target, alpha: float = 0.05, seed: int = 0,
          increasing: bool | None = None, b: int = BOOTSTRAP) -> dict:
    """Invert the win-rate curve at ``target``, with a bootstrap interval.

    ``x``: sorted grid values (k,); ``wins``: per-trial 0/1 array (k, n), row ``j``
    the arm at ``x[j]``; ``target``: a rate, or a per-trial 0/1 array (n,) whose
    mean is the target (resampled with the arms). Returns ``{value, lo, hi,
    nearest, target, increasing, fitted}``.
    """
    x = np.asarray(x, dtype=float)
    wins = np.asarray(wins, dtype=np.float32)
    tvec = None if np.isscalar(target) else np.asarray(target, dtype=np.float32)
    t0 = float(target) if tvec is None else float(tvec.mean())
    fitted, inc = fit(x, wins.mean(axis=1), increasing)
    value = invert(x, fitted, t0, inc)
    rates, targets = _resampled(wins, tvec, seed, b)
    if targets is None:
        targets = np.full(b, t0)
    boot = np.array([invert(x, fit(x, rates[r], inc)[0], float(targets[r]), inc) for r in range(b)])
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    h_lo, h_hi = honest(x, float(lo), float(hi))
    below, above = bracket(x, fitted, t0, inc)
    return {"value": value, "lo": h_lo, "hi": h_hi, "lo_boot": float(lo), "hi_boot": float(hi),
            "below": below, "above": above, "nearest": nearest(x, fitted, t0),
            "target": t0, "increasing": inc, "fitted": fitted}


def honest(x, lo: float, hi: float) -> tuple[float, float]:
    """``[lo, hi]`` widened to the grid points around it (the largest at or below ``lo``,
    the smallest at or above ``hi``): the interval with the interpolation's uncertainty."""
    x = np.sort(np.asarray(x, dtype=float))
    if np.isfinite(lo):
        under = x[x <= lo + 1e-12]
        lo = float(under[-1]) if under.size else float("-inf")
    if np.isfinite(hi):
        over = x[x >= hi - 1e-12]
        hi = float(over[0]) if over.size else float("inf")
    return lo, hi


def bracket(x, fitted, target: float, increasing: bool) -> tuple[float, float]:
    """The grid values on either side of where the fitted curve reaches ``target``:
    ``(below, above)`` in grid order; a target beyond the grid gives ``(last, inf)``
    or ``(-inf, first)``; a grid point hit exactly gives ``(x, x)``."""
    x = np.asarray(x, dtype=float)
    f = np.asarray(fitted, dtype=float) if increasing else -np.asarray(fitted, dtype=float)
    t = target if increasing else -target
    hit = np.flatnonzero(f >= t)
    if not hit.size:
        return float(x[-1]), float("inf")
    j = int(hit[0])
    if f[j] == t:
        return float(x[j]), float(x[j])
    if j == 0:
        return float("-inf"), float(x[0])
    return float(x[j - 1]), float(x[j])


#: a step is a jump when its change per unit is this many times its neighbours' (both)
JUMP_FACTOR = 3.0
#: and at least this many points of win rate
JUMP_MIN = 0.02


def jumps(x, wins: np.ndarray, z: float = 3.0) -> list[dict]:
    """Steps between neighbouring grid values whose change in win rate per unit is more
    than :data:`JUMP_FACTOR` times that of each neighbouring step (the one before and the
    one after, where they exist), at least :data:`JUMP_MIN` and beyond ``z`` standard
    errors (paired: the per-trial difference of the two arms). A smooth S-shaped curve
    has steps like their neighbours and is never flagged. ``wins``: (k, n) per-trial 0/1
    of the arms at sorted ``x``. Returns ``[{a, b, rate_a, rate_b, step, ratio}]``."""
    x = np.asarray(x, dtype=float)
    wins = np.asarray(wins, dtype=float)
    if x.size < 3:
        return []
    rates = wins.mean(axis=1)
    per_unit = np.abs(np.diff(rates)) / np.maximum(np.diff(x), 1e-12)
    out = []
    for j in range(per_unit.size):
        nb = [per_unit[k] for k in (j - 1, j + 1) if 0 <= k < per_unit.size]
        ref = max(nb)
        d = wins[j + 1] - wins[j]
        se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else 0.0
        step = abs(rates[j + 1] - rates[j])
        ratio = per_unit[j] / ref if ref > 0 else float("inf")
        if ratio > JUMP_FACTOR and step >= JUMP_MIN and step > z * max(se, 1e-12):
            out.append({"a": float(x[j]), "b": float(x[j + 1]), "rate_a": float(rates[j]),
                        "rate_b": float(rates[j + 1]), "step": float(rates[j + 1] - rates[j]),
                        "ratio": float(ratio)})
    return out
