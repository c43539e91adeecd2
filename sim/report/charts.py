"""PNG charts of a run, drawn with matplotlib's Agg canvas.

No pyplot: each chart is a :class:`matplotlib.figure.Figure` attached to a
:class:`~matplotlib.backends.backend_agg.FigureCanvasAgg`, so nothing touches
the global backend or pyplot's figure registry (safe in notebooks, threads
and servers). Each function writes one PNG and returns its path, or returns
``None`` when the table it draws is empty.

Each PNG carries what the report says about it, as PNG text chunks written by
:func:`_save` and read back by :func:`chart_meta`: its caption (what it shows,
in the system's words), the variants it draws and those it leaves out (with
the reason), so the page can state them and tests can check every variant is
drawn.

Every text is drawn as plain text (:func:`plain_text`): a variant or
combatant named ``$\\undefinedcmd{x}$`` is shown as written, never parsed as
matplotlib math text (which would fail after the simulation).
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps, rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ..results import RunResult
from .fmt import DEFAULT_TERMS
from ..stats import mean_and_se_from_hist

__all__ = [
    "win_rate_chart",
    "fight_length_chart",
    "survival_chart",
    "round_cap",
    "variant_order",
    "chart_meta",
    "length_limit",
    "CHARTS",
    "plain_text",
    "cap_drawn",
    "MAX_DRAWN",
]

#: rc settings under which no text is parsed as math text (user names are plain text)
_PLAIN_RC = {"text.parse_math": False, "text.usetex": False, "axes.formatter.use_mathtext": False}


@contextlib.contextmanager
def plain_text():
    """Context in which every new matplotlib text artist is plain text.

    Text artists read ``text.parse_math`` when they are made; chart functions
    (this module's and each rule system's) run inside this context in
    :func:`sim.report.write.write_run`, and :func:`_save` draws inside it, so a
    name with ``$`` signs is never handed to the math-text parser.
    """
    with rc_context(_PLAIN_RC):
        yield

DPI = 110
_LINESTYLES = ["-", "--", ":", "-."]
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
#: markers per line: each variant marks every ``_MARK_EVERY``-th point from its own
#: start, so identical lines (same numbers in two variants) still show both
_MARK_EVERY = 6
_OUTCOMES = [  # (column prefix, label, colour, vertical offset)
    ("win", "win", "#2a7ab0", -0.22),
    ("loss", "loss", "#c0392b", 0.0),
    ("draw", "draw", "#7f8c8d", 0.22),
]


def variant_order(result: RunResult, *frames: pd.DataFrame) -> list:
    """Variants in summary order, then any others in order of appearance."""
    seen: dict = {}
    for frame in (result.summary, *frames):
        if frame is not None and "variant" in frame.columns:
            for v in frame["variant"].tolist():
                seen.setdefault(v, None)
    return list(seen)


def _styles(variants: list) -> dict:
    """variant -> (colour, linestyle), distinct for up to ~40 variants."""
    n = len(variants)
    if n <= 10:
        cmap, k = colormaps["tab10"], 10
    else:
        cmap, k = colormaps["tab20"], 20
    return {
        v: (cmap(i % k), _LINESTYLES[(i // k) % len(_LINESTYLES)])
        for i, v in enumerate(variants)
    }


def _line_style(variants: list, styles: dict, v, n_points: int) -> dict:
    """Line keywords for variant ``v``: its colour and dash, a marker of its own
    placed at points staggered by variant, and a width that shrinks with the
    variant's rank (earlier lines drawn wider under later ones), so variants
    with identical numbers do not hide each other."""
    i = variants.index(v)
    colour, ls = styles[v]
    n = len(variants)
    step = max(1, min(max(_MARK_EVERY, n), n_points))  # every variant's first marker on the line
    return dict(color=colour, linestyle=ls, linewidth=1.0 + 1.6 * (n - 1 - i) / max(n - 1, 1),
                marker=_MARKERS[i % len(_MARKERS)], markersize=4.5, markevery=(i % step, step),
                markerfacecolor="none", markeredgewidth=1.1)


def _legend(ax, n: int) -> None:
    ax.legend(
        loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
        ncol=1 if n <= 16 else 2, frameon=False,
    )


#: most variants a chart draws one by one (panels, lines or bar groups): about a page; the
#: others are listed as not drawn, with the CSV table that holds their numbers
MAX_DRAWN = 12


def cap_drawn(result: RunResult, present: list, table: str, why_absent: str) -> tuple[list, dict]:
    """``(drawn, omitted)`` for a chart drawn variant by variant: the first
    :data:`MAX_DRAWN` of ``present`` (the variants with rows, in summary order),
    and every other variant of the run with why it is not drawn (past the cap:
    its numbers are in ``table``; absent: ``why_absent``). Linear in variants."""
    drawn = list(present[:MAX_DRAWN])
    have, shown = set(present), set(drawn)
    why_cap = (f"the chart draws the first {MAX_DRAWN} of {len(present)} variants; every variant's "
               f"numbers are in {table}")
    return drawn, {v: (why_cap if v in have else why_absent) for v in variant_order(result) if v not in shown}


_META_KEY = "mgsim"


def _save(fig: Figure, path: Path, *, caption: str | None = None, variants=None,
          omitted: dict | None = None, title: str | None = None) -> Path:
    """Write ``fig`` as a PNG with its report metadata (see :func:`chart_meta`).

    ``variants``: the variants drawn (``None`` for a chart that is not drawn per
    variant); ``omitted``: variant -> why it is not drawn.
    """
    FigureCanvasAgg(fig)
    from matplotlib.text import Text

    for text in fig.findobj(Text):  # made outside plain_text(): plain text all the same
        text.set_parse_math(False)
    meta = {"caption": caption, "title": title, "variants": None if variants is None else [str(v) for v in variants],
            "omitted": {str(k): str(v) for k, v in (omitted or {}).items()}}
    with plain_text():  # tick labels are made while drawing
        fig.savefig(path, format="png", dpi=DPI, bbox_inches="tight",
                    metadata={_META_KEY: json.dumps(meta, ensure_ascii=True)})
    return path


def chart_meta(path) -> dict:
    """The report metadata of a chart PNG written by :func:`_save`:
    ``{"caption", "title", "variants", "omitted"}``; empty for another PNG."""
    from PIL import Image

    with Image.open(path) as im:
        raw = (getattr(im, "text", None) or {}).get(_META_KEY)
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {}


def length_limit(lengths, counts, q: float = 0.995):
    """The ``q`` quantile of fight length over all variants pooled (an axis
    limit), and the share of trials longer than it."""
    lengths = np.asarray(lengths, float)
    counts = np.asarray(counts, float)
    keep = counts > 0
    if not keep.any():
        return None, 0.0
    order = np.argsort(lengths[keep])
    x, c = lengths[keep][order], counts[keep][order]
    cum = np.cumsum(c) / c.sum()
    limit = float(x[min(np.searchsorted(cum, q), len(x) - 1)])
    return limit, float(c[x > limit].sum() / c.sum())


def _terms(terms):
    return {**DEFAULT_TERMS, **(terms or {})}


def _find_key(obj, keys, depth=0):
    if depth > 4:
        return None
    if isinstance(obj, dict):
        for k in keys:
            v = obj.get(k)
            if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                return int(v)
        for v in obj.values():
            found = _find_key(v, keys, depth + 1)
            if found is not None:
                return found
    return None


def round_cap(result: RunResult):
    """The round cap (fights still running then end as draws), or ``None``.

    Looked up in the provenance (``round_cap``, ``max_rounds``, ``rounds_cap``,
    at any nesting level, e.g. under per-variant rule options). If absent but
    some variant has draws, the largest ``rounds`` value in ``result.rounds``
    is taken to be the cap.
    """
    cap = _find_key(result.provenance or {}, ("round_cap", "max_rounds", "rounds_cap"))
    if cap is not None:
        return cap
    s, r = result.summary, result.rounds
    if (
        s is not None and "draws" in s.columns and len(s) and (s["draws"].fillna(0) > 0).any()
        and r is not None and len(r)
    ):
        return int(r["rounds"].max())
    return None


def win_rate_chart(result: RunResult, path: Path, terms: dict | None = None):
    """Win, loss and draw rate of the first side per variant, with 95% Wilson bars."""
    s = result.summary
    if s is None or s.empty:
        return None
    t = _terms(terms)
    variants = s["variant"].astype(str).tolist()
    n = len(variants)
    if n > MANY_ROWS:
        return _win_rate_many(result, path, t)
    fig = Figure(figsize=(8.0, 1.2 + 0.42 * n))
    ax = fig.add_subplot()
    y = np.arange(n, dtype=float)
    for key, label, colour, dy in _OUTCOMES:
        rate = s[f"{key}_rate"].to_numpy(float)
        lo = s[f"{key}_lo"].to_numpy(float)
        hi = s[f"{key}_hi"].to_numpy(float)
        err = np.vstack([np.clip(rate - lo, 0, None), np.clip(hi - rate, 0, None)])
        ax.errorbar(
            rate, y + dy, xerr=err, fmt="o", color=colour, ecolor=colour,
            markersize=4, capsize=2.5, elinewidth=1.2, label=label,
        )
    ax.axvline(0.5, color="0.6", linestyle=":", linewidth=1)
    ax.set_yticks(y)
    ax.set_yticklabels(variants, fontsize="small" if n > 12 else "medium")
    ax.set_ylim(n - 0.5, -0.5)  # first variant on top
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)
    side = result.side_names[0] if result.side_names else "the first side"
    ax.set_title(f"win rate of {side}")
    ax.set_xlabel(f"share of {t['fights']} (bars: 95% Wilson interval)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    caption = (f"Win, loss and draw rates of {side} per variant, as shares of {t['fights']}; "
               "bars are 95% Wilson intervals, the dotted line is 50%.")
    return _save(fig, path, caption=caption, variants=variants, title="Win rates")


#: more variants than this: the win-rate chart puts the variants on the x axis by number
MANY_ROWS = 40


def _win_rate_many(result: RunResult, path: Path, t: dict):
    """The win-rate chart of a run with many variants: the variants on the x axis by
    their row number in ``summary.csv``, the win rate and its 95% Wilson band (a
    page however many variants; loss and draw rates are in the table)."""
    s = result.summary
    n = len(s)
    x = np.arange(1, n + 1)
    rate, lo, hi = (s[c].to_numpy(float) for c in ("win_rate", "win_lo", "win_hi"))
    fig = Figure(figsize=(10.0, 4.2))
    ax = fig.add_subplot()
    ax.fill_between(x, lo, hi, color="#2a7ab0", alpha=0.25, linewidth=0, label="95% Wilson interval")
    ax.plot(x, rate, "o", color="#2a7ab0", markersize=2.5 if n > 200 else 4, label="win rate")
    ax.axhline(0.5, color="0.6", linestyle=":", linewidth=1)
    ax.set_xlim(0.5, n + 0.5)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"variant (its row in summary.csv, 1 to {n:,})")
    side = result.side_names[0] if result.side_names else "the first side"
    ax.set_title(f"win rate of {side}, {n:,} variants")
    ax.grid(color="0.92")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    caption = (f"Win rate of {side} for each of the {n:,} variants, as shares of {t['fights']}, with "
               "95% Wilson intervals (the band); variant k is row k of summary.csv, which also holds "
               "the loss and draw rates. The dotted line is 50%.")
    return _save(fig, path, caption=caption, variants=s["variant"].astype(str).tolist(), title="Win rates")


def _fill_integer_rounds(d: pd.DataFrame) -> pd.DataFrame:
    """Add zero-count rows for missing integer round values, so a step line
    does not bridge a gap (e.g. between the last ordinary round and the cap)."""
    r = d["rounds"].to_numpy()
    if len(r) == 0 or not np.all(np.mod(r, 1) == 0) or r.max() - r.min() > 10_000:
        return d
    full = np.arange(int(r.min()), int(r.max()) + 1)
    return (d.set_index("rounds")["count"].reindex(full, fill_value=0)
            .rename_axis("rounds").reset_index())


def _trim_note(limit, beyond: float, cap, t: dict) -> str:
    """What the caption says about a length axis cut at ``limit``."""
    if limit is None:
        return ""
    text = (f" The axis ends at {t['round']} {limit:g}, the 99.5th percentile of "
            f"{t['fight']} length over all variants")
    if beyond > 0:
        text += f"; {100 * beyond:.2f}% of {t['fights']} ran longer and are off the chart"
    if cap is not None and cap > limit:
        text += f" (the {t['round']} cap is {cap})"
    return text + "."


def _length_axis(result: RunResult, r: pd.DataFrame):
    """(x limit or None, share beyond it, round cap) for a length axis."""
    cap = round_cap(result)
    limit, beyond = length_limit(r["rounds"], r["count"])
    if limit is None or limit >= r.loc[r["count"] > 0, "rounds"].max():
        return None, 0.0, cap  # nothing to cut
    return limit, beyond, cap


def fight_length_chart(result: RunResult, path: Path, terms: dict | None = None):
    """Distribution of fight length in rounds, one step line per variant."""
    r = result.rounds
    if r is None or r.empty or r["count"].sum() <= 0:
        return None
    t = _terms(terms)
    have = set(r["variant"])
    variants, omitted = cap_drawn(result, [v for v in variant_order(result, r) if v in have], "rounds.csv",
                                  f"no {t['fights']} recorded")
    groups = dict(tuple(r[r["variant"].isin(set(variants))].groupby("variant", sort=False)))
    drawn = []
    styles = _styles(variants)
    fig = Figure(figsize=(9.0, 4.5))
    ax = fig.add_subplot()
    for v in variants:
        d = groups[v].groupby("rounds", as_index=False)["count"].sum()
        d = d.sort_values("rounds")
        total = d["count"].sum()
        if total <= 0:
            omitted[v] = f"no {t['fights']} recorded"
            continue
        d = _fill_integer_rounds(d)
        mean, _ = mean_and_se_from_hist(d["rounds"], d["count"])
        colour, ls = styles[v]
        x = d["rounds"].to_numpy(float)
        share = d["count"].to_numpy(float) / total
        style = _line_style(variants, styles, v, len(x))
        label = f"{v} (mean {mean:.2f})"
        if len(x) > 1 and np.all(np.diff(x) == 1):  # whole-round bins: a true histogram
            ax.stairs(share, np.append(x - 0.5, x[-1] + 0.5), color=colour, linestyle=ls,
                      linewidth=style["linewidth"])
            ax.plot(x, share, **{**style, "linestyle": "none"})  # its markers, at bin centres
            ax.plot([], [], **style, label=label)  # the legend entry: line and marker
        else:
            ax.step(x, share, where="mid", **style, label=label)
        drawn.append(v)
    limit, beyond, cap = _length_axis(result, r)
    if cap is not None and (limit is None or cap <= limit):
        ax.axvline(cap, color="0.4", linestyle=":", linewidth=1)
        ax.annotate(
            f"{t['round']} cap {cap}\n(includes draws)", xy=(cap, 1.0),
            xycoords=("data", "axes fraction"), xytext=(-4, -4),
            textcoords="offset points", ha="right", va="top", fontsize="small",
            color="0.3",
        )
    if limit is not None:
        ax.set_xlim(left=max(0.0, float(r.loc[r["count"] > 0, "rounds"].min()) - 1), right=limit + 0.5)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"{t['fight']} length ({t['rounds']})"
                  + (f"; axis cut at the 99.5th percentile, {limit:g}" if limit is not None else ""))
    ax.set_ylabel(f"share of {t['fights']}")
    ax.set_title(f"{t['fight']} length")
    ax.grid(color="0.92")
    ax.set_axisbelow(True)
    _legend(ax, len(variants))
    caption = (f"How long {t['fights']} last: the share of {t['fights']} that ended after each "
               f"number of {t['rounds']}, one line per variant (mean in the legend; each variant "
               "has its own marker, so variants with the same numbers show on one line)."
               + (f" {t['fights'].capitalize()} still running at the {t['round']} cap end as draws."
                  if cap is not None else "") + _trim_note(limit, beyond, cap, t))
    return _save(fig, path, caption=caption, variants=drawn, omitted=omitted)


def survival_chart(result: RunResult, path: Path, terms: dict | None = None):
    """Per-round curves: one panel per metric, one line per variant."""
    c = result.curves
    if c is None or c.empty:
        return None
    t = _terms(terms)
    metrics = list(dict.fromkeys(c["metric"].tolist()))
    have = set(c["variant"])
    variants, omitted = cap_drawn(result, [v for v in variant_order(result, c) if v in have], "curves.csv",
                                  "no per-round curve recorded")
    c = c[c["variant"].isin(set(variants))]
    styles = _styles(variants)
    ncols = 1 if len(metrics) <= 2 else 2
    nrows = -(-len(metrics) // ncols)
    fig = Figure(figsize=(7.5 * ncols, 3.2 * nrows + 0.4))
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True)
    for i, metric in enumerate(metrics):
        ax = axes[i // ncols][i % ncols]
        m = dict(tuple(c[c["metric"] == metric].groupby("variant", sort=False)))
        for v in variants:
            d = m.get(v)
            if d is None or d.empty:
                continue
            d = d.sort_values("round")
            ax.plot(d["round"], d["value"], **_line_style(variants, styles, v, len(d)),
                    label=str(v))
        ax.set_title(str(metric))
        ax.tick_params(labelbottom=True)  # sharex hides inner labels: every panel keeps them
        ax.set_ylim(-0.02, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.grid(color="0.92")
        ax.set_axisbelow(True)
    for j in range(len(metrics), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    limit, beyond, cap = (None, 0.0, None)
    if result.rounds is not None and not result.rounds.empty:
        limit, beyond, cap = _length_axis(result, result.rounds)
    if limit is not None:
        axes[0][0].set_xlim(right=limit + 0.5)
    for i in range(len(metrics)):
        axes[i // ncols][i % ncols].set_xlabel(
            t["round"] + (f" (axis cut at {limit:g})" if limit is not None else ""), fontsize="small")
    legend: dict = {}
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(lab, h)
    handles, labels = list(legend.values()), list(legend)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 0.98),
               fontsize="small", ncol=1 if len(variants) <= 16 else 2, frameon=False)
    fig.tight_layout()
    caption = (f"Per-{t['round']} curves ({', '.join(map(str, metrics))}): the share of "
               f"{t['fights']} in that state after each {t['round']}, one line per variant (each "
               "with its own marker, so variants with the same numbers show on one line)."
               + _trim_note(limit, beyond, cap, t))
    return _save(fig, path, caption=caption, variants=variants, omitted=omitted)


#: file name -> chart function, in report order
CHARTS = {
    "win_rate.png": "win_rate_chart",
    "fight_length.png": "fight_length_chart",
    "survival.png": "survival_chart",
}
