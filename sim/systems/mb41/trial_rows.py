"""One row per trial, written by the block kernels that play a study's trials.

A study keeps each trial's outcome, rounds and what happened to the first side's magical
girls (:func:`sim.systems.mb41.trials`, :func:`sim.trials.columns_of`). The block kernels
count over whole blocks; :func:`.fight.simulate_rows_blocks` and
:func:`.hex.simulate_rows_blocks_grid` play blocks as they do and read each trial's row from
what its fight added to the block's counters: :func:`before` notes the counters, :func:`after`
writes the differences. (Playing one trial per block gave the same rows at a third of the
speed: every trial allocated its block's state and counters.)

Row columns (int64): ``ROW_OUTCOME`` 0 the first side won, 1 lost, 2 a draw; ``ROW_ROUNDS``
rounds played; over the rows ``girls``: ``ROW_OUT`` girls who dropped to 0 Resolve (L1420:
``K_KO_TRIALS`` grew), ``ROW_DEAD`` their deaths (L1422, ``K_DEATHS``), ``ROW_STANDING`` girls
standing at the end (``K_STANDING_END``).
"""
from __future__ import annotations

from sim._jit import kernel

from .layout import F_ROUNDS, K_DEATHS, K_KO_TRIALS, K_STANDING_END

ROW_OUTCOME, ROW_ROUNDS, ROW_OUT, ROW_DEAD, ROW_STANDING = range(5)
#: columns of a row
NROW = 5
#: words :func:`before` notes: the three outcomes, the rounds, then three per girl
NOTE_FIXED = 4


@kernel(forceinline=True)
def before(fights, dyn, girls, note):
    """Note the block's counters a trial will add to: ``fights`` (the block's ``fights[b]``),
    ``dyn`` (its counters) over ``girls``, into ``note`` (``NOTE_FIXED + 3 * len(girls)``)."""
    for k in range(3):
        note[k] = fights[k]
    note[3] = fights[F_ROUNDS]
    for g in range(girls.shape[0]):
        j = girls[g]
        note[NOTE_FIXED + 3 * g] = dyn[j, K_KO_TRIALS]
        note[NOTE_FIXED + 3 * g + 1] = dyn[j, K_DEATHS]
        note[NOTE_FIXED + 3 * g + 2] = dyn[j, K_STANDING_END]


@kernel(forceinline=True)
def after(fights, dyn, girls, note, row):
    """The trial's row (module doc) from what it added since :func:`before`."""
    row[ROW_OUTCOME] = 0
    for k in range(3):
        if fights[k] != note[k]:
            row[ROW_OUTCOME] = k
    row[ROW_ROUNDS] = fights[F_ROUNDS] - note[3]
    out = 0
    dead = 0
    standing = 0
    for g in range(girls.shape[0]):
        j = girls[g]
        if dyn[j, K_KO_TRIALS] != note[NOTE_FIXED + 3 * g]:
            out += 1
        dead += dyn[j, K_DEATHS] - note[NOTE_FIXED + 3 * g + 1]
        standing += dyn[j, K_STANDING_END] - note[NOTE_FIXED + 3 * g + 2]
    row[ROW_OUT] = out
    row[ROW_DEAD] = dead
    row[ROW_STANDING] = standing
