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
one refinement round that adds every whole number (or 11 evenly spaced values
of a real range) inside the step of the fitted curve that brackets a target and
its two neighbouring steps, at most ``max_points`` of them per target (evenly
spaced whole numbers when those steps hold more), so a study plays at most
``max_points × (1 + targets)`` arms.
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
from pydantic import Field, field_validator, model_validator

from sim.stats import wilson

from .caveats import beyond_sentence, bracket_sentence, jump_warnings
from .charts import curve_chart
from .curve import fit, jumps, solve
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

    # each check on the field it is about, so the error points at that line
    @field_validator("range")
    @classmethod
    def _low_high(cls, v):
        if v is not None and not v[0] < v[1]:
            raise ValueError(f"range must be [low, high] with low < high, got {v}")
        return v

    @field_validator("values")
    @classmethod
    def _not_both(cls, v, info):
        if v is not None and info.data.get("range") is not None:
            raise ValueError("give either range: [low, high] or values: [...], not both")
        return v

    @model_validator(mode="after")
    def _grid(self):
        if self.range is None and self.values is None:
            raise ValueError("give either range: [low, high] or values: [...] (one of the two)")
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
            # the bracketing step and its neighbours: the interval (with the interpolation) may
            # reach into them
            j = hit[0]
            a, b = vals[max(j - 2, 0)], vals[min(j + 1, len(vals) - 1)]
            if not integer:
                extra |= set(np.linspace(a, b, min(13, spec.max_points + 2))[1:-1])
            elif int(b) - int(a) - 1 <= spec.max_points:
                extra |= set(range(int(a) + 1, int(b)))
            else:  # wide steps: max_points whole numbers spread over them, not every one
                inner = np.linspace(a, b, spec.max_points + 2)[1:-1]
                extra |= {int(v) for v in np.round(inner)} - {int(a), int(b)}
    return sorted(set(vals) | extra)


def run(ctx, spec: CalibrateSpec) -> Section:
    vals, integer = _grid(spec)
    vals = _refine(ctx, spec, vals, integer, ctx.trials)

    def widths(n):  # sampling noise only: the interpolation's part does not shrink with trials
        return [(r["hi_boot"] - r["lo_boot"]) / 2 for r in _solve(ctx, spec, vals, n)[0]]

    n = ctx.until_precise(widths, spec.precision)
    rows, wins = _solve(ctx, spec, vals, n)
    k = wins.sum(axis=1)
    lo, hi = wilson(k, n)
    fitted, inc = fit(vals, wins.mean(axis=1))
    curve = pd.DataFrame({"value": vals, "trials": n, "rate": k / n, "lo": lo, "hi": hi, "fitted": fitted})
    table = pd.DataFrame(rows)
    found = [(r["value"], r["lo"], r["hi"]) for r in rows]
    level = f"{100 * (1 - spec.alpha):g}%"
    rate_of = dict(zip(curve["value"].astype(float), curve["rate"]))
    parts, unanswered = [], []
    for r in rows:
        if not np.isfinite(r["value"]):
            unanswered.append(f"calibrate {spec.parameter}: " + beyond_sentence(
                spec.parameter, r["target"], vals, list(k / n), inc) + ".")
            parts.append(f"a {100 * r['target']:g}% win rate is not reached on this grid (see the warning)")
            continue
        where = bracket_sentence(spec.parameter, r["below"], r["above"], rate_of)
        parts.append(f"a {100 * r['target']:g}% win rate lies {where} (interpolated {_fmt(r['value'])}; "
                     f"{level} interval with the interpolation [{_fmt(r['lo'])}, {_fmt(r['hi'])}], sampling "
                     f"noise alone [{_fmt(r['lo_boot'])}, {_fmt(r['hi_boot'])}])"
                     + (f"; use {r['nearest']:g} (measured {100 * rate_of[r['nearest']]:.1f}%)" if integer else ""))
    reading = (f"Calibrating {spec.parameter} over {len(vals)} values × {n:,} trials (win rate of the first side "
               f"from {100 * curve['rate'].iloc[0]:.1f}% at {vals[0]:g} to {100 * curve['rate'].iloc[-1]:.1f}% "
               f"at {vals[-1]:g}): " + "; ".join(parts) + ".")
    charts = {"calibration.png": lambda p: curve_chart(
        curve, p, xlabel=spec.parameter, fitted=curve.assign(rate=curve["fitted"]),
        targets=spec.targets, found=[f for f in found if np.isfinite(f[0])],
        caption=f"Win rate of the first side against {spec.parameter}, 95% Wilson intervals, "
                f"the monotone fit, the targets (dashed) and the values found with {level} intervals "
                "widened to the grid points around them (green).")}
    notes = ["Intervals include the interpolation: between two grid points the curve is not measured, so "
             "the interval runs from grid point to grid point (lo_boot, hi_boot: the bootstrap interval "
             "that trusts a straight line between them, what 'precision' stops on)."]
    warnings = jump_warnings(spec.parameter, jumps(vals, wins), ctx.loaded.raw) + unanswered
    return Section(kind="calibrate", title=spec.title or f"Calibration of {spec.parameter}",
                   reading=reading, tables={"calibration": table, "calibration_curve": curve},
                   charts=charts, notes=notes, warnings=warnings, unanswered=unanswered)


def _fmt(v: float) -> str:
    return "beyond the grid" if not np.isfinite(v) else f"{v:.2f}"


def _solve(ctx, spec, vals, n):
    wins = _measure(ctx, spec, vals, n)
    rows = []
    for t in spec.targets:
        r = solve(vals, wins, t, spec.alpha, seed=ctx.seed)
        rows.append({"parameter": spec.parameter, "target": t, "value": r["value"], "lo": r["lo"],
                     "hi": r["hi"], "below": r["below"], "above": r["above"], "lo_boot": r["lo_boot"],
                     "hi_boot": r["hi_boot"], "nearest": r["nearest"], "trials": n, "grid_points": len(vals)})
    return rows, wins
