"""Scenario schema of Magical Burst 4.1 (``system: mb41``), pydantic v2.

A member is a magical girl (default) or a monster. Stats come either by role
(``attack``, ``defence``, ``support``) or as Heart/Fury/Judgment with a role
map (``roles: {attack: fury, defence: heart, support: judgment}``), as in
seed 000 L143. Overcharge is kept per magical stat (L149), so a girl given
by role still needs to know which stat fills which role: ``roles`` defaults
to attack=fury, defence=heart, support=judgment.

Monsters need attack, defence and support (RULINGS A28) and either
``resolve`` or ``spread`` with ``power_level`` (Resolve = spread x table).

Minions (L2170-2174) have ``hp`` (default 4), a ``passive_defence`` (default
4) and one number for attack and support (``attack``); ``template:`` takes
the stats of one of the book's example minions (``Maintenance imps``,
``Spider nanny``). ``count: N`` fields N copies of any member, named
"<name> 1".."<name> N".

On the hex grid (``rules: {grid: hex}``, implied by a ``battlefield:``
block) a member may stand at ``position: [col, row]`` (``[q, r]`` on a
hexagon); the others are placed by their side's ``formation`` (see
:mod:`.deploy`).
"""
from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from sim.scenario.base import ScenarioHeader, StrictModel
from sim.scenario.suggest import unknown_name_message

from . import catalog, talent_edits, talents
from .policies import BOOSTS, MOVES, PRESETS, TARGETS, parse_boost, parse_intercept, preset_fields
from .rules import RULES

STATS = ("heart", "fury", "judgment")
MAX_BONDS = 12                  # 12 points, each bond at least 1 (L117-121); kernel.MAXB
DEFAULT_BONDS = (3, 3, 3, 3)    # 12 points at creation (L1848) as four bonds of 3
ROLES = ("attack", "defence", "support")
DEFAULT_ROLES = {"attack": "fury", "defence": "heart", "support": "judgment"}

Stat = Field(default=None, ge=0, le=30)


class Policy(StrictModel):
    """How a combatant fights; see :mod:`sim.systems.mb41.policies`.

    ``overcharge_cap`` None means one below the ruleset's ``burst_at``
    (12 by default): never take optional overcharge into a burst.
    """

    preset: str | None = None
    name: str = "focus-weakest"
    boost: str = "when-losing"
    boost_margin: int = Field(4, ge=0, le=60)
    overcharge_cap: int | None = Field(None, ge=0, le=1000)
    finish_downed: bool = False
    passive_defence: bool = False
    heal_below: int = Field(50, ge=0, le=100)
    inflict: Literal["stun", "bound", "bleed"] = "stun"
    shield_above: int = Field(5, ge=0, le=1000)
    scream_min: int = Field(3, ge=1, le=20)
    area_min: int = Field(2, ge=1, le=20)
    all_or_nothing: int = Field(6, ge=0, le=12)
    movement: str = "auto"
    intercept: str = "never"
    reckless: bool = False
    sorcery: Literal["never", "minor", "major", "whole-turn"] = "never"

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any):
        if isinstance(data, str):
            if data in TARGETS:
                return {"name": data}
            if data not in PRESETS:
                raise ValueError(unknown_name_message("policy", data, list(TARGETS) + list(PRESETS)))
            data = {"preset": data}
        if isinstance(data, dict) and isinstance(data.get("boost"), str):
            mode, margin = parse_boost(data["boost"])
            if margin is not None:
                data = dict(data, boost=mode)
                data.setdefault("boost_margin", margin)
        if isinstance(data, dict) and data.get("preset") is not None:
            # the preset fills what the member does not set herself
            p = data["preset"]
            if p not in PRESETS:
                raise ValueError(unknown_name_message("policy preset", p, list(PRESETS)))
            data = {**preset_fields(p), **data}
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if v not in TARGETS:
            raise ValueError(unknown_name_message("policy", v, list(TARGETS)))
        return v

    @field_validator("boost")
    @classmethod
    def _boost(cls, v: str) -> str:
        if v not in BOOSTS:
            raise ValueError(unknown_name_message("boost mode", v, list(BOOSTS) + ["when-losing-by K"]))
        return v

    @field_validator("movement")
    @classmethod
    def _movement(cls, v: str) -> str:
        if v not in MOVES:
            raise ValueError(unknown_name_message("movement", v, list(MOVES)))
        return v

    @field_validator("intercept")
    @classmethod
    def _intercept(cls, v: str) -> str:
        parse_intercept(v)  # raises with the accepted forms
        return v


class Roles(StrictModel):
    attack: Literal["heart", "fury", "judgment"]
    defence: Literal["heart", "fury", "judgment"]
    support: Literal["heart", "fury", "judgment"]

    @model_validator(mode="after")
    def _permutation(self):
        if len({self.attack, self.defence, self.support}) != 3:
            raise ValueError("roles must give each of heart, fury and judgment exactly one role (L143)")
        return self


class Overcharge(StrictModel):
    heart: int = Field(0, ge=0, le=100)
    fury: int = Field(0, ge=0, le=100)
    judgment: int = Field(0, ge=0, le=100)


Cell = tuple[int, int]


Exempt = Literal["none", "owner", "side"]


class AlternatingDamageSpec(StrictModel):
    """Alternating Damage (L2128-2130): at the end of round r the sections of
    set ((r - 1) mod k) + 1 deal ``damage`` to everyone in them; ``exempt``:
    nobody, the labyrinth's owner or the owner's whole side."""

    damage: int = Field(3, ge=0, le=50)
    sets: list[list[Cell]] = Field(min_length=1, max_length=12)
    exempt: Exempt = "none"


class CurrentSpec(StrictModel):
    """Current (L2132-2133): at the end of each round everyone moves 1 hex in
    ``direction`` (E, NE, NW, W, SW, SE) or ``toward`` a hex (``[col, row]``)
    or ``toward: owner`` (the current moves with the monster)."""

    direction: Literal["E", "NE", "NW", "W", "SW", "SE"] | None = None
    toward: Cell | Literal["owner"] | None = None
    exempt: Exempt = "none"

    @model_validator(mode="after")
    def _one(self):
        if (self.direction is None) == (self.toward is None):
            raise ValueError("battlefield.labyrinth.current needs exactly one of 'direction' or 'toward'")
        return self


class EscherDoorsSpec(StrictModel):
    """Escher Doors (L2135-2137): ``pairs`` of door hexes; entering one is a
    Minor action, 1d6: below ``choose_on`` (6) the paired door, else a door of
    her choice."""

    pairs: list[tuple[Cell, Cell]] = Field(min_length=1, max_length=30)
    choose_on: int = Field(6, ge=1, le=7)


class PendulumSpec(StrictModel):
    """Pendulum (L2143-2144): a ``trajectory`` of hexes (adjacent in order),
    ``length`` hexes long, swinging its length along it each round (rule
    ``pendulum_moves``); attacks a random character in its hexes with the
    owner's Attack, ``damage_dice`` d6 on a hit; the hexes it enters become rough."""

    trajectory: list[Cell] = Field(min_length=2, max_length=60)
    length: int = Field(1, ge=1, le=10)
    damage_dice: int = Field(1, ge=1, le=5)
    exempt: Exempt = "none"

    @model_validator(mode="after")
    def _len(self):
        if self.length > len(self.trajectory):
            raise ValueError(f"battlefield.labyrinth.pendulum.length {self.length} is longer than its trajectory "
                             f"({len(self.trajectory)} hexes)")
        return self


class LabyrinthSpec(StrictModel):
    """Labyrinth features of the battlefield (seed 000 L2126-2166); Wraparound
    is the battlefield's ``wrap``. ``owner``: the monster whose labyrinth it is
    (exemptions, the Pendulum's Attack, ``toward: owner``); default the first
    monster (not a minion) of the second side."""

    owner: str | None = None
    alternating_damage: AlternatingDamageSpec | None = None
    current: CurrentSpec | None = None
    escher_doors: EscherDoorsSpec | None = None
    pendulum: PendulumSpec | None = None
    perilous: list[Cell] = Field(default_factory=list)


class BattlefieldSpec(StrictModel):
    """The hex battlefield (seed 000 L1406): ``rect`` (``width`` x ``height``,
    default 8 x 8, cells ``[col, row]``) or ``hexagon`` (``radius``, default 4,
    cells ``[q, r]``); ``wrap`` joins opposite edges (Wraparound, L2166);
    ``obstacles`` block movement and standing, ``rough`` costs two hexes to
    leave (L1414), ``barriers`` block like obstacles (Create Barrier, L1697);
    ``labyrinth`` adds labyrinth features (:class:`LabyrinthSpec`)."""

    shape: Literal["rect", "hexagon"] = "rect"
    width: int | None = Field(None, ge=1, le=60)
    height: int | None = Field(None, ge=1, le=60)
    radius: int | None = Field(None, ge=0, le=30)
    wrap: bool = False
    obstacles: list[Cell] = Field(default_factory=list)
    rough: list[Cell] = Field(default_factory=list)
    barriers: list[Cell] = Field(default_factory=list)
    labyrinth: LabyrinthSpec | None = None

    @model_validator(mode="after")
    def _shape_fields(self):
        if self.shape == "hexagon":
            for f in ("width", "height"):
                if getattr(self, f) is not None:
                    raise ValueError(f"battlefield.{f} is for shape: rect; a hexagon takes 'radius'")
        elif self.radius is not None:
            raise ValueError("battlefield.radius is for shape: hexagon; a rect takes 'width' and 'height'")
        return self


class Creates(StrictModel):
    """Minion Creation (L1981-1985): the minions a monster creates mid-fight.

    ``minion``: an example minion of ``catalog/minions.yaml`` (its stat block
    and talents), else the rule ``minion_creation_default``; ``hp``,
    ``passive_defence``, ``attack`` override its numbers; ``count``: the
    most that can exist (reserve rows; the rule ``minion_creation_count``
    when not given)."""

    minion: str | None = None
    count: int | None = Field(None, ge=1, le=20)
    hp: int | None = Field(None, ge=1, le=100)
    passive_defence: int | None = Field(None, ge=0, le=30)
    attack: int | None = Field(None, ge=0, le=20)

    @field_validator("minion")
    @classmethod
    def _example(cls, v):
        if v is None:
            return v
        examples = [m["name"] for m in catalog.example_minions()]
        if v not in examples:
            raise ValueError(unknown_name_message("minion", v, examples))
        return v


class Member(StrictModel):
    """One combatant."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["girl", "monster", "minion", "witch"] = "girl"
    count: int = Field(1, ge=1, le=20)
    template: str | None = None
    hp: int | None = Field(None, ge=1, le=100)
    passive_defence: int | None = Field(None, ge=0, le=30)
    attack: int | None = Stat
    defence: int | None = Stat
    support: int | None = Stat
    heart: int | None = Stat
    fury: int | None = Stat
    judgment: int | None = Stat
    roles: Roles | None = None
    tenacity: int = Field(2, ge=0, le=10)
    resolve: int | None = Field(None, ge=1, le=10_000)
    attack_kind: Literal["melee", "ranged"] = "melee"
    talents: list[str] = Field(default_factory=list, max_length=40)
    talent_uses: dict[str, int] = Field(default_factory=dict)
    overcharge: Overcharge = Overcharge()
    bonds: list[int] | None = Field(None, max_length=MAX_BONDS)
    spread: int | None = Field(None, ge=1, le=10)
    power_level: int | None = Field(None, ge=2, le=20)
    damage_bonus: int | None = Field(None, ge=-10, le=50)
    overcharge_pool: int | None = Field(None, ge=0, le=1000)
    pool_cap: int | None = Field(None, ge=1, le=1000)
    policy: Policy = Policy()
    position: Cell | None = None
    #: the draft's positions (rule ``positions`` > 0): her starting position, 1-based; an mb-draft
    #: scenario writes it ``position: 2`` (:mod:`sim.systems.mbdraft` moves it here)
    place: int | None = None
    creates: Creates | None = None

    @model_validator(mode="before")
    @classmethod
    def _minion(cls, data: Any):
        """Fill a minion from its template; attack and support are one number (L2172)."""
        if not isinstance(data, dict) or data.get("kind") != "minion":
            if isinstance(data, dict):
                for f in ("template", "hp", "passive_defence"):
                    if data.get(f) is not None:
                        raise ValueError(f"'{f}' is for minions; set kind: minion")
            return data
        data = dict(data)
        if data.get("template") is not None:
            examples = {m["name"]: m for m in catalog.current().example_minions()}
            t = data["template"]
            if t not in examples:
                raise ValueError(unknown_name_message("minion template", t, list(examples)))
            ex = examples[t]
            data.setdefault("hp", ex["hp"])
            data.setdefault("passive_defence", ex["passive_defence"])
            data.setdefault("attack", ex["att_supp"])
            if "talents" not in data:
                # the stat block's talents that the simulator plays, with their fixed uses
                sim = set(catalog.current().simulated_names())
                chosen = [t for t in ex.get("talents", []) if t["name"] in sim]
                data["talents"] = [t["name"] for t in chosen]
                data["talent_uses"] = {**{t["name"]: t["uses_per_scene"] for t in chosen
                                          if t.get("uses_per_scene") is not None},
                                       **(data.get("talent_uses") or {})}
        guide = catalog.current().minions().guidelines
        data.setdefault("hp", guide.hp_suggested)
        data.setdefault("passive_defence", guide.passive_defence_start)
        for f in ("resolve", "heart", "fury", "judgment", "roles", "spread", "power_level", "damage_bonus",
                  "overcharge_pool"):
            if data.get(f) is not None:
                raise ValueError(f"minions have no '{f}' (hp, passive_defence and attack, L2170-2172)")
        if data.get("attack") is None:
            raise ValueError("a minion needs 'attack' (also its support, L2172) or a 'template'")
        if data.get("support") is not None and data["support"] != data["attack"]:
            raise ValueError("minions use the same number for attack and support (L2172); give only 'attack'")
        data["support"] = data["attack"]
        data.setdefault("defence", data["passive_defence"])
        return data

    @field_validator("talents")
    @classmethod
    def _talents(cls, v: list[str]) -> list[str]:
        """Catalog names or aliases (case-insensitive), returned as canonical names."""
        cat = catalog.current()
        known = cat.talent_names()
        out = []
        for name in v:
            row = cat.lookup(name)
            if row is None:
                raise ValueError(unknown_name_message("talent", name, known))
            if row.group == "labyrinth":
                where = talents.LABYRINTH_MECHANICS.get((row.mechanic or {}).get("code"), "battlefield.labyrinth")
                raise ValueError(f"'{row.name}' is a labyrinth feature, not a talent: set it in {where}")
            variants = talents.variant_names(row.name)
            if variants:
                match = [x for x in variants if x.casefold() == name.casefold()]
                if not match:
                    raise ValueError(f"talent '{row.name}' is a choice: write one of {', '.join(variants)}")
                out.append(match[0])
                continue
            out.append(row.name)
        sim = cat.simulated_names()
        for name in out:
            if name not in sim and cat.lookup(name).name not in sim:
                raise ValueError(f"talent '{name}' is in the catalog but not simulated yet "
                                 f"(simulated: {', '.join(sim)}; `sim catalog {cat.SYSTEM}` lists all)")
        return out

    @field_validator("bonds")
    @classmethod
    def _bonds(cls, v):
        """Each bond is rated 1-4 (L117-121); 12 points at creation is advice, not enforced."""
        if v is None:
            return v
        for k, rank in enumerate(v):
            if not 1 <= rank <= 4:
                raise ValueError(f"bonds[{k}] is {rank}: each bond is rated 1 to 4 (L117-121); "
                                 f"a girl starts with 12 points, e.g. bonds: [3, 3, 3, 3]")
        return v

    def bond_ranks(self) -> list[int]:
        """Her bonds' ranks (a girl without ``bonds:`` has four bonds of 3; others none)."""
        if self.kind != "girl":
            return []
        return list(DEFAULT_BONDS if self.bonds is None else self.bonds)

    @model_validator(mode="after")
    def _stats(self):
        by_role = [self.attack, self.defence, self.support]
        if self.bonds is not None and self.kind != "girl":
            raise ValueError(f"{self.name}: only magical girls have bonds (L117); {self.kind}s never burst")
        by_stat = [self.heart, self.fury, self.judgment]
        for name, k in self.talent_uses.items():
            if name not in self.talents:
                raise ValueError(f"talent_uses names '{name}', which is not in this member's talents "
                                 f"({', '.join(self.talents) or 'none'})")
            if not 0 <= k <= 100:
                raise ValueError(f"talent_uses of '{name}' must be 0..100 per scene, got {k}")
        if self.creates is not None and not talent_edits.has_mechanic(self.talents, "minion_creation"):
            raise ValueError(f"{self.name}: 'creates' names the minions of Minion Creation (L1981), "
                             "which is not in its talents")
        if self.position is not None and self.count > 1:
            raise ValueError(f"{self.name}: 'position' places one combatant; the {self.count} copies of a member "
                             "with count are placed by the side's formation")
        if self.kind == "minion":
            if "Boost" in self.talents or "Monster Boost" in self.talents:
                raise ValueError("minions have no overcharge, so no Boost (L2172)")
            for name in self.talents:
                if name not in self.talent_uses and catalog.current().lookup(name).uses_per_scene is None:
                    raise ValueError(f"minions have fixed uses per talent (L2172): give "
                                     f"'talent_uses: {{{name}: N}}'")
            return self  # normalised by _minion
        if any(v is not None for v in by_stat):
            if self.kind == "monster":
                raise ValueError("monsters have attack, defence and support, not heart/fury/judgment (L1892)")
            if any(v is None for v in by_stat):
                raise ValueError("give all of heart, fury and judgment (with roles), or attack, defence and support")
            if any(v is not None for v in by_role):
                raise ValueError("give stats either by role (attack/defence/support) or as heart/fury/judgment "
                                 "with roles, not both")
            if self.roles is None:
                raise ValueError("heart/fury/judgment need 'roles: {attack: ..., defence: ..., support: ...}' (L143)")
        elif any(v is None for v in by_role):
            missing = [r for r, v in zip(ROLES, by_role) if v is None]
            raise ValueError(f"missing stat(s) {', '.join(missing)}: give attack, defence and support "
                             "(or heart, fury and judgment with roles)")
        if self.kind == "witch":
            # L2216-2222: one overcharge counter paid for talents, like a monster's pool,
            # that grows with her sixes up to a cap (10; older witches 13 or more)
            if "Boost" in self.talents:
                raise ValueError("a witch pays for talents from her one overcharge counter: take 'Monster Boost', "
                                 "not Boost (L2216)")
            for f in ("spread", "power_level", "damage_bonus"):
                if getattr(self, f) is not None:
                    raise ValueError(f"'{f}' is for monsters; a witch has resolve, stats, overcharge_pool "
                                     "and pool_cap")
            cap = 10 if self.pool_cap is None else self.pool_cap
            if self.overcharge_pool is not None and self.overcharge_pool > cap:
                raise ValueError(f"overcharge_pool {self.overcharge_pool} is above the witch's pool_cap {cap}")
            return self
        if self.pool_cap is not None:
            raise ValueError("'pool_cap' is for witches; set kind: witch")
        if self.kind == "monster":
            if self.resolve is None and (self.spread is None or self.power_level is None):
                raise ValueError("a monster needs 'resolve', or 'spread' and 'power_level' "
                                 "(Resolve = spread x 12/14/16/18/18+n, L1894-1946)")
            if "Boost" in self.talents:
                raise ValueError("monsters do not have Boost (a magical girl's basic talent, L1518)")
        else:
            if "Monster Boost" in self.talents:
                raise ValueError("'Monster Boost' is a monster talent; a magical girl has Boost (L1565)")
            for f in ("spread", "power_level", "damage_bonus", "overcharge_pool"):
                if getattr(self, f) is not None:
                    raise ValueError(f"'{f}' is for monsters; set kind: monster")
        return self

    # ---- derived values used by the compiler
    def role_stats(self) -> dict[str, int]:
        """Role -> stat value."""
        if self.heart is not None:
            vals = {"heart": self.heart, "fury": self.fury, "judgment": self.judgment}
            return {r: vals[getattr(self.roles, r)] for r in ROLES}
        return {"attack": self.attack, "defence": self.defence, "support": self.support}

    def role_map(self) -> dict[str, str]:
        """Role -> magical stat name (for overcharge and bursts)."""
        if self.roles is not None:
            return {r: getattr(self.roles, r) for r in ROLES}
        return dict(DEFAULT_ROLES)


class Side(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    members: list[Member] = Field(min_length=1, max_length=16)
    formation: Literal["line", "wedge", "opposite-edges"] = "line"


class Rest(StrictModel):
    """What the party does between two scenes of an episode.

    ``recover``: how many times each girl uses Recover (basic talent, out of
    combat: 1d6+2 Resolve, never above her wound-penalised maximum, L1571)
    in this rest, while below her maximum and within ``rules.recover_uses``
    per episode; ``true`` = 1, ``false`` = 0 (the default).
    """

    recover: int = Field(0, ge=0, le=20)

    @field_validator("recover", mode="before")
    @classmethod
    def _bool(cls, v: Any) -> Any:
        if isinstance(v, bool):
            return int(v)
        return v


class Scene(StrictModel):
    """One scene (fight) of an episode: its ``enemies`` (a side, as in ``sides:``)
    and optionally the ``rest_after`` it (else the episode's ``rest``)."""

    name: str | None = Field(None, min_length=1, max_length=60)
    enemies: Side
    rest_after: Rest | None = None


class Episode(StrictModel):
    """Several scenes fought in order by the party (``sides:`` then lists only
    the party), with a ``rest`` between two scenes (a scene's ``rest_after``
    overrides it). What carries over between scenes follows the rule options
    ``scene_resolve``, ``scene_downed``, ``scene_overcharge``, ``episode_uses``,
    ``wound_penalty``, ``min_max_resolve``, ``recover``, ``recover_uses`` and
    ``episode_draw`` (``sim rules mb41``). With a ``battlefield:`` every scene
    is fought on it, deployed afresh from its own starting hexes (members'
    ``position`` or the formation); the party's positions do not carry over."""

    rest: Rest = Rest()
    scenes: list[Scene] = Field(min_length=1, max_length=12)

    @model_validator(mode="after")
    def _scenes(self):
        names = self.scene_names()
        for k, name in enumerate(names):
            if name in names[:k]:
                raise ValueError(f"scenes[{k}]: two scenes are named '{name}'; names must be unique")
        if self.scenes[-1].rest_after is not None:
            raise ValueError(f"scenes[{len(names) - 1}].rest_after: the last scene has no rest after it "
                             "(the episode ends there)")
        return self

    def scene_names(self) -> list[str]:
        return [sc.name or f"Scene {k + 1}" for k, sc in enumerate(self.scenes)]

    def rests(self) -> list[Rest]:
        """The rest after each scene but the last."""
        return [sc.rest_after or self.rest for sc in self.scenes[:-1]]


class Scenario(ScenarioHeader):
    """One variant of an mb41 scenario.

    Without ``episode`` it is one fight between the two ``sides``; with
    ``episode`` (see :class:`Episode`) ``sides`` holds only the party and
    each scene brings its enemies.
    """

    system: Literal["mb41"] = "mb41"
    rules: dict[str, Any] = Field(default_factory=dict)
    #: catalog talents with other numbers and new talents (:mod:`.talent_edits`)
    talents: dict[str, Any] | None = None
    sides: list[Side] = Field(min_length=1, max_length=2)
    battlefield: BattlefieldSpec | None = None
    episode: Episode | None = None

    #: the talent catalog a ``talents:`` block edits (None: the 4.1 catalog; the draft sets its own)
    CATALOG: ClassVar[Any] = None

    @classmethod
    def base_catalog(cls):
        return cls.CATALOG if cls.CATALOG is not None else catalog

    @model_validator(mode="wrap")
    @classmethod
    def _talent_block(cls, data: Any, handler):
        """Validate the ``talents:`` block first: its catalog (over ``base_catalog``) is the one
        the members' talents are read from."""
        block = data.get("talents") if isinstance(data, dict) else None
        cat = cls.CATALOG if block is None else talent_edits.build(cls.base_catalog(), block)
        with talent_edits.use(cat):
            return handler(data)

    def talent_catalog(self):
        """The :class:`~.talent_edits.ScenarioCatalog` of this scenario's ``talents:`` block (None without one)."""
        if not self.talents:
            return None
        return talent_edits.build(self.base_catalog(), self.talents)

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: dict) -> dict:
        RULES.resolve(v)  # raises RuleError (a ValueError) with a suggestion
        return v

    @model_validator(mode="after")
    def _unique_names(self):
        if self.episode is None:
            if len(self.sides) != 2:
                raise ValueError("sides: give two sides (the first side's wins are reported), or one side (the "
                                 "party) with an 'episode:' of scenes that bring the enemies")
            fights = [self.sides]
        else:
            if len(self.sides) != 1:
                raise ValueError(f"with 'episode:', sides lists only the party (one side, got {len(self.sides)}); "
                                 "each scene gives its side under 'enemies:'")
            fights = [[self.sides[0], sc.enemies] for sc in self.episode.scenes]
        for k, sides in enumerate(fights):
            where = "" if self.episode is None else f"episode.scenes[{k}]: "
            seen = set()
            for side in sides:
                for m in side.members:
                    if m.name in seen:
                        raise ValueError(f"{where}two combatants are named '{m.name}'; names must be unique")
                    seen.add(m.name)
            if sides[0].name == sides[1].name:
                raise ValueError(f"{where}both sides are named '{sides[0].name}'")
        if self.resolved_rules()["passive_defence"] < 0:
            for side in [sd for sides in fights for sd in sides]:
                for m in side.members:
                    if m.policy.passive_defence:
                        raise ValueError(f"{m.name}: a passive defence (Defense+4) is a rule of the earlier draft "
                                         "(DRAFT L486), not of 4.1; set rules.passive_defence: 4 or use "
                                         "system: mb-draft")
        if self.episode is None:
            self._check_grid()
        else:
            for k, sc in enumerate(self.scene_scenarios()):
                try:
                    sc._check_grid()
                except ValueError as e:
                    raise ValueError(f"episode.scenes[{k}] (the party and this scene's enemies as sides[0] "
                                     f"and sides[1]): {e}") from None
        return self

    def _check_grid(self) -> None:
        """Positions need a battlefield; on the grid, every start must be a free hex of it.
        The draft's positions (rule ``positions``): every ``place`` on the map, and no hex grid."""
        rules = self.resolved_rules()
        npos = rules["positions"]
        if npos > 0 and rules["grid"] != "none":
            raise ValueError(f"rules.positions: {npos} is the draft's map of positions (DRAFT L480); it plays "
                             "gridless: remove the battlefield / set rules.grid: none, or positions: 0")
        for s, side in enumerate(self.sides):
            for m_i, m in enumerate(side.members):
                if m.place is None:
                    continue
                if npos == 0:
                    raise ValueError(f"sides[{s}].members[{m_i}] ({m.name}).position: {m.place} needs the "
                                     "draft's map of positions: set rules.positions (e.g. 4) in an mb-draft "
                                     "scenario")
                if m.place < 1 or m.place > npos:
                    raise ValueError(f"sides[{s}].members[{m_i}] ({m.name}).position: {m.place} is off the "
                                     f"map: expected a position from 1 to {npos} (rules.positions: {npos})")
        if rules["grid"] == "none":
            if self.battlefield is None:
                for s, side in enumerate(self.sides):
                    for m_i, m in enumerate(side.members):
                        if m.position is not None:
                            raise ValueError(f"sides[{s}].members[{m_i}] ({m.name}).position needs the hex grid: "
                                             "add a battlefield: block (or rules.grid: hex)")
            return  # an explicit grid: none with a battlefield plays gridless (a variant may compare both)
        from .deploy import layout

        layout(self, self.battlefield_spec())

    def battlefield_spec(self) -> "BattlefieldSpec":
        """The ``battlefield:`` block, or the default field (``grid: hex`` without one)."""
        return self.battlefield if self.battlefield is not None else BattlefieldSpec()

    def scene_scenarios(self) -> list["Scenario"]:
        """One plain two-side scenario per scene of the episode (party, enemies)."""
        return [self.model_copy(update={"sides": [self.sides[0], sc.enemies], "episode": None})
                for sc in self.episode.scenes]

    def resolved_rules(self) -> dict:
        """The rule options; a ``battlefield:`` block implies ``grid: hex`` unless the rules set ``grid``."""
        rules = self.rules
        if self.battlefield is not None and "grid" not in rules:
            rules = {**rules, "grid": "hex"}
        return RULES.resolve(rules)
