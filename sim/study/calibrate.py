"""Study kind ``calibrate``: the parameter value at which the first side wins with a target probability.

::

    study:
      kind: calibrate
      parameter: Gloom.resolve    # any numeric set: path (Resolve, attack, spread, a d10 ability...)
      range: [20, 60]             # or values: [20, 30, 40]
      targets: [0.5, 0.8]
      max_points: 15              # grid size before refinement

The grid: every whole number of an integer ``range`` when there are at most
``max_points`` of them; otherwise ``max_points`` evenly spaced values, then
one refinement round that adds every whole number (or 5 evenly spaced values
of a real range) inside each step of the fitted curve that brackets a target.
Each value is an arm (common random numbers), the curve is fitted monotone
and inverted at each target with a bootstrap interval (:mod:`sim.study.curve`).
For a whole-number parameter ``nearest`` is the grid value whose fitted win
rate is closest to the target: the value to use. Tables ``calibration.csv``
(one row per target) and ``calibration_curve.csv`` (one row per value), chart
``calibration.png``.
"""
from __future__ import annotations

from typing import Annotated, Literal

import numpy as np
import pandas as pd
from pydantic import Field, model_validator

from sim.stats import wilson

from .charts import curve_chart
from .curve import fit, solve
from .report import Section
from .spec import Probability, StudySpec


class CalibrateSpec(StudySpec):
    """``parameter``: a numeric set: path; ``range: [lo, hi]`` or ``values``; ``targets``."""

    kind: Literal["calibrate"]
    parameter: Annotated[str, Field(min_length=1)]
    range: Annotated[list[float], Field(min_length=2, max_length=2)] | None = None
    values: Annotated[list[float], Field(min_length=2, max_length=200)] | None = None
    targets: Annotated[list[Probability], Field(min_length=1, max_length=10)] = [0.5]
    max_points: Annotated[int, Field(ge=3, le=60)] = 15

    @model_validator(mode="after")
    def _grid(self):
        if (self.range is None) == (self.values is None):
            raise ValueError("give either range: [low, high] or values: [...] (one of the two)")
        if self.range is not None and not self.range[0] < self.range[1]:
            raise ValueError(f"range must be [low, high] with low < high, got {self.range}")
        return self


SPEC = CalibrateSpec


def _whole(v) -> bool:
    return float(v).is_integer()


def _grid(spec: CalibrateSpec) -> tuple[list, bool]:
    if spec.values is not None:
        vals = sorted(set(spec.values))
        integer = all(_whole(v) for v in vals)
    else:
        lo, hi = spec.range
        integer = _whole(lo) and _whole(hi)
        if integer and hi - lo + 1 <= spec.max_points:
            vals = list(np.arange(lo, hi + 1))
        else:
            vals = list(np.linspace(lo, hi, spec.max_points))
            if integer:
                vals = sorted(set(np.round(vals)))
    return [int(v) if integer else float(v) for v in vals], integer


def _measure(ctx, spec, vals, n):
    for v in vals:
        ctx.arm(f"{spec.parameter}={v}", [(spec.parameter, v)], ("study", "parameter"), set_key=False)
    return np.vstack([ctx.metrics(f"{spec.parameter}={v}", n)["win"] for v in vals])


def _refine(ctx, spec, vals, integer, n) -> list:
    if spec.values is not None or len(vals) < spec.max_points:
        return vals
    wins = _measure(ctx, spec, vals, n)
    fitted, inc = fit(vals, wins.mean(axis=1))
    extra = set()
    for t in spec.targets:
        f = fitted if inc else -fitted
        hit = np.flatnonzero(f >= (t if inc else -t))
        if hit.size and hit[0] > 0:
            a, b = vals[hit[0] - 1], vals[hit[0]]
            extra |= set(range(int(a) + 1, int(b))) if integer else set(np.linspace(a, b, 7)[1:-1])
    return sorted(set(vals) | extra)


def run(ctx, spec: CalibrateSpec) -> Section:
    vals, integer = _grid(spec)
    vals = _refine(ctx, spec, vals, integer, ctx.trials)

    def widths(n):
        return [(r["hi"] - r["lo"]) / 2 for r in _solve(ctx, spec, vals, n)[0]]

    n = ctx.until_precise(widths, spec.precision)
    rows, wins = _solve(ctx, spec, vals, n)
    k = wins.sum(axis=1)
    lo, hi = wilson(k, n)
    fitted = fit(vals, wins.mean(axis=1))[0]
    curve = pd.DataFrame({"value": vals, "trials": n, "rate": k / n, "lo": lo, "hi": hi, "fitted": fitted})
    table = pd.DataFrame(rows)
    found = [(r["value"], r["lo"], r["hi"]) for r in rows]
    level = f"{100 * (1 - spec.alpha):g}%"
    parts = []
    for r in rows:
        rate = float(curve.loc[curve["value"] == r["nearest"], "rate"].iloc[0])
        parts.append(f"a {100 * r['target']:g}% win rate at {spec.parameter} ≈ {_fmt(r['value'])} "
                     f"[{_fmt(r['lo'])}, {_fmt(r['hi'])}]"
                     + (f" (use {r['nearest']:g}: measured {100 * rate:.1f}%)" if integer else ""))
    reading = (f"Calibrating {spec.parameter} over {len(vals)} values × {n:,} trials: "
               + "; ".join(parts) + f". Intervals are {level} bootstrap intervals over trials.")
    charts = {"calibration.png": lambda p: curve_chart(
        curve, p, xlabel=spec.parameter, fitted=curve.assign(rate=curve["fitted"]),
        targets=spec.targets, found=[f for f in found if np.isfinite(f[0])],
        caption=f"Win rate of the first side against {spec.parameter}, 95% Wilson intervals, "
                f"the monotone fit, the targets (dashed) and the values found with {level} "
                "bootstrap intervals (green).")}
    notes = [] if all(np.isfinite(r["value"]) for r in rows) else [
        "A target lies beyond the grid (±inf): widen the range."]
    return Section(kind="calibrate", title=spec.title or f"Calibration of {spec.parameter}",
                   reading=reading, tables={"calibration": table, "calibration_curve": curve},
                   charts=charts, notes=notes)


def _fmt(v: float) -> str:
    return "beyond the grid" if not np.isfinite(v) else f"{v:.2f}"


def _solve(ctx, spec, vals, n):
    wins = _measure(ctx, spec, vals, n)
    rows = []
    for t in spec.targets:
        r = solve(vals, wins, t, spec.alpha, seed=ctx.seed)
        rows.append({"parameter": spec.parameter, "target": t, "value": r["value"], "lo": r["lo"],
                     "hi": r["hi"], "nearest": r["nearest"], "trials": n, "grid_points": len(vals)})
    return rows, wins
