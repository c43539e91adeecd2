"""The d10 catalog lists every power and perk of the seed (rule tables: tests/test_rules_tables.py)."""
from __future__ import annotations

from sim.systems.d10 import catalog
from sim.systems.d10 import kernel as K


def test_catalog_rows_complete():
    rows = catalog.entries()
    powers = {r["name"] for r in rows if r["kind"] == "power"}
    perks = {r["name"] for r in rows if r["kind"] == "perk"}
    assert powers == {"Killing Blow", "Hammerspace", "Familiar", "Focused Assault", "Barrage", "Power of Friendship",
                      "Duplication", "Third Eye", "Regeneration", "Tentacles"}
    assert perks == {"Dual Weapon", "Martial Training", "Enhanced Weapon", "Mystic Artifact", "Gifted", "Flexibility",
                     "Enhanced Transformation", "Disguise Artifact", "Blood Magic", "Enhanced Outfit",
                     "Healing Artifact", "Sorcery", "Awareness"}
    for r in rows:
        assert r["source"].startswith("L")
        assert isinstance(r["simulated"], bool)
        assert r["simulated"] == (r["code"] != "none")
    for r in rows:
        if r["code"] == "dice":
            assert set(r["params"]["tests"]) <= set(K.TEST_NAMES)
