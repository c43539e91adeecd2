"""A study's checkpoint: the per-trial rows of its arms, saved as they are played.

``sim study`` (when it writes) keeps every stream of rows it plays, arms and
replays alike (:meth:`sim.study.arms.StudyContext.streams`), in one ``.npz``
beside its output (:func:`checkpoint_path`), locked while the study runs:

* ``meta``: JSON: ``kind: "study"``, the study file's text, path and SHA-256,
  the seed, the ``--trials`` asked, the mgsim version, ``complete`` (the
  study finished; only its report is left to write), and per stream its
  ``purpose`` and ``name`` (:data:`sim.study.arms.PURPOSES`), its key and the
  trials ``done``. ``sim audit`` writes the same file (:mod:`sim.audit_run`):
  its "study text" is the audit's identity (system, options, every encounter's
  text), ``audit`` names the system, and its streams are those of several
  contexts, tagged by encounter (:mod:`sim.study.group`);
* ``done``: int64, trials per stream; ``s<i>:<column>``: stream ``i``'s rows,
  one array per column of :func:`sim.trials.columns_of`, ``done`` long.

It is written atomically (:func:`sim.runner.write_npz`) at most every
:data:`SAVE_EVERY_S` seconds (longer when a save is slow: at most a tenth of
the time goes to saving), at a stop and at the end. ``--resume`` hands its
rows back to the arms (:attr:`StudyContext.restored`); because trial ``i`` of
a stream is always the same, the kind's code then plays only the missing
trials and gives the tables of an uninterrupted study. ``sim report`` writes
the report of a complete one. :func:`read` checks a file before use
(:mod:`sim.checkfile`): sizes, dtypes, every column ``done`` long, outcome
codes 0-2, no negative count.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np

import sim
from sim import checkfile as cf

#: seconds between two saves, at least (``MGSIM_CHECKPOINT_EVERY_S`` sets it, as for ``sim run``)
SAVE_EVERY_S = float(os.environ.get("MGSIM_CHECKPOINT_EVERY_S", 5.0))
#: the most a study checkpoint may unpack to (its rows: about 11 bytes a trial per stream)
MAX_BYTES = 64 << 30


def checkpoint_path(name: str, sha256: str, seed: int, results_root="results", out=None) -> Path:
    """Beside ``out`` when given, else one per study text and seed under ``results_root/<name>/``."""
    if out is not None:
        out = Path(out)
        return out.parent / f".{out.name}.study-checkpoint-s{seed}.npz"
    return Path(results_root) / name / f".study-checkpoint-{sha256[:12]}-s{seed}.npz"


def identity(text: str, seed: int, trials: int | None) -> dict:
    """What a checkpoint must share with the study that resumes it."""
    return {"kind": "study", "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "seed": int(seed),
            "trials": None if trials is None else int(trials), "version": sim.__version__}


class StudyCheckpoint:
    """The checkpoint file of one study run (see the module doc)."""

    def __init__(self, path, text: str, study_path, seed: int, trials: int | None, extra: dict | None = None,
                 resume: str = "`sim study FILE --resume` (same file, seed and --trials)"):
        self.path = Path(path)
        self.meta = {**identity(text, seed, trials), "study_text": text, "study_path": str(study_path),
                     "complete": False, **(extra or {})}
        self.resume = resume
        self.kept: int | None = None
        self._last = time.monotonic()
        self._cost = 0.0

    def __call__(self, ctx, force: bool = False) -> None:
        """Save ``ctx``'s streams if due (the context's ``saver``)."""
        now = time.monotonic()
        if not force and now - self._last < max(SAVE_EVERY_S, 10 * self._cost):
            return
        self.save(ctx)

    def save(self, ctx, complete: bool = False, quiet: bool = False) -> None:
        from sim.runner import write_npz

        t0 = time.monotonic()
        streams = ctx.streams()
        meta = dict(self.meta, complete=bool(complete),
                    streams=[{"purpose": a.purpose, "name": a.name, "key": str(int(a.key)), "done": a.done}
                             for a in streams])
        arrays = {"meta": np.array(json.dumps(meta)),
                  "done": np.array([a.done for a in streams], dtype=np.int64)}
        for i, a in enumerate(streams):
            for k, v in a.rows(a.done).items():
                arrays[f"s{i}:{k}"] = v
        write_npz(self.path, arrays, self, sum(a.done for a in streams), quiet,
                  resume=self.resume)
        self._last = time.monotonic()
        self._cost = self._last - t0

    def restore(self, ctx) -> int:
        """Hand the file's rows to ``ctx`` (refusing another study's); the trials restored."""
        from sim.runner import RunError

        meta, streams = read(self.path)
        mine = {k: self.meta[k] for k in ("kind", "sha256", "seed", "trials", "version")}
        theirs = {k: meta.get(k) for k in mine}
        if theirs != mine:
            diff = ", ".join(f"{k}: {theirs[k]!r} there, {mine[k]!r} now" for k in mine if theirs[k] != mine[k])
            raise RunError(f"--resume: checkpoint {self.path} belongs to another study text, seed, --trials "
                           f"or mgsim version ({diff}); remove it, or run without --resume")
        ctx.restored = streams
        self.kept = sum(done for _k, _c, done in streams.values())
        return self.kept

    def remove(self) -> None:
        for p in (self.path, self.path.with_name(self.path.name + ".tmp.npz")):
            p.unlink(missing_ok=True)


def read(path) -> tuple[dict, dict]:
    """``(meta, {(purpose, name): (key, columns, done)})`` of a study checkpoint, checked
    (see the module doc); :class:`sim.runner.RunError` for a damaged file."""
    from sim.runner import RunError

    path = Path(path)
    try:
        arrays = cf.load_arrays(path, MAX_BYTES)
        meta = cf.read_meta(path, arrays)
        if meta.get("kind") != "study":
            raise cf.damaged(path, "it is not a study's checkpoint")
        return meta, _streams(path, arrays, meta)
    except FileNotFoundError:
        raise RunError(f"{path}: no such checkpoint file") from None
    except cf.DamagedCheckpoint as e:
        raise RunError(str(e)) from None


def _check_meta(path, meta: dict) -> list:
    from sim.study.arms import PURPOSES

    cf.meta_field(path, meta, "sha256", "str")
    cf.meta_field(path, meta, "seed", "int", lo=0, hi=2**63 - 1)
    cf.meta_field(path, meta, "trials", "int", optional=True, lo=1, hi=10**9)
    cf.meta_field(path, meta, "version", "str")
    cf.meta_field(path, meta, "complete", "bool")
    text = cf.meta_field(path, meta, "study_text", "str")
    cf.meta_field(path, meta, "study_path", "str")
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != meta["sha256"]:
        raise cf.damaged(path, "the study text it carries does not match its SHA-256 (edited)")
    streams = cf.meta_field(path, meta, "streams", "list")
    seen = set()
    for i, s in enumerate(streams):
        if not isinstance(s, dict):
            raise cf.damaged(path, f"its stream {i} is not described by an object")
        purpose = cf.meta_field(path, s, "purpose", "str")
        name = cf.meta_field(path, s, "name", "str")
        key = cf.meta_field(path, s, "key", "str")
        cf.meta_field(path, s, "done", "int", lo=0, hi=10**10)
        if purpose not in PURPOSES or not key.isdigit() or int(key) >= 2**64 or (purpose, name) in seen:
            raise cf.damaged(path, f"its stream {i} ({purpose!r}, {name!r}, key {key!r}) is not a valid "
                             "stream (purpose, unique name, 64-bit key)")
        seen.add((purpose, name))
    return streams


def _streams(path, arrays: dict, meta: dict) -> dict:
    """The streams' rows, each column checked against the stream's ``done``."""
    from sim.trials import COLUMNS, FIGHT_COLUMNS

    streams = _check_meta(path, meta)
    done = cf.counts(path, cf.need(path, arrays, "done", kind="i", ndim=1), "'done'")
    if len(done) != len(streams) or any(int(d) != s["done"] for d, s in zip(done, streams)):
        raise cf.damaged(path, "'done' does not match the trials its streams list")
    cols: list[dict] = [{} for _ in streams]
    for key, a in arrays.items():
        if key in ("meta", "done"):
            continue
        head, _, col = key.partition(":")
        if not (head[:1] == "s" and head[1:].isdigit() and int(head[1:]) < len(streams)) or \
                col not in {**COLUMNS, **FIGHT_COLUMNS}:
            raise cf.damaged(path, f"it holds an array {key!r} that belongs to no stream")
        cols[int(head[1:])][col] = a
    out = {}
    for i, (s, c) in enumerate(zip(streams, cols)):
        where = f"stream {s['purpose']} {s['name']!r}"
        if s["done"] and not set(COLUMNS) <= set(c):
            raise cf.damaged(path, f"{where} lacks the columns {', '.join(sorted(set(COLUMNS) - set(c)))}")
        for k, a in c.items():
            if a.ndim != 1 or len(a) != s["done"]:
                raise cf.damaged(path, f"{where}: column {k!r} has shape {a.shape}, not ({s['done']},)")
            c[k] = cf.counts(path, a, f"{where}: column {k!r}").astype((COLUMNS | FIGHT_COLUMNS)[k])
        if s["done"] and int(c["outcome"].max()) > 2:
            raise cf.damaged(path, f"{where}: an outcome code is {int(c['outcome'].max())} (codes are 0-2)")
        out[(s["purpose"], s["name"])] = (np.uint64(int(s["key"])), c, s["done"])
    return out


def is_audit_checkpoint(path) -> bool:
    """Whether ``path`` says it is ``sim audit``'s study checkpoint (its ``meta`` alone is read)."""
    meta = cf.peek_meta(path)
    return isinstance(meta, dict) and meta.get("kind") == "study" and "audit" in meta


def is_study_checkpoint(path) -> bool:
    """Whether ``path`` says it is a study checkpoint (its ``meta`` alone is read:
    :func:`sim.checkfile.peek_meta`); anything else is for the run reader to judge."""
    meta = cf.peek_meta(path)
    return isinstance(meta, dict) and meta.get("kind") == "study"
