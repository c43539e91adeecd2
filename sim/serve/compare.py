"""Compare runs, or variants of one run: side by side, their YAML, and paired differences.

Side by side (:func:`side_by_side`) puts the ticked rows of each run's
``summary.json`` in one table, with the seed and trials each used.
:func:`yaml_diff` is a unified diff of the scenario texts the runs were made
from.

Paired differences (:func:`paired`) are what ``sim study`` compare computes
(:mod:`sim.study.paired`), for runs that share a system, a seed and a number
of trials on common random numbers (:func:`pairable` says why not when they
do not). Runs keep only counters, so the worker replays each ticked variant's
trials one by one (:func:`sim.trials.per_trial`, the same streams the run
used: ``stream_key(seed, 0)``) and checks that the replay wins exactly as
often as the run did before comparing trial ``i`` with trial ``i``: the
win-rate difference with Newcombe's paired interval and the exact McNemar
p-value, the mean differences (rounds; girls out and dead where the system
has them) with the paired t interval. A variant whose outcome equals the
reference's on every trial is flagged: its change did nothing these trials
could see.
"""
from __future__ import annotations

import difflib

#: most rows compared at once
MAX_ITEMS = 12
#: lines of a YAML diff sent to the page
MAX_DIFF_LINES = 400


def item_label(entry: dict, variant: str) -> str:
    """``quickstart · 23:32:36 · never boost``: the scenario, the run's label (else its UTC
    start time, else its id) and the variant."""
    created = str(entry.get("created") or "")
    label = entry.get("label") or (created[11:19] + " UTC" if len(created) >= 19 else entry["id"].split("/", 1)[1])
    return f"{entry['scenario']} · {label} · {variant}"


def side_by_side(store, items: list[dict]) -> list[dict]:
    """One row per ticked ``{"run", "variant"}``: the summary row and the run's seed, trials and label."""
    rows = []
    for it in items[:MAX_ITEMS]:
        view = store.view(it["run"])
        if view["kind"] != "run":
            continue
        row = next((r for r in view["rows"] if str(r["variant"]) == str(it["variant"])), None)
        if row is None:
            continue
        entry = view["run"]
        rows.append({**row, "run": it["run"], "label": item_label(entry, row["variant"]), "seed": view["seed"],
                     "system": view["system"], "crn": view["crn"], "created": view["created"]})
    return rows


def yaml_diff(store, runs: list[str]) -> list[dict]:
    """``[{"a", "b", "lines"}]``: the unified diff of each ticked run's text against the first's."""
    texts = []
    for run in dict.fromkeys(runs):
        text, _ = store.text(run)
        texts.append((run, text))
    out = []
    if not texts:
        return out
    first, a = texts[0]
    for run, b in texts[1:]:
        if a is None or b is None:
            out.append({"a": first, "b": run, "lines": [], "missing": True})
            continue
        lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), first, run, n=2, lineterm=""))
        out.append({"a": first, "b": run, "lines": lines[:MAX_DIFF_LINES], "cut": len(lines) > MAX_DIFF_LINES})
    return out


def groups(items: list[dict]) -> list[tuple[str | None, list[dict]]]:
    """How ticked items pair up: across two or more runs, each variant with the variants of
    the same name (the first run is the reference); within one run, all its ticked variants."""
    if len({it["run"] for it in items}) < 2:
        return [(None, list(items))]
    by: dict[str, list[dict]] = {}
    for it in items:
        by.setdefault(str(it["variant"]), []).append(it)
    return list(by.items())


def _replay_item(store, it: dict) -> tuple[str | None, dict | None]:
    entry = store.view(it["run"])["run"]
    if entry["kind"] != "run":
        return "studies are compared inside their own report", None
    text, _ = store.text(it["run"])
    if text is None:
        return (f"the scenario text of {it['run']} is not kept (and its file has changed), so its trials "
                "cannot be replayed"), None
    if str(it["variant"]) not in entry["variants"]:
        return f"run {it['run']} has no variant {it['variant']!r}", None
    k = entry["variants"].index(str(it["variant"]))
    return None, {"text": text, "label": entry.get("file") or f"{entry['scenario']}.yaml",
                  "variant": str(it["variant"]), "seed": entry["seed"], "trials": entry["trials_each"][k],
                  "wins": entry["wins"][k], "system": entry["system"], "crn": entry["crn"],
                  "name": item_label(entry, str(it["variant"]))}


def pairable(store, items: list[dict]) -> tuple[str | None, list[dict]]:
    """``(reason, replays)`` for one group: why its items cannot be paired (None if they can),
    and what the worker replays per item: ``{"text", "label", "variant", "seed", "trials",
    "wins", "system", "crn", "name"}``."""
    if len(items) < 2:
        return "only in one of the ticked runs: nothing to pair it with", []
    jobs = []
    for it in items[:MAX_ITEMS]:
        reason, job = _replay_item(store, it)
        if reason:
            return reason, []
        jobs.append(job)
    systems = {j["system"] for j in jobs}
    if len(systems) > 1:
        return f"the runs use different rule systems ({', '.join(sorted(systems))}): no trial is shared", []
    if not all(j["crn"] for j in jobs):
        return "a run has crn: false (independent random numbers): its trials are not paired", []
    if len({j["seed"] for j in jobs}) > 1:
        return "the runs use different seeds: trial i is not the same fight in each; rerun with one seed", []
    if len({j["trials"] for j in jobs}) > 1:
        return "the runs played different numbers of trials; the paired difference needs the same trials", []
    return None, jobs


def plan(store, items: list[dict]) -> list[dict]:
    """Every group of the ticked items (:func:`groups`): ``{"variant", "reason", "items"}``,
    ``items`` the replays when the group can be paired."""
    out = []
    for variant, group in groups(items):
        reason, replays = pairable(store, group)
        out.append({"variant": variant, "reason": reason, "items": replays})
    return out


def _replay(item: dict):
    """Per-trial metrics of one item (:func:`sim.study.arms.metric_columns`), checked against its run."""
    from sim import rng
    from sim.runner import RunError
    from sim.scenario import load_scenario_text
    from sim.study.arms import metric_columns
    from sim.trials import per_trial

    loaded = load_scenario_text(item["text"], item["label"])
    model = dict(loaded.variants).get(item["variant"])
    if model is None:
        raise RunError(f"the kept scenario text has no variant {item['variant']!r}")
    inputs = loaded.module.compile(model)
    df = per_trial(loaded.system, inputs, 0, int(item["trials"]), rng.stream_key(int(item["seed"]), 0))
    wins = int((df["outcome"].to_numpy() == 0).sum())
    if wins != int(item["wins"]):
        raise RunError(f"replaying {item['name']} gave {wins:,} wins where the run had {int(item['wins']):,}: "
                       "the run was made by another version of mgsim, so its trials cannot be paired; "
                       "run it again")
    return df["outcome"].to_numpy(), metric_columns(df)


def paired_groups(groups_: list[dict], ctx=None, alpha: float = 0.05) -> dict:
    """:func:`paired` for every pairable group: ``{"groups": [{"variant", "reference", "alpha", "rows"}]}``."""
    out = []
    todo = [g for g in groups_ if g.get("items")]
    for k, g in enumerate(todo):
        if ctx is not None:
            ctx.send("progress", done=k, total=len(todo), estimate=False, elapsed=None, rate=None, eta=None,
                     unit="groups")
        out.append({"variant": g.get("variant"), **paired(g["items"], alpha=alpha)})
    return {"groups": out}


def paired(items: list[dict], ctx=None, alpha: float = 0.05) -> dict:
    """Each item against the first, trial by trial (module doc): ``{"reference", "rows"}``,
    a row per item and metric with ``diff, lo, hi, p`` (and ``discordant`` for the win rate)
    and ``identical`` (the outcome equal on every trial)."""
    import numpy as np

    from sim.study.paired import difference

    replays = []
    for k, it in enumerate(items):
        if ctx is not None:
            ctx.send("progress", done=k, total=len(items), estimate=False, elapsed=None, rate=None, eta=None,
                     unit="replays")
        replays.append(_replay(it))
    (ref_out, ref), rows = replays[0], []
    for it, (out, m) in zip(items[1:], replays[1:]):
        identical = bool(np.array_equal(out, ref_out))
        for metric in m:
            if metric not in ref:
                continue
            d = difference(metric, m[metric], ref[metric], alpha)
            rows.append({"name": it["name"], "against": items[0]["name"], "metric": metric,
                         "value": float(m[metric].mean()), "against_value": float(ref[metric].mean()),
                         "trials": int(it["trials"]), "identical": identical, **d})
    return {"reference": items[0]["name"], "alpha": alpha, "rows": rows}
