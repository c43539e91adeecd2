"""What the d10 engine plays for a power or perk, and where each number comes from (``sim catalog d10``).

The compiler reads a row's ``code`` and ``params`` (:func:`sim.systems.d10.compile._apply_effects`);
its ``cost`` is the add-on's text (seed 003). d10 has no per-scene limits: a power is
used whenever the policy chooses it and its mana allows. ``*_from``: ``seed`` (the
text states the number), ``ruling`` (the text is silent: the simulator's reading,
written in the row's ``reading`` with the audit's D ids).
"""
from __future__ import annotations

import re

#: the parameter holding a row's mana cost, by code
MANA = {"killing_blow": "cost", "focused_assault": "cost", "barrage": "cost", "duplication": "cost_per_copy",
        "regeneration": "action_cost", "healing_artifact": "cost", "disguise_artifact": "cost", "attack_cost": "n"}


def simulated_as(row: dict) -> dict | None:
    """What the engine plays for catalog ``row`` (None when not simulated): ``uses``,
    ``cost``, ``cost_from``, ``numbers`` (the parameters), ``numbers_from``, ``reading``."""
    if not row.get("simulated"):
        return None
    params = dict(row.get("params") or {})
    mana = params.get(MANA.get(row["code"], ""))
    text = str(row.get("cost") or "-")
    action = "an action, " if "action" in text.casefold() else ""
    cost = f"{action}{mana} mana" if mana else (action.rstrip(", ") or "none")
    if row["code"] == "duplication":
        cost += " per copy"
    elif row["code"] == "regeneration":  # passive each turn; the action and mana only speed it (L173)
        cost = f"none each turn; an action and {mana} mana to speed it"
    stated = [int(x) for x in re.findall(r"\d+", text)]
    cost_from = "seed" if (mana in stated if mana else not stated) else "ruling"
    return {"uses": "no limit (as its mana allows)" if mana else "no limit", "cost": cost, "cost_from": cost_from,
            "numbers": params, "numbers_from": "seed", "reading": row.get("reading") or ""}


def line(sim: dict) -> str:
    """``sim catalog d10``'s line for a simulated row."""
    label = {"seed": "seed 003", "ruling": "our ruling"}
    nums = ", ".join(f"{k} {v}" for k, v in sim["numbers"].items())
    parts = [f"uses {sim['uses']}", f"cost {sim['cost']} ({label[sim['cost_from']]})"]
    if nums:
        parts.append(f"numbers {nums} ({label[sim['numbers_from']]})")
    if sim["reading"]:
        parts.append(f"our ruling: {sim['reading']}")
    return "simulated: " + "; ".join(parts)
