"""Theatre of the mind (``grid: none``, no positions): the geometry procedures
of a fight where nobody has a place (:mod:`.registry` names them).

Everyone is in reach of everyone, nothing moves, distances are 0; the talents
that only move people or shape terrain are never used (their callers check
:func:`.world.gridless` first) and these stand in their slots.
"""
from __future__ import annotations

from sim._jit import kernel

from .layout import C_SPAWN_BY, D_PLACE


@kernel
def p_nothing(a, b, c, comb, rules, dyn, streams, bf):
    """A slot with nothing to do without a place (auras, the labyrinth, moves)."""
    return 0


@kernel
def p_no_outcome(a, b, c, comb, rules, dyn, streams, bf):
    """PR_END_OF_ROUND: no labyrinth; the fight goes on (-1)."""
    return -1


@kernel
def p_in_reach(i, t, c, comb, rules, dyn, streams, bf):
    """PR_REACH: everyone is in reach; her basic attack's form is her own (0 stands for 'in reach')."""
    return 0


@kernel
def p_distance(i, j, c, comb, rules, dyn, streams, bf):
    """PR_DISTANCE: ``D_PLACE`` stays 0 for everyone: 0."""
    return abs(dyn[i, D_PLACE] - dyn[j, D_PLACE])


@kernel
def p_appear_at(j, anchor, c, comb, rules, dyn, streams, bf):
    """PR_APPEAR_AT (and on the draft's positions): a reserve row appears where the one
    who made it stands (``D_PLACE``); it always can."""
    dyn[j, D_PLACE] = dyn[comb[j, C_SPAWN_BY], D_PLACE]
    return 1


@kernel
def p_copy_place(i, s, c, comb, rules, dyn, streams, bf):
    """PR_COPY_PLACE: no place to choose (0: Marionette's copy always appears)."""
    return 0


@kernel
def p_yes(a, b, c, comb, rules, dyn, streams, bf):
    """A check that always holds without a grid (Veil is worth raising, a line holds everyone)."""
    return 1
