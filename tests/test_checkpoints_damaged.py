"""Damaged checkpoints and failed writes (issue 39): never an internal error, never a
silent wrong report.

``sim report`` on each damaged run checkpoint (an empty file, bytes that are not a zip, a
truncated zip, a zip bomb, an array whose header lies about its size, a pickled array, a
stray member, a missing or bad description, a missing, empty, negative, edited, too long
or float ``done``, negative, zero or float counters, a missing counter, a seed given as
text, counters of the wrong shape, trial counts the run did not ask for) exits 2 with one
paragraph. A study checkpoint with a damaged column the same. A checkpoint write that
fails under ``prlimit --fsize`` exits 2 naming the checkpoint kept, with no temporary
file left.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest

from helpers import duel_data, load_data
from test_cli import ROOT, SIM

from sim import cli, runner


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A complete checkpoint of a small duel run (what a run keeps when its report fails)."""
    d = tmp_path_factory.mktemp("ckpt")
    data = duel_data()
    data["variants"] = [{"name": "base"}, {"name": "a5", "set": {"Akari.attack": 5}}]
    path = d / "good.npz"
    runner.run_loaded(load_data(data), trials=3_000, checkpoint=path, keep_checkpoint=True)
    return path


def _arrays(path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def _save(path, arrays) -> Path:
    np.savez(path, **arrays)
    return path


def _meta_edit(arrays, **changes):
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    return {**arrays, "meta": np.array(json.dumps(meta))}


def _bomb(path, good_arrays, size=300 << 20):
    """A zip whose one extra array unpacks to ``size`` bytes of zeros (a few hundred KB packed)."""
    from numpy.lib import format as npf

    _save(path, good_arrays)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("v0:extra.npy", "w", force_zip64=True) as f:
            npf.write_array_header_1_0(f, {"descr": "<i8", "fortran_order": False, "shape": (size // 8,)})
            block = bytes(1 << 20)
            for _ in range(size >> 20):
                f.write(block)
    return path


def _lying_header(path, good_arrays):
    from numpy.lib import format as npf

    _save(path, good_arrays)
    with zipfile.ZipFile(path, "a") as z:
        buf = io.BytesIO()
        npf.write_array_header_1_0(buf, {"descr": "<i8", "fortran_order": False, "shape": (10**12,)})
        z.writestr("v0:huge.npy", buf.getvalue() + bytes(64))
    return path


def _cases():
    """name -> a function (good arrays, target path) writing a damaged checkpoint."""
    def edit(fn):
        return lambda a, p: _save(p, fn(dict(a)))

    def drop(key):
        return edit(lambda a: {k: v for k, v in a.items() if k != key})

    def setk(key, value):
        return edit(lambda a: {**a, key: value})

    return {
        "empty file": lambda a, p: (p.write_bytes(b""), p)[1],
        "not a zip": lambda a, p: (p.write_bytes(os.urandom(4000)), p)[1],
        "truncated zip": lambda a, p: (_save(p, a), p.write_bytes(p.read_bytes()[:1500]))[0],
        "zip bomb": lambda a, p: _bomb(p, a),
        "header lies about its size": lambda a, p: _lying_header(p, a),
        "pickled object array": setk("v0:obj", np.array([{"x": 1}], dtype=object)),
        "stray member": lambda a, p: (_save(p, a), zipfile.ZipFile(p, "a").writestr("evil.txt", "x"))[0],
        "missing meta": drop("meta"),
        "meta not json": setk("meta", np.array("{not json")),
        "meta a list": setk("meta", np.array("[1, 2]")),
        "missing done": drop("done"),
        "empty done": setk("done", np.zeros(0, dtype=np.int64)),
        "negative done": edit(lambda a: {**a, "done": -a["done"]}),
        "done edited": edit(lambda a: {**a, "done": a["done"] + 7}),
        "done too long": edit(lambda a: {**a, "done": np.append(a["done"], 5)}),
        "done as floats": edit(lambda a: {**a, "done": a["done"].astype(float)}),
        "negative counters": edit(lambda a: {**a, "v0:outcomes": -a["v0:outcomes"]}),
        "zero counters": edit(lambda a: {**a, "v0:outcomes": np.zeros(3, dtype=np.int64)}),
        "float counters": edit(lambda a: {**a, "v1:outcomes": a["v1:outcomes"].astype(float)}),
        "missing counter": drop("v1:outcomes"),
        "seed as text": edit(lambda a: _meta_edit(a, seed="seven")),
        "histogram of the wrong length": edit(lambda a: {**a, **{k: v[:1] if k.endswith("rounds_hist") else v
                                                                  for k, v in a.items() if k.startswith("v")}}),
        "counters of the wrong shape": edit(lambda a: {**a, **{k: v[:1] for k, v in a.items()
                                                               if k.startswith("v") and v.ndim >= 2}}),
        "trials not asked for": edit(lambda a: {**{k: (v * 2 if k.startswith("v") else v) for k, v in a.items()},
                                                 "done": a["done"] * 2}),
        "a directory": lambda a, p: (p.mkdir(), p)[1],
    }


CASES = _cases()


def _refused(bad, tmp_path, capsys) -> None:
    """``sim report BAD``: status 2, one paragraph naming the file, nothing written."""
    rc = cli.main(["report", str(bad), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert rc == 2, err
    assert err.startswith("error:") and "internal error" not in err and "\n" not in err, err
    assert str(bad) in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", list(CASES))
def test_sim_report_on_a_damaged_run_checkpoint_is_one_paragraph(case, good, tmp_path, capsys):
    _refused(CASES[case](_arrays(good), tmp_path / "bad.npz"), tmp_path, capsys)


def test_the_good_checkpoint_writes_its_report(good, tmp_path, capsys):
    assert cli.main(["report", str(good), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "report.html").is_file()


def test_a_damaged_checkpoint_refuses_resume(good, tmp_path):
    data = duel_data()
    data["variants"] = [{"name": "base"}, {"name": "a5", "set": {"Akari.attack": 5}}]
    loaded = load_data(data)
    bad = CASES["done edited"](_arrays(good), tmp_path / "bad.npz")
    with pytest.raises(runner.RunError, match="add up to"):
        runner.run_loaded(loaded, trials=3_000, checkpoint=bad, resume=True)


def _prlimit():
    return shutil.which("prlimit")


@pytest.mark.skipif(_prlimit() is None, reason="needs prlimit (util-linux)")
def test_a_checkpoint_write_failing_under_a_file_size_limit_exits_2_naming_what_is_kept(tmp_path, monkeypatch):
    """A run stopped after 2,000 of 6,000 trials keeps its checkpoint; resumed under a file
    size limit smaller than the checkpoint, its next save fails: exit 2 naming the
    checkpoint kept, no temporary file, no traceback."""
    import threading

    import yaml

    from sim import api

    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(duel_data(), sort_keys=False))
    monkeypatch.setattr(runner, "CHUNK", 2_000)
    monkeypatch.setattr(runner, "CHUNK_TARGET_S", None)
    stop = threading.Event()
    with pytest.raises(runner.RunCancelled) as info:
        api.run(f, trials=6_000, out=tmp_path / "run", cancel=stop,
                progress=lambda done, total, est: done >= 2_000 and stop.set())
    ckpt = info.value.checkpoint
    assert ckpt == api.checkpoint_path(api.load(f), None, out=tmp_path / "run") and ckpt.is_file()
    env = {k: v for k, v in os.environ.items() if k != "SIM_DEBUG"}
    env["MGSIM_CHECKPOINT_EVERY_S"] = "0"
    res = subprocess.run([_prlimit(), f"--fsize={ckpt.stat().st_size // 2}", *SIM, "run", str(f), "--trials",
                          "6000", "--out", str(tmp_path / "run"), "--resume", "--progress", "none"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    err = res.stderr.strip()
    assert res.returncode == 2, err
    assert "could not write the checkpoint" in err and "2,000 trials" in err and str(ckpt) in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert not list(tmp_path.glob("*.tmp.npz")) and runner.read_checkpoint(ckpt)[1].tolist() == [2_000]


@pytest.fixture(scope="module")
def good_study(tmp_path_factory) -> Path:
    """A complete study checkpoint (kept because its report could not be written)."""
    from study_helpers import kept_study_checkpoint

    return kept_study_checkpoint(tmp_path_factory.mktemp("study"))


def _study_cases():
    def edit(fn):
        return lambda a, p: _save(p, fn(dict(a)))

    def meta(**changes):
        return edit(lambda a: _meta_edit(a, **changes))

    return {
        "outcome code 5": edit(lambda a: {**a, "s0:outcome": np.full_like(a["s0:outcome"], 5)}),
        "a column too short": edit(lambda a: {**a, "s1:rounds": a["s1:rounds"][:-3]}),
        "negative rounds": edit(lambda a: {**a, "s0:rounds": -a["s0:rounds"]}),
        "missing column": edit(lambda a: {k: v for k, v in a.items() if k != "s1:outcome"}),
        "unknown column": edit(lambda a: {**a, "s0:secret": a["s0:rounds"]}),
        "study text edited": edit(lambda a: _meta_edit(a, study_text=json.loads(str(a["meta"]))["study_text"]
                                                       + "\n# edited")),
        "stream key not a number": edit(lambda a: _meta_edit(a, streams=[
            {**s, "key": "abc"} for s in json.loads(str(a["meta"]))["streams"]])),
        "complete as text": meta(complete="yes"),
        "done disagrees with the streams": edit(lambda a: {**a, "done": a["done"] + 1}),
    }


STUDY_CASES = _study_cases()


@pytest.mark.parametrize("case", list(STUDY_CASES))
def test_sim_report_on_a_damaged_study_checkpoint_is_one_paragraph(case, good_study, tmp_path, capsys):
    _refused(STUDY_CASES[case](_arrays(good_study), tmp_path / "bad.npz"), tmp_path, capsys)


def test_the_good_study_checkpoint_writes_its_report(good_study, tmp_path, capsys):
    assert cli.main(["report", str(good_study), "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err
    assert (tmp_path / "out" / "comparison.csv").is_file()
