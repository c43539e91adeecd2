"""Property tests of the mb41 kernel on random small scenarios (hypothesis).

Random scenarios (1-3 members a side, girls and monsters, stats 0-8, random
policies and rule options among valid values, random seeds) are played with
random dice, and invariants are checked:

* after every single attack (:func:`test_attack_invariants`): Resolve stays in
  [0, max] and only the target's changes; wounds only on a girl already at 0;
  monsters never gain overcharge; boosts never exceed the uses left or
  ``boosts_per_roll``; bystanders are untouched;
* after every fight (:func:`test_fight_invariants`, a Python loop over trials
  seeded exactly as ``simulate_blocks`` does): the end state and the per-fight
  counters agree (Boost uses <= ``boost_uses``, pool spending, overcharge
  bookkeeping, deaths, revives, the outcome), and the loop's totals equal
  ``mb41.simulate`` on the same trials;
* over a run (:func:`test_simulate_totals_and_thread_independence`): outcome
  counts sum to the trials, per-trial counters stay <= trials, and the same
  seed gives identical counters with 1 and 2 numba threads and when the run is
  split in two chunks.
"""
from __future__ import annotations

import numba
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.rng import STATE_WORDS, seed_stream, stream_key
from sim.systems import mb41
from engine41 import K

from helpers import mb41_call, mb41_data, mb41_fight, mb41_inputs, mb41_state

STATS = ("heart", "fury", "judgment")
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ------------------------------------------------------------------ strategies

stat = st.integers(0, 8)


@st.composite
def policies(draw):
    p = {"name": draw(st.sampled_from(["focus-weakest", "random-target"])),
         "boost": draw(st.sampled_from(["never", "always", "when-losing"])),
         "boost_margin": draw(st.integers(0, 6)),
         "overcharge_cap": draw(st.integers(0, 14)),
         "finish_downed": draw(st.booleans())}
    return p


@st.composite
def members(draw, name, monsters=True):
    kind = draw(st.sampled_from(["girl", "monster"])) if monsters else "girl"
    m = {"name": name, "kind": kind, "tenacity": draw(st.integers(0, 5)),
         "attack_kind": draw(st.sampled_from(["melee", "ranged"])), "policy": draw(policies())}
    if kind == "monster":
        m.update(attack=draw(stat), defence=draw(stat), support=draw(stat))
        if draw(st.booleans()):
            m["resolve"] = draw(st.integers(1, 30))
        else:
            m["spread"] = draw(st.integers(1, 2))
            m["power_level"] = draw(st.integers(2, 8))
        if draw(st.booleans()):
            m["damage_bonus"] = draw(st.integers(-2, 4))
        if draw(st.booleans()):
            m["overcharge_pool"] = draw(st.integers(0, 12))
        return m
    if draw(st.booleans()):
        m.update(attack=draw(stat), defence=draw(stat), support=draw(stat))
    else:
        m.update(heart=draw(stat), fury=draw(stat), judgment=draw(stat))
        roles = draw(st.permutations(STATS))
        m["roles"] = dict(zip(("attack", "defence", "support"), roles))
    if draw(st.booleans()):
        m["resolve"] = draw(st.integers(1, 25))
    m["overcharge"] = {s: draw(st.integers(0, 12)) for s in STATS}
    return m


@st.composite
def rule_sets(draw):
    return {
        "initiative": draw(st.sampled_from(["roll", "listed"])),
        "round_cap": draw(st.integers(1, 15)),
        "defeat": draw(st.sampled_from(["all_down", "all_dead"])),
        "full_tie": draw(st.sampled_from(["defender", "attacker"])),
        "min_damage": draw(st.integers(0, 2)),
        "damage_dice": draw(st.integers(1, 2)),
        "boost_uses": draw(st.integers(0, 4)),
        "boost_damage": draw(st.sampled_from(["flat", "six_only"])),
        "boost_timing": draw(st.sampled_from(["after_roll", "before_roll"])),
        "boosts_per_roll": draw(st.integers(0, 3)),
        "burst_at": draw(st.integers(5, 13)),
        "burst_resets": draw(st.booleans()),
        "bursts": draw(st.sampled_from(["play", "count"])),
        "fury_target": draw(st.sampled_from(["threat", "random", "enemies"])),
        "fury_second_turn": draw(st.sampled_from(["end_of_round", "consecutive"])),
        "judgment_self": draw(st.booleans()),
        "resolve": draw(st.integers(4, 18)),
        "death_wounds": draw(st.integers(1, 8)),
        "revive": draw(st.booleans()),
        "revive_limit": draw(st.integers(-1, 3)),
        "downed_defence": draw(st.sampled_from(["tenacity", "none"])),
        "wound_model": draw(st.sampled_from(["track", "per_hit", "boxes"])),
        "downed_damage": draw(st.sampled_from(["full", "weapon"])),
        "monster_six_cost": draw(st.integers(0, 2)),
    }


@st.composite
def scenarios(draw):
    na = draw(st.integers(1, 3))
    nb = draw(st.integers(1, 3))
    a = [draw(members(f"a{k}", monsters=False)) for k in range(na)]
    b = [draw(members(f"b{k}")) for k in range(nb)]
    return mb41_data(a, b, rules=draw(rule_sets()), seed=draw(st.integers(0, 2**40)))


def seeded(key, trial, streams=None):
    """The four streams of ``trial`` exactly as ``simulate_blocks`` seeds them."""
    if streams is None:
        streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    for p in range(K.NS):
        seed_stream(streams[p], key, trial, p)
    return streams


# ------------------------------------------------------------------ per attack


@settings(max_examples=150, **SETTINGS)
@given(scn=scenarios(), data=st.data())
def test_attack_invariants(scn, data):
    """One attack from a random mid-fight state: only attacker and target change,
    Resolve stays in [0, max], wounds only on a girl already at 0 (L1420), monsters
    gain no overcharge (L1892), boosts within uses and ``boosts_per_roll`` (L1565)."""
    inp = mb41_inputs(scn)
    comb, r = inp.comb, inp.rules
    dyn, cc = mb41_state(inp)
    n = inp.n
    i = data.draw(st.integers(0, n - 1), label="attacker")
    # a random mid-fight state (the attacker standing)
    for j in range(n):
        girl = comb[j, K.C_MONSTER] == 0
        lo = 0 if girl and j != i else 1
        dyn[j, K.D_RES] = data.draw(st.integers(lo, int(comb[j, K.C_RES])))
        if girl:
            dyn[j, K.D_OC:K.D_OC + 3] = [data.draw(st.integers(0, int(r[K.R_BURST_AT]) - 1)) for _ in range(3)]
            dyn[j, K.D_BOOSTS] = data.draw(st.integers(0, int(comb[j, K.C_BOOSTS])))
            if dyn[j, K.D_RES] == 0:
                dyn[j, K.D_KO] = 1
                dyn[j, K.D_WOUNDS] = data.draw(st.integers(0, int(r[K.R_DEATH_WOUNDS]) - 1))
                dyn[j, K.D_PENDING] = data.draw(st.sampled_from([-1, 1, 5, 12]))
        else:
            dyn[j, K.D_POOL] = data.draw(st.integers(0, int(comb[j, K.C_POOL])))
    enemies = [j for j in range(n) if comb[j, K.C_SIDE] != comb[i, K.C_SIDE]]
    t = data.draw(st.sampled_from(enemies))
    streams = seeded(np.uint64(data.draw(st.integers(0, 2**63))), data.draw(st.integers(0, 10**6)))
    before = dyn.copy()

    dealt = int(mb41_call(K.attack, i=i, t=t, comb=comb, pol=inp.pol, rules=r, dyn=dyn,
                          streams=streams, cc=cc))

    own = np.zeros(K.NDYN, dtype=bool)
    own[K.NK:] = True  # the state columns (her counters come first)
    own[K.D_DUE] = False  # row 0 also holds the fight's "something is due" flag (settle)
    for j in range(n):
        if j not in (i, t):
            assert (dyn[j, own] == before[j, own]).all(), "a bystander changed"
    assert (dyn[:, K.D_RES] >= 0).all() and (dyn[:, K.D_RES] <= comb[:, K.C_RES]).all()
    assert dyn[i, K.D_RES] == before[i, K.D_RES] and dyn[i, K.D_WOUNDS] == before[i, K.D_WOUNDS]
    assert cc[i, K.K_ATTACKS] == 1
    assert (dealt >= 0) == (cc[i, K.K_HITS] == 1)
    if dealt < 0:
        assert dyn[t, K.D_RES] == before[t, K.D_RES] and dyn[t, K.D_WOUNDS] == before[t, K.D_WOUNDS]
    if before[t, K.D_RES] > 0:
        # magical target: Resolve loss only, overflow ignored (L1420)
        assert dyn[t, K.D_WOUNDS] == before[t, K.D_WOUNDS]
        assert dyn[t, K.D_RES] == before[t, K.D_RES] - max(dealt, 0)
        if dyn[t, K.D_RES] > 0 or comb[t, K.C_MONSTER] != 0 or r[K.R_REVIVE] == 0:
            assert dyn[t, K.D_PENDING] == before[t, K.D_PENDING]
        assert dyn[t, K.D_DEAD] == int(comb[t, K.C_MONSTER] != 0 and dyn[t, K.D_RES] == 0)
    else:
        # a downed girl: wounds only (L1422)
        assert comb[t, K.C_MONSTER] == 0
        assert dyn[t, K.D_RES] == 0
        assert dyn[t, K.D_WOUNDS] == before[t, K.D_WOUNDS] + max(dealt, 0)
        if r[K.R_WOUND_MODEL] == 0:      # one track (A16a)
            assert dyn[t, K.D_DEAD] == int(dyn[t, K.D_WOUNDS] >= r[K.R_DEATH_WOUNDS])
        elif r[K.R_WOUND_MODEL] == 1:    # a single hit of death_wounds (A16b)
            assert dyn[t, K.D_DEAD] == int(dealt >= r[K.R_DEATH_WOUNDS])
        else:                            # boxes (A16c): her first box now
            assert dyn[t, K.D_DEAD] == 0 and dyn[t, K.D_WOUND_HITS] == int(dealt > 0)
        if r[K.R_DOWNED_DAMAGE] == 1:    # a weapon's 1d6 (A17b)
            assert dealt <= 6
        assert (dyn[t, K.D_OC:K.D_OC + 3] == before[t, K.D_OC:K.D_OC + 3]).all()
        assert dyn[t, K.D_BOOSTS] == before[t, K.D_BOOSTS]
    assert cc[t, K.K_WOUND_DMG] == dyn[t, K.D_WOUNDS] - before[t, K.D_WOUNDS]
    for j in (i, t):
        used = before[j, K.D_BOOSTS] - dyn[j, K.D_BOOSTS]
        assert 0 <= used <= r[K.R_BOOSTS_PER_ROLL] and dyn[j, K.D_BOOSTS] >= 0
        assert cc[j, K.K_BOOSTS] == used
        if comb[j, K.C_MONSTER] != 0:
            assert (dyn[j, K.D_OC:K.D_OC + 3] == 0).all() and not cc[j, K.K_OC_GAIN:K.K_OC_GAIN + 3].any()
            assert 0 <= dyn[j, K.D_POOL] <= before[j, K.D_POOL]
        else:
            assert (dyn[j, K.D_OC:K.D_OC + 3] >= 0).all()
            assert dyn[j, K.D_POOL] == before[j, K.D_POOL]
            if r[K.R_BURSTS] == K.BURSTS_COUNT:
                if r[K.R_BURST_RESETS]:
                    assert (dyn[j, K.D_OC:K.D_OC + 3] < r[K.R_BURST_AT]).all()
            else:  # bursts play: a counter at the threshold has its burst due (played after the action)
                for s in range(3):
                    if dyn[j, K.D_OC + s] >= r[K.R_BURST_AT]:
                        assert dyn[j, K.D_PEND + s] == 1


# ------------------------------------------------------------------ per fight


def check_fight(inp, dyn, cc, outcome, rounds):
    comb, r = inp.comb, inp.rules
    cap = int(r[K.R_ROUND_CAP])
    assert outcome in (K.F_WIN, K.F_LOSS, K.F_DRAW)
    assert 1 <= rounds <= cap
    play = r[K.R_BURSTS] != K.BURSTS_COUNT
    if outcome == K.F_DRAW:
        if not play:                  # one attack changes one side (a Judgment Burst may down both)
            assert rounds == cap
    else:
        assert mb41_call(K.outcome_now, comb=comb, rules=r, dyn=dyn) == outcome
    res = dyn[:, K.D_RES]
    assert (res >= 0).all() and (res <= comb[:, K.C_RES]).all()
    assert (cc[:, K.K_RES_END] == res).all()
    assert (cc[:, K.K_HITS] <= cc[:, K.K_ATTACKS]).all()
    assert cc[:, K.K_DEALT].sum() == cc[:, K.K_TAKEN].sum()  # a Judgment Burst counts as dealt too
    assert (cc[:, K.K_DEATHS] == dyn[:, K.D_DEAD] - dyn[:, K.D_LOST]).all()
    check_bonds(inp, dyn, cc)
    assert (cc[:, K.K_KO_TRIALS] == dyn[:, K.D_KO]).all()
    assert (cc[:, K.K_KOS] >= cc[:, K.K_KO_TRIALS]).all()
    for j in range(inp.n):
        standing = dyn[j, K.D_DEAD] == 0 and res[j] > 0
        assert cc[j, K.K_STANDING_END] == int(standing)
        if comb[j, K.C_MONSTER] != 0:
            assert (dyn[j, K.D_OC:K.D_OC + 3] == 0).all()
            assert not cc[j, K.K_OC_GAIN:K.K_OC_GAIN + 3].any() and not cc[j, K.K_BURSTS:K.K_BURSTS + 3].any()
            assert cc[j, K.K_BOOSTS] == 0 and cc[j, K.K_REVIVES] == 0
            assert dyn[j, K.D_WOUNDS] == 0 and cc[j, K.K_WOUND_DMG] == 0
            assert dyn[j, K.D_DEAD] == int(res[j] == 0)
            assert 0 <= dyn[j, K.D_POOL] and cc[j, K.K_POOL_SPENT] == comb[j, K.C_POOL] - dyn[j, K.D_POOL]
            assert cc[j, K.K_TAKEN] == comb[j, K.C_RES] - res[j]
            continue
        # girls
        assert cc[j, K.K_POOL_SPENT] == 0
        assert 0 <= dyn[j, K.D_BOOSTS] and cc[j, K.K_BOOSTS] == comb[j, K.C_BOOSTS] - dyn[j, K.D_BOOSTS]
        assert cc[j, K.K_BOOSTS] <= r[K.R_BOOST_USES]
        assert cc[j, K.K_WOUND_DMG] == dyn[j, K.D_WOUNDS]
        if dyn[j, K.D_WOUNDS] > 0:
            assert dyn[j, K.D_KO] == 1, "wounds on a girl who never dropped to 0"
        if dyn[j, K.D_LOST]:
            assert res[j] == 0 and dyn[j, K.D_PENDING] == -1 and dyn[j, K.D_DEAD] == 1
        elif dyn[j, K.D_DEAD]:
            assert res[j] == 0 and dyn[j, K.D_PENDING] == -1
            if r[K.R_WOUND_MODEL] == 2:   # boxes (A16c): the fourth hit
                assert dyn[j, K.D_WOUND_HITS] == 4
            else:                         # the track's total, or one hit of it (A16a, b)
                assert dyn[j, K.D_WOUNDS] >= r[K.R_DEATH_WOUNDS]
        elif r[K.R_WOUND_MODEL] == 0:
            assert dyn[j, K.D_WOUNDS] < r[K.R_DEATH_WOUNDS]
        elif r[K.R_WOUND_MODEL] == 1:     # per hit: no single wound of death_wounds
            assert dyn[j, K.D_WOUND_TOP] <= 3
            assert dyn[j, K.D_WOUND_HITS] <= dyn[j, K.D_WOUND_LEVELS] <= 3 * dyn[j, K.D_WOUND_HITS]
        else:
            assert dyn[j, K.D_WOUND_HITS] <= 3
        if res[j] > 0:
            assert dyn[j, K.D_PENDING] == -1
        assert cc[j, K.K_REVIVES] == dyn[j, K.D_REVIVES] <= cc[j, K.K_KOS]
        if r[K.R_REVIVE] == 0:
            assert cc[j, K.K_REVIVES] == 0
        elif r[K.R_REVIVE_LIMIT] >= 0:
            assert cc[j, K.K_REVIVES] <= r[K.R_REVIVE_LIMIT]
        resolve_damage = cc[j, K.K_TAKEN] - cc[j, K.K_WOUND_DMG] - cc[j, K.K_FRENZY_REGEN]
        if dyn[j, K.D_LOST]:
            pass
        elif cc[j, K.K_REVIVES] == 0:
            assert comb[j, K.C_RES] - res[j] == resolve_damage
        else:
            assert comb[j, K.C_RES] - res[j] <= resolve_damage
        for s in range(3):
            gained = comb[j, K.C_OC0 + s] + cc[j, K.K_OC_GAIN + s]
            assert dyn[j, K.D_OC + s] >= 0
            if play:
                if cc[j, K.K_BURSTS + s] == 0:
                    assert dyn[j, K.D_OC + s] == gained
                else:
                    assert dyn[j, K.D_OC + s] <= gained
            elif not r[K.R_BURST_RESETS] or cc[j, K.K_BURSTS + s] == 0:
                assert dyn[j, K.D_OC + s] == gained
            else:
                assert dyn[j, K.D_OC + s] < gained


def check_bonds(inp, dyn, cc):
    """Bonds (rule bursts: play): never negative, never rising; the points gone are
    the points burned; a girl is lost exactly when her bonds are gone; nothing of it
    in bursts: count; no burst is left due at the end of a fight."""
    comb, r = inp.comb, inp.rules
    b0 = comb[:, K.C_BOND:K.C_BOND + K.MAXB]
    b = dyn[:, K.D_BOND:K.D_BOND + K.MAXB]
    assert (b >= 0).all() and (b <= b0).all()
    assert ((b0 - b).sum(axis=1) == cc[:, K.K_BONDS_LOST]).all()
    assert (cc[:, K.K_LOST] == dyn[:, K.D_LOST]).all()
    assert not dyn[:, K.D_PEND:K.D_PEND + 3].any()
    for j in range(inp.n):
        if comb[j, K.C_MONSTER] != 0:
            assert not b0[j].any() and not cc[j, K.K_BONDS_LOST] and not dyn[j, K.D_FRENZY]
        if dyn[j, K.D_LOST]:
            assert not b[j].any() and dyn[j, K.D_DEAD] == 1 and not dyn[j, K.D_FRENZY]
        elif b0[j].any():
            assert b[j].any()
        if dyn[j, K.D_FRENZY]:
            assert dyn[j, K.D_OC + 1] > 0 and dyn[j, K.D_RES] > 0
        if r[K.R_BURSTS] == K.BURSTS_COUNT:
            assert (b[j] == b0[j]).all() and not dyn[j, K.D_FRENZY] and not cc[j, K.K_FRENZY_TURNS]


@settings(max_examples=120, **SETTINGS)
@given(scn=scenarios(), trials=st.integers(1, 60))
def test_fight_invariants(scn, trials):
    """Every fight of a random scenario ends in a consistent state (see module doc),
    and a trial-by-trial loop gives exactly the totals of ``mb41.simulate``."""
    inp = mb41_inputs(scn)
    key = stream_key(scn["seed"])
    total = np.zeros((inp.n, K.NK), dtype=np.int64)
    outcomes = np.zeros(3, dtype=np.int64)
    rounds_sum = 0
    streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    for trial in range(trials):
        seeded(key, trial, streams)
        dyn, cc = mb41_state(inp)
        outcome, rounds = mb41_fight(inp, dyn, streams, cc)
        check_fight(inp, dyn, cc, outcome, rounds)
        total += cc[:, :K.NK]
        outcomes[outcome] += 1
        rounds_sum += rounds
    c = mb41.simulate(inp, 0, trials, key)
    assert (c["outcomes"] == outcomes).all()
    assert int(c["rounds_sum"][0]) == rounds_sum
    assert (c["combatants"] == total).all()


# ------------------------------------------------------------------ over a run


@settings(max_examples=20, **SETTINGS)
@given(scn=scenarios(), trials=st.integers(300, 700), split=st.integers(1, 299))
def test_simulate_totals_and_thread_independence(scn, trials, split):
    """Outcome counts sum to the trials; per-trial counters (KO'd, dead, standing at
    the end) never exceed the trials; 1 or 2 numba threads and a split into two
    chunks give identical counters (keyed streams)."""
    inp = mb41_inputs(scn)
    key = stream_key(scn["seed"])
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
    assert int(one["rounds_hist"].sum()) == trials
    cc = one["combatants"]
    for col in (K.K_DEATHS, K.K_KO_TRIALS, K.K_STANDING_END):
        assert (cc[:, col] <= trials).all() and (cc[:, col] >= 0).all()
    assert (cc[:, K.K_DEATHS] <= cc[:, K.K_KO_TRIALS]).all()
    monsters = inp.comb[:, K.C_MONSTER] != 0
    assert not cc[monsters, K.K_OC_GAIN:K.K_OC_GAIN + 3].any()
    assert (cc[~monsters, K.K_BOOSTS] <= trials * inp.rules[K.R_BOOST_USES]).all()
    for name in one:
        assert np.array_equal(one[name], two[name]), f"{name} differs between 1 and {threads} threads"
    a = mb41.simulate(inp, 0, split, key)
    b = mb41.simulate(inp, split, trials - split, key)
    for name in ("outcomes", "rounds_sum", "rounds_hist", "combatants"):
        assert np.array_equal(a[name] + b[name], one[name]), f"{name}: chunked run differs"
