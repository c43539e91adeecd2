"""Exact distributions (sim.exact) against hand values, brute force and the MC kernels.

Statistical tests use fixed seeds (so they are deterministic) and alpha =
0.001; the power checks at the bottom show the same tests do reject a wrong
distribution.
"""
from __future__ import annotations

import itertools
import time
from fractions import Fraction

import icepool
import numpy as np
import pytest
from scipy import stats

from sim import dice, exact
from sim.dice_report import beats_mask

TRIALS = 200_000
ALPHA = 1e-3


# --------------------------------------------------------------------------- helpers


def merged_bins(expected: list[float], observed: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Merge adjacent bins (in the given order) until every expected count is >= 5."""
    e_out, o_out = [], []
    e_acc = o_acc = 0
    for e, o in zip(expected, observed):
        e_acc += e
        o_acc += o
        if e_acc >= 5:
            e_out.append(e_acc)
            o_out.append(o_acc)
            e_acc = o_acc = 0
    if e_acc or o_acc:  # leftover tail goes into the last bin
        e_out[-1] += e_acc
        o_out[-1] += o_acc
    return np.array(e_out, dtype=float), np.array(o_out, dtype=float)


def chisq_pvalue_1d(pmf, samples: np.ndarray) -> float:
    """Chi-square p-value of samples against pmf (tail bins merged); 0 if a sample is impossible."""
    values, counts = np.unique(samples, return_counts=True)
    obs = dict(zip(values.tolist(), counts.tolist()))
    if not set(obs) <= {k for k, p in pmf.items() if p > 0}:
        return 0.0  # an outcome the exact distribution says is impossible
    keys = sorted(pmf)
    n = samples.size
    e, o = merged_bins([pmf[k] * n for k in keys], [obs.get(k, 0) for k in keys])
    assert len(e) >= 2
    e *= o.sum() / e.sum()
    return float(stats.chisquare(o, e).pvalue)


def chisq_pvalue_joint(joint, totals: np.ndarray, maxima: np.ndarray) -> float:
    """Same for (total, maxima) cells; small cells are merged in order of decreasing probability."""
    n = totals.size
    keys = sorted(joint, key=lambda k: -joint[k])
    pairs, counts = np.unique(np.stack([totals, maxima], axis=1), axis=0, return_counts=True)
    obs = {(int(t), int(m)): int(c) for (t, m), c in zip(pairs, counts)}
    if not set(obs) <= {k for k, p in joint.items() if p > 0}:
        return 0.0
    e, o = merged_bins([joint[k] * n for k in keys], [obs.get(k, 0) for k in keys])
    e *= o.sum() / e.sum()
    return float(stats.chisquare(o, e).pvalue)


def mc_totals(expr: str, seed, trials: int = TRIALS, purpose: int = 0):
    return dice.roll(expr, trials, seed=seed, purpose=purpose)


def chain_outcomes(sides: int, explode: bool, depth: int):
    """Brute force one die: (face total, maxima, probability), icepool's depth-cut semantics.

    A chain rolls at most ``depth`` added dice; the last allowed die keeps
    its face even if it is the maximum, and adds nothing more.
    """
    out = []

    def rec(total, maxima, prob, added):
        for face in range(1, sides + 1):
            p = prob / sides
            if explode and face == sides and added < depth:
                rec(total + face, maxima + 1, p, added + 1)
            else:
                out.append((total + face, maxima + (face == sides), p))

    rec(0, 0, Fraction(1), 0)
    return out


def brute_joint(n: int, sides: int, explode: bool, depth: int) -> dict:
    one = chain_outcomes(sides, explode, depth)
    joint: dict = {}
    for combo in itertools.product(one, repeat=n):
        key = (sum(c[0] for c in combo), sum(c[1] for c in combo))
        p = Fraction(1)
        for c in combo:
            p *= c[2]
        joint[key] = joint.get(key, 0) + p
    return joint


def brute_beats(a: tuple, b: tuple, depth: int = 0) -> Fraction:
    """P(A beats B) by enumeration; a, b = (n, sides, explode, modifier). Tie rules by hand."""
    ja = brute_joint(a[0], a[1], a[2], depth)
    jb = brute_joint(b[0], b[1], b[2], depth)
    win = Fraction(0)
    for (ta, ma), pa in ja.items():
        for (tb, mb), pb in jb.items():
            TA, TB = ta + a[3], tb + b[3]
            if TA > TB:
                a_wins = True
            elif TA < TB:
                a_wins = False
            elif ma != mb:  # equal totals: more sixes (max faces) wins
                a_wins = ma > mb
            else:  # then the higher modifier; a full tie goes to the defender
                a_wins = a[3] > b[3]
            if a_wins:
                win += pa * pb
    return win


# --------------------------------------------------------------------------- hand values


def test_mean_of_2d6_explode_is_8_4():
    # 2 dice x 3.5 x 6/5 (each die explodes with probability 1/6)
    d = exact.distribution("2d6!", depth=40)
    assert abs(d.mean - 8.4) < 1e-12
    assert abs(float(Fraction(42, 5) - d.mean_fraction)) < 1e-30
    # the closed-form mean is the pmf's mean, exactly
    assert sum(v * p for v, p in d.fractions.items()) == d.mean_fraction
    assert abs(exact.distribution("2d6!").mean - 8.4) < 1e-12


@pytest.mark.parametrize("expr", ["2d6!+3", "3d6!-2", "1d6+2", "2d6", "4d10s+1", "0d10s", "2d8!", "3d4"])
def test_closed_form_mean_matches_pmf(expr):
    d = exact.distribution(expr, depth=6)
    assert sum(d.fractions.values()) == 1
    assert sum(v * p for v, p in d.fractions.items()) == d.mean_fraction


def test_p_at_least_hand_values():
    assert exact.p_at_least("1d6+2", 6) == 0.5
    assert exact.distribution("1d6+2").fractions[8] == Fraction(1, 6)
    assert exact.p_at_least("2d6", 12) == pytest.approx(1 / 36, abs=1e-15)
    assert exact.p_at_least("2d6", 2) == 1.0
    assert exact.p_at_least("2d6", 13) == 0.0
    # 1d6!: P(>= 7) = P(first die is a 6) = 1/6 (a 6 then anything is >= 7)
    assert exact.p_at_least("1d6!", 7) == pytest.approx(1 / 6, abs=1e-15)


def test_d10_pool_hand_values():
    assert exact.d10_pool(1) == pytest.approx({0: 0.6, 1: 0.3, 2: 0.1}, abs=1e-15)
    assert exact.d10_pool(0) == {0: 1.0}
    two = exact.d10_pool(2)
    assert two == pytest.approx({0: 0.36, 1: 0.36, 2: 0.21, 3: 0.06, 4: 0.01}, abs=1e-15)
    with pytest.raises(ValueError):
        exact.d10_pool(-1)
    d = exact.distribution("0d10s+2")
    assert dict(d.pmf) == {2: 1.0} and d.mean == 2.0


def test_icepool_depth_cut_semantics():
    """depth=1: 1d6! rolls at most one added die; a second 6 counts 6 but adds nothing."""
    d = exact.distribution("1d6!", depth=1)
    fr = d.fractions
    assert fr[12] == Fraction(1, 36)            # 6 then 6: the chain is cut, total stays 12
    assert all(fr.get(v, 0) == 0 for v in (6, 13, 14, 15, 16, 17, 18))
    assert fr[7] == Fraction(1, 36) and fr[5] == Fraction(1, 6)
    assert d.lost_mass_fraction == Fraction(1, 36)
    j = exact.joint_fractions(1, 6, True, depth=1)
    assert j[(12, 2)] == Fraction(1, 36)


def test_lost_mass():
    assert exact.lost_mass(2, 6, True, 20) == 1 - (1 - Fraction(1, 6 ** 21)) ** 2
    assert exact.distribution("2d6!").lost_mass == pytest.approx(2 / 6 ** 21, rel=1e-12)
    assert exact.distribution("2d6").lost_mass == 0
    assert exact.distribution("5d10s").lost_mass == 0
    # for one die, the lost mass is exactly the probability of the cut chain
    for depth in (0, 1, 3, 20):
        j = exact.joint_fractions(1, 6, True, depth)
        assert j[(6 * (depth + 1), depth + 1)] == exact.lost_mass(1, 6, True, depth)


@pytest.mark.parametrize("n,sides,explode,depth", [
    (1, 6, True, 2), (2, 6, True, 2), (3, 6, True, 1), (2, 4, True, 3), (3, 6, False, 0), (2, 8, False, 0),
])
def test_joint_matches_brute_force(n, sides, explode, depth):
    assert exact.joint_fractions(n, sides, explode, depth) == brute_joint(n, sides, explode, depth)


@pytest.mark.parametrize("expr", ["2d6!", "4d6!", "3d6", "2d10!"])
def test_joint_marginal_is_distribution(expr):
    e = dice.parse(expr)
    j = exact.joint_fractions(e.n, e.sides, e.explode, 20)
    marg: dict = {}
    for (t, _m), p in j.items():
        marg[t] = marg.get(t, 0) + p
    assert marg == dict(exact.distribution(e).fractions)
    jf = exact.joint_total_maxima(e.n, e.sides, e.explode, 20)
    assert sum(jf.values()) == pytest.approx(1.0, abs=1e-13)


def test_joint_is_fast_cached_and_read_only():
    exact._joint_q.cache_clear()
    exact._joint_float.cache_clear()
    t0 = time.perf_counter()
    j = exact.joint_total_maxima(6, 6, True, exact.DEFAULT_DEPTH)
    assert time.perf_counter() - t0 < 3.0
    t0 = time.perf_counter()
    for n in range(1, 7):
        exact.joint_total_maxima(n, 6, True, exact.DEFAULT_DEPTH)
    assert exact.joint_total_maxima(6) is j  # cached
    assert time.perf_counter() - t0 < 3.0
    with pytest.raises(TypeError):
        j[(0, 0)] = 1.0  # read-only: it is shared with every caller
    # sanity: expected number of sixes of 6d6! is 6 * (1/6) / (1 - 1/6) = 1.2
    assert sum(m * p for (_t, m), p in j.items()) == pytest.approx(1.2, abs=1e-12)


def test_joint_too_large_is_refused_quickly():
    t0 = time.perf_counter()
    with pytest.raises(exact.ExactTooLarge):
        exact.joint_total_maxima(60, 6, True)
    with pytest.raises(exact.ExactTooLarge):
        exact.p_beats("100d100", "100d100")
    assert time.perf_counter() - t0 < 1.0


def test_bad_depth_rejected():
    for bad in (-1, exact.MAX_DEPTH + 1, 2.5):
        with pytest.raises(ValueError):
            exact.distribution("2d6!", depth=bad)


# --------------------------------------------------------------------------- p_beats


def test_p_beats_1d6_plus_1_vs_1d6_by_hand():
    # A = a+1, B = b. A wins if a+1 > b (21 pairs: b <= a); on a+1 == b (a = 1..5)
    # B has more sixes only when b = 6 (a = 5); otherwise no sixes, A's higher
    # modifier wins (a = 1..4): 4 pairs. Total 25/36.
    assert exact.p_beats_exact("1d6+1", "1d6") == Fraction(25, 36)
    assert exact.p_beats_exact("1d6+1", "1d6") == brute_beats((1, 6, False, 1), (1, 6, False, 0))
    # identical rolls: A wins only on a higher die or (equal die) never; full ties -> defender
    assert exact.p_beats_exact("1d6", "1d6") == Fraction(15, 36)


@pytest.mark.parametrize("a,b", [
    ((2, 6, False, 0), (2, 6, False, 0)),
    ((2, 6, False, 1), (2, 6, False, 2)),
    ((1, 8, False, 0), (1, 6, False, 1)),
    ((2, 4, False, 3), (1, 6, False, 2)),
    ((1, 6, True, 1), (1, 6, True, 0)),
    ((2, 6, True, 0), (1, 6, True, 3)),
])
def test_p_beats_matches_brute_force(a, b):
    depth = 2

    def txt(x):
        return f"{x[0]}d{x[1]}{'!' if x[2] else ''}{x[3]:+d}"

    assert exact.p_beats_exact(txt(a), txt(b), depth=depth) == brute_beats(a, b, depth)


def test_p_beats_success_pools():
    # 1d10s+0 vs 1d10s+0: pools have no sixes; A wins only with more successes
    p = exact.p_beats_exact("1d10s", "1d10s")
    assert p == Fraction(6, 10) * 0 + Fraction(3, 10) * Fraction(6, 10) + Fraction(1, 10) * Fraction(9, 10)
    # a higher modifier wins full ties
    q = exact.p_beats_exact("1d10s+1", "1d10s+1")
    assert q == p
    r = exact.p_beats_exact("0d10s+1", "0d10s")
    assert r == 1
    parts = exact.beats_breakdown("2d6!+4", "2d6!+3")
    assert parts["win"] == parts["higher_total"] + parts["tie_more_maxima"] + parts["tie_modifier"]
    assert 0 < parts["tie_more_maxima"] < parts["equal_totals"]


@pytest.mark.parametrize("a_txt,b_txt", [
    ("2d6!+4", "2d6!+3"), ("2d6!+3", "2d6!+4"), ("2d6!", "2d6!"), ("3d6!+1", "2d6!+4"), ("4d10s", "3d10s+1"),
])
def test_mc_p_beats_agrees_with_exact(a_txt, b_txt):
    p = exact.p_beats(a_txt, b_txt)
    a, b = dice.parse(a_txt), dice.parse(b_txt)
    ta, ma = mc_totals(a_txt, seed=f"beats-{a_txt}-{b_txt}", purpose=0)
    tb, mb = mc_totals(b_txt, seed=f"beats-{a_txt}-{b_txt}", purpose=1)
    wins = beats_mask(ta, ma, a.modifier, tb, mb, b.modifier)
    se = np.sqrt(p * (1 - p) / TRIALS)
    assert abs(wins.mean() - p) < 4 * se
    tie = float(exact.beats_breakdown(a, b)["equal_totals"])
    se_t = np.sqrt(tie * (1 - tie) / TRIALS)
    assert abs(np.mean(ta == tb) - tie) < 4 * se_t


# --------------------------------------------------------------------------- chi-square vs MC


@pytest.mark.parametrize("expr", ["2d6!+0", "2d6!+3", "2d6!-2", "1d6+2", "2d6", "3d6!+1"])
def test_chisquare_totals(expr):
    t, _m = mc_totals(expr, seed=f"chi-{expr}")
    assert chisq_pvalue_1d(exact.distribution(expr).pmf, t) > ALPHA


@pytest.mark.parametrize("n", range(1, 13))
def test_chisquare_d10_pools(n):
    t, m = mc_totals(f"{n}d10s", seed=f"chi-pool-{n}")
    assert not m.any()  # pools have no maxima/sixes
    assert chisq_pvalue_1d(exact.d10_pool(n), t) > ALPHA


def test_chisquare_joint_total_sixes():
    t, m = mc_totals("2d6!", seed="chi-joint")
    assert chisq_pvalue_joint(exact.joint_total_maxima(2, 6, True), t, m) > ALPHA


def _loaded_2d6_explode(weight6: int):
    """Exact joint (total, sixes) and total pmf of 2d6! with a loaded die (6 has weight6/20)."""
    die = icepool.Die({f: (weight6 if f == 6 else 20) for f in range(1, 7)})
    die = die.map(lambda x: icepool.Vector((x, int(x == 6)))).explode([icepool.Vector((6, 1))], depth=20)
    two = die + die
    den = two.denominator()
    joint = {(int(o[0]), int(o[1])): q / den for o, q in two.items()}
    pmf: dict = {}
    for (t, _m), p in joint.items():
        pmf[t] = pmf.get(t, 0.0) + p
    return joint, pmf


def test_chisquare_detects_wrong_distributions():
    """Power check: with the same trials the tests reject small, realistic errors."""
    t, m = mc_totals("2d6!", seed="chi-power")
    # a d6 whose 6 comes up 5% too often (1/6 -> 0.1736), e.g. a biased generator
    joint, pmf = _loaded_2d6_explode(21)
    assert chisq_pvalue_1d(pmf, t) < ALPHA
    assert chisq_pvalue_joint(joint, t, m) < ALPHA
    # the loaded-die oracle is itself right: it equals the fair one at weight 20
    fair_joint, _ = _loaded_2d6_explode(20)
    assert fair_joint == pytest.approx(dict(exact.joint_total_maxima(2)), abs=1e-15)
    # explosion chains cut after one added die
    assert chisq_pvalue_1d(exact.distribution("2d6!", depth=1).pmf, t) < ALPHA
    # sixes miscounted: only the two original dice's sixes counted
    assert chisq_pvalue_joint(exact.joint_total_maxima(2), t, np.minimum(m, 2)) < ALPHA


# --------------------------------------------------------------------------- float fallback


def test_float_fallback_matches_exact(monkeypatch):
    ref = exact.distribution("6d6!+1")
    assert ref.method == "icepool-exact"
    monkeypatch.setattr(exact, "ICEPOOL_BUDGET", 0)
    direct = exact.distribution("6d6!+1")
    assert direct.method == "float64-direct" and direct.fractions is None
    monkeypatch.setattr(exact, "_DIRECT_CONV_LIMIT", 0)
    fft = exact.distribution("6d6!+1")
    assert fft.method == "float64-fft"
    for d, tol in ((direct, 1e-15), (fft, 1e-13)):
        for v, p in ref.pmf.items():
            if p > 1e-9:
                assert d.pmf.get(v, 0.0) == pytest.approx(p, abs=tol, rel=1e-9)
        assert d.mean == ref.mean and d.lost_mass == ref.lost_mass


def test_large_expressions_are_quick():
    t0 = time.perf_counter()
    d = exact.distribution("100d100")
    assert d.method.startswith("float64")
    assert d.mean == 5050.0
    assert sum(d.pmf.values()) == pytest.approx(1.0, abs=1e-9)
    assert d.sd == pytest.approx(np.sqrt(100 * (100 ** 2 - 1) / 12), rel=1e-9)
    assert time.perf_counter() - t0 < 2.0
