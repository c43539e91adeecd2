"""Talent mechanics: how catalog rows become kernel numbers.

A catalog row that the kernel plays has ``simulated: true`` and a
``mechanic: {code: <name>, ...params}``. A new talent that reuses a mechanic
is a new YAML row; only a genuinely new mechanic adds a code here and a
branch in the kernel (``sim/systems/mb41/kernel.py``, ``E_*`` constants).

Each combatant has :data:`kernel.MAXT` talent slots in ``comb``: effect
code, overcharge cost, the magical stat that pays it (the stat filling the
cost's role, seed 000 L149), uses per scene (-1 unlimited) and two
parameters.

Mechanics (seed 000 lines from the catalog rows):

* ``heal`` (Heal, L1602): a Minor action, restore ``dice``d6 + ``bonus``
  Resolve to herself or an ally (the policy's ``heal_below`` picks who and when);
* ``inflict`` (Inflict, L1607): a free action after a successful basic
  attack: Stun, Bound or Bleed on the target (the policy's ``inflict`` order);
* ``bonus_action`` (Bonus Action, L1579): a free action on her turn: one
  more Major action (a basic attack).
"""
from __future__ import annotations

from . import catalog
from . import kernel as K

#: mechanic name -> (kernel effect code, parameter names for P1, P2)
MECHANICS = {
    "heal": (K.E_HEAL, ("dice", "bonus")),
    "inflict": (K.E_INFLICT, ()),
    "bonus_action": (K.E_BONUS_ACTION, ("actions",)),
}

_ROLE_INDEX = {"attack": 0, "defence": 1, "support": 2}


def fill_slots(row, talents: list[str], role_stat: dict[str, int]) -> None:
    """Write the talent slots of one combatant's ``comb`` row.

    ``talents``: canonical catalog names (Boost excluded: it has its own
    columns); ``role_stat``: role -> magical stat index (0 heart, 1 fury, 2 judgment).
    """
    slots = [t for t in talents if t != "Boost"]
    if len(slots) > K.MAXT:
        raise ValueError(f"at most {K.MAXT} talents besides Boost per combatant")
    for s in range(K.MAXT):
        row[K.C_TCODE + s] = 0
    row[K.C_TMASK] = 0
    for s, name in enumerate(slots):
        r = catalog.lookup(name)
        if r is None or not r.simulated or not r.mechanic:
            raise ValueError(f"talent {name!r} is not simulated")
        code, params = MECHANICS[r.mechanic["code"]]
        row[K.C_TCODE + s] = code
        row[K.C_TMASK] |= 1 << code
        row[K.C_TCOST + s] = r.cost or 0
        role = r.cost_stat if r.cost_stat in _ROLE_INDEX else "support"
        row[K.C_TROLE + s] = role_stat[role]
        row[K.C_TUSES + s] = -1 if r.uses_per_scene is None else r.uses_per_scene
        for k, p in enumerate(params[:2]):
            row[(K.C_TP1 if k == 0 else K.C_TP2) + s] = int(r.mechanic.get(p, 0))


def check_catalog() -> None:
    """Every simulated row names a known mechanic (tests call this)."""
    for r in catalog.rows():
        if r.simulated and r.name != "Boost":
            if not r.mechanic or r.mechanic.get("code") not in MECHANICS:
                raise ValueError(f"catalog row {r.name!r} is simulated but has no known mechanic")
