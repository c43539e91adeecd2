"""Run the test suite as a few pytest processes, one after the other.

Why: numba keeps what it compiled (and LLVM what it linked) for the life of a
process. One pytest process that compiles every kernel family (gridless, hex
grid, episodes, d10, cards, the duel fast path) peaks near 18 GB on a 24 GB
machine; separate processes free that memory between groups, and the numba
cache (``~/.cache/mgsim``) lets a later group load what an earlier one
compiled. Every test file runs exactly once: a file not named in a group below
lands in the last group, so a new test file is never skipped.

Usage: ``python tests/run_groups.py [pytest options]`` (``make test`` runs it;
``make test-fast`` adds ``-m "not slow"``). The exit status is the first
non-zero pytest status (5, "no tests collected", counts as success).
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: the groups: (name, file-name prefixes or exact names); a file goes to the first group that
#: names it, and the groups run in the order of RUN_ORDER (gridless kernels are compiled and
#: cached before the grid group loads them)
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    ("hex grid", ("test_mb41_area_talents.py", "test_mb41_battle_grid.py", "test_mb41_grid.py",
                  "test_mb41_grid_properties.py", "test_mb41_labyrinth.py", "test_mb41_movement_talents.py",
                  "test_mb41_spawning.py", "test_mb41_episodes.py", "test_mb41_bursts.py", "test_mb41_catalog.py",
                  "test_mb41_barrier.py", "test_mb41_grid_reactions.py")),
    ("mb41 and the draft", ("test_mb41_", "test_mbdraft")),
    ("d10 and cards", ("test_d10_", "test_cards_")),
    ("the rest", ("",)),
]
RUN_ORDER = ("mb41 and the draft", "hex grid", "d10 and cards", "the rest")


def groups(files: list[Path]) -> list[tuple[str, list[Path]]]:
    """Assign every test file to the first group one of whose names it starts with."""
    left = sorted(files)
    out = []
    for name, prefixes in GROUPS:
        mine = [f for f in left if any(f.name.startswith(p) for p in prefixes)]
        left = [f for f in left if f not in mine]
        if mine:
            out.append((name, mine))
    assert not left
    return sorted(out, key=lambda g: RUN_ORDER.index(g[0]))


def main(argv: list[str]) -> int:
    files = sorted(HERE.glob("test_*.py"))
    status = 0
    summary = []
    for name, mine in groups(files):
        t0 = time.time()
        print(f"== tests: {name} ({len(mine)} files)", flush=True)
        rc = subprocess.call([sys.executable, "-m", "pytest", *argv, *[str(f) for f in mine]], cwd=HERE.parent)
        if rc == 5:
            rc = 0
        summary.append(f"{name}: {'passed' if rc == 0 else f'FAILED (exit {rc})'} in {time.time() - t0:.0f} s")
        if rc != 0 and status == 0:
            status = rc
    print("== summary\n" + "\n".join(summary), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
