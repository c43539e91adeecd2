"""Cards as data: the card schema, the effect vocabulary, deck lists, and their
compilation to the engine's arrays.

A card has a type (hero, girl, power, pet, event, grand), HP / ATK / MGK,
an MGK cost, up to two effects ``{op, amount, type}`` from the vocabulary in
:data:`OPS`, and an optional condition ``{kind, amount}`` from
:data:`CONDITIONS`. The shipped pool (``catalog/cards.yaml``) and sample decks
(``catalog/decks.yaml``) are INVENTED examples (seed 004 has no cards; audit
C1-C3) and are marked ``invented: true``.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
import yaml
from pydantic import Field, model_validator

from sim.scenario.base import StrictModel
from sim.scenario.suggest import unknown_name_message

from . import engine as E

CATALOG = Path(__file__).resolve().parent / "catalog"
TYPES = E.TYPE_NAMES
OPS = {name: i for i, name in enumerate(E.OP_NAMES) if name != "none"}
CONDITIONS = {name: i for i, name in enumerate(E.COND_NAMES)}


class Effect(StrictModel):
    op: str
    amount: int = Field(1, ge=0, le=20)
    type: Literal["hero", "girl", "power", "pet", "event", "grand"] | None = None

    @model_validator(mode="after")
    def _check(self):
        if self.op not in OPS:
            raise ValueError(unknown_name_message("effect op", self.op, list(OPS)))
        if self.op in ("search", "recover") and self.type is None:
            raise ValueError(f"effect '{self.op}' needs 'type' (the card type to fetch)")
        return self


class Condition(StrictModel):
    kind: str
    amount: int = Field(0, ge=0, le=20)

    @model_validator(mode="after")
    def _check(self):
        if self.kind not in CONDITIONS:
            raise ValueError(unknown_name_message("condition", self.kind, list(CONDITIONS)))
        return self


class Card(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    type: Literal["hero", "girl", "power", "pet", "event", "grand"]
    hp: int = Field(0, ge=0, le=30)
    atk: int = Field(0, ge=0, le=30)
    mgk: int = Field(0, ge=0, le=30)
    cost: int = Field(0, ge=0, le=10)
    effects: list[Effect] = Field(default_factory=list, max_length=2)
    condition: Condition | None = None
    text: str = ""
    invented: bool = False

    @model_validator(mode="after")
    def _check(self):
        if self.type == "hero" and self.hp < 1:
            raise ValueError(f"hero '{self.name}' needs hp >= 1")
        if self.type == "girl" and self.hp + self.mgk < 1:
            raise ValueError(f"girl '{self.name}' needs hp or mgk")
        return self

    def value(self) -> int:
        """How much the engine's deterministic choices (search, recover) and the
        heuristics' setup picks like this card."""
        if self.type == "hero":
            return self.hp + 2 * self.atk + 3 * self.mgk
        if self.type == "girl":
            return self.hp + 2 * self.atk + self.mgk
        if self.type == "grand":
            return 2 * self.atk + self.hp
        return 1

    def rules_text(self) -> str:
        parts = []
        stats = [f"{k.upper()} {getattr(self, k)}" for k in ("hp", "atk", "mgk") if getattr(self, k)]
        if stats:
            parts.append(" ".join(stats))
        if self.cost:
            parts.append(f"cost {self.cost} MGK")
        for e in self.effects:
            parts.append(f"{e.op} {e.type if e.type else e.amount}")
        if self.condition is not None:
            c = self.condition
            parts.append(f"if {c.kind}" + (f" {c.amount}" if c.amount else ""))
        if self.text:
            parts.append(self.text)
        return "; ".join(parts)


class Pool(StrictModel):
    pool: str = "custom"
    invented: bool = False
    cards: list[Card] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self):
        seen = set()
        for c in self.cards:
            if c.name in seen:
                raise ValueError(f"two cards are named '{c.name}'")
            seen.add(c.name)
        return self


class DeckList(StrictModel):
    title: str = ""
    plan: str = ""
    invented: bool = False
    cards: dict[str, int]


class DeckFile(StrictModel):
    invented: bool = False
    decks: dict[str, DeckList]


class CardEdit(StrictModel):
    """One entry of a scenario's ``cards:`` block: a new card (``type`` required)
    or changes to a pool card (only the fields given change; ``effects`` is
    replaced as a whole). Bounds are the :class:`Card` bounds; ``attack``,
    ``magic`` and ``health`` are accepted for ``atk``, ``mgk`` and ``hp``."""

    type: Literal["hero", "girl", "power", "pet", "event", "grand"] | None = None
    hp: int | None = Field(None, ge=0, le=30)
    atk: int | None = Field(None, ge=0, le=30)
    mgk: int | None = Field(None, ge=0, le=30)
    cost: int | None = Field(None, ge=0, le=10)
    effects: list[Effect] | None = Field(None, max_length=2)
    condition: Condition | None = None
    text: str | None = None
    invented: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, data):
        if isinstance(data, dict):
            data = dict(data)
            for alias, name in ALIASES.items():
                if alias in data:
                    if name in data:
                        raise ValueError(f"give '{name}' or its alias '{alias}', not both (a variant that "
                                         "changes this card must name the field as the scenario's "
                                         "cards: block does)")
                    data[name] = data.pop(alias)
        return data


#: field aliases in a scenario's ``cards:`` block
ALIASES = {"attack": "atk", "magic": "mgk", "health": "hp"}


def apply_edits(edits: dict[str, CardEdit] | None) -> dict[str, Card]:
    """The card pool of a scenario: the shipped pool with ``edits`` applied.

    A name in the pool changes the fields given (validated again as a whole
    card); a new name needs ``type`` and becomes a new card. An unknown name
    without ``type`` is taken for a misspelt pool card (ValueError with a
    close-name suggestion). Returns ``{name: Card}`` in pool order, new cards last.
    """
    known = dict(cards_by_name())
    for name, edit in (edits or {}).items():
        given = edit.model_dump(exclude_unset=True)
        if name in known:
            merged = known[name].model_dump()
            merged.update(given)
        elif "type" in given:
            merged = {"name": name, **given}
        else:
            raise ValueError(unknown_name_message("card", name, list(known)) +
                             " A new card needs 'type' (hero, girl, power, pet, event, grand).")
        try:
            known[name] = Card.model_validate(merged)
        except Exception as exc:  # pydantic's message, one line per problem
            lines = [e.get("msg", str(e)) for e in getattr(exc, "errors", lambda: [])()] or [str(exc)]
            raise ValueError(f"card '{name}': " + "; ".join(lines)) from None
    return known


def edited_names(edits: dict[str, CardEdit] | None) -> set[str]:
    """Names of the cards a ``cards:`` block adds or changes (the same value as
    the pool's counts as no change)."""
    base = cards_by_name()
    pool_now = apply_edits(edits)
    return {n for n, c in pool_now.items() if n not in base or base[n] != c}


@lru_cache(maxsize=1)
def pool() -> Pool:
    return Pool.model_validate(yaml.safe_load((CATALOG / "cards.yaml").read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def cards_by_name() -> dict[str, Card]:
    return {c.name: c for c in pool().cards}


@lru_cache(maxsize=1)
def sample_decks() -> dict[str, DeckList]:
    return DeckFile.model_validate(
        yaml.safe_load((CATALOG / "decks.yaml").read_text(encoding="utf-8"))).decks


def check_deck(cards: dict[str, int], deck_size: int, copy_limit: int, starting_heroes: int,
               label: str = "deck", known: dict[str, Card] | None = None) -> None:
    """Raise ValueError for unknown card names (with a suggestion), a wrong size,
    too many copies, or a deck the setup cannot use. ``known``: the scenario's
    pool (:func:`apply_edits`; default the shipped pool)."""
    known = cards_by_name() if known is None else known
    for name, n in cards.items():
        if name not in known:
            raise ValueError(f"{label}: " + unknown_name_message("card", name, list(known)))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{label}: card '{name}' needs a count of at least 1, got {n!r}")
        if n > copy_limit:
            raise ValueError(f"{label}: {n} copies of '{name}'; the copy limit is {copy_limit} "
                             "(rule option copy_limit, audit C3)")
    total = sum(cards.values())
    if total != deck_size:
        raise ValueError(f"{label}: {total} cards; a deck has exactly {deck_size} "
                         "(rule option deck_size, audit C3)")
    if total > E.DECK_MAX:
        raise ValueError(f"{label}: at most {E.DECK_MAX} cards are supported")
    if len(cards) > E.MAXD:
        raise ValueError(f"{label}: {len(cards)} distinct cards; at most {E.MAXD} are supported")
    heroes = sum(n for c, n in cards.items() if known[c].type == "hero")
    girls = sum(n for c, n in cards.items() if known[c].type == "girl")
    if heroes < max(1, starting_heroes):
        raise ValueError(f"{label}: {heroes} heroes; the setup searches {starting_heroes} (L13)")
    if girls < 1:
        raise ValueError(f"{label}: no magical girl; the mulligan (L13, C9) needs at least one")


def deck_table(cards: dict[str, int], known: dict[str, Card] | None = None
               ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(card table int64[MAXD, NCT], counts int64[MAXD], names by local id).

    ``known``: the scenario's pool (:func:`apply_edits`; default the shipped
    pool). The table is plain data passed to the kernels, so changing a card's
    numbers never recompiles anything."""
    known = cards_by_name() if known is None else known
    names = list(cards)
    gids = {name: i for i, name in enumerate(known)}
    cd = np.zeros((E.MAXD, E.NCT), dtype=np.int64)
    cnt = np.zeros(E.MAXD, dtype=np.int64)
    for loc, name in enumerate(names):
        c = known[name]
        row = cd[loc]
        row[E.CT_TYPE] = TYPES.index(c.type)
        row[E.CT_HP] = c.hp
        row[E.CT_ATK] = c.atk
        row[E.CT_MGK] = c.mgk
        row[E.CT_COST] = c.cost
        for k, eff in enumerate(c.effects):
            row[E.CT_OP + k] = OPS[eff.op]
            row[E.CT_AMT + k] = eff.amount
            row[E.CT_PAR + k] = TYPES.index(eff.type) if eff.type else 0
        if c.condition is not None:
            row[E.CT_COND] = CONDITIONS[c.condition.kind]
            row[E.CT_CAMT] = c.condition.amount
        row[E.CT_VALUE] = c.value()
        row[E.CT_GID] = gids[name]
        cnt[loc] = cards[name]
    return cd, cnt, names
