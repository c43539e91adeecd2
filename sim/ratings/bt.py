"""Bradley-Terry ratings of a round robin: the MM fit, Fisher and bootstrap
intervals, the Elo scale (see :mod:`sim.ratings` and ``docs/ratings.md``)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.stats import Z95

from .matches import Matches, first_seat_scores

#: rating points per natural-log unit of strength: 400 points = odds of 10:1
ELO = 400.0 / math.log(10.0)
#: the mean rating
MEAN_RATING = 1500.0
#: stream purpose of the bootstrap's resampling (numpy SeedSequence word)
_BOOT_PURPOSE = 0x62745F626F6F74  # "bt_boot"
#: bootstrap replicates drawn and fitted at a time (fixed: the draws depend on it)
_BOOT_BLOCK = 50


def _with_prior(score, games, prior: float):
    """(score, games) off the diagonal, plus ``prior`` virtual drawn games per pair that played."""
    score = np.asarray(score, dtype=float)
    games = np.asarray(games, dtype=float)
    off = ~np.eye(score.shape[-1], dtype=bool)
    played = (games > 0) & off
    return (np.where(off, score, 0.0) + 0.5 * prior * played,
            np.where(off, games, 0.0) + prior * played)


def _mm(s, n, tol: float, max_iter: int) -> np.ndarray:
    """Hunter's (2004) MM iteration ``p_i <- W_i / sum_j n_ij / (p_i + p_j)`` (eq. 3)."""
    w = s.sum(axis=-1)
    p = np.ones(s.shape[:-1])
    for _ in range(int(max_iter)):
        denom = (n / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = np.where(denom > 0, w / np.where(denom > 0, denom, 1.0), p)
        new = new / np.exp(np.log(np.maximum(new, 1e-300)).mean(axis=-1, keepdims=True))
        done = np.max(np.abs(np.log(np.maximum(new, 1e-300)) - np.log(p))) < tol
        p = new
        if done:
            break
    return np.log(np.maximum(p, 1e-300))


def _newton(s, n, tol: float, max_iter: int) -> np.ndarray:
    """Newton-Raphson on the log-likelihood ``sum s_ij log pi_ij`` (a logistic
    regression), steps clipped to 1 log unit; solves ``(I + J/K) d = g`` so each
    step keeps the mean of ``theta`` at 0 (``I`` the Fisher information, ``J``
    all ones, ``g`` the gradient, which sums to 0)."""
    k = s.shape[-1]
    theta = np.zeros(s.shape[:-1])
    w = s.sum(axis=-1)
    for _ in range(int(max_iter)):
        pi = 1.0 / (1.0 + np.exp(theta[..., None, :] - theta[..., :, None]))
        grad = w - (n * pi).sum(axis=-1)
        c = n * pi * np.swapaxes(pi, -1, -2)
        info = -c + np.eye(k) * c.sum(axis=-1)[..., None] + 1.0 / k
        step = np.clip(np.linalg.solve(info, grad[..., None])[..., 0], -1.0, 1.0)
        theta = theta + step
        if np.max(np.abs(step)) < tol:
            break
    return theta


def bt_fit(score: np.ndarray, games: np.ndarray, prior: float = 1.0, tol: float = 1e-10,
           max_iter: int = 10_000, method: str = "newton") -> np.ndarray:
    """Bradley-Terry log strengths: the maximum-likelihood fit with draws as half wins.

    ``score``: float[..., K, K], ``score[i, j]`` entry ``i``'s wins plus half
    its draws against ``j``; ``games``: float[..., K, K], games between ``i``
    and ``j`` (symmetric); leading axes are independent fits (bootstrap
    replicates). ``prior`` adds that many virtual drawn games to every pair
    that played, so an entry that won (or lost) every game keeps a finite
    strength; its pull is ``prior / (games + prior)`` of a game's weight.
    ``method``: ``"newton"`` (Newton-Raphson, a few steps) or ``"mm"``
    (Hunter 2004, eq. 3: monotone but slow when strengths are far apart);
    both find the same maximum. Returns float[..., K] natural-log strengths
    ``theta`` with mean 0: ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``.
    """
    s, n = _with_prior(score, games, prior)
    if method == "mm":
        theta = _mm(s, n, tol, max_iter)
    elif method == "newton":
        theta = _newton(s, n, tol, max_iter)
    else:
        raise ValueError(f"method must be 'newton' or 'mm', got {method!r}")
    return theta - theta.mean(axis=-1, keepdims=True)


def bt_fisher_se(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Standard errors of ``theta`` (mean-0 log strengths) from the Fisher information.

    ``I = sum over pairs of n_ij pi_ij pi_ji (e_i - e_j)(e_i - e_j)^T`` with
    ``pi_ij = P(i beats j)`` at ``theta``; the covariance of the mean-0
    parameters is its Moore-Penrose inverse (its null space is the common
    shift). Counts draws as half wins, so the binomial variance slightly
    overstates a draw's. ``theta``: float[K]; ``games``: float[K, K].
    Returns float[K] (natural-log units; times :data:`ELO` for points).
    """
    theta = np.asarray(theta, dtype=float)
    n = np.asarray(games, dtype=float) * ~np.eye(len(theta), dtype=bool)
    pi = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    c = n * pi * pi.T
    info = np.diag(c.sum(axis=1)) - c
    cov = np.linalg.pinv(info)
    return np.sqrt(np.maximum(np.diag(cov), 0.0))


def _pair_scores(matches: Matches) -> np.ndarray:
    """float[K, K, T]: entry ``i``'s score against ``j`` summed over trial ``t``'s two games."""
    a = first_seat_scores(matches.outcomes)
    return np.where(np.eye(len(matches.entries), dtype=bool)[:, :, None], 0.0,
                    a + 1.0 - np.swapaxes(a, 0, 1))


def _bootstrap(matches: Matches, per_trial: np.ndarray, games: np.ndarray, n_boot: int,
               boot_seed: int | None, prior: float) -> np.ndarray:
    """float[B, K]: refitted ``theta`` over ``n_boot`` resamples of the trial indices.

    Each replicate draws how often each trial index is taken (multinomial,
    ``T`` draws) from one numpy stream keyed by ``(boot_seed, "bt_boot")``, in
    fixed blocks of :data:`_BOOT_BLOCK` replicates (memory ``B_block * T``).
    """
    seed = matches.seed if boot_seed is None else boot_seed
    rng = np.random.default_rng(np.random.SeedSequence([int(seed) & (2**63 - 1), _BOOT_PURPOSE]))
    t, k = matches.trials, games.shape[-1]
    out = []
    for b0 in range(0, int(n_boot), _BOOT_BLOCK):
        b = min(_BOOT_BLOCK, int(n_boot) - b0)
        w = rng.multinomial(t, np.full(t, 1.0 / t), size=b).astype(float)
        out.append(bt_fit(np.einsum("bt,ijt->bij", w, per_trial), np.broadcast_to(games, (b, k, k)),
                          prior=prior))
    return np.concatenate(out) if out else np.zeros((0, k))


def rating_table(matches: Matches, n_boot: int = 1000, prior: float = 1.0,
                 boot_seed: int | None = None, level: float = 0.95) -> pd.DataFrame:
    """Bradley-Terry ratings with intervals, best first.

    Columns: ``rank``, ``entry``, ``rating`` (Elo scale: ``ELO * theta + 1500``,
    mean 1500, 400 points = 10:1 odds), ``lo``/``hi`` (bootstrap percentile
    interval at ``level`` over ``n_boot`` resamples of the trial indices,
    the same indices for every pair and seating; NaN when ``n_boot`` is 0),
    ``se`` and ``fisher_lo``/``fisher_hi`` (rating +- z se from the Fisher
    information), ``score`` (wins plus half draws per game, against all),
    ``games``. The bootstrap's streams are keyed by ``boot_seed`` (default:
    the round robin's seed), so the table is reproducible.
    """
    per_trial = _pair_scores(matches)
    k, t = len(matches.entries), matches.trials
    games = np.where(np.eye(k, dtype=bool), 0.0, 2.0 * t)
    score = per_trial.sum(axis=-1)
    theta = bt_fit(score, games, prior=prior)
    se = bt_fisher_se(theta, games)
    z = float(Z95 if level == 0.95 else _z(level))
    lo = hi = np.full(k, np.nan)
    if n_boot:
        boot = _bootstrap(matches, per_trial, games, n_boot, boot_seed, prior)
        alpha = (1.0 - level) / 2.0
        lo, hi = np.quantile(boot, [alpha, 1.0 - alpha], axis=0)
    rating = MEAN_RATING + ELO * theta
    t_ = pd.DataFrame({"entry": matches.entries, "rating": rating,
                       "lo": MEAN_RATING + ELO * lo, "hi": MEAN_RATING + ELO * hi,
                       "se": ELO * se, "fisher_lo": rating - z * ELO * se, "fisher_hi": rating + z * ELO * se,
                       "score": score.sum(axis=1) / games.sum(axis=1), "games": games.sum(axis=1).astype(int)})
    t_ = t_.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    t_.insert(0, "rank", np.arange(1, k + 1))
    return t_


def _z(level: float) -> float:
    from scipy.stats import norm

    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    return float(norm.ppf(0.5 + level / 2.0))


def expected_score(r_i, r_j):
    """Bradley-Terry ``P(i beats j)`` (draws as halves) from ratings on the Elo scale."""
    return 1.0 / (1.0 + 10.0 ** ((np.asarray(r_j, float) - np.asarray(r_i, float)) / 400.0))


def fit_check(matches: Matches, ratings: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """How well the ratings explain each pair: Bradley-Terry is transitive, so a
    rock-paper-scissors cycle of decks shows here and not in the ratings.

    Returns a table with one row per ordered pair (``entry``, ``opponent``,
    ``score``: observed wins plus half draws per game, ``bt_score``: what the
    ratings predict, ``bt_z``: the difference over its standard error,
    estimated from the spread of the per-trial scores over both seatings, so
    it keeps the common-random-number pairing) and a summary ``{"chi2": sum
    of z^2 over unordered pairs, "df": pairs - (K - 1), "p_value": the chi-2
    upper tail (NaN when df is 0), "max_abs_z"}``. The chi-2 reference is
    approximate (the fit's parameters are estimated from the same games).
    """
    from scipy.stats import chi2 as _chi2

    per_trial = _pair_scores(matches) / 2.0   # i's score per game, averaged over the two seatings
    rating = ratings.set_index("entry")["rating"]
    rows, stat = [], 0.0
    k, t = len(matches.entries), matches.trials
    for i, a in enumerate(matches.entries):
        for j, b in enumerate(matches.entries):
            if i == j:
                continue
            obs = float(per_trial[i, j].mean())
            exp = float(expected_score(rating[a], rating[b]))
            se = float(per_trial[i, j].std(ddof=1) / np.sqrt(t)) if t > 1 else np.nan
            z = (obs - exp) / se if se > 0 else 0.0
            rows.append({"entry": a, "opponent": b, "score": obs, "bt_score": exp, "bt_z": z})
            if i < j:
                stat += z * z
    df = k * (k - 1) // 2 - (k - 1)
    p = float(_chi2.sf(stat, df)) if df > 0 else float("nan")
    table = pd.DataFrame(rows)
    return table, {"chi2": stat, "df": df, "p_value": p,
                   "max_abs_z": float(table["bt_z"].abs().max()) if len(table) else float("nan")}
