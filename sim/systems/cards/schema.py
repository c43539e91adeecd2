"""Scenario schema of the Mahou Shoujo card game (``system: cards``), pydantic v2.

Each side has a ``deck`` (a sample deck name from ``catalog/decks.yaml``) or
an inline ``cards: {card name: count}`` list (optionally labelled with
``deck_name``; unnamed inline decks are labelled by their variant and side),
and a ``policy``. A round robin
is a ``sweep`` over ``<side>.deck`` for both sides.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from sim.scenario.base import ScenarioHeader, StrictModel
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


class Scenario(ScenarioHeader):
    """One variant of a card-game scenario."""

    system: str = "cards"
    rules: dict[str, Any] = Field(default_factory=dict)
    sides: list[Side] = Field(min_length=2, max_length=2)

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
        if self.sides[0].name == self.sides[1].name:
            raise ValueError(f"both sides are named '{self.sides[0].name}'")
        r = self.resolved_rules()
        for s in self.sides:
            cardsdata.check_deck(s.deck_cards(), r["deck_size"], r["copy_limit"], r["starting_heroes"],
                                 label=f"side '{s.name}' deck '{s.deck_label()}'")
        return self

    def resolved_rules(self) -> dict:
        return RULES.resolve(self.rules)
