"""Dice kernels (numba) and the dice notation of the ``sim dice`` command.

Kernels take a stream state from :mod:`sim.rng` and return plain integers:

* :func:`exploding_d6` -- Magical Burst's ``Nd6!``: every 6 adds another die
  (seed 000, L149). Returns ``(total, sixes)``; the sixes count includes
  sixes on added dice, and is what drives overcharge (+1 per six) and damage
  (+/-2 per six) in 4.1.
* :func:`sum_d6` / :func:`sum_dice` -- plain sums (damage rolls and
  initiative never explode, L149, L1408).
* :func:`d10_successes` -- the d10 add-on's pools (seed 003): 7-9 is one
  success, 10 is two.

Notation (:func:`parse`): ``2d6``, ``2d6!``, ``2d6!+3``, ``1d6+2``,
``5d10s`` (a d10 success pool), ``2d6-1``. Counts, sides and modifiers are
bounded (:data:`MAX_DICE`, :data:`MAX_SIDES`, :data:`MAX_MODIFIER`), so an
absurd expression is an error, never an hour-long loop.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numba

from ._jit import jit, kernel, pjit
from .rng import STATE_WORDS, randbelow, randbelow_inline, seed_stream

MAX_DICE = 100
MAX_SIDES = 1000
MAX_MODIFIER = 10_000
#: Safety stop for explosions inside kernels: 1000 extra dice has probability
#: 6**-1000 for a d6, so the Monte Carlo is, in practice, unbounded.
MAX_EXPLOSIONS = 1000
#: Work is split into this many blocks for ``prange`` (a constant, so that
#: results never depend on the thread count).
BLOCKS = 256


class DiceError(ValueError):
    """A dice expression that cannot be parsed or exceeds the limits."""


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: ``n`` dice of ``sides`` faces.

    ``explode``: every maximum face adds a die (``!``).
    ``successes``: a success pool (``s``, d10 only): the result counts
    successes (7-9 one, 10 two) instead of summing faces.
    ``modifier``: added to the total (to the success count for pools).
    """

    n: int
    sides: int
    explode: bool = False
    successes: bool = False
    modifier: int = 0
    text: str = ""

    def __str__(self) -> str:
        s = f"{self.n}d{self.sides}{'!' if self.explode else ''}{'s' if self.successes else ''}"
        if self.modifier:
            s += f"{self.modifier:+d}"
        return s


_PATTERN = re.compile(r"^\s*(\d+)?\s*[dD]\s*(\d+)\s*(!?)\s*([sS]?)\s*(?:([+-])\s*(\d+))?\s*$")


def parse(text: str) -> DiceExpr:
    """Parse dice notation; raise :class:`DiceError` with a helpful message."""
    if not isinstance(text, str):
        raise DiceError(f"dice expression must be text like '2d6!+3', got {text!r}")
    m = _PATTERN.match(text)
    if not m:
        raise DiceError(
            f"cannot read dice expression {text!r}: expected NdX with optional '!' (exploding), "
            "'s' (d10 success pool) and +/-modifier, e.g. '2d6!+3', '1d6+2', '5d10s'"
        )
    n_txt, sides_txt, bang, succ, sign, mod_txt = m.groups()
    if len(sides_txt) > 7 or (n_txt and len(n_txt) > 7) or (mod_txt and len(mod_txt) > 7):
        raise DiceError(f"dice expression {text!r} is absurdly large: at most {MAX_DICE} dice of "
                        f"at most {MAX_SIDES} sides and a modifier within +/-{MAX_MODIFIER}")
    n = int(n_txt) if n_txt else 1
    sides = int(sides_txt)
    mod = int(mod_txt) * (-1 if sign == "-" else 1) if mod_txt else 0
    explode = bang == "!"
    successes = succ != ""
    if n > MAX_DICE:
        raise DiceError(f"dice expression {text!r} rolls {n} dice; the limit is {MAX_DICE}")
    if n < 1 and not successes:
        raise DiceError(f"dice expression {text!r} rolls no dice; use at least 1d{sides}")
    if sides < 2 or sides > MAX_SIDES:
        raise DiceError(f"dice expression {text!r} has d{sides}; dice must have 2 to {MAX_SIDES} sides")
    if abs(mod) > MAX_MODIFIER:
        raise DiceError(f"dice expression {text!r} has modifier {mod}; the limit is +/-{MAX_MODIFIER}")
    if successes and sides != 10:
        raise DiceError(f"dice expression {text!r}: success pools ('s') are d10 pools, e.g. '5d10s'")
    if successes and explode:
        raise DiceError(f"dice expression {text!r}: a d10 success pool does not explode; drop the '!'")
    return DiceExpr(n=n, sides=sides, explode=explode, successes=successes, modifier=mod, text=text.strip())


# --------------------------------------------------------------------------- kernels


@kernel
def sum_dice(state, n, sides):
    """Sum of ``n`` plain dice with ``sides`` faces."""
    total = 0
    for _ in range(n):
        total += randbelow(state, sides) + 1
    return total


@kernel(inline="always")
def sum_d6(state, n):
    """Sum of ``n`` plain d6 (damage rolls, initiative)."""
    total = 0
    for _ in range(n):
        total += randbelow_inline(state, 6) + 1
    return total


@kernel
def exploding_pool(state, n, sides):
    """``n`` dice, every maximum face adds a die. Returns ``(total, maxima)``.

    ``maxima`` counts every die that showed its maximum face, added dice
    included (for d6: the number of sixes).
    """
    total = 0
    maxima = 0
    remaining = n
    extra = 0
    while remaining > 0:
        remaining -= 1
        r = randbelow(state, sides) + 1
        total += r
        if r == sides and extra < MAX_EXPLOSIONS:
            maxima += 1
            remaining += 1
            extra += 1
        elif r == sides:
            maxima += 1
    return total, maxima


def _pool_table(digits: int = 4, max_n: int = 3) -> np.ndarray:
    """``table[n-1, u]`` for an ``n``d6! pool read off the base-6 digits of ``u``.

    ``u`` is uniform on ``[0, 6**digits)``, so its digits are ``digits``
    independent fair dice (the lowest digit first). The pool uses them in
    order, as many as it needs: a six adds a die (seed 000, L149). Entry
    ``total | sixes << 8 | owed << 16``: the total and sixes of the dice
    used, and ``owed`` > 0 when the pool still needs dice after the last
    digit (the caller rolls those one by one). Unused digits are discarded,
    which is exact: each die the pool uses is a fresh independent digit.
    """
    size = 6 ** digits
    out = np.zeros((max_n, size), dtype=np.int32)
    for n in range(1, max_n + 1):
        for u in range(size):
            total = sixes = 0
            remaining = n
            x = u
            for _ in range(digits):
                if remaining == 0:
                    break
                r = x % 6 + 1
                x //= 6
                total += r
                if r == 6:
                    sixes += 1
                else:
                    remaining -= 1
            out[n - 1, u] = total | sixes << 8 | remaining << 16
    return out


#: 4 dice per draw: one 32-bit draw in [0, 1296) replaces ~2.4 draws for a 2d6! pool
POOL_DIGITS = 4
POOL_MAX_N = 3
POOL_TABLE = _pool_table(POOL_DIGITS, POOL_MAX_N)
_POOL_SIZE = 6 ** POOL_DIGITS


@kernel
def exploding_d6_dice(state, n, total, sixes):
    """Roll ``n`` more exploding d6 one die at a time, adding to ``(total, sixes)``.

    The path of injected (scripted) dice and of pools too large for the
    table; also finishes a table pool that is still owed dice.
    """
    remaining = n
    while remaining > 0:
        r = randbelow(state, 6) + 1
        total += r
        six = np.int64(r == 6)
        sixes += six
        remaining += six - 1
        if sixes >= MAX_EXPLOSIONS:
            break
    return total, sixes


@kernel
def exploding_d6_ones(state, n):
    """``n`` exploding d6 rolled die by die, also counting the dice that show 1
    (Power Dampening, seed 000 L1554): ``(total, sixes, ones)``. The same law
    as :func:`exploding_d6`; it draws one number per die."""
    total = 0
    sixes = 0
    ones = 0
    remaining = n
    while remaining > 0:
        r = randbelow(state, 6) + 1
        total += r
        six = np.int64(r == 6)
        ones += np.int64(r == 1)
        sixes += six
        remaining += six - 1
        if sixes >= MAX_EXPLOSIONS:
            break
    return total, sixes, ones


@kernel(inline="always")
def exploding_d6(state, n):
    """Magical Burst ``Nd6!`` (seed 000, L149): ``(total, sixes)``.

    Random streams roll pools of 1..3 dice with one draw of four dice
    (:data:`POOL_TABLE`; the rare pool still owed dice after four finishes
    die by die). Injected dice (:func:`sim.rng.scripted_state`) and larger
    pools go die by die, so a script lists the faces in the order the book
    rolls them. Both paths have the exact law of ``Nd6!``
    (``tests/test_dice_kernels.py`` checks the table exhaustively).
    """
    if state[6] == 0:
        if n >= 1:
            if n <= POOL_MAX_N:
                v = np.int64(POOL_TABLE[n - 1, randbelow_inline(state, _POOL_SIZE)])
                total = v & 255
                sixes = (v >> 8) & 255
                owed = v >> 16
                if owed > 0:
                    return exploding_d6_dice(state, owed, total, sixes)
                return total, sixes
    return exploding_d6_dice(state, n, 0, 0)


#: one draw in [0, 6**9): an attacker's 2d6!, a defender's 2d6! (4 dice each) and one more d6
OPPOSED_DRAW = 6 ** (2 * POOL_DIGITS + 1)
_U_POOL = np.uint64(_POOL_SIZE)


@kernel(inline="always")
def _pool2_from(state, u):
    v = np.int64(POOL_TABLE[1, u])
    total = v & 255
    sixes = (v >> 8) & 255
    owed = v >> 16
    if owed > 0:
        return exploding_d6_dice(state, owed, total, sixes)
    return total, sixes


@kernel(inline="always")
def opposed_2d6(state):
    """An opposed 4.1 check in one draw, for random streams only.

    Returns ``(a_total, a_sixes, d_total, d_sixes, die)``: two ``2d6!``
    pools (:data:`POOL_TABLE`, their digits 0-3 and 4-7 of a uniform
    integer in ``[0, 6**9)``) and one plain d6 (digit 8; the attack's
    damage die). A pool still owed dice after its four digits finishes die
    by die on the same stream, the attacker's first. Digits of a uniform
    integer are independent fair dice, so this is the law of rolling
    everything die by die (``tests/test_dice_kernels.py``). Callers with
    injected dice roll die by die instead (:func:`exploding_d6`), in the
    book's order.
    """
    x = np.uint64(randbelow_inline(state, OPPOSED_DRAW))
    ua = np.int64(x % _U_POOL)
    x = x // _U_POOL
    ud = np.int64(x % _U_POOL)
    die = np.int64(x // _U_POOL) + 1
    a_total, a_six = _pool2_from(state, ua)
    d_total, d_six = _pool2_from(state, ud)
    return a_total, a_six, d_total, d_six, die


@kernel
def d10_successes(state, n):
    """Successes of a pool of ``n`` d10 (seed 003): 7-9 one, 10 two; n<=0 gives 0."""
    s = 0
    for _ in range(n):
        r = randbelow(state, 10) + 1
        if r >= 7:
            s += 1
            if r == 10:
                s += 1
    return s


@kernel
def roll_expr(state, n, sides, explode, successes, modifier):
    """Roll one parsed expression: ``(result, maxima)`` (maxima: sixes for d6)."""
    if successes:
        return d10_successes(state, n) + modifier, 0
    if explode:
        t, m = exploding_pool(state, n, sides)
        return t + modifier, m
    total = 0
    maxima = 0
    for _ in range(n):
        r = randbelow(state, sides) + 1
        total += r
        if r == sides:
            maxima += 1
    return total + modifier, maxima


@pjit
def roll_many(key, purpose, start, count, n, sides, explode, successes, modifier, out_total, out_max):
    """Roll an expression ``count`` times; roll ``i`` uses stream (key, start+i, purpose).

    Deterministic for any thread count: each roll has its own keyed stream.
    """
    nblocks = max(1, min(count, BLOCKS))
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        st = np.empty(STATE_WORDS, dtype=np.uint64)
        lo = b * per
        hi = min(count, lo + per)
        for i in range(lo, hi):
            seed_stream(st, key, start + i, purpose)
            t, m = roll_expr(st, n, sides, explode, successes, modifier)
            out_total[i] = t
            out_max[i] = m


def roll(expr: DiceExpr | str, trials: int, seed=0, purpose: int = 0, start: int = 0):
    """Roll ``expr`` ``trials`` times; returns ``(totals, maxima)`` int64 arrays."""
    from .rng import stream_key

    if isinstance(expr, str):
        expr = parse(expr)
    tot = np.empty(trials, dtype=np.int64)
    mx = np.empty(trials, dtype=np.int64)
    roll_many(stream_key(seed), purpose, start, trials, expr.n, expr.sides, expr.explode,
              expr.successes, expr.modifier, tot, mx)
    return tot, mx


@pjit
def fill_d6(key, out):
    """Fill ``out`` with raw d6 (the generator benchmark): one stream per block."""
    count = out.shape[0]
    nblocks = BLOCKS
    per = (count + nblocks - 1) // nblocks
    for b in numba.prange(nblocks):
        st = np.empty(STATE_WORDS, dtype=np.uint64)
        seed_stream(st, key, b, 0)
        lo = b * per
        hi = min(count, lo + per)
        for i in range(lo, hi):
            out[i] = randbelow(st, 6) + 1
