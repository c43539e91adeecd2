"""Issue 36, readings that cannot mislead: the base rate first with a warning at a
ceiling, exchange rates and calibrations that name the bracketing grid points and
widen their intervals by the interpolation, jumps flagged, a calibrate target
beyond the grid exits non-zero with the direction to extend, the arms' rule
assumptions in the report, ``sim plan --comparisons`` and warnings for ignored flags."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import yaml
from scipy import stats as sps

from helpers import duel_data
from study_helpers import context, duel_study, load

ROOT = Path(__file__).resolve().parents[1]


def _cli(args, cwd, timeout=900):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout)


def test_talent_value_at_a_98_percent_base_rate_warns():
    from sim.study import talents

    text = duel_study({"kind": "talent-value", "member": "Akari", "candidates": ["Inflict", "Bonus Action"]},
                      a={"attack": 7, "defence": 7, "resolve": 24})
    ls = load(text)
    sec = talents.run(context(ls, seed=3, trials=3000), ls.spec)
    assert sec.base["rate"] > 0.95
    assert sec.reading.startswith("Base (without the candidates) win rate of the first side: 9")
    assert any("outside 10-90%" in w and "ceiling" in w for w in sec.warnings), sec.warnings
    assert {"a", "b", "diff", "discordant", "p_holm"} <= set(sec.tables["pairs"].columns)


def _grid_wins(x, rate_of, n=40_000, seed=5):
    """Per-trial wins of arms at ``x`` on common random numbers (one uniform per trial)."""
    u = np.random.default_rng(seed).random(n)
    return np.vstack([(u < rate_of(v)).astype(float) for v in x]), u


def test_exchange_on_a_grid_with_a_jump_reports_bracketing_points_and_an_honest_interval():
    """A curve that jumps between +0 and +1 (a targeting tie): the coarse grid's
    interval covers the fine grid's answer (the old bootstrap interval did not), both
    name the step that brackets the target, and the fine grid flags the jump."""
    from sim.study.curve import jumps, solve

    def rate(v):  # 50% at +0, then 61% + 1 point per unit
        return 0.50 if v < 1 else 0.60 + 0.01 * v

    fine_x, coarse_x = [0, 1, 2, 3, 4], [0, 4, 8]
    fine, u = _grid_wins(fine_x, rate)
    coarse, _ = _grid_wins(coarse_x, rate)
    talent = (u < 0.605).astype(float)  # the talent's arm, on the same trials
    f = solve(fine_x, fine, talent, seed=1)
    c = solve(coarse_x, coarse, talent, seed=1)
    assert (f["below"], f["above"]) == (0.0, 1.0) and (c["below"], c["above"]) == (0.0, 4.0)
    assert c["lo"] <= f["value"] <= c["hi"] and c["lo"] <= c["value"] <= c["hi"]
    assert f["lo"] <= f["value"] <= f["hi"] and (f["lo"], f["hi"]) == (0.0, 1.0)
    assert not c["lo_boot"] <= f["value"] <= c["hi_boot"]  # straight lines alone mislead
    found = jumps(fine_x, fine)
    assert [(j["a"], j["b"]) for j in found] == [(0.0, 1.0)]
    assert not jumps([0, 1, 2, 3], _grid_wins([0, 1, 2, 3], lambda v: 0.4 + 0.05 * v)[0])


def test_exchange_reading_names_the_bracketing_whole_numbers():
    from sim.study import exchange

    text = duel_study({"kind": "exchange-rate", "talent": {"name": "+1 Attack", "set": {"Akari.attack": 5}},
                       "stats": {"Akari.attack": [0, 2, 4]}})
    ls = load(text)
    sec = exchange.run(context(ls, seed=2, trials=4000), ls.spec)
    row = sec.tables["exchange_rate"].iloc[0]
    assert (row["below"], row["above"]) == (0, 2) and row["lo"] <= 1 <= row["hi"]
    assert sec.reading.startswith("Base (no talent, stats as written) win rate")
    assert "between +0 and +2 of Akari.attack: +0 gives" in sec.reading, sec.reading


def test_calibrate_outside_the_grid_exits_non_zero_with_a_direction(tmp_path):
    f = tmp_path / "cal.yaml"
    f.write_text(duel_study({"kind": "calibrate", "parameter": "Shade.resolve", "values": [18, 19, 20],
                             "targets": [0.05]}))
    p = _cli(["study", str(f), "--trials", "600", "--no-write"], tmp_path)
    assert p.returncode == 3, (p.returncode, p.stderr[-2000:])
    assert "Traceback" not in p.stderr
    assert "below every win rate measured" in p.stderr and "extend the grid above 20" in p.stderr, p.stderr


def test_study_reports_list_the_rule_assumptions_of_their_arms(tmp_path):
    d = duel_data(b={"kind": "monster", "spread": 3, "power_level": 5, "resolve": None})
    del d["sides"][1]["members"][0]["resolve"]
    d["study"] = {"kind": "compare", "arms": [{"name": "base"}, {"name": "Inflict",
                                                                  "set": {"Akari.talents": ["Inflict"]}}]}
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    from sim.study import run_study

    res = run_study(f, trials=500, out=tmp_path / "out")
    sec = res.sections[0]
    assert any(a.startswith("assumption: monster_resolve") for a in sec.assumptions), sec.assumptions
    saved = json.loads((tmp_path / "out" / "study.json").read_text())
    assert saved["studies"][0]["assumptions"] == sec.assumptions
    assert saved["provenance"]["assumptions"] == sec.assumptions
    assert "Rule assumptions of the arms" in (tmp_path / "out" / "report.html").read_text()


def test_plan_comparisons_and_ignored_flags(tmp_path):
    from sim.study.plan import plan

    one = plan(0.65, 0.60, paired=True, discordant=0.08)
    ten = plan(0.65, 0.60, paired=True, discordant=0.08, comparisons=10)
    za, zb, psi, d = sps.norm.ppf(1 - 0.005 / 2), sps.norm.ppf(0.8), 0.08, 0.05
    assert ten["trials"] == math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2)
    assert ten["trials"] > one["trials"] and ten["alpha_per_comparison"] == 0.005
    p = _cli(["plan", "--p1", "0.65", "--p2", "0.6", "--discordant", "0.08", "--comparisons", "6"], tmp_path)
    assert p.returncode == 0 and "--discordant is ignored without --paired" in p.stderr
    assert "Each of 6 comparisons" in p.stdout


def test_sim_run_names_the_flags_it_ignores(tmp_path):
    p = _cli(["run", str(ROOT / "scenarios" / "duel-basic.yaml"), "--trials", "200", "--max-trials", "400",
              "--no-write", "--resume", "--quiet"], tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "--max-trials is ignored without --precision" in p.stderr
    assert "--resume is ignored with --no-write" in p.stderr
