"""What the page shows of a run or a study: plain JSON-able data built from its tables.

:func:`run_view` takes what ``sim run --json`` prints (``RunResult.to_dict()``,
also ``summary.json``) and the run's ``rounds`` and ``curves`` tables; the
same function serves a run just finished (from the worker) and a run read back
from ``results/`` (:mod:`sim.serve.runs`), so the page shows both alike.
:func:`study_view` does the same for a study (``study.json``).
"""
from __future__ import annotations

import math

import pandas as pd

from .charts import run_charts

#: summary columns the results table shows (more are in summary.csv)
ROW_KEYS = ("variant", "trials", "wins", "losses", "draws", "win_rate", "win_lo", "win_hi", "loss_rate",
            "loss_lo", "loss_hi", "draw_rate", "draw_lo", "draw_hi", "mean_rounds", "mean_rounds_se",
            "scenes", "scenes_won")
#: rows of a study table sent to the page (all are in its CSV)
MAX_STUDY_ROWS = 500


def _clean(v):
    """JSON-safe scalar: NaN and infinities become None, numpy scalars Python ones."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def _records(df: pd.DataFrame, limit: int | None = None) -> list[dict]:
    if df is None:
        return []
    if limit is not None:
        df = df.head(limit)
    return [{str(k): _clean(v) for k, v in r.items()} for r in df.to_dict(orient="records")]


def system_page(system: str) -> dict:
    """The plug-in's ``report_page()`` (terms, headline), empty for an unknown system."""
    from sim.report.fmt import DEFAULT_TERMS
    from sim.systems import SYSTEMS, get_system

    page = {}
    if system in SYSTEMS:
        mod = get_system(system)
        page = dict(mod.report_page()) if hasattr(mod, "report_page") else {}
    return {"terms": {**DEFAULT_TERMS, **(page.get("terms") or {})}, "headline": tuple(page.get("headline") or ())}


def run_view(d: dict, rounds: pd.DataFrame, curves: pd.DataFrame) -> dict:
    """The page's view of a run: ``d`` is ``RunResult.to_dict()`` (tables included)."""
    page = system_page(d.get("system", ""))
    terms = page["terms"]
    rows = [{k: _clean(r.get(k)) for k in ROW_KEYS if k in r} for r in d.get("results", [])]
    tables = {name: pd.DataFrame(recs) for name, recs in (d.get("tables") or {}).items()
              if name in ("matchups", "episode_progress")}
    sides = list(d.get("sides") or [])
    side = sides[0] if sides else "the first side"
    prov = d.get("provenance") or {}
    return {
        "kind": "run", "scenario": d.get("scenario"), "system": d.get("system"), "seed": d.get("seed"),
        "sides": sides, "terms": terms, "rows": rows, "notes": list(d.get("notes") or []),
        "crn": bool(prov.get("common_random_numbers", True)), "precision": prov.get("precision"),
        "created": prov.get("created_utc"), "sha256": prov.get("scenario_sha256"),
        "charts": run_charts(rows, rounds, curves, tables, side, terms, page["headline"]),
    }


def study_view(payload: dict, charts: list[str]) -> dict:
    """The page's view of a study: ``payload`` is ``study.json`` (``provenance``, ``studies``);
    ``charts`` the PNG file names written beside it (the first is the study's main chart)."""
    prov = payload.get("provenance") or {}
    sections = []
    for s in payload.get("studies") or []:
        tables = {stem: _records(pd.DataFrame(recs), MAX_STUDY_ROWS) for stem, recs in (s.get("tables") or {}).items()}
        sections.append({"kind": s.get("kind"), "title": s.get("title"), "reading": s.get("reading"),
                         "notes": list(s.get("notes") or []), "tables": tables})
    return {"kind": "study", "scenario": prov.get("scenario") or prov.get("study_file"),
            "system": prov.get("system") or prov.get("kind"), "seed": prov.get("seed"),
            "created": prov.get("created_utc"), "sections": sections, "charts": list(charts)}
