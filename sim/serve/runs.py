"""The run history: runs and studies kept under ``results/`` in the ``sim run`` layout.

A run is ``results/<scenario>/<run id>/`` with ``summary.json`` (a study:
``study.json``) and ``report.html``, whoever wrote it (the page or the CLI),
so the history survives a restart. The page names a run ``<scenario>/<run
id>`` (:func:`sim.serve.paths.run_dir` checks it). What only the page needs
sits in the hidden ``.serve.json`` beside the run's files: the label, the
scenario text that was run (for "restore" and the YAML diff), the file it
came from and the seconds it took (the cost estimate of the next run).
"""
from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pandas as pd

from .paths import PathRefused, run_dir
from .views import run_view, study_view

META = ".serve.json"
#: longest label, in characters
MAX_LABEL = 120


def write_json_atomic(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    tmp.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    os.replace(tmp, path)


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _csv(path: Path) -> pd.DataFrame:
    try:
        return pd.read_csv(path)
    except (OSError, ValueError, pd.errors.EmptyDataError):
        return pd.DataFrame()


class RunStore:
    """Runs under ``results`` (a real, absolute path), listed newest first."""

    def __init__(self, results: Path):
        self.results = Path(results)
        self._cache: dict[Path, tuple[float, dict]] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ finding runs

    def path(self, run_id: str) -> Path:
        """The directory of ``<scenario>/<run id>``; :class:`PathRefused` unless it is a run."""
        scenario, _, rid = str(run_id).partition("/")
        d = run_dir(self.results, scenario, rid)
        if not ((d / "summary.json").is_file() or (d / "study.json").is_file()):
            raise PathRefused(f"no run {run_id!r} in {self.results}")
        return d

    def _entry(self, d: Path) -> dict | None:
        is_study = (d / "study.json").is_file()
        main = d / ("study.json" if is_study else "summary.json")
        try:
            stamp = max(main.stat().st_mtime, (d / META).stat().st_mtime if (d / META).exists() else 0)
        except OSError:
            return None
        with self._lock:
            hit = self._cache.get(d)
            if hit and hit[0] == stamp:
                return hit[1]
        data, meta = _read_json(main), _read_json(d / META)
        prov = data.get("provenance") or {}
        entry = {"id": f"{d.parent.name}/{d.name}", "scenario": d.parent.name, "kind": "study" if is_study else "run",
                 "label": meta.get("label") or "", "file": meta.get("file"), "system": data.get("system")
                 or prov.get("system") or prov.get("kind"), "seed": data.get("seed", prov.get("seed")),
                 "created": prov.get("created_utc"), "has_text": bool(meta.get("text")),
                 "elapsed_s": meta.get("elapsed_s")}
        if is_study:
            studies = data.get("studies") or [{}]
            entry.update(trials=prov.get("trials_per_arm") or prov.get("trials"), variants=[],
                         study_kind=studies[0].get("kind"), crn=prov.get("common_random_numbers"))
        else:
            rows = data.get("results") or []
            entry.update(trials=max((int(r.get("trials") or 0) for r in rows), default=0),
                         trials_each=[int(r.get("trials") or 0) for r in rows],
                         variants=[str(r.get("variant")) for r in rows],
                         crn=prov.get("common_random_numbers", True), sha256=prov.get("scenario_sha256"),
                         wins=[int(r.get("wins") or 0) for r in rows])
        with self._lock:
            self._cache[d] = (stamp, entry)
        return entry

    def list(self, limit: int = 500) -> list[dict]:
        """Every run and study, newest first (at most ``limit``)."""
        found = []
        try:
            scenarios = [e for e in os.scandir(self.results) if e.is_dir(follow_symlinks=False)
                         and not e.name.startswith(".")]
        except OSError:
            return []
        for s in scenarios:
            try:
                runs = [e for e in os.scandir(s.path) if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")]
            except OSError:
                continue
            for r in runs:
                entry = self._entry(Path(r.path))
                if entry is not None:
                    found.append(entry)
        found.sort(key=lambda e: (e.get("created") or "", e["id"]), reverse=True)
        return found[:limit]

    # ------------------------------------------------------------ one run

    def meta(self, run_id: str) -> dict:
        return _read_json(self.path(run_id) / META)

    def view(self, run_id: str) -> dict:
        """The page's view of a run or study (:mod:`sim.serve.views`) with its history entry."""
        d = self.path(run_id)
        if (d / "study.json").is_file():
            charts = sorted(p.name for p in d.glob("*.png"))
            view = study_view(_read_json(d / "study.json"), charts)
            first = _first_chart(d, charts)
            view["charts"] = ([first] if first else []) + [c for c in charts if c != first]
        else:
            view = run_view(_read_json(d / "summary.json"), _csv(d / "rounds.csv"), _csv(d / "curves.csv"))
        view["run"] = self._entry(d)
        return view

    def text(self, run_id: str) -> tuple[str | None, str | None]:
        """``(scenario text, file)`` the run was made from: the text kept by the page, else the
        file named in the provenance if it still has the same SHA-256; ``(None, None)`` if neither."""
        d = self.path(run_id)
        meta = _read_json(d / META)
        if meta.get("text"):
            return meta["text"], meta.get("file")
        data = _read_json(d / ("study.json" if (d / "study.json").is_file() else "summary.json"))
        prov = data.get("provenance") or {}
        src = prov.get("scenario_file") or prov.get("study_file")
        if src and Path(src).is_file():
            import hashlib

            raw = Path(src).read_bytes()
            if not prov.get("scenario_sha256") or hashlib.sha256(raw).hexdigest() == prov["scenario_sha256"]:
                return raw.decode("utf-8", "replace"), None
        return None, None

    def set_label(self, run_id: str, label: str) -> dict:
        label = " ".join(str(label).split())[:MAX_LABEL]
        d = self.path(run_id)
        meta = _read_json(d / META)
        meta["label"] = label
        write_json_atomic(d / META, meta)
        return self._entry(d)

    def delete(self, run_id: str) -> None:
        d = self.path(run_id)
        shutil.rmtree(d)
        with self._lock:
            self._cache.pop(d, None)
        try:
            d.parent.rmdir()  # the scenario's folder, when it was its last run
        except OSError:
            pass

    def file(self, run_id: str, name: str) -> Path:
        """A file directly inside a run's directory (report.html, a CSV, a chart)."""
        d = self.path(run_id)
        if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
            raise PathRefused("no such file in this run")
        p = d / name
        if not p.is_file() or p.is_symlink():
            raise PathRefused("no such file in this run")
        return p


def _first_chart(d: Path, charts: list[str]) -> str | None:
    """A study's main chart: the first ``<img>`` its report shows (else the first PNG)."""
    try:
        html = (d / "report.html").read_text(encoding="utf-8")
    except OSError:
        return charts[0] if charts else None
    best = None
    for c in charts:
        at = html.find(f'data-chart="{c}"')
        if at >= 0 and (best is None or at < best[0]):
            best = (at, c)
    return best[1] if best else (charts[0] if charts else None)
