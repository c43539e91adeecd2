"""Scenario schema of the d10 add-on (``system: d10``), pydantic v2.

Every combatant (girl, monster girl, dark magical girl: enemies are built the
same way, D27) has the five abilities (L15), an attack kind (melee = STR,
ranged = AGI, mystic weapon or specialization = MAG, L75), a preferred
defence, an outfit DR (default: rule ``default_dr``, D10), whether the
weapon is a Magic Weapon (default yes; ``magic_weapon: false`` for a Mundane
Weapon), powers and perks from the catalog, and a policy (a preset plus
overrides).
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator, model_validator

from sim.scenario.base import ScenarioHeader, StrictModel
from sim.scenario.suggest import unknown_name_message

from . import catalog
from .catalog import edits as catalog_edits
from .policies import DEFENCES, ESCAPE, FORTUNE, GRAPPLE, PRESETS, RECHARGE, TARGETS
from .rules import RULES

ABILITIES = ("strength", "agility", "vitality", "magic", "luck")
Score = Field(ge=0, le=40)


class Abilities(StrictModel):
    strength: int = Score
    agility: int = Score
    vitality: int = Field(ge=1, le=40)
    magic: int = Score
    luck: int = Score


def _check(kind: str, value: str, known) -> str:
    if value not in known:
        raise ValueError(unknown_name_message(kind, value, list(known)))
    return value


class Policy(StrictModel):
    """How a combatant fights; see :mod:`sim.systems.d10.policies`."""

    preset: str = "balanced"
    target: str
    defence: str
    mana_per_attack: int = Field(ge=0, le=20)
    save_mana: bool
    killing_blow: bool
    focused_assault: bool
    barrage: bool
    fortune: str
    recharge: str
    recharge_below: int = Field(ge=0, le=100)
    retreat_at: int = Field(ge=0, le=3)
    hide_at: int = Field(ge=0, le=3)
    heal_at: int = Field(ge=0, le=3)
    aid: bool
    pursue: bool
    targets: int = Field(ge=1, le=16)
    stunt: float = Field(ge=0, le=2)
    grapple: str
    escape: str
    blood_magic: bool
    hammerspace: bool
    duplicate: bool
    recast_held: bool
    #: the parameters the file sets itself (not from the preset), for :func:`ineffective_settings`
    _given: frozenset = PrivateAttr(default=frozenset())

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any):
        if data is None:
            data = {}
        if isinstance(data, str):
            data = {"preset": data}
        if not isinstance(data, dict):
            return data
        name = data.get("preset", "balanced")
        if name not in PRESETS:
            raise ValueError(unknown_name_message("policy preset", name, list(PRESETS)))
        if "recharge_below" in data and "recharge" not in data:
            # a file that sets the old threshold keeps its meaning (recharge: threshold)
            data = {**data, "recharge": "threshold"}
        return {**PRESETS[name], **data, "preset": name}

    @model_validator(mode="wrap")
    @classmethod
    def _remember_given(cls, data: Any, handler):
        """Runs before ``_preset`` (wrap validators defined later run first): notes the
        keys the file gives, so a setting with no effect can be refused."""
        given = frozenset(data) if isinstance(data, dict) else frozenset()
        model = handler(data)
        if given:
            model._given = given - {"preset"}
        return model

    @field_validator("target")
    @classmethod
    def _t(cls, v):
        return _check("targeting", v, TARGETS)

    @field_validator("defence")
    @classmethod
    def _d(cls, v):
        return _check("defence", v, DEFENCES)

    @field_validator("fortune")
    @classmethod
    def _f(cls, v):
        return _check("fortune use", v, FORTUNE)

    @field_validator("grapple")
    @classmethod
    def _g(cls, v):
        return _check("grapple mode", v, GRAPPLE)

    @field_validator("escape", mode="before")
    @classmethod
    def _e(cls, v):
        if isinstance(v, bool):  # the old flag: true = always, false = never
            return "always" if v else "never"
        if not isinstance(v, str):
            raise ValueError(f"escape must be one of {', '.join(ESCAPE)} (or true = always, false = never), "
                             f"not {v!r}")
        return _check("escape policy", v, ESCAPE)

    @field_validator("recharge", mode="before")
    @classmethod
    def _r(cls, v):
        if not isinstance(v, str):
            raise ValueError(f"recharge must be one of {', '.join(RECHARGE)}, not {v!r}")
        return _check("recharge policy", v, RECHARGE)


class Specialization(StrictModel):
    """How a specialization attack works (L79, D13): ``damage`` uses the wound
    formula; ``penalty`` imposes -penalty dice until the target pulls free."""

    effect: Literal["damage", "penalty"] = "damage"
    area: bool = False
    penalty: int = Field(2, ge=2, le=4)
    allies_caught: int = Field(0, ge=0, le=16)


class FamiliarSpec(StrictModel):
    perk: Literal["bestial_combat", "perfect_assistant", "illusion_piercer"] = "bestial_combat"
    policy: Policy = Policy()


class Member(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    kind: Literal["girl", "monster_girl", "dark_magical_girl"] = "girl"
    abilities: Abilities
    attack_kind: Literal["melee", "ranged", "mystic", "specialization"] = "melee"
    second_form: Literal["melee", "ranged", "mystic"] | None = None
    #: her weapon is her Magic Weapon, whatever its form (seed 002 L569-571: Martial
    #: Training "with your Magic Weapon, or a Mundane Weapon"); Barrage needs a Magic
    #: Weapon or a Specialization use (L507-511). false = a Mundane Weapon
    magic_weapon: bool = True
    defence: str | None = None
    outfit_dr: int | None = Field(None, ge=0, le=20)
    powers: list[str] = Field(default_factory=list, max_length=20)
    perks: list[str] = Field(default_factory=list, max_length=20)
    specialization: Specialization = Specialization()
    familiar: FamiliarSpec | None = None
    duplicates: int = Field(2, ge=0, le=6)
    policy: Policy = Policy()

    @field_validator("defence")
    @classmethod
    def _d(cls, v):
        return v if v is None else _check("defence", v, DEFENCES)

    @field_validator("powers")
    @classmethod
    def _powers(cls, v):
        return _catalog_names(v, "power")

    @field_validator("perks")
    @classmethod
    def _perks(cls, v):
        return _catalog_names(v, "perk")

    @model_validator(mode="after")
    def _familiar(self):
        if self.familiar is not None and not catalog.has_code(self.powers, "familiar"):
            raise ValueError("'familiar:' needs the power Familiar (L155)")
        return self

    @model_validator(mode="after")
    def _dual_weapon(self):
        """Dual Weapon (L181): the weapon's other form, switched to for free."""
        dual = catalog.has_code(self.perks, "dual_weapon")
        if self.second_form is not None and not dual:
            raise ValueError("'second_form' needs the perk Dual Weapon (L181: without it switching the "
                             "weapon's form costs the action)")
        if dual:
            if self.second_form is None:
                raise ValueError("the perk Dual Weapon needs 'second_form': the weapon's other form "
                                 "(melee, ranged or mystic)")
            if self.attack_kind == "specialization":
                raise ValueError("Dual Weapon switches a weapon's form: attack_kind must be melee, ranged "
                                 "or mystic, not specialization")
            if self.second_form == self.attack_kind:
                raise ValueError(f"second_form '{self.second_form}' is the same as attack_kind")
        return self

    def effective_policy(self) -> Policy:
        if self.defence is None:
            return self.policy
        return self.policy.model_copy(update={"defence": self.defence})

    @model_validator(mode="after")
    def _settings_that_act(self):
        """Issue 35: a policy parameter the file sets that could never act is refused, not ignored."""
        p, given = self.policy, self.policy._given
        if "grapple" in given and p.grapple != "never" and not catalog.has_code(self.powers, "tentacles"):
            raise ValueError(f"{self.name}: policy grapple: {p.grapple} needs the power Tentacles (L175)")
        if "recast_held" in given and p.recast_held and not self.casts_penalty():
            raise ValueError(f"{self.name}: policy recast_held: true needs a penalty specialization "
                             "(attack_kind: specialization, specialization: {effect: penalty}, L79)")
        return self

    def casts_penalty(self) -> bool:
        """Her attack is a penalty specialization use (L79)."""
        return self.attack_kind == "specialization" and self.specialization.effect == "penalty"


def _catalog_names(v: list[str], kind: str) -> list[str]:
    known = catalog.names(kind)
    sim = set(catalog.simulated_names())
    for name in v:
        if name not in known:
            raise ValueError(unknown_name_message(kind, name, known))
        if name not in sim:
            raise ValueError(f"{kind} '{name}' is in the catalog but has no fight effect in the simulator "
                             f"(simulated: false; see `sim catalog d10`)")
    if len(set(v)) != len(v):
        raise ValueError(f"a {kind} is listed twice")
    return v


class Side(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    members: list[Member] = Field(min_length=1, max_length=16)


class Scenario(ScenarioHeader):
    """One variant of a d10 scenario."""

    system: Literal["d10"] = "d10"
    rules: dict[str, Any] = Field(default_factory=dict)
    #: catalog powers and perks with other numbers, and new ones (:mod:`.catalog.edits`)
    powers: dict[str, Any] | None = None
    sides: list[Side] = Field(min_length=2, max_length=2)

    @model_validator(mode="wrap")
    @classmethod
    def _power_block(cls, data: Any, handler):
        """Validate the ``powers:`` block first: its rows are the catalog the members read."""
        block = data.get("powers") if isinstance(data, dict) else None
        with catalog_edits.use(None if block is None else catalog_edits.build(block)):
            return handler(data)

    def power_catalog(self):
        """The :class:`~.catalog.edits.PowerCatalog` of the ``powers:`` block (None without one)."""
        return catalog_edits.build(self.powers) if self.powers else None

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: dict) -> dict:
        RULES.resolve(v)
        return v

    @model_validator(mode="after")
    def _unique_names(self):
        seen = set()
        for side in self.sides:
            for m in side.members:
                if m.name in seen:
                    raise ValueError(f"two combatants are named '{m.name}'; names must be unique")
                seen.add(m.name)
        if self.sides[0].name == self.sides[1].name:
            raise ValueError(f"both sides are named '{self.sides[0].name}'")
        return self

    @model_validator(mode="after")
    def _settings_that_act(self):
        """Issue 35: policy ``recast_held: true`` could not act under rule ``recast: forbid``."""
        if self.resolved_rules()["recast"] == "forbid":
            for side in self.sides:
                for m in side.members:
                    if m.policy.recast_held and "recast_held" in m.policy._given:
                        raise ValueError(f"{m.name}: policy recast_held: true does nothing under rule recast: "
                                         "forbid (a spell is never aimed at a held target)")
        return self

    def resolved_rules(self) -> dict:
        return RULES.resolve(self.rules)
