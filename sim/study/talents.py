"""Study kind ``talent-value``: what each talent (power, perk...) is worth, and a tier list.

::

    study:
      kind: talent-value
      member: Akari          # the party member who gets (or loses) each candidate
      field: talents         # the list field: 4.1 talents; d10 powers or perks
      mode: add              # add each candidate to the base list, or remove each one
      candidates: [Inflict, Bonus Action, {name: +1 Attack, set: {Akari.attack: 5}}]
      replace: null          # optional: a list item (a card) the candidate swaps with

Each candidate is one arm: the base with ``<member>.<field>`` set to the base
list plus the candidate (``add``) or minus it (``remove``; default candidates:
the member's whole list). A candidate may also be any arm ``{name, set}``
(e.g. a stat bump to compare against). With ``replace: X`` each candidate
takes the place of one ``X`` (``add``: swap in) or is replaced by one ``X``
(``remove``: leave one out with a filler), so a card deck keeps its size; the
field may be a list or a mapping of counts (a card list: ``A.cards``). The *value* of a candidate is
"with it minus without it" in both modes, measured trial by trial on common
random numbers: change in win rate, mean rounds, mean girls out and dead.

Statistics: candidate-vs-base intervals at the Bonferroni level
``1 - alpha/m`` (``m`` candidates; simultaneous coverage ``1 - alpha``) and
Holm-adjusted p-values of the same ``m`` tests; tiers from Holm-adjusted
pairwise tests among all candidates and the base (:mod:`sim.study.tiers`).
Tables ``talent_value.csv`` (one row per candidate and metric) and
``tier_list.csv``; charts ``tier_list.png``, ``talent_metrics.png``.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

import pandas as pd
from pydantic import Field

from sim.scenario.errors import doc_error
from sim.scenario.suggest import suggest
from sim.stats import holm

from .caveats import base_rate, base_sentence, rate_warnings
from .charts import forest_chart, tier_chart
from .paired import difference
from .report import Section
from .spec import ArmSpec, StudySpec
from .tiers import pairwise, tiers

BASE = "base"


class TalentValueSpec(StudySpec):
    """``member``: a member (or side) name; ``field``: the list field (``talents``,
    ``powers``, ``perks``, a side's ``cards``...); ``mode``: ``add`` or ``remove``;
    ``candidates``: names for the list, or arms ``{name, set}``; ``replace``: the
    item a candidate swaps with (keeps a deck's size)."""

    kind: Literal["talent-value"]
    member: Annotated[str, Field(min_length=1)]
    field: Annotated[str, Field(min_length=1)] = "talents"
    mode: Literal["add", "remove"] = "add"
    candidates: Annotated[list[Union[str, ArmSpec]], Field(max_length=60)] = []
    replace: Annotated[str, Field(min_length=1)] | None = None


SPEC = TalentValueSpec


def _edited(current, cand: str, spec: TalentValueSpec):
    """The field's new value: ``cand`` added (or removed), and ``replace`` removed (or
    added) in exchange. A list gains or loses one entry; a mapping of counts (a card
    list) one copy."""
    plus, minus = (cand, spec.replace) if spec.mode == "add" else (spec.replace, cand)
    if isinstance(current, dict):
        out = dict(current)
        if plus is not None:
            out[plus] = out.get(plus, 0) + 1
        if minus is not None:
            out[minus] = out.get(minus, 0) - 1
            if out[minus] <= 0:
                del out[minus]
        return out
    out = list(current)
    if minus is not None:
        out.remove(minus)
    return out + ([plus] if plus is not None else [])


def _check_present(ctx, spec, current, name, loc) -> None:
    if name not in current:
        raise doc_error(ctx.doc, loc, f"{spec.member} has no {name!r} in {spec.field} to "
                        f"{'remove' if loc[-1] != 'replace' else 'replace'}.{suggest(name, list(current))} "
                        f"{spec.field}: {', '.join(map(str, current)) or 'none'}.")


def _arms(ctx, spec: TalentValueSpec) -> list[str]:
    path = f"{spec.member}.{spec.field}"
    current = ctx.value_at(path, ("study", "member"))
    current = current if isinstance(current, (list, dict)) else []
    if spec.replace is not None and spec.mode == "add":
        _check_present(ctx, spec, current, spec.replace, ("study", "replace"))
    cands = spec.candidates or (list(current) if spec.mode == "remove" else [])
    if not cands:
        raise doc_error(ctx.doc, ("study", "candidates"), "no candidates: list the talents "
                        "(powers, perks...) to try, e.g. candidates: [Inflict, Heal]"
                        + ("" if spec.mode == "add" else f", or give {spec.member} some {spec.field}")
                        + ".")
    ctx.arm(BASE, [])
    names = []
    for i, c in enumerate(cands):
        loc = ("study", "candidates", i)
        if isinstance(c, str):
            if spec.mode == "remove":
                _check_present(ctx, spec, current, c, loc)
            changes = [(path, _edited(current, c, spec))]
            name = str(c)
        else:
            changes, name = list(c.changes.items()), c.name
        string = isinstance(c, str)
        if name in names or name == BASE:
            raise doc_error(ctx.doc, loc, f"duplicate candidate {name!r}; names must be unique "
                            f"(and not {BASE!r}).")
        ctx.arm(name, changes, loc, set_key=not string)
        names.append(name)
    return names


def _value(spec, metric, m_arm, m_base, alpha):
    """``with - without`` for the candidate (sign flipped in remove mode)."""
    if spec.mode == "add":
        return difference(metric, m_arm[metric], m_base[metric], alpha)
    d = difference(metric, m_base[metric], m_arm[metric], alpha)
    return d


def _tables(ctx, spec, names, n):
    m = len(names)
    base = ctx.metrics(BASE, n)
    rows = []
    for name in names:
        ma = ctx.metrics(name, n)
        for metric in base:
            if metric in ma:
                d = _value(spec, metric, ma, base, spec.alpha / m)
                rows.append({"candidate": name, "metric": metric, "trials": n, **d})
    df = pd.DataFrame(rows)
    for metric, idx in df.groupby("metric").groups.items():
        df.loc[idx, "p_holm"] = holm(df.loc[idx, "p"].to_numpy())
    df["differs_from_base"] = df["p_holm"] <= spec.alpha
    win = df[df["metric"] == "win"].set_index("candidate")
    values = {BASE: base["win"]} | {k: ctx.metrics(k, n)["win"] for k in names}
    # (remove mode: the pairwise tests are symmetric, so the arms' own outcomes serve)
    est = {BASE: 0.0} | {k: float(win.loc[k, "diff"]) for k in names}
    order = sorted(est, key=lambda k: -est[k])
    adj = pairwise("win", values)
    tier = tiers(order, adj, spec.alpha)
    tl = pd.DataFrame([{"rank": r + 1, "name": k, "entry": entry_status(ctx, spec, k), "tier": tier[k],
                        "diff": est[k], "lo": 0.0 if k == BASE else float(win.loc[k, "lo"]),
                        "hi": 0.0 if k == BASE else float(win.loc[k, "hi"]),
                        "rate": float(values[k].mean()),
                        "p_holm_vs_base": 1.0 if k == BASE else float(win.loc[k, "p_holm"])}
                       for r, k in enumerate(order)])
    return df, tl, pair_table(values, adj)


def pair_table(values: dict, adjusted: dict) -> pd.DataFrame:
    """Every pair of entries ``a - b`` (the tier list's tests): the paired difference, the
    share of discordant trials (what ``sim plan --paired --discordant`` needs) and the
    Holm-adjusted p-value."""
    rows = []
    names = list(values)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            x, y = values[a], values[b]
            rows.append({"a": a, "b": b, "diff": float(x.mean() - y.mean()),
                         "discordant": float((x != y).mean()), "p_holm": adjusted[(a, b)]})
    return pd.DataFrame(rows)


def entry_status(ctx, spec: TalentValueSpec, name: str) -> str:
    """``base``, ``catalog``, ``edited`` or ``invented`` (by the scenario's ``talents:``,
    ``powers:`` or ``cards:`` block, as the arm's compiled inputs say), or ``arm`` (a
    candidate written as changes)."""
    if name == BASE:
        return BASE
    key = ctx.label(name) if hasattr(ctx, "label") else name  # a robustness study's arms are "<policy> | <arm>"
    status = getattr(ctx.arms[key].inputs, "talent_status", None) or {}
    if name in status:
        return status[name]
    return "arm" if name in {c.name for c in spec.candidates if not isinstance(c, str)} else "catalog"


def labelled(name: str, entry: str) -> str:
    """``Glass Heart (invented)``: an edited or invented entry says so."""
    return f"{name} ({entry})" if entry in ("edited", "invented") else name


def run(ctx, spec: TalentValueSpec) -> Section:
    names = _arms(ctx, spec)

    def widths(n):
        df, _, _ = _tables(ctx, spec, names, n)
        w = df[df["metric"] == "win"]
        return ((w["hi"] - w["lo"]) / 2).to_list()

    n = ctx.until_precise(widths, spec.precision)
    df, tl, pairs = _tables(ctx, spec, names, n)
    base = base_rate(ctx.metrics(BASE, n)["win"], "without the candidates" if spec.mode == "add" else "with all")
    warnings = rate_warnings(base, dict(zip(tl["name"], tl["rate"])))
    label = dict(zip(tl["name"], [labelled(k, e) for k, e in zip(tl["name"], tl["entry"])]))
    n_tiers = int(tl["tier"].max())
    top = [label[k] for k in tl[tl["tier"] == 1]["name"]]
    level = f"{100 * (1 - spec.alpha):g}%"
    verb = "adding" if spec.mode == "add" else "keeping"
    swap = "" if spec.replace is None else (f", each in place of one {spec.replace}" if spec.mode == "add"
                                            else f", each against one {spec.replace} in its place")
    reading = (base_sentence(base) + " "
               f"Value of {verb} each of {len(names)} candidates for {spec.member} ({spec.field}{swap}), "
               f"paired over {n:,} trials: the statistics separate {n_tiers} tier"
               f"{'s' if n_tiers != 1 else ''} at a family-wise error rate of {100 * spec.alpha:g}%. "
               f"Tier 1: {', '.join(top)}. "
               + ("Nothing is distinguishable from the base." if n_tiers == 1 else
                  f"{int((tl['p_holm_vs_base'] <= spec.alpha).sum())} candidates differ from the base."))
    own = [label[k] for k, e in zip(tl["name"], tl["entry"]) if e in ("edited", "invented")]
    if own:
        reading += f" Not as in the catalog (the scenario's data block): {', '.join(own)}."
    caption = (f"Change in win rate from {verb} each candidate, with simultaneous {level} "
               "(Bonferroni) intervals; colours are tiers the Holm-adjusted pairwise tests separate.")
    others = df[df["metric"] != "win"]
    charts = {"tier_list.png": lambda p: tier_chart(tl.assign(name=tl["name"].map(label)), p, caption=caption)}
    if not others.empty:
        lab = others.assign(label=others["metric"] + ": " + others["candidate"])
        charts["talent_metrics.png"] = lambda p: forest_chart(
            lab, p, label="label", xlabel="change in the mean (paired)", percent=False,
            caption="Change in mean rounds (and girls out and dead where the system counts them), "
                    f"simultaneous {level} paired t intervals.")
    notes = ["Tiers: sorted by estimate; an entry starts a new tier when the Holm-adjusted pairwise "
             "test says it is worse than the head of the current tier (docs/studies.md)."]
    return Section(kind="talent-value", title=spec.title or f"Talent value: {spec.member}",
                   reading=reading, tables={"tier_list": tl, "talent_value": df, "pairs": pairs}, charts=charts,
                   notes=notes, warnings=warnings, base=base)
