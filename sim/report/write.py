"""``write_run``: every output file of a run, written atomically."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from ..results import RunResult
from . import charts as _charts
from .atomic import atomic_dir
from .html import Page, render_html

__all__ = ["write_run", "RESERVED_NAMES", "csv_safe"]

#: names an extra table may not take (they are the run's own files)
RESERVED_NAMES = frozenset({"summary", "curves", "rounds", "report"})
_TABLE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def _json_default(o):
    """numpy scalars/arrays, paths and other odd values in provenance -> JSON."""
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (set, frozenset)):
        return sorted(o, key=str)
    return str(o)


def _check_table_names(tables: dict) -> None:
    for name in tables:
        if not isinstance(name, str) or not _TABLE_NAME.match(name) or name.endswith("."):
            raise ValueError(
                f"table name {name!r} is not a safe file name "
                "(letters, digits, '_', '-', '.'; not starting with '.' or '-')"
            )
        if name.lower() in RESERVED_NAMES:
            raise ValueError(f"table name {name!r} is reserved for the run's own files")
    lowered = [n.lower() for n in tables]
    if len(set(lowered)) != len(lowered):
        raise ValueError("table names must differ other than by case")


#: first characters that make a spreadsheet read a cell as a formula (OWASP CSV injection)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(df):
    """``df`` with every *text* cell that starts like a formula prefixed with ``'``.

    OWASP's advice for CSV injection: a cell starting with ``=``, ``+``, ``-``,
    ``@``, tab or carriage return is opened by a spreadsheet as a formula, so
    it is written as ``'=...``. Only string cells change: numbers (negative
    ones too) stay numbers. Returns ``df`` itself when nothing needs changing.
    """
    out = None
    for col in df.columns:
        if df[col].dtype.kind not in "OSU" and str(df[col].dtype) not in ("string", "str"):
            continue
        cells = df[col]
        risky = cells.map(lambda v: isinstance(v, str) and v.startswith(_FORMULA_START))
        if risky.any():
            if out is None:
                out = df.copy()
            out[col] = cells.where(~risky, "'" + cells.where(risky, "").astype(str))
    return df if out is None else out


def _to_csv(df, path: Path) -> None:
    """Write ``df`` as CSV with formula-like text cells neutralised (:func:`csv_safe`)."""
    csv_safe(df).to_csv(path, index=False)


def _pyarrow_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _write_parquet(df, path: Path) -> None:
    """``summary.parquet``, silently skipped when pyarrow cannot be imported."""
    if _pyarrow_available():
        df.to_parquet(path, engine="pyarrow", index=False)


def _system_charts(system: str) -> dict:
    """Charts a rule system adds: its plug-in's ``report_charts()`` returns
    ``{file name: function(result, path) -> path or None}``."""
    from sim.systems import SYSTEMS, get_system

    if system not in SYSTEMS:
        return {}
    mod = get_system(system)
    return dict(mod.report_charts()) if hasattr(mod, "report_charts") else {}


def _system_page(system: str) -> dict:
    """What a rule system says about its page: its plug-in's ``report_page()``
    returns ``{"terms": {...}, "headline": (chart file names), "key_columns":
    {table: [columns]}, "hidden": (chart file names not shown)}``, each optional."""
    from sim.systems import SYSTEMS, get_system

    if system not in SYSTEMS:
        return {}
    mod = get_system(system)
    return dict(mod.report_page()) if hasattr(mod, "report_page") else {}


def _caption_from_doc(func) -> str | None:
    """A chart's first docstring sentence: the caption when it records none."""
    doc = (getattr(func, "__doc__", None) or "").strip()
    return " ".join(doc.split(".")[0].split()) + "." if doc else None


def _draw_charts(result: RunResult, tmp: Path, terms: dict, say=None) -> tuple[dict, dict]:
    """Every chart of the run: ``({file name: PNG bytes}, {file name: metadata})``.

    Drawn under :func:`~sim.report.charts.plain_text`: names are never math text.
    ``say(text)``: told which chart is drawing (:class:`DrawProgress`).
    """
    with _charts.plain_text():
        return _draw_all(result, tmp, terms, say or (lambda text: None))


class DrawProgress:
    """Progress while a report draws: a line on ``stream`` (stderr) for each chart begun
    once the report has taken :data:`SAY_AFTER_S` seconds (a quick report says nothing)."""

    SAY_AFTER_S = 2.0

    def __init__(self, stream=None):
        import sys
        import time

        self.stream = stream or sys.stderr
        self.clock = time.monotonic
        self.t0 = self.clock()

    def __call__(self, text: str) -> None:
        elapsed = self.clock() - self.t0
        if elapsed >= self.SAY_AFTER_S:
            print(f"report: {text} ({elapsed:.0f} s so far)", file=self.stream, flush=True)


def _draw_all(result: RunResult, tmp: Path, terms: dict, say) -> tuple[dict, dict]:
    pngs, meta = {}, {}
    system = _system_charts(result.system)
    names = [*_charts.CHARTS, *system]
    for fname, func_name in _charts.CHARTS.items():
        # looked up at call time so tests (and plug-ins) can replace a chart
        func = getattr(_charts, func_name)
        say(f"drawing {fname}, chart {names.index(fname) + 1} of {len(names)}")
        path = func(result, tmp / fname, terms=terms)
        if path is not None:
            pngs[fname] = Path(path).read_bytes()
            meta[fname] = _charts.chart_meta(path)
            meta[fname].setdefault("caption", None)
            meta[fname]["caption"] = meta[fname]["caption"] or _caption_from_doc(func)
    for fname, func in system.items():
        say(f"drawing {fname}, chart {names.index(fname) + 1} of {len(names)}")
        path = func(result, tmp / fname)
        if path is not None:
            pngs[fname] = Path(path).read_bytes()
            meta[fname] = _charts.chart_meta(path)
            meta[fname]["caption"] = meta[fname].get("caption") or _caption_from_doc(func)
    return pngs, meta


def write_run(result: RunResult, out_dir, say=None) -> Path:
    """Write every output of ``result`` into ``out_dir`` and return its path.

    Files: ``summary.csv``, ``summary.json`` (``RunResult.to_dict()``),
    ``summary.parquet`` (if pyarrow is importable), ``curves.csv``,
    ``rounds.csv``, ``<name>.csv`` per extra table (text cells that start like a
    spreadsheet formula get a leading ``'``: :func:`csv_safe`), the charts
    ``win_rate.png``, ``fight_length.png``, ``survival.png`` (each skipped when
    its table is empty), the plug-in's charts and a self-contained
    ``report.html`` that links to all of them.

    ``say(text)``: told which chart is drawing (e.g. :class:`DrawProgress`).

    Atomic: everything is built in a hidden sibling temporary directory and
    renamed to ``out_dir`` at the end; on any error nothing is left behind.
    Raises :class:`~sim.report.atomic.OutputExistsError` (a
    ``FileExistsError``) if ``out_dir`` exists and is not empty, and
    ``ValueError`` for an extra table whose name is not a safe file name.
    """
    out_dir = Path(out_dir)
    tables = dict(result.tables or {})
    _check_table_names(tables)
    with atomic_dir(out_dir) as tmp:
        _to_csv(result.summary, tmp / "summary.csv")
        (tmp / "summary.json").write_text(
            json.dumps(result.to_dict(), indent=2, default=_json_default) + "\n",
            encoding="utf-8",
        )
        _write_parquet(result.summary, tmp / "summary.parquet")
        _to_csv(result.curves, tmp / "curves.csv")
        _to_csv(result.rounds, tmp / "rounds.csv")
        for name, df in tables.items():
            _to_csv(df, tmp / f"{name}.csv")

        spec = _system_page(result.system)
        terms = dict(spec.get("terms") or {})
        pngs, meta = _draw_charts(result, tmp, terms, say)
        page = Page(
            terms=terms, headline=tuple(spec.get("headline") or ()),
            key_columns=dict(spec.get("key_columns") or {}), meta=meta,
            hidden=tuple(spec.get("hidden") or ()),
            files={p.name: p.stat().st_size for p in sorted(tmp.iterdir()) if p.is_file()},
        )
        (tmp / "report.html").write_text(render_html(result, pngs, page), encoding="utf-8")
    return out_dir
