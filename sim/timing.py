"""Wall-clock timing shared by ``sim bench`` and the systems' benchmarks."""
from __future__ import annotations

import time

#: timed calls per measurement (the best one counts)
REPEATS = 3


def best_time(fn, repeats: int = REPEATS) -> float:
    """Best wall time of ``repeats`` calls of ``fn`` (seconds)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
