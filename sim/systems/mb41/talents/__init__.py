"""Talent mechanics: how catalog rows become kernel numbers.

A catalog row that the kernel plays has ``simulated: true`` and a
``mechanic: {code: <name>, ...params}``. A new talent that reuses a mechanic
is a new YAML row, or, for one scenario, an entry of its ``talents:`` block
(:mod:`..talent_edits`); only a genuinely new mechanic adds a code here and a
hook in a talent module (``sim/systems/mb41/talents/``, ``E_*`` constants in ``codes.py``;
docs/engine.md section 6).

Each combatant has :data:`..layout.MAXT` talent slots in ``comb``: effect
code, overcharge cost, the magical stat that pays it (the stat filling the
cost's role, seed 000 L149), uses per scene (-1 unlimited) and two
parameters.

Mechanics and their parameters P1, P2, P3 (seed 000 lines in the catalog
rows; the kernel function that plays each is named in brackets). In a
gridless fight every range is met. On the hex grid a talent reaches the
farthest hex of its catalog row's ``range_hexes`` (``C_TREACH``; a row
without one reaches the whole field: Guided Strike, Implode, Shield, A
Little Longer), unless the rule ``talent_ranges`` is ``unlimited``.

=================  ===========================  ====================================================
mechanic           parameters                   rule
=================  ===========================  ====================================================
heal               dice, bonus, target          Minor: restore dice d6 + bonus to the ally lowest
                                                in Resolve share below ``heal_below`` (target: ally =
                                                herself or any ally, self, monster = a non-minion
                                                monster ally) [try_heal]
second_wind        dice, bonus, defence         Minor: heal herself, + defence to her Defence rolls
                                                until her next turn [try_heal]
inflict            --                           free after a hit: an ailment on the target [try_inflict]
bonus_action       actions                      free: one more Major action [bonus_action]
low_resolve        attack, damage, sticky       while Resolve <= half of Base: + attack, + damage;
                                                sticky = for the rest of the scene once reached
                                                [declare_riders]
follow_target      per_miss                     + per_miss per miss in a row on the same target
killing_blow       dice, bonus                  on a target below 1/``killing_blow_below`` of its
                                                Base Resolve: pay; a hit deals + dice d6 + bonus
attack_ailment     ailment                      pay on an attack; a hit gives the ailment
reroll             minor                        re-roll a missed attack, keep the new result; minor:
                                                it takes her Minor action if still free (the draft's
                                                Second Chance Attack) [attack]
drain              divisor                      on a hit below ``heal_below``: damage // divisor,
                                                heal herself by what it dealt [attack]
defence_die        form, dice                   + dice exploding dice defending against form
                                                (melee / ranged) [defence_dice]
armour             reduction, minimum           damage of each hit - reduction, not below minimum
                                                [reduce_damage]
shield             per_point, self_only,        - per_point per point (uses = points per scene, cost
                   per_attack                   per point), on herself or an ally (self_only: 1);
                                                per_attack > 0: at most that many points on one hit
                                                (the draft) [reduce_damage]
backlash           dice                         a girl attacking it takes dice d6 [backlash]
disruptive         --                           each of its attacks on a girl: +1 overcharge on a
                                                random stat [disruptive]
fear_aura          penalty                      - penalty to its enemies' rolls while it stands
monster_boost      --                           gives a monster Boost uses (uses per scene), paid
                                                from its pool [can_boost]
curse              ailments                     Minor: an ailment (of the listed ones) on the
                                                policy's target, no roll [try_curse]
scream             ailment, area                Major: Support vs Support against every enemy in
                                                the area (grid: circle = within the row's range,
                                                line = a straight line that long), the losers get
                                                the ailment [try_scream]
extra_turn         turns                        extra turns per round [extra_turns_now]
shrug_off          count                        remove count ailments at the start of each round
guided_strike      --                           Major: the ally with the highest Attack (above hers)
                                                makes the attack instead [guided_strike]
group_heal         dice, bonus, min_low         Major: she and every standing ally regain dice d6 +
                                                bonus each, when at least min_low are below
                                                ``heal_below`` [try_group_heal]
remedy             extra_cost, self_only        Minor: remove an ailment of hers (instead of the
                                                removal roll) or an ally's (not with self_only: the
                                                draft's Purge); each further one costs extra_cost
                                                Support overcharge [try_remedy]
steal_action       --                           Minor: attack challenge, no damage; a win Stuns the
                                                target and gives another Minor [try_steal]
reflector          ignore, self                 after a hit, an ally (self: or herself, the lowest
                                                in Resolve share) ignores up to ignore damage of
                                                each enemy hit until the end of her next turn, the
                                                attacker taking it [give_reflector, reflect]
life_bomb          --                           Major (below ``heal_below``): the next hit on her
                                                heals her half its damage [try_life_bomb, after_hit]
implode            --                           Major: Support vs Support; a win makes the target
                                                take half the damage it deals until the end of her
                                                next turn [try_implode, after_hit]
all_or_nothing     most, after                  before an attack take the policy's
                                                ``all_or_nothing`` damage (at most most) and add it
                                                to the attack's damage [declare_riders]; after
                                                (the draft): only once the attack hit
                                                [all_in_after]
follow_up          attack, damage               Major: on the enemy an ally hit in the turn just
                                                before hers, + attack and + damage [declare_riders,
                                                follow_up_target]
opening            bonus                        Major: while another ally stands, her attack; a hit
                                                gives her allies + bonus to attack the target until
                                                the end of her next turn [declare_riders,
                                                opening_bonus]
seal_magic         --                           free after a hit: the target uses no talent (Boost
                                                included) until the end of the next round
                                                [seal_magic, sealed]
amplify            healing, ailment, hex        Minor: an ally below ``heal_below`` gets + healing
                                                from every heal (when her side heals), else the
                                                policy's target - ailment to resist or remove
                                                ailments (ailment > 0), or (hex > 1, the draft;
                                                she has Hex) her Hexes on the policy's target,
                                                not yet hexed, deal hex times; until the scene
                                                ends or it drops [try_amplify, try_hex]
aura_of_strength   damage                       her successful defence roll: the (melee) attacker
                                                takes damage, not an attack [aura_of_strength]
possession         penalty, dice                a monster in a human host (L2073-2076): - penalty to
                                                its attack, defence, support and damage (the
                                                compiler), + dice d6 on every attack it suffers
                                                (DAMAGE); the host takes the damage it takes
                                                (``K_HOST_DMG``; dead at ``death_wounds``)
                                                [possessed, possession_host]
courage_aura       bonus                        + bonus to her allies' rolls while she stands
                                                [courage_aura]
ambush             dice, bonus, attack          a turn before round 1 (then first in round 1); its
                                                attack + attack, a hit + dice d6 + bonus
                                                [ambush_turns]
curse_shift        --                           Major: move the ailments it bears to the policy's
                                                target, the cost for each [try_curse_shift]
minion_explosion   dice, bonus                  Major: its attack comes from a minion, which is
                                                destroyed; a hit + dice d6 + bonus
                                                [minion_explosion]
belkan             bonus, most                  melee only; each hit stores + bonus (at most most),
                                                all spent on her next attack [belkan_hit]
mid_childan        range                        no melee damage bonus (compile time); on the grid
                                                her ranged attack reaches range hexes (C_RANGED_HI)
link               --                           Minor, one at a time: two allies (when her side
                                                heals; healing on the first is copied to the
                                                second) or two enemies (when it gives ailments;
                                                ailments copied) [try_link, restore, give_ailment]
undying_brood      (minions: set by the         on its death, a standing minion of its side becomes
                   compiler)                    it: Resolve = Base // minions at the start, halved
                                                per earlier rebirth [undying_brood]
fight_for_friends  attack, damage, bond         + attack and + damage while an ally lies at 0
                                                Resolve, alive (uses: the draft's 2/Scene); bond
                                                (the draft): with any living ally present, + her
                                                strongest bond's rank too [fight_for_friends]
battle_sorcery     bonus                        + bonus to her sorcery in battle (policy
                                                ``sorcery``) [cast_sorcery]
hate_the_world     bonus, dice, heal            a bond point (never the last): below
                                                ``heal_below`` a Minor for dice d6 + heal Resolve,
                                                else + bonus to an attack and its damage
                                                [hate_the_world]
power_dampening    self                         free, after an attack (and, with
                                                ``power_dampening_rolls: any``, a defence) in which a
                                                die of hers showed 1: -1 overcharge from the fullest
                                                counter of an ally's (self: or hers)
                                                [power_dampening]
dampen_overcharge  --                           free, out of turn: an ally's overcharge from one roll
                                                or one talent cost is halved (round down); used per
                                                ``dampen_overcharge_ai`` [dampen_overcharge]
radiation          --                           end of the scene: every girl (within
                                                ``radiation_range``) takes 1d6 overcharge on the stat
                                                ``radiation_stat`` names (A34) [overcharge_radiation]
hex                damage                       (the draft) Minor, one a round: the policy's target
                                                takes damage at the start of every round for the
                                                rest of the scene; Hexes stack [try_hex,
                                                round_effects]
evasion            bonus                        (the draft) free, after a hit on her: + bonus to her
                                                defence result, used when that beats the attack
                                                [evasion]
regeneration       resolve                      (the draft) free, once she has lost Resolve: +resolve
                                                at the start of every round for the scene, up to her
                                                Base [try_regeneration, round_effects]
detonation         --                           (the draft) Major: a hit deals the target's
                                                overcharge instead of the usual damage, when that is
                                                at least ``detonation_min`` [detonation_slot]
mood               self                         (the draft) Empower (self, free) / Rouse (an ally,
                                                Minor): Excited or Calm, ``mood_status``,
                                                ``excited_bonus``, ``calm_bonus`` [try_mood]
move_attack        move                         Major (grid): when nobody is in range and 1 hex brings
                                                the policy's target into range, move that hex (rule
                                                ``move_attack_step``) and make a basic attack
                                                [battle_grid.move_attack]
teleport           sight                        Minor (grid): to the nearest free hex in her goal's
                                                range, in sight when sight (rule ``teleport_sight``);
                                                not movement [battle_grid.talent_move]
extra_move         move, through                Minor (grid): up to move hexes toward her goal; Swift
                                                (through 0): 1 out of or into rough terrain, 1 when
                                                engaged (a Disengage); Bypass (through 1): ignores
                                                Disengage, rough terrain, barriers, obstacles and
                                                people on the way [battle_grid.talent_move]
sprint             move, any_round, off_turn    free (grid), once per round: 1 ordinary hex toward her
                                                goal on her turn [battle_grid.sprint]; the draft's
                                                positions: 1 position, any_round = no limit a
                                                round (Speed Burst) [positions.sprint]; off_turn:
                                                also in response to an attack on an ally, to stand
                                                where she can intercept it (4.1 Sprint, the draft's
                                                Speed Burst) [battle_grid.guard_sprint,
                                                positions.cover_sprint]
slither            move                         free (grid): after an attack on it, 1 hex toward its
                                                policy's range of the attacker, ignoring rough
                                                terrain and Disengage [battle_grid.slither]
shove              direction                    Major: a basic attack, paid on every attack it can
                                                afford; a hit moves the target 1 hex toward her (pull,
                                                Get Over Here) or away (push, Repel) [battle_grid.shove]
safe_place         sight                        Major (grid): an engaged ally below ``heal_below``, in
                                                sight, moves to a free hex next to her with no enemy
                                                adjacent [battle_grid.safe_place]
defensive_switch   --                           free, before the attack roll on an ally (1-3 hexes on
                                                the grid) below her ``intercept`` share and lower in
                                                Resolve: swap places and become the target
                                                [kernel.defensive_switch]
get_back           --                           Minor (the draft's positions): an engaged ally below
                                                ``heal_below`` within ``range_positions`` to
                                                Position 1 (rule ``get_back_to``) [positions.get_back]
lets_move          --                           Minor (the draft's positions): her Movement toward her
                                                band and one step for an ally out of hers
                                                [positions.lets_move]
enemies_closer     --                           free: an adjacent enemy moving away from her (an
                                                ordinary move, Reckless Movement, Disengage, Swift,
                                                Bypass, Dash Strike, Sprint): Support vs Support, a win
                                                stops it and its action is used up [battle_grid.held]
minion_creation    (per_turn: the monster's     Minor, the cost per minion: its reserve minions
                   spread, set by the           (scenario ``creates``) appear, at most per_turn in
                   compiler)                    one turn, while it has the pool; they act from the
                                                next round (``spawn_acts``); grid: the free hexes
                                                nearest to it [create_minions, appear]
marionette         --                           Minor, while she has no copy standing: her copy
                                                (her stats, 1 Resolve: any damage destroys it, no
                                                turns, counts for no side) appears; enemies'
                                                targeting sees it as her (``marionette_decoy``);
                                                grid: within the range, her attacks may start from
                                                it (``marionette_place``) [make_copy, decoy, reach]
area_attack        shape, width                 Major: one basic attack against every target in the
                                                area, each defending separately (the attacker rolls
                                                per target); grid: a straight line as long as the
                                                far end of ``ranged_range`` in the direction reaching
                                                the most enemies (width 2: and the parallel line
                                                beside it), shape blast: or every adjacent hex when
                                                that reaches more; allies in it only under
                                                ``area_allies``; gridless: ``area_targets`` enemies
                                                (the policy's target, then the next listed); used
                                                when it reaches the policy's ``area_min``
                                                [try_area_attack, battle_grid.area_attack]
gravity_wave       pull                         Major: when ``area_min`` enemies are within range
                                                (1-3), pull each pull hex(es) nearer (forced, the
                                                nearest first), then one basic attack against each
                                                target (``gravity_targets``: within range, A43a, or
                                                adjacent, A43b); gridless: no pull, ``area_targets``
                                                enemies [try_gravity, battle_grid.gravity_wave]
veil               penalty                      Minor while none holds: until the end of her next
                                                turn, attacks on her from beyond 1-2 hexes (row
                                                range) take - penalty; grid: raised when an enemy
                                                stands beyond 2; gridless: every attacker unless
                                                ``veil_gridless`` none (then never raised)
                                                [try_veil, veil_penalty]
rough_going        hexes                        Minor, grid only: up to hexes hexes within the row's
                                                range (4) become rough terrain for the rest of the
                                                fight: the standing enemies' hexes, then free hexes
                                                next to them; used when an enemy in reach stands on
                                                plain ground; gridless never used
                                                [try_rough_going, battle_grid.rough_going]
lashing_ground     --                           passive, grid only: hexes adjacent to it are rough
                                                terrain for everyone else while it lives
                                                [battle_grid.lashed]
mines              --                           Minor, grid only: a mine in her hex (at most 3 live,
                                                none of hers within 1 hex); someone else (rule
                                                ``mine_trigger``) moving into a hex within 1 of it
                                                sets it off (stepping out of its range too,
                                                ``mine_step_out``): its owner's basic melee attack on
                                                everyone within 1 of it (not the owner), +
                                                ``mine_bonus`` against the one who entered its own
                                                hex; it outlives its owner; gridless never used
                                                [try_mines, battle_grid.place_mine, detonate]
scattering_shot    --                           Major, grid only: its basic attack on the policy's
                                                target in reach when ``area_min`` enemies stand
                                                within ``scatter_edge`` of it; a hit pushes everyone
                                                in that circle (the shooter under ``scatter_self``)
                                                out to its edge or the first hex that blocks; a
                                                miss does nothing more; gridless never used
                                                [try_scatter, battle_grid.scattering_shot]
create_barrier     resolve                      Minor, grid only, while no barrier of hers stands:
                                                barrier hexes with resolve Resolve in all (rules
                                                ``barrier_shape``: a ring radius + 1 hexes from her,
                                                ``barrier_radius``; or a straight wall through an
                                                adjacent hex, ``barrier_wall_length``), blocking
                                                movement (not Bypass), teleports and (rule
                                                ``barrier_blocks_ranged``) attacks across it; raised
                                                when a standing enemy exists and none stands next to
                                                her side; an enemy who cannot reach anyone because
                                                of it hits it automatically (``barrier_defence``);
                                                gridless never used
                                                [try_barrier, battle_grid.create_barrier,
                                                battle_grid.barrier_turn]
=================  ===========================  ====================================================

Movement talents in a gridless fight (``grid: none``): Get Over Here and Repel
are a basic attack, paid as the row says (the policy uses them on every attack
it can pay for); Dash Strike and Pounce would be a basic attack too, but
gridless nobody is ever one hex out of reach, so they are never used;
Defensive Switch makes her the target of the attack; the pure movement talents
(Teleport, Monster Teleport, Bypass, Swift, Sprint, Slither Away, Safe Place,
And Your Enemies Closer) do nothing and are not used, so they cost nothing.
"""
from __future__ import annotations

from .. import catalog
from .. import codes as E
from .. import layout as L

#: mechanic name -> (kernel effect code, parameter names for P1, P2, P3)
MECHANICS = {
    "heal": (E.E_HEAL, ("dice", "bonus", "target")),
    "second_wind": (E.E_SECOND_WIND, ("dice", "bonus", "defence")),
    "inflict": (E.E_INFLICT, ()),
    "bonus_action": (E.E_BONUS_ACTION, ("actions",)),
    "low_resolve": (E.E_LOW_RESOLVE, ("attack", "damage", "sticky")),
    "follow_target": (E.E_FOLLOW_TARGET, ("per_miss",)),
    "killing_blow": (E.E_KILLING_BLOW, ("dice", "bonus")),
    "attack_ailment": (E.E_ATTACK_AILMENT, ("ailment",)),
    "reroll": (E.E_REROLL, ("minor",)),
    "drain": (E.E_DRAIN, ("divisor",)),
    "defence_die": (E.E_DEFENCE_DIE, ("form", "dice")),
    "armour": (E.E_ARMOUR, ("reduction", "minimum")),
    "shield": (E.E_SHIELD, ("per_point", "self_only", "per_attack")),
    "backlash": (E.E_BACKLASH, ("dice",)),
    "disruptive": (E.E_DISRUPTIVE, ()),
    "fear_aura": (E.E_FEAR_AURA, ("penalty",)),
    "monster_boost": (E.E_MONSTER_BOOST, ()),
    "curse": (E.E_CURSE, ("ailments",)),
    "scream": (E.E_SCREAM, ("ailment", "area")),
    "extra_turn": (E.E_EXTRA_TURN, ("turns",)),
    "shrug_off": (E.E_SHRUG_OFF, ("count",)),
    "guided_strike": (E.E_GUIDED_STRIKE, ()),
    "group_heal": (E.E_GROUP_HEAL, ("dice", "bonus", "min_low")),
    "remedy": (E.E_REMEDY, ("extra_cost", "self_only")),
    "steal_action": (E.E_STEAL_ACTION, ()),
    "reflector": (E.E_REFLECTOR, ("ignore", "self")),
    "life_bomb": (E.E_LIFE_BOMB, ()),
    "implode": (E.E_IMPLODE, ()),
    "all_or_nothing": (E.E_ALL_OR_NOTHING, ("most", "after")),
    "follow_up": (E.E_FOLLOW_UP, ("attack", "damage")),
    "opening": (E.E_OPENING, ("bonus",)),
    "seal_magic": (E.E_SEAL_MAGIC, ()),
    "amplify": (E.E_AMPLIFY, ("healing", "ailment", "hex")),
    "aura_of_strength": (E.E_AURA_STRENGTH, ("damage",)),
    "possession": (E.E_POSSESSION, ("penalty", "dice")),
    "courage_aura": (E.E_COURAGE, ("bonus",)),
    "ambush": (E.E_AMBUSH, ("dice", "bonus", "attack")),
    "curse_shift": (E.E_CURSE_SHIFT, ()),
    "minion_explosion": (E.E_MINION_EXPLOSION, ("dice", "bonus")),
    "belkan": (E.E_BELKAN, ("bonus", "most")),
    "mid_childan": (E.E_MID_CHILDAN, ("range",)),
    "link": (E.E_LINK, ("damage",)),
    "undying_brood": (E.E_BROOD, ()),
    "fight_for_friends": (E.E_FRIENDS, ("attack", "damage", "bond")),
    "battle_sorcery": (E.E_BATTLE_SORCERY, ("bonus",)),
    "hate_the_world": (E.E_HATE, ("bonus", "dice", "heal")),
    "power_dampening": (E.E_POWER_DAMPENING, ("self",)),
    # the draft's own talents (seed 001, sim/systems/mbdraft/catalog.yaml)
    "hex": (E.E_HEX, ("damage",)),
    "evasion": (E.E_EVASION, ("bonus",)),
    "regeneration": (E.E_REGEN, ("resolve",)),
    "detonation": (E.E_DETONATION, ()),
    "mood": (E.E_MOOD, ("self",)),
    "dampen_overcharge": (E.E_DAMPEN_OC, ()),
    "radiation": (E.E_RADIATION, ()),
    "move_attack": (E.E_MOVE_ATTACK, ("move",)),
    "teleport": (E.E_TELEPORT, ("sight",)),
    "extra_move": (E.E_EXTRA_MOVE, ("move", "through")),
    "sprint": (E.E_SPRINT, ("move", "any_round", "off_turn")),
    "slither": (E.E_SLITHER, ("move",)),
    "shove": (E.E_SHOVE, ("direction",)),
    "safe_place": (E.E_SAFE_PLACE, ("sight",)),
    "defensive_switch": (E.E_SWITCH, ()),
    "get_back": (E.E_GET_BACK, ()),
    "lets_move": (E.E_LETS_MOVE, ()),
    "enemies_closer": (E.E_CLOSER, ()),
    "minion_creation": (E.E_MINION_CREATION, ("per_turn",)),
    "marionette": (E.E_MARIONETTE, ()),
    "area_attack": (E.E_AREA_ATTACK, ("shape", "width")),
    "gravity_wave": (E.E_GRAVITY, ("pull",)),
    "veil": (E.E_VEIL, ("penalty",)),
    "rough_going": (E.E_ROUGH_GOING, ("hexes",)),
    "lashing_ground": (E.E_LASHING, ()),
    "mines": (E.E_MINES, ()),
    "scattering_shot": (E.E_SCATTER, ()),
    "create_barrier": (E.E_BARRIER, ("resolve",)),
}

#: labyrinth features (catalog group ``labyrinth``): mechanic code -> where a scenario sets it
#: (they belong to the battlefield, not to a combatant; :mod:`..hex` plays them)
LABYRINTH_MECHANICS = {
    "alternating_damage": "battlefield.labyrinth.alternating_damage",
    "current": "battlefield.labyrinth.current",
    "escher_doors": "battlefield.labyrinth.escher_doors",
    "pendulum": "battlefield.labyrinth.pendulum",
    "perilous": "battlefield.labyrinth.perilous",
    "wraparound": "battlefield.wrap",
}

_AILMENT = {"stun": E.A_STUN, "bound": E.A_BOUND, "bleed": E.A_BLEED}
#: named parameter values -> numbers
_VALUES = {
    "target": {"ally": 0, "self": 1, "monster": 2},
    "ailment": _AILMENT,
    "form": {"melee": 0, "ranged": 1},
    "sticky": {False: 0, True: 1},
    "self_only": {False: 0, True: 1},
    "self": {False: 0, True: 1},
    "minor": {False: 0, True: 1},
    "bond": {False: 0, True: 1},
    "after": {False: 0, True: 1},
    "area": {"circle": 0, "line": 1},
    "sight": {False: 0, True: 1},
    "through": {False: 0, True: 1},
    "direction": {"pull": -1, "push": 1},
    "shape": {"line": 0, "blast": 1},
    "any_round": {False: 0, True: 1},
}

_ROLE_INDEX = {"attack": 0, "defence": 1, "support": 2}


def param_value(name: str, value) -> int:
    """A mechanic parameter as the kernel's number (names mapped, ailment lists as bit masks)."""
    if name == "ailments":
        return sum(1 << _AILMENT[a] for a in value)
    table = _VALUES.get(name)
    if table is not None and value in table:
        return table[value]
    return int(value)


def variant_names(name: str) -> list[str]:
    """The names a scenario must use instead of ``name`` when its row is a
    choice (Ranged/Melee Defence: 'Melee Defence' or 'Ranged Defence'); [] if none."""
    r = catalog.current().lookup(name)
    if r is None or not r.mechanic:
        return []
    return list((r.mechanic.get("variants") or {}).keys())


def mechanic_params(name: str) -> dict:
    """The mechanic of catalog talent ``name`` (a row name, alias or variant) with the variant's values applied."""
    r = catalog.current().lookup(name)
    m = dict(r.mechanic)
    variants = m.pop("variants", None) or {}
    for vname, vals in variants.items():
        if vname.casefold() == name.casefold():
            m.update(vals)
    return m


def fill_slots(row, talents: list[str], role_stat: dict[str, int], minion: bool = False,
               uses: dict[str, int] | None = None) -> None:
    """Write the talent slots of one combatant's ``comb`` row.

    ``talents``: canonical catalog names (Boost excluded: it has its own
    columns); ``role_stat``: role -> magical stat index (0 heart, 1 fury, 2 judgment);
    ``minion``: minions pay no overcharge for their talents (fixed uses, L2172);
    ``uses``: per-scene uses that replace the catalog's (a minion's stat block).
    """
    uses = uses or {}
    slots = [t for t in talents if t != "Boost"]
    if len(slots) > L.MAXT:
        raise ValueError(f"at most {L.MAXT} talents besides Boost per combatant")
    for s in range(L.MAXT):
        row[L.C_TCODE + s] = 0
        row[L.C_TREACH + s] = -1
    row[L.C_TMASK] = 0
    row[L.C_TMASK2] = 0
    row[L.C_TEPISODE] = 0
    for s, name in enumerate(slots):
        r = catalog.current().lookup(name)
        if r is None or not r.simulated or not r.mechanic:
            raise ValueError(f"talent {name!r} is not simulated")
        mech = mechanic_params(name)
        code, params = MECHANICS[mech["code"]]
        row[L.C_TCODE + s] = code
        if code < E.E_MORE:
            row[L.C_TMASK] |= 1 << code
        else:  # codes from 64: C_TMASK2, and E_MORE so every "has talents" gate sees them
            row[L.C_TMASK2] |= 1 << (code - 64)
            row[L.C_TMASK] |= 1 << E.E_MORE
        # minions pay nothing (L2172); a bond-paid talent (Hate the World) costs no overcharge
        row[L.C_TCOST + s] = 0 if (minion or r.cost_stat == "bond") else (r.cost or 0)
        role = r.cost_stat if r.cost_stat in _ROLE_INDEX else "support"
        row[L.C_TROLE + s] = role_stat[role]
        # per-episode uses (A54): a single fight is the whole episode; in an episode of several
        # scenes the slot's bit in C_TEPISODE keeps its uses from one scene to the next
        per_scene = uses.get(name, r.uses_per_scene if r.uses_per_scene is not None else r.uses_per_episode)
        row[L.C_TUSES + s] = -1 if per_scene is None else per_scene
        row[L.C_TREACH + s] = r.range_hexes[1] if r.range_hexes is not None else -1
        if name not in uses and r.uses_per_scene is None and r.uses_per_episode is not None:
            row[L.C_TEPISODE] |= 1 << s
        for k, p in enumerate(params[:3]):
            row[(L.C_TP1, L.C_TP2, L.C_TP3)[k] + s] = param_value(p, mech.get(p, 0))
        if code == E.E_MONSTER_BOOST:
            row[L.C_BOOSTS] = per_scene or 0


def check_catalog() -> None:
    """Every simulated row names a known mechanic (tests call this)."""
    for r in catalog.rows():
        if r.simulated and r.group == "labyrinth":
            if not r.mechanic or set(r.mechanic) != {"code"} or r.mechanic["code"] not in LABYRINTH_MECHANICS:
                raise ValueError(f"catalog row {r.name!r} is a simulated labyrinth feature but names no known "
                                 f"labyrinth mechanic ({', '.join(LABYRINTH_MECHANICS)})")
            continue
        if r.simulated and r.name != "Boost":
            if not r.mechanic or r.mechanic.get("code") not in MECHANICS:
                raise ValueError(f"catalog row {r.name!r} is simulated but has no known mechanic")
            _, params = MECHANICS[r.mechanic["code"]]
            extra = set(r.mechanic) - {"code", "variants"} - set(params)
            if extra:
                raise ValueError(f"catalog row {r.name!r}: unknown mechanic parameter(s) {sorted(extra)}")
            for p in params:
                param_value(p, r.mechanic.get(p, 0))
            for vname, vals in (r.mechanic.get("variants") or {}).items():
                if catalog.lookup(vname) is not r:
                    raise ValueError(f"catalog row {r.name!r}: variant {vname!r} is not one of its aliases")
                for p, v in vals.items():
                    if p not in params:
                        raise ValueError(f"catalog row {r.name!r}: variant {vname!r} sets unknown parameter {p!r}")
                    param_value(p, v)
