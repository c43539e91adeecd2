"""Vega-Lite charts of a run, from the same tidy tables as its report.

The page draws these with vega-embed: hover shows a point's rate, interval
and trials; clicking a legend entry shows that variant alone (shift-click adds
more); the chart's menu exports PNG and SVG. Colours are the Okabe-Ito
palette (distinguishable with the common colour-vision deficiencies), marks
differ by shape too, and round axes have integer ticks.

The first chart answers the scenario as the report's first chart does
(:func:`answer_name`: the plug-in's ``report_page()["headline"]`` order: an
episode's progress, the card matchup matrix, else the win rates). Every
number is one the run already returned (rates and 95% Wilson intervals from
``summary.json``, shares of fights from ``rounds.csv``, curves from
``curves.csv``): nothing here estimates anything. Shares of fights per
length are the report's own (``count / total`` per variant).
"""
from __future__ import annotations

import pandas as pd

from sim.report.charts import length_limit

#: Okabe & Ito (2008), "Color Universal Design": black moved last
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-right",
          "triangle-left"]
#: outcome -> colour of the win-rate chart (blue, vermillion, grey)
OUTCOME_COLOURS = {"win": "#0072B2", "loss": "#D55E00", "draw": "#7f7f7f"}
#: most rows a chart sends to the page (a 1,000-variant sweep's survival curves are in curves.csv)
MAX_ROWS = 20_000

_PCT = {"format": ".0%"}


def _pct(x) -> str:
    return f"{100 * float(x):.1f}%"


def _interval(lo, hi) -> str:
    return f"[{_pct(lo)}, {_pct(hi)}]"


def _variant_colour(variants: list) -> dict:
    return {"field": "variant", "type": "nominal", "sort": variants, "title": "variant",
            "scale": {"domain": variants, "range": [PALETTE[i % len(PALETTE)] for i in range(len(variants))]},
            "legend": {"symbolLimit": 60, "labelLimit": 220}}


def _legend_pick() -> dict:
    return {"name": "pick", "select": {"type": "point", "fields": ["variant"]}, "bind": "legend"}


_FADE = {"condition": {"param": "pick", "value": 1}, "value": 0.12}


def win_rate_spec(rows: list[dict], side: str, terms: dict) -> dict:
    """Win, loss and draw rate of the first side per variant with 95% Wilson intervals
    (a variant's colour is its colour in every chart; the shape is the outcome)."""
    variants = [str(r["variant"]) for r in rows]
    data = []
    for r in rows:
        for outcome in ("win", "loss", "draw"):
            data.append({"variant": str(r["variant"]), "outcome": outcome, "rate": r[f"{outcome}_rate"],
                         "lo": r[f"{outcome}_lo"], "hi": r[f"{outcome}_hi"], "trials": int(r["trials"]),
                         "interval": _interval(r[f"{outcome}_lo"], r[f"{outcome}_hi"])})
    order = ["win", "loss", "draw"]
    x = {"type": "quantitative", "scale": {"domain": [0, 1]},
         "axis": {**_PCT, "title": f"share of {terms['fights']} (bars: 95% interval)"}}
    rows_enc = {"y": {"field": "variant", "type": "nominal", "sort": variants, "title": None,
                      "axis": {"labelLimit": 200}},
                "yOffset": {"field": "outcome", "type": "nominal", "sort": order},
                "color": _variant_colour(variants), "opacity": _FADE,
                "tooltip": [{"field": "variant"}, {"field": "outcome"}, {"field": "rate", "format": ".1%"},
                            {"field": "interval", "title": "95% interval"},
                            {"field": "trials", "format": ",", "title": terms["trials"]}]}
    return {
        "description": f"Win, loss and draw rates of {side} per variant (shape: the outcome), as shares "
                       f"of {terms['fights']}, with 95% Wilson intervals; the dashed line is 50%.",
        "title": f"win rate of {side}",
        "data": {"values": data},
        "height": {"step": 16 if len(variants) <= 6 else 11},
        "layer": [
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {**rows_enc, "x": {"field": "lo", **x}, "x2": {"field": "hi"}}},
            {"mark": {"type": "point", "filled": True, "size": 60}, "params": [_legend_pick()],
             "encoding": {**rows_enc, "x": {"field": "rate", **x},
                          "shape": {"field": "outcome", "type": "nominal", "sort": order, "title": "outcome",
                                    "scale": {"domain": order, "range": SHAPES[:3]}}}},
            {"mark": {"type": "rule", "strokeDash": [3, 3], "color": "#999"},
             "encoding": {"x": {"datum": 0.5, "type": "quantitative"}}},
        ],
    }


def length_spec(rounds: pd.DataFrame, variants: list, terms: dict) -> dict | None:
    """The share of fights that ended after each number of rounds, one line per variant."""
    if rounds is None or rounds.empty or rounds["count"].sum() <= 0:
        return None
    limit, beyond = length_limit(rounds["rounds"], rounds["count"])
    data = []
    for v, d in rounds.groupby("variant", sort=False):
        total = float(d["count"].sum())
        if total <= 0:
            continue
        for r, c in zip(d["rounds"], d["count"]):
            if limit is None or r <= limit:
                data.append({"variant": str(v), "rounds": int(r), "share": float(c) / total, "count": int(c)})
    data = data[:MAX_ROWS]
    note = (f" Axis cut at {terms['round']} {limit:g} (the 99.5th percentile); {100 * beyond:.2f}% of "
            f"{terms['fights']} ran longer." if limit is not None and beyond > 0 else "")
    return {
        "description": f"How long {terms['fights']} last, one line per variant.{note}",
        "title": f"{terms['fight']} length",
        "data": {"values": data},
        "params": [_legend_pick()],
        "mark": {"type": "line", "point": True, "interpolate": "linear"},
        "encoding": {
            "x": {"field": "rounds", "type": "quantitative", "title": f"{terms['rounds']}",
                  "axis": {"tickMinStep": 1, "format": "d"}, "scale": {"zero": False, "nice": False}},
            "y": {"field": "share", "type": "quantitative", "title": f"share of {terms['fights']}", "axis": _PCT},
            "color": _variant_colour(variants),
            "shape": {"field": "variant", "type": "nominal", "sort": variants, "legend": None,
                      "scale": {"domain": variants, "range": [SHAPES[i % len(SHAPES)] for i in range(len(variants))]}},
            "opacity": _FADE,
            "tooltip": [{"field": "variant"}, {"field": "rounds", "title": terms["rounds"]},
                        {"field": "share", "format": ".1%"}, {"field": "count", "format": ",",
                                                              "title": terms["fights"]}],
        },
    }


def survival_spec(curves: pd.DataFrame, variants: list, terms: dict) -> dict | None:
    """Per-round curves (share of fights still running, sides standing...): pick one in the menu."""
    if curves is None or curves.empty:
        return None
    metrics = list(dict.fromkeys(str(m) for m in curves["metric"]))
    data = [{"variant": str(v), "round": int(r), "metric": str(m), "value": float(x)}
            for v, r, m, x in zip(curves["variant"], curves["round"], curves["metric"], curves["value"])]
    data = data[:MAX_ROWS]
    return {
        "description": f"Per-{terms['round']} curves: the share of {terms['fights']} in each state after "
                       f"each {terms['round']}, one line per variant; choose the curve in the menu.",
        "title": f"after each {terms['round']}",
        "data": {"values": data},
        "params": [_legend_pick(),
                   {"name": "curve", "value": metrics[0],
                    "bind": {"input": "select", "options": metrics, "name": "curve "}}],
        "transform": [{"filter": "datum.metric === curve"}],
        "mark": {"type": "line", "point": {"size": 18}},
        "encoding": {
            "x": {"field": "round", "type": "quantitative", "title": terms["round"],
                  "axis": {"tickMinStep": 1, "format": "d"}},
            "y": {"field": "value", "type": "quantitative", "title": f"share of {terms['fights']}",
                  "scale": {"domain": [0, 1]}, "axis": _PCT},
            "color": _variant_colour(variants),
            "opacity": _FADE,
            "tooltip": [{"field": "variant"}, {"field": "metric", "title": "curve"},
                        {"field": "round", "title": terms["round"]}, {"field": "value", "format": ".1%"}],
        },
    }


def matchup_spec(matchups: pd.DataFrame, terms: dict) -> dict | None:
    """Side A's win rate per pair of decks (A down, B across), one panel per pair of players."""
    if matchups is None or matchups.empty:
        return None
    data = [{"deck_a": str(r["deck_a"]), "deck_b": str(r["deck_b"]),
             "players": f"A plays {r['policy_a']}, B plays {r['policy_b']}", "win_a": float(r["win_a"]),
             "interval": _interval(r["win_a_lo"], r["win_a_hi"]), "games": int(r["games"]),
             "label": f"{100 * float(r['win_a']):.0f}%"}
            for r in matchups.to_dict(orient="records")]
    enc = {"x": {"field": "deck_b", "type": "nominal", "title": "deck B", "sort": None},
           "y": {"field": "deck_a", "type": "nominal", "title": "deck A", "sort": None}}
    return {
        "description": "Side A's win rate for each pair of decks with its 95% interval; blue favours A, "
                       "orange favours B.",
        "title": "matchups: side A's win rate",
        "data": {"values": data},
        "facet": {"field": "players", "type": "nominal", "title": None},
        "columns": 2,
        "spec": {"width": {"step": 64}, "height": {"step": 40}, "layer": [
            {"mark": "rect", "encoding": {**enc, "color": {
                "field": "win_a", "type": "quantitative", "title": "A wins",
                "scale": {"scheme": "blueorange", "domain": [0, 1], "reverse": True}, "legend": {"format": ".0%"}},
                "tooltip": [{"field": "deck_a", "title": "deck A"}, {"field": "deck_b", "title": "deck B"},
                            {"field": "win_a", "format": ".1%", "title": "A wins"},
                            {"field": "interval", "title": "95% interval"},
                            {"field": "games", "format": ",", "title": terms["trials"]}]}},
            {"mark": {"type": "text", "fontSize": 11}, "encoding": {**enc, "text": {"field": "label"}}},
        ]},
    }


def episode_spec(progress: pd.DataFrame, variants: list) -> dict | None:
    """Episodes: the share that ended in each scene (and that won the last), with 95% intervals."""
    if progress is None or progress.empty:
        return None
    stages = list(dict.fromkeys(progress.sort_values("stage")["stage_name"].astype(str)))
    data = [{"variant": str(r["variant"]), "stage": str(r["stage_name"]), "rate": float(r["rate"]),
             "lo": float(r["lo"]), "hi": float(r["hi"]), "episodes": int(r["episodes"]),
             "interval": _interval(r["lo"], r["hi"])} for r in progress.to_dict(orient="records")]
    x = {"type": "quantitative", "scale": {"domain": [0, 1]}, "axis": {**_PCT, "title": "share of episodes"}}
    return {
        "description": "How far the party got: the share of episodes that ended in each scene, and that "
                       "won the last one, with 95% Wilson intervals.",
        "title": "how far the party got",
        "data": {"values": data},
        "height": {"step": 12},
        "encoding": {"y": {"field": "stage", "type": "nominal", "sort": stages, "title": None},
                     "yOffset": {"field": "variant", "type": "nominal", "sort": variants},
                     "color": _variant_colour(variants),
                     "tooltip": [{"field": "variant"}, {"field": "stage"}, {"field": "rate", "format": ".1%"},
                                 {"field": "interval", "title": "95% interval"},
                                 {"field": "episodes", "format": ","}]},
        "layer": [{"mark": "bar", "params": [_legend_pick()], "encoding": {"x": {"field": "rate", **x},
                                                                           "opacity": _FADE}},
                  {"mark": {"type": "rule", "color": "#333"},
                   "encoding": {"x": {"field": "lo", **x}, "x2": {"field": "hi"}, "color": None}}],
    }


def answer_name(system_headline: tuple, tables: dict) -> str:
    """Which chart answers the run: the first of the plug-in's headline charts the run has data for."""
    have = {"episode_progress.png": "episode_progress" in tables, "matchup_matrix.png": "matchups" in tables}
    for name in (*system_headline, "win_rate.png"):
        if name == "win_rate.png" or have.get(name):
            return name
    return "win_rate.png"


def run_charts(rows, rounds, curves, tables: dict, side: str, terms: dict, headline: tuple) -> list[dict]:
    """The charts of a run for the page, the answering one first: ``[{"name", "title", "spec"}]``."""
    variants = [str(r["variant"]) for r in rows]
    answer = answer_name(headline, tables)
    charts = []
    if answer == "matchup_matrix.png":
        charts.append(("matchups", matchup_spec(tables.get("matchups"), terms)))
    elif answer == "episode_progress.png":
        charts.append(("episode", episode_spec(tables.get("episode_progress"), variants)))
    charts.append(("win_rate", win_rate_spec(rows, side, terms)))
    charts.append(("length", length_spec(rounds, variants, terms)))
    charts.append(("survival", survival_spec(curves, variants, terms)))
    return [{"name": name, "title": spec["title"], "caption": spec["description"], "spec": spec}
            for name, spec in charts if spec is not None]
