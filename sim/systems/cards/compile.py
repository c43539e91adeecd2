"""Compile a validated card-game scenario into the engine's arrays (numbers only)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import cardsdata
from . import engine as E
from . import policies
from .rules import RULES
from .schema import Scenario


@dataclass
class Inputs:
    """Engine inputs of one variant.

    cd: int64[2, MAXD, NCT] card tables per side (deck-local ids); nd: int64[2]
    distinct cards per deck; dcnt: int64[2, MAXD] copies; rules: int64[R];
    pol: int64[2, NPP]; card_names[side][local id]; decks / policies: labels.
    """

    cd: np.ndarray
    nd: np.ndarray
    dcnt: np.ndarray
    rules: np.ndarray
    pol: np.ndarray
    card_names: list
    decks: list
    policies: list
    side_names: list
    resolved_rules: dict
    notes: list = field(default_factory=list)
    #: per side: an inline ``cards`` list without a ``deck_name`` (labelled by variant)
    unnamed: list = field(default_factory=lambda: [False, False])
    #: per side: the deck holds a card the scenario's ``cards:`` block changes (labelled by variant
    #: unless it has a ``deck_name``)
    edited: list = field(default_factory=lambda: [False, False])
    #: ``what_if``: the card tables int64[2, MAXD, NCT] with the edits (None without one), and a
    #: description of the edits per side ("" for a side that keeps its deck)
    what_if_cd: np.ndarray | None = None
    what_if_edits: list = field(default_factory=lambda: ["", ""])
    #: card name -> "edited" or "invented" by the scenario's ``cards:`` block (as the fight systems'
    #: ``talent_status``: studies label such entries)
    talent_status: dict = field(default_factory=dict)

    @property
    def round_cap(self) -> int:
        return int(self.rules[E.R_TURN_CAP])


NOTES = [
    "assumption: the card pool and the sample decks are INVENTED examples (seed 004 gives no cards; audit C1-C3)",
    "rounds are turns: each player's turn counts one (turn 1 is the first player's first turn)",
    "first player by coin flip unless rules.first_player fixes it (C14); per-seat results are in the 'seats' table",
    "deck lists are public: a policy knows the rival's deck list but never its hand or either deck's order",
]

EVENT_NOTES = {
    "response_window": "Events (event_timing response_window): played free during your own turn while actions "
    "remain, and by the defender in response to an Attack or a damaging Power before damage (at most "
    "rules.events_per_window per action, C12); they open no window themselves",
    "any_time": "Events (event_timing any_time, L47): as response_window, plus the rival's window after each of "
    "your actions (at most rules.events_per_window) and your own window after your last action; they open no "
    "window themselves",
}


def compile(scenario: Scenario) -> Inputs:  # noqa: A001 - the plug-in entry point's name
    resolved = scenario.resolved_rules()
    rules = RULES.to_array(resolved)
    cd = np.zeros((2, E.MAXD, E.NCT), dtype=np.int64)
    dcnt = np.zeros((2, E.MAXD), dtype=np.int64)
    nd = np.zeros(2, dtype=np.int64)
    pol = np.zeros((2, E.NPP), dtype=np.int64)
    names = []
    known = scenario.card_pool()
    for s, side in enumerate(scenario.sides):
        t, c, n = cardsdata.deck_table(side.deck_cards(), known)
        cd[s], dcnt[s], nd[s] = t, c, len(n)
        names.append(n)
        pol[s] = policies.encode(side.policy)
    wcd, wedits = _what_if(scenario, cd, known)
    edited = scenario.edited_decks()
    notes = NOTES[:3] + [EVENT_NOTES[resolved["event_timing"]]] + NOTES[3:]
    if scenario.cards:
        notes.append("card edits (scenario cards:): " + describe_edits(scenario.cards, cardsdata.cards_by_name()))
    return Inputs(cd=cd, nd=nd, dcnt=dcnt, rules=rules, pol=pol, card_names=names,
                  decks=[s.deck_label() for s in scenario.sides],
                  policies=[policies.describe(s.policy) for s in scenario.sides],
                  side_names=[s.name for s in scenario.sides], resolved_rules=resolved,
                  unnamed=[s.cards is not None and s.deck_name is None for s in scenario.sides],
                  edited=[e and s.deck_name is None for e, s in zip(edited, scenario.sides)],
                  what_if_cd=wcd, what_if_edits=wedits, notes=notes,
                  talent_status={n: "edited" if n in cardsdata.cards_by_name() else "invented"
                                 for n in cardsdata.edited_names(scenario.cards)})


def describe_edits(edits: dict, before: dict) -> str:
    """``"Sparkle Ruby atk 3->4; Star Pup (new pet)"``: the edits against the pool ``before``."""
    parts = []
    for name, edit in edits.items():
        given = edit.model_dump(exclude_unset=True)
        if name not in before:
            parts.append(f"{name} (new {given.get('type', 'card')})")
            continue
        old = before[name].model_dump()
        changes = [f"{k} {old[k]}->{v}" if not isinstance(v, (list, dict)) else f"{k} changed"
                   for k, v in given.items() if old.get(k) != v]
        parts.append(f"{name} " + (", ".join(changes) if changes else "unchanged"))
    return "; ".join(parts)


def _what_if(scenario: Scenario, cd: np.ndarray, known: dict):
    """The card tables with ``what_if`` applied to its sides, and the edits' description per side."""
    if scenario.what_if is None:
        return None, ["", ""]
    wi = scenario.what_if_pool()
    wcd = cd.copy()
    edits = ["", ""]
    text = describe_edits(scenario.what_if.cards, known)
    for s, side in enumerate(scenario.sides):
        if side in scenario.what_if_sides():
            wcd[s] = cardsdata.deck_table(side.deck_cards(), wi)[0]
            edits[s] = text
    return wcd, edits
