"""Tests of sim.stats against textbook values and independent formulas."""
import math

import numpy as np
import pytest

from sim.stats import (
    Z95,
    holm,
    mean_and_se_from_hist,
    paired_difference,
    paired_difference_trials,
    rate_table,
    two_proportion_ci,
    wilson,
    wilson_half_width,
)


def wilson_textbook(k, n, z=Z95):
    """The Wilson interval in its usual textbook form, written out separately."""
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


# ---------------------------------------------------------------- wilson


def test_z95_is_the_normal_quantile():
    scipy_stats = pytest.importorskip("scipy.stats")
    assert Z95 == pytest.approx(scipy_stats.norm.ppf(0.975), abs=1e-12)


def test_wilson_textbook_value():
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=5e-5)
    assert hi == pytest.approx(0.3662, abs=5e-5)
    assert isinstance(lo, float) and isinstance(hi, float)


@pytest.mark.parametrize("k,n", [(1, 2), (3, 10), (81, 263), (500, 1000), (9999, 10000), (7, 8)])
def test_wilson_matches_independent_formula(k, n):
    lo, hi = wilson(k, n)
    elo, ehi = wilson_textbook(k, n)
    assert lo == pytest.approx(elo, abs=1e-12)
    assert hi == pytest.approx(ehi, abs=1e-12)


def test_wilson_matches_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    for k, n in [(0, 5), (2, 5), (5, 5), (81, 263), (12345, 20000)]:
        ci = scipy_stats.binomtest(k, n).proportion_ci(method="wilson")
        lo, hi = wilson(k, n)
        assert lo == pytest.approx(ci.low, abs=1e-12)
        assert hi == pytest.approx(ci.high, abs=1e-12)


def test_wilson_edges_are_exact():
    assert wilson(0, 0) == (0.0, 1.0)
    for n in (1, 7, 10, 1000, 10**9):
        lo, hi = wilson(0, n)
        assert lo == 0.0 and 0.0 < hi < 1.0
        lo, hi = wilson(n, n)
        assert hi == 1.0 and 0.0 < lo < 1.0
    # k=0 upper bound: z^2 / (n + z^2)
    assert wilson(0, 10)[1] == pytest.approx(Z95**2 / (10 + Z95**2), rel=1e-12)


def test_wilson_symmetry_and_containment():
    for k, n in [(0, 3), (1, 3), (17, 40), (40, 40)]:
        lo, hi = wilson(k, n)
        lo2, hi2 = wilson(n - k, n)
        assert lo == pytest.approx(1 - hi2, abs=1e-12)
        assert hi == pytest.approx(1 - lo2, abs=1e-12)
        assert lo <= k / n <= hi


def test_wilson_vectorized_matches_scalar():
    k = np.array([0, 1, 5, 10, 0])
    n = np.array([10, 10, 10, 10, 0])
    lo, hi = wilson(k, n)
    assert isinstance(lo, np.ndarray) and lo.shape == (5,)
    for i in range(5):
        slo, shi = wilson(int(k[i]), int(n[i]))
        assert lo[i] == slo and hi[i] == shi
    assert lo[0] == 0.0 and hi[3] == 1.0 and (lo[4], hi[4]) == (0.0, 1.0)
    # broadcasting: many k against one n
    lo2, hi2 = wilson(np.arange(11), 10)
    assert lo2.shape == (11,) and np.all(np.diff(lo2) > 0) and np.all(np.diff(hi2) > 0)


def test_wilson_rejects_bad_counts():
    for k, n in [(-1, 5), (6, 5), (0, -1)]:
        with pytest.raises(ValueError):
            wilson(k, n)


def test_wilson_other_z():
    lo95, hi95 = wilson(30, 100)
    lo99, hi99 = wilson(30, 100, z=2.5758293035489004)
    assert lo99 < lo95 and hi99 > hi95


def test_half_width():
    lo, hi = wilson(81, 263)
    assert wilson_half_width(81, 263) == pytest.approx((hi - lo) / 2)
    assert wilson_half_width(0, 0) == 0.5
    hw = wilson_half_width(np.array([5000, 50000]), np.array([10000, 100000]))
    assert hw[1] < hw[0] < 0.01
    # the precision target of the runner: ~0.98/sqrt(n) at p = 1/2
    assert hw[0] == pytest.approx(Z95 * 0.5 / math.sqrt(10000), rel=1e-3)


# ---------------------------------------------------------------- rate_table


def test_rate_table_scalar():
    t = rate_table(50, 30, 20)
    assert set(t) == {
        "win_rate", "win_lo", "win_hi", "loss_rate", "loss_lo", "loss_hi",
        "draw_rate", "draw_lo", "draw_hi",
    }
    assert t["win_rate"] == 0.5 and t["loss_rate"] == 0.3 and t["draw_rate"] == 0.2
    assert (t["win_lo"], t["win_hi"]) == wilson(50, 100)
    assert (t["draw_lo"], t["draw_hi"]) == wilson(20, 100)
    # draws are not folded into wins
    assert t["win_rate"] + t["loss_rate"] + t["draw_rate"] == pytest.approx(1.0)


def test_rate_table_vectorized_and_empty():
    t = rate_table(np.array([1, 0]), np.array([1, 0]), np.array([0, 0]))
    assert t["win_rate"][0] == 0.5 and math.isnan(t["win_rate"][1])
    assert t["win_lo"][1] == 0.0 and t["win_hi"][1] == 1.0
    assert t["draw_lo"][0] == 0.0


# ---------------------------------------------------------------- histogram


def test_mean_and_se_from_hist_matches_raw_data():
    values = np.array([1, 2, 3, 4, 30])
    counts = np.array([5, 9, 3, 0, 2])
    raw = np.repeat(values, counts)
    mean, se = mean_and_se_from_hist(values, counts)
    assert mean == pytest.approx(raw.mean())
    assert se == pytest.approx(raw.std(ddof=1) / math.sqrt(raw.size))


def test_mean_and_se_from_hist_edges():
    m, se = mean_and_se_from_hist([1, 2], [0, 0])
    assert math.isnan(m) and math.isnan(se)
    m, se = mean_and_se_from_hist([1, 2], [0, 1])
    assert m == 2.0 and math.isnan(se)
    assert mean_and_se_from_hist([4, 5], [10, 0]) == (4.0, 0.0)
    with pytest.raises(ValueError):
        mean_and_se_from_hist([1, 2], [1])


# ---------------------------------------------------------------- holm


def test_holm_worked_example():
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04
    # -> running max 0.02, 0.03, 0.06, 0.06
    adj = holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06, 0.02])


def test_holm_caps_and_monotone():
    p = np.array([0.5, 0.001, 0.2, 0.9, 0.04, 0.04])
    adj = holm(p)
    assert np.all(adj <= 1.0) and np.all(adj >= p)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= 0)
    assert adj[3] == 1.0


def naive_holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def test_holm_against_naive_loop():
    rng = np.random.default_rng(5)
    for size in (1, 2, 7, 40):
        p = rng.uniform(0, 0.2, size)
        np.testing.assert_allclose(holm(p), naive_holm(list(p)))


def test_holm_nan_and_scalar():
    adj = holm([0.01, np.nan, 0.02])
    assert math.isnan(adj[1])
    np.testing.assert_allclose(adj[[0, 2]], [0.02, 0.02])
    assert holm(0.03) == 0.03
    assert holm([]).shape == (0,)
    with pytest.raises(ValueError):
        holm([1.5])


# ---------------------------------------------------------------- Newcombe


@pytest.mark.parametrize(
    "k1,n1,k2,n2,diff,lo,hi",
    [
        # Newcombe (1998), Statistics in Medicine 17:873, method 10 (hybrid score)
        (56, 70, 48, 80, 0.2000, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.6000, 0.1705, 0.8090),
        (5, 56, 0, 29, 0.0893, -0.0381, 0.1926),
        (0, 10, 0, 20, 0.0000, -0.1611, 0.2775),
        (10, 10, 0, 20, 1.0000, 0.6791, 1.0000),
    ],
)
def test_newcombe_worked_examples(k1, n1, k2, n2, diff, lo, hi):
    d, l, h = two_proportion_ci(k1, n1, k2, n2)
    assert d == pytest.approx(diff, abs=5e-5)
    assert l == pytest.approx(lo, abs=5e-5)
    assert h == pytest.approx(hi, abs=5e-5)


def test_newcombe_antisymmetric_vectorized_and_empty():
    d, lo, hi = two_proportion_ci(56, 70, 48, 80)
    d2, lo2, hi2 = two_proportion_ci(48, 80, 56, 70)
    assert d2 == pytest.approx(-d) and lo2 == pytest.approx(-hi) and hi2 == pytest.approx(-lo)
    dv, lov, hiv = two_proportion_ci(np.array([56, 9]), np.array([70, 10]), np.array([48, 3]),
                                     np.array([80, 10]))
    assert dv.shape == (2,) and lov[0] == pytest.approx(lo)
    d, lo, hi = two_proportion_ci(0, 0, 3, 10)
    assert math.isnan(d) and (lo, hi) == (-1.0, 1.0)


def test_paired_difference_needs_joint_count():
    with pytest.raises(ValueError, match="both"):
        paired_difference(10, 12, 20)
    with pytest.raises(ValueError):
        paired_difference(10, 12, 20, both=11)  # both > a_success
    with pytest.raises(ValueError):
        paired_difference(15, 15, 20, both=5)  # only-A + only-B + both > n


def test_paired_difference_textbook_example():
    # Fagerland, Lydersen & Laake (2017) ch. 8, Bentur et al. (2009): the paired
    # table [[1, 1], [7, 12]]; Newcombe square-and-add -0.2857 (-0.5069 to -0.0256)
    d, lo, hi = paired_difference(2, 8, 21, both=1)
    assert (d, lo, hi) == pytest.approx((-0.2857, -0.5069, -0.0256), abs=5e-5)


def test_paired_difference_small_cases():
    # 8 both, 5 only A, 4 only B, 9 neither (n = 26): D = (5 - 4)/26
    d, lo, hi = paired_difference(13, 12, 26, both=8)
    assert d == pytest.approx(1 / 26)
    assert lo < d < hi and -1 <= lo and hi <= 1
    # the same table from per-trial outcomes
    a = [1] * 8 + [1] * 5 + [0] * 4 + [0] * 9
    b = [1] * 8 + [0] * 5 + [1] * 4 + [0] * 9
    assert paired_difference_trials(a, b) == pytest.approx((d, lo, hi))
    # swapping A and B mirrors the interval
    d2, lo2, hi2 = paired_difference(12, 13, 26, both=8)
    assert (d2, lo2, hi2) == pytest.approx((-d, -hi, -lo))
    # phi = 0 (no association) reduces to the independent hybrid interval
    # e=f=g=h=5: eh - fg = 0
    assert paired_difference(10, 10, 20, both=5) == pytest.approx(two_proportion_ci(10, 20, 10, 20))
    # positive correlation (what common random numbers give) narrows it
    _, lo_p, hi_p = paired_difference(60, 50, 100, both=48)
    _, lo_i, hi_i = two_proportion_ci(60, 100, 50, 100)
    assert hi_p - lo_p < hi_i - lo_i and lo_p < 0.10 < hi_p


def test_paired_difference_degenerate():
    # every pair agrees: D = 0 and the interval straddles it
    for a_s, both in ((30, 30), (0, 0), (12, 12)):
        d, lo, hi = paired_difference(a_s, a_s, 30, both=both)
        assert d == 0.0 and lo < 0.0 < hi and -1 <= lo and hi <= 1
    # A always, B never: D = 1, hi = 1
    d, lo, hi = paired_difference(40, 0, 40, both=0)
    assert d == 1.0 and hi == 1.0 and 0.8 < lo < 1.0
    d, lo, hi = paired_difference(0, 0, 0, both=0)
    assert math.isnan(d) and (lo, hi) == (-1.0, 1.0)
    assert paired_difference_trials([], [])[1:] == (-1.0, 1.0)
    with pytest.raises(ValueError):
        paired_difference_trials([1, 0], [1])
    with pytest.raises(ValueError):
        paired_difference_trials([2, 0], [1, 0])
    # arrays broadcast
    dv, lov, hiv = paired_difference(np.array([13, 30]), np.array([12, 30]), 26 + np.array([0, 4]),
                                     both=np.array([8, 30]))
    assert dv.shape == (2,) and lov[0] == pytest.approx(paired_difference(13, 12, 26, both=8)[1])


@pytest.mark.parametrize("n, probs", [
    (200, (0.40, 0.15, 0.05, 0.40)),  # strongly correlated, D = 0.10
    (60, (0.30, 0.08, 0.02, 0.60)),   # small n, rare discordance, D = 0.06
    (500, (0.25, 0.25, 0.25, 0.25)),  # independent, D = 0
])
def test_paired_difference_coverage(n, probs):
    """Empirical coverage of the true difference over 2,000 seeded replications."""
    rng = np.random.default_rng(20260523 + n)
    p11, p10, p01, _ = probs
    true = p10 - p01
    counts = rng.multinomial(n, probs, size=2000)  # columns: both, only A, only B, neither
    e, f, g = counts[:, 0], counts[:, 1], counts[:, 2]
    d, lo, hi = paired_difference(e + f, e + g, n, both=e)
    assert d == pytest.approx((f - g) / n)
    coverage = np.mean((lo <= true) & (true <= hi))
    assert 0.93 <= coverage <= 0.97, coverage


def test_paired_difference_trials_coverage():
    """Per-trial outcomes from a latent common draw (as common random numbers give)."""
    rng = np.random.default_rng(7)
    pa, pb, n, reps = 0.55, 0.45, 150, 2000
    hits = 0
    for _ in range(reps):
        u = rng.random(n)  # the shared seed: both variants see the same u
        noise = rng.random(n) < 0.2  # and part of the time an independent one
        ub = np.where(noise, rng.random(n), u)
        hits += (lambda r: r[1] <= pa - pb <= r[2])(paired_difference_trials(u < pa, ub < pb))
    assert 0.93 <= hits / reps <= 0.97
