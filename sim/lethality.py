"""Lethality across systems: one encounter under ``mb41``, ``mb-draft`` and ``d10``,
optionally calibrated to the same win rate, on definitions every system shares.

A study file (``study: {kind: lethality}``, example
``scenarios/studies/lethality-41-vs-d10.yaml``) describes the encounter once
(:mod:`sim.encounter`, mapping in ``docs/lethality.md``). Each system plays
the same number of fights; per fight (:func:`sim.trials.per_trial`) it
records the first side's girls taken out, dead and standing. The shared
metrics, per system (rates with 95% Wilson intervals, means with 95% normal
intervals):

* ``win_rate``: the girls win;
* ``p_girl_out``: at least one girl taken out (4.1: 0 Resolve; d10: out);
* ``p_girl_dead``: at least one girl dead;
* ``wipe_rate``: no girl standing at the end;
* ``deaths_per_fight``: girls dead per fight (mean; its distribution in
  ``deaths.csv``);
* ``rounds``: rounds per fight (mean); survival per round in ``survival.csv``
  (the share of fights in which a girl still stands at the end of round r).

Calibration (``calibrate: {win_rate: 0.75}``) searches, per system, an
integer enemy parameter (default: the first enemy's Resolve in 4.1 and the
draft, its Vitality in d10) by bisection on common random numbers for the
value whose win rate is closest to the target, so that lethality is compared
at equal difficulty.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import yaml
from pydantic import Field

from sim import lethality_read as LR
from sim import rng
from sim.encounter import SYSTEMS, Encounter, d10_scenario, deep_merge, mapping_rows, mb41_scenario
from sim.scenario.base import StrictModel
from sim.stats import wilson

System = Literal["mb41", "mb-draft", "d10"]

#: the calibrated parameter per system: a field of the first enemy (a dotted path)
DEFAULT_PARAMETER = {"mb41": "resolve", "mb-draft": "resolve", "d10": "abilities.vitality"}
#: its search range per system
DEFAULT_RANGE = {"mb41": (1, 300), "mb-draft": (1, 300), "d10": (1, 40)}


class Calibrate(StrictModel):
    """Calibrate every system to the same win rate of the girls."""

    win_rate: float = Field(gt=0.0, lt=1.0)
    trials: int = Field(4000, ge=100, le=1_000_000)
    parameter: dict[System, str] = Field(default_factory=dict)
    range: dict[System, tuple[int, int]] = Field(default_factory=dict)


class Sensitivity(StrictModel):
    """The mapping-sensitivity band: d10 replayed (and recalibrated) with each of the
    mapping's ``attack_offset`` and ``defence_offset`` moved by each of ``offsets``
    (one at a time), on ``trials`` fights each (default a quarter of the study's, at
    least 1,000). ``sensitivity: null`` turns it off."""

    offsets: list[int] = Field(default_factory=lambda: [-2, 2], min_length=1, max_length=6)
    fields: list[Literal["attack_offset", "defence_offset", "support_offset"]] = Field(
        default_factory=lambda: ["attack_offset", "defence_offset"], min_length=1, max_length=3)
    trials: int | None = Field(None, ge=100, le=1_000_000)


class LethalityStudy(StrictModel):
    kind: Literal["lethality"]
    systems: list[System] = Field(default_factory=lambda: list(SYSTEMS), min_length=1, max_length=3)
    calibrate: Calibrate | None = None
    sensitivity: Sensitivity | None = Sensitivity()


class LethalityFile(StrictModel):
    """A cross-system lethality study file."""

    name: str = Field(min_length=1, max_length=80)
    description: str = ""
    seed: int = Field(0, ge=0, lt=2**63)
    trials: int = Field(20_000, ge=10, le=10_000_000)
    study: LethalityStudy
    encounter: Encounter
    systems: dict[System, dict] = Field(default_factory=dict)


def _load_generated(data: dict, label: str):
    from sim.scenario import load_scenario_text

    return load_scenario_text(yaml.safe_dump(data, sort_keys=False), label)


def _set_path(data: dict, path: str, value, copies: int = 1) -> dict:
    """``data`` with the first enemy's field ``path`` (dotted) set to ``value``, on each of
    its ``copies`` (d10 writes a counted enemy as that many members)."""
    out = copy.deepcopy(data)
    keys = path.split(".")
    for node in out["sides"][1]["members"][:copies]:
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    return out


def _copies(study, system: str) -> int:
    """Members the first enemy becomes in ``system``'s scenario (d10 has no ``count``)."""
    return study.encounter.enemies[0].count if system == "d10" else 1


def default_parameter(study, system: str) -> str:
    """The calibrated field of the first enemy: its Resolve (a minion's hp) in 4.1 and the
    draft, its Vitality in d10 (unless ``calibrate.parameter`` names another)."""
    if system != "d10" and study.encounter.enemies[0].kind == "minion":
        return "hp"
    return DEFAULT_PARAMETER[system]


def _get_path(data: dict, path: str):
    node = data["sides"][1]["members"][0]
    for k in path.split("."):
        if not isinstance(node, dict) or k not in node:
            return None
        node = node[k]
    return node


def scenarios(study: LethalityFile, trials: int | None = None, seed: int | None = None) -> dict:
    """The generated scenario of each system (plain data, overrides merged)."""
    trials = study.trials if trials is None else trials
    seed = study.seed if seed is None else seed
    enc = study.encounter
    out = {}
    for system in ("mb41", "mb-draft"):
        data = mb41_scenario(enc, system, study.name, seed, trials)
        out[system] = deep_merge(data, study.systems.get(system, {}))
    # each enemy's 4.1 Resolve (given, or what the 4.1 rules make of its power level)
    from sim.systems.mb41 import layout as L

    loaded = _load_generated(out["mb41"], f"{study.name} (generated mb41 scenario)")
    inputs = loaded.module.compile(loaded.variants[0][1])
    by_row = {name: int(inputs.comb[j, L.C_RES]) for j, name in enumerate(inputs.names) if inputs.sides[j] == 1}
    res = {e.name: by_row.get(e.name, by_row.get(e.copies()[0])) for e in enc.enemies}
    out["d10"] = deep_merge(d10_scenario(enc, study.name, seed, trials, res), study.systems.get("d10", {}))
    first = out["mb41"]["sides"][1]["members"][0]
    if first.get("kind") != "minion" and "resolve" not in first:  # make the calibrated value explicit
        for system in ("mb41", "mb-draft"):
            first = out[system]["sides"][1]["members"][0]["name"]
            out[system] = _set_path(out[system], "resolve", res[first])
    return {s: out[s] for s in study.study.systems}


def _compile(system: str, data: dict, label: str):
    loaded = _load_generated(data, label)
    return loaded.module.compile(loaded.variants[0][1])


def _fights(system: str, data: dict, trials: int, key, streams=None, label: str = "generated"):
    """``(inputs, per-trial frame)`` of trials ``0..trials-1`` of ``data``: played by ``streams``
    (:class:`sim.study.file_streams.FileStreams`: kept, checkpointed, stoppable) or at once."""
    from sim.trials import per_trial

    inputs = _compile(system, data, f"{data.get('name', 'lethality')} ({label})")
    if streams is None:
        return inputs, per_trial(system, inputs, 0, trials, key)
    return inputs, streams.rows(system, data, inputs, trials)


def _win_rate(system: str, data: dict, trials: int, key, streams=None) -> tuple[float, float, float]:
    df = _fights(system, data, trials, key, streams, f"calibration ({system})")[1]
    k = int((df["outcome"] == 0).sum())
    lo, hi = wilson(k, trials)
    return k / trials, float(lo), float(hi)


def calibrate(system: str, data: dict, cal: Calibrate, key, parameter: str | None = None,
              copies: int = 1, streams=None) -> tuple[dict, list[dict]]:
    """Bisection on the system's enemy parameter for the win rate closest to
    ``cal.win_rate`` (the girls' win rate falls as the enemy's Resolve or
    Vitality rises). Every step plays the same ``cal.trials`` keyed fights.
    ``parameter``: the default field (:func:`default_parameter`); ``copies``: the
    first enemy's members (all are set); ``streams``: who plays the fights
    (:func:`_fights`). Returns the calibrated scenario and one row per evaluation."""
    path = cal.parameter.get(system, parameter or DEFAULT_PARAMETER[system])
    lo, hi = cal.range.get(system, DEFAULT_RANGE[system])
    rows, cache = [], {}

    def rate(v: int) -> float:
        if v not in cache:
            w, wl, wh = _win_rate(system, _set_path(data, path, v, copies), cal.trials, key, streams)
            cache[v] = w
            rows.append({"system": system, "parameter": path, "value": v, "win_rate": w,
                         "win_lo": wl, "win_hi": wh, "trials": cal.trials})
        return cache[v]

    reached = True
    if rate(lo) < cal.win_rate:  # even the weakest enemy in the range is too strong
        best, reached = lo, False
    elif rate(hi) >= cal.win_rate:  # even the strongest is too weak
        best, reached = hi, False
    else:
        while hi - lo > 1:  # invariant: rate(lo) >= target > rate(hi)
            mid = (lo + hi) // 2
            if rate(mid) >= cal.win_rate:
                lo = mid
            else:
                hi = mid
        best = lo if abs(cache[lo] - cal.win_rate) <= abs(cache[hi] - cal.win_rate) else hi
    for r in rows:
        r["chosen"] = r["value"] == best
        r["target_reached"] = reached
    return _set_path(data, path, best, copies), rows


def _rate_row(system: str, metric: str, k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"system": system, "metric": metric, "value": k / n, "lo": float(lo), "hi": float(hi)}


def _mean_row(system: str, metric: str, x: np.ndarray) -> dict:
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")
    return {"system": system, "metric": metric, "value": m, "lo": m - 1.96 * se, "hi": m + 1.96 * se}


def measure(system: str, data: dict, trials: int, key, streams=None) -> dict:
    """The shared metrics of one system's scenario: ``metrics`` rows,
    ``deaths`` (distribution of girls dead per fight) and ``survival`` rows;
    ``streams``: who plays the fights (:func:`_fights`)."""
    from sim.systems import get_system

    inputs, df = _fights(system, data, trials, key, streams)
    n = len(df)
    metrics = [
        _rate_row(system, "win_rate", int((df["outcome"] == 0).sum()), n),
        _rate_row(system, "p_girl_out", int((df["girls_out"] > 0).sum()), n),
        _rate_row(system, "p_girl_dead", int((df["girls_dead"] > 0).sum()), n),
        _rate_row(system, "wipe_rate", int((df["girls_standing"] == 0).sum()), n),
        _mean_row(system, "deaths_per_fight", df["girls_dead"].to_numpy(float)),
        _mean_row(system, "rounds", df["rounds"].to_numpy(float)),
    ]
    n_girls = len(data["sides"][0]["members"])
    counts = np.bincount(df["girls_dead"].to_numpy(), minlength=n_girls + 1)
    deaths = [{"system": system, "girls_dead": d, "share": c / n} for d, c in enumerate(counts)]
    counters = (get_system(system).simulate(inputs, 0, trials, key) if streams is None
                else streams.counters(system, inputs, trials))
    curve = counters["side_curve"][0] / n  # fights in which a girl stands at the end of round r
    survival = [{"system": system, "round": r, "girls_standing": float(curve[r])} for r in range(1, len(curve))]
    table = get_system(system).summarize(counters, inputs, system)["tables"]["combatants"]
    check = table[["combatant", "side", *CHECK_COLUMNS]].assign(system=system).to_dict("records")
    outcome, dead = df["outcome"].to_numpy(), df["girls_dead"].to_numpy()
    names = [m["name"] for m in data["sides"][0]["members"]]
    return {"metrics": metrics, "deaths": deaths, "survival": survival, "check": check,
            "conditional": LR.conditional(system, outcome, dead), "girls": LR.girls(system, table, names, n),
            "per_trial": (outcome, dead), "notes": list(inputs.notes)}


#: per-combatant columns every fight system shares (docs/metrics.md), shown side by
#: side so that the mapping's consequences can be checked (``check.csv``)
CHECK_COLUMNS = ("attacks", "hit_rate", "damage_dealt", "damage_taken", "ko_rate", "death_rate")


METRIC_LABELS = {
    "win_rate": "girls win",
    "p_girl_out": "a girl taken out",
    "p_girl_dead": "a girl dead",
    "wipe_rate": "no girl standing",
}
SYSTEM_TITLES = {"mb41": "4.1", "mb-draft": "4.1 draft", "d10": "d10 add-on"}


def load_study(path) -> LethalityFile:
    """Read and validate a lethality study file (``ScenarioError`` on any problem)."""
    from sim.scenario.errors import validate_model
    from sim.scenario.yamlload import load_yaml

    doc = load_yaml(path)
    return validate_model(LethalityFile, doc.data, doc)


def load_study_text(text: str, path_label: str = "<string>") -> LethalityFile:
    """Like :func:`load_study` for YAML text (``sim serve`` checks the editor's text)."""
    from sim.scenario.errors import validate_model
    from sim.scenario.yamlload import load_yaml_text

    doc = load_yaml_text(text, path_label)
    return validate_model(LethalityFile, doc.data, doc)


def run(study: LethalityFile, trials: int | None = None, seed: int | None = None,
        progress=None, streams=None) -> dict:
    """Play the study: returns tidy frames ``metrics``, ``deaths``, ``survival``,
    ``conditional``, ``differences``, ``girls``, ``sensitivity``, ``calibration``,
    ``check``, ``mapping``, the generated ``scenarios`` (plain data), the arms'
    ``assumptions``, the ``warnings`` and the ``reading``. ``progress(text)``: told what
    is playing; ``streams``: who plays the fights (``sim study`` gives a
    :class:`sim.study.file_streams.FileStreams`: kept, checkpointed, stopped within seconds;
    None: played at once). The numbers are the same either way."""
    trials = study.trials if trials is None else trials
    seed = study.seed if seed is None else seed
    key = rng.stream_key(seed, 0)
    gen = scenarios(study, trials, seed)
    cal_rows, final = [], {}
    for system, data in gen.items():
        if progress:
            progress(f"{system}: calibrating" if study.study.calibrate else f"{system}: playing")
        if study.study.calibrate is not None:
            data, rows = calibrate(system, data, study.study.calibrate, key, default_parameter(study, system),
                                   _copies(study, system), streams)
            cal_rows += rows
        final[system] = data
    parts = {"metrics": [], "deaths": [], "survival": [], "check": [], "conditional": [], "girls": []}
    per, notes = {}, []
    for system, data in final.items():
        if progress:
            progress(f"{system}: {trials} fights")
        got = measure(system, data, trials, key, streams)
        per[system] = got["per_trial"]
        notes += [f"{SYSTEM_TITLES[system]}: {x}" for x in got["notes"]]
        for k in parts:
            parts[k] += got[k]
    frames = {k: pd.DataFrame(v) for k, v in parts.items()}
    frames["check"] = frames["check"][["system", "combatant", "side", *CHECK_COLUMNS]]
    frames["differences"] = pd.DataFrame(LR.differences(per))
    frames["calibration"] = pd.DataFrame(cal_rows)
    frames["sensitivity"] = pd.DataFrame(sensitivity(study, frames["metrics"], trials, seed, key, progress, streams))
    frames["mapping"] = pd.DataFrame(mapping_rows(final))
    frames["scenarios"] = final
    frames["assumptions"] = list(dict.fromkeys(notes))
    girls_side = final[next(iter(final))]["sides"][0]["name"]
    frames["warnings"] = LR.warnings(frames["differences"], frames["check"], girls_side,
                                     study.study.calibrate is not None)
    frames["reading"] = reading(frames["metrics"], study.study.calibrate, frames["calibration"], frames)
    return frames


def sensitivity(study: LethalityFile, metrics: pd.DataFrame, trials: int, seed: int, key, progress=None,
                streams=None) -> list:
    """The mapping-sensitivity rows: d10 under each reasonable mapping (each offset of
    ``study.sensitivity`` added to each of its fields, one at a time), recalibrated when the
    study calibrates, on ``sensitivity.trials`` fights; the mapping as written first."""
    sens = study.study.sensitivity
    if sens is None or "d10" not in study.study.systems:
        return []
    n = sens.trials or max(1000, trials // 4)
    rows = [{"mapping": "as written", "system": "d10", "metric": m,
             "value": float(metrics[(metrics["system"] == "d10") & (metrics["metric"] == m)]["value"].iloc[0])}
            for m in ("deaths_per_fight", "p_girl_dead", "win_rate")]
    base = study.encounter.mapping
    for field in sens.fields:
        for off in sens.offsets:
            mp = base.model_copy(update={field: getattr(base, field) + off})
            label = f"{field} {getattr(mp, field)} ({off:+d})"
            if progress:
                progress(f"d10 mapping {label}")
            alt = study.model_copy(update={"encounter": study.encounter.model_copy(update={"mapping": mp}),
                                           "study": study.study.model_copy(update={"systems": ["d10"]})})
            data = scenarios(alt, n, seed)["d10"]
            if study.study.calibrate is not None:
                data, _ = calibrate("d10", data, study.study.calibrate, key, default_parameter(study, "d10"),
                                    _copies(study, "d10"), streams)
            got = measure("d10", data, n, key, streams)
            vals = {r["metric"]: r["value"] for r in got["metrics"]}
            rows += [{"mapping": label, "system": "d10", "metric": m, "value": float(vals[m])}
                     for m in ("deaths_per_fight", "p_girl_dead", "win_rate")]
    return rows


def expected_trials(study: LethalityFile, trials: int | None = None) -> int:
    """About how many trials :func:`run` plays (the total of its progress, an estimate): per
    system, a bisection of ``2 + log2(range)`` calibration steps of ``calibrate.trials`` fights,
    then the fights twice (per-trial rows, then the counters); the same for every mapping of the
    sensitivity band (d10)."""
    n = study.trials if trials is None else trials
    cal = study.study.calibrate

    def one(system: str, m: int) -> int:
        steps = 0
        if cal is not None:
            lo, hi = cal.range.get(system, DEFAULT_RANGE[system])
            steps = (2 + math.ceil(math.log2(max(2, hi - lo)))) * cal.trials
        return steps + 2 * m

    total = sum(one(s, n) for s in study.study.systems)
    sens = study.study.sensitivity
    if sens is not None and "d10" in study.study.systems:
        total += len(sens.fields) * len(sens.offsets) * one("d10", sens.trials or max(1000, n // 4))
    return int(total)


def _value(metrics: pd.DataFrame, system: str, metric: str) -> pd.Series:
    return metrics[(metrics["system"] == system) & (metrics["metric"] == metric)].iloc[0]


def reading(metrics: pd.DataFrame, cal: Calibrate | None, calibration: pd.DataFrame | None = None,
            frames: dict | None = None) -> str:
    """One paragraph: the girls' win rate in each system first (the base of the comparison),
    each system's deaths per fight (per won and per lost fight when ``frames`` has them) and
    P(a girl dies), any system the calibration could not bring to the target, the difference
    between the most and the least lethal with its interval, and the mapping-sensitivity band."""
    systems = list(dict.fromkeys(metrics["system"]))
    wins = "; ".join(f"{SYSTEM_TITLES[s]} {_value(metrics, s, 'win_rate').value:.1%} "
                     f"[{_value(metrics, s, 'win_rate').lo:.1%}, {_value(metrics, s, 'win_rate').hi:.1%}]"
                     for s in systems)
    head = (f"Girls' win rate, calibrated to {cal.win_rate:.0%}: " if cal is not None
            else "Girls' win rate on the encounter as mapped (not calibrated): ")
    cond = frames.get("conditional") if frames else None
    parts = []
    for s in systems:
        d, p = (_value(metrics, s, m) for m in ("deaths_per_fight", "p_girl_dead"))
        text = f"{SYSTEM_TITLES[s]} kills {d.value:.2f} girls a fight [{d.lo:.2f}, {d.hi:.2f}]"
        if cond is not None and len(cond):
            c = cond[cond["system"] == s].set_index("fights")
            text += (f" ({c.loc['won fights', 'deaths']:.2f} per won fight, "
                     f"{c.loc['lost fights', 'deaths']:.2f} per lost one)")
        parts.append(text + f", a girl dying in {p.value:.0%} of fights ({p.lo:.0%}-{p.hi:.0%})")
    text = head + wins + ". " + "; ".join(parts) + "."
    if calibration is not None and len(calibration):
        off = list(dict.fromkeys(calibration.loc[~calibration["target_reached"], "system"]))
        if off:
            text += (" " + ", ".join(SYSTEM_TITLES[s] for s in off) + " could not be brought to the "
                     "target within the calibrated parameter's range (calibration.csv); compare with care.")
    ranked = sorted(systems, key=lambda s: -_value(metrics, s, "deaths_per_fight").value)
    if len(ranked) > 1:
        text += " " + _gap(metrics, ranked[0], ranked[-1], frames)
    return text


def _pair(diffs: pd.DataFrame, a: str, b: str, metric: str) -> dict | None:
    """The row ``a - b`` of ``metric`` (flipped from ``b - a`` if need be)."""
    for x, y, sign in ((a, b, 1), (b, a, -1)):
        r = diffs[(diffs["a"] == x) & (diffs["b"] == y) & (diffs["metric"] == metric)]
        if len(r):
            r = r.iloc[0]
            lo, hi = (r["lo"], r["hi"]) if sign == 1 else (-r["hi"], -r["lo"])
            return {"diff": sign * r["diff"], "lo": lo, "hi": hi}
    return None


def _gap(metrics, a: str, b: str, frames: dict | None) -> str:
    """The most minus the least lethal: the difference with its interval, and its band over the mappings."""
    diffs = frames.get("differences") if frames else None
    d = _pair(diffs, a, b, "deaths_per_fight") if diffs is not None and len(diffs) else None
    if d is None:  # no per-trial differences: compare the intervals
        va, vb = _value(metrics, a, "deaths_per_fight"), _value(metrics, b, "deaths_per_fight")
        return (f"{SYSTEM_TITLES[a]} is the most lethal and {SYSTEM_TITLES[b]} the least"
                + (", and their intervals do not overlap." if va.lo > vb.hi else
                   ", but their intervals overlap: more trials are needed to tell them apart."))
    won = _pair(diffs, a, b, "deaths_per_won_fight")
    sep = d["lo"] > 0
    text = (f"{SYSTEM_TITLES[a]} minus {SYSTEM_TITLES[b]}: {d['diff']:+.2f} girls dead a fight "
            f"[{d['lo']:+.2f}, {d['hi']:+.2f}]"
            + (f", {won['diff']:+.2f} per won fight [{won['lo']:+.2f}, {won['hi']:+.2f}]" if won else "")
            + (f": {SYSTEM_TITLES[a]} is the more lethal." if sep else
               ": the trials cannot tell which is more lethal."))
    sens = frames.get("sensitivity")
    if sens is not None and len(sens) and "d10" in (a, b):
        lo, hi = LR.band(sens.to_dict("records"), "d10", "deaths_per_fight")
        other = b if a == "d10" else a
        v = _value(metrics, other, "deaths_per_fight").value
        gaps = sorted((x - v) if a == "d10" else (v - x) for x in (lo, hi))
        holds = gaps[0] > 0 or gaps[1] < 0
        text += (f" Over reasonable mappings (sensitivity.csv: {', '.join(sorted(set(sens['mapping'])))}) d10 "
                 f"kills {lo:.2f}-{hi:.2f} girls a fight, so the difference ranges {gaps[0]:+.2f} to "
                 f"{gaps[1]:+.2f}: " + ("its sign holds over the mappings." if holds else
                                        "its sign depends on the mapping, not only on the rules."))
    return text


def chart(frames: dict, path: Path) -> Path:
    """``lethality.png``: every system on one axis (rates with 95% intervals),
    girls dead per fight, and survival per round."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    from sim.report.charts import _save

    m, deaths, surv = frames["metrics"], frames["deaths"], frames["survival"]
    systems = list(dict.fromkeys(m["system"]))
    colours = {"mb41": "#8b0000", "mb-draft": "#d08000", "d10": "#2a7ab0"}
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    ax_r, ax_d, ax_s = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.3, 1.0, 1.2]})
    labels = list(METRIC_LABELS)
    y = np.arange(len(labels))
    for k, s in enumerate(systems):
        sub = m[m["system"] == s].set_index("metric").loc[labels]
        off = (k - (len(systems) - 1) / 2) * 0.22
        err = np.vstack([sub["value"] - sub["lo"], sub["hi"] - sub["value"]])
        ax_r.errorbar(sub["value"], y + off, xerr=err, fmt="o", color=colours[s], capsize=2,
                      label=SYSTEM_TITLES[s])
    ax_r.set_yticks(y, [METRIC_LABELS[x] for x in labels])
    ax_r.set_ylim(len(labels) - 0.5, -0.5)
    ax_r.set_xlim(0, 1)
    ax_r.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_r.set_title("share of fights (95% intervals)", fontsize="small")
    ax_r.legend(fontsize="small", loc="lower right")
    width = 0.8 / max(1, len(systems))
    for k, s in enumerate(systems):
        sub = deaths[deaths["system"] == s]
        ax_d.bar(sub["girls_dead"] + (k - (len(systems) - 1) / 2) * width, sub["share"], width,
                 color=colours[s], label=SYSTEM_TITLES[s])
    ax_d.set_xlabel("girls dead in the fight")
    ax_d.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_d.set_title("deaths per fight", fontsize="small")
    changing = surv.groupby("system")["girls_standing"].diff().fillna(0).abs() > 1e-9
    last = int(surv.loc[changing, "round"].max()) + 2 if changing.any() else int(surv["round"].max())
    for s in systems:
        sub = surv[(surv["system"] == s) & (surv["round"] <= last)]
        ax_s.plot(sub["round"], sub["girls_standing"], color=colours[s], label=SYSTEM_TITLES[s])
    ax_s.set_xlabel("round (the curves are flat beyond)")
    ax_s.set_ylim(0, 1.02)
    ax_s.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_s.set_title("a girl still standing at the end of the round", fontsize="small")
    for ax in (ax_r, ax_d, ax_s):
        ax.grid(color="0.92")
        ax.set_axisbelow(True)
    caption = ("Lethality on shared definitions, one colour per rule system: the share of fights the "
               "girls win, in which at least one girl is taken out, at least one dies, and none is "
               "left standing (95% Wilson intervals); how many girls die per fight; and the share of "
               "fights in which a girl still stands after each round.")
    return _save(fig, path, caption=caption, variants=[SYSTEM_TITLES[s] for s in systems],
                 title="Lethality across rule systems")


#: the study's tables: file stem -> frame of :func:`run` (the first is the main one)
TABLES = {"lethality": "metrics", "differences": "differences", "conditional": "conditional", "girls": "girls",
          "sensitivity": "sensitivity", "deaths": "deaths", "survival": "survival", "calibration": "calibration",
          "check": "check", "mapping": "mapping"}


def section(study: LethalityFile, frames: dict):
    """The report section (:class:`sim.study.report.Section`): the reading, the chart
    and the tables of :data:`TABLES` (written as ``<stem>.csv``)."""
    from sim.study.report import Section

    notes = ["Every system plays the same number of fights on keyed streams; the generated scenarios "
             "are in scenarios/<system>.yaml (rerun any with sim run).",
             "check.csv shows each combatant in each system on the shared columns: if the hit rates differ "
             "much, the mapping (docs/lethality.md, encounter.mapping) makes a different fight, and the "
             "calibration compensates with the enemy's toughness."]
    notes.append("differences.csv: each pair of systems a - b, deaths per fight and per won fight (Welch) and "
                 "rates (Newcombe, independent samples: the systems play different fights); conditional.csv: "
                 "girls dead per fight, per won and per lost fight; girls.csv: each girl's survival.")
    return Section(kind="lethality", title="Lethality across rule systems", reading=frames["reading"],
                   tables={stem: frames[key] for stem, key in TABLES.items() if key in frames},
                   charts={"lethality.png": lambda p: chart(frames, p)}, notes=notes,
                   warnings=list(frames.get("warnings", [])), assumptions=list(frames.get("assumptions", [])))


def provenance(study: LethalityFile, frames: dict, trials: int, seed: int) -> dict:
    """What the run used: the study, seed, trials per system, systems, versions."""
    import datetime as _dt
    import platform

    import sim
    from sim.runner import git_commit

    return {"study": study.name, "seed": int(seed), "trials": int(trials),
            "systems": list(frames["scenarios"]), "common_random_numbers": True,
            "encounter": study.encounter.model_dump(mode="json"),
            "calibrate": study.study.calibrate.model_dump(mode="json") if study.study.calibrate else None,
            "sensitivity": study.study.sensitivity.model_dump(mode="json") if study.study.sensitivity else None,
            "assumptions": list(frames.get("assumptions", [])),
            "package": "mgsim", "version": sim.__version__, "git_commit": git_commit(),
            "python": platform.python_version(), "numpy": np.__version__, "pandas": pd.__version__,
            "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}


def files(frames: dict) -> dict[str, str]:
    """The generated scenario of each system, ``scenarios/<system>.yaml``."""
    return {f"scenarios/{system}.yaml": yaml.safe_dump(data, sort_keys=False)
            for system, data in frames["scenarios"].items()}
