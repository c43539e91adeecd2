"""The self-contained ``report.html`` of a run, read top down.

1. the verdict, one paragraph written from the numbers;
2. the results table;
3. the chart that answers the scenario's question (the plug-in names it);
4. the details: assumptions and notes, the other charts, the extra tables;
5. links to every file of the run, and the provenance, folded.

One file, no external resources: charts are embedded as base64 PNG data URIs,
the CSS is inline, and every piece of text from the result is passed through
:func:`html.escape`. The only links are to anchors in the page and, relative,
to the files written next to it (CSV, JSON, parquet, PNG).
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

from ..results import RunResult
from .fmt import DEFAULT_TERMS, esc, format_rate
from .tables import MAX_TABLE_ROWS, provenance_rows, table_block
from .verdict import verdict

__all__ = ["format_rate", "render_html", "MAX_TABLE_ROWS", "Page"]

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 margin:1.2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.45}
h1{margin:0 0 .1em;font-size:1.7em}h2{margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
h1,h2,h3{overflow-wrap:anywhere}
.sub{color:#666;margin:0 0 .4em}
nav.toc{font-size:.9em;margin:.3em 0 .8em;color:#555}
nav.toc a{margin-right:.2em}nav.toc ul{display:inline;margin:0;padding:0}
nav.toc li{display:inline}nav.toc li+li:before{content:" · ";color:#aaa}
.verdict{font-size:1.08em;background:#eef6fb;border-left:6px solid #2a7ab0;padding:.6em 1em;
 margin:.4em 0 .8em;border-radius:4px}
.scroll{overflow-x:auto;max-width:100%;margin:.5em 0}
table{border-collapse:collapse;font-size:.92em}
th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}th.num,td.num{text-align:right}
td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
table.results td:first-child{font-weight:600}
tbody tr:nth-child(even){background:#fafafa}
pre{margin:0;font-size:.85em;white-space:pre-wrap;word-break:break-word}
.notes{background:#fff8e1;border:1px solid #f0c36d;border-left:6px solid #e0a800;
 padding:.6em 1.2em;border-radius:4px}
.notes ul{margin:.3em 0;padding-left:1.2em}
figure{margin:1em 0;max-width:100%}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#444;font-size:.92em}
summary{cursor:pointer;color:#2a7ab0}
details.fold{margin:.3em 0 1em}
.muted{color:#777}
ul.files{columns:3 14em;padding-left:1.2em}
@media (max-width:640px){body{margin:.6em auto;padding:0 .6em}h1{font-size:1.35em}
 table{font-size:.82em}th,td{padding:.25em .4em}.verdict{font-size:1em}}
"""

_NOTE_RESULTS = ("Rates are shares of {trials} with 95% Wilson intervals; draws are counted "
                 "separately, never as half a win.")


@dataclass
class Page:
    """What the page needs besides the result (filled by :func:`~sim.report.write_run`).

    terms:       the system's nouns (see :data:`sim.report.fmt.DEFAULT_TERMS`)
    headline:    chart file names that answer the scenario's question, best first
    key_columns: table name -> the columns shown unfolded
    files:       the run's files, linked relatively (name -> size in bytes)
    meta:        chart file name -> ``{"caption", "variants", "omitted", "title"}``
    hidden:      chart file names written and linked but not shown (a plug-in's
                 chart that repeats a shared one)
    """
    terms: dict = field(default_factory=dict)
    headline: tuple = ()
    key_columns: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    hidden: tuple = ()


def _summary(result: RunResult, t: dict) -> str:
    s = result.summary
    if s is None or s.empty:
        return '<p class="muted">No results.</p>'
    side = result.side_names[0] if result.side_names else "first side"
    headers = {"win_rate": f"win ({side})", "loss_rate": "loss", "draw_rate": "draw",
               "mean_rounds": f"mean {t['rounds']}", "trials": t["trials"],
               "mean_rounds_se": f"mean {t['rounds']} s.e."}
    key = ["variant", "trials", "win_rate", "loss_rate", "draw_rate", "mean_rounds"]
    # every summary row shows (a long summary is not folded: it is the answer)
    return table_block(s, key=key, csv="summary.csv", headers=headers, cls="results",
                       fold_after=max(len(s), 1))


#: most variant names a caption lists per reason for leaving them out
_LIST_AT_MOST = 20


def _not_drawn(omitted: dict) -> str:
    """`` Not drawn: a (why); b (why).``; many variants left out for one reason are
    counted, the first :data:`_LIST_AT_MOST` named (linear in variants)."""
    if not omitted:
        return ""
    by_why: dict = {}
    for v, why in omitted.items():
        by_why.setdefault(why, []).append(v)
    parts = []
    for why, names in by_why.items():
        if len(names) <= 3:
            parts.extend(f"{esc(v)} ({esc(why)})" for v in names)
        else:
            shown = ", ".join(esc(v) for v in names[:_LIST_AT_MOST])
            more = f" and {len(names) - _LIST_AT_MOST:,} more" if len(names) > _LIST_AT_MOST else ""
            parts.append(f"{len(names):,} variants ({esc(why)}): {shown}{more}")
    return " Not drawn: " + "; ".join(parts) + "."


def _figure(name: str, png: bytes, meta: dict, t: dict) -> str:
    stem = name.rsplit(".", 1)[0]
    caption = meta.get("caption") or f"Chart of the {t['fights']} of this run."
    attrs = f' id="chart-{esc(stem)}" data-chart="{esc(name)}"'
    if meta.get("variants") is not None:
        attrs += f" data-variants='{esc(json.dumps(meta['variants']))}'"
        attrs += f" data-omitted='{esc(json.dumps(meta.get('omitted') or {}))}'"
    left_out = _not_drawn(meta.get("omitted") or {})
    b64 = base64.b64encode(png).decode("ascii")
    return (f"<figure{attrs}><a href=\"{esc(name)}\" title=\"full size\">"
            f'<img alt="{esc(caption)}" src="data:image/png;base64,{b64}"></a>'
            f"<figcaption>{esc(caption)}{left_out} "
            f'<a href="{esc(name)}">Full size</a>.</figcaption></figure>')


def _headline(charts: dict, page: Page) -> str | None:
    for name in (*page.headline, "win_rate.png"):
        if name in charts:
            return name
    return None


def _files(page: Page) -> str:
    if not page.files:
        return '<p class="muted">No files listed.</p>'
    items = []
    for name, size in sorted(page.files.items(), key=lambda kv: (kv[0].rsplit(".", 1)[-1], kv[0])):
        kb = f"{size / 1024:,.0f} kB" if size >= 1024 else f"{size} B"
        items.append(f'<li><a href="{esc(name)}">{esc(name)}</a> <span class="muted">{kb}</span></li>')
    return ('<p class="muted">The files of this run, next to this page '
            "(the links work while they stay together).</p>"
            f'<ul class="files">{"".join(items)}</ul>')


def _provenance(prov: dict) -> str:
    if not prov:
        return '<p class="muted">No provenance recorded.</p>'
    rows = "".join(f"<tr><th scope=row>{k}</th><td>{v}</td></tr>" for k, v in provenance_rows(prov))
    keys = ", ".join(esc(k) for k in list(prov)[:5])
    return (f'<details id="provenance-table"><summary>Show the provenance ({len(prov)} entries: '
            f"{keys}, …)</summary><div class=scroll><table>{rows}</table></div></details>")


def _notes(result: RunResult) -> str:
    if result.notes:
        return '<div class="notes"><ul>' + "".join(f"<li>{esc(n)}</li>" for n in result.notes) + "</ul></div>"
    return '<div class="notes"><p class="muted">No notes recorded.</p></div>'


def _toc(entries: list) -> str:
    links = "".join(f'<li><a href="#{esc(a)}">{esc(label)}</a></li>' for a, label in entries)
    return f'<nav class="toc" aria-label="contents"><b>Contents:</b> <ul>{links}</ul></nav>'


def _header(result: RunResult, t: dict) -> list:
    sub = [f"system <b>{esc(result.system)}</b>", f"seed {esc(result.seed)}"]
    if result.side_names:
        sub.append("sides: " + " vs ".join(esc(n) for n in result.side_names))
    s = result.summary
    if s is not None and not s.empty and "trials" in s.columns:
        lo, hi = int(s["trials"].min()), int(s["trials"].max())
        n = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
        sub.append(f"{len(s)} variant{'s' if len(s) != 1 else ''} × {n} {t['trials']}")
    desc = (result.provenance or {}).get("description")
    out = [f"<h1>{esc(result.scenario)}</h1>", f'<p class="sub">{" · ".join(sub)}</p>']
    if isinstance(desc, str) and desc.strip():
        out.append(f'<p class="sub">{esc(desc.strip())}</p>')
    return out


def render_html(result: RunResult, charts: dict | None = None, page: Page | None = None) -> str:
    """The report page as a string.

    ``charts`` maps a chart file name (``win_rate.png``...) to its PNG bytes,
    in display order; they are embedded as ``data:image/png;base64,`` URIs.
    ``page`` carries the system's words, the headline chart, key columns, the
    run's file list and each chart's caption and variants (:class:`Page`).
    """
    page = page or Page()
    charts = {k: v for k, v in (charts or {}).items() if k not in set(page.hidden)}
    t = {**DEFAULT_TERMS, **page.terms}
    head = _headline(charts, page)
    tables = {k: v for k, v in (result.tables or {}).items()}
    others = [n for n in charts if n != head]
    toc = [("verdict", "Verdict"), ("results", "Results")]
    if head:
        toc.append(("answer", (page.meta.get(head) or {}).get("title") or "Main chart"))
    toc.append(("notes", "Assumptions"))
    if others:
        toc.append(("charts", f"Charts ({len(others)})"))
    toc += [(f"table-{n}", n) for n in tables]
    toc += [("files", "Files"), ("provenance", "Provenance")]

    title = f"{result.scenario} — {result.system}"
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(title)}</title>", f"<style>{_CSS}</style></head><body>",
             *_header(result, t), _toc(toc)]
    parts.append(f'<p id="verdict" class="verdict"><b>Verdict.</b> '
                 f"{esc(verdict(result.summary, result.side_names, t))}</p>")
    parts.append(f'<h2 id="results">Results</h2><p class="muted">'
                 f"{esc(_NOTE_RESULTS.format(trials=t['trials']))}</p>")
    parts.append(_summary(result, t))
    if head:
        meta = page.meta.get(head) or {}
        parts.append(f'<h2 id="answer">{esc(meta.get("title") or "Main chart")}</h2>')
        parts.append(_figure(head, charts[head], meta, t))
    parts.append('<h2 id="notes">Assumptions and notes</h2>' + _notes(result))
    if others:
        parts.append('<h2 id="charts">Charts</h2>')
        parts += [_figure(n, charts[n], page.meta.get(n) or {}, t) for n in others]
    for name, df in tables.items():
        parts.append(f'<h2 id="table-{esc(name)}">{esc(name)}</h2>')
        parts.append(table_block(df, key=page.key_columns.get(name), csv=f"{name}.csv"))
    parts.append('<h2 id="files">Files</h2>' + _files(page))
    parts.append('<h2 id="provenance">Provenance</h2>' + _provenance(result.provenance))
    parts.append("</body></html>")
    return "\n".join(parts)
