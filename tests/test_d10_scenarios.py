"""d10 scenarios run end to end; the plain fast path equals the general path;
results do not depend on chunking; the plug-in's optional entry points."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sim.rng import stream_key
from sim.scenario import load_scenario
from sim.systems import d10
from sim.systems.d10.testing import duel_data, load

ROOT = Path(__file__).resolve().parent.parent
SCEN = sorted((ROOT / "scenarios" / "d10").glob("*.yaml"))


@pytest.mark.parametrize("path", SCEN, ids=[p.stem for p in SCEN])
def test_example_scenarios_run(path):
    loaded = load_scenario(str(path))
    for name, model in loaded.variants:
        inp = d10.compile(model)
        c = d10.simulate(inp, 0, 2000, stream_key(loaded.base.seed))
        assert c["outcomes"].sum() == 2000
        assert c["rounds_hist"].sum() == 2000
        assert len(c["rounds_hist"]) == inp.round_cap + 1
        out = d10.summarize(c, inp, name)
        t = out["tables"]["combatants"]
        assert ((t["ko_rate"] >= 0) & (t["ko_rate"] <= 1)).all()
        assert ((t["death_rate"] >= 0) & (t["death_rate"] <= 1)).all()


def _general(inp):
    return dataclasses.replace(inp, plain=False)


@pytest.mark.parametrize("changes", [
    dict(),
    dict(rules={"initiative": "roll", "mode": "grim", "permanent_wounds": "on"}),
    dict(a={"policy": {"mana_per_attack": 2, "fortune": "rescue", "recharge_below": 1, "stunt": 0.5},
            "attack_kind": "mystic"},
         b={"policy": {"fortune": "defence", "target": "random"}, "defence": "parry"}),
    dict(rules={"episodes": 2, "fights_per_episode": 2}),
])
def test_plain_path_is_bit_identical_to_general_path(changes):
    inp = d10.compile(load(duel_data(**changes)).base)
    assert inp.plain
    key = stream_key(9)
    a = d10.simulate(inp, 0, 20_000, key)
    b = d10.simulate(_general(inp), 0, 20_000, key)
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_chunking_and_prefix_stability():
    loaded = load_scenario(str(ROOT / "scenarios" / "d10" / "party-cake.yaml"))
    inp = d10.compile(loaded.variants[0][1])
    assert not inp.plain
    key = stream_key(4)
    whole = d10.simulate(inp, 0, 3000, key)
    parts = [d10.simulate(inp, s, n, key) for s, n in ((0, 1000), (1000, 1500), (2500, 500))]
    for k in whole:
        assert np.array_equal(whole[k], sum(p[k] for p in parts)), k


def test_catalog_rows_and_rules():
    rows = d10.catalog_rows()
    names = {r["name"] for r in rows}
    assert "Killing Blow" in names and "Awareness" in names
    assert all("simulated" in r for r in rows)
    assert d10.RULES.defaults()["default_dr"] == 1


def test_unknown_power_is_suggested():
    data = duel_data(a={"powers": ["Killing Blw"]})
    with pytest.raises(Exception, match="Killing Blow"):
        load(data)
