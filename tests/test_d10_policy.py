"""Issue 24: the AI presets must not decide fights by themselves (compiled runs).

Every bundled d10 scenario, as written (its members' presets, with the
default ``escape: reasoned`` / ``recharge: reasoned``), ends at most 5% of its
fights drawn (a fight still running at the round cap is the ``draw`` outcome;
the bound is on all draws, so it also covers the cap's); and no ``*_rate``
column of the combatants table exceeds 1 when attacks have several targets.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.rng import stream_key
from sim.scenario import load_scenario
from sim.systems import d10
from sim.systems.d10 import kernel as K
from sim.systems.d10.testing import inputs, member, scenario

ROOT = Path(__file__).resolve().parent.parent
SCEN = sorted((ROOT / "scenarios" / "d10").glob("*.yaml"))
TRIALS = 3000
MAX_DRAWS = 0.05


@pytest.mark.parametrize("path", SCEN, ids=[p.stem for p in SCEN])
def test_bundled_scenarios_are_not_drawn_at_the_round_cap(path):
    loaded = load_scenario(str(path))
    for name, model in loaded.variants:
        inp = d10.compile(model)
        c = d10.simulate(inp, 0, TRIALS, stream_key(loaded.base.seed))
        draws = c["outcomes"][K.F_DRAW] / TRIALS
        assert draws <= MAX_DRAWS, f"{path.stem}/{name}: {draws:.1%} of fights drawn (at most {MAX_DRAWS:.0%})"


def _rates(inp, seed=5):
    c = d10.simulate(inp, 0, TRIALS, stream_key(seed))
    t = d10.summarize(c, inp, "v")["tables"]["combatants"]
    rates = [k for k in t.columns if k.endswith("_rate")]
    assert "hit_rate" in rates
    return t, rates


def test_no_rate_above_one_with_multi_target_and_area_attacks():
    """party-cake (Floozy attacks two targets per roll) and an area specialization against three
    foes: hit_rate = hits / targets attacked <= 1, while hits / attacks exceeds 1."""
    party = d10.compile(load_scenario(str(ROOT / "scenarios" / "d10" / "party-cake.yaml")).base)
    spec = {"attack_kind": "specialization", "abilities": {"magic": 12, "vitality": 12},
            "specialization": {"area": True}, "policy": {"preset": "aggressive"}}
    area = inputs(scenario([member("Ami", **spec)], [member("Bea"), member("Cid"), member("Dee")]))
    for inp in (party, area):
        t, rates = _rates(inp)
        for k in rates:
            v = t[k].to_numpy(dtype=float)
            assert np.all(np.isnan(v) | (v <= 1.0)), (k, t[["combatant", k]])
        assert (t["hits"] <= t["targets_attacked"] + 1e-12).all()
        assert (t["targets_attacked"] >= t["attacks"] - 1e-12).all()
    row = t[t["combatant"] == "Ami"].iloc[0]
    assert row["hits"] > row["attacks"]  # the old hit_rate (hits / attacks) was above 1 here
