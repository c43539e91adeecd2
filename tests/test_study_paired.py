"""Paired comparisons on common random numbers (issue 21): variance reduction and coverage.

Duels whose exact win rates the exact dynamic program gives
(:func:`sim.systems.mb41.exact_duel.duel`) are the known answers.
"""
from __future__ import annotations

import math

import pytest

from sim.study import compare

from study_helpers import context, duel_study, exact_win, load

# the default pairs compare every arm with the first: here attack 5 - base
STRONGER = {"kind": "compare", "arms": [{"name": "base"}, {"name": "attack 5", "set": {"Akari.attack": 5}}]}


def test_common_random_numbers_cut_the_variance_at_least_1_5x():
    ls = load(duel_study(STRONGER))
    sec = compare.run(context(ls, seed=11, trials=20_000), ls.spec)
    win = sec.tables["comparison"].query("metric == 'win'").iloc[0]
    assert win["var_ratio_vs_independent"] >= 1.5, win.to_dict()
    # the paired interval is narrower than the unpaired one by about sqrt(ratio)
    from sim.stats import two_proportion_ci

    n = int(win["trials"])
    _, lo, hi = two_proportion_ci(round(win["value"] * n), n, round(win["against_value"] * n), n)
    assert (win["hi"] - win["lo"]) < (hi - lo) / 1.2


def test_precision_stopping_reaches_the_half_width():
    spec = dict(STRONGER, precision=0.01, independent_check=False)
    ls = load(duel_study(spec))
    ctx = context(ls, seed=3, trials=500)
    ctx.max_trials = 64_000
    win = compare.run(ctx, ls.spec).tables["comparison"].query("metric == 'win'").iloc[0]
    assert (win["hi"] - win["lo"]) / 2 <= 0.01
    assert 500 < win["trials"] <= 64_000 and ctx.trials == win["trials"]


@pytest.mark.slow
def test_interval_of_the_difference_has_its_coverage():
    """95% paired intervals of p(attack 5) - p(attack 4) cover the exact difference in
    at least 95% of 200 seeds, less three binomial standard errors."""
    truth = exact_win({"attack": 5}) - exact_win()
    spec = dict(STRONGER, independent_check=False)
    ls = load(duel_study(spec))
    seeds, covered = 200, 0
    for s in range(seeds):
        row = compare.run(context(ls, seed=1000 + s, trials=1_000), ls.spec).tables["comparison"]
        win = row.query("metric == 'win'").iloc[0]
        assert win["arm"] == "attack 5" and win["against"] == "base"
        covered += win["lo"] <= truth <= win["hi"]
    slack = 3 * math.sqrt(0.95 * 0.05 / seeds)
    assert covered / seeds >= 0.95 - slack, (covered, truth)


def test_results_do_not_depend_on_chunking_or_on_growing_the_trials(monkeypatch):
    """Trial i is the same fight whatever the chunk size, and n trials are a prefix of 2n."""
    import pandas as pd

    from sim.study import arms

    ls = load(duel_study(dict(STRONGER, independent_check=False)))
    whole = compare.run(context(ls, seed=8, trials=3_000), ls.spec).tables["comparison"]
    monkeypatch.setattr(arms, "CHUNK", 700)
    ctx = context(ls, seed=8, trials=1_000)
    compare.run(ctx, ls.spec)  # 1,000 trials first, then grown to 3,000
    ctx.trials = 3_000
    grown = compare.run(ctx, ls.spec).tables["comparison"]
    pd.testing.assert_frame_equal(whole, grown)
