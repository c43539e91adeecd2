"""``play_pair`` for any scenario: each entry is a set of changes to one side.

An entry is ``{path inside a side: value}`` (``{"deck": "aggro"}``,
``{"policy": "aggressive"}``, ``{"members": [...]}`` for a party build, or
``{"members[0].attack": 5}``); on seat ``s`` it becomes the variant change
``sides[s].<path>: value`` (:mod:`sim.scenario.variants`), so entries are
placed exactly as a scenario's ``variants: - set:`` would place them and are
validated the same way. What the two seats *mean* is the scenario's: a
seat-balanced round robin makes sense when both sides are the same kind of
thing (two decks; two parties facing each other).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

#: top-level keys the round robin's base game leaves out: the scenario's own
#: variants and sweep, and the card game's ``what_if`` (a paired comparison of
#: card edits: an instruction, not part of the game)
DROPPED = ("variants", "sweep", "what_if")


def side_play_pair(scenario_path: str | os.PathLike, entries: Mapping[str, Mapping[str, Any]], loaded=None,
                   player=None, locs: Mapping[str, tuple] | None = None, doc=None):
    """``(names, play_pair, loaded)`` placing ``entries[name]`` on a side per game.

    Each game is the scenario's base (its ``rules``, its data, both sides as
    written; the keys in :data:`DROPPED` left out) with the first entry's
    changes applied to ``sides[0]`` and the second's to ``sides[1]``,
    validated by the system's model (a bad path or value is a ScenarioError
    naming the file and ``round robin '<first> vs <second>'``), compiled once
    per seating, and played by :func:`sim.trials.per_trial` with the key
    ``stream_key(seed, 0)`` that ``sim run`` gives every variant, so trial
    ``t`` of every seating uses the same streams. ``loaded``: the already
    loaded scenario, if the caller has it. ``player(label, inputs, trials,
    seed)``: plays a seating instead of :func:`sim.trials.per_trial` (a study
    keeps and checkpoints the rows, :meth:`sim.study.arms.StudyContext.rows_of`),
    returning the outcomes. ``locs``: where in the file each entry's changes are
    written (``{name: ("study", "entries", name)}``), so a bad path or value is
    reported at its own line (default: the side's line). ``doc``: the parsed file,
    if the caller has it (a study's, whose text a checkpoint keeps).
    """
    from sim import rng
    import copy

    from sim.scenario import load_scenario, load_yaml, validate_model
    from sim.scenario.variants import _apply, _Targets
    from sim.trials import per_trial

    loaded = load_scenario(scenario_path) if loaded is None else loaded
    doc = load_yaml(scenario_path) if doc is None else doc
    base = {k: v for k, v in doc.data.items() if k not in DROPPED}
    entries = {str(k): dict(v) for k, v in entries.items()}
    compiled: dict[tuple, object] = {}

    def inputs(first: str, second: str):
        if (first, second) not in compiled:
            vdata, origins = copy.deepcopy(base), {}
            targets, where = _Targets(vdata), f"round robin '{first} vs {second}'"
            for s, name in enumerate((first, second)):
                for path, v in entries[name].items():
                    at = locs[name] + (path,) if locs and name in locs else ("sides", s)
                    origins[_apply(vdata, targets, f"sides[{s}].{path}", v, doc, at, where)] = at
            model = validate_model(loaded.module.SCENARIO_MODEL, vdata, doc, where=where, origins=origins)
            compiled[first, second] = loaded.module.compile(model)
        return compiled[first, second]

    def play_pair(first: str, second: str, trials: int, seed: int) -> np.ndarray:
        if player is not None:
            return np.asarray(player(f"{first} vs {second}", inputs(first, second), int(trials), seed))
        df = per_trial(loaded.system, inputs(first, second), 0, int(trials), rng.stream_key(seed, 0))
        return df["outcome"].to_numpy()

    return list(entries), play_pair, loaded
