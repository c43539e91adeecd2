"""Theatre of the mind (``grid: none``, no positions): the geometry procedures
of a fight where nobody has a place (:mod:`.registry` names them).

Everyone is in reach of everyone, nothing moves, distances are 0; the talents
that only move people or shape terrain are never used (their callers check
:func:`.world.gridless` first) and these stand in their slots.
"""
from __future__ import annotations

from sim._jit import kernel

from .layout import C_SPAWN_BY, D_PLACE
from .world import unpack
from .targets import target_of


@kernel
def p_nothing(a, b, c, w):
    """A slot with nothing to do without a place (auras, the labyrinth, moves)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 0


@kernel
def p_no_outcome(a, b, c, w):
    """PR_END_OF_ROUND: no labyrinth; the fight goes on (-1)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return -1


@kernel
def p_in_reach(i, t, c, w):
    """PR_REACH: everyone is in reach; her basic attack's form is her own (0 stands for 'in reach')."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 0


@kernel
def p_distance(i, j, c, w):
    """PR_DISTANCE: ``D_PLACE`` stays 0 for everyone: 0."""
    comb, rules, dyn, streams, bf = unpack(w)
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE])


@kernel
def p_appear_at(j, anchor, c, w):
    """PR_APPEAR_AT (and on the draft's positions): a reserve row appears where the one
    who made it stands (``D_PLACE``); it always can."""
    comb, rules, dyn, streams, bf = unpack(w)
    dyn[j, D_PLACE] = dyn[comb[j, C_SPAWN_BY], D_PLACE]
    return 1


@kernel
def p_copy_place(i, s, c, w):
    """PR_COPY_PLACE: no place to choose (0: Marionette's copy always appears)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 0


@kernel
def p_yes(a, b, c, w):
    """A check that always holds without a grid (Veil is worth raising, a line holds everyone)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1


@kernel
def p_pick(i, in_reach, c, w):
    """PR_PICK without places: the policy's target (:func:`.targets.target_of`); everyone is
    in reach."""
    comb, rules, dyn, streams, bf = unpack(w)
    return target_of(i, w)
