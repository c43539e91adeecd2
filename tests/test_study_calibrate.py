"""Encounter calibration (issue 21): on a duel the exact DP solves, the found monster
Resolve is the one the DP says gives the target win rate."""
from __future__ import annotations

import numpy as np
import pytest

from sim.study import calibrate, exchange

from study_helpers import context, duel_study, exact_win, load


@pytest.mark.slow
def test_calibration_finds_the_exact_answer():
    study = {"kind": "calibrate", "parameter": "Shade.resolve", "range": [12, 28], "max_points": 9,
             "targets": [0.6, 0.8]}
    ls = load(duel_study(study))
    sec = calibrate.run(context(ls, seed=17, trials=40_000), ls.spec)
    table = sec.tables["calibration"]
    curve = sec.tables["calibration_curve"]
    assert len(curve) > 9  # refined inside the bracketing steps
    for row in table.to_dict(orient="records"):
        found = int(row["nearest"])
        dp = {r: exact_win(shade={"resolve": r}) for r in (found - 1, found, found + 1)}
        gap = {r: abs(p - row["target"]) for r, p in dp.items()}
        assert gap[found] == min(gap.values()), (row, dp)
        # the continuous answer's interval holds the DP's crossing (linear between whole numbers)
        lo_r = found if dp[found] >= row["target"] else found - 1
        x = lo_r + (dp[lo_r] - row["target"]) / (dp[lo_r] - dp[lo_r + 1])
        assert row["lo"] - 0.5 <= x <= row["hi"] + 0.5, (row, x)


def test_calibration_curve_is_monotone_and_brackets_the_target():
    study = {"kind": "calibrate", "parameter": "Shade.resolve", "values": [10, 18, 26, 34], "targets": [0.5]}
    ls = load(duel_study(study))
    sec = calibrate.run(context(ls, seed=1, trials=2_000), ls.spec)
    curve = sec.tables["calibration_curve"]
    assert np.all(np.diff(curve["fitted"]) <= 0)
    row = sec.tables["calibration"].iloc[0]
    assert 18 < row["value"] < 34 and row["lo"] <= row["value"] <= row["hi"]


def test_exchange_rate_of_a_stat_bump_is_that_bump():
    """A 'talent' that is +2 Attack is worth +2 Attack (within its interval)."""
    study = {"kind": "exchange-rate", "talent": {"name": "+2 attack", "set": {"Akari.attack": 6}},
             "stats": {"Akari.attack": [0, 1, 2, 3, 4]}}
    ls = load(duel_study(study))
    row = exchange.run(context(ls, seed=4, trials=4_000), ls.spec).tables["exchange_rate"].iloc[0]
    assert row["lo"] <= 2 <= row["hi"] and abs(row["worth"] - 2) < 0.5
