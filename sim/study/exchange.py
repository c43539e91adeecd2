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

from .charts import curve_chart
from .curve import fit, solve
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
    rows, curves = [], []
    for path, (deltas, names) in stats.items():
        wins = np.vstack([ctx.metrics(a, n)["win"] for a in names])
        r = solve(deltas, wins, talent, spec.alpha, seed=ctx.seed)
        k = wins.sum(axis=1)
        lo, hi = wilson(k, n)
        rows.append({"talent": spec.talent.name, "stat": path, "worth": r["value"], "lo": r["lo"],
                     "hi": r["hi"], "talent_win_rate": float(talent.mean()),
                     "base_win_rate": float(wins[deltas.index(0)].mean()), "trials": n})
        curves.append(pd.DataFrame({"stat": path, "value": deltas, "trials": n, "rate": k / n, "lo": lo,
                                    "hi": hi, "fitted": fit(deltas, k / n)[0]}))
    return rows, pd.concat(curves, ignore_index=True)


def run(ctx, spec: ExchangeSpec) -> Section:
    ctx.arm(spec.talent.name, list(spec.talent.changes.items()), ("study", "talent"))
    stats = {path: _stat_arms(ctx, spec, path) for path in spec.stats}

    def widths(n):
        return [(r["hi"] - r["lo"]) / 2 for r in _solve(ctx, spec, stats, n)[0]]

    n = ctx.until_precise(widths, spec.precision)
    rows, curve = _solve(ctx, spec, stats, n)
    table = pd.DataFrame(rows)
    level = f"{100 * (1 - spec.alpha):g}%"
    t = rows[0]["talent_win_rate"]
    parts = [_part(r, stats[r["stat"]][0]) for r in rows]
    reading = (f"{spec.talent.name} raises the win rate from {100 * rows[0]['base_win_rate']:.1f}% to "
               f"{100 * t:.1f}% ({n:,} paired trials); it is worth " + ", or ".join(parts)
               + f" ({level} bootstrap intervals).")
    charts = {}
    for i, r in enumerate(rows):
        pts = curve[curve["stat"] == r["stat"]]
        charts[f"exchange_{i + 1}.png"] = (lambda p, pts=pts, r=r: curve_chart(
            pts, p, xlabel=f"change in {r['stat']}", fitted=pts.assign(rate=pts["fitted"]),
            targets=[r["talent_win_rate"]], found=[(r["worth"], r["lo"], r["hi"])] if np.isfinite(r["worth"]) else [],
            caption=f"Win rate against a change in {r['stat']} (95% Wilson), the monotone fit, the win rate "
                    f"with {spec.talent.name} (dashed) and the change worth as much ({level} bootstrap, green)."))
    notes = ["±inf: the talent is worth more (or less) than every change tried; widen the list."] if not all(
        np.isfinite(r["worth"]) for r in rows) else []
    return Section(kind="exchange-rate", title=spec.title or f"Exchange rate: {spec.talent.name}",
                   reading=reading, tables={"exchange_rate": table, "exchange_curve": curve}, charts=charts,
                   notes=notes)


def _worth(v: float) -> str:
    return "+∞" if v == np.inf else "−∞" if v == -np.inf else f"{v:+.2f}"


def _part(r: dict, deltas: list) -> str:
    """``Akari.attack +1.52 [+1.20, +1.85]``, or beyond the changes tried."""
    if r["worth"] == np.inf:
        return f"{r['stat']} more than {max(deltas):+g} (the largest change tried)"
    if r["worth"] == -np.inf:
        return f"{r['stat']} less than {min(deltas):+g} (the smallest change tried)"
    return f"{r['stat']} {_worth(r['worth'])} [{_worth(r['lo'])}, {_worth(r['hi'])}]"
