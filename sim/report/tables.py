"""HTML tables that fit: key columns first, the rest folded, scrolled inside.

A rate and its 95% bounds (``ko_rate, ko_lo, ko_hi``; ``win_a, win_a_lo,
win_a_hi``; ``rate, lo, hi``) print as one column ``54.3% [53.9, 54.7]``; other
``*_rate`` columns as percentages; every other number with 2-3 significant
figures. Each table sits in a ``div.scroll`` (``overflow-x:auto``), so a wide
table scrolls inside itself and never widens the page. Long tables show their
first rows and fold the rest; wide ones show their key columns and fold the
full table.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .fmt import cell, esc, format_pct, format_rate, missing

__all__ = ["Col", "display_columns", "table_block", "html_table", "MAX_TABLE_ROWS"]

#: tables longer than this are cut in the HTML (the CSV, linked, has them all)
MAX_TABLE_ROWS = 500
#: tables longer than this show PREVIEW_ROWS rows and fold the rest
LONG_TABLE = 25
PREVIEW_ROWS = 10
#: at most this many columns are shown unfolded when the plug-in names none
KEY_COLUMNS = 8


@dataclass
class Col:
    """One displayed column: a header, the frame columns it reads, a kind."""
    header: str
    names: tuple
    kind: str  # "rate" (rate, lo, hi), "pct", "num" or "text"

    @property
    def numeric(self) -> bool:
        return self.kind != "text"

    def render(self, rec: dict) -> str:
        vals = [rec.get(n) for n in self.names]
        if self.kind == "rate":
            return esc(format_rate(*vals))
        if self.kind == "pct":
            return esc(format_pct(vals[0]))
        return cell(vals[0])


def _rate_triples(columns: list) -> dict:
    """rate column -> (lo, hi, label) for every column with 95% bounds."""
    cols = set(columns)
    out = {}
    for c in columns:
        if not str(c).endswith("_lo"):
            continue
        stem = str(c)[:-3]
        hi = stem + "_hi"
        if hi not in cols:
            continue
        for rate, label in ((stem + "_rate", stem), (stem, stem), (stem + "_win", stem + " win")):
            if rate in cols and rate not in out:
                out[rate] = (c, hi, label)
                break
    if {"rate", "lo", "hi"} <= cols:
        out.setdefault("rate", ("lo", "hi", "rate"))
    return out


def _fractions(s: pd.Series) -> bool:
    """True when every value is a share in [0, 1] (so prints as a percentage)."""
    v = pd.to_numeric(s, errors="coerce").dropna()
    return bool(((v >= 0) & (v <= 1)).all())


def display_columns(df: pd.DataFrame, headers: dict | None = None) -> list:
    """The frame's columns as displayed: rate triples merged, kinds chosen."""
    headers = headers or {}
    triples = _rate_triples(list(df.columns))
    bounds = {b for lo, hi, _ in triples.values() for b in (lo, hi)}
    out = []
    for c in df.columns:
        if c in bounds:
            continue
        if c in triples:
            lo, hi, label = triples[c]
            out.append(Col(headers.get(c, label), (c, lo, hi), "rate"))
        elif pd.api.types.is_bool_dtype(df[c]) or not pd.api.types.is_numeric_dtype(df[c]):
            out.append(Col(headers.get(c, str(c)), (c,), "text"))
        elif (str(c).endswith("_rate") or c == "rate") and _fractions(df[c]):
            out.append(Col(headers.get(c, str(c)[:-5] if c != "rate" else "rate"), (c,), "pct"))
        else:
            out.append(Col(headers.get(c, str(c)), (c,), "num"))
    return out


def _informative(df: pd.DataFrame, col: Col) -> bool:
    """False for a numeric column that is zero, missing or one value all the way down."""
    if not col.numeric:
        return True
    s = df[col.names[0]]
    if len(s) > 1 and s.nunique(dropna=False) <= 1:
        return False
    return bool(((s.fillna(0) != 0)).any())


def key_subset(df: pd.DataFrame, cols: list, declared=None) -> list:
    """The columns shown unfolded: the plug-in's (``declared``, frame column
    names) if any are present, else the text columns and the first informative
    numeric ones, KEY_COLUMNS in all."""
    if declared:
        chosen = [c for c in cols if c.names[0] in set(declared)]
        if chosen:
            return chosen
    text = [c for c in cols if not c.numeric]
    nums = [c for c in cols if c.numeric and _informative(df, c)]
    keep = set(map(id, text[:4] + nums[:max(2, KEY_COLUMNS - min(4, len(text)))]))
    return [c for c in cols if id(c) in keep]


def html_table(df: pd.DataFrame, cols: list, cls: str = "") -> str:
    """One ``<table>`` in its scrolling wrapper; numeric columns right-aligned."""
    cls_attr = f' class="{cls}"' if cls else ""
    out = [f'<div class="scroll"><table{cls_attr}><thead><tr>']
    out += [f'<th{" class=num" if c.numeric else ""} scope="col">{esc(c.header)}</th>'
            for c in cols]
    out.append("</tr></thead><tbody>")
    for rec in df.to_dict(orient="records"):
        out.append("<tr>" + "".join(
            f'<td{" class=num" if c.numeric else ""}>{c.render(rec)}</td>' for c in cols) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _csv_link(csv: str | None) -> str:
    return f' (<a href="{esc(csv)}">{esc(csv)}</a>)' if csv else ""


def table_block(df: pd.DataFrame, *, key=None, csv: str | None = None,
                headers: dict | None = None, cls: str = "", fold_after: int = LONG_TABLE) -> str:
    """A table that fits: key columns, first rows, and the whole in a fold.

    ``key``: the frame columns to show unfolded (default: a heuristic);
    ``csv``: the file name of the full table, linked (relative);
    ``fold_after``: longer tables show PREVIEW_ROWS rows and fold the rest.
    """
    if df is None or df.empty:
        return '<p class="muted">Empty table.</p>'
    cols = display_columns(df, headers)
    keys = key_subset(df, cols, key)
    narrow = len(keys) < len(cols)
    long = len(df) > fold_after
    parts = [html_table(df.head(PREVIEW_ROWS) if long else df, keys, cls)]
    if long:
        parts.append(f'<p class="muted">First {PREVIEW_ROWS} of {len(df):,} rows'
                     f'{" and " + str(len(keys)) + " of " + str(len(cols)) + " columns" if narrow else ""}'
                     f"; the whole table is folded below{_csv_link(csv)}.</p>")
    if narrow or long:
        what = []
        if narrow:
            hidden = [c.header for c in cols if c not in keys]
            what.append(f"all {len(cols)} columns ({len(hidden)} more: "
                        + ", ".join(hidden[:6]) + (", …" if len(hidden) > 6 else "") + ")")
        if long:
            what.append(f"all {len(df):,} rows" if len(df) <= MAX_TABLE_ROWS
                        else f"the first {MAX_TABLE_ROWS} of {len(df):,} rows")
        inner = html_table(df.head(MAX_TABLE_ROWS), cols, cls)
        if len(df) > MAX_TABLE_ROWS:
            inner += (f'<p class="muted">First {MAX_TABLE_ROWS} of {len(df):,} rows; '
                      f"the CSV{_csv_link(csv)} has them all.</p>")
        parts.append(f"<details class=fold><summary>Show {esc(' and '.join(what))}</summary>"
                     f"{inner}</details>")
    return "".join(parts)


def provenance_rows(prov: dict) -> list:
    """(key, value HTML) pairs; long nested values fold away."""
    import json

    import numpy as np

    rows = []
    for k, v in prov.items():
        if isinstance(v, np.generic):
            v = v.item()
        if isinstance(v, (dict, list, tuple)):
            text = json.dumps(v, indent=2, default=str)
            if text.count("\n") > 8:
                val = f"<details><summary>{len(v)} entries</summary><pre>{esc(text)}</pre></details>"
            else:
                val = f"<pre>{esc(text)}</pre>"
        else:
            val = "–" if missing(v) else esc(v)
        rows.append((esc(k), val))
    return rows
