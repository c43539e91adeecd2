"""``sim bench``: all keys present and positive, and the plain-Python duel is the kernel's fight.

No speed targets are asserted here: timings depend on the machine and its load.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from helpers import duel_data, load_data
from sim import bench
from sim.bench import format_bench, run_bench
from sim.bench_python import AKARI, SHADE, run_duels

#: P(Akari wins) in scenarios/duel-basic.yaml, from the exact dynamic program
EXACT_WIN = 0.754243

QUICKSTART = bench.START_SCENARIO
START = QUICKSTART if QUICKSTART.is_file() else bench.DUEL_SCENARIO

NUMBER_KEYS = [
    "raw_d6_per_s", "duel_per_s", "python_duel_per_s", "duel_vs_python", "duel_vs_python_per_thread",
    "kernel_vs_raw", "kernel_d6_per_s", "dice_per_duel", "attacks_per_duel", "hits_per_duel",
    "kernel_win_rate", "python_win_rate", "cold_start_s", "warm_start_s", "warm_start_default_cache_s",
    "threads", "cpu_count",
]


@pytest.fixture(scope="module")
def quick():
    return run_bench(quick=True, start_scenario=START)


def test_quick_bench_has_every_key(quick):
    for k in NUMBER_KEYS:
        v = quick[k]
        assert isinstance(v, (int, float)) and not isinstance(v, bool), k
        assert math.isfinite(v) and v > 0, (k, v)
    assert quick["quick"] is True
    for k in ("numba", "numpy", "python"):
        assert isinstance(quick[k], str) and quick[k]
    # the foundation's targets, plus whatever each rule system adds (its own keys)
    assert {"raw_d6_per_s", "duel_per_s", "duel_vs_python", "warm_start_s"} <= set(quick["targets"])
    for k in quick["targets"]:
        assert k in quick, f"target {k} has no measurement"
    assert set(quick["meets_targets"]) == set(quick["targets"])
    assert all(isinstance(v, bool) for v in quick["meets_targets"].values())
    # derived values are what they say
    assert quick["duel_vs_python"] == pytest.approx(quick["duel_per_s"] / quick["python_duel_per_s"])
    assert quick["kernel_vs_raw"] == pytest.approx(
        quick["duel_per_s"] * quick["dice_per_duel"] / quick["raw_d6_per_s"])
    # a duel has at least 2 attacks of at least 4 dice each
    assert quick["attacks_per_duel"] >= 2
    assert quick["dice_per_duel"] >= 8
    json.dumps(quick)  # JSON-able


def test_format_bench_is_a_table(quick):
    text = format_bench(quick)
    assert "metric" in text and "target" in text
    assert "duels / s (kernel)" in text
    assert "warm start s" in text


def test_python_fighters_are_the_scenario():
    assert bench.python_fighters(bench.duel_inputs()) == (AKARI, SHADE)


@pytest.mark.parametrize("change", [
    {"rules": {"revive": True}},
    {"rules": {"initiative": "roll"}},
    {"rules": {"round_cap": 10}},
    {"a": {"policy": {"boost": "always"}}},
])
def test_python_duel_refuses_other_rules(change):
    loaded = load_data(duel_data(**change))
    inputs = loaded.module.compile(loaded.variants[0][1])
    with pytest.raises(ValueError, match="plain-Python duel"):
        bench.python_fighters(inputs)


def test_python_duel_is_the_kernel_fight():
    from sim.rng import stream_key
    from sim.systems.mb41 import simulate

    n_py, n_k = 20_000, 200_000
    w, losses, draws = run_duels(n_py, seed=12345)
    assert w + losses + draws == n_py
    p_py = w / n_py
    c = simulate(bench.duel_inputs(), 0, n_k, stream_key(99))
    p_k = int(c["outcomes"][0]) / n_k

    se_py = math.sqrt(EXACT_WIN * (1 - EXACT_WIN) / n_py)
    se_k = math.sqrt(EXACT_WIN * (1 - EXACT_WIN) / n_k)
    assert abs(p_py - p_k) <= 5 * math.hypot(se_py, se_k), (p_py, p_k)
    assert abs(p_py - EXACT_WIN) <= 5 * se_py, p_py
    assert abs(p_k - EXACT_WIN) <= 5 * se_k, p_k


@pytest.mark.skipif(not QUICKSTART.is_file(), reason="scenarios/quickstart.yaml not written yet")
def test_cli_bench_quick_json():
    # --no-start: the start times (a minute of compiling in a fresh cache) are measured by
    # the fixture above through run_bench; the CLI's own path is the same call
    p = subprocess.run([sys.executable, "-m", "sim.cli", "bench", "--quick", "--json", "--no-start"],
                       capture_output=True, text=True, timeout=1800)  # a cold cache compiles every kernel (minutes)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for k in ("raw_d6_per_s", "duel_per_s", "duel_vs_python", "party_fight_gridless_per_s", "study_rows_gridless_per_s",
              "study_rows_vs_counters"):
        assert d[k] > 0, k
    assert d["quick"] is True
    for k in ("cold_start_s", "warm_start_s", "warm_start_default_cache_s"):
        assert k in d and d[k] is None, k  # the keys stay, null: not measured
    assert d["meets_targets"]["warm_start_s"] is None
    assert d["meets_targets"]["duel_per_s"] in (True, False)


def test_format_bench_says_what_was_not_measured(quick):
    skipped = dict(quick, cold_start_s=None, warm_start_s=None, warm_start_default_cache_s=None)
    skipped["meets_targets"] = bench.meets(skipped, skipped["targets"])
    assert skipped["meets_targets"]["warm_start_s"] is None
    text = format_bench(skipped)
    assert "not measured" in text
    line = next(x for x in text.splitlines() if x.startswith("warm start s "))
    assert "NO" not in line and "yes" not in line
