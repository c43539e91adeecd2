"""Study kind ``policy-tuning``: the best play the tool can find for one side.

::

    study:
      kind: policy-tuning
      side: girls                   # whose win rate to maximise (name or index; default 0)
      parameters:                   # set: path -> [low, high] (numbers) or a list of choices
        Akari.policy.boost_margin: [0, 8]          # whole numbers 0..8
        Akari.policy.heal_below: [0, 100]
        Akari.policy.boost: [never, always, when-losing]
        Beni.policy.overcharge_cap: {choices: [6, 12]}   # two numbers as choices, not a range
      candidates: 16                # policies searched (the first is the scenario as written)
      confirm_trials: 20000         # fresh trials for the final comparison (default: the last round's)

Search: **successive halving on common random numbers**. Candidate 0 is the
scenario's own policy; the others are every combination of the choices and
whole-number ranges when there are at most ``candidates - 1`` of them, else
``candidates - 1`` distinct points drawn uniformly (a real range ``[0.5,
2.0]`` is drawn as a real number) from a generator seeded by the study seed.
Round 0 plays every candidate on trials ``0..n-1`` (``n``: ``--trials``);
each round keeps the better half (ties: the earlier candidate) and doubles
``n`` (capped at ``max_trials``), until one is left. Every candidate plays
the *same* keyed trials (``stream_key(seed, 0)``: trial ``i`` is the same
fight for all), so the ranking compares play, not luck, and the trials grow
as the field narrows: a noise-aware budget (Jamieson and Talwalkar 2016).

The winner's win rate on the trials it was selected on is biased upwards
(it won a race on them). So the tuned and the starting policy are
**re-measured on fresh trials** -- streams no search trial used,
``stream_key(seed, FRESH)`` -- and compared paired (Newcombe interval, exact
McNemar p, :mod:`sim.study.paired`). Tables ``tuned.csv`` (one row per
parameter: start and tuned value), ``tuning.csv`` (the fresh comparison),
``search_trace.csv`` (one row per candidate and round); charts
``search_trace.png`` and ``tuning.png``.
"""
from __future__ import annotations

import itertools
import math
from typing import Annotated, Literal, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter
from pydantic import Field

from sim.report.charts import _save
from sim.scenario.base import StrictModel
from sim.scenario.errors import doc_error
from sim.scenario.suggest import suggest
from sim.stats import wilson

from .caveats import base_rate, base_sentence, rate_warnings
from .charts import forest_chart
from .paired import rate_difference
from .report import Section
from .spec import StudySpec

#: variant key of the fresh confirmation streams (far from ``k + 1`` and the independent replays)
FRESH = 1 << 21
Scalar = Union[bool, int, float, str]


class Choices(StrictModel):
    """``{choices: [...]}``: an explicit list of values (e.g. two numbers that are not a range)."""

    choices: Annotated[list[Scalar], Field(min_length=1, max_length=1000)]


class TuningSpec(StudySpec):
    """``side``: whose win rate to maximise (a side's name or index); ``parameters``:
    ``set:`` path -> ``[low, high]`` (two numbers: a range, whole numbers if both are) or
    a list of choices (or ``{choices: [...]}``); ``candidates``: policies searched;
    ``confirm_trials``: fresh trials of the final paired comparison."""

    kind: Literal["policy-tuning"]
    side: Union[int, str] = 0
    parameters: Annotated[dict[str, Union[Choices, Annotated[list[Scalar], Field(min_length=1,
                                                                                   max_length=1000)]]],
                          Field(min_length=1, max_length=30)]
    candidates: Annotated[int, Field(ge=2, le=512)] = 16
    confirm_trials: Annotated[int, Field(ge=10, le=10**8)] | None = None


SPEC = TuningSpec


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _domain(ctx, path, raw) -> tuple[str, object]:
    """``("int", (lo, hi))``, ``("real", (lo, hi))`` or ``("choice", [values])``."""
    loc = ("study", "parameters", path)
    ctx.value_at(path, loc)  # a misspelt path is reported here, with a suggestion
    if isinstance(raw, Choices):
        return "choice", list(raw.choices)
    if len(raw) == 2 and all(_is_num(v) for v in raw):
        lo, hi = raw
        if not lo < hi:
            raise doc_error(ctx.doc, loc, f"a range [low, high] needs low < high, got [{lo}, {hi}] "
                            "(for a list of choices write {choices: [...]}).")
        return ("int", (lo, hi)) if all(isinstance(v, int) for v in raw) else ("real", (lo, hi))
    return "choice", list(raw)


def _side(ctx, spec: TuningSpec) -> tuple[int, str]:
    sides = ctx.loaded.raw.get("sides") or []
    names = [str(s.get("name", i)) if isinstance(s, dict) else str(i) for i, s in enumerate(sides)]
    if isinstance(spec.side, int) and not isinstance(spec.side, bool) and 0 <= spec.side < max(len(names), 2):
        return spec.side, names[spec.side] if spec.side < len(names) else f"side {spec.side}"
    if spec.side in names and names.index(spec.side) < 2:
        return names.index(spec.side), spec.side
    raise doc_error(ctx.doc, ("study", "side"), f"no side {spec.side!r} to tune for.{suggest(str(spec.side), names)} "
                    f"Expected one of the two sides: {', '.join(names[:2]) or '0, 1'} (a name or 0, 1).")


def _candidates(domains: dict, count: int, seed: int) -> list[dict]:
    """Candidate 0 is ``{}`` (as written); then the full grid if small enough, else draws."""
    discrete = all(kind != "real" for kind, _ in domains.values())
    size = math.prod((d[1] - d[0] + 1) if k == "int" else len(d) for k, d in domains.values()) \
        if discrete else math.inf
    if size <= count - 1:
        grids = [range(d[0], d[1] + 1) if k == "int" else d for k, d in domains.values()]
        return [{}] + [dict(zip(domains, combo)) for combo in itertools.product(*grids)]
    rng = np.random.default_rng([int(seed), 0x7475E])
    out, seen = [{}], set()
    for _ in range(50 * count):
        if len(out) >= count:
            break
        c = {}
        for path, (kind, d) in domains.items():
            if kind == "int":
                c[path] = int(rng.integers(d[0], d[1] + 1))
            elif kind == "real":
                c[path] = round(float(rng.uniform(d[0], d[1])), 4)
            else:
                c[path] = d[int(rng.integers(len(d)))]
        key = tuple(repr(v) for v in c.values())
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _wins(frame, side: int) -> np.ndarray:
    return (np.asarray(frame["outcome"]) == side).astype(np.float64)


def _search(ctx, cands: list[dict], paths: list[str], side: int) -> tuple[pd.DataFrame, int, int]:
    """Successive halving; returns the trace, the winner's index and the last round's trials."""
    for i, c in enumerate(cands):
        ctx.arm(_name(i), list(c.items()), ("study", "parameters"), set_key=False)
    alive, n, r, rows = list(range(len(cands))), ctx.trials, 0, []
    while True:
        rates = {i: float(_wins(ctx.trials_of(_name(i), n), side).mean()) for i in alive}
        order = sorted(alive, key=lambda i: (-rates[i], i))
        keep = set(order[:max(1, math.ceil(len(alive) / 2))]) if len(alive) > 1 else set(alive)
        for i in alive:
            lo, hi = wilson(round(rates[i] * n), n)
            rows.append({"round": r, "candidate": i, "trials": n, "win_rate": rates[i],
                         "lo": float(lo), "hi": float(hi), "kept": i in keep,
                         **{p: cands[i].get(p, "(as written)") for p in paths}})
        if len(alive) == 1:
            break
        alive = [i for i in alive if i in keep]
        n, r = min(2 * n, ctx.max_trials), r + 1
    ctx.trials = max(ctx.trials, n)
    return pd.DataFrame(rows), alive[0], n


def _name(i: int) -> str:
    return "as written" if i == 0 else f"candidate {i}"


def _fresh(ctx, name: str, m: int, side: int) -> np.ndarray:
    """Trials ``0..m-1`` of arm ``name`` on the fresh streams ``stream_key(seed, FRESH)``."""
    return _wins(ctx.replay(name, "fresh", FRESH, m), side)


def trace_chart(trace: pd.DataFrame, best: int, path, *, caption: str):
    """Win rate of each candidate per round (x: trials per candidate, log 2), the winner bold."""
    if trace.empty:
        return None
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.add_subplot()
    for i, d in trace.groupby("candidate"):
        bold = i == best
        ax.plot(d["trials"], d["win_rate"], marker="o", ms=3 if not bold else 5, lw=2.2 if bold else 0.8,
                color="#c0392b" if bold else ("#333" if i == 0 else "#2a7ab0"), alpha=1 if bold or i == 0 else 0.5,
                label=("tuned: " + _name(i)) if bold else ("as written" if i == 0 else None))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("trials per candidate (same keyed trials for all)")
    ax.set_ylabel("win rate on the search trials")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(alpha=0.3)
    ax.legend(frameon=False, fontsize=8)
    return _save(fig, path, caption=caption, title="Successive-halving search")


def _start_value(ctx, path):
    v = ctx.value_at(path, ("study", "parameters", path))
    return "(not set in the file)" if v is None else v


def run(ctx, spec: TuningSpec) -> Section:
    side, side_name = _side(ctx, spec)
    domains = {p: _domain(ctx, p, raw) for p, raw in spec.parameters.items()}
    cands = _candidates(domains, spec.candidates, ctx.seed)
    trace, best, n_last = _search(ctx, cands, list(domains), side)
    m = spec.confirm_trials or max(n_last, ctx.trials)
    start, tuned = _fresh(ctx, _name(0), m, side), _fresh(ctx, _name(best), m, side)
    d = rate_difference(tuned, start, spec.alpha)
    confirm = pd.DataFrame([{"tuned": _name(best), "against": _name(0), "side": side_name,
                             "tuned_rate": float(tuned.mean()), "start_rate": float(start.mean()),
                             "trials": m, "streams": f"fresh (variant key {FRESH})", **d}])
    tuned_tbl = pd.DataFrame([{"parameter": p, "start": _start_value(ctx, p),
                               "tuned": cands[best].get(p, _start_value(ctx, p))} for p in domains])
    level = f"{100 * (1 - spec.alpha):g}%"
    verdict = ("the search kept the policy as written" if best == 0 else
               "better than the policy as written" if d["lo"] > 0 else
               "worse than the policy as written" if d["hi"] < 0 else
               "not distinguishable from the policy as written")
    settings = ", ".join(f"{r['parameter']} = {r['tuned']}" for r in tuned_tbl.to_dict(orient="records"))
    reading = (f"Tuning {len(domains)} parameter{'s' if len(domains) != 1 else ''} for {side_name} over "
               f"{len(cands)} candidates (successive halving, {trace['round'].max() + 1} rounds, "
               f"{n_last:,} trials per survivor in the last): best found {settings}. Re-measured on "
               f"{m:,} fresh trials (not the ones searched), its win rate is {100 * tuned.mean():.1f}% "
               f"against {100 * start.mean():.1f}% as written: {100 * d['diff']:+.1f} points "
               f"[{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}] ({level}, paired), {verdict}.")
    lab = confirm.assign(label=confirm["tuned"] + " − " + confirm["against"])
    charts = {"search_trace.png": lambda p: trace_chart(
                  trace, best, p, caption=f"Win rate of {side_name} per candidate and round of successive "
                  "halving, on the same keyed trials; red: the tuned policy, black: as written."),
              "tuning.png": lambda p: forest_chart(
                  lab, p, label="label", xlabel=f"difference in {side_name}'s win rate (paired, fresh trials)",
                  caption=f"Tuned minus as written on {m:,} fresh trials, {level} Newcombe interval.")}
    notes = ["The search trials are streams stream_key(seed, 0), shared by every candidate; the final "
             f"comparison uses fresh streams (variant key {FRESH}) that the search never saw, so the "
             "tuned policy's rate is not inflated by having won the search.",
             "Successive halving finds the best of the candidates it tried, not a proven optimum: widen "
             "'candidates' (or narrow the ranges) and compare."]
    if not ctx.crn:
        notes.append("crn: false in the scenario: candidates play independent streams, so the search "
                     "ranks them with more noise.")
    base = base_rate(start, "the policy as written, fresh trials")
    return Section(kind="policy-tuning", title=spec.title or f"Policy tuning: {side_name}",
                   reading=base_sentence(base).replace("of the first side", f"of {side_name}") + " " + reading,
                   tables={"tuned": tuned_tbl, "tuning": confirm, "search_trace": trace}, charts=charts,
                   notes=notes, warnings=rate_warnings(base, {"tuned": float(tuned.mean())}), base=base)
