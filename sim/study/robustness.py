"""Study kind ``policy-robustness``: does a study's conclusion survive other play?

::

    study:
      kind: policy-robustness
      policies:                       # the first is the reference
        - name: as written            # no set: the scenario's own policies
        - name: careful girls
          set: {Akari.policy: careful, Beni.policy: careful}
        - name: random monster
          set: {Gloom.policy.name: random-target}
      study:                          # the study to rerun: kind compare or talent-value
        kind: compare
        arms: [{name: base}, {name: Inflict, set: {Akari.talents: [Inflict]}}]

Each policy is a ``set:`` applied to **every** arm of the nested study before
the arm's own changes (so an arm that sets a policy field itself keeps it).
The nested study is run once per policy (its own kind's code, unchanged), on
common random numbers: trial ``i`` of every arm under every policy uses the
same keyed streams (``stream_key(seed, 0)``), so the policies are compared on
the same dice too.

Conclusions (the primary, win-rate ones):

* ``compare``: each pair ``A - B``: the paired difference in the first side's
  win rate (Newcombe interval, :mod:`sim.study.paired`);
* ``talent-value``: each pair of entries (candidates and the base) ``A - B``,
  ordered or not by the Holm-adjusted pairwise tests the tier list uses
  (:func:`sim.study.tiers.pairwise`).

With ``P`` policies, each interval is at level ``1 - alpha/P`` (Bonferroni
over the policies; for talent-value also over the ``M`` pairs: ``1 -
alpha/(P M)``), so all the intervals of one conclusion hold together with
probability at least ``1 - alpha`` and a reported flip is a false alarm with
probability at most ``alpha``. A conclusion's *sign* under a policy is +1
(significantly positive), -1 (significantly negative) or 0. Row status,
against the reference (first) policy: ``holds`` (same sign), ``flips``
(opposite non-zero signs) or ``weakens`` (significant under one, not under
the other, either way round). Verdict of a conclusion over all policies:
``flips`` if both signs occur, else ``weakens`` if the signs differ, else
``holds``. Table ``robustness.csv``; chart ``robustness.png``.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Annotated, Literal, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from pydantic import Field

from sim.report.charts import _save
from sim.scenario.errors import doc_error

from . import compare, talents
from .arms import StudyContext
from .charts import points_axis
from .paired import rate_difference
from .report import Section
from .spec import ArmSpec, StudySpec
from .tiers import pairwise

#: separator of policy and arm in the arms' names (``careful | Inflict``)
SEP = " | "
_COLOURS = {"holds": "#2a7ab0", "weakens": "#e0a800", "flips": "#c0392b"}


class RobustnessSpec(StudySpec):
    """``policies``: at least two named ``set:`` mappings (the first is the
    reference); ``study``: the nested study block (kind ``compare`` or
    ``talent-value``)."""

    kind: Literal["policy-robustness"]
    policies: Annotated[list[ArmSpec], Field(min_length=2, max_length=20)]
    study: Annotated[Union[compare.CompareSpec, talents.TalentValueSpec], Field(discriminator="kind")]


SPEC = RobustnessSpec


def _nested_doc(doc):
    """``doc`` with the nested block's lines also under ``("study", ...)``: the nested
    kind reports its own errors at ``("study", field...)``."""
    lines = dict(doc.lines)
    for loc, line in doc.lines.items():
        if loc[:2] == ("study", "study"):
            lines[loc[1:]] = line
    return dataclasses.replace(doc, lines=lines)


class _Under:
    """The study context as the nested study sees it under one policy: its arms
    are ``<policy> | <arm>``, built from the policy's changes then the arm's;
    trial counts are its own; everything else is the real context's."""

    def __init__(self, ctx: StudyContext, policy: str, changes: list, doc):
        self._ctx, self.policy, self._changes, self.doc = ctx, policy, changes, doc
        self.trials, self.max_trials = ctx.trials, ctx.max_trials

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def label(self, arm) -> str:
        return arm if not isinstance(arm, str) else self.policy + SEP + arm

    def arm(self, name, changes, loc=("study",), set_key=True):
        return self._ctx.arm(self.label(name), self._changes + list(changes), ("study",) + tuple(loc),
                             set_key)

    def value_at(self, path, loc=("study",)):
        return self._ctx.value_at(path, ("study",) + tuple(loc))

    def trials_of(self, arm, n=None):
        return self._ctx.trials_of(self.label(arm), self.trials if n is None else n)

    def metrics(self, arm, n=None):
        return self._ctx.metrics(self.label(arm), self.trials if n is None else n)

    def until_precise(self, half_widths, precision):
        return StudyContext.until_precise(self, half_widths, precision)


def _sign(lo: float, hi: float) -> int:
    return 1 if lo > 0 else (-1 if hi < 0 else 0)


def _compare_rows(under: _Under, nested, section: Section, alpha: float) -> list[dict]:
    df = section.tables["comparison"]
    return [{"conclusion": f"{r['arm']} − {r['against']}", "diff": r["diff"], "lo": r["lo"],
             "hi": r["hi"], "sign": _sign(r["lo"], r["hi"]), "trials": int(r["trials"])}
            for r in df[df["metric"] == "win"].to_dict(orient="records")]


def _talent_rows(under: _Under, nested, section: Section, alpha: float) -> list[dict]:
    names = section.tables["tier_list"]["name"].tolist()
    n = under.trials
    wins = {k: under.metrics(k, n)["win"] for k in sorted(names, key=lambda k: (k != talents.BASE, k))}
    adj = pairwise("win", wins)
    pairs = list(itertools.combinations(wins, 2))
    rows = []
    for a, b in pairs:
        d = rate_difference(wins[a], wins[b], alpha / max(len(pairs), 1))
        separated = adj[(a, b)] <= alpha
        rows.append({"conclusion": f"{a} − {b}", "diff": d["diff"], "lo": d["lo"], "hi": d["hi"],
                     "sign": int(np.sign(d["diff"])) if separated else 0, "p_holm": adj[(a, b)],
                     "trials": n})
    return rows


def _status(sign: int, ref: int) -> str:
    if sign == ref:
        return "holds"
    return "flips" if sign * ref == -1 else "weakens"


def _verdict(signs) -> str:
    s = set(signs)
    if {1, -1} <= s:
        return "flips"
    return "weakens" if len(s) > 1 else "holds"


def _table(ctx, spec: RobustnessSpec) -> pd.DataFrame:
    mod = compare if spec.study.kind == "compare" else talents
    rows_of = _compare_rows if spec.study.kind == "compare" else _talent_rows
    p = len(spec.policies)
    nested = spec.study.model_copy(update={"alpha": spec.alpha / p})
    if spec.study.kind == "compare":
        nested = nested.model_copy(update={"independent_check": False})
    doc, rows, seen, bases = _nested_doc(ctx.doc), [], set(), []
    for i, pol in enumerate(spec.policies):
        if pol.name in seen or SEP.strip() in pol.name:
            raise doc_error(ctx.doc, ("study", "policies", i, "name"),
                            f"policy names must be unique and without {SEP.strip()!r}: {pol.name!r}.")
        seen.add(pol.name)
        changes = list(pol.changes.items())
        ctx.arm(pol.name, changes, ("study", "policies", i))  # checks the policy's paths and values
        under = _Under(ctx, pol.name, changes, doc)
        section = mod.run(under, nested)
        bases.append((pol.name, section.base, section.warnings))
        ctx.trials = max(ctx.trials, under.trials)
        for r in rows_of(under, nested, section, spec.alpha / p):
            rows.append({"conclusion": r.pop("conclusion"), "policy": pol.name, **r})
    df = pd.DataFrame(rows)
    ref = df[df["policy"] == spec.policies[0].name].set_index("conclusion")["sign"]
    df["status"] = [_status(s, ref.get(c, 0)) for c, s in zip(df["conclusion"], df["sign"])]
    verdict = df.groupby("conclusion", sort=False)["sign"].agg(_verdict)
    df["verdict"] = df["conclusion"].map(verdict)
    return df, bases


def robustness_chart(df: pd.DataFrame, path, *, caption: str, limit: int = 12):
    """One panel per conclusion (flipped first, at most ``limit``), one row per policy:
    the difference with its interval, coloured by the row's status."""
    order = {"flips": 0, "weakens": 1, "holds": 2}
    concl = sorted(dict.fromkeys(df["conclusion"]), key=lambda c: order[df[df["conclusion"] == c]
                                                                           ["verdict"].iloc[0]])[:limit]
    if not concl:
        return None
    npol = df["policy"].nunique()
    fig = Figure(figsize=(7.5, 0.9 + len(concl) * (0.45 + 0.3 * npol)))
    axes = fig.subplots(len(concl), 1, sharex=True, squeeze=False)[:, 0]
    for ax, c in zip(axes, concl):
        d = df[df["conclusion"] == c]
        y = np.arange(len(d))[::-1]
        for yi, r in zip(y, d.to_dict(orient="records")):
            ax.errorbar(r["diff"], yi, xerr=[[r["diff"] - r["lo"]], [r["hi"] - r["diff"]]], fmt="o",
                        color=_COLOURS[r["status"]], capsize=3)
        ax.axvline(0, color="#888", lw=1, ls="--")
        ax.set_yticks(y, [f"{p} ({s})" for p, s in zip(d["policy"], d["status"])], fontsize=8)
        ax.set_title(f"{c}: {d['verdict'].iloc[0]}", fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    points_axis(axes[-1].xaxis)
    axes[-1].set_xlabel("difference in the first side's win rate, points (paired)")
    fig.tight_layout()
    return _save(fig, path, caption=caption, variants=list(concl), title="Policy robustness")


def _reading(df: pd.DataFrame, spec: RobustnessSpec, level: str) -> str:
    verdicts = df.drop_duplicates("conclusion").set_index("conclusion")["verdict"]
    ref = spec.policies[0].name
    parts = [f"{len(verdicts)} conclusion{'s' if len(verdicts) != 1 else ''} of the nested "
             f"{spec.study.kind} study rerun under {len(spec.policies)} policies (reference: {ref!r}; "
             f"{level} intervals, Bonferroni over the policies)."]
    for v, text in (("flips", "flip sign beyond their intervals"),
                    ("weakens", "are significant under some policies and not under others")):
        names = verdicts[verdicts == v].index.tolist()
        if names:
            where = []
            for c in names:
                d = df[df["conclusion"] == c]
                where.append(f"{c} ({', '.join(f'{p}: {100 * x:+.1f} pts' for p, x in zip(d['policy'], d['diff']))})")
            parts.append(f"{len(names)} {text}: {'; '.join(where)}.")
    held = int((verdicts == "holds").sum())
    parts.append(f"{held} hold under every policy." if held else "None holds under every policy.")
    return " ".join(parts)


def run(ctx, spec: RobustnessSpec) -> Section:
    df, bases = _table(ctx, spec)
    shown = [(pol, b) for pol, b, _ in bases if b is not None]
    head = ("Base win rate under each policy: " + "; ".join(
        f"{pol} {100 * b['rate']:.1f}% [{100 * b['lo']:.1f}, {100 * b['hi']:.1f}]" for pol, b in shown) + ". "
        if shown else "")
    warnings = [f"{pol}: {w}" for pol, _, ws in bases for w in ws]
    p = len(spec.policies)
    level = f"{100 * (1 - spec.alpha / p):.4g}%"
    caption = (f"Each conclusion's paired difference in win rate under each policy, with {level} "
               f"intervals (Bonferroni over {p} policies); colour: holds (blue), weakens (amber), "
               "flips (red) against the reference policy.")
    charts = {"robustness.png": lambda path: robustness_chart(df, path, caption=caption)}
    notes = [f"Every policy's set: is applied to every arm before the arm's own changes; the arms "
             f"are named '<policy>{SEP}<arm>'. All arms under all policies use the same keyed "
             "streams (common random numbers).",
             "Status is against the reference (first) policy; verdict is over all policies. "
             "'weakens' means significant under one and not under the other: absence of "
             "significance is not evidence of no effect (see sim plan)."]
    if spec.study.kind == "talent-value":
        notes.append("Talent-value: an order counts as separated when its Holm-adjusted pairwise p "
                     f"(as in the tier list) is at most alpha/{p}; the intervals shown are Bonferroni "
                     "over the pairs and policies, so they can be slightly wider than the Holm test.")
    return Section(kind="policy-robustness", title=spec.title or "Policy robustness",
                   reading=head + _reading(df, spec, level), tables={"robustness": df}, charts=charts,
                   notes=notes, warnings=warnings, base=shown[0][1] if shown else None)
