"""Issue 35, "Catalog": ``sim catalog`` shows the uses and numbers the engine plays for
every row, and where each comes from (the seed, the draft, our ruling), for mb41,
mb-draft and d10; held to the compiler's own slots."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from sim.cli import main


def _catalog(capsys, system: str, *extra) -> str:
    assert main(["catalog", system, *extra]) == 0
    return capsys.readouterr().out


def test_hate_the_world_shows_the_draft_uses_the_engine_plays(capsys):
    out = _catalog(capsys, "mb41")
    block = out[out.index("Hate the World "):].split("\n")[:3]
    assert "uses 2/scene" in block[0] and "uses lost" not in block[0]
    assert block[2].strip().startswith("simulated: uses 2/scene (the draft, seed 001; the 4.1 text: 'lost')")
    assert "cost 1 bond rank (no overcharge)" in block[2] and "bonus 3, dice 1, heal 4" in block[2]
    rows = {r["name"]: r for r in json.loads(_catalog(capsys, "mb41", "--json"))["entries"]}
    assert rows["Hate the World"]["uses"] == "lost"  # the book's text is kept
    assert rows["Hate the World"]["simulated_as"]["uses_from"] == "draft"
    assert rows["Bulwark"]["simulated_as"]["uses_from"] == "ruling"  # the text only suggests 3/Scene
    assert rows["Heal"]["simulated_as"]["uses_from"] == "seed"
    assert rows["Recover"]["simulated_as"] is None


@pytest.mark.parametrize("system", ["mb41", "mb-draft", "d10"])
def test_every_simulated_row_says_what_is_played_and_from_where(capsys, system):
    rows = json.loads(_catalog(capsys, system, "--json"))["entries"]
    assert rows
    for r in rows:
        sim = r["simulated_as"]
        assert (sim is None) == (not r["simulated"]), r["name"]
        if sim is None:
            continue
        assert sim["uses"] and sim["cost"] and isinstance(sim["numbers"], dict), r["name"]
        assert sim.get("uses_from", "seed") in ("seed", "draft", "ruling", "compiler", "rules")
        assert sim["cost_from"] in ("seed", "draft", "ruling") and sim["numbers_from"] in ("seed", "compiler")
    text = _catalog(capsys, system)
    assert text.count("\n    simulated: ") == sum(1 for r in rows if r["simulated"])


def _played_uses(text: str) -> int | None:
    m = re.match(r"(\d+)/(scene|episode)", text)
    return int(m.group(1)) if m else -1


@pytest.mark.parametrize("system", ["mb41", "mb-draft"])
def test_the_uses_and_cost_shown_are_the_compiled_slot(system):
    """For every simulated talent, the compiler's slot (``fill_slots``) holds the uses and the
    overcharge cost the catalog says it plays."""
    from sim.systems.mb41 import catalog as catalog41
    from engine41 import K
    from sim.systems.mb41.simulated import simulated_as
    from sim.systems.mb41.talent_edits import PASSIVE
    from sim.systems.mb41.talents import LABYRINTH_MECHANICS, fill_slots
    from sim.systems.mbdraft import catalog as draft

    cat = draft if system == "mb-draft" else catalog41
    token = catalog41.CURRENT.set(draft if system == "mb-draft" else None)
    try:
        for r in cat.rows():
            if not r.simulated or r.name == "Boost" or r.mechanic["code"] in LABYRINTH_MECHANICS:
                continue
            if getattr(r, "group", "") == "minion" or r.mechanic.get("variants"):
                continue
            sim = simulated_as(r, system)
            row = np.zeros(K.NC, dtype=np.int64)
            fill_slots(row, [r.name], {"attack": 0, "defence": 1, "support": 2})
            if r.mechanic["code"] not in PASSIVE:
                assert row[K.C_TUSES] == _played_uses(sim["uses"]), (r.name, sim["uses"], row[K.C_TUSES])
            # overcharge (a monster: pool points) paid a use; a bond rank is not overcharge
            paid = (int(sim["cost"].split()[0]) if sim["cost"][0].isdigit() and "no overcharge" not in sim["cost"]
                    else 0)
            assert row[K.C_TCOST] == paid or r.mechanic["code"] in PASSIVE, (r.name, sim["cost"], row[K.C_TCOST])
    finally:
        catalog41.CURRENT.reset(token)


def test_d10_costs_shown_are_the_compiled_columns():
    from sim.systems.d10 import catalog
    from sim.systems.d10.catalog.simulated import simulated_as

    rows = catalog.by_name()
    kb = simulated_as(rows["Killing Blow"])
    assert kb["cost"] == "3 mana" and kb["cost_from"] == "seed" and kb["numbers"]["cost"] == 3
    assert kb["reading"].startswith("D19")
    assert simulated_as(rows["Duplication"])["cost"] == "an action, 1 mana per copy"
    assert simulated_as(rows["Sorcery"]) is None
