"""Sorcery in battle, 4.1 (seed 000 L1169-1223, L1471; audit 1.12, A27):
an ailment on the policy's target, rolled 2d6! + Fury against the window
[10 / 12 / 17+], -4 as a Minor action, -2 as a Major action, 0 for the whole
turn; Battle Sorcery +3 (L1577). Injected dice.

``girl`` is 4/4/3 by role; default roles put Fury in the Attack role, so her
Fury is 4 and sorcery's sixes are Fury overcharge (counter 1).
"""
from __future__ import annotations

import pytest
from helpers import Script, faces, mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state

from engine41 import K

FURY = 1
MISS = faces(1, 1, 3, 3)


def girl(sorcery="major", **kw):
    m = {"attack": 4, "defence": 4, "support": 3,
         "policy": {"boost": "never", "overcharge_cap": 99, "sorcery": sorcery}}
    m.update(kw)
    return mb41_member("Akari", **m)


def setup(me, rules=None):
    inp = mb41_inputs(mb41_data([me], [mb41_member("Shade")], rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def turn(inp, dyn, cc, script):
    mb41_call(K.take_turn, i=0, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn, streams=script.streams, cc=cc)
    script.assert_consumed()


@pytest.mark.parametrize("dice, ok, stun, bound, fury_oc", [
    (faces(4, 4), 0, 0, 0, 0),      # 8 + 4 - 2 = 10: exactly low fails ('above the lowest', A27i-b)
    (faces(5, 4), 1, 1, 0, 1),      # 11: success with a side effect, +1 Fury overcharge
    (faces(5, 5), 1, 1, 0, 0),      # 12 = mid: a clean success
    (faces(6, 4, 5), 1, 1, 1, 2),   # 6 + 4 + 5 = 15 + 2 = 17 = high: a second ailment, +1 drawback, +1 six
])
def test_sorcery_as_a_major_action_replaces_the_attack(dice, ok, stun, bound, fury_oc):
    inp, dyn, cc = setup(girl("major"))
    turn(inp, dyn, cc, Script(check=dice))
    assert cc[0, K.K_SPELLS] == 1 and cc[0, K.K_SPELLS_OK] == ok
    assert cc[0, K.K_ATTACKS] == 0
    assert dyn[1, K.D_AIL + K.A_STUN] == stun and dyn[1, K.D_AIL + K.A_BOUND] == bound
    assert dyn[0, K.D_OC + FURY] == fury_oc


def test_sorcery_as_a_minor_action_then_she_attacks():
    """-4 as a Minor action: 10 + 4 - 4 = 10 fails; her Major is still an attack."""
    inp, dyn, cc = setup(girl("minor"))
    turn(inp, dyn, cc, Script(check=faces(5, 5) + MISS))
    assert cc[0, K.K_SPELLS] == 1 and cc[0, K.K_SPELLS_OK] == 0 and cc[0, K.K_ATTACKS] == 1


def test_sorcery_for_the_whole_turn_has_no_penalty():
    """The whole turn: 4 + 4 + 4 = 12 (mid): clean; no attack, no other Minor."""
    inp, dyn, cc = setup(girl("whole-turn"))
    turn(inp, dyn, cc, Script(check=faces(4, 4)))
    assert cc[0, K.K_SPELLS_OK] == 1 and cc[0, K.K_ATTACKS] == 0
    assert dyn[1, K.D_AIL + K.A_STUN] == 1 and dyn[0, K.D_CASTING] == 0


def test_battle_sorcery_adds_three():
    """Battle Sorcery (L1577): +3: as a Minor, 10 + 4 - 4 + 3 = 13 succeeds (clean)."""
    inp, dyn, cc = setup(girl("minor", talents=["Battle Sorcery"]))
    turn(inp, dyn, cc, Script(check=faces(5, 5) + MISS))
    assert cc[0, K.K_SPELLS_OK] == 1 and dyn[0, K.D_OC + FURY] == 0


@pytest.mark.parametrize("reading, ok, fury_oc", [("side_effect", 1, 1), ("clean", 1, 0), ("fails", 0, 0)])
def test_sorcery_low_rule_option(reading, ok, fury_oc):
    inp, dyn, cc = setup(girl("major"), rules={"sorcery_low": reading})
    turn(inp, dyn, cc, Script(check=faces(4, 4)))   # exactly 10
    assert cc[0, K.K_SPELLS_OK] == ok and dyn[0, K.D_OC + FURY] == fury_oc


def test_no_sorcery_on_a_target_with_every_ailment_she_attacks_instead():
    inp, dyn, cc = setup(girl("major"))
    dyn[1, K.D_AIL:K.D_AIL + 3] = 1
    turn(inp, dyn, cc, Script(check=MISS))
    assert cc[0, K.K_SPELLS] == 0 and cc[0, K.K_ATTACKS] == 1


def test_monsters_do_not_cast():
    inp = mb41_inputs(mb41_data([girl("never")], [mb41_member("Lurker", kind="monster", resolve=20,
                                                                policy={"sorcery": "major"})]))
    assert inp.pol[1, K.P_SORCERY] == K.SORCERY_NEVER
    assert any("sorcery" in n for n in inp.notes)
    assert inp.comb[0, K.C_TMASK] == 0
