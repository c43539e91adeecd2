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


@kernel(inline="always")
def exploding_d6(state, n):
    """Magical Burst ``Nd6!`` (seed 000, L149): ``(total, sixes)``.

    Branch-free inner loop: a six adds one to the dice still to roll.
    """
    total = 0
    sixes = 0
    remaining = n
    while remaining > 0:
        r = randbelow_inline(state, 6) + 1
        total += r
        six = np.int64(r == 6)
        sixes += six
        remaining += six - 1
        if sixes >= MAX_EXPLOSIONS:
            break
    return total, sixes


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
