"""Exact dice distributions (icepool), the oracle for the Monte Carlo kernels.

Everything here is computed, not sampled, and is what :mod:`sim.dice`'s
kernels are tested against (``tests/test_exact.py``).

Rules implemented (Magical Burst 4.1):

* ``Nd6!`` (seed 000, L149): every 6 adds another d6, which can explode
  again; every six counts, including sixes on added dice. Generalised to
  ``NdX!``: every maximum face ``X`` adds a die.
* ``Nd10s`` (d10 add-on, seed 003): a success pool, 1-6 no success, 7-9 one
  success, 10 two successes; ``0d10s`` is allowed (0 successes).
* Opposed rolls (L1453, 4.1 tie rules): the attacker A beats the defender B
  if A's total (dice + modifier) is higher; on equal totals the roll with
  more maximum faces (sixes for d6) wins; if still tied the higher modifier
  (standing for the stat) wins; a full tie goes to the defender. Success
  pools have no "sixes" (their maxima count is 0, as in the kernels), so
  they compare successes, then modifiers, then the defender wins.

Explosion depth
---------------
An exploding distribution is infinite, so it is cut at ``depth``: icepool's
``Die.explode(..., depth=depth)`` rolls at most ``depth`` *additional* dice
per original die. Its default ``end=None`` means: when the ``depth``-th added
die (the ``depth+1``-th die of the chain) shows the maximum face again, that
face counts at face value but the die it would have added is treated as 0
(not rolled). So the cut does not drop probability mass, it *misplaces* it:
a chain of ``depth+1`` maximum faces, probability ``X**-(depth+1)``, stands
for itself (total ``X*(depth+1)``, ``depth+1`` maxima) instead of being
spread over the larger totals it would really reach. For ``1d6!`` at depth 1
the outcome 12 has probability 1/36 (instead of 0) and 13..18 have 0.

``lost_mass`` (see :func:`lost_mass`) is the probability of that event for
at least one of the ``n`` dice, ``1 - (1 - X**-(depth+1))**n``. Outside it
the cut distribution is exactly right, so for *any* event E (a total, a
``P(total >= T)``, an opposed win) ``|P_cut(E) - P_true(E)| <= lost_mass``
(and for an opposed roll, ``<= lost_mass(A) + lost_mass(B)``). At the
default depth 20 it is ``2.7e-16`` per d6, below float64 resolution of
probabilities near 1. The Monte Carlo kernels explode to depth 1000
(:data:`sim.dice.MAX_EXPLOSIONS`), so MC and exact differ by ~1e-16 in law.
The cut mean is slightly *below* the true mean (by 3.8e-16 for 2d6! at
depth 20; the true mean of ``NdX!`` is ``N*(X+1)/2 * X/(X-1)``). Small dice
need more depth: ``1d2!`` at depth 20 has lost mass 4.8e-7 and a mean
1.4e-6 low.

Cost
----
Small pools (the game's 1-6 dice) are exact in rational arithmetic
(``fractions`` of :class:`ExactDist`). Very large expressions (e.g.
``100d100`` or ``20d1000!``) would take icepool minutes, so
:func:`distribution` switches to float64 convolution above a work budget
(``ExactDist.method`` says which was used), and the joint (total, maxima)
distributions raise :class:`ExactTooLarge` above theirs.
"""
from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping

import icepool
import numpy as np

from .dice import DiceExpr, parse

#: Default explosion depth: additional dice per original die (icepool ``depth``).
DEFAULT_DEPTH = 20
#: Largest depth accepted (X**-101 is far below float64 resolution).
MAX_DEPTH = 100
#: Work budget (~ big-integer multiply-adds) for icepool's rational sums;
#: above it :func:`distribution` uses float64 convolution (~1 s at the budget).
ICEPOOL_BUDGET = 10_000_000
#: Work budget for the exact joint (total, maxima) convolution (~2 s).
JOINT_BUDGET = 10_000_000
#: Above this many multiply-adds a float convolution uses FFT instead of direct.
_DIRECT_CONV_LIMIT = 20_000_000

__all__ = [
    "DEFAULT_DEPTH", "MAX_DEPTH", "ExactDist", "ExactTooLarge", "distribution",
    "joint_total_maxima", "joint_fractions", "d10_pool", "lost_mass", "p_at_least",
    "p_beats", "p_beats_exact", "beats_breakdown",
]


class ExactTooLarge(ValueError):
    """The exact computation would exceed its work budget (use Monte Carlo)."""


@dataclass(frozen=True)
class ExactDist:
    """The exact distribution of one expression's total (modifier included).

    ``pmf``: value -> probability (float), values sorted ascending, zero
    entries omitted. ``fractions``: the same as exact :class:`Fraction`, or
    ``None`` when the float64 fallback was used (``method``).
    ``mean``: mean of the depth-cut distribution (exact closed form, float;
    ``mean_fraction`` exact). ``lost_mass``: see :func:`lost_mass`.
    ``method``: ``"icepool-exact"`` (rational), ``"float64-direct"`` or
    ``"float64-fft"`` (FFT rounding: probabilities below ~1e-13 of the
    largest are unreliable and values below that noise floor are dropped).
    """

    expr: DiceExpr
    depth: int
    pmf: Mapping[int, float]
    fractions: Mapping[int, Fraction] | None
    mean: float
    mean_fraction: Fraction
    lost_mass: float
    lost_mass_fraction: Fraction
    method: str

    @property
    def variance(self) -> float:
        """Variance of the (depth-cut) total, from the pmf (float)."""
        if self.fractions is not None:
            m = self.mean_fraction
            return float(sum(p * (v - m) ** 2 for v, p in self.fractions.items()))
        return float(sum(p * (v - self.mean) ** 2 for v, p in self.pmf.items()))

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    def p_at_least(self, target: int) -> float:
        """``P(total >= target)``."""
        if self.fractions is not None:
            return float(sum((p for v, p in self.fractions.items() if v >= target), Fraction(0)))
        return float(math.fsum(p for v, p in self.pmf.items() if v >= target))


# --------------------------------------------------------------------------- helpers


def _as_expr(expr: DiceExpr | str) -> DiceExpr:
    return parse(expr) if isinstance(expr, str) else expr


def _check_depth(depth: int) -> int:
    d = int(depth)
    if d != depth or not 0 <= d <= MAX_DEPTH:
        raise ValueError(f"explosion depth must be an integer 0..{MAX_DEPTH}, got {depth!r}")
    return d


def _depth_key(explode: bool, depth: int) -> int:
    # the depth only matters for exploding dice; normalise it for the caches
    return _check_depth(depth) if explode else 0


def lost_mass(n: int, sides: int, explode: bool, depth: int = DEFAULT_DEPTH) -> Fraction:
    """Probability that the depth cut changes the roll of ``n`` ``d{sides}`` dice.

    It is the probability that at least one die's explosion chain shows
    ``depth + 1`` maximum faces in a row (so the real game would roll more
    dice than the cut distribution does): ``1 - (1 - sides**-(depth+1))**n``.
    On that event the cut total is too low (by at least 1) and the maxima
    count may be too low; off it the cut roll is exact. 0 for
    non-exploding dice and success pools. Exact :class:`Fraction`.
    """
    if not explode or n <= 0:
        return Fraction(0)
    d = _check_depth(depth)
    return 1 - (1 - Fraction(1, sides ** (d + 1))) ** n


def _mean_fraction(e: DiceExpr, depth: int) -> Fraction:
    """Closed-form mean of the depth-cut total (modifier included)."""
    s = e.sides
    if e.successes:
        per = Fraction(3 * 1 + 1 * 2, 10)  # 7-9 one success, 10 two (seed 003)
    elif not e.explode:
        per = Fraction(s + 1, 2)
    else:
        d = _check_depth(depth)
        face_sum = Fraction(s * (s - 1), 2)  # faces 1..s-1 end a chain
        per = Fraction(0)
        for k in range(d + 1):  # k maxima then a non-maximum face
            per += Fraction(1, s ** (k + 1)) * (s * k * (s - 1) + face_sum)
        per += Fraction(s * (d + 1), s ** (d + 1))  # the cut chain: d+1 maxima
    return e.n * per + e.modifier


@functools.lru_cache(maxsize=256)
def _single_die(sides: int, explode: bool, successes: bool, depth: int) -> icepool.Die:
    if successes:
        return icepool.Die({0: 6, 1: 3, 2: 1})  # d10 pool die (seed 003)
    die = icepool.d(sides)
    if explode:
        die = die.explode(depth=depth)
    return die


def _icepool_cost(e: DiceExpr, depth: int) -> int:
    if e.successes:
        return e.n * 3 * (2 * e.n + 1)
    die_support = (e.sides - 1) * (depth + 1) + 1 if e.explode else e.sides
    span = e.sides * (depth + 1) if e.explode else e.sides
    return e.n * die_support * (e.n * (span - 1) + 1)


@functools.lru_cache(maxsize=256)
def _sum_quantities(n: int, sides: int, explode: bool, successes: bool, depth: int):
    """Exact sum of n dice (no modifier): (tuple of (value, quantity), denominator)."""
    if n == 0:
        return ((0, 1),), 1
    total = n @ _single_die(sides, explode, successes, depth)
    items = tuple(sorted((int(v), int(q)) for v, q in total.items() if q))
    return items, int(total.denominator())


def _single_die_float(e: DiceExpr, depth: int) -> np.ndarray:
    """Float pmf of one die indexed by value (index 0 = value 0), same cut as icepool."""
    s = e.sides
    if e.successes:
        return np.array([0.6, 0.3, 0.1])
    if not e.explode:
        p = np.zeros(s + 1)
        p[1:] = 1.0 / s
        return p
    p = np.zeros(s * (depth + 1) + 1)
    for k in range(depth + 1):
        p[s * k + 1: s * k + s] = float(s) ** -(k + 1)
    p[s * (depth + 1)] = float(s) ** -(depth + 1)
    return p


def _conv(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, bool]:
    if a.size * b.size <= _DIRECT_CONV_LIMIT:
        return np.convolve(a, b), False
    size = a.size + b.size - 1
    nfft = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, nfft) * np.fft.rfft(b, nfft), nfft)[:size]
    np.clip(out, 0.0, None, out=out)
    return out, True


def _sum_float(e: DiceExpr, depth: int) -> tuple[np.ndarray, bool]:
    """Float pmf of the sum of e.n dice by binary powering of convolutions."""
    base = _single_die_float(e, depth)
    result = np.ones(1)
    used_fft = False
    n = e.n
    while n:
        if n & 1:
            result, f = _conv(result, base)
            used_fft |= f
        n >>= 1
        if n:
            base, f = _conv(base, base)
            used_fft |= f
    return result, used_fft


# --------------------------------------------------------------------------- public API


def distribution(expr: DiceExpr | str, depth: int = DEFAULT_DEPTH) -> ExactDist:
    """Exact distribution of the total of ``expr`` (modifier included).

    ``depth``: explosions per original die (see the module docstring for
    what the cut means); ignored for non-exploding dice and success pools.
    For success pools (``Nd10s``) the "total" is the number of successes
    plus the modifier.
    """
    e = _as_expr(expr)
    depth = _check_depth(depth)
    dk = depth if e.explode else 0
    mean_fr = _mean_fraction(e, dk)
    lm = lost_mass(e.n, e.sides, e.explode, dk)
    if _icepool_cost(e, dk) <= ICEPOOL_BUDGET:
        items, den = _sum_quantities(e.n, e.sides, e.explode, e.successes, dk)
        fr = {v + e.modifier: Fraction(q, den) for v, q in items}
        pmf = {v: float(p) for v, p in fr.items()}
        return ExactDist(e, dk, MappingProxyType(pmf), MappingProxyType(fr), float(mean_fr),
                         mean_fr, float(lm), lm, "icepool-exact")
    arr, used_fft = _sum_float(e, dk)
    if used_fft:
        arr = np.where(arr >= 1e-13 * arr.max(), arr, 0.0)
    idx = np.nonzero(arr)[0]
    pmf = {int(i) + e.modifier: float(arr[i]) for i in idx}
    return ExactDist(e, dk, MappingProxyType(pmf), None, float(mean_fr), mean_fr, float(lm), lm,
                     "float64-fft" if used_fft else "float64-direct")


@functools.lru_cache(maxsize=64)
def _die_joint(sides: int, explode: bool, depth: int):
    """One die's joint (face total, maxima) from icepool Vectors: (items, denominator)."""
    die = icepool.d(sides).map(lambda x: icepool.Vector((x, int(x == sides))))
    if explode:
        die = die.explode([icepool.Vector((sides, 1))], depth=depth)
    items = tuple(sorted(((int(o[0]), int(o[1])), int(q)) for o, q in die.items() if q))
    return items, int(die.denominator())


def _joint_cost(n: int, sides: int, explode: bool, depth: int) -> int:
    """Estimated multiply-adds of the n-fold joint convolution (support-size model)."""
    die_support = (sides - 1) * (depth + 1) + 1 if explode else sides
    cost = 0
    for i in range(n):  # support of the i-fold sum times the die's support
        if explode:
            supp = (i * (depth + 1) + 1) * ((sides - 2) * i + 1)
        else:
            supp = (sides - 2) * i * (i + 1) // 2 + i + 1
        cost += supp * die_support
    return cost


@functools.lru_cache(maxsize=128)
def _joint_q(n: int, sides: int, explode: bool, depth: int):
    """Exact joint of n dice: (dict (total, maxima) -> integer quantity, denominator)."""
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, got {n}")
    if _joint_cost(n, sides, explode, depth) > JOINT_BUDGET:
        raise ExactTooLarge(
            f"the exact joint (total, maxima) of {n}d{sides}{'!' if explode else ''} is too large "
            f"to compute (more than {JOINT_BUDGET:,} operations); use the Monte Carlo estimate")
    die, den1 = _die_joint(sides, explode, depth)
    acc: dict = {(0, 0): 1}
    for _ in range(n):
        new: dict = {}
        get = new.get
        for (t1, m1), q1 in acc.items():
            for (t2, m2), q2 in die:
                k = (t1 + t2, m1 + m2)
                new[k] = get(k, 0) + q1 * q2
        acc = new
    return acc, den1 ** n


@functools.lru_cache(maxsize=128)
def _joint_float(n: int, sides: int, explode: bool, depth: int):
    acc, den = _joint_q(n, sides, explode, depth)
    return MappingProxyType({k: q / den for k, q in sorted(acc.items())})


def joint_total_maxima(n: int, sides: int = 6, explode: bool = True,
                       depth: int = DEFAULT_DEPTH) -> Mapping[tuple[int, int], float]:
    """Joint pmf of (sum of faces, number of maximum faces) for ``n`` dice.

    ``n`` dice with ``sides`` faces, exploding on the maximum if ``explode``
    (seed 000, L149: ``Nd6!``); the sum excludes any modifier; "maxima"
    counts every die showing its maximum face, added dice included (sixes
    for d6, as :func:`sim.dice.exploding_d6` counts them). Keys are
    ``(total, maxima)`` ints, values probabilities (float, summing to 1 up
    to rounding; computed exactly in integers first). Cut at ``depth``
    explosions per original die (module docstring; :func:`lost_mass`).

    The result is cached and returned as a read-only mapping; wrap it in
    ``dict()`` to modify it. ~0.1 s for n=6 d6! at depth 20 on first call,
    microseconds after. Raises :class:`ExactTooLarge` for very large pools.
    """
    n = int(n)
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, got {n}")
    if sides < 2:
        raise ValueError(f"dice need at least 2 sides, got {sides}")
    return _joint_float(n, int(sides), bool(explode), _depth_key(explode, depth))


def joint_fractions(n: int, sides: int = 6, explode: bool = True,
                    depth: int = DEFAULT_DEPTH) -> dict[tuple[int, int], Fraction]:
    """:func:`joint_total_maxima` as exact :class:`Fraction` values (a new dict)."""
    acc, den = _joint_q(int(n), int(sides), bool(explode), _depth_key(explode, depth))
    return {k: Fraction(q, den) for k, q in sorted(acc.items())}


def d10_pool(n: int) -> dict[int, float]:
    """Successes of ``n`` d10 (seed 003): each 7-9 is one, each 10 two; ``n=0`` gives 0.

    Returns successes -> probability (no modifier).
    """
    n = int(n)
    if n < 0:
        raise ValueError(f"a d10 pool needs n >= 0 dice, got {n}")
    items, den = _sum_quantities(n, 10, False, True, 0)
    return {v: q / den for v, q in items}


def p_at_least(expr: DiceExpr | str, target: int, depth: int = DEFAULT_DEPTH) -> float:
    """``P(total >= target)`` for ``expr`` (modifier included), exact up to the depth cut."""
    return distribution(expr, depth).p_at_least(target)


def _joint_expr(e: DiceExpr, depth: int):
    """(dict (total without modifier, maxima) -> quantity, denominator) for an expression."""
    if e.successes:  # pools have no "sixes" (kernel maxima = 0)
        items, den = _sum_quantities(e.n, 10, False, True, 0)
        return {(v, 0): q for v, q in items}, den
    return _joint_q(e.n, e.sides, e.explode, _depth_key(e.explode, depth))


def beats_breakdown(a_expr: DiceExpr | str, b_expr: DiceExpr | str,
                    depth: int = DEFAULT_DEPTH) -> dict[str, Fraction]:
    """Exact pieces of "A beats B" under the 4.1 tie rules (L1453), as Fractions.

    Keys: ``higher_total`` P(A's total > B's), ``tie_more_maxima`` P(equal
    totals and A has more maximum faces), ``tie_modifier`` P(equal totals
    and maxima, A's modifier higher), ``win`` their sum, and ``equal_totals``
    P(A's total == B's total). Totals include modifiers. Raises
    :class:`ExactTooLarge` when either joint is too large.
    """
    a, b = _as_expr(a_expr), _as_expr(b_expr)
    depth = _check_depth(depth)
    ja, den_a = _joint_expr(a, depth)
    jb, den_b = _joint_expr(b, depth)
    # B grouped by final total: sorted totals with quantity prefix sums, and per
    # total the quantities by maxima (with prefix sums over maxima).
    by_total: dict[int, dict[int, int]] = {}
    for (t, m), q in jb.items():
        d = by_total.setdefault(t + b.modifier, {})
        d[m] = d.get(m, 0) + q
    totals = sorted(by_total)
    below = [0]  # below[i] = quantity of B totals < totals[i]
    for t in totals:
        below.append(below[-1] + sum(by_total[t].values()))
    tie_prefix: dict[int, tuple[list[int], list[int]]] = {}
    for t, d in by_total.items():
        ms = sorted(d)
        pref = [0]
        for m in ms:
            pref.append(pref[-1] + d[m])
        tie_prefix[t] = (ms, pref)
    a_mod_higher = a.modifier > b.modifier
    higher = more = modwin = equal = 0
    for (t, m), q in ja.items():
        ta = t + a.modifier
        i = bisect.bisect_left(totals, ta)
        higher += q * below[i]
        tp = tie_prefix.get(ta)
        if tp is None:
            continue
        ms, pref = tp
        j = bisect.bisect_left(ms, m)
        more += q * pref[j]  # B maxima < A maxima
        eq = by_total[ta].get(m, 0)
        if a_mod_higher:
            modwin += q * eq
        equal += q * pref[-1]
    den = den_a * den_b
    out = {
        "higher_total": Fraction(higher, den),
        "tie_more_maxima": Fraction(more, den),
        "tie_modifier": Fraction(modwin, den),
        "equal_totals": Fraction(equal, den),
    }
    out["win"] = out["higher_total"] + out["tie_more_maxima"] + out["tie_modifier"]
    return out


def p_beats_exact(a_expr: DiceExpr | str, b_expr: DiceExpr | str,
                  depth: int = DEFAULT_DEPTH) -> Fraction:
    """P(attacker A beats defender B) under the 4.1 tie rules, as a Fraction."""
    return beats_breakdown(a_expr, b_expr, depth)["win"]


def p_beats(a_expr: DiceExpr | str, b_expr: DiceExpr | str, depth: int = DEFAULT_DEPTH) -> float:
    """P(attacker A beats defender B) under the 4.1 tie rules (L1453).

    A wins on a higher total (modifier included); on equal totals, on more
    maximum faces (sixes); then on a higher modifier; a full tie goes to
    the defender B. Exact up to the depth cut: within
    ``lost_mass(A) + lost_mass(B)`` of the uncut value.
    """
    return float(p_beats_exact(a_expr, b_expr, depth))
