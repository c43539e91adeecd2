"""Scripted tests of the card-game rules (seed 004, audit C1-C24) with stacked decks.

Each test builds a game state with a chosen card order (``cards_helpers.midgame``
or a stacked setup), plays chosen legal actions and checks the exact state.
"""
from __future__ import annotations

import pytest

from sim.systems.cards import engine as E
from sim.systems.cards.game_log import Game
from sim.systems.cards.rules import AUDIT, RULES

from cards_helpers import DECK, conserved, inputs, loc, midgame

KENTA, RIN, RUBY = "Kenta the Kendo Captain", "Rin the Class Rep", "Sparkle Ruby"
BEAM, RIBBON, STARFALL, MOCHI = "Starlight Beam", "Barrier Ribbon", "Grand Starfall", "Mochi the Bunny"


def act(kind, arg=0):
    return (kind << 8) | arg


def test_rule_indices_match_ruleset():
    for name in RULES.names():
        assert getattr(E, "R_" + name.upper()) == RULES.index(name), name
    assert E.NRULES == RULES.size
    assert sorted(AUDIT, key=lambda c: int(c[1:])) == [f"C{i}" for i in range(1, 25)]
    for names in AUDIT.values():
        for n in names:
            assert n in RULES.names()


def test_setup_picks_heroes_mulligan_and_first_player_skips_draw():
    inp = inputs()
    G = Game(inp, key=1)
    G.g[E.G_NOSHUF] = 1
    # side A's deck, bottom first; the four top cards hold no girl, the next four do
    order = [RUBY, MOCHI, RIBBON, BEAM, RUBY, STARFALL, KENTA, KENTA, RIN, RIN]
    b = E.pb(0)
    for k, name in enumerate(order):
        G.g[b + E.P_DECK + k] = loc(inp, 0, name)
    G.advance()
    assert G.g[E.G_PHASE] == E.PH_PICK
    for _ in range(3):
        legal = G.legal()
        assert all(a >> 8 == E.K_PICK for a in legal)
        G.apply(act(E.K_PICK, loc(inp, 0, KENTA)) if act(E.K_PICK, loc(inp, 0, KENTA)) in legal
                else legal[0])
    # side B picks with its policy
    while G.g[E.G_PHASE] == E.PH_PICK:
        G.apply(G.choose())
    # A: picked Kenta, Kenta, Rin; the deck's top 4 (Rin, Starfall, Ruby, Beam) hold a girl
    assert G.hand(0)[KENTA] == 2
    assert G.pv(0, E.P_HANDN) == 7
    assert RUBY in G.hand(0)
    while G.g[E.G_PHASE] in (E.PH_OPEN_HERO, E.PH_OPEN_GIRL):
        G.apply(G.choose())
    assert G.g[E.G_PHASE] == E.PH_MAIN
    assert G.g[E.G_CUR] == 0 and G.g[E.G_TURN] == 1
    # opening pair on the field, transformed (C23); first player did not draw (L14)
    s = G.slot(0, 0)
    assert s["hero"] >= 0 and s["girl"] >= 0
    assert G.pv(0, E.P_HANDN) == 5
    assert conserved(G)


def test_mulligan_repeats_until_a_girl():
    inp = inputs()
    G = Game(inp, key=1)
    G.g[E.G_NOSHUF] = 1
    b = E.pb(0)
    # after picking 3 heroes 7 cards remain: [RUBY, ...] with the girl at the bottom
    order = [RUBY, RUBY, MOCHI, RIBBON, BEAM, STARFALL, RIN, KENTA, KENTA, RIN]
    for k, name in enumerate(order):
        G.g[b + E.P_DECK + k] = loc(inp, 0, name)
    G.advance()
    for name in (KENTA, KENTA, RIN):
        G.apply(act(E.K_PICK, loc(inp, 0, name)))
    while G.g[E.G_PHASE] == E.PH_PICK:
        G.apply(G.choose())
    # remaining deck bottom->top: RUBY RUBY MOCHI RIBBON BEAM STARFALL RIN: top 4 = RIN STARFALL BEAM RIBBON
    # no girl -> back to the bottom, redraw: MOCHI RUBY RUBY + ... -> has a girl
    assert G.hand(0).get(RUBY, 0) >= 1
    ev = [r for r in G.lg[:G.g[E.G_LOGN]] if r[0] == E.EV_MULLIGAN and r[1] == 0]
    assert len(ev) == 1
    assert conserved(G)


def test_two_actions_then_turn_passes_and_rival_draws():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], hands=[[], []],
                decks=[[KENTA], [KENTA, RIN]])
    assert G.g[E.G_ACTS] == 2
    G.apply(act(E.K_DRAW))
    assert G.g[E.G_ACTS] == 1 and G.g[E.G_CUR] == 0
    G.apply(act(E.K_DRAW + 0) if False else act(E.K_END))
    assert G.g[E.G_CUR] == 1 and G.g[E.G_ACTS] == 2
    assert G.pv(1, E.P_HANDN) == 1  # B drew at the start of its turn
    assert G.hand(1) == {RIN: 1}


def test_attack_combined_atk_spends_mgk_and_damage_persists():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, None)], decks=[[KENTA], [KENTA]])
    a = G.slot(0, 0)
    assert (a["hp"], a["maxhp"], a["mgk"]) == (8, 8, 2)     # C4: sum (5+3 HP, 0+2 MGK)
    G.apply(act(E.K_ATTACK))
    # B has no events in hand: damage at once; Rin 4 HP - (2+3) -> defeated, hero only: half a gem
    assert G.pv(0, E.P_GEMS) == 1
    assert G.slot(0, 0)["mgk"] == 1
    assert G.g[E.G_PHASE] == E.PH_REPLACE or G.slot(1, 0)["hero"] >= 0


def test_pair_defeat_gives_one_and_a_half_gems_or_one():
    for rule, halves in (({}, 3), ({"pair_gems": 1}, 2)):
        inp = inputs(rules=rule)
        G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], squads=[[], [KENTA]], decks=[[KENTA], [RIN]])
        # B's Rin+Ruby: HP 7; two attacks of 5 -> defeated on the second
        G.apply(act(E.K_ATTACK))
        assert G.slot(1, 0)["hp"] == 2
        G.apply(act(E.K_ATTACK))
        assert G.pv(0, E.P_GEMS) == halves
        assert G.dream(1).get(RIN) == 1 and G.dream(1).get(RUBY) == 2
        assert conserved(G)


def test_exhaustion_exact():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], decks=[[RIN], [RIN]])
    G.g[E.sb(0, 0) + E.SL_MGK] = 1
    G.apply(act(E.K_ATTACK))
    s = G.slot(0, 0)
    assert s["girl"] == -1 and s["maxhp"] == 5 and s["hp"] == 5 and s["mgk"] == 0
    assert G.slot(1, 0)["hp"] == 3     # damage of the attack made with the last MGK still lands
    assert G.pv(1, E.P_GEMS) == 0
    # an untransformed hero with 0 MGK cannot attack (C19)
    assert act(E.K_ATTACK) not in G.legal()


def test_hero_attack_rule_c19():
    inp = inputs(rules={"hero_attack": "never"})
    G = midgame(inp, active=[(RIN, None), (KENTA, None)], decks=[[KENTA], [KENTA]])
    assert G.slot(0, 0)["mgk"] == 1
    assert act(E.K_ATTACK) not in G.legal()
    inp = inputs()
    G = midgame(inp, active=[(RIN, None), (KENTA, None)], decks=[[KENTA], [KENTA]])
    assert act(E.K_ATTACK) in G.legal()


def test_retreat_heals_the_retreating_fighter():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, None)], squads=[[RIN], []], decks=[[KENTA], [KENTA]])
    G.g[E.sb(0, 0) + E.SL_HP] = 2
    G.apply(act(E.K_RETREAT, 1))
    assert G.slot(0, 0)["hero"] == loc(inp, 0, RIN)
    sq = G.slot(0, 1)
    assert sq["hero"] == loc(inp, 0, KENTA) and sq["girl"] == loc(inp, 0, RUBY)  # C17: stack moves
    assert sq["hp"] == sq["maxhp"] == 8                                             # C16: fully healed


def test_transform_adds_girl_hp_to_what_is_left():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, None), (RIN, None)], hands=[[RUBY], []], decks=[[KENTA], [KENTA]])
    G.g[E.sb(0, 0) + E.SL_HP] = 2
    G.apply(act(E.K_TRANSFORM, (loc(inp, 0, RUBY) << 2) | 0))
    s = G.slot(0, 0)
    assert s["hp"] == 5 and s["maxhp"] == 8 and s["mgk"] == 2      # L51: 2 left + 3


def test_free_hero_placement_costs_no_action_and_squad_cap():
    inp = inputs(rules={"squad_cap": 1})
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, None)], hands=[[RIN, RIN], []], decks=[[KENTA], [RIN]])
    G.apply(act(E.K_PLACE, loc(inp, 0, RIN)))
    assert G.g[E.G_ACTS] == 2 and G.slot(0, 1)["hero"] == loc(inp, 0, RIN)
    assert act(E.K_PLACE, loc(inp, 0, RIN)) not in G.legal()      # squad full (C22 option)


def test_power_spends_mgk_from_active_and_goes_to_dreamscape():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, None)], hands=[[BEAM], []], decks=[[RIN], [RIN]])
    G.apply(act(E.K_POWER, loc(inp, 0, BEAM)))
    assert G.slot(0, 0)["mgk"] == 1
    assert G.slot(1, 0)["hp"] == 3
    assert G.dream(0).get(BEAM) == 1


def test_pet_adds_atk_and_leaves_with_the_girl():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], hands=[[MOCHI], []], decks=[[RIN], [RIN]])
    G.apply(act(E.K_PET, loc(inp, 0, MOCHI)))
    assert G.slot(0, 0)["mgk"] == 1
    assert E.fighter_atk(G.g, inp.cd, inp.rules, 0, 0) == 6
    G.apply(act(E.K_ATTACK))            # 6 damage on B's 8 HP; Ruby's last MGK: she and Mochi leave
    assert G.slot(1, 0)["hp"] == 2
    s = G.slot(0, 0)
    assert s["girl"] == -1 and s["pet0"] == -1
    assert G.dream(0).get(MOCHI) == 1


def test_event_in_response_window_prevents_damage():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], hands=[[], [RIBBON]], decks=[[RIN], [KENTA]])
    G.apply(act(E.K_ATTACK))
    assert G.g[E.G_PHASE] == E.PH_REACT and G.g[E.G_TOMOVE] == 1
    assert set(G.legal()) == {act(E.K_PASS), act(E.K_EVENT, loc(inp, 1, RIBBON))}
    G.apply(act(E.K_EVENT, loc(inp, 1, RIBBON)))
    assert G.slot(1, 0)["hp"] == 7 - 2        # 5 - 3 prevented
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_CUR] == 0


def test_grand_transformation_free_attack_and_expiry_without_gem():
    inp = inputs(rules={"grand_expiry": "discard_hero"})
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], squads=[[RIN], [KENTA]], hands=[[STARFALL], []],
                decks=[[KENTA, RIN], [RIN, KENTA]])
    G.apply(act(E.K_GRAND, loc(inp, 0, STARFALL)))
    s = G.slot(0, 0)
    assert s["mgk"] == 0 and s["hp"] == 11 and s["gatt"] == 1
    assert E.fighter_atk(G.g, inp.cd, inp.rules, 0, 0) == 11
    assert act(E.K_ATTACK) in G.legal()
    G.apply(act(E.K_ATTACK))
    assert G.pv(0, E.P_GEMS) == 3            # B's Rin+Ruby (7 HP) defeated
    # B replaces its fighter and passes its turn
    t0 = int(G.g[E.G_TURN])
    while G.g[E.G_TURN] < t0 + 2 and not G.over:
        legal = G.legal()
        G.apply(act(E.K_END) if act(E.K_END) in legal else legal[0])
    # start of A's next turn: the Grand stack is gone (grand_expiry: discard_hero), no gem for B (C7);
    # Rin promoted from the squad
    assert G.dream(0).get(STARFALL) == 1 and G.dream(0).get(KENTA) == 1
    assert G.pv(1, E.P_GEMS) == 0
    assert G.g[E.G_PHASE] == E.PH_REPLACE and G.g[E.G_TOMOVE] == 0
    G.apply(act(E.K_PROMOTE, 1))
    assert G.slot(0, 0)["hero"] == loc(inp, 0, RIN)
    assert conserved(G)


def test_grand_attacks_only_once():
    inp = inputs(rules={"actions_per_turn": 3})
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, None)], squads=[[], [RIN]], hands=[[STARFALL], [RIBBON]],
                decks=[[RIN], [RIN]])
    G.apply(act(E.K_GRAND, loc(inp, 0, STARFALL)))
    G.apply(act(E.K_ATTACK))
    if G.g[E.G_PHASE] == E.PH_REACT:
        G.apply(act(E.K_PASS))
    assert act(E.K_ATTACK) not in G.legal()


def test_deck_out_loses():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], decks=[[], []])
    G.apply(act(E.K_DRAW))
    assert G.over and G.g[E.G_WINNER] == 1 and G.g[E.G_REASON] == E.RE_DECKOUT


def test_out_of_heroes_procedure():
    inp = inputs()
    # B has no squad and no hero in hand; its deck (top last): Beam, Ribbon, Mochi, Ruby, Rin
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, None)], hands=[[], [STARFALL]],
                decks=[[RIN], [RIN, RUBY, MOCHI, RIBBON, BEAM]])
    G.apply(act(E.K_ATTACK))
    # Kenta (5 HP) takes 5: defeated; L53: draw until a hero, keep up to 4 in hand, rest to the Dreamscape
    assert G.slot(1, 0)["hero"] == loc(inp, 1, RIN)
    assert G.pv(1, E.P_HANDN) == 4                 # Starfall + Beam, Ribbon, Mochi
    assert G.dream(1).get(RUBY, 0) >= 1            # the fifth card went to the Dreamscape
    assert conserved(G)


def test_out_of_heroes_with_empty_deck_loses():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, None)], decks=[[RIN], [BEAM]])
    G.apply(act(E.K_ATTACK))
    assert G.over and G.g[E.G_WINNER] == 0 and G.g[E.G_REASON] == E.RE_NOHEROES


def test_first_to_three_gems():
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], squads=[[], [KENTA]], decks=[[RIN], [RIN]], gems=(3, 0))
    G.apply(act(E.K_ATTACK))
    G.apply(act(E.K_ATTACK))
    assert G.over and G.g[E.G_WINNER] == 0 and G.pv(0, E.P_GEMS) == 6


def test_same_action_twice_or_not_c13():
    inp = inputs(rules={"repeat_actions": False})
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], squads=[[], [RIN]], decks=[[RIN], [RIN]])
    G.apply(act(E.K_ATTACK))
    assert act(E.K_ATTACK) not in G.legal()
    inp = inputs()
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], squads=[[], [RIN]], decks=[[RIN], [RIN]])
    G.apply(act(E.K_ATTACK))
    assert act(E.K_ATTACK) in G.legal()


def test_deck_validation_suggests_names():
    from sim.scenario import ScenarioError, load_scenario_text

    bad = dict(DECK)
    bad["Sparkle Rubi"] = bad.pop(RUBY)
    import yaml
    d = {"name": "t", "system": "cards", "rules": {"deck_size": 10},
         "sides": [{"name": "A", "cards": bad}, {"name": "B", "deck": "aggro"}]}
    with pytest.raises(ScenarioError, match="Did you mean 'Sparkle Ruby'"):
        load_scenario_text(yaml.safe_dump(d), "<t>")
    d = {"name": "t", "system": "cards", "sides": [{"name": "A", "deck": "agro"}, {"name": "B", "deck": "aggro"}]}
    with pytest.raises(ScenarioError, match="Did you mean 'aggro'"):
        load_scenario_text(yaml.safe_dump(d), "<t>")
    d = {"name": "t", "system": "cards", "rules": {"copy_limit": 3},
         "sides": [{"name": "A", "deck": "aggro"}, {"name": "B", "deck": "aggro"}]}
    with pytest.raises(ScenarioError, match="copy limit"):
        load_scenario_text(yaml.safe_dump(d), "<t>")


AMBUSH = "Ambush Glitter"   # event: 1 damage
DECK_AMBUSH = {**{k: v for k, v in DECK.items() if k != RIBBON}, AMBUSH: 1}


@pytest.mark.parametrize("replace_from", ["squad", "hand"])
def test_attack_fizzles_when_the_attacker_is_defeated_and_a_copy_steps_in(replace_from):
    """Issue 23: the defender's Event defeats the attacker; another copy of the same hero
    (same card id) takes the active position; the dead fighter's attack must not land."""
    inp = inputs(deck_b=DECK_AMBUSH)
    squads = [[RIN], []] if replace_from == "squad" else [[], []]
    hands = [[], [AMBUSH]] if replace_from == "squad" else [[RIN], [AMBUSH]]
    G = midgame(inp, active=[(RIN, RUBY), (KENTA, RUBY)], squads=squads, hands=hands,
                decks=[[KENTA], [RIN]])
    G.g[E.sb(0, 0) + E.SL_HP] = 1                      # A's Rin + Ruby: 1 HP left, ATK 4
    G.apply(act(E.K_ATTACK))
    assert G.g[E.G_PHASE] == E.PH_REACT and G.g[E.G_TOMOVE] == 1
    G.apply(act(E.K_EVENT, loc(inp, 1, AMBUSH)))       # 1 damage: the attacker is defeated
    assert G.pv(1, E.P_GEMS) == 3
    assert G.g[E.G_PHASE] == E.PH_REPLACE and G.g[E.G_TOMOVE] == 0
    rin = loc(inp, 0, RIN)
    G.apply(act(E.K_PROMOTE, 1) if replace_from == "squad" else act(E.K_PLACE, rin))
    assert G.slot(0, 0)["hero"] == rin                 # the same card id is active again ...
    assert G.slot(1, 0)["hp"] == 8                     # ... but a new fighter: no damage to B
    ev = [int(r[0]) for r in G.lg[:G.g[E.G_LOGN]]]
    assert E.EV_CANCEL in ev
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_CUR] == 0 and G.g[E.G_ACTS] == 1
    assert conserved(G)


@pytest.mark.parametrize("fizzles", [None, False, True])
def test_power_damage_when_its_caster_is_defeated_in_the_response_window(fizzles):
    """Rule power_fizzles (issue 35; the seed is silent): A's Rin + Ruby (1 HP left) plays
    Starlight Beam (2 damage); B's Event defeats her before the damage and another Rin steps in.
    false (the default): the Power's damage lands on B's fighter; true: it fizzles like an Attack."""
    rules = {} if fizzles is None else {"power_fizzles": fizzles}
    inp = inputs(deck_b=DECK_AMBUSH, rules=rules)
    G = midgame(inp, active=[(RIN, RUBY), (KENTA, RUBY)], squads=[[RIN], []], hands=[[BEAM], [AMBUSH]],
                decks=[[KENTA], [RIN]])
    G.g[E.sb(0, 0) + E.SL_HP] = 1
    G.apply(act(E.K_POWER, loc(inp, 0, BEAM)))
    assert G.g[E.G_PHASE] == E.PH_REACT and G.g[E.G_TOMOVE] == 1
    G.apply(act(E.K_EVENT, loc(inp, 1, AMBUSH)))       # 1 damage: the caster is defeated
    G.apply(act(E.K_PROMOTE, 1))
    ev = [int(r[0]) for r in G.lg[:G.g[E.G_LOGN]]]
    if fizzles:
        assert G.slot(1, 0)["hp"] == 8 and E.EV_CANCEL in ev
    else:
        assert G.slot(1, 0)["hp"] == 6 and E.EV_CANCEL not in ev
    assert conserved(G)


def test_power_fizzles_is_logged_as_the_power():
    from sim.systems.cards.game_log import _Fmt

    inp = inputs(deck_b=DECK_AMBUSH, rules={"power_fizzles": True})
    G = midgame(inp, active=[(RIN, RUBY), (KENTA, RUBY)], squads=[[RIN], []], hands=[[BEAM], [AMBUSH]],
                decks=[[KENTA], [RIN]])
    G.g[E.sb(0, 0) + E.SL_HP] = 1
    G.apply(act(E.K_POWER, loc(inp, 0, BEAM)))
    G.apply(act(E.K_EVENT, loc(inp, 1, AMBUSH)))
    G.apply(act(E.K_PROMOTE, 1))
    row = [r for r in G.lg[:G.g[E.G_LOGN]] if r[0] == E.EV_CANCEL][0]
    assert "A's Magical Power's damage fizzles" in _Fmt(G).event(row)


def _grand_then_rival_passes(rules):
    """A's Kenta + Ruby becomes Grand Starfall and defeats B's Rin + Ruby; B ends its turn at once."""
    inp = inputs(rules=rules)
    G = midgame(inp, active=[(KENTA, RUBY), (RIN, RUBY)], squads=[[RIN], [KENTA]], hands=[[STARFALL], []],
                decks=[[KENTA, RIN], [RIN, KENTA]])
    G.apply(act(E.K_GRAND, loc(inp, 0, STARFALL)))
    fid = int(G.g[E.sb(0, 0) + E.SL_FID])
    G.apply(act(E.K_ATTACK))
    t0 = int(G.g[E.G_TURN])
    while G.g[E.G_TURN] < t0 + 2 and not G.over:
        legal = G.legal()
        G.apply(act(E.K_END) if act(E.K_END) in legal else legal[0])
    return inp, G, fid


@pytest.mark.parametrize("rules", [{}, {"grand_expiry": "keep_hero"}])
def test_grand_expiry_keep_hero_sends_only_the_attached_cards(rules):
    """L35 read literally (grand_expiry: keep_hero, the default since issue 35; before, the
    audit's C8 discard_hero): "any cards attached to that HERO go right in to the DREAMSCAPE";
    the hero stays active, no replacement, MGK 0."""
    assert RULES.defaults()["grand_expiry"] == "keep_hero"
    inp, G, fid = _grand_then_rival_passes(rules)
    # (the second Ruby was in the Dreamscape from the start)
    assert G.dream(0).get(STARFALL) == 1 and G.dream(0).get(RUBY) == 2 and KENTA not in G.dream(0)
    s = G.slot(0, 0)
    assert s["hero"] == loc(inp, 0, KENTA) and s["girl"] == -1 and s["grand"] == -1
    assert (s["hp"], s["maxhp"], s["mgk"], s["gatt"]) == (5, 5, 0, 0)   # HP capped to Kenta's (exhaust_hp)
    assert G.g[E.sb(0, 0) + E.SL_FID] == fid                             # the same fighter
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_TOMOVE] == 0         # no replacement step
    assert G.slot(0, 1)["hero"] == loc(inp, 0, RIN)                     # the Squad untouched
    assert G.pv(1, E.P_GEMS) == 0
    assert conserved(G)


@pytest.mark.parametrize("expiry, halves", [("keep_hero", 2), ("discard_hero", 3)])
def test_grand_expiry_gem_option_counts_what_leaves(expiry, halves):
    """C7 gem option: keep_hero gives the rival the girl's gem (L9: one), discard_hero a pair's (1.5)."""
    inp, G, _ = _grand_then_rival_passes({"grand_expiry": expiry, "grand_expiry_gem": True})
    assert G.pv(1, E.P_GEMS) == halves
    assert conserved(G)


DECK_2AMBUSH = {**{k: v for k, v in DECK.items() if k != RIBBON}, AMBUSH: 2}


def test_event_timing_response_window_default_has_no_other_windows():
    assert RULES.defaults()["event_timing"] == "response_window"
    inp = inputs(deck_a=DECK_2AMBUSH, deck_b=DECK_2AMBUSH)
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], hands=[[AMBUSH], [AMBUSH]],
                decks=[[RIN, RIN], [RIN, RIN]])
    G.apply(act(E.K_DRAW))               # not an Attack: B gets no window
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_TOMOVE] == 0
    G.apply(act(E.K_DRAW))               # A's last action: A gets no window, the turn passes
    assert G.g[E.G_CUR] == 1 and G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_TOMOVE] == 1
    assert G.slot(0, 0)["hp"] == 8 and G.slot(1, 0)["hp"] == 8


def test_event_timing_any_time_rival_window_after_each_action_and_own_after_the_last():
    inp = inputs(deck_a=DECK_2AMBUSH, deck_b=DECK_2AMBUSH, rules={"event_timing": "any_time"})
    amb_a, amb_b = act(E.K_EVENT, loc(inp, 0, AMBUSH)), act(E.K_EVENT, loc(inp, 1, AMBUSH))
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], hands=[[AMBUSH, AMBUSH], [AMBUSH, AMBUSH]],
                decks=[[RIN, RIN], [RIN, RIN]])
    G.apply(act(E.K_DRAW))               # after A's first action: B's window (opponent's turn)
    assert G.g[E.G_PHASE] == E.PH_EVENT and G.g[E.G_TOMOVE] == 1
    assert set(G.legal()) == {act(E.K_PASS), amb_b}
    G.apply(amb_b)
    assert G.slot(0, 0)["hp"] == 7
    # events_per_window (1) reached: back to A's main phase, one action left
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_TOMOVE] == 0 and G.g[E.G_ACTS] == 1
    G.apply(act(E.K_DRAW))               # A's last action: B's window, B passes ...
    assert G.g[E.G_PHASE] == E.PH_EVENT and G.g[E.G_TOMOVE] == 1
    G.apply(act(E.K_PASS))
    # ... then A's own window after the second action (any number of Events)
    assert G.g[E.G_PHASE] == E.PH_EVENT and G.g[E.G_TOMOVE] == 0 and G.g[E.G_CUR] == 0
    assert set(G.legal()) == {act(E.K_PASS), amb_a}
    G.apply(amb_a)
    assert G.g[E.G_PHASE] == E.PH_EVENT and G.g[E.G_TOMOVE] == 0
    G.apply(amb_a)
    assert G.slot(1, 0)["hp"] == 6
    # no Event left: the turn passes
    assert G.g[E.G_CUR] == 1 and G.g[E.G_PHASE] == E.PH_MAIN
    assert conserved(G)


def test_event_timing_any_time_attack_has_both_windows_and_end_skips_the_own_one():
    inp = inputs(deck_a=DECK_2AMBUSH, deck_b=DECK_2AMBUSH, rules={"event_timing": "any_time"})
    amb_b = act(E.K_EVENT, loc(inp, 1, AMBUSH))
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], hands=[[AMBUSH], [AMBUSH, AMBUSH]],
                decks=[[RIN, RIN], [RIN, RIN]])
    G.apply(act(E.K_ATTACK))
    assert G.g[E.G_PHASE] == E.PH_REACT and G.g[E.G_TOMOVE] == 1     # before damage (C12)
    G.apply(act(E.K_PASS))
    assert G.slot(1, 0)["hp"] == 3
    assert G.g[E.G_PHASE] == E.PH_EVENT and G.g[E.G_TOMOVE] == 1     # after the action
    G.apply(amb_b)
    assert G.slot(0, 0)["hp"] == 7
    G.apply(act(E.K_END))               # ending early: no own window (Events were playable in main)
    assert G.g[E.G_CUR] == 1 and G.g[E.G_PHASE] == E.PH_MAIN
    assert G.hand(0) == {AMBUSH: 1}
    # events_per_window 0: no rival window after an action either
    inp = inputs(deck_a=DECK_2AMBUSH, deck_b=DECK_2AMBUSH, rules={"event_timing": "any_time",
                                                                 "events_per_window": 0})
    G = midgame(inp, active=[(KENTA, RUBY), (KENTA, RUBY)], hands=[[], [AMBUSH]], decks=[[RIN, RIN], [RIN]])
    G.apply(act(E.K_DRAW))
    assert G.g[E.G_PHASE] == E.PH_MAIN and G.g[E.G_TOMOVE] == 0
