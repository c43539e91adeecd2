"""A round robin of card decks on a cards scenario (the card game's ``play_pair``)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .bt import fit_check, rating_table
from .charts import matchup_chart, rating_chart
from .matches import matchup_table, play_matches
from .sides import side_play_pair


def _deck_spec(side) -> dict:
    """The ``set:`` values that put this side's deck on a seat (sample or inline)."""
    if side.deck is not None:
        return {"deck": side.deck, "cards": None, "deck_name": side.deck_name}
    return {"deck": None, "cards": dict(side.cards), "deck_name": side.deck_name}


def scenario_decks(loaded) -> dict[str, dict]:
    """Deck label -> deck spec, over both sides of every variant of a cards scenario.

    A sample deck is labelled by its name (or its ``deck_name``); an inline
    ``cards`` list by its ``deck_name``, else ``<variant> (<side>)`` as in the
    card tables (:func:`sim.systems.cards.tables.deck_labels`). Raises
    ScenarioError when one label names two different deck lists.
    """
    from sim.scenario import ScenarioError

    decks: dict[str, dict] = {}
    for vname, model in loaded.variants:
        for si, side in enumerate(model.sides):
            unnamed = side.cards is not None and side.deck_name is None
            label = f"{vname} ({side.name})" if unnamed else side.deck_label()
            spec = _deck_spec(side)
            if label in decks and side.deck_cards() != _cards_of(decks[label]):
                raise ScenarioError.at(str(loaded.path), None, f"sides[{si}].deck_name",
                                       f"the label {label!r} names two different deck lists (variant "
                                       f"{vname!r}); give each deck its own deck_name for a round robin")
            decks.setdefault(label, spec)
    return decks


def _cards_of(spec: dict) -> dict:
    from sim.systems.cards import cardsdata

    return dict(spec["cards"]) if spec["cards"] is not None else dict(cardsdata.sample_decks()[spec["deck"]].cards)


def _resolve_decks(loaded, decks: Sequence[str] | None) -> dict[str, dict]:
    """The round robin's entries: ``decks`` (scenario or sample deck names), or the
    scenario's decks, or (when it has fewer than two) every sample deck."""
    from sim.scenario import ScenarioError, suggest
    from sim.systems.cards import cardsdata

    own = scenario_decks(loaded)
    samples = {name: {"deck": name, "cards": None, "deck_name": None} for name in cardsdata.sample_decks()}
    if decks is None:
        return own if len(own) >= 2 else samples
    known = {**samples, **own}
    out = {}
    for name in decks:
        if name not in known:
            raise ScenarioError.at(str(loaded.path), None, "decks",
                                   f"unknown deck {name!r}.{suggest(name, list(known))} Known decks: "
                                   f"{', '.join(known)} (the scenario's decks and the catalog's sample decks)")
        out[name] = known[name]
    if len(out) < 2:
        raise ScenarioError.at(str(loaded.path), None, "decks",
                               f"a round robin needs at least two different decks, got {list(out)}")
    return out


def cards_play_pair(scenario_path: str | os.PathLike, decks: Sequence[str] | None = None, player=None):
    """``(entries, play_pair, loaded)`` for a round robin of card decks on a cards scenario.

    ``entries``: the deck labels (see :func:`_resolve_decks`); ``play_pair``:
    the callable :func:`sim.ratings.play_matches` wants; ``loaded``: the
    :class:`~sim.scenario.LoadedScenario` (its ``base.seed`` is the default seed).

    Each game is the scenario's base (its rules, card data and both sides'
    policies; its ``variants``, ``sweep`` and ``what_if`` are dropped) with the
    two decks put on the sides through the variants machinery (``set:
    {sides[0].deck: ...}``, :func:`sim.ratings.sides.side_play_pair`),
    validated like any variant, and played by :func:`sim.trials.per_trial`
    with the key ``stream_key(seed, 0)`` that ``sim run`` gives every
    variant: the games are those ``sim run`` plays.
    A policy stays with its seat, so with different policies per side the
    seat balance averages over them. Raises ScenarioError for a deck name
    that is neither the scenario's nor a sample deck (with a suggestion).
    ``player``: see :func:`sim.ratings.sides.side_play_pair`.
    """
    from sim.scenario import ScenarioError, load_scenario

    loaded = load_scenario(scenario_path)
    if loaded.system != "cards":
        raise ScenarioError.at(str(scenario_path), None, "system", f"a deck round robin needs a cards "
                               f"scenario (system: cards), got system {loaded.system!r}")
    return side_play_pair(scenario_path, _resolve_decks(loaded, decks), loaded=loaded, player=player)


def cards_round_robin(scenario_path: str | os.PathLike, decks: Sequence[str] | None = None,
                      trials: int = 2000, seed: int | None = None, out_dir: str | os.PathLike | None = None,
                      n_boot: int = 1000) -> dict:
    """A seat-balanced round robin of card decks with its Bradley-Terry ratings.

    ``decks``: deck labels (see :func:`cards_play_pair`; default the
    scenario's decks, or every sample deck when it has fewer than two);
    ``trials``: games per seating (each pair plays ``2 * trials``); ``seed``:
    default the scenario's. Returns ``{"tables": {"matchups": DataFrame,
    "ratings": DataFrame, "fit": DataFrame}, "charts": {"matchup_matrix":
    Path, "ratings": Path}}``: :func:`matchup_table` with the ratings'
    ``bt_score`` and ``bt_z`` per pair (:func:`fit_check`), :func:`rating_table`,
    and one row of :func:`fit_check`'s summary; with ``out_dir`` the tables
    are written there as ``matchups.csv``, ``ratings.csv`` and ``fit.csv``
    and the charts as ``matchup_matrix.png`` and ``ratings.png`` (existing
    files are replaced; ``charts`` is empty without ``out_dir``). The
    scenario's own ``trials`` is not used. Same arguments, same numbers.
    """
    entries, play_pair, loaded = cards_play_pair(scenario_path, decks)
    seed = loaded.base.seed if seed is None else int(seed)
    matches = play_matches(entries, play_pair, trials, seed)
    ratings = rating_table(matches, n_boot=n_boot)
    pairs, fit = fit_check(matches, ratings)
    matchups = matchup_table(matches).merge(pairs[["entry", "opponent", "bt_score", "bt_z"]],
                                            on=["entry", "opponent"], how="left")
    out = {"tables": {"matchups": matchups, "ratings": ratings, "fit": pd.DataFrame([fit])}, "charts": {}}
    if out_dir is not None:
        d = Path(out_dir)
        d.mkdir(parents=True, exist_ok=True)
        matchups.to_csv(d / "matchups.csv", index=False)
        ratings.to_csv(d / "ratings.csv", index=False)
        out["tables"]["fit"].to_csv(d / "fit.csv", index=False)
        name = loaded.name
        out["charts"]["matchup_matrix"] = matchup_chart(
            matchups, d / "matchup_matrix.png", order=list(ratings["entry"]),
            title=f"{name}: row deck's win rate against column deck ({2 * matches.trials:,} games per pair)")
        out["charts"]["ratings"] = rating_chart(ratings, d / "ratings.png",
                                                title=f"{name}: deck ratings (Bradley-Terry)")
    return out
