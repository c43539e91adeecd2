"""Numbers and words as the report prints them.

Rates are percentages with one decimal (two when the interval is narrower than
0.2 points), other numbers two or three significant figures, never scientific
notation; large numbers are grouped (``12,345``). The words of a rule system
(fights and rounds, games and turns) come from :data:`DEFAULT_TERMS`, which a
plug-in may override (``report_page()["terms"]``).
"""
from __future__ import annotations

import html
import json
import math
import re
from numbers import Integral, Real

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_TERMS", "esc", "format_rate", "format_number", "format_pct", "missing", "cell"]

#: the nouns of a run; the cards plug-in says "game" and "turn"
DEFAULT_TERMS = {
    "fight": "fight", "fights": "fights", "round": "round", "rounds": "rounds",
    "trial": "trial", "trials": "trials",
}


#: bidirectional embeddings, overrides and isolates: shown, never obeyed, in a report
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def esc(x) -> str:
    """HTML-escaped text; a bidirectional control (U+202A-U+202E, U+2066-U+2069: the
    loader refuses them in names, a file path may still hold one) is shown as
    ``[U+202E]`` instead of reordering the text after it."""
    return html.escape(_BIDI.sub(lambda m: f"[U+{ord(m.group()):04X}]", str(x)), quote=True)


def missing(x) -> bool:
    try:
        return x is None or (isinstance(x, Real) and math.isnan(x)) or x is pd.NA
    except TypeError:
        return False


def format_rate(rate, lo, hi) -> str:
    """``'54.3% [53.9, 54.7]'``: a rate and its interval in percent.

    One decimal, or two when the interval is narrower than 0.2 points (so very
    precise runs do not print identical bounds). Missing values give ``'–'``.
    """
    if any(missing(v) for v in (rate, lo, hi)):
        return "–"
    rate, lo, hi = 100 * float(rate), 100 * float(lo), 100 * float(hi)
    dec = 2 if hi - lo < 0.2 else 1
    return f"{rate:.{dec}f}% [{lo:.{dec}f}, {hi:.{dec}f}]"


def format_pct(x) -> str:
    """A fraction as a percentage with one decimal (``'12.3%'``)."""
    if missing(x):
        return "–"
    return f"{100 * float(x):.1f}%"


def format_number(x) -> str:
    """Two or three significant figures, no scientific notation.

    ``0.0113655 -> '0.0114'``, ``9.60272e-05 -> '0.000096'``, ``3.14159 -> '3.14'``,
    ``1234.5 -> '1,234'`` (hundreds and up are rounded to whole numbers).
    """
    if isinstance(x, np.generic):
        x = x.item()
    if missing(x):
        return "–"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Integral):
        return f"{x:,d}"
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) < 1e-6:
        return "≈0"
    text = np.format_float_positional(x, precision=3, unique=True, fractional=False, trim="-")
    return text


def cell(v) -> str:
    """One table value as escaped text."""
    if isinstance(v, np.generic):
        v = v.item()
    if missing(v):
        return "–"
    if isinstance(v, (bool, Real)):
        return esc(format_number(v))
    if isinstance(v, (dict, list, tuple)):
        return esc(json.dumps(v, default=str))
    return esc(v)
