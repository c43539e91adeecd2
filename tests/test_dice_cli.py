"""The ``sim dice`` logic (sim.dice_report): JSON contract, validation, text output."""
from __future__ import annotations

import json
import math
import re
import time

import numpy as np
import pytest

from sim import dice_report as dr
from sim import exact
from sim.dice import DiceError

BASE_KEYS = {"expr", "exact_mean", "mc_mean", "mc_se", "trials", "seed", "lost_mass", "distribution",
             "depth", "exact_method", "omitted_exact_mass"}


def test_contract_keys_plain():
    s = dr.dice_summary(" 2d6! + 3 ", trials=20_000, seed=1)
    assert BASE_KEYS <= set(s)
    assert s["expr"] == "2d6!+3"
    assert s["trials"] == 20_000 and s["seed"] == 1 and s["depth"] == exact.DEFAULT_DEPTH
    assert s["exact_mean"] == pytest.approx(11.4, abs=1e-12)
    assert abs(s["mc_mean"] - s["exact_mean"]) < 5 * s["mc_se"]
    assert s["lost_mass"] == pytest.approx(2 / 6 ** 21, rel=1e-9)
    assert "target" not in s and "vs" not in s and "exact_p" not in s
    json.dumps(s, allow_nan=False)  # plain JSON types only


def test_distribution_rows():
    s = dr.dice_summary("2d6!-2", trials=50_000, seed=2)
    rows = s["distribution"]
    values = [r[0] for r in rows]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert all(len(r) == 3 for r in rows)
    pmf = exact.distribution("2d6!-2").pmf
    need = {v for v, p in pmf.items() if p >= 1e-9}
    assert need <= set(values)
    assert math.fsum(r[2] for r in rows) == pytest.approx(1.0, abs=1e-12)  # every MC hit is listed
    assert math.fsum(r[1] for r in rows) + s["omitted_exact_mass"] == pytest.approx(1.0, abs=1e-12)
    assert "tail_note" in s and "1e-09" in s["tail_note"]  # the exploding tail is cut and says so
    assert rows[0][0] == 0 and rows[0][1] == pytest.approx(1 / 36)


def test_no_tail_note_for_small_plain_dice():
    s = dr.dice_summary("1d6+2", trials=1000)
    assert [r[0] for r in s["distribution"]] == [3, 4, 5, 6, 7, 8]
    assert "tail_note" not in s and s["omitted_exact_mass"] == 0
    assert s["lost_mass"] == 0 and s["exact_method"] == "icepool-exact"


def test_target():
    s = dr.dice_summary("1d6+2", target=6, trials=100_000, seed=3)
    assert s["target"] == 6 and s["exact_p"] == 0.5
    lo, hi = s["mc_p_ci"]
    assert lo < s["mc_p"] < hi and lo < 0.5 < hi
    assert s["mc_hits"] == round(s["mc_p"] * s["trials"])
    assert dr.dice_summary("1d6+2", target=100, trials=10)["exact_p"] == 0.0


def test_vs():
    s = dr.dice_summary("2d6!+4", vs="2d6!+3", trials=200_000, seed=4)
    assert s["vs"] == "2d6!+3"
    p = exact.p_beats("2d6!+4", "2d6!+3")
    assert s["exact_p"] == p
    se = math.sqrt(p * (1 - p) / s["trials"])
    assert abs(s["mc_p"] - p) < 4 * se
    lo, hi = s["mc_p_ci"]
    assert lo < s["mc_p"] < hi
    assert abs(s["mc_p_equal_totals"] - s["exact_p_equal_totals"]) < 0.005
    assert s["vs_exact_mean"] == pytest.approx(11.4)
    assert "defender" in s["tie_rule"]
    json.dumps(s, allow_nan=False)


def test_vs_pools_and_full_tie_to_defender():
    s = dr.dice_summary("0d10s", vs="0d10s", trials=100)
    assert s["exact_p"] == 0.0 and s["mc_p"] == 0.0  # full tie every time: the defender wins
    s = dr.dice_summary("0d10s+1", vs="0d10s", trials=100)
    assert s["exact_p"] == 1.0 and s["mc_p"] == 1.0


def test_vs_too_large_for_exact_still_runs_mc():
    s = dr.dice_summary("20d6!", vs="20d6!", trials=2000, seed=5)
    assert s["exact_p"] is None and "too large" in s["exact_note"]
    assert 0.3 < s["mc_p"] < 0.7
    assert "n/a" in dr.format_dice_text(s)


def test_target_and_vs_together_rejected():
    with pytest.raises(ValueError, match="--target and --vs"):
        dr.dice_summary("2d6!", target=8, vs="2d6!")


@pytest.mark.parametrize("trials", [0, -5, 10 ** 9 + 1, 2.5, "100", True])
def test_bad_trials_rejected(trials):
    with pytest.raises(ValueError):
        dr.dice_summary("2d6", trials=trials)


def test_bad_target_rejected():
    with pytest.raises(ValueError):
        dr.dice_summary("2d6", target=7.5, trials=10)


@pytest.mark.parametrize("kwargs", [
    dict(expr="1000000000d6"), dict(expr="2d6", vs="1000000000d6"), dict(expr="2d6", vs="banana"),
    dict(expr="3d10!s"), dict(expr=""), dict(expr="0d6"),
])
def test_absurd_expressions_raise_dice_error_quickly(kwargs):
    t0 = time.perf_counter()
    with pytest.raises(DiceError):
        dr.dice_summary(trials=10 ** 9, **kwargs)
    assert time.perf_counter() - t0 < 1.0


def test_prefix_stable_across_chunks(monkeypatch):
    full = dr.dice_summary("2d6!+1", vs="2d6!", trials=5000, seed=6)
    monkeypatch.setattr(dr, "CHUNK", 777)
    chunked = dr.dice_summary("2d6!+1", vs="2d6!", trials=5000, seed=6)
    assert chunked == full
    # the first 1000 trials are the same whatever the total
    from sim import dice
    t_all, _ = dice.roll("2d6!+1", 5000, seed=6, purpose=0)
    t_head, _ = dice.roll("2d6!+1", 1000, seed=6, purpose=0)
    assert np.array_equal(t_all[:1000], t_head)


def test_seed_matters_and_reproduces():
    a = dr.dice_summary("3d6", trials=2000, seed=7)
    assert dr.dice_summary("3d6", trials=2000, seed=7) == a
    assert dr.dice_summary("3d6", trials=2000, seed=8)["distribution"] != a["distribution"]


def test_numpy_seed_is_the_int_seed():
    a = dr.dice_summary("2d6", trials=500, seed=np.int64(9))
    assert a["seed"] == 9 and type(a["seed"]) is int
    assert a == dr.dice_summary("2d6", trials=500, seed=9)
    with pytest.raises(ValueError):
        dr.dice_summary("2d6", trials=10, seed=1.5)


def test_single_trial():
    s = dr.dice_summary("2d6", trials=1)
    assert s["mc_se"] is None
    json.dumps(s, allow_nan=False)
    dr.format_dice_text(s)


def test_wilson():
    lo, hi = dr._wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    lo, hi = dr._wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = dr._wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.72247, abs=1e-5)


def test_format_text():
    s = dr.dice_summary("1d6+2", target=6, trials=1000)
    txt = dr.format_dice_text(s)
    assert "1d6+2" in txt and "exact mean" in txt and "MC mean" in txt
    assert "P(total >= 6)" in txt and "50.0000%" in txt
    assert len([ln for ln in txt.splitlines() if re.match(r"^\s+\d+\s+\d", ln)]) == 6
    vs = dr.format_dice_text(dr.dice_summary("2d6!+4", vs="2d6!+3", trials=1000))
    assert "P(2d6!+4 beats 2d6!+3)" in vs


def test_format_text_wide_distribution_shows_centre():
    s = dr.dice_summary("100d100", trials=20_000)
    assert s["exact_method"].startswith("float64")
    txt = dr.format_dice_text(s)
    assert "showing the central" in txt
    assert len(txt.splitlines()) < dr.MAX_TEXT_ROWS + 15


def test_row_cap(monkeypatch):
    monkeypatch.setattr(dr, "MAX_ROWS", 10)
    s = dr.dice_summary("4d6", trials=1000)
    assert len(s["distribution"]) == 10
    assert "truncated" in s["tail_note"]
    assert 14 in [r[0] for r in s["distribution"]]  # the central values are the ones kept
