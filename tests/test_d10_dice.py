"""d10 pools against exact distributions (icepool): chi-square on merged bins."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sst

from sim._jit import jit
from sim.exact import d10_pool
from sim.rng import STATE_WORDS, scripted_state, seed_stream, stream_key
from sim.systems.d10 import kernel as K
from sim.systems.d10.rules import RULES

RULES_ARR = RULES.to_array(RULES.defaults())
TAB = K.success_table()


@jit(cache=False)
def _sample(key, n, m, tab, rules, out):
    st = np.zeros(STATE_WORDS, dtype=np.uint64)
    seed_stream(st, key, 0, 1)
    for k in range(m):
        out[k] = K.roll_pool(st, n, tab, rules)


def _chi2(counts: np.ndarray, probs: np.ndarray) -> float:
    """p-value of a chi-square test after merging bins to expected >= 5."""
    total = counts.sum()
    exp = probs * total
    obs_m, exp_m = [], []
    o = e = 0.0
    for k in range(len(exp)):
        o += counts[k]
        e += exp[k]
        if e >= 5:
            obs_m.append(o)
            exp_m.append(e)
            o = e = 0.0
    obs_m[-1] += o
    exp_m[-1] += e
    return sst.chisquare(obs_m, exp_m).pvalue


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 13])
def test_pool_matches_icepool(n):
    m = 200_000
    out = np.zeros(m, dtype=np.int64)
    _sample(stream_key(100 + n), n, m, TAB, RULES_ARR, out)
    exact = d10_pool(n)
    probs = np.zeros(2 * n + 1)
    for k, p in exact.items():
        probs[k] = p
    counts = np.bincount(out, minlength=2 * n + 1).astype(float)
    assert len(counts) == 2 * n + 1
    if n == 0:
        assert counts[0] == m
        return
    assert _chi2(counts, probs) > 0.001


def test_success_table_is_brute_force():
    for k in range(1, 5):
        off = (10 ** k - 1) // 9
        for v in range(0, 10 ** k, 7):
            digits = [(v // 10 ** j) % 10 + 1 for j in range(k)]
            want = sum((f >= 7) + (f >= 10) for f in digits)
            assert TAB[off + v] == want


def test_scripted_pool_reads_faces():
    """Seed text L11 and the worked example L87-91: 5,6,4,3,7,10,9,10 = 6 successes."""
    st = scripted_state([f - 1 for f in (5, 6, 4, 3, 7, 10, 9, 10)])
    assert K.roll_pool(st, 8, TAB, RULES_ARR) == 6
    st = scripted_state([f - 1 for f in (3, 7, 10, 5)])  # Molly's initiative re-roll (L89): 3
    assert K.roll_pool(st, 4, TAB, RULES_ARR) == 3


def test_pool_size_is_half_rounded_up():
    from sim.systems.d10.compile import dice, thresholds

    assert [dice(s) for s in (6, 7, 8, 12, 0, 1)] == [3, 4, 4, 6, 0, 1]
    # L33 worked example: VIT 6 (pool 12) with 3 wounds: no penalty; VIT 4 (pool 8) with 3 wounds: -1
    assert thresholds(12, "exact") == (4, 7, 10)
    assert thresholds(8, "exact") == (3, 5, 7)
    assert thresholds(10, "exact") == (3, 6, 8)      # D2 (a): > 25 % of 10 = 2.5
    assert thresholds(10, "floor") == (3, 5, 7)
    assert thresholds(10, "ceil") == (4, 7, 10)
