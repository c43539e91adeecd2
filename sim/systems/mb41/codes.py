"""Values the 4.1 / draft kernels compare against (not columns: those are in :mod:`.layout`).

* ``E_*``: talent effect codes, one per mechanic (catalog ``mechanic: {code: ...}``,
  :data:`.talents.MECHANICS`; parameters P1..P3 per code are documented there).
  Codes 1-61 are bits of ``C_TMASK``; bit ``E_MORE`` (62) says "some code >= 64 is
  in ``C_TMASK2``" (bit ``code - 64``), so every ``C_TMASK != 0`` gate still sees
  her talents; bit 63 (the sign bit) is unused. Test a code with
  :func:`.slots.has_code` or :func:`.slots.side_has_code`.
* ``A_*``: ailments (L1459-1467), the offsets within ``D_AIL``.
* policy values (``P_TARGET``, ``P_MOVE``, ``P_SORCERY``, ``P_BOOST``), reserve row
  kinds (``C_SPAWN_KIND``), stats, burst and frenzy modes.
"""
from __future__ import annotations

# reserve rows: combatants that appear mid-fight (C_SPAWN_KIND)
SPAWN_MINION = 1   # Minion Creation (L1981-1985): C_SPAWN_BY is the creating monster
SPAWN_HEART = 2    # the Heart Burst's creature (L451-453, A8a): C_SPAWN_BY is the bursting girl
SPAWN_COPY = 3     # Marionette's copy (L1831-1834): C_SPAWN_BY is the girl
WITCH = 2          # C_MONSTER value of a witch: monster-like (one pool pays talents, no revive, no bursts)

# magical stats (the overcharge counters D_OC + stat; the roles C_RA, C_RD, C_RS hold one of these)
HEART = 0
FURY = 1
JUDGMENT = 2

# talent effect codes
E_HEAL = 1
E_INFLICT = 2
E_BONUS_ACTION = 3
E_LOW_RESOLVE = 4      # Desperation, Memory Blaze
E_ARMOUR = 5           # Thick Hide
E_BACKLASH = 6         # Backlash
E_FEAR_AURA = 7        # Fear Aura
E_DEFENCE_DIE = 8      # Ranged/Melee Defence
E_DISRUPTIVE = 9       # Disruptive Strikes
E_KILLING_BLOW = 10    # Killing Blow
E_ATTACK_AILMENT = 11  # Binding Attack, Debilitating Attack
E_SHIELD = 12          # Shield, Bulwark
E_MONSTER_BOOST = 13   # Monster Boost (fills the Boost columns; no kernel branch of its own)
E_REROLL = 14          # Want it Hard, Want it Now
E_FOLLOW_TARGET = 15   # Follow Target
E_DRAIN = 16           # Drain Life
E_CURSE = 17           # Curse, Hello There
E_SCREAM = 18          # Deafening Scream, Blood Rain
E_EXTRA_TURN = 19      # Extra Action
E_SHRUG_OFF = 20       # Shrug Off
E_SECOND_WIND = 21     # Second Wind
E_GUIDED_STRIKE = 22   # Guided Strike
E_GROUP_HEAL = 23      # Wave of Courage
E_REMEDY = 24          # Remedy
E_STEAL_ACTION = 25    # Steal Action
E_REFLECTOR = 26       # Reflector
E_LIFE_BOMB = 27       # Life Bomb
E_IMPLODE = 28         # Implode
E_ALL_OR_NOTHING = 29  # All or Nothing
E_FOLLOW_UP = 30       # Follow Up
E_OPENING = 31         # Make an Opening
E_SEAL_MAGIC = 32      # Seal Magic
E_AMPLIFY = 33         # Amplify Magic
E_AURA_STRENGTH = 34   # Aura of Strength
E_COURAGE = 35         # Courage Aura
E_AMBUSH = 36          # Ambush Tactics
E_CURSE_SHIFT = 37     # Curse Shift
E_MINION_EXPLOSION = 38  # Minion Explosion
E_BELKAN = 39          # Belkan System
E_MID_CHILDAN = 40     # Mid-Childan System (compile time only: no kernel branch)
E_LINK = 41            # Link
E_BROOD = 42           # Undying Brood (P1 = its side's minions at the start, set by the compiler)
E_FRIENDS = 43         # Fight for Friends
E_SORCERY = 44         # not a slot: set in C_TMASK when her policy casts sorcery in battle
E_BATTLE_SORCERY = 45  # Battle Sorcery
E_HATE = 46            # Hate the World (paid with a bond point)
# movement talents (grid: battle_grid.py; gridless see talents.py)
E_MOVE_ATTACK = 47     # Dash Strike, Pounce
E_TELEPORT = 48        # Teleport, Monster Teleport
E_EXTRA_MOVE = 49      # Bypass, Swift
E_SPRINT = 50          # Sprint
E_SLITHER = 51         # Slither Away
E_SHOVE = 52           # Get Over Here (pull), Repel (push)
E_SAFE_PLACE = 53      # Safe Place
E_SWITCH = 54          # Defensive Switch
E_CLOSER = 55          # And Your Enemies Closer
E_MORE = 62
# area and terrain talents (codes 56-61, 72-79 reserved for them)
E_AREA_ATTACK = 56     # Blast Strike, Burst Attack
E_GRAVITY = 57         # Gravity Wave
E_VEIL = 58            # Veil
E_ROUGH_GOING = 59     # Rough Going
E_LASHING = 60         # Lashing Ground
E_MINES = 61           # Mines
E_SCATTER = 72         # Scattering shot (C_TMASK2)
E_BARRIER = 73         # Create Barrier (C_TMASK2; grid only: battle_grid.create_barrier)
E_POWER_DAMPENING = 64  # Power Dampening (a 1 on her magical action: -1 overcharge on her or an ally)
E_DAMPEN_OC = 65        # Dampen Overcharge (an ally's overcharge from one action is halved)
E_RADIATION = 66        # Overcharge Radiation (1d6 overcharge on every girl at the end of the scene)
E_POSSESSION = 67       # Possession (-P1 to attributes and damage, +P2 d6 on every attack it suffers, its host)
E_MINION_CREATION = 80  # Minion Creation (P1 = the monster's spread: minions per turn, set by the compiler)
E_MARIONETTE = 81       # Marionette
# the draft's own talents (seed 001; sim.systems.mbdraft.catalog)
E_HEX = 88              # Hex (Minor: P1 damage at the start of every round for the rest of the scene)
E_EVASION = 89          # Evasion (free, after a hit: + P1 to her defence result)
E_REGEN = 90            # Regeneration (free: P1 Resolve at the start of every round for the rest of the scene)
E_DETONATION = 91       # Magic Detonation (an attack whose damage is the target's overcharge)
E_MOOD = 92             # Empower (P1 = 1, herself) / Rouse (P1 = 0, an ally): Excited or Calm
E_GET_BACK = 93         # Get Back (Minor, positions: an engaged, hurt ally within C_TREACH to Position 1)
E_LETS_MOVE = 94        # Let's Move (Minor, positions: her Movement and one step for an ally)

# ailments (L1459-1467): offsets within D_AIL
A_STUN = 0
A_BOUND = 1
A_BLEED = 2

# policy values
TARGET_WEAKEST = 0
TARGET_RANDOM = 1
TARGET_STRONGEST = 2
TARGET_NEAREST = 3
MOVE_CLOSE = 0     # close in to melee range
MOVE_KEEP = 1      # keep at ranged range (2-3)
MOVE_HOLD = 2      # never move
MOVE_PROTECT = 3   # stay next to the most hurt ally
SORCERY_NEVER = 0
SORCERY_MINOR = 1
SORCERY_MAJOR = 2
SORCERY_TURN = 3   # the whole turn (Minor and Major)
BOOST_NEVER = 0
BOOST_ALWAYS = 1
BOOST_LOSING = 2

# burst and frenzy modes
BURSTS_COUNT = 1         # rules[R_BURSTS]: bursts counted, not played
FRENZY_COSTLESS_TOO = 2  # D_FRENZY under fury_talents: and_costless
FRENZY_NO_TALENTS = 3    # D_FRENZY under fury_talents: none

BOOST_FLAT_DAMAGE = 2  # "adds or subtracts 2 from the final damage" (L1565)
