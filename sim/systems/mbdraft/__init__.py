"""Magical Burst, the earlier draft (seed 001), as a second ruleset on the 4.1 engine.

The draft's basic combat (DRAFT L474-522, audit section 3) differs from 4.1
in numbers and readings, all of them options of the shared rule table:

* damage +2 per point of overcharge incurred on the attack roll (sixes and
  boosts) and nothing off for the defender's sixes (``defender_six_damage: 0``);
* any defender may take a passive defence of Defence + 4 instead of rolling
  (``passive_defence: 4``; a policy's ``passive_defence: true`` uses it);
* revive is a Major action on her next turn, thresholds 13 or less / 14-16 /
  17+ (``revive_timing: next_turn``, ``revive_bands: [13, 16]``);
* the third magical stat is Magic (``magic:`` is read as 4.1's Judgment).

Talents come from the draft's own catalog (:mod:`.catalog`, ``sim catalog
mb-draft``) with the draft's numbers: Inflict 1/Scene, Shield on Support at
most 3 points a hit, Power Dampening 1/Scene on an ally, Hate the World +2
or 1d6, Purge, and the draft's own Hex, Evasion, Regeneration, Magic
Detonation, Second Chance Attack, Hamstring, Empower and Rouse (Excited and
Calm, never defined in the seed, are the rule options ``excited_bonus``,
``calm_bonus`` and ``mood_status``). Monsters, minions and witches use the
4.1 catalog's rows (the draft has no adversary rules).

Positions instead of hexes (DRAFT L474-510): with ``rules: {positions: N}``
(N > 0) the fight plays on the draft's Battlefield map, read as a line of N
positions (the shape is not stated; :mod:`sim.systems.mb41.positions` has
the rules and the turn): melee reaches the same position (range 0), ranged
1-2 positions (L480-484); Movement is a Minor action of 1 position, not out
of a position an enemy holds (L502-504); Disengage, a Major, moves 1
position anyway (L496-498); Reckless Movement (2d6! + Support: 17+ moves,
14-16 moves and takes 2, 13 or less stays, L508-510) leaves an enemy's
position or a rough one (``rough_positions``) without Disengage or 2
positions of movement; Cover by someone in the target's position (L490-492).
A member's ``position: 2`` (1-based, like the book's "Position 1") sets where
she starts; otherwise the first side starts at position 1 and the second at
the far end (``position_gap``). ``positions: 0`` (the default) keeps the
fight gridless, as in ``grid: none``, bit for bit. The talents that move
people (Sprint, Bypass, Teleport, Dash Strike, Get Over Here, Guardian,
Defensive Switch, Safe Place, Get Back, Let's Move, Blast Strike) play on
positions (:mod:`sim.systems.mb41.positions`); other talents' own ranges
still ignore positions.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from sim.ruleset import Ruleset
from sim.systems.mbdraft import catalog as draft_catalog
from sim.systems.mb41 import compile as _compile41  # the function (it shadows its module)
from sim.systems.mb41 import TRIALS_CHUNK, report_charts, report_page, simulate, summarize, tier2_compiled, tier2_key, trials, warmup  # noqa: F401,E501 - plug-in entry points
from sim.systems.mb41.rules import RULES as RULES_41
from sim.systems.mb41.schema import Scenario as Scenario41

NAME = "mb-draft"
#: ``sim warmup``: the draft's positions and its duel (the 4.1 engine's :func:`warmup` first)
WARMUP_SCENARIOS = ("mb-draft/positions-draft.yaml", "mb-draft/duel-basic-draft.yaml")
TITLE = "Magical Burst (earlier draft)"

#: where the draft's defaults differ from 4.1's, with the draft's source
DRAFT_DEFAULTS = {
    "defender_six_damage": (0, "DRAFT L486: +2 per overcharge incurred on the attack roll; nothing for the defender"),
    "passive_defence": (4, "DRAFT L486: a passive defence of Defense+4 without rolling"),
    "revive_timing": ("next_turn", "DRAFT L512-516: a Major action on her next turn"),
    "revive_bands": ([13, 16], "DRAFT L514-516: 13 or less / 14-16 / 17+"),
    "removal_bands": ([13, 16], "DRAFT L518-522: Status Recovery 14-16 one, 17+ all"),
    "reckless_bands": ([13, 16], "DRAFT L510: 13 or less she stays, 14-16 moves with 2 damage, 17+ moves"),
    "reckless_damage": ([0, 2], "DRAFT L510: no damage when she fails to move, 2 on a 14-16"),
    "intercept_bands": ([13, 16], "DRAFT L492 (Cover): 14-16 she takes the damage, 17+ half and they none"),
}

RULES = Ruleset(
    system="mb-draft",
    options=[
        replace(o, default=DRAFT_DEFAULTS[o.name][0], note=f"{o.note} [draft default: {DRAFT_DEFAULTS[o.name][1]}]")
        if o.name in DRAFT_DEFAULTS else
        replace(o, available=("none",), note="battlefield: 'none' only; the draft's map of positions "
                "(DRAFT L474-510) is the rule 'positions'") if o.name == "grid" else o
        for o in RULES_41.options
    ],
)


def _magic_to_judgment(member: Any) -> Any:
    if not isinstance(member, dict):
        return member
    m = dict(member)
    if "position" in m:  # the draft's starting position (1-based), not a hex cell
        p = m.pop("position")
        if p is not None and (isinstance(p, bool) or not isinstance(p, int)):
            raise ValueError(f"position: the draft's starting position is a number (1 = 'Position 1', up to "
                             f"rules.positions), got {p!r}; hex cells are 4.1's (system: mb41)")
        m["place"] = p
    if "magic" in m:
        if "judgment" in m:
            raise ValueError("give 'magic' (the draft's name) or 'judgment', not both")
        m["judgment"] = m.pop("magic")
    roles = m.get("roles")
    if isinstance(roles, dict):
        m["roles"] = {k: ("judgment" if v == "magic" else v) for k, v in roles.items()}
    if isinstance(m.get("overcharge"), dict) and "magic" in m["overcharge"]:
        oc = dict(m["overcharge"])
        oc["judgment"] = oc.pop("magic")
        m["overcharge"] = oc
    return m


class Scenario(Scenario41):
    """One variant of an mb-draft scenario (the 4.1 schema with the draft's rules
    and the draft's talent catalog)."""

    system: Literal["mb-draft"] = "mb-draft"  # type: ignore[assignment]
    rules: dict[str, Any] = Field(default_factory=dict)
    #: members' talents (and a ``talents:`` block's edits) are the draft's
    CATALOG: ClassVar[Any] = draft_catalog

    @model_validator(mode="before")
    @classmethod
    def _draft_stats(cls, data: Any):
        if isinstance(data, dict) and isinstance(data.get("sides"), list):
            data = dict(data)
            data["sides"] = [
                dict(side, members=[_magic_to_judgment(m) for m in side["members"]])
                if isinstance(side, dict) and isinstance(side.get("members"), list) else side
                for side in data["sides"]
            ]
        ep = data.get("episode") if isinstance(data, dict) else None
        if isinstance(ep, dict) and isinstance(ep.get("scenes"), list):  # an episode's enemies too
            scenes = []
            for sc in ep["scenes"]:
                en = sc.get("enemies") if isinstance(sc, dict) else None
                if isinstance(en, dict) and isinstance(en.get("members"), list):
                    sc = dict(sc, enemies=dict(en, members=[_magic_to_judgment(m) for m in en["members"]]))
                scenes.append(sc)
            data = dict(data, episode=dict(ep, scenes=scenes))
        return data

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: dict) -> dict:
        RULES.resolve(v)
        return v

    def resolved_rules(self) -> dict:
        return RULES.resolve(self.rules)

    @model_validator(mode="after")
    def _no_battlefield(self):
        if self.battlefield is not None:
            raise ValueError("battlefield: the draft fights on positions, not hexes (DRAFT L474-498): set "
                             "rules.positions (e.g. 4) and members' position: 1..positions; use system: mb41 "
                             "for the hex grid")
        return self


SCENARIO_MODEL = Scenario
#: top-level fields a variant's ``set:`` path may start with (``talents.Heal.bonus: 2``)
VARIANT_FIELDS = ("talents",)


def compile(scenario: Scenario):  # noqa: A001 - the plug-in entry point's name
    """The 4.1 compiler, reading the draft's talent rows: the draft's rule
    table has the same layout."""
    with draft_catalog.active():
        return _compile41(scenario)


def play(scenario_model, seed, trial: int = 0, as_json: bool = False, index: int = 0) -> str:
    """``sim play``: the 4.1 engine's log (:mod:`sim.systems.mb41.fight_log`) of the scenario
    compiled as the draft (its catalog: the draft's talents and numbers)."""
    from sim.systems.mb41.fight_log import play_log

    return play_log(scenario_model, seed, trial, as_json, index, compile=compile)


def catalog_rows() -> list[dict]:
    """``sim catalog mb-draft``: the draft's talents with their numbers and
    whether they are simulated (its adversaries are the 4.1 catalog's)."""
    return draft_catalog.catalog_rows()
