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


@pytest.mark.parametrize("timing", H.TIMINGS)
def test_each_gate_opens_for_its_codes_only(timing):
    """A hook's gate row (hooks.gate_row) holds the bits of its own codes in the masks of
    the combatant its scope names, and no other bit."""
    from sim.systems.mb41.layout import STATE

    codes = sorted({v for k, v in vars(E).items() if k.startswith("E_") and k != "E_MORE" and isinstance(v, int)})
    assert len(codes) > 60 and max(codes) >= 64
    for h in H.at(timing):
        row = dict(zip(H.GATE_FIELDS, H.gate_row(h, STATE.constants())))
        scopes = (h.scope,) if isinstance(h.scope, str) else h.scope
        for code in codes:
            for scope in ("a", "a_side", "b", "b_side"):
                lo, hi = row[f"{scope}_lo"], row[f"{scope}_hi"]
                opens = (lo >> code) & 1 if code < E.E_MORE else (hi >> (code - 64)) & 1
                assert bool(opens) == (scope in scopes and (code in h.codes or H.ANY in h.codes)), (h.name, scope, code)


def test_a_rows_hook_bits_follow_her_talents_and_her_sides():
    """gates.hook_bits: a combatant's bits at a timing point are the hooks her talents (as
    ``a``: her own, her side's, her enemies') or, as ``b``, a target's open; nobody else's."""
    import numpy as np

    from sim.systems.mb41 import gates
    from sim.systems.mb41 import layout as L

    comb = np.zeros((3, L.NC), dtype=np.int64)
    comb[:, L.C_SIDE] = [0, 0, 1]
    comb[0, L.C_TMASK] = 1 << E.E_SHIELD            # her own Shield
    comb[1, L.C_TMASK] = 1 << E.E_VEIL              # her ally's Veil
    comb[:, L.C_SIDEMASK] = [(1 << E.E_SHIELD) | (1 << E.E_VEIL)] * 2 + [0]
    comb[2, L.C_FOEMASK] = comb[0, L.C_SIDEMASK]
    gates.hook_bits(comb)
    t = H.TIMINGS.index("REDUCE")
    shield = [h.name for h in H.at("REDUCE")].index("shield")
    assert comb[0, L.C_HOOKS + t] >> shield & 1 and comb[1, L.C_HOOKS + t] >> shield & 1  # a_side
    assert not comb[2, L.C_HOOKS + t] >> shield & 1
    d = H.TIMINGS.index("DECLARE")
    veiled = [h.name for h in H.at("DECLARE")].index("veiled")
    assert comb[1, L.C_HOOKS_B + d] >> veiled & 1 and not comb[0, L.C_HOOKS_B + d] >> veiled & 1  # b: the target
    assert not comb[1, L.C_HOOKS + d] >> veiled & 1
    i = H.TIMINGS.index("INTERCEPT")
    assert all(comb[:, L.C_HOOKS + i] == 1)  # an 'always' hook: for everyone, its armed state decides


def test_heal_and_second_wind_share_the_heal_hook():
    (heal,) = [h for h in H.at("MINOR") if h.name == "heal"]
    assert E.E_HEAL in heal.codes and E.E_SECOND_WIND in heal.codes
