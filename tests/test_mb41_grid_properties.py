"""Property tests of mb41 fights on the hex grid (hypothesis).

Random battlefields (rectangles and hexagons, some wrapped, with obstacles,
rough terrain, barriers and labyrinth features: Alternating Damage, Current,
Escher Doors, Pendulum, Perilous Terrain), random sides (girls, monsters, minions; random
formations or positions), random movement/targeting/intercept/reckless
policies and grid rule options:

* :func:`test_positions_after_every_turn`: a turn-by-turn replica of
  :func:`.kernel.fight_on` checks after every turn that every combatant still
  in the fight stands on the grid, not on an obstacle or barrier, alone on
  her hex (and the occupancy says so), that Resolve is never negative nor
  above the maximum; the replica ends in exactly the state ``fight_on``
  reaches with the same streams;
* :func:`test_grid_threads_and_chunks`: the same seed gives identical
  counters with 1 and 2 numba threads and when the run is split in two
  chunks, and ``mb41.simulate`` equals a trial-by-trial loop of ``fight_on``.
"""
from __future__ import annotations

import numba
import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import mb41_call, mb41_data, mb41_inputs, mb41_state
from sim.rng import STATE_WORDS, seed_stream, stream_key
from sim.scenario import ScenarioError
from sim.systems import mb41
from engine41 import BG
from sim.systems.mb41 import grid as G
from engine41 import K
from sim.systems.mb41 import world

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def battlefields(draw):
    if draw(st.booleans()):
        w, h = draw(st.integers(3, 8)), draw(st.integers(3, 8))
        wrap = draw(st.booleans()) and h % 2 == 0 and h >= 4
        spec = {"shape": "rect", "width": w, "height": h, "wrap": wrap}
        cells = [[c, r] for c in range(w) for r in range(1, h - 1)]  # keep the home edges free
    else:
        rad = draw(st.integers(2, 4))
        spec = {"shape": "hexagon", "radius": rad, "wrap": draw(st.booleans())}
        cells = [[q, r] for q in range(-rad, rad + 1) for r in range(-rad + 1, rad)
                 if abs(q + r) <= rad and abs(q) <= rad]
    picked = draw(st.lists(st.sampled_from(cells), max_size=6, unique_by=tuple)) if cells else []
    kinds = draw(st.lists(st.sampled_from(["obstacles", "rough", "barriers"]), min_size=len(picked),
                          max_size=len(picked)))
    for xy, k in zip(picked, kinds):
        spec.setdefault(k, []).append(xy)
    if draw(st.booleans()):
        spec["labyrinth"] = draw(labyrinths(spec, cells))
    return spec


@st.composite
def labyrinths(draw, spec, cells):
    """Random labyrinth features (L2126-2166) on the free cells of ``spec``: Alternating Damage,
    Current, Escher Doors, a Pendulum (along a row), Perilous Terrain; owner b0."""
    blocked = {tuple(c) for k in ("obstacles", "barriers") for c in spec.get(k, [])}
    free = [c for c in cells if tuple(c) not in blocked]
    lab = {"owner": "b0"}
    if free and draw(st.booleans()):
        sets = draw(st.lists(st.lists(st.sampled_from(free), min_size=1, max_size=4, unique_by=tuple),
                             min_size=1, max_size=3))
        seen, clean = set(), []
        for cs in sets:
            cs = [c for c in cs if tuple(c) not in seen]
            seen.update(tuple(c) for c in cs)
            if cs:
                clean.append(cs)
        if clean:
            lab["alternating_damage"] = {"sets": clean, "damage": draw(st.integers(1, 4)),
                                         "exempt": draw(st.sampled_from(["none", "owner", "side"]))}
    if draw(st.booleans()):
        how = draw(st.sampled_from(["direction", "owner", "hex"]))
        if how == "direction":
            cur = {"direction": draw(st.sampled_from(list(G.DIRECTION_NAMES)))}
        elif how == "owner" or not cells:
            cur = {"toward": "owner"}
        else:
            cur = {"toward": draw(st.sampled_from(cells))}
        cur["exempt"] = draw(st.sampled_from(["none", "owner", "side"]))
        lab["current"] = cur
    perilous = draw(st.lists(st.sampled_from(free), max_size=2, unique_by=tuple)) if free else []
    if perilous:
        lab["perilous"] = perilous
    doorable = [c for c in free if c not in perilous]
    if len(doorable) >= 2 and draw(st.booleans()):
        a, b = draw(st.lists(st.sampled_from(doorable), min_size=2, max_size=2, unique_by=tuple))
        lab["escher_doors"] = {"pairs": [[a, b]], "choose_on": draw(st.integers(1, 7))}
    if cells and draw(st.booleans()):
        q0, r0 = draw(st.sampled_from(cells))
        row = sorted((c for c in cells if c[1] == r0 and c[0] >= q0), key=lambda c: c[0])
        run = [row[0]]
        for c in row[1:]:
            if c[0] != run[-1][0] + 1:
                break
            run.append(c)
        if len(run) >= 2:
            lab["pendulum"] = {"trajectory": run, "length": draw(st.integers(1, len(run))),
                               "exempt": draw(st.sampled_from(["none", "owner", "side"]))}
    return lab


@st.composite
def member(draw, name, side):
    kind = draw(st.sampled_from(["girl", "girl", "monster", "minion"])) if side else "girl"
    pol = {"name": draw(st.sampled_from(["focus-weakest", "random-target", "strongest-threat", "nearest"])),
           "boost": draw(st.sampled_from(["never", "when-losing"])),
           "movement": draw(st.sampled_from(["auto", "close-in", "keep-range", "hold", "protect-ally"])),
           "intercept": draw(st.sampled_from(["never", "always", "protect-below 60"])),
           "reckless": draw(st.booleans()), "finish_downed": draw(st.booleans())}
    m = {"name": name, "kind": kind, "attack_kind": draw(st.sampled_from(["melee", "ranged"])), "policy": pol}
    if kind == "minion":
        m.update(attack=draw(st.integers(0, 6)), hp=draw(st.integers(1, 6)))
        del m["policy"]["boost"]
        return m
    m.update(attack=draw(st.integers(0, 7)), defence=draw(st.integers(0, 7)), support=draw(st.integers(0, 7)),
             resolve=draw(st.integers(3, 20)))
    if kind == "girl" and draw(st.booleans()):
        m["talents"] = draw(st.sampled_from([["Boost"], ["Boost", "Heal"], ["Boost", "Inflict"],
                                             ["Boost", "Bonus Action"], ["Boost", "Curse", "Remedy"],
                                             ["Boost", "Wave of Courage", "Reflector"],
                                             ["Boost", "Dash Strike", "Get Over Here", "Sprint"],
                                             ["Teleport", "Bypass", "Defensive Switch", "And Your Enemies Closer"],
                                             ["Boost", "Safe Place", "Defensive Switch"],
                                             ["Boost", "Blast Strike", "Rough Going"]]))
    elif kind == "monster" and draw(st.booleans()):
        m["talents"] = draw(st.sampled_from([["Fear Aura"], ["Deafening Scream"], ["Blood Rain", "Fear Aura"],
                                             ["Slither Away", "Swift", "Repel"], ["Pounce", "Monster Teleport"],
                                             ["Burst Attack", "Gravity Wave"], ["Veil"]]))
    return m


@st.composite
def scenarios(draw):
    a = [draw(member(f"a{k}", 0)) for k in range(draw(st.integers(1, 3)))]
    b = [draw(member(f"b{k}", 1)) for k in range(draw(st.integers(1, 3)))]
    rules = {"grid": "hex", "initiative": draw(st.sampled_from(["roll", "listed"])),
             "round_cap": draw(st.integers(1, 12)), "revive": draw(st.booleans()),
             "disengage": draw(st.sampled_from(["moves", "unlocks"])),
             "rough_cost": draw(st.sampled_from(["same_turn", "split"])),
             "bound_reckless": draw(st.sampled_from(["major", "minor"])),
             "intercept_half": draw(st.sampled_from(["down", "up"])),
             "pendulum_moves": draw(st.sampled_from(["round", "turn"])),
             "talent_ranges": draw(st.sampled_from(["book", "unlimited"])),
             "area_allies": draw(st.booleans()),
             "gravity_targets": draw(st.sampled_from(["pulled", "adjacent"])),
             "mine_trigger": draw(st.sampled_from(["anyone", "enemies"])),
             "scatter_self": draw(st.booleans()),
             "defeat": draw(st.sampled_from(["all_down", "all_dead"]))}
    data = mb41_data(a, b, rules=rules, seed=draw(st.integers(0, 2**40)))
    data["battlefield"] = draw(battlefields())
    for side in data["sides"]:
        side["formation"] = draw(st.sampled_from(["line", "wedge", "opposite-edges"]))
    return data


def compiled(data):
    try:
        return mb41_inputs(data)
    except ScenarioError:
        assume(False)  # too many combatants for the free hexes


def seeded(key, trial, streams):
    for p in range(K.NS):
        seed_stream(streams[p], key, trial, p)
    return streams


def check_positions(inp, dyn, bf):
    field = inp.battlefield
    occ = bf[BG.BF_OCC]
    res = dyn[:, K.D_RES]
    assert (res >= 0).all() and (res <= inp.comb[:, K.C_RES]).all()
    seen = set()
    for i in range(inp.n):
        c = int(dyn[i, K.D_POS])
        if dyn[i, K.D_DEAD] != 0:
            continue  # the dead leave the battlefield (their hex is freed at the next sweep)
        assert 0 <= c < field.n, f"combatant {i} off the grid"
        assert not field.terrain[c] & G.BLOCK_MOVE, f"combatant {i} on an obstacle or barrier"
        assert c not in seen, f"two combatants on hex {c}"
        seen.add(c)
        assert occ[c] == i


def play_by_turns(inp, dyn, cc, streams, bf):
    """:func:`.kernel.fight_on` turn by turn, checking positions after each turn."""
    comb, pol, rules = inp.comb, inp.pol, inp.rules
    n, cap = inp.n, int(rules[K.R_ROUND_CAP])
    buf = world.new_buffer()
    w = world.pack(comb, rules, dyn, streams, bf, buf)  # the fight's arrays as one world (kept alive here)
    for j in range(n):
        mb41_call(K.check_bursts, i=j, comb=comb, rules=rules, dyn=dyn, cc=cc)
    mb41_call(BG.place_all, comb=comb, rules=rules, dyn=dyn, bf=bf)
    BG.refresh_fear(w)
    K.settle(w)   # bursts due at the start (bursts: play)
    check_positions(inp, dyn, bf)
    order = np.zeros(n, dtype=np.int64)
    K.roll_initiative(order, np.zeros(n, dtype=np.int64), w)
    outcome = -1
    for r in range(1, cap + 1):
        dyn[0, K.D_ROUND] = r
        bled = False
        for j in range(n):
            if dyn[j, K.D_AIL + K.A_BLEED]:
                K.bleed(j, w)
                bled = True
        if bled:
            K.settle(w)
            outcome = K.outcome_now(w)
            if outcome >= 0:
                break
        for k in range(n):
            i = int(order[k])
            if dyn[i, K.D_DEAD]:
                continue
            acts = True
            if dyn[i, K.D_RES] <= 0:
                if dyn[i, K.D_PENDING] == -1:
                    continue
                if dyn[i, K.D_PENDING] == -2:
                    K.revive_roll(i, w)
                    K.check_bursts(i, w)
                    acts = False
                dyn[i, K.D_RES] = min(dyn[i, K.D_PENDING], comb[i, K.C_RES])
                dyn[i, K.D_PENDING] = -1
            if acts:
                if dyn[i, K.D_FRENZY]:   # a Fury Burst's frenzy: her turns (bursts: play)
                    K.frenzy_turns(i, 1 + rules[K.R_FURY_SECOND_TURN], w)
                else:
                    K.play_turn(i, w)   # the turn clock, then the grid turn
                    K.settle(w)
                BG.after_turn(w)
            check_positions(inp, dyn, bf)
            outcome = K.outcome_now(w)
            if outcome >= 0:
                break
        if outcome < 0 and rules[K.R_BURSTS] != K.BURSTS_COUNT and rules[K.R_FURY_SECOND_TURN] == 0:
            for k in range(n):   # the frenzy's second turn at the end of the round (A9v-a)
                i = int(order[k])
                if K.frenzy_again(i, w):
                    outcome = K.frenzy_turns(i, 1, w)
                    check_positions(inp, dyn, bf)
                    if outcome >= 0:
                        break
        if outcome < 0:
            outcome = BG.end_of_round(r, w)  # labyrinth features
            check_positions(inp, dyn, bf)
        if outcome >= 0:
            break


@settings(max_examples=60, **SETTINGS)
@given(data=scenarios(), trials=st.integers(1, 8))
def test_positions_after_every_turn(data, trials):
    inp = compiled(data)
    key = stream_key(data["seed"])
    streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    cap = inp.round_cap
    for trial in range(trials):
        dyn, cc = mb41_state(inp)
        bf = BG.make_bf(inp.battlefield)
        play_by_turns(inp, dyn, cc, seeded(key, trial, streams), bf)
        # the replica is the kernel: same streams, same end state
        dyn2, cc2 = mb41_state(inp)
        bf2 = BG.make_bf(inp.battlefield)
        n = inp.n
        w = world.pack(inp.comb, inp.rules, dyn2, seeded(key, trial, streams), bf2, world.new_buffer())
        K.fight_on(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros((2, 2, cap + 1), dtype=np.int64), np.zeros((n, 2, cap + 1), dtype=np.int64), w)
        tally = [K.K_RES_END, K.K_STANDING_END] + list(range(K.K_TIER, K.K_TIER + 3 * K.NTIERS))
        keep = [c for c in range(K.NK) if c not in tally]
        np.testing.assert_array_equal(dyn[:, K.NK:], dyn2[:, K.NK:])  # the state (the counters below)
        np.testing.assert_array_equal(cc[:, keep], cc2[:, keep])
        assert (cc2[:, K.K_MOVES] >= 0).all() and (cc2[:, K.K_INTERCEPT_DMG] <= cc2[:, K.K_TAKEN]).all()


@settings(max_examples=15, **SETTINGS)
@given(data=scenarios(), trials=st.integers(300, 600), split=st.integers(1, 299))
def test_grid_threads_and_chunks(data, trials, split):
    inp = compiled(data)
    key = stream_key(data["seed"])
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mb41.simulate(inp, 0, trials, key)
        numba.set_num_threads(threads)
        two = mb41.simulate(inp, 0, trials, key)
    finally:
        numba.set_num_threads(old)
    assert int(one["outcomes"].sum()) == trials
    for name in one:
        assert np.array_equal(one[name], two[name]), f"{name} differs between 1 and {threads} threads"
    a = mb41.simulate(inp, 0, split, key)
    b = mb41.simulate(inp, split, trials - split, key)
    for name in ("outcomes", "rounds_sum", "rounds_hist", "combatants"):
        assert np.array_equal(a[name] + b[name], one[name]), f"{name}: chunked run differs"
    # simulate == a loop of fight_on over the same trials
    streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    total = np.zeros((inp.n, K.NK), dtype=np.int64)
    n, cap = inp.n, inp.round_cap
    bf = BG.make_bf(inp.battlefield)
    buf = world.new_buffer()
    for trial in range(split):
        dyn, cc = mb41_state(inp)
        w = world.pack(inp.comb, inp.rules, dyn, seeded(key, trial, streams), bf, buf)
        K.fight_on(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros((2, 2, cap + 1), dtype=np.int64), np.zeros((n, 2, cap + 1), dtype=np.int64), w)
        total += cc[:, :K.NK]
    assert np.array_equal(total, a["combatants"])
