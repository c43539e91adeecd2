"""Hostile and random study blocks and checkpoints (issue 39), bounded in time.

Property-based fuzzing (hypothesis, derandomised by ``conftest.py``, a fixed
number of examples and a deadline each):

* study blocks: random ``study:`` blocks (every kind, fields drawn from each kind's
  own and from noise) and the bundled study files with values replaced at random
  places, through the study's preflight (load, then every arm built on a dry
  context): each either passes or raises the project's own error
  (``ScenarioError``, ``StudyError``, ``RunError``), never another exception;
* checkpoints: a run's and a study's checkpoint with random bytes changed, cut
  short, arrays replaced by random arrays or the description edited:
  ``sim report`` either writes the report (status 0) or refuses in one
  paragraph (status 2), never an internal error (status 1).
"""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import duel_data, load_data
from test_fuzz_inputs import mutate  # at import: importing it inside a @given test nests its @given
import sim
from sim import cli, runner
from sim.scenario import ScenarioError

FUZZ = settings(max_examples=80, deadline=5_000, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**10), st.floats(allow_nan=True),
                     st.text(max_size=12), st.sampled_from(["Akari", "Shade", "Akari.attack", "Shade.resolve",
                                                            "Akari.talents", "Inflict", "base", "a", "b"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=10), inner, max_size=3)),
                       max_leaves=12)
_FIELDS = ["kind", "arms", "pairs", "independent_check", "precision", "max_trials", "alpha", "title", "member",
           "field", "mode", "candidates", "replace", "talent", "stats", "parameter", "range", "values", "targets",
           "max_points", "policies", "study", "side", "parameters", "candidates", "confirm_trials", "decks",
           "entries", "bootstrap"]
_KINDS = ["compare", "talent-value", "exchange-rate", "calibrate", "policy-robustness", "policy-tuning", "matchups"]


def _study_errors():
    from sim.runner import RunError
    from sim.study.run import StudyError

    return (ScenarioError, StudyError, RunError)


def _preflight(text: str) -> None:
    """Load the study and build every arm (the dry run): passes or the project's error."""
    from sim.study.load import load_study_text
    from sim.study.preflight import check_memory, dry_run

    try:
        ls = load_study_text(text, "fuzz.yaml")
        plan = dry_run(ls, 1, 20, 40)
        check_memory(plan, None)
    except _study_errors() as e:
        assert str(e) and "\x1b" not in str(e)


@FUZZ
@given(st.sampled_from(_KINDS), st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=5))
def test_fuzz_study_blocks(kind, fields):
    d = duel_data()
    d["study"] = {"kind": kind, **{k: v for k, v in fields.items() if k != "kind"}}
    try:
        text = yaml.safe_dump(d, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return
    _preflight(text)


_STUDIES = sorted((Path(sim.__file__).resolve().parents[1] / "scenarios" / "studies").glob("*.yaml"))
_STUDIES = [p for p in _STUDIES if "lethality" not in p.name]  # a whole-file kind, not a scenario
_PATHS = st.lists(st.one_of(st.sampled_from(_FIELDS + ["name", "set", "Akari.attack"]), st.integers(0, 3)),
                  min_size=1, max_size=3)


@FUZZ
@given(st.sampled_from([str(p) for p in _STUDIES]), st.lists(st.tuples(_PATHS, _VALUES), min_size=1, max_size=3))
def test_fuzz_bundled_study_files_mutated(base, edits):
    data = yaml.safe_load(Path(base).read_text(encoding="utf-8"))
    for path, value in edits:
        mutate(data["study"], path, value)
    try:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return
    _preflight(text)


# ---------------------------------------------------------------- checkpoints


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory) -> dict:
    """A complete run checkpoint and a complete study checkpoint, as bytes."""
    from study_helpers import kept_study_checkpoint

    d = tmp_path_factory.mktemp("fuzz-ckpt")
    run_ckpt = d / "run.npz"
    data = duel_data()
    data["variants"] = [{"name": "base"}, {"name": "a5", "set": {"Akari.attack": 5}}]
    runner.run_loaded(load_data(data), trials=500, checkpoint=run_ckpt, keep_checkpoint=True)
    return {"run": run_ckpt.read_bytes(), "study": kept_study_checkpoint(d, trials=300).read_bytes()}


def _report(path: Path, out: Path) -> int:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = cli.main(["report", str(path), "--out", str(out), "--quiet"])
    text = err.getvalue().strip()
    assert rc in (0, 2), text
    if rc == 2:
        assert text.startswith("error:") and "internal error" not in text and "\n" not in text, text
    return rc


@FUZZ
@given(st.sampled_from(["run", "study"]), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                                   min_size=1, max_size=6),
       st.one_of(st.none(), st.integers(0, 10**6)))
def test_fuzz_checkpoint_bytes(checkpoints, tmp_path_factory, which, flips, cut):
    raw = bytearray(checkpoints[which])
    for pos, value in flips:
        raw[pos % len(raw)] = value
    if cut is not None:
        raw = raw[: cut % len(raw)]
    d = tmp_path_factory.mktemp("fb")
    p = d / "c.npz"
    p.write_bytes(bytes(raw))
    _report(p, d / "out")


_ARRAYS = st.one_of(
    st.lists(st.integers(-3, 10**6), max_size=6).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.floats(allow_nan=True), max_size=4).map(lambda v: np.array(v, dtype=np.float64)),
    st.lists(st.integers(0, 5), max_size=5).map(lambda v: np.array(v, dtype=np.int8)),
    st.text(max_size=30).map(np.array),
    st.just(np.zeros((2, 3), dtype=np.int64)),
)


@FUZZ
@given(st.sampled_from(["run", "study"]), st.data())
def test_fuzz_checkpoint_arrays_and_meta(checkpoints, tmp_path_factory, which, data):
    d = tmp_path_factory.mktemp("fa")
    good = d / "good.npz"
    good.write_bytes(checkpoints[which])
    with np.load(good, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    keys = sorted(arrays)
    for _ in range(data.draw(st.integers(1, 3))):
        action = data.draw(st.sampled_from(["replace", "drop", "meta"]))
        key = data.draw(st.sampled_from(keys))
        if action == "replace":
            arrays[key] = data.draw(_ARRAYS)
        elif action == "drop":
            arrays.pop(key, None)
        else:
            try:
                meta = json.loads(str(arrays.get("meta", np.array("{}"))))
            except ValueError:
                meta = {}
            if isinstance(meta, dict) and meta:
                field = data.draw(st.sampled_from(sorted(meta)))
                meta[field] = data.draw(_VALUES)
                arrays["meta"] = np.array(json.dumps(meta))
    p = d / "c.npz"
    np.savez(p, **arrays)
    _report(p, d / "out")
