"""The one turn of every geometry (``turn.take_turn``, issue 34): the rules that the gridless
turn and the hex grid's turn used to play differently, now one rule each
(docs/status-mb41.md, "One turn in every geometry: the rulings"). Injected dice; every
script must be drawn exactly.

Default roles (tests/helpers.py): attack = fury (overcharge 1), defence = heart (0),
support = judgment (2). ``girl`` is 4/4/3, Resolve 18, melee 1d6+2; ``boss`` 3/3/3,
Resolve 40.
"""
from __future__ import annotations

from helpers import Script, faces, grid_apart, grid_arena, grid_run, mb41_member
from helpers import MB41_NOCAP as NOCAP
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_run as call, mb41_setup as setup

from engine41 import K

HIT = faces(5, 5, 1, 1)    # 10 + 4 = 14 against 2 + 3: a hit, no sixes
MISS = faces(1, 1, 5, 5)   # 2 + 4 = 6 against 10 + 3: a miss, no sixes


def test_the_hex_turn_gives_her_minor_back_at_its_start():
    """Her Minor is hers again at the start of every turn (L1410), on the hex grid too: the
    draft's Second Chance Attack (which takes the Minor) read a Minor spent turns ago."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4])], [boss(position=[3, 3])])
    dyn[0, K.D_MINOR_USED] = 1   # spent in an earlier turn
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(check=HIT, damage=faces(3)), i=0)
    assert cc[0, K.K_ATTACKS] == 1 and dyn[1, K.D_RES] == 40 - 5
    assert dyn[0, K.D_MINOR_USED] == 0   # adjacent: no step, her Minor unused


def test_bonus_action_after_a_move_on_the_hex_grid():
    """Bonus Action (L1579: "on your turn, you may take another Major or Minor Action") after
    a Major that moved her into reach: the second Major attacks (the grid's turn allowed it
    only after a talent or an attack; gridless and positions after any Major). Five hexes:
    the Minor and the Major each take one, three is her ranged reach (damage 1d6)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 5], talents=["Bonus Action"])], [boss(position=[3, 0])])
    for k in range(3):
        dyn[0, K.D_OC + k] = 4
    assert grid_apart(inp, dyn, 0, 1) == 5
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(check=HIT, damage=faces(3)), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 3 and cc[0, K.K_MOVES] == 2
    assert cc[0, K.K_ATTACKS] == 1 and dyn[1, K.D_RES] == 40 - 3
    assert cc[0, K.K_TUSE] == 1


def test_no_bonus_action_when_her_move_leaves_nobody_in_reach():
    """The same, six hexes away: the two moves leave the boss out of reach, so Bonus Action
    is kept (``PR_ANY_IN_REACH``)."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 6], talents=["Bonus Action"])], [boss(position=[3, 0])])
    for k in range(3):
        dyn[0, K.D_OC + k] = 4
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(), i=0)
    assert grid_apart(inp, dyn, 0, 1) == 4 and cc[0, K.K_ATTACKS] == 0 and cc[0, K.K_TUSE] == 0


def test_follow_up_on_the_hex_grid_attacks_the_enemy_an_ally_just_hit():
    """Follow Up (L1819-1823) where distance exists: the enemy an ally hit just before her turn,
    when it is in her reach, over her policy's own choice (the grid's turn never chose it:
    the rider fired only when her policy happened to pick the same enemy)."""
    threat = dict(NOCAP, name="strongest-threat")
    inp, dyn, cc, bf = grid_arena(
        [girl("Akari", policy=threat, position=[3, 4]), girl("Bea", talents=["Follow Up"], position=[4, 4])],
        [mb41_member("Shade", position=[4, 3]), mb41_member("Umbra", attack=5, resolve=30, position=[3, 3])])
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=0)
    assert dyn[3, K.D_RES] == 27   # Akari (threat) hits Umbra: 1 + 2 melee
    # Bea (focus the weakest: Shade, 18 < 27) follows Akari's hit on Umbra, adjacent too:
    # +1 to the challenge, +2 damage
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=1)
    assert dyn[3, K.D_RES] == 27 - 5 and dyn[2, K.D_RES] == 18
    assert cc[1, K.K_TUSE] == 1


def test_a_frenzied_turn_ends_second_winds_bonus_gridless():
    """Second Wind's +1 Defence lasts "until the start of your next turn" (L1716): a Fury
    frenzy's turn is her turn, gridless as on the grid."""
    inp, dyn, cc = setup([girl()], [boss()])
    dyn[0, K.D_FRENZY] = 1
    dyn[0, K.D_OC + 1] = 13
    dyn[0, K.D_RES] = 10
    dyn[0, K.D_DEF_BONUS] = 1
    call(K.play_frenzied, inp, dyn, cc, Script(check=MISS, damage=faces(2)), i=0, bf=None)
    assert dyn[0, K.D_DEF_BONUS] == 0 and cc[0, K.K_FRENZY_TURNS] == 1


def test_guided_strike_is_kept_when_the_ally_has_nobody_to_attack():
    """Guided Strike (L1736) lets an ally attack: with nobody left for him it is not spent,
    gridless as where distance exists (the gridless turn paid for it)."""
    inp, dyn, cc = setup([girl("Akari", attack=2, talents=["Guided Strike"]), girl("Bea", attack=5)],
                         [boss()])
    dyn[2, K.D_RES] = 0
    dyn[2, K.D_DEAD] = 1
    uses = dyn[0, K.D_TUSES]
    assert tuple(call(K.guided_strike, inp, dyn, cc, Script(), i=0, bf=None)) == (-1, -1)
    assert dyn[0, K.D_TUSES] == uses


def test_reflector_needs_her_standing_after_her_attack():
    """Reflector (L1528) is a free action after her successful attack: knocked down by her
    own attack's backlash she takes none (the gridless turn gave it anyway)."""
    inp, dyn, cc = setup([girl(talents=["Reflector"])], [boss(talents=["Backlash"])])
    dyn[0, K.D_RES] = 1
    s = Script(check=HIT, damage=faces(3, 6))
    call(K.play_turn, inp, dyn, cc, s, i=0, bf=None, check=False)
    assert dyn[0, K.D_RES] <= 0 and cc[1, K.K_TUSE] == 1   # the backlash knocked her down
    assert dyn[0, K.D_REFLECT_BY] == -1 and cc[0, K.K_TUSE] == 0   # no Reflector given


def test_steal_action_gives_another_minor_talent_on_the_hex_grid():
    """Steal Action (L1725: "take an additional Minor Action"): 14 against 2 + 3 stuns the
    boss, and her second Minor goes to Amplify Magic on the Stun (the grid's turn kept the
    Minor for a step only); then her Major attacks: 14 against 5, 3 + 2 melee."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4], talents=["Steal Action", "Amplify Magic"])],
                                  [boss(position=[3, 3])])
    grid_run(K.play_turn, inp, dyn, cc, bf, Script(check=faces(5, 5, 1, 1) + HIT, damage=faces(3)), i=0)
    assert dyn[1, K.D_AIL + K.A_STUN] != 0 and cc[0, K.K_TUSE] == 1   # Steal Action
    assert cc[0, K.K_TUSE + 1] == 1 and dyn[0, K.D_MINOR_USED] == 1   # Amplify Magic, her second Minor
    assert cc[0, K.K_ATTACKS] == 1 and dyn[1, K.D_RES] == 40 - 5


def test_a_frenzy_with_nobody_to_attack_still_rolls_her_removal_on_the_grid():
    """A frenzy's Minor with nobody to attack or step toward (the boss is dead): the removal
    roll of her ailment (L1467), as gridless (the grid's turn skipped it). Regen 2; the
    removal roll [6 3] and the six's die 4, + 3 Support: the Bleed is gone."""
    inp, dyn, cc, bf = grid_arena([girl(position=[3, 4])], [boss(position=[3, 1])])
    dyn[1, K.D_RES] = 0
    dyn[1, K.D_DEAD] = 1
    dyn[0, K.D_FRENZY] = 1
    dyn[0, K.D_OC + 1] = 13
    dyn[0, K.D_RES] = 10
    dyn[0, K.D_AIL + K.A_BLEED] = 1
    grid_run(K.play_frenzied, inp, dyn, cc, bf, Script(check=faces(6, 3, 4), damage=faces(2)), i=0)
    assert dyn[0, K.D_AIL + K.A_BLEED] == 0 and cc[0, K.K_AIL_REMOVED] == 1
    assert cc[0, K.K_ATTACKS] == 0 and dyn[0, K.D_RES] == 12


def test_nobody_left_to_fight_ends_her_turn_on_positions():
    """The draft's positions: with no enemy she may attack standing (the foe is dead), her turn
    ends before her Major, as on the grid: Healing Wave (DRAFT L211-215), which two hurt
    girls would call for, is not played (the positions turn went on to it)."""
    from helpers import draft_arena

    hold = {"policy": {**NOCAP, "movement": "hold"}}
    team = [girl("Pia", talents=["Healing Wave"], **hold), girl("Akari", **hold)]
    inp, dyn, cc = draft_arena(team, [mb41_member("Shade", **hold)], {"positions": 4}, [0, 0, 3])
    for j in (0, 1):
        dyn[j, K.D_RES] = 5
    dyn[2, K.D_RES] = 0
    dyn[2, K.D_DEAD] = 1
    call(K.take_turn, inp, dyn, cc, Script(), i=0)
    assert [int(dyn[j, K.D_RES]) for j in (0, 1)] == [5, 5] and dyn[0, K.D_TUSES] == 2
