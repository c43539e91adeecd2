"""The plain-data result of a run, handed from the runner to the report layer.

All tables are tidy pandas DataFrames. ``summary`` has one row per variant
with at least the columns of :data:`SUMMARY_COLUMNS`; rates are fractions in
[0, 1], ``*_lo``/``*_hi`` are 95% Wilson bounds, rounds are combat rounds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

SUMMARY_COLUMNS = [
    "variant", "trials", "wins", "losses", "draws",
    "win_rate", "win_lo", "win_hi",
    "loss_rate", "loss_lo", "loss_hi",
    "draw_rate", "draw_lo", "draw_hi",
    "mean_rounds",
]


@dataclass
class RunResult:
    """Everything a run produced.

    scenario:   scenario name (the ``name:`` field)
    system:     rule system name (``mb41``...)
    seed:       master seed
    provenance: JSON-able dict (scenario hash, seed, trials, package and
                library versions, git commit, rule options used per variant)
    summary:    one row per variant (see SUMMARY_COLUMNS; more columns allowed)
    curves:     tidy per-round curves: columns ``variant, round, metric, value``
                (``value`` a fraction of trials; e.g. metric ``ongoing`` = share
                of fights still running after that round)
    rounds:     fight-length distribution: ``variant, rounds, count``
    tables:     further tidy tables by name (e.g. ``combatants``), each
                written as ``<name>.csv`` and shown in the report
    notes:      assumptions and remarks to print in the report
    side_names: names of the sides, first side first (its wins are ``wins``)
    """

    scenario: str
    system: str
    seed: int
    provenance: dict
    summary: pd.DataFrame
    curves: pd.DataFrame
    rounds: pd.DataFrame
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    side_names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The ``sim run --json`` object (also written as ``summary.json``)."""
        results = []
        for rec in self.summary.to_dict(orient="records"):
            row = {k: _plain(v) for k, v in rec.items()}
            row["win_ci"] = [row["win_lo"], row["win_hi"]]
            row["loss_ci"] = [row["loss_lo"], row["loss_hi"]]
            row["draw_ci"] = [row["draw_lo"], row["draw_hi"]]
            results.append(row)
        out = {
            "scenario": self.scenario,
            "system": self.system,
            "seed": self.seed,
            "sides": list(self.side_names),
            "results": results,
            "provenance": self.provenance,
            "notes": list(self.notes),
        }
        for name, df in self.tables.items():
            out.setdefault("tables", {})[name] = [
                {k: _plain(v) for k, v in r.items()} for r in df.to_dict(orient="records")
            ]
        return out


def _plain(v):
    """numpy scalars -> Python scalars for JSON."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and v != v:  # NaN
        return None
    return v
