"""What the engine plays for a catalog row, and where each number comes from (``sim catalog``).

A row's ``uses``, ``cost`` and ``effect`` are the book's text (the audit's cells);
the kernel plays the numbers the compiler reads (:func:`sim.systems.mb41.talents.fill_slots`):

* **uses**: ``uses_per_scene``, else ``uses_per_episode`` (kept across an episode's
  scenes, A54), else no limit; once a round where the kernel holds it so
  (Reflector: her first Major of the turn; Sprint; the draft's Hex); a minion's uses
  are its stat block's (L2172); a mechanic of
  :data:`~sim.systems.mb41.talent_edits.PASSIVE` applies whenever its condition
  holds and counts no uses down;
* **cost**: ``cost`` overcharge of the role ``cost_stat`` names (a monster: its
  single pool, L1892); nothing for a minion (L2172) nor for a passive mechanic;
  a bond-paid talent (Hate the World) spends a bond rank, no overcharge;
* **numbers**: the mechanic's parameters (``mechanic``), Minion Creation's
  per-turn cap set by the compiler (the monster's spread, L1985).

Each carries where it comes from (``*_from``): ``seed`` (the row's own text: 4.1,
seed 000, or for the draft's rows the draft, seed 001), ``draft`` (the 4.1 line is
lost; the number is the draft's, seed 001), ``ruling`` (the text is silent or only
suggests a number: the simulator's reading, with the audit's ids), ``compiler``
(the compiler sets it from the scenario) or ``rules`` (a rule option sets it).
"""
from __future__ import annotations

import re

_SCENE = re.compile(r"(\d+)\s*/\s*scene", re.I)
_EPISODE = re.compile(r"(\d+)\s*/\s*episode", re.I)
_ROUND = re.compile(r"once (per|a) round|one a round|1\s*/\s*round", re.I)
_MINION_GROUPS = ("minion",)
_ROLES = ("attack", "defence", "support")


def _stated(text: str) -> tuple[int | None, int | None, bool]:
    """(per scene, per episode, once a round) the uses text states; parentheses (the book's
    imps' own stat block) aside."""
    text = re.sub(r"\([^)]*\)", "", text or "")
    s, e = _SCENE.search(text), _EPISODE.search(text)
    return (int(s.group(1)) if s else None, int(e.group(1)) if e else None, bool(_ROUND.search(text)))


def _notes(row) -> str:
    return " ".join(str(getattr(row, f, None) or "") for f in ("action_note", "cost_note", "notes", "fight_note"))


def _once_a_round(row) -> bool:
    """The kernel plays it at most once a round: Reflector (after her first Major of the turn,
    :func:`.talents.defence.give_reflector`), Sprint without ``any_round`` (:func:`.hex_movement.sprint`),
    the draft's Hex (:func:`.talents.draft.try_hex`)."""
    m = row.mechanic or {}
    return m.get("code") in ("reflector", "hex") or (m.get("code") == "sprint" and not m.get("any_round"))


def _uses(row, passive: bool) -> tuple[str, str, str]:
    """(uses played, from, why) of a simulated row."""
    scene, episode = row.uses_per_scene, row.uses_per_episode
    per_round = _once_a_round(row)
    if getattr(row, "group", "") in _MINION_GROUPS:
        return "its stat block's (a minion's uses are fixed there, L2172)", "seed", ""
    if passive and not per_round:
        return "no limit (it applies whenever its condition holds)", "seed", ""
    played = (f"{scene}/scene" if scene is not None else f"{episode}/episode" if episode is not None
              else "no limit")
    if per_round:
        played = "once a round" if played == "no limit" else f"{played}, once a round"
    s, e, r = _stated(row.uses)
    r = r or bool(_ROUND.search(row.effect or ""))
    aside = "; ".join(re.findall(r"\(([^)]*)\)", row.uses or ""))  # the book's imps' stat block...
    if (s, e) == (scene, episode) and bool(per_round) == r:
        return played, "seed", "; ".join(x for x in ("" if s or e or r else "no limit stated", aside) if x)
    if "draft" in _notes(row).casefold() and (s, e) == (None, None):
        return played, "draft", f"the 4.1 text: {row.uses!r}"
    return played, "ruling", f"the text: {row.uses!r}"


def _cost(row, passive: bool, system: str) -> tuple[str, str]:
    """(cost played, from) of a simulated row."""
    cost, stat = row.cost or 0, row.cost_stat
    if getattr(row, "group", "") in _MINION_GROUPS:
        return "none (minions pay no overcharge, L2172)", "seed"
    if not cost:
        return "none", "seed"
    if passive:
        return f"none (the text's {cost} {stat} is never paid: it applies whenever its condition holds)", "ruling"
    if stat == "bond":
        return f"{cost} bond rank{'s' if cost > 1 else ''} (no overcharge)", "seed"
    if stat == "pool":
        return f"{cost} from the monster's pool (L1892)", "seed"
    if stat == "rolled":
        return f"{cost} overcharge on the attribute rolled", "seed"
    src = "draft" if "draft" in (getattr(row, "cost_note", "") or "").casefold() and system == "mb41" else "seed"
    return f"{cost} {stat} overcharge" if stat in _ROLES else f"{cost} {stat}", src


def simulated_as(row, system: str = "mb41") -> dict | None:
    """What the engine plays for catalog ``row`` (a 4.1 or draft row), or None when it is
    not simulated; see the module docstring. Keys: ``uses``, ``uses_from``, ``uses_note``,
    ``cost``, ``cost_from``, ``numbers`` (parameter -> value), ``numbers_from``,
    ``audit_ids`` and, for a battlefield feature, ``set_in``."""
    if not row.simulated:
        return None
    from sim.systems.mb41.talent_edits import PASSIVE, SET_BY_COMPILER
    from sim.systems.mb41.talents import LABYRINTH_MECHANICS

    ids = list(getattr(row, "ambiguity", []) or [])
    if row.name == "Boost":
        return {"uses": "3/scene", "uses_from": "seed", "uses_note": "rule boost_uses",
                "cost": "1 overcharge on the attribute rolled", "cost_from": "seed",
                "numbers": {"extra_dice": 1, "damage": 2}, "numbers_from": "seed", "audit_ids": ids}
    code = (row.mechanic or {}).get("code", "")
    if code in LABYRINTH_MECHANICS:
        return {"uses": "every round, as the feature says", "uses_from": "seed", "uses_note": "",
                "cost": "none", "cost_from": "seed", "numbers": {}, "numbers_from": "seed",
                "audit_ids": ids, "set_in": LABYRINTH_MECHANICS[code]}
    passive = code in PASSIVE
    uses, uses_from, uses_note = _uses(row, passive)
    cost, cost_from = _cost(row, passive, system)
    numbers = {k: v for k, v in row.mechanic.items() if k != "code"}
    numbers_from = "seed"
    for p, who in SET_BY_COMPILER.get(code, {}).items():
        numbers[p] = who
        numbers_from = "compiler"
    return {"mechanic": code, "uses": uses, "uses_from": uses_from, "uses_note": uses_note, "cost": cost,
            "cost_from": cost_from, "numbers": numbers, "numbers_from": numbers_from, "audit_ids": ids}


def line(sim: dict, system: str = "mb41") -> str:
    """``sim catalog``'s line for a simulated row: what is played and where each number comes from."""
    seed = "seed 001" if system == "mb-draft" else "seed 000"
    label = {"seed": seed, "draft": "the draft, seed 001", "ruling": "our ruling", "compiler": "the compiler",
             "rules": "a rule option"}
    uses = f"uses {sim['uses']} ({label[sim['uses_from']]}" + (f"; {sim['uses_note']}" if sim["uses_note"] else "") + ")"
    cost = f"cost {sim['cost']} ({label[sim['cost_from']]})"
    nums = ", ".join(f"{k} {_shown(v)}" for k, v in sim["numbers"].items())
    parts = [uses, cost]
    if nums:
        parts.append(f"{sim.get('mechanic') or 'numbers'}: {nums} ({label[sim['numbers_from']]})")
    if sim.get("set_in"):
        parts.append(f"set in {sim['set_in']}")
    if sim["audit_ids"]:
        parts.append("audit ids " + ", ".join(sim["audit_ids"]))
    return "simulated: " + "; ".join(parts)


def _shown(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(map(str, v)) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_shown(x)}" for k, x in v.items()) + "}"
    return str(v)
