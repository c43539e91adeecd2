"""Study kind ``matchups``: a seat-balanced round robin with Bradley-Terry ratings (sim.ratings)."""
from __future__ import annotations

from pathlib import Path

import pytest

from sim import api
from sim.scenario.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "scenarios" / "studies"


def test_card_decks_round_robin():
    res = api.study(STUDIES / "card-matchups.yaml", trials=300, write=False)
    sec = res.sections[0]
    r, m = sec.tables["ratings"], sec.tables["matchups"]
    assert set(r["entry"]) == {"aggro", "control", "combo"}
    assert list(r["rating"]) == sorted(r["rating"], reverse=True)
    assert r["rating"].mean() == pytest.approx(1500, abs=1e-6)
    # seat-balanced: every ordered pair played both seatings, the same number of games
    assert (m["games"] == 600).all() and (m["games_first"] == 300).all()
    # the pooled results of (i, j) and (j, i) are the same games
    a = m.set_index(["entry", "opponent"])
    for (i, j), row in a.iterrows():
        assert row["wins"] == a.loc[(j, i), "losses"]
    assert sec.reading.startswith(r["entry"].iloc[0])


def test_a_planted_strongest_party_is_rated_first(tmp_path):
    text = (STUDIES / "party-matchups.yaml").read_text()
    # 'plain' spends no mana, Fortune or powers: give the cautious entry a huge Strength instead
    text = text.replace('    cautious: {"members[0].policy.preset": cautious, "members[1].policy.preset": cautious}',
                        '    giant: {"members[0].abilities.strength": 30, "members[1].abilities.agility": 30}')
    p = tmp_path / "planted.yaml"
    p.write_text(text)
    res = api.study(p, trials=200, write=False)
    r = res.sections[0].tables["ratings"]
    assert r["entry"].iloc[0] == "giant"
    assert r["lo"].iloc[0] > r["hi"].iloc[1]


def test_a_fight_system_needs_entries(tmp_path):
    text = (STUDIES / "party-matchups.yaml").read_text()
    head = text[:text.index("study:")]
    p = tmp_path / "bad.yaml"
    p.write_text(head + "study:\n  kind: matchups\n  decks: [aggro, control]\n")
    with pytest.raises(ScenarioError, match="entries"):
        api.study(p, trials=50, write=False)
