"""The ``sim dice`` command's logic: exact and Monte Carlo side by side.

:func:`dice_summary` builds the JSON object printed by ``sim dice --json``;
:func:`format_dice_text` renders it as a plain-text table. The argparse
wiring lives in :mod:`sim.cli`.

The Monte Carlo rolls ``expr`` on stream purpose 0 and the ``--vs``
expression on purpose 1 (independent streams), in chunks of at most
:data:`CHUNK` trials using the ``start`` argument of :func:`sim.dice.roll`,
so the results for the first ``k`` trials do not depend on ``trials`` or
the chunk size (prefix-stable). Opposed rolls use the 4.1 tie rules (L1453),
see :func:`beats_mask` and :func:`sim.exact.beats_breakdown`.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from . import dice, exact
from .dice import DiceExpr

#: Largest number of trials accepted.
MAX_TRIALS = 10 ** 9
#: Trials per Monte Carlo chunk (memory: 16 bytes per trial per expression).
CHUNK = 5_000_000
#: Distribution rows: values with exact probability below this and no MC hit are omitted.
ROW_MIN_P = 1e-9
#: At most this many distribution rows in the JSON (the highest-mass window is kept).
MAX_ROWS = 20_000
#: At most this many rows in the text table (the highest-mass window is shown).
MAX_TEXT_ROWS = 50
#: z for a two-sided 95% interval.
_Z95 = 1.959963984540054

TIE_RULE = ("4.1 tie rules (L1453): higher total wins; on equal totals more sixes (maximum faces) "
            "wins; then the higher modifier (stat); a full tie goes to the defender (the vs roll)")


def _wilson(k: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (two-sided, default 95%)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if k <= 0 else max(0.0, centre - half)
    hi = 1.0 if k >= n else min(1.0, centre + half)
    return (lo, hi)


def beats_mask(total_a: np.ndarray, max_a: np.ndarray, mod_a: int,
               total_b: np.ndarray, max_b: np.ndarray, mod_b: int) -> np.ndarray:
    """Boolean array: attacker A beats defender B, trial by trial (4.1 tie rules, L1453).

    Totals include modifiers (as :func:`sim.dice.roll` returns them); ``max_*``
    are the counts of maximum faces (sixes). Higher total wins; on equal
    totals more maxima wins; then the higher modifier; full ties go to B.
    """
    eq = total_a == total_b
    tie_win = (max_a > max_b) | ((max_a == max_b) & (mod_a > mod_b))
    return (total_a > total_b) | (eq & tie_win)


def _accumulate(hist: dict[int, int], totals: np.ndarray) -> None:
    if totals.size == 0:
        return
    lo = int(totals.min())
    counts = np.bincount(totals - lo)
    for i in np.flatnonzero(counts):
        v = lo + int(i)
        hist[v] = hist.get(v, 0) + int(counts[i])


def _moments(hist: dict[int, int]) -> tuple[float, float | None, float | None]:
    """(mean, sample sd, standard error of the mean) from a histogram, exact integer sums."""
    n = sum(hist.values())
    s1 = sum(v * c for v, c in hist.items())
    s2 = sum(v * v * c for v, c in hist.items())
    mean = s1 / n
    if n < 2:
        return mean, None, None
    var = (n * s2 - s1 * s1) / (n * (n - 1))
    sd = math.sqrt(max(var, 0.0))
    return mean, sd, sd / math.sqrt(n)


def _check_trials(trials) -> int:
    if isinstance(trials, bool):
        raise ValueError(f"trials must be an integer, got {trials!r}")
    try:
        t = operator.index(trials)
    except TypeError:
        raise ValueError(f"trials must be an integer, got {trials!r}") from None
    if not 1 <= t <= MAX_TRIALS:
        raise ValueError(f"trials must be between 1 and {MAX_TRIALS:,}, got {t:,}")
    return t


def _check_seed(seed):
    """Seeds are ints or strings; integer-like values (numpy ints) become int.

    :func:`sim.rng.hash_seed` hashes ``repr(seed)``, so ``np.int64(1)`` would
    otherwise give a different stream than ``1`` (and not be JSON-serialisable).
    """
    if isinstance(seed, str):
        return seed
    if isinstance(seed, bool):
        raise ValueError(f"seed must be an integer or a string, got {seed!r}")
    try:
        return operator.index(seed)
    except TypeError:
        raise ValueError(f"seed must be an integer or a string, got {seed!r}") from None


def _best_window(weights: list[float], width: int) -> int:
    """Start index of the ``width``-long window with the largest sum of ``weights``."""
    pref = np.concatenate(([0.0], np.cumsum(weights)))
    sums = pref[width:] - pref[:-width]
    return int(np.argmax(sums))


def dice_summary(expr: str, *, target: int | None = None, vs: str | None = None,
                 trials: int = 1_000_000, seed=0, depth: int = exact.DEFAULT_DEPTH) -> dict:
    """Exact and Monte Carlo summary of a dice expression (the ``sim dice --json`` object).

    Keys (probabilities are fractions in [0, 1], not percent):

    * ``expr`` (normalised), ``trials``, ``seed``, ``depth`` (explosion cut of
      the exact side), ``exact_method`` (see :class:`sim.exact.ExactDist`);
    * ``exact_mean``, ``exact_sd``, ``lost_mass`` (probability that the depth
      cut changes the roll, :func:`sim.exact.lost_mass`), ``mc_mean``, ``mc_sd``,
      ``mc_se`` (standard error of the MC mean; ``None`` for 1 trial);
    * ``distribution``: ``[value, exact_p, mc_p]`` rows sorted by value, every
      value with exact_p >= 1e-9 or any MC hit; ``omitted_exact_mass`` and,
      when something was left out, ``tail_note``;
    * with ``target``: ``target``, ``exact_p`` = P(total >= target), ``mc_p``,
      ``mc_hits``, ``mc_p_ci`` (95% Wilson interval);
    * with ``vs``: ``vs``, ``tie_rule``, ``exact_p`` = P(expr beats vs under the
      4.1 tie rules; ``None`` with ``exact_note`` if too large to compute),
      ``exact_p_equal_totals``, ``mc_p``, ``mc_wins``, ``mc_p_ci``,
      ``mc_p_equal_totals``, ``vs_exact_mean``, ``vs_mc_mean``, ``vs_lost_mass``.

    Raises :class:`ValueError` for ``target`` with ``vs``, bad ``trials`` or
    ``depth``; :class:`sim.dice.DiceError` (a ValueError) for a bad expression.
    """
    if target is not None and vs is not None:
        raise ValueError("--target and --vs cannot be used together: --target asks P(total >= T) "
                         "for one roll, --vs asks P(first roll beats the second); run them separately")
    trials = _check_trials(trials)
    seed = _check_seed(seed)
    depth = exact._check_depth(depth)
    a: DiceExpr = dice.parse(expr)
    b: DiceExpr | None = dice.parse(vs) if vs is not None else None
    if target is not None:
        if isinstance(target, bool):
            raise ValueError(f"target must be an integer, got {target!r}")
        try:
            target = operator.index(target)
        except TypeError:
            raise ValueError(f"target must be an integer, got {target!r}") from None

    dist = exact.distribution(a, depth)

    # ---- Monte Carlo, chunked and prefix-stable
    hist: dict[int, int] = {}
    hist_b: dict[int, int] = {}
    wins = ties = 0
    for start in range(0, trials, CHUNK):
        count = min(CHUNK, trials - start)
        ta, ma = dice.roll(a, count, seed=seed, purpose=0, start=start)
        _accumulate(hist, ta)
        if b is not None:
            tb, mb = dice.roll(b, count, seed=seed, purpose=1, start=start)
            _accumulate(hist_b, tb)
            wins += int(np.count_nonzero(beats_mask(ta, ma, a.modifier, tb, mb, b.modifier)))
            ties += int(np.count_nonzero(ta == tb))
    mc_mean, mc_sd, mc_se = _moments(hist)

    out: dict = {
        "expr": str(a),
        "trials": trials,
        "seed": seed,
        "depth": depth,
        "exact_method": dist.method,
        "exact_mean": dist.mean,
        "exact_sd": dist.sd,
        "lost_mass": dist.lost_mass,
        "mc_mean": mc_mean,
        "mc_sd": mc_sd,
        "mc_se": mc_se,
    }

    # ---- distribution rows
    values = sorted(set(v for v, p in dist.pmf.items() if p >= ROW_MIN_P) | set(hist))
    rows = [[v, float(dist.pmf.get(v, 0.0)), hist.get(v, 0) / trials] for v in values]
    listed = set(values)
    omitted = [p for v, p in dist.pmf.items() if v not in listed]
    notes = []
    if omitted:
        notes.append(f"{len(omitted)} values with exact p < {ROW_MIN_P:g} and no Monte Carlo hits "
                     f"are not listed (exact mass {math.fsum(omitted):.3g})")
    omitted_mass = math.fsum(omitted)
    if len(rows) > MAX_ROWS:
        i = _best_window([r[1] + r[2] for r in rows], MAX_ROWS)
        cut = rows[:i] + rows[i + MAX_ROWS:]
        cut_exact = math.fsum(r[1] for r in cut)
        cut_mc = math.fsum(r[2] for r in cut)
        notes.append(f"distribution truncated to the {MAX_ROWS} values {rows[i][0]}..{rows[i + MAX_ROWS - 1][0]}; "
                     f"{len(cut)} tail values left out (exact mass {cut_exact:.3g}, MC share {cut_mc:.3g})")
        omitted_mass += cut_exact
        rows = rows[i:i + MAX_ROWS]
    out["distribution"] = rows
    out["omitted_exact_mass"] = omitted_mass
    if notes:
        out["tail_note"] = "; ".join(notes)

    # ---- probability line
    if target is not None:
        k = sum(c for v, c in hist.items() if v >= target)
        out.update(target=target, exact_p=dist.p_at_least(target), mc_p=k / trials, mc_hits=k,
                   mc_p_ci=list(_wilson(k, trials)))
    if b is not None:
        dist_b = exact.distribution(b, depth)
        out.update(vs=str(b), tie_rule=TIE_RULE)
        try:
            parts = exact.beats_breakdown(a, b, depth)
            out["exact_p"] = float(parts["win"])
            out["exact_p_equal_totals"] = float(parts["equal_totals"])
        except exact.ExactTooLarge as err:
            out["exact_p"] = None
            out["exact_p_equal_totals"] = None
            out["exact_note"] = str(err)
        out.update(mc_p=wins / trials, mc_wins=wins, mc_p_ci=list(_wilson(wins, trials)),
                   mc_p_equal_totals=ties / trials, vs_exact_mean=dist_b.mean,
                   vs_mc_mean=_moments(hist_b)[0], vs_lost_mass=dist_b.lost_mass)
    return out


# --------------------------------------------------------------------------- text


def _pct(p: float | None) -> str:
    if p is None:
        return "-"
    if p == 0:
        return "0"
    if p >= 1e-4:
        return f"{100 * p:.4f}"
    return f"{100 * p:.2e}"


def format_dice_text(summary: dict) -> str:
    """A plain-text report of :func:`dice_summary`'s object: table, means, probability."""
    s = summary
    lines = [f"{s['expr']}   ({s['trials']:,} trials, seed {s['seed']!r}, explosion depth {s['depth']})"]
    rows = s["distribution"]
    shown = rows
    note = None
    if len(rows) > MAX_TEXT_ROWS:
        i = _best_window([r[1] + r[2] for r in rows], MAX_TEXT_ROWS)
        shown = rows[i:i + MAX_TEXT_ROWS]
        mass = math.fsum(r[1] for r in shown)
        note = (f"(showing the central {MAX_TEXT_ROWS} of {len(rows)} values, {shown[0][0]}..{shown[-1][0]}, "
                f"{100 * mass:.6g}% of the exact mass; --json lists them all)")
    vw = max(5, max((len(str(r[0])) for r in shown), default=5))
    top = max((max(r[1], r[2]) for r in shown), default=0.0) or 1.0
    lines.append(f"{'value':>{vw}}  {'exact %':>10}  {'MC %':>10}")
    for v, pe, pm in shown:
        bar = "#" * int(round(30 * pe / top))
        lines.append(f"{v:>{vw}}  {_pct(pe):>10}  {_pct(pm):>10}  {bar}")
    if note:
        lines.append(note)
    if s.get("tail_note"):
        lines.append(f"(note: {s['tail_note']})")
    lm = s["lost_mass"]
    cut = f"; depth cut {s['depth']}, lost mass {lm:.2g}" if lm else ""
    lines.append(f"exact mean  {s['exact_mean']:.4f}  (sd {s['exact_sd']:.4f}{cut})")
    se = s.get("mc_se")
    se_txt = f" +/- {se:.4f} (1 s.e.)" if se is not None else ""
    lines.append(f"MC mean     {s['mc_mean']:.4f}{se_txt}")
    ci = s.get("mc_p_ci")
    ci_txt = f" (95% CI {100 * ci[0]:.3f}% - {100 * ci[1]:.3f}%)" if ci else ""
    if "target" in s:
        lines.append(f"P(total >= {s['target']}): exact {100 * s['exact_p']:.4f}%, "
                     f"MC {100 * s['mc_p']:.4f}%{ci_txt}")
    if "vs" in s:
        ex = "n/a" if s["exact_p"] is None else f"{100 * s['exact_p']:.4f}%"
        lines.append(f"vs {s['vs']}: exact mean {s['vs_exact_mean']:.4f}, MC mean {s['vs_mc_mean']:.4f}")
        lines.append(f"P({s['expr']} beats {s['vs']}): exact {ex}, MC {100 * s['mc_p']:.4f}%{ci_txt}")
        if s.get("exact_p_equal_totals") is not None:
            lines.append(f"  equal totals (tie rules decide): exact {100 * s['exact_p_equal_totals']:.4f}%")
        if s.get("exact_note"):
            lines.append(f"  ({s['exact_note']})")
        lines.append(f"  {s['tie_rule']}")
    return "\n".join(lines) + "\n"
