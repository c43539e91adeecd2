"""Issue 35 (4.1 rules review): the defects fixed and the silent readings made named
options, each with scripted dice (:class:`helpers.Script`; every script drawn exactly).

Line numbers are those of ``shared/seeds/000_f32d69e9731a3667.txt``.
"""
from __future__ import annotations

import pytest

from engine41 import K
from helpers import Script, faces, mb41_call, mb41_data, mb41_fight, mb41_inputs, mb41_member, mb41_state

AKARI, SHADE = 0, 1


def duel(b=None, rules=None, foes=()):
    """Akari (4/4/3) against the girl Shade (3/3/3, Resolve 6) and ``foes``; listed
    initiative, revive on, bursts counted."""
    r = {"revive": True, "bursts": "count", **(rules or {})}
    side_b = [mb41_member("Shade", **{"resolve": 6, **(b or {})}), *foes]
    inp = mb41_inputs(mb41_data([mb41_member("Akari", attack=4, defence=4)], side_b, r))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def outcome_now(inp, dyn):
    return int(mb41_call(K.outcome_now, comb=inp.comb, rules=inp.rules, dyn=dyn))


# ------------------------------------------------------------ defect 1: the last girl's revive


def test_the_default_defeat_keeps_a_rising_girl_in_the_fight():
    """L1445-1451 (default ``defeat: all_out``): Shade, the last of her side, drops and
    rolls her revive (3+4+3 = 10: 1d6 = 4 Resolve at her next turn); her side stays in
    the fight, she rises on her turn of the same round and fights on."""
    inp, dyn, cc = duel(rules={"round_cap": 2})
    s = Script(check=faces(5, 5, 1, 1, 3, 4,   # round 1: Akari drops Shade, revive 10
                           1, 1, 5, 5,         # Shade rises (4 Resolve) and misses
                           1, 1, 5, 5,         # round 2: Akari misses
                           1, 1, 5, 5),        # Shade misses
               damage=faces(4, 4))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 2)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 4 and cc[SHADE, K.K_REVIVES] == 1 and cc[SHADE, K.K_ATTACKS] == 2


@pytest.mark.parametrize("defeat, out", [("all_out", -1), ("all_down", "win"), ("all_dead", -1)])
def test_a_pending_revive_and_the_defeat_rule(defeat, out):
    """Right after the last girl's drop: ``all_out`` and ``all_dead`` keep her side in (her
    revive rolled and pending), ``all_down`` ends the fight without rolling it."""
    inp, dyn, cc = duel(rules={"defeat": defeat})
    rolls = defeat != "all_down"
    s = Script(check=faces(5, 5, 1, 1, *((3, 4) if rolls else ())), damage=faces(4, *((4,) if rolls else ())))
    mb41_call(K.attack, i=AKARI, t=SHADE, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    s.assert_consumed()
    assert outcome_now(inp, dyn) == (K.F_WIN if out == "win" else out)
    assert cc[SHADE, K.K_REVIVES] == int(rolls) and dyn[SHADE, K.D_PENDING] == (4 if rolls else -1)


def test_all_down_rolls_the_revive_while_an_ally_stands():
    """``all_down``: a girl who drops while another of her side stands rolls her revive (it
    can take effect at her next turn)."""
    inp, dyn, cc = duel(rules={"defeat": "all_down"}, foes=[mb41_member("Mook", resolve=40)])
    s = Script(check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 4))
    mb41_call(K.attack, i=AKARI, t=SHADE, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
              streams=s.streams, cc=cc)
    s.assert_consumed()
    assert cc[SHADE, K.K_REVIVES] == 1 and dyn[SHADE, K.D_PENDING] == 4 and outcome_now(inp, dyn) == -1


def test_all_out_the_drafts_revive_as_her_next_major_action():
    """``revive_timing: next_turn`` (DRAFT L512-516) under ``all_out``: the roll due keeps her
    side in; on her turn she rolls it as her Major action (3+4+3 = 10: 1d6 = 2) and stands."""
    inp, dyn, cc = duel(rules={"revive_timing": "next_turn", "round_cap": 1})
    s = Script(check=faces(5, 5, 1, 1, 3, 4), damage=faces(4, 2))
    assert mb41_fight(inp, dyn, s.streams, cc) == (K.F_DRAW, 1)
    s.assert_consumed()
    assert dyn[SHADE, K.D_RES] == 2 and cc[SHADE, K.K_ATTACKS] == 0
