"""Issue 23: the ``sim play`` log's turn header shows the boards before the draw
it reports (the header used to be printed after the draw step had run)."""
from __future__ import annotations

import re

import numpy as np
import pytest
import yaml

from sim.scenario import load_scenario_text
from sim.systems.cards import engine as E
from sim.systems.cards.game_log import play_log

HEADER = re.compile(r"^=== Turn (\d+): (\w+) ===$")
BOARD = re.compile(r"^  (\w+): gems \S+, hand (\d+), deck (\d+), Dreamscape (\d+)$")
HAND = re.compile(r"^    hand: (.*)$")


def scenario(deck_a, deck_b):
    d = {"name": "t", "system": "cards",
         "sides": [{"name": "A", "deck": deck_a}, {"name": "B", "deck": deck_b}]}
    return load_scenario_text(yaml.safe_dump(d, sort_keys=False), "<t>").variants[0][1]


def _boards(lines):
    """[(line index, {side: (hand, deck, hand cards)})] per turn header."""
    out = []
    for i, line in enumerate(lines):
        if HEADER.match(line):
            b = {}
            j = i + 1
            while j < len(lines) and not lines[j].startswith("=== ") and len(b) < 2:
                m = BOARD.match(lines[j])
                if m:
                    k = j + 1
                    while not HAND.match(lines[k]):
                        k += 1
                    items = [] if HAND.match(lines[k]).group(1) == "(empty)" else HAND.match(lines[k]).group(1).split(", ")
                    cards = sum(int(x.rsplit("×", 1)[1]) if "×" in x else 1 for x in items)
                    b[m.group(1)] = (int(m.group(2)), int(m.group(3)), cards, items)
                j += 1
            out.append((i, b))
    return out


@pytest.mark.parametrize("decks, seed", [(("aggro", "aggro"), 115), (("combo", "control"), 3),
                                         (("control", "aggro"), 8)])
def test_turn_header_is_before_the_draw(decks, seed):
    """Between two headers each side's deck shrinks by exactly the cards the log
    shows leaving it (draws, out-of-heroes draws, fetches from the deck); with the
    header printed after the draw step this is off by one every turn. The hand
    count in a header matches the cards it lists."""
    text = play_log(scenario(*decks), seed)
    lines = text.splitlines()
    heads = _boards(lines)
    assert len(heads) > 3
    for (i, b0), (j, b1) in zip(heads, heads[1:]):
        for side in ("A", "B"):
            left = sum(1 for line in lines[i:j] if line.startswith(f"    {side} draws ")
                       or line.startswith(f"    {side} is out of heroes and draws ")
                       or (line.startswith(f"    {side} takes ") and line.endswith("from the deck into hand")))
            assert b0[side][1] - left == b1[side][1], (side, lines[i], lines[j])
            assert b0[side][0] == b0[side][2], lines[i]


def test_undo_after_takes_back_the_turn_start_moves():
    from sim.systems.cards.game_log import _undo_after

    names = [["Kenta", "Ruby"], ["Rin", "Beam"]]
    rows = np.array([[E.EV_DRAW, 1, 1, 0], [E.EV_L53, 1, 0, 1], [E.EV_FETCH, 0, 0, 1],
                     [E.EV_DISCARD, 0, 1, 0]])
    u = _undo_after(rows, names)
    assert u[1] == {"hand": {"Beam": -1}, "deck": 2, "dream": -1}
    assert u[0] == {"hand": {"Kenta": -1, "Ruby": 1}, "deck": 0, "dream": 0}
