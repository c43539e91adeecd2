"""One row per trial, written by the block kernels that play a study's trials.

A study keeps each trial's outcome, rounds and what happened to the first side's magical
girls (a system's ``trials``, :func:`sim.trials.columns_of`). The block kernels count over
whole blocks; given a ``rows`` array (:func:`sim.systems.mb41.fight.simulate_blocks`,
:func:`sim.systems.mb41.episode.simulate_episode_blocks`,
:func:`sim.systems.mb41.hex.simulate_episode_blocks_grid`, :func:`sim.systems.d10.fight.simulate_blocks`)
they also read each trial's row from what its fight added to the block's counters:
:func:`before` notes the counters, :func:`after` writes the differences (a 4.1 episode's
scenes, and the grid kernel's plain fight as an episode of one scene: :func:`before_scenes`,
:func:`after_scenes`); a run that keeps no rows passes :func:`none`. One kernel per entry
plays both, so a study and a run share its compile. (Playing one trial per block gave the
same rows at a third of the speed or less: every trial allocated its block's state and
counters, and the caller summed them.)

Row columns (int64): ``ROW_OUTCOME`` 0 the first side won, 1 lost, 2 a draw; ``ROW_ROUNDS``
rounds played; over the rows ``girls``: ``ROW_OUT`` girls whose knock-out counter grew,
``ROW_DEAD`` their deaths, ``ROW_STANDING`` girls standing at the end (each the sum of the
counter's growth over the girls, or with ``counted`` the number of girls whose counter grew).

``cols``: int64 ``[4]``: the column of the rounds in ``fights``, then the knock-out, death and
standing-at-the-end counters' columns in ``cc``.
"""
from __future__ import annotations

import numpy as np

from sim._jit import kernel

ROW_OUTCOME, ROW_ROUNDS, ROW_OUT, ROW_DEAD, ROW_STANDING = range(5)
#: columns of a row
NROW = 5
#: words :func:`before` notes ahead of three per girl: the three outcomes and the rounds
NOTE_FIXED = 4


def columns(rows: np.ndarray) -> dict:
    """A system's ``trials`` columns (:func:`sim.trials.columns_of`) from rows ``[count, NROW]``."""
    return {"outcome": rows[:, ROW_OUTCOME].astype(np.int8), "rounds": rows[:, ROW_ROUNDS].astype(np.int32),
            "girls_out": rows[:, ROW_OUT].astype(np.int16), "girls_dead": rows[:, ROW_DEAD].astype(np.int16),
            "girls_standing": rows[:, ROW_STANDING].astype(np.int16)}


def none() -> tuple:
    """``(girls, cols, rows)`` for a block kernel that writes no rows (``rows`` is ``[0, NROW]``)."""
    return (np.zeros(0, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros((0, NROW), dtype=np.int64))


def note_size(girls) -> int:
    """The length of :func:`before`'s note for ``girls``."""
    return NOTE_FIXED + 3 * len(girls)


@kernel(forceinline=True)
def before(fights, cc, girls, cols, note):
    """Note the block's counters a trial will add to: ``fights`` (the block's ``fights[b]``:
    outcomes first) and ``cc`` (its per-combatant counters) over ``girls``."""
    for k in range(3):
        note[k] = fights[k]
    note[3] = fights[cols[0]]
    for g in range(girls.shape[0]):
        j = girls[g]
        for c in range(3):
            note[NOTE_FIXED + 3 * g + c] = cc[j, cols[1 + c]]


@kernel(forceinline=True)
def after(fights, cc, girls, cols, counted, note, row):
    """The trial's row (module doc) from what it added since :func:`before`. ``counted``:
    the death and standing columns count girls whose counter grew, else sum the growth
    (knock-outs are always counted)."""
    row[ROW_OUTCOME] = 0
    for k in range(3):
        if fights[k] != note[k]:
            row[ROW_OUTCOME] = k
    row[ROW_ROUNDS] = fights[cols[0]] - note[3]
    for c in range(3):
        row[ROW_OUT + c] = 0
    for g in range(girls.shape[0]):
        j = girls[g]
        for c in range(3):
            grew = cc[j, cols[1 + c]] - note[NOTE_FIXED + 3 * g + c]
            if c == 0 or counted:
                if grew > 0:
                    row[ROW_OUT + c] += 1
            else:
                row[ROW_OUT + c] += grew


@kernel(forceinline=True)
def scenes_note_size(off, girls):
    """The length of :func:`before_scenes`'s note for scenes ``off`` (int64 ``[S+1]``) and
    ``girls`` (int64 ``[g]``): :data:`NOTE_FIXED`, then a word per scene and three per girl and
    scene."""
    return NOTE_FIXED + (off.shape[0] - 1) * (1 + 3 * girls.shape[0])


@kernel(forceinline=True)
def before_scenes(fights, scene_fights, cc, off, girls, cols, note):
    """:func:`before` for an episode of ``S`` scenes on stacked rows (:mod:`sim.systems.mb41.episode`):
    note the block's counters a trial will add to. ``fights``: the block's ``[NF]`` (outcomes
    first); ``scene_fights``: its ``[S, NF]`` (each scene's outcomes first); ``cc``: its
    per-row counters ``[N, >= max(cols[1:]) + 1]``, scene ``s`` in rows ``off[s] .. off[s+1]-1``
    (``off``: int64 ``[S+1]``); ``girls``: int64 ``[g]``, rows within every scene (row
    ``off[s] + girls[k]``: an episode's party rows, or a one-scene fight's first-side girls);
    ``note``: int64 ``[scenes_note_size(off, girls)]``: the outcomes and rounds, the fights each
    scene has played, then per scene and girl the three counters of ``cols[1:]``."""
    n_sc = off.shape[0] - 1
    ng = girls.shape[0]
    for k in range(3):
        note[k] = fights[k]
    note[3] = fights[cols[0]]
    for s in range(n_sc):
        note[NOTE_FIXED + s] = scene_fights[s, 0] + scene_fights[s, 1] + scene_fights[s, 2]
    base = NOTE_FIXED + n_sc
    for s in range(n_sc):
        for g in range(ng):
            j = off[s] + girls[g]
            for c in range(3):
                note[base + 3 * (s * ng + g) + c] = cc[j, cols[1 + c]]


@kernel(forceinline=True)
def after_scenes(fights, scene_fights, cc, off, girls, cols, note, row):
    """The trial's row (int64 ``[NROW]``) from what its episode added since :func:`before_scenes`
    (same arguments): the episode's outcome and its rounds over every scene; ``ROW_OUT`` the
    girls whose knock-out counter grew in at least one scene (a girl counted once however many
    scenes she dropped in); ``ROW_DEAD`` the growth of the death counter over the girls of
    every scene; ``ROW_STANDING`` the growth of the standing-at-the-end counter over the girls
    of the last scene the episode reached (the last whose outcomes grew; the last scene if
    none did). One scene: :func:`after` without ``counted``."""
    n_sc = off.shape[0] - 1
    ng = girls.shape[0]
    row[ROW_OUTCOME] = 0
    for k in range(3):
        if fights[k] != note[k]:
            row[ROW_OUTCOME] = k
    row[ROW_ROUNDS] = fights[cols[0]] - note[3]
    last = n_sc - 1
    for s in range(n_sc - 1, -1, -1):
        if scene_fights[s, 0] + scene_fights[s, 1] + scene_fights[s, 2] != note[NOTE_FIXED + s]:
            last = s
            break
    base = NOTE_FIXED + n_sc
    row[ROW_OUT] = 0
    row[ROW_DEAD] = 0
    row[ROW_STANDING] = 0
    for g in range(ng):
        dropped = 0
        for s in range(n_sc):
            j = off[s] + girls[g]
            at = base + 3 * (s * ng + g)
            if cc[j, cols[1]] - note[at] > 0:
                dropped = 1
            row[ROW_DEAD] += cc[j, cols[2]] - note[at + 1]
            if s == last:
                row[ROW_STANDING] += cc[j, cols[3]] - note[at + 2]
        row[ROW_OUT] += dropped
