"""Which procedure fills each slot of the table (``rules[PR_*]``), per scenario.

The fight's kernels call the turn, the attack, the geometry's moves and the
talents' hooks through the table (:mod:`.world`, :mod:`sim.procs`), so a
scenario compiles only what it names: a fight without a grid never compiles
the hex battlefield's procedures, one without Create Barrier never compiles
the barrier's. A slot the scenario is not expected to need holds
:func:`.state.p_missing`, which counts its calls (``K_MISSING``); a run in
which one is called fails (:func:`check`) rather than play a rule wrong.

This is the one module that imports every geometry: the core never does.
"""
from __future__ import annotations

import importlib
import pkgutil

import numpy as np

from sim import compile_helper, procs

from . import attack, bursts, damage, hex, hex_areas, hex_moves, hex_turn, hooks, labyrinth, layout, state, turn
from . import gridless as GL
from . import positions as PS
from . import positions_talents as PTL
from . import positions_turn as PT
from . import talents
from .gates import armed_table
from .codes import (E_AREA_ATTACK, E_BARRIER, E_GRAVITY, E_MARIONETTE, E_MINES, E_ROUGH_GOING, E_SCATTER,
                    E_SCREAM, E_SWITCH, E_VEIL)
from .layout import (C_SPAWN_KIND, C_TCODE, K_MISSING, MAXT, NPR, PR_AFTER_TURN, PR_APPEAR_AT, PR_AREA, PR_ATTACK,
                     PR_ATTACK_AT, PR_AURAS, PR_BARRIER, PR_BEFORE_MAJOR, PR_COPY_PLACE, PR_DISTANCE,
                     PR_END_OF_ROUND, PR_FRENZY_MINOR, PR_FRENZY_STEP, PR_GRAVITY, PR_MAJOR_MOVE, PR_MINE,
                     PR_MISSING, PR_ON_LINE, PR_PICK_WITHIN, PR_ANY_IN_REACH, PR_PICK, PR_REACH, PR_ROUGH_GOING,
                     PR_SAFE_PLACE, PR_SCATTER, PR_SETTLE, PR_SHOVE, PR_START, PR_SWITCH_TO, PR_TARGET, PR_TURN,
                     PR_TURN_END, PR_TURN_OPEN, PR_VEIL_WORTH, R_GRID, R_POSITIONS, R_SIZE)
from .world import WORLD

#: the core's procedures, the same for every geometry
CORE = {
    PR_SETTLE: bursts.p_settle,
    PR_ATTACK: attack.p_attack,
    PR_MISSING: state.p_missing,
}

#: each geometry's procedures
GEOMETRIES = {
    "none": {
        PR_TURN: turn.p_take_turn, PR_START: GL.p_nothing, PR_AURAS: GL.p_nothing,
        PR_AFTER_TURN: GL.p_nothing, PR_END_OF_ROUND: GL.p_no_outcome,
        PR_ATTACK_AT: attack.p_attack, PR_REACH: GL.p_in_reach, PR_DISTANCE: GL.p_distance,
        PR_APPEAR_AT: GL.p_appear_at, PR_COPY_PLACE: GL.p_copy_place, PR_VEIL_WORTH: GL.p_yes,
        PR_PICK: GL.p_pick, PR_ANY_IN_REACH: GL.p_yes,
    },
    "positions": {
        PR_TURN: turn.p_take_turn, PR_START: PS.p_start, PR_AURAS: PS.p_auras,
        PR_AFTER_TURN: GL.p_nothing, PR_END_OF_ROUND: GL.p_no_outcome,
        PR_ATTACK_AT: PT.p_attack_at, PR_REACH: PS.p_reach,
        PR_DISTANCE: PS.p_distance, PR_APPEAR_AT: GL.p_appear_at, PR_COPY_PLACE: PS.p_copy_place,
        PR_PICK_WITHIN: PS.p_pick_within, PR_ON_LINE: PS.p_on_line, PR_AREA: PTL.p_area,
        PR_GRAVITY: PTL.p_area, PR_VEIL_WORTH: GL.p_yes, PR_ROUGH_GOING: PTL.p_rough_going,
        PR_PICK: PS.p_pick, PR_ANY_IN_REACH: PS.p_any_in_reach,
        PR_TURN_OPEN: PT.p_turn_open, PR_BEFORE_MAJOR: PT.p_before_major, PR_FRENZY_MINOR: PT.p_frenzy_minor,
        PR_FRENZY_STEP: PT.p_frenzy_step, PR_SAFE_PLACE: PTL.p_safe_place, PR_TARGET: PT.p_target,
        PR_SHOVE: PTL.p_shove, PR_MAJOR_MOVE: PT.p_major_move, PR_TURN_END: PT.p_turn_end,
    },
    "hex": {
        PR_TURN: turn.p_take_turn, PR_START: hex.p_start, PR_AURAS: hex.p_auras,
        PR_AFTER_TURN: labyrinth.p_after_turn, PR_END_OF_ROUND: labyrinth.p_end_of_round,
        PR_ATTACK_AT: hex_turn.p_attack_at, PR_REACH: hex.p_reach,
        PR_DISTANCE: hex.p_distance, PR_APPEAR_AT: hex.p_appear_at, PR_COPY_PLACE: hex.p_copy_place,
        PR_PICK_WITHIN: hex.p_pick_within, PR_ON_LINE: hex.p_on_line, PR_SWITCH_TO: hex.p_switch_to,
        PR_AREA: hex_areas.p_area, PR_GRAVITY: hex_areas.p_gravity, PR_VEIL_WORTH: hex_areas.p_veil_worth,
        PR_ROUGH_GOING: hex_areas.p_rough_going, PR_SCATTER: hex_areas.p_scatter, PR_MINE: hex_moves.p_mine,
        PR_BARRIER: hex_areas.p_barrier, PR_PICK: hex.p_pick, PR_ANY_IN_REACH: hex.p_any_in_reach,
        PR_TURN_OPEN: hex_turn.p_turn_open, PR_BEFORE_MAJOR: hex_turn.p_before_major,
        PR_FRENZY_MINOR: hex_turn.p_frenzy_minor, PR_FRENZY_STEP: hex_turn.p_frenzy_step,
        PR_SAFE_PLACE: hex_turn.p_safe_place, PR_TARGET: hex_turn.p_target, PR_SHOVE: hex_turn.p_shove,
        PR_MAJOR_MOVE: hex_turn.p_major_move, PR_TURN_END: hex_turn.p_turn_end,
    },
}

#: slots needed only when some combatant holds one of these effect codes
NEEDS_CODE = {
    PR_ON_LINE: (E_SCREAM,), PR_SWITCH_TO: (E_SWITCH,), PR_AREA: (E_AREA_ATTACK,), PR_GRAVITY: (E_GRAVITY,),
    PR_VEIL_WORTH: (E_VEIL,), PR_ROUGH_GOING: (E_ROUGH_GOING,), PR_SCATTER: (E_SCATTER,), PR_MINE: (E_MINES,),
    PR_BARRIER: (E_BARRIER,), PR_COPY_PLACE: (E_MARIONETTE,),
}


def geometry(rule_table: np.ndarray) -> str:
    """``hex``, ``positions`` or ``none`` from the rule table."""
    if int(rule_table[R_GRID]) != 0:
        return "hex"
    if int(rule_table[R_POSITIONS]) > 0:
        return "positions"
    return "none"


#: where the hooks' functions live (``h_<name>``): every module of :mod:`.talents`, and the damage
#: module for Intercept (a rule of the geometries with places)
HOOK_MODULES = tuple(importlib.import_module(f"{talents.__name__}.{m.name}")
                     for m in pkgutil.iter_modules(talents.__path__)) + (damage,)
HOOK_MODULES_DOC = "sim/systems/mb41/talents/ (or damage.py)"


def hook_function(h: hooks.Hook):
    """The function that plays hook ``h`` (``h_<name>`` in one of :data:`HOOK_MODULES`)."""
    found = [fn for fn in (getattr(mod, "h_" + h.name, None) for mod in HOOK_MODULES) if fn is not None]
    if len(found) != 1:
        where = "no module" if not found else f"{len(found)} modules"
        raise LookupError(f"hook {h.timing}/{h.name}: h_{h.name} is defined in {where} of {HOOK_MODULES_DOC}")
    return found[0]


def hook_slots() -> dict[int, hooks.Hook]:
    """``{slot: hook}``: the k-th hook of a timing point sits at ``PR_<TIMING> + k``."""
    out = {}
    for t in hooks.TIMINGS:
        base = getattr(layout, "PR_" + t)
        for k, h in enumerate(hooks.at(t)):
            out[base + k] = h
    return out


def _talent_codes(comb: np.ndarray) -> set[int]:
    """Effect codes held in any talent slot, and ``E_SORCERY`` when a policy casts."""
    codes = set(int(c) for c in np.unique(comb[:, C_TCODE:C_TCODE + MAXT]) if c != 0)
    for code in range(62):
        if ((comb[:, layout.C_TMASK].astype(np.int64) >> code) & 1).any():
            codes.add(code)
    return codes


def slots_for(comb: np.ndarray, rule_table: np.ndarray) -> dict[int, object]:
    """``{slot: procedure}`` for a scenario: its geometry's, the core's, the hooks its
    talents need, and :func:`.state.p_missing` where nothing it holds needs one."""
    codes = _talent_codes(comb)
    reserve = bool((comb[:, C_SPAWN_KIND] != 0).any())
    geo = geometry(rule_table)
    out = {slot: state.p_missing for slot in range(R_SIZE, R_SIZE + NPR)}
    for slot, h in hook_slots().items():
        if h.codes == ():
            need = geo != "none"  # a reaction of the geometries with places (Intercept, Cover)
        elif hooks.ANY in h.codes:
            need = bool(codes)
        else:
            need = bool(codes.intersection(h.codes))
        if need:
            out[slot] = hook_function(h)
    for slot, fn in {**GEOMETRIES[geo], **CORE}.items():
        need = NEEDS_CODE.get(slot)
        if need is not None and not codes.intersection(need):
            continue
        if slot == PR_APPEAR_AT and not reserve:
            continue
        out[slot] = fn
    return out


def every_procedure() -> list:
    """Every procedure any table can hold: each geometry's, the core's, every hook."""
    fns = [state.p_missing]
    for slots in (CORE, *GEOMETRIES.values()):
        fns += list(slots.values())
    fns += [hook_function(h) for h in hooks.HOOKS]
    return list(dict.fromkeys(fns))


def compile_all() -> np.ndarray:
    """Compile (or load from the cache) :func:`every_procedure` (``sim warmup``), in two
    processes on a cold cache (:func:`sim.compile_helper.compile_in_two`)."""
    fns = every_procedure()
    label = "the 4.1 engine (every procedure)"
    compile_helper.compile_in_two([(fn, WORLD) for fn in fns], label)
    return procs.addresses(fns, WORLD, label=label)


def _label(rule_table: np.ndarray) -> str:
    return f"the 4.1 engine ({geometry(rule_table)})"


def compile_cold(comb: np.ndarray, rule_table: np.ndarray, kernel, argtypes) -> None:
    """Before a scenario's first run: its procedures (:func:`table`) and its block
    ``kernel`` (for ``argtypes``), in two processes when two or more of them are
    missing from numba's cache (:func:`sim.compile_helper.compile_in_two`)."""
    fns = dict.fromkeys(slots_for(comb, rule_table).values())
    compile_helper.compile_in_two([(fn, WORLD) for fn in fns] + [(kernel, argtypes)],
                                  f"{_label(rule_table)} and its block kernel")


def table(comb: np.ndarray, rule_table: np.ndarray) -> np.ndarray:
    """The procedure table for a scenario, int64[NPR] (addresses; compiles what
    numba's cache does not hold, and says so on stderr)."""
    chosen = slots_for(comb, rule_table)
    fns = [chosen[slot] for slot in range(R_SIZE, R_SIZE + NPR)]
    return procs.addresses(fns, WORLD, label=_label(rule_table))


def live_rules(comb: np.ndarray, rule_table: np.ndarray) -> np.ndarray:
    """``rules`` for the kernels: the rule options, the procedure table, the hook slots' armed
    states (:func:`.gates.armed_table`)."""
    return np.concatenate([np.asarray(rule_table, dtype=np.int64), table(comb, rule_table), armed_table()])


def check(counters: np.ndarray) -> None:
    """Fail when a run called a procedure its table lacked (``K_MISSING``)."""
    missing = int(np.asarray(counters)[:, K_MISSING].sum())
    if missing:
        raise RuntimeError(f"internal error: the 4.1 engine called {missing} procedure(s) this scenario's "
                           "table does not hold (sim/systems/mb41/registry.py)")
