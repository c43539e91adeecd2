"""The Magical Burst 4.1 talent catalog: data rows read from YAML."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

_DIR = Path(__file__).parent


@lru_cache(maxsize=None)
def talents() -> tuple[dict, ...]:
    """All talent rows (dicts with name, group, action, cost, uses, range, effect, simulated)."""
    with open(_DIR / "talents.yaml", encoding="utf-8") as f:
        return tuple(yaml.safe_load(f))


def talent_names() -> list[str]:
    return [row["name"] for row in talents()]


def simulated_names() -> list[str]:
    return [row["name"] for row in talents() if row.get("simulated")]
