"""Every talent that takes an action is played somewhere, and its gate opens for it.

The Minor and Major hooks (:mod:`sim.systems.mb41.hooks`) are tried only when
the combatant's ``C_TMASK`` / ``C_TMASK2`` meet the hook's gate, and the gates
are derived from each hook's effect codes. Two ways a talent could silently
never play, each held here:

- a simulated catalog talent whose action is Minor or Major has a mechanic
  that no hook (and no geometry turn, for the movement talents) plays;
- a derived gate misses one of its hook's codes (or opens for another's).

Pure Python: no kernel is compiled.
"""
from __future__ import annotations

import pytest

from sim.systems.mb41 import codes as E
from sim.systems.mb41 import hooks as H
from sim.systems.mb41 import talents as T
from sim.systems.mb41.catalog import talents as catalog

#: actions the turn procedures play themselves, not through a hook: movement
#: (the positions and hex turns: Dash Strike/Pounce, Repel/Get Over Here, Safe
#: Place, Swift/Bypass, Teleport) and Guided Strike (the Major's choice of target)
PLAYED_BY_THE_TURN = {E.E_MOVE_ATTACK, E.E_SHOVE, E.E_SAFE_PLACE, E.E_EXTRA_MOVE, E.E_TELEPORT,
                      E.E_GUIDED_STRIKE}

#: timing points where an action talent may be played
ACTION_TIMINGS = {"minor": {"MINOR"}, "major": {"MAJOR", "DECLARE"}}


def _action_talents(action: str):
    for row in catalog():
        mech = row.get("mechanic")
        if row.get("simulated") and mech and row.get("action") == action:
            spec = T.MECHANICS.get(mech["code"])
            if spec is not None:  # labyrinth mechanics and the like live elsewhere
                yield row["name"], spec[0]


@pytest.mark.parametrize("action", sorted(ACTION_TIMINGS))
def test_every_action_talent_is_played(action):
    played = {c for h in H.HOOKS if h.timing in ACTION_TIMINGS[action] for c in h.codes}
    rows = list(_action_talents(action))
    assert len(rows) >= 10  # the catalog is read
    orphans = [name for name, code in rows if code not in played and code not in PLAYED_BY_THE_TURN]
    assert orphans == [], f"{action} talents with no hook: register one in hooks.py"


@pytest.mark.parametrize("timing", ["MINOR", "MAJOR", "DECLARE"])
def test_each_gate_opens_for_its_codes_only(timing):
    lo, hi = H.gates(timing)
    hooks = H.at(timing)
    assert len(lo) == len(hooks) > 0
    codes = sorted({v for k, v in vars(E).items() if k.startswith("E_") and k != "E_MORE" and isinstance(v, int)})
    assert len(codes) > 60 and max(codes) >= 64
    for k, h in enumerate(hooks):
        for code in codes:
            opens = (lo[k] >> code) & 1 if code < E.E_MORE else (hi[k] >> (code - 64)) & 1
            assert bool(opens) == (code in h.codes or H.ANY in h.codes), (h.name, code)


def test_the_any_gates_hold_every_hook():
    for m in H.MINOR_GATES:
        assert H.MINOR_GATE & m == m
    for m in H.MAJOR_GATES:
        assert H.MAJOR_GATE & m == m


def test_heal_and_second_wind_share_the_heal_hook():
    (heal,) = [h for h in H.at("MINOR") if h.name == "heal"]
    assert E.E_HEAL in heal.codes and E.E_SECOND_WIND in heal.codes
