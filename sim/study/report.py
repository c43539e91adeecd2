"""A study's outputs: tidy CSV tables, PNG charts, ``study.json`` and ``report.html``.

Each study kind returns a :class:`Section`; :func:`write_study` writes it
into a run directory atomically (:func:`sim.report.atomic.atomic_dir`: all or
nothing) with the same page style, tables and embedded charts as ``sim run``'s
report (:mod:`sim.report.html`, :mod:`sim.report.tables`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from sim.report.atomic import atomic_dir
from sim.report.charts import chart_meta
from sim.report.fmt import DEFAULT_TERMS, esc
from sim.report.html import _CSS, _figure, _provenance, _toc
from sim.report.tables import table_block
from sim.report.write import csv_safe


@dataclass
class Section:
    """One study's part of the report.

    kind, title:  the study kind and the section heading
    reading:      one paragraph written from the numbers (the answer, in words)
    tables:       file stem -> tidy DataFrame (written as ``<stem>.csv``), first = main
    charts:       file name -> ``draw(path) -> path | None`` (a PNG), first = main
    notes:        caveats of the method, shown under the reading
    warnings:     what could make the reading mislead (a base rate near 0 or 100%, a jump
                  in a curve, a target beyond the grid...), shown before it
    base:         the reference rate (:func:`sim.study.caveats.base_rate`), or None
    assumptions:  the rule assumptions of the arms (:func:`sim.study.caveats.assumptions`),
                  filled by the runner
    unanswered:   a sentence per question the study could not answer (a calibrate target
                  beyond the grid: which way to extend it); ``sim study`` then exits 3
    """

    kind: str
    title: str
    reading: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    charts: dict[str, Callable] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    base: dict | None = None
    assumptions: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)

    def record(self) -> dict:
        """The section as plain data (``study.json``, ``sim study --json``)."""
        return {"kind": self.kind, "title": self.title, "base": self.base, "warnings": self.warnings,
                "reading": self.reading, "notes": self.notes, "assumptions": self.assumptions,
                "unanswered": self.unanswered,
                "tables": {k: df.to_dict(orient="records") for k, df in self.tables.items()}}


#: the warnings box: the notes' box in red
_WARN_CSS = ".notes.warn{background:#fdecea;border-color:#e57373;border-left-color:#c0392b}"


def _json_default(o):
    if hasattr(o, "item"):
        return o.item()
    return str(o)


def render_page(name: str, header: str, sections: list[Section], pngs: dict, meta: dict,
                provenance: dict) -> str:
    """The ``report.html`` of a study run (one section per study)."""
    toc = [(f"study-{i}", s.title) for i, s in enumerate(sections)] + [("provenance", "Provenance")]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(name)} — study</title>", f"<style>{_CSS}{_WARN_CSS}</style></head><body>",
             f"<h1>{esc(name)}</h1>", f'<p class="sub">{header}</p>', _toc(toc)]
    for i, s in enumerate(sections):
        parts.append(f'<h2 id="study-{i}">{esc(s.title)}</h2>')
        if s.warnings:
            parts.append('<div class="notes warn"><b>Read this first.</b><ul>'
                         + "".join(f"<li>{esc(w)}</li>" for w in s.warnings) + "</ul></div>")
        parts.append(f'<p class="verdict"><b>Reading.</b> {esc(s.reading)}</p>')
        if s.notes:
            parts.append('<div class="notes"><ul>' + "".join(f"<li>{esc(n)}</li>" for n in s.notes)
                         + "</ul></div>")
        if s.assumptions:
            parts.append('<details class="notes"><summary>Rule assumptions of the arms '
                         f'({len(s.assumptions)})</summary><ul>'
                         + "".join(f"<li>{esc(n)}</li>" for n in s.assumptions) + "</ul></details>")
        for fname in s.charts:
            if fname in pngs:
                parts.append(_figure(fname, pngs[fname], meta.get(fname) or {}, DEFAULT_TERMS))
        for stem, df in s.tables.items():
            parts.append(f"<h3>{esc(stem)}</h3>")
            parts.append(table_block(df, csv=f"{stem}.csv", fold_after=max(len(df), 1)))
    parts.append('<h2 id="provenance">Provenance</h2>' + _provenance(provenance))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_study(out_dir, name: str, header: str, sections: list[Section], provenance: dict,
                files: dict[str, str] | None = None, say=None) -> Path:
    """Write every table (CSV: text cells that a spreadsheet would read as a formula
    get a leading ``'``, :func:`sim.report.write.csv_safe`), chart (PNG),
    ``study.json`` (tables as records and the provenance), ``report.html`` and
    ``files`` (relative path -> text, e.g. generated scenarios) into ``out_dir`` (atomic).
    ``say(text)``: told which chart is drawing (:class:`sim.report.write.DrawProgress`)."""
    out_dir = Path(out_dir)
    with atomic_dir(out_dir) as tmp:
        for rel, text in (files or {}).items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text, encoding="utf-8")
        pngs, meta, payload = {}, {}, {"provenance": provenance, "studies": []}
        for s in sections:
            for stem, df in s.tables.items():
                csv_safe(df).to_csv(tmp / f"{stem}.csv", index=False)  # no spreadsheet formulas
            for fname, draw in s.charts.items():
                if say is not None:
                    say(f"drawing {fname}")
                path = draw(tmp / fname)
                if path is not None:
                    pngs[fname] = Path(path).read_bytes()
                    meta[fname] = chart_meta(path)
            payload["studies"].append(s.record())
        (tmp / "study.json").write_text(json.dumps(payload, indent=2, default=_json_default) + "\n",
                                        encoding="utf-8")
        (tmp / "report.html").write_text(render_page(name, header, sections, pngs, meta, provenance),
                                         encoding="utf-8")
    return out_dir
