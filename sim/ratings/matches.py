"""The games of a seat-balanced round robin and its matchup table (see :mod:`sim.ratings`)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.stats import wilson

#: outcome codes of one game, from the first seat's view (as in :mod:`sim.trials`)
WIN, LOSS, DRAW = 0, 1, 2


@dataclass(frozen=True)
class Matches:
    """The games of a seat-balanced round robin.

    ``entries``: names, in the order given; ``outcomes``: int8[K, K, T],
    ``outcomes[i, j, t]`` the outcome of trial ``t`` with entry ``i`` in the
    first seat against ``j`` (0 ``i`` won, 1 lost, 2 draw; -1 on the
    diagonal, never played); ``seed``: the seed the games were keyed by.
    """

    entries: list[str]
    outcomes: np.ndarray
    seed: int

    @property
    def trials(self) -> int:
        """Games per seating (each pair plays twice this many)."""
        return int(self.outcomes.shape[2])


def _check_entries(entries: Sequence) -> list[str]:
    names = [str(e) for e in entries]
    if len(names) < 2:
        raise ValueError(f"a round robin needs at least two entries, got {len(names)}: {names}")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"round robin entries must be unique; repeated: {', '.join(dup)}")
    return names


def play_matches(entries: Sequence, play_pair: Callable, trials: int, seed: int) -> Matches:
    """Play every ordered pair ``(i, j)``, ``i != j``, for ``trials`` games.

    ``play_pair(entries[i], entries[j], trials, seed)`` gives the per-trial
    outcomes (module doc). Returns :class:`Matches`; entry names are
    ``str(entry)``. Raises ValueError for fewer than two or repeated entries,
    ``trials < 1``, or a ``play_pair`` result of the wrong length or codes.
    """
    names = _check_entries(entries)
    if int(trials) < 1:
        raise ValueError(f"trials must be at least 1 (games per seating), got {trials}")
    trials = int(trials)
    k = len(names)
    out = np.full((k, k, trials), -1, dtype=np.int8)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            o = np.asarray(play_pair(entries[i], entries[j], trials, seed))
            if o.shape != (trials,) or not np.isin(o, (WIN, LOSS, DRAW)).all():
                raise ValueError(f"play_pair({names[i]!r}, {names[j]!r}) must return {trials} outcomes "
                                 f"coded 0/1/2, got shape {o.shape} with values {np.unique(o)[:5]}")
            out[i, j] = o
    return Matches(entries=names, outcomes=out, seed=int(seed))


def first_seat_scores(outcomes: np.ndarray) -> np.ndarray:
    """float[K, K, T]: the first seat's score per game (win 1, draw 1/2, loss 0)."""
    return np.where(outcomes == WIN, 1.0, np.where(outcomes == DRAW, 0.5, 0.0))


def matchup_table(matches: Matches) -> pd.DataFrame:
    """One row per ordered pair (``entry`` against ``opponent``), both seatings pooled.

    Columns: ``entry``, ``opponent``, ``games`` (``2 * trials``), ``wins``,
    ``losses``, ``draws`` (the row entry's), ``win_rate``/``win_lo``/``win_hi``
    and the same for ``loss`` and ``draw`` (95% Wilson intervals,
    :func:`sim.stats.wilson`; draws are their own outcome), ``score`` (wins
    plus half the draws, per game), and per seating ``games_first``,
    ``win_rate_first`` (the entry in the first seat) and ``games_second``,
    ``win_rate_second``. So ``win_rate(i, j) + win_rate(j, i) + draw_rate = 1``.
    The Wilson intervals treat the games as independent; the two seatings of a
    trial share streams, which the bootstrap of :func:`rating_table` respects.
    """
    o = matches.outcomes
    rows = []
    for i, a in enumerate(matches.entries):
        for j, b in enumerate(matches.entries):
            if i == j:
                continue
            first, second = o[i, j], o[j, i]  # i first; j first (i second)
            w1, l1, d1 = (int((first == c).sum()) for c in (WIN, LOSS, DRAW))
            w2, l2, d2 = (int((second == c).sum()) for c in (LOSS, WIN, DRAW))
            rows.append({"entry": a, "opponent": b, "games": len(first) + len(second),
                         "wins": w1 + w2, "losses": l1 + l2, "draws": d1 + d2,
                         "games_first": len(first), "wins_first": w1,
                         "games_second": len(second), "wins_second": w2})
    t = pd.DataFrame(rows)
    for name in ("win", "loss", "draw"):
        k = t[{"win": "wins", "loss": "losses", "draw": "draws"}[name]]
        t[f"{name}_rate"] = k / t["games"]
        t[f"{name}_lo"], t[f"{name}_hi"] = wilson(k.to_numpy(), t["games"].to_numpy())
    t["score"] = (t["wins"] + 0.5 * t["draws"]) / t["games"]
    t["win_rate_first"] = t["wins_first"] / t["games_first"]
    t["win_rate_second"] = t["wins_second"] / t["games_second"]
    return t


def round_robin(entries: Sequence, play_pair: Callable, trials: int, seed: int) -> pd.DataFrame:
    """:func:`matchup_table` of :func:`play_matches` (``trials`` games per seating)."""
    return matchup_table(play_matches(entries, play_pair, trials, seed))
