"""The self-contained ``report.html`` of a run.

One file, no external resources: charts are embedded as base64 PNG data
URIs, the CSS is inline, and every piece of text from the result is passed
through :func:`html.escape`.
"""
from __future__ import annotations

import base64
import html
import json
import math
from numbers import Integral, Real

import numpy as np
import pandas as pd

from ..results import SUMMARY_COLUMNS, RunResult

__all__ = ["format_rate", "render_html", "MAX_TABLE_ROWS"]

#: extra tables longer than this are cut in the HTML (the CSV has them all)
MAX_TABLE_ROWS = 500

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 margin:2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.1em}h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.sub{color:#666;margin-top:0}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tbody tr:nth-child(even){background:#fafafa}
pre{margin:0;font-size:.85em;white-space:pre-wrap;word-break:break-word}
.notes{background:#fff8e1;border:1px solid #f0c36d;border-left:6px solid #e0a800;
 padding:.6em 1.2em;border-radius:4px}
.notes ul{margin:.3em 0;padding-left:1.2em}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#555;font-size:.9em}
summary{cursor:pointer;color:#2a7ab0}
.muted{color:#777}
"""

_CAPTIONS = {
    "win_rate.png": "Win, loss and draw rates per variant; bars are 95% Wilson intervals.",
    "fight_length.png": "Distribution of fight length in rounds (share of trials). "
                        "Fights still running at the round cap end as draws.",
    "survival.png": "Per-round curves: share of trials, by round.",
}


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _missing(x) -> bool:
    try:
        return x is None or (isinstance(x, Real) and math.isnan(x)) or x is pd.NA
    except TypeError:
        return False


def format_rate(rate, lo, hi) -> str:
    """``'54.3% [53.9, 54.7]'``: a rate and its interval in percent.

    One decimal, or two when the interval is narrower than 0.2 points (so very
    precise runs do not print identical bounds). Missing values give ``'–'``.
    """
    if any(_missing(v) for v in (rate, lo, hi)):
        return "–"
    rate, lo, hi = 100 * float(rate), 100 * float(lo), 100 * float(hi)
    dec = 2 if hi - lo < 0.2 else 1
    return f"{rate:.{dec}f}% [{lo:.{dec}f}, {hi:.{dec}f}]"


def _cell(v) -> str:
    """Format one table value as escaped text."""
    if isinstance(v, np.generic):
        v = v.item()
    if _missing(v):
        return "–"
    if isinstance(v, bool):
        return _e(v)
    if isinstance(v, Integral):
        return _e(f"{v:d}")
    if isinstance(v, Real):
        return _e(f"{v:.6g}")
    if isinstance(v, (dict, list, tuple)):
        return _e(json.dumps(v, default=str))
    return _e(v)


def _table(header: list, rows: list, num_cols=()) -> str:
    """rows: lists of already-escaped cell strings."""
    out = ["<table><thead><tr>"]
    out += [f"<th>{_e(h)}</th>" for h in header]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for i, c in enumerate(row):
            cls = ' class="num"' if i in num_cols else ""
            out.append(f"<td{cls}>{c}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _df_table(df: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> str:
    shown = df.head(max_rows)
    num_cols = {i for i, col in enumerate(df.columns) if pd.api.types.is_numeric_dtype(df[col])
                and not pd.api.types.is_bool_dtype(df[col])}
    rows = [[_cell(v) for v in rec] for rec in shown.itertuples(index=False, name=None)]
    out = _table([str(c) for c in df.columns], rows, num_cols)
    if len(df) > max_rows:
        out += f'<p class="muted">First {max_rows} of {len(df)} rows; the CSV has them all.</p>'
    return out


def _provenance(prov: dict) -> str:
    if not prov:
        return '<p class="muted">No provenance recorded.</p>'
    rows = []
    for k, v in prov.items():
        if isinstance(v, np.generic):
            v = v.item()
        if isinstance(v, (dict, list, tuple)):
            text = json.dumps(v, indent=2, default=str)
            if text.count("\n") > 8:  # long nested values fold away
                val = f"<details><summary>{len(v)} entries</summary><pre>{_e(text)}</pre></details>"
            else:
                val = f"<pre>{_e(text)}</pre>"
        else:
            val = _cell(v)
        rows.append([_e(k), val])
    return _table(["key", "value"], rows)


def _summary(result: RunResult) -> str:
    s = result.summary
    if s is None or s.empty:
        return '<p class="muted">No results.</p>'
    side = result.side_names[0] if result.side_names else "first side"
    extra = [c for c in s.columns if c not in SUMMARY_COLUMNS]
    header = ["variant", "trials", f"win ({side})", "loss", "draw", "mean rounds", *extra]
    rows = []
    for rec in s.to_dict(orient="records"):
        row = [
            _cell(rec.get("variant")),
            _cell(rec.get("trials")),
            _e(format_rate(rec.get("win_rate"), rec.get("win_lo"), rec.get("win_hi"))),
            _e(format_rate(rec.get("loss_rate"), rec.get("loss_lo"), rec.get("loss_hi"))),
            _e(format_rate(rec.get("draw_rate"), rec.get("draw_lo"), rec.get("draw_hi"))),
            "–" if _missing(rec.get("mean_rounds")) else _e(f"{float(rec['mean_rounds']):.2f}"),
        ]
        row += [_cell(rec.get(c)) for c in extra]
        rows.append(row)
    num = set(range(1, 6)) | {6 + i for i, c in enumerate(extra)
                              if pd.api.types.is_numeric_dtype(s[c])}
    return _table(header, rows, num)


def render_html(result: RunResult, charts: dict | None = None) -> str:
    """The report page as a string.

    ``charts`` maps a chart file name (``win_rate.png``...) to its PNG bytes,
    in display order; they are embedded as ``data:image/png;base64,`` URIs.
    """
    charts = charts or {}
    title = f"{result.scenario} — {result.system}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{_e(result.scenario)}</h1>",
    ]
    sub = [f"system <b>{_e(result.system)}</b>", f"seed {_e(result.seed)}"]
    if result.side_names:
        sub.append("sides: " + " vs ".join(_e(n) for n in result.side_names))
    parts.append(f'<p class="sub">{" · ".join(sub)}</p>')

    parts.append("<h2>Provenance</h2>")
    parts.append(_provenance(result.provenance))

    parts.append('<h2>Assumptions and notes</h2><div class="notes">')
    if result.notes:
        parts.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in result.notes) + "</ul>")
    else:
        parts.append('<p class="muted">No notes recorded.</p>')
    parts.append("</div>")

    parts.append("<h2>Results</h2>")
    parts.append('<p class="muted">Rates are shares of trials with 95% Wilson intervals; '
                 "draws are counted separately, never as half a win.</p>")
    parts.append(_summary(result))

    if charts:
        parts.append("<h2>Charts</h2>")
        for name, png in charts.items():
            b64 = base64.b64encode(png).decode("ascii")
            cap = _CAPTIONS.get(name, name)
            parts.append(
                f'<figure><img alt="{_e(name)}" src="data:image/png;base64,{b64}">'
                f"<figcaption>{_e(cap)}</figcaption></figure>"
            )

    for name, df in (result.tables or {}).items():
        parts.append(f"<h2>{_e(name)}</h2>")
        parts.append(_df_table(df) if df is not None and not df.empty
                     else '<p class="muted">Empty table.</p>')

    parts.append("</body></html>")
    return "\n".join(parts)
