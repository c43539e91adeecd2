"""The 4.1 engine's rules by name, for the tests: ``K`` (the core and the talents)
and ``BG`` (the hex battlefield), each one namespace over the modules that hold them.

The engine is split by phase of the fight (``sim/systems/mb41/``: state, slots,
overcharge, targets, damage, ailments, attack, bursts, turn, fight, episode,
talents/*; hex, hex_moves, hex_movement, hex_areas, hex_turn, labyrinth); a
scripted test calls a rule (``K.attack``, ``BG.place_all``) and reads a column
(``K.D_RES``) without knowing which module holds it. A name defined in two of a
namespace's modules is refused here, so a test never calls the wrong one.
"""
from __future__ import annotations

import importlib
import types

from sim.systems.mb41 import codes, layout

CORE = ("world", "state", "slots", "overcharge", "targets", "damage", "ailments", "attack", "bursts", "turn", "fight",
        "episode", "talents.auras", "talents.heal", "talents.bonds", "talents.riders", "talents.defence",
        "talents.afflictions", "talents.team", "talents.draft", "talents.monsters", "talents.areas",
        "talents.sorcery", "talents.movement")
HEX = ("hex", "hex_moves", "hex_movement", "hex_areas", "hex_turn", "labyrinth")


def names(modules) -> types.SimpleNamespace:
    """The functions these modules define (and the layout's and codes' constants), by name."""
    out = {k: v for m in (layout, codes) for k, v in vars(m).items() if k.isupper()}
    home = {}
    for name in modules:
        mod = importlib.import_module(f"sim.systems.mb41.{name}")
        for k, v in vars(mod).items():
            fn = getattr(v, "py_func", v)
            if callable(fn) and getattr(fn, "__module__", None) == mod.__name__:
                if k in home:
                    raise NameError(f"{k} is defined in both {home[k]} and {name}")
                home[k] = name
                out[k] = v
    from sim.curves import standing_curves

    out.setdefault("standing_curves", standing_curves)
    return types.SimpleNamespace(**out)


K = names(CORE)
BG = names(HEX)


def standing(dyn, i) -> bool:
    """``i`` stands (:func:`sim.systems.mb41.state.is_standing`, L1420): not dead, Resolve above 0."""
    return bool(dyn[i, layout.D_DEAD] == 0 and dyn[i, layout.D_RES] > 0)
