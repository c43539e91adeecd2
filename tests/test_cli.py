"""The ``sim`` command: JSON contracts and clean failures (issue: foundation).

Bad input must exit non-zero with a one-paragraph message, no traceback,
and write nothing. These tests run the real console command.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import duel_data

ROOT = Path(__file__).resolve().parents[1]
SIM = [sys.executable, "-m", "sim.cli"]


def sim(*args, cwd=None):
    env = dict(os.environ)
    env.pop("SIM_DEBUG", None)
    return subprocess.run(SIM + [str(a) for a in args], capture_output=True, text=True, cwd=cwd or ROOT,
                          env=env, timeout=300)


def write(tmp_path, data, name="s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False) if not isinstance(data, str) else data)
    return p


def assert_clean_failure(res, *needles):
    assert res.returncode != 0, res.stdout
    err = res.stderr.strip()
    assert "Traceback" not in err and "Traceback" not in res.stdout
    assert err.startswith("error:"), err
    assert "\n\n" not in err, "one paragraph"
    low = err.lower()
    for n in needles:
        assert n.lower() in low, f"{n!r} not in {err!r}"
    return err


# ----------------------------------------------------------------- contracts


def test_run_json_contract(tmp_path):
    out = tmp_path / "run"
    res = sim("run", ROOT / "scenarios" / "duel-basic.yaml", "--trials", 20000, "--json", "--out", out)
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    for k in ("scenario", "system", "seed", "results"):
        assert k in d
    assert d["scenario"] == "duel-basic" and d["system"] == "mb41" and d["seed"] == 7
    r = d["results"][0]
    for k in ("variant", "trials", "wins", "losses", "draws", "win_rate", "win_ci", "mean_rounds"):
        assert k in r
    assert r["trials"] == 20000 == r["wins"] + r["losses"] + r["draws"]
    assert len(r["win_ci"]) == 2 and r["win_ci"][0] <= r["win_rate"] <= r["win_ci"][1]
    assert abs(r["win_rate"] - 0.7542) < 0.02  # the exact value, see test_mb41_exact
    for f in ("summary.csv", "summary.json", "curves.csv", "rounds.csv", "combatants.csv",
              "win_rate.png", "fight_length.png", "survival.png", "report.html"):
        assert (out / f).is_file(), f
    prov = json.loads((out / "summary.json").read_text())["provenance"]
    for k in ("scenario_sha256", "seed", "trials", "version", "git_commit", "numpy", "numba", "rule_options"):
        assert k in prov
    assert prov["rule_options"]["base"]["revive"] is False


def test_run_json_with_variants_and_no_write(tmp_path):
    res = sim("run", ROOT / "scenarios" / "attack-sweep.yaml", "--trials", 2000, "--json", "--no-write",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert [r["variant"] for r in d["results"]] == [f"Akari.attack={v}" for v in range(1, 8)]
    assert not (tmp_path / "results").exists()


def test_dice_json_contract():
    res = sim("dice", "2d6!+3", "--target", 12, "--json", "--trials", 100000)
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    for k in ("expr", "exact_mean", "mc_mean", "trials", "exact_p", "mc_p", "distribution"):
        assert k in d
    assert abs(d["exact_mean"] - 11.4) < 1e-9
    assert all(len(row) == 3 for row in d["distribution"])
    res = sim("dice", "2d6!+4", "--vs", "2d6!+3", "--json", "--trials", 100000)
    d = json.loads(res.stdout)
    assert 0.5 < d["exact_p"] < 0.7 and abs(d["mc_p"] - d["exact_p"]) < 0.01


def test_validate_rules_catalog():
    res = sim("validate", ROOT / "scenarios" / "quickstart.yaml")
    assert res.returncode == 0 and "valid" in res.stdout
    res = sim("rules", "mb41", "--json")
    names = [o["name"] for o in json.loads(res.stdout)["options"]]
    assert {"revive", "initiative", "full_tie", "min_damage", "round_cap", "defeat"} <= set(names)
    res = sim("catalog", "mb41", "--json")
    entries = json.loads(res.stdout)["entries"]
    assert any(e["name"] == "Boost" and e["simulated"] for e in entries)
    assert all({"name", "group", "simulated"} <= set(e) for e in entries)


# ----------------------------------------------------------------- bad input


BAD = {
    "malformed-yaml": ("name: x\nsystem: mb41\nsides: [\n  - {name: a\n", ["line"]),
    "unknown-field": (duel_data(a={"atack": 4}), ["atack", "did you mean 'attack'", "line"]),
    "misspelled-talent": (duel_data(a={"talents": ["Bost"]}), ["Bost", "did you mean 'Boost'"]),
    "misspelled-policy": (duel_data(a={"policy": {"name": "focus-weakst"}}), ["focus-weakst", "focus-weakest"]),
    "misspelled-rule": (duel_data(rules={"reviev": True}), ["reviev", "did you mean 'revive'"]),
    "negative-trials": (duel_data(trials=-5), ["trials"]),
    "unknown-system": (dict(duel_data(), system="mb14"), ["mb14", "did you mean 'mb41'"]),
    "alias-bomb": ("a: &a [1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")), ["alias"]),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_scenario_exits_cleanly_and_writes_nothing(tmp_path, case):
    data, needles = BAD[case]
    path = write(tmp_path, data)
    out = tmp_path / "out"
    res = sim("run", path, "--out", out, cwd=tmp_path)
    assert_clean_failure(res, *needles)
    assert not out.exists()
    assert not (tmp_path / "results").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml"]


@pytest.mark.parametrize("args,needles", [
    (["dice", "1000000000d6"], ["absurdly large", "at most 100 dice"]),
    (["dice", "2d6!", "--trials", "-5"], ["trials"]),
    (["dice", "2x6"], ["2x6"]),
    (["run", "scenarios/duel-basic.yaml", "--trials", "-5"], ["trials"]),
    (["run", "scenarios/duel-basic.yaml", "--precision", "2"], ["precision"]),
    (["run", "no-such-file.yaml"], ["no-such-file.yaml"]),
    (["rules", "mb14"], ["did you mean 'mb41'"]),
    (["warmup", "cardz"], ["unknown system 'cardz'", "did you mean 'cards'"]),
    (["warmup", "--tier2", "no-such-file.yaml"], ["no-such-file.yaml"]),
    (["frobnicate"], ["frobnicate"]),
])
def test_bad_command_line(args, needles, tmp_path):
    res = sim(*[a if not a.startswith("scenarios/") else ROOT / a for a in args], cwd=tmp_path)
    assert_clean_failure(res, *needles)
    assert list(tmp_path.iterdir()) == []


def test_warmup_compiles_and_reports(tmp_path):
    """``sim warmup cards --json``: one row per system, its bundled scenarios run, nothing written."""
    res = sim("warmup", "cards", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["warmed"]
    assert [r["system"] for r in rows] == ["cards"]
    assert rows[0]["scenarios"] == ["cards/first-player.yaml", "cards/search-vs-heuristic.yaml"]
    assert rows[0]["seconds"] >= 0
    assert "warming up cards..." in res.stderr and "warm: cards in" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_out_dir_not_empty_fails_before_running(tmp_path):
    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    res = sim("run", ROOT / "scenarios" / "duel-basic.yaml", "--out", out, "--trials", 1000)
    assert_clean_failure(res, "not empty")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_issue_duel_file_is_the_issue_text():
    """scenarios/duel-basic.yaml is the issue's example, which must run as written."""
    data = yaml.safe_load((ROOT / "scenarios" / "duel-basic.yaml").read_text())
    assert data == duel_data()


def test_every_bundled_scenario_validates(capsys):
    """In one process (a subprocess a file paid the start-up and the kernels' loading each
    time: 233 s of CI for ~80 files); the exit codes are main()'s."""
    from sim import cli

    for p in sorted((ROOT / "scenarios").rglob("*.yaml")):
        rc = cli.main(["validate", str(p)])
        assert rc == 0, (p, capsys.readouterr().err)


def test_a_reader_that_stops_early_gets_no_internal_error():
    """``sim catalog mb41 | head -c 10``: the pipe closes under the command; it ends quietly
    with 141 (128 + SIGPIPE), not "internal error BrokenPipeError"."""

    import fcntl

    # a pipe of one page (the catalog is ~32 KB): the command must block on it before it ends, so
    # it is still writing when the reader goes, whatever the scheduling (a 64 KB pipe took the
    # whole catalog at once now and then, and the command ended 0 before the reader closed)
    r, w = os.pipe()
    fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    p = subprocess.Popen([sys.executable, "-m", "sim", "catalog", "mb41"], stdout=w, stderr=subprocess.PIPE)
    os.close(w)
    with os.fdopen(r, "rb") as out:
        out.read(10)
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 141 and "error" not in err, err
