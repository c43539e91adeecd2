"""Scenario schema of the Mahou Shoujo card game (``system: cards``), pydantic v2.

Each side has a ``deck`` (a sample deck name from ``catalog/decks.yaml``) or
an inline ``cards: {card name: count}`` list (optionally labelled with
``deck_name``; unnamed inline decks are labelled by their variant and side),
and a ``policy``. A round robin
is a ``sweep`` over ``<side>.deck`` for both sides.

A top-level ``cards: {card name: {field: value}}`` block adds cards to the
shipped pool or changes their numbers for this scenario (a variant may set
``cards`` or ``cards.<card>.<field>``); ``what_if: {cards: {...}, side: A}``
plays every game twice, with and without those edits, on the same random
numbers (a paired comparison, table ``what_if``). Both are data: nothing is
recompiled.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from sim.scenario.base import ErrorAt, ScenarioHeader, StrictModel
from sim.scenario.suggest import unknown_name_message

from . import cardsdata
from .policies import POLICY_NAMES, ROLLOUT_STYLES

#: ismcts ``setup``: setup picks and the opening pair by search, or by the rollout heuristic
SETUP_MODES = ["search", "heuristic"]
from .rules import RULES


class Policy(StrictModel):
    """How a side plays; see :mod:`sim.systems.cards.policies` for the presets."""

    name: str = "tempo"
    w_attack: int | None = Field(None, ge=0, le=100)
    draw_below: int | None = Field(None, ge=0, le=20)
    retreat_below: int | None = Field(None, ge=0, le=30)
    exhaust_penalty: int | None = Field(None, ge=0, le=1000)
    save_events: bool | None = None
    grand_any: bool | None = None
    epsilon: float = Field(0.0, ge=0.0, le=1.0)
    # search and ismcts (budget: rollouts per decision; ismcts: iterations, one rollout each)
    budget: int = Field(48, ge=1, le=100_000)
    rollout: str = "tempo"
    rollout_epsilon: float = Field(0.0, ge=0.0, le=1.0)
    horizon: int = Field(0, ge=0, le=400)
    # ismcts only: UCB1 exploration constant (default sqrt 2), setup choices by search or heuristic
    c: float | None = Field(None, ge=0.0, le=100.0)
    setup: str = "search"

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any):
        if isinstance(data, str):
            return {"name": data}
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if v not in POLICY_NAMES:
            raise ValueError(unknown_name_message("policy", v, POLICY_NAMES))
        return v

    @field_validator("setup")
    @classmethod
    def _setup(cls, v: str) -> str:
        if v not in SETUP_MODES:
            raise ValueError(unknown_name_message("setup mode", v, SETUP_MODES))
        return v

    @model_validator(mode="after")
    def _ismcts_only(self):
        if self.name != "ismcts":
            if self.c is not None:
                raise ValueError(f"policy '{self.name}': 'c' (the UCB exploration constant) belongs to "
                                 "the ismcts policy only")
            if self.setup != "search":
                raise ValueError(f"policy '{self.name}': 'setup' belongs to the ismcts policy only")
        return self

    @field_validator("rollout")
    @classmethod
    def _rollout(cls, v: str) -> str:
        if v not in ROLLOUT_STYLES:
            raise ValueError(unknown_name_message("rollout policy", v, ROLLOUT_STYLES))
        return v


class Side(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    deck: str | None = None
    cards: dict[str, int] | None = None
    #: label of the deck in tables and charts (default: the sample deck's name;
    #: an inline ``cards`` list is labelled by its variant and side)
    deck_name: str | None = Field(None, min_length=1, max_length=60)
    policy: Policy = Policy()

    @field_validator("deck")
    @classmethod
    def _deck(cls, v):
        if v is not None and v not in cardsdata.sample_decks():
            raise ValueError(unknown_name_message("deck", v, list(cardsdata.sample_decks())))
        return v

    @model_validator(mode="after")
    def _one_deck(self):
        if (self.deck is None) == (self.cards is None):
            raise ValueError(f"side '{self.name}': give either 'deck' (a sample deck: "
                             f"{', '.join(cardsdata.sample_decks())}) or 'cards' (an inline list)")
        return self

    def deck_cards(self) -> dict[str, int]:
        if self.cards is not None:
            return dict(self.cards)
        return dict(cardsdata.sample_decks()[self.deck].cards)

    def deck_label(self) -> str:
        """The deck's label: ``deck_name``, else the sample deck's name, else ``custom``
        (an unnamed inline list; the tables replace that with the variant's name, see
        :func:`sim.systems.cards.tables.deck_labels`)."""
        if self.deck_name is not None:
            return self.deck_name
        return self.deck if self.deck is not None else "custom"


class WhatIf(StrictModel):
    """A card's "what if": the variant's decks against the same decks with
    ``cards`` edited (the same syntax as the top-level ``cards:`` block),
    game by game on common random numbers. ``side``: only that side's deck
    gets the edits (default: every side whose deck holds an edited card)."""

    cards: dict[str, cardsdata.CardEdit] = Field(min_length=1)
    side: str | None = None
    # the edits are checked by the scenario (:meth:`Scenario._what_if`): a card its own
    # ``cards:`` block adds may be edited too


def _what_if_pool(cards: dict | None, what_if: WhatIf) -> dict:
    """The pool with ``cards`` and then ``what_if.cards`` applied (ValueError for an
    unknown card or a new one without its ``type``)."""
    merged = dict(cards or {})
    for name, edit in what_if.cards.items():
        if name in merged:
            both = merged[name].model_dump(exclude_unset=True)
            both.update(edit.model_dump(exclude_unset=True))
            edit = cardsdata.CardEdit.model_validate(both)
        merged[name] = edit
    return cardsdata.apply_edits(merged)


class Scenario(ScenarioHeader):
    """One variant of a card-game scenario."""

    system: str = "cards"
    rules: dict[str, Any] = Field(default_factory=dict)
    #: card edits / new cards for this scenario (on top of catalog/cards.yaml)
    cards: dict[str, cardsdata.CardEdit] | None = None
    what_if: WhatIf | None = None
    sides: list[Side] = Field(min_length=2, max_length=2)

    @field_validator("cards")
    @classmethod
    def _cards(cls, v):
        cardsdata.apply_edits(v)
        return v

    @field_validator("what_if")
    @classmethod
    def _what_if(cls, v, info):
        """The what-if's edits on top of this scenario's own ``cards:`` (which may add the
        card it edits); checked here so an error points at the ``what_if`` line."""
        if v is not None and "cards" in info.data:
            _what_if_pool(info.data["cards"], v)
        return v

    @field_validator("system")
    @classmethod
    def _system(cls, v):
        if v != "cards":
            raise ValueError("system must be 'cards'")
        return v

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: dict) -> dict:
        RULES.resolve(v)
        return v

    @model_validator(mode="after")
    def _decks(self):
        # each error names the field it is about (ErrorAt), so it points at that line
        if self.sides[0].name == self.sides[1].name:
            raise ErrorAt(("sides", 1, "name"), f"both sides are named '{self.sides[0].name}'")
        r = self.resolved_rules()
        known = self.card_pool()
        for i, s in enumerate(self.sides):
            try:
                cardsdata.check_deck(s.deck_cards(), r["deck_size"], r["copy_limit"], r["starting_heroes"],
                                     label=f"side '{s.name}' deck '{s.deck_label()}'", known=known)
            except ValueError as e:
                raise ErrorAt(("sides", i, "cards" if s.cards is not None else "deck"), str(e)) from None
        if self.what_if is not None:
            self._check_what_if(r)
        return self

    def _check_what_if(self, r: dict) -> None:
        names = [s.name for s in self.sides]
        if self.what_if.side is not None and self.what_if.side not in names:
            raise ErrorAt(("what_if", "side"), unknown_name_message("side", self.what_if.side, names))
        wi = self.what_if_pool()
        touched = set(self.what_if.cards)
        sides = [s for s in self.sides if self.what_if.side in (None, s.name)]
        for s in sides:
            if self.what_if.side is not None and not touched & set(s.deck_cards()):
                raise ErrorAt(("what_if", "side"), f"what_if: side '{s.name}' deck '{s.deck_label()}' holds "
                              f"none of {', '.join(sorted(touched))}, so the comparison would compare a deck "
                              "with itself")
        if not self.what_if_sides():
            raise ErrorAt(("what_if", "cards"), f"what_if: no deck holds {', '.join(sorted(touched))}, so the "
                          "comparison would compare the decks with themselves")
        for s in self.what_if_sides():
            try:
                cardsdata.check_deck(s.deck_cards(), r["deck_size"], r["copy_limit"], r["starting_heroes"],
                                     label=f"what_if: side '{s.name}'", known=wi)
            except ValueError as e:
                raise ErrorAt(("what_if", "cards"), str(e)) from None

    def card_pool(self) -> dict:
        """``{name: Card}``: the shipped pool with this scenario's ``cards:`` edits."""
        return cardsdata.apply_edits(self.cards)

    def what_if_pool(self) -> dict:
        """The pool with ``cards:`` and then ``what_if.cards`` applied."""
        return _what_if_pool(self.cards, self.what_if)

    def what_if_sides(self) -> list:
        """The sides whose decks get the ``what_if`` edits: ``what_if.side``, or
        (without one) every side whose deck holds an edited card."""
        w = self.what_if
        if w is None:
            return []
        return [s for s in self.sides if w.side in (None, s.name) and set(w.cards) & set(s.deck_cards())]

    def edited_decks(self) -> list[bool]:
        """Per side: the deck holds a card this scenario's ``cards:`` block adds or changes."""
        changed = cardsdata.edited_names(self.cards)
        return [bool(changed & set(s.deck_cards())) for s in self.sides]

    def resolved_rules(self) -> dict:
        return RULES.resolve(self.rules)
