"""Study kind ``compare``: paired comparisons of arms on common random numbers.

::

    study:
      kind: compare
      arms:
        - name: base
        - name: Inflict
          set: {Akari.talents: [Inflict]}
      pairs: [[Inflict, base]]      # default: every arm against the first
      independent_check: true       # replay the second arm of each pair on independent streams
      precision: 0.01               # optional: stop when every win-rate half-width <= 0.01

Per pair ``A - B`` and metric (win rate; mean rounds; mean girls out and dead
where the system gives them): the paired difference and its ``1 - alpha``
interval (:mod:`sim.study.paired`), the p-value, the share of discordant
trials, and for the win rate the variance reduction against independent
streams. Table ``comparison.csv``, chart ``comparison.png``.
"""
from __future__ import annotations

from typing import Annotated, Literal

import pandas as pd
from pydantic import Field

from sim.scenario.errors import doc_error
from sim.scenario.suggest import suggest

from .caveats import base_rate, base_sentence, rate_warnings
from .charts import forest_chart
from .paired import difference, variance_ratio
from .report import Section
from .spec import ArmSpec, StudySpec


class CompareSpec(StudySpec):
    """``arms``: at least two arms (``name`` and ``set``); ``pairs``: ``[A, B]``
    names compared as ``A - B`` (default: every arm against the first);
    ``independent_check``: measure the variance reduction of common random numbers."""

    kind: Literal["compare"]
    arms: Annotated[list[ArmSpec], Field(min_length=2, max_length=100)]
    pairs: list[Annotated[list[str], Field(min_length=2, max_length=2)]] | None = None
    independent_check: bool = True


SPEC = CompareSpec


def _pairs(ctx, spec: CompareSpec) -> list[tuple[str, str]]:
    names = [a.name for a in spec.arms]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise doc_error(ctx.doc, ("study", "arms", i, "name"),
                            f"duplicate arm name {name!r}; arm names must be unique.")
    if spec.pairs is None:
        return [(n, names[0]) for n in names[1:]]
    for i, pair in enumerate(spec.pairs):
        for j, n in enumerate(pair):
            if n not in names:
                raise doc_error(ctx.doc, ("study", "pairs", i, j), f"no arm named {n!r}."
                                f"{suggest(n, names)} Arms: {', '.join(names)}.")
        if pair[0] == pair[1]:
            raise doc_error(ctx.doc, ("study", "pairs", i), f"the pair [{pair[0]}, {pair[1]}] compares an arm "
                            "with itself (a difference of exactly 0 on every trial); name two different "
                            f"arms. Arms: {', '.join(names)}.")
    return [tuple(p) for p in spec.pairs]


def _rows(ctx, spec, pairs, n) -> list[dict]:
    rows = []
    for a, b in pairs:
        ma, mb = ctx.metrics(a, n), ctx.metrics(b, n)
        for metric in ma:
            if metric not in mb:
                continue
            d = difference(metric, ma[metric], mb[metric], spec.alpha)
            row = {"arm": a, "against": b, "metric": metric, "trials": n,
                   "value": float(ma[metric].mean()), "against_value": float(mb[metric].mean()), **d}
            if spec.independent_check and metric == "win":
                row["var_ratio_vs_independent"] = variance_ratio(
                    ma["win"], mb["win"], ctx.independent(b, n)["win"])
            rows.append(row)
    return rows


def run(ctx, spec: CompareSpec) -> Section:
    pairs = _pairs(ctx, spec)
    for i, arm in enumerate(spec.arms):
        ctx.arm(arm.name, list(arm.changes.items()), ("study", "arms", i))

    def widths(n):
        return [(r["hi"] - r["lo"]) / 2 for r in _rows(ctx, spec.model_copy(update={"independent_check": False}),
                                                       pairs, n) if r["metric"] == "win"]

    n = ctx.until_precise(widths, spec.precision)
    df = pd.DataFrame(_rows(ctx, spec, pairs, n))
    win = df[df["metric"] == "win"].assign(label=lambda d: d["arm"] + " − " + d["against"])
    level = f"{100 * (1 - spec.alpha):g}%"
    reading = []
    for r in win.to_dict(orient="records"):
        verdict = ("no difference the trials can see" if r["lo"] <= 0 <= r["hi"]
                   else ("better" if r["diff"] > 0 else "worse"))
        vr = r.get("var_ratio_vs_independent")
        vr_text = f"; common random numbers cut the variance {vr:.1f}×" if vr == vr and vr is not None else ""
        reading.append(f"{r['arm']} against {r['against']}: win rate {100 * r['diff']:+.1f} points "
                       f"[{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}] ({level}, {n:,} paired trials), "
                       f"{verdict}{vr_text}.")
    charts = {"comparison.png": lambda p: forest_chart(
        win, p, label="label", xlabel="difference in win rate of the first side (paired)",
        caption=f"Paired differences in win rate with {level} Newcombe intervals, {n:,} trials per arm "
                "on common random numbers.")}
    ref = pairs[0][1]
    base = base_rate(ctx.metrics(ref, n)["win"], ref)
    warnings = rate_warnings(base, {a.name: float(ctx.metrics(a.name, n)["win"].mean()) for a in spec.arms})
    reading.insert(0, base_sentence(base))
    notes = ["Paired: trial i of every arm is played on the same keyed streams (common random numbers)"
             if ctx.crn else "crn: false in the scenario: arms use independent streams, so the pairs are "
             "independent and the intervals are those of independent samples in effect."]
    return Section(kind="compare", title=spec.title or "Paired comparison", reading=" ".join(reading),
                   tables={"comparison": df}, charts=charts, notes=notes, warnings=warnings, base=base)
