"""Study kind ``exchange-rate``: "this talent is worth +x Attack (or +y Resolve)".

::

    study:
      kind: exchange-rate
      talent: {name: Inflict, set: {Akari.talents: [Inflict]}}
      stats:                      # set: path -> changes to try (added to the base value)
        Akari.attack: [0, 1, 2, 3]
        Akari.resolve: [0, 3, 6, 9, 12]

The talent arm's win rate is the target. For each stat, every change ``d`` is
an arm (the base with the stat at base value + ``d``; 0 is always included);
the win rate over the changes is fitted monotone and inverted at the talent's
win rate (:mod:`sim.study.curve`). The interval is a bootstrap over trials in
which the talent arm and the stat arms are resampled together (they share
their streams), so it counts the noise of both sides of the equation.
Table ``exchange_rate.csv`` (one row per stat), ``exchange_curve.csv``;
chart ``exchange_<n>.png`` per stat.
"""
from __future__ import annotations

from typing import Annotated, Literal

import numpy as np
import pandas as pd
from pydantic import Field

from sim.scenario.errors import doc_error
from sim.stats import wilson

from .caveats import base_rate, base_sentence, beyond_sentence, bracket_sentence, jump_warnings, rate_warnings
from .charts import curve_chart
from .curve import fit, jumps, solve
from .report import Section
from .spec import ArmSpec, StudySpec


class ExchangeSpec(StudySpec):
    """``talent``: the arm to price; ``stats``: path -> list of changes to try."""

    kind: Literal["exchange-rate"]
    talent: ArmSpec
    stats: Annotated[dict[str, Annotated[list[float], Field(min_length=1, max_length=60)]],
                     Field(min_length=1, max_length=8)]


SPEC = ExchangeSpec


def _stat_arms(ctx, spec, path) -> tuple[list, list]:
    base = ctx.value_at(path, ("study", "stats", path))
    if not isinstance(base, (int, float)) or isinstance(base, bool):
        raise doc_error(ctx.doc, ("study", "stats", path), f"{path} is not a number in the base "
                        f"scenario (it is {base!r}); an exchange rate needs a numeric stat written "
                        "in the scenario (e.g. Akari.attack: 4).")
    deltas = sorted(set(spec.stats[path]) | {0})
    integer = isinstance(base, int) and all(float(d).is_integer() for d in deltas)
    names = []
    for d in deltas:
        d = int(d) if integer else float(d)
        name = "base" if d == 0 else f"{path}{d:+g}"
        ctx.arm(name, [] if d == 0 else [(path, base + d)], ("study", "stats", path), set_key=False)
        names.append(name)
    return deltas, names


def _solve(ctx, spec, stats, n):
    talent = ctx.metrics(spec.talent.name, n)["win"]
    rows, curves, jumped = [], [], {}
    for path, (deltas, names) in stats.items():
        wins = np.vstack([ctx.metrics(a, n)["win"] for a in names])
        r = solve(deltas, wins, talent, spec.alpha, seed=ctx.seed)
        k = wins.sum(axis=1)
        lo, hi = wilson(k, n)
        jumped[path] = jumps(deltas, wins)
        rows.append({"talent": spec.talent.name, "stat": path, "worth": r["value"], "lo": r["lo"],
                     "hi": r["hi"], "below": r["below"], "above": r["above"], "lo_boot": r["lo_boot"],
                     "hi_boot": r["hi_boot"], "jumps": len(jumped[path]),
                     "talent_win_rate": float(talent.mean()),
                     "base_win_rate": float(wins[deltas.index(0)].mean()), "trials": n})
        curves.append(pd.DataFrame({"stat": path, "value": deltas, "trials": n, "rate": k / n, "lo": lo,
                                    "hi": hi, "fitted": fit(deltas, k / n)[0]}))
    return rows, pd.concat(curves, ignore_index=True), jumped


def run(ctx, spec: ExchangeSpec) -> Section:
    ctx.arm(spec.talent.name, list(spec.talent.changes.items()), ("study", "talent"))
    stats = {path: _stat_arms(ctx, spec, path) for path in spec.stats}

    def widths(n):  # sampling noise only: the interpolation's part does not shrink with trials
        return [(r["hi_boot"] - r["lo_boot"]) / 2 for r in _solve(ctx, spec, stats, n)[0]]

    n = ctx.until_precise(widths, spec.precision)
    rows, curve, jumped = _solve(ctx, spec, stats, n)
    table = pd.DataFrame(rows)
    level = f"{100 * (1 - spec.alpha):g}%"
    t = rows[0]["talent_win_rate"]
    base = base_rate(ctx.metrics("base", n)["win"], "no talent, stats as written")
    parts = [_part(r, stats[r["stat"]][0], curve, level) for r in rows]
    reading = (base_sentence(base) + f" {spec.talent.name} raises it to {100 * t:.1f}% ({n:,} paired trials); "
               "it is worth " + "; or ".join(parts) + ".")
    warnings = rate_warnings(base, {spec.talent.name: t, **dict(zip(curve["stat"] + " " + curve["value"].map(
        lambda v: f"{v:+g}"), curve["rate"]))})
    for path, found in jumped.items():
        warnings += jump_warnings(path, found, ctx.loaded.raw, offset=_base_value(ctx, path), signed=True)
    for r in rows:
        if not np.isfinite(r["worth"]):
            deltas = stats[r["stat"]][0]
            pts = curve[curve["stat"] == r["stat"]]
            warnings.append(beyond_sentence(f"changes of {r['stat']}", t, deltas, pts["rate"].tolist(),
                                            bool(pts["rate"].iloc[-1] >= pts["rate"].iloc[0]), signed=True,
                                            label=f"the win rate with {spec.talent.name}") + ".")
    charts = {}
    for i, r in enumerate(rows):
        pts = curve[curve["stat"] == r["stat"]]
        charts[f"exchange_{i + 1}.png"] = (lambda p, pts=pts, r=r: curve_chart(
            pts, p, xlabel=f"change in {r['stat']}", fitted=pts.assign(rate=pts["fitted"]),
            targets=[r["talent_win_rate"]], found=[(r["worth"], r["lo"], r["hi"])] if np.isfinite(r["worth"]) else [],
            caption=f"Win rate against a change in {r['stat']} (95% Wilson), the monotone fit, the win rate "
                    f"with {spec.talent.name} (dashed) and the change worth as much with its {level} interval "
                    "widened to the grid points around it (green): between grid points the curve is not measured."))
    notes = ["Intervals include the interpolation: any monotone curve through the measured points may reach "
             "the talent's rate anywhere inside the step that brackets it, so the interval runs from grid "
             "point to grid point; lo_boot and hi_boot in exchange_rate.csv are the bootstrap interval that "
             "trusts a straight line between them (sampling noise only, what 'precision' stops on)."]
    return Section(kind="exchange-rate", title=spec.title or f"Exchange rate: {spec.talent.name}",
                   reading=reading, tables={"exchange_rate": table, "exchange_curve": curve}, charts=charts,
                   notes=notes, warnings=warnings, base=base)


def _base_value(ctx, path) -> float:
    v = ctx.value_at(path, ("study", "stats", path))
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


def _worth(v: float) -> str:
    return "+∞" if v == np.inf else "−∞" if v == -np.inf else f"{v:+.2f}"


def _part(r: dict, deltas: list, curve: pd.DataFrame, level: str) -> str:
    """``Akari.resolve between +0 and +1: ... (interpolated +0.73; 95% interval ...)``,
    or beyond the changes tried."""
    if r["worth"] == np.inf:
        return f"{r['stat']} more than {max(deltas):+g} (the largest change tried)"
    if r["worth"] == -np.inf:
        return f"{r['stat']} less than {min(deltas):+g} (the smallest change tried)"
    pts = curve[curve["stat"] == r["stat"]]
    rate_of = dict(zip(pts["value"].astype(float), pts["rate"]))
    where = bracket_sentence(r["stat"], r["below"], r["above"], rate_of, signed=True)
    return (f"{where} (interpolated {_worth(r['worth'])}; {level} interval with the interpolation "
            f"[{_worth(r['lo'])}, {_worth(r['hi'])}], sampling noise alone [{_worth(r['lo_boot'])}, "
            f"{_worth(r['hi_boot'])}])")
