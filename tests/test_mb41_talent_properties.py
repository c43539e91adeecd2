"""Property tests of the mb41 talent mechanics (hypothesis): random small
fights in which every combatant carries random simulated talents.

After every fight (trials seeded exactly as ``simulate_blocks`` does):

* uses never exceed their limits: a slot's uses left stay in [0, per scene],
  and its use count equals the uses spent (Shield and Bulwark: at most the
  points spent, one activation can spend several);
* Resolve stays in [0, max]; a monster's pool never goes below 0 and its
  spending is counted; a girl's overcharge only changes as the rules allow
  (the starting counters plus every counted gain, unless a burst reset it);
* the Fear Aura penalty on each combatant is the sum over living enemies,
  less the Courage Auras of her standing allies;
* the trial loop's totals equal ``mb41.simulate``, which gives the same
  counters on 1 and 2 threads.
"""
from __future__ import annotations

import numba
import numpy as np
from helpers import mb41_data, mb41_fight, mb41_inputs, mb41_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.rng import STATE_WORDS, seed_stream, stream_key
from sim.systems import mb41
from sim.systems.mb41 import catalog
from engine41 import K

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_GIRL_GROUPS = {"basic", "common", "guardian-knight", "striker", "medium"}


def _names(groups, exclude=()):
    out = []
    for r in catalog.rows():
        if r.simulated and r.group in groups and r.name not in exclude:
            variants = (r.mechanic or {}).get("variants")
            out.extend(variants.keys() if variants else [r.name])
    return sorted(out)


GIRL_TALENTS = _names(_GIRL_GROUPS, exclude=("Boost",))
MONSTER_TALENTS = _names({"boss", "monster"}) + _names({"common", "guardian-knight", "striker", "medium"})
MINION_TALENTS = _names({"minion"})


@st.composite
def member(draw, name, kind):
    m = {"name": name, "kind": kind, "attack_kind": draw(st.sampled_from(["melee", "ranged"])),
         "policy": {"name": draw(st.sampled_from(["focus-weakest", "random-target", "strongest-threat"])),
                    "boost": draw(st.sampled_from(["never", "always", "when-losing"])),
                    "overcharge_cap": draw(st.integers(0, 14)),
                    "finish_downed": draw(st.booleans()),
                    "heal_below": draw(st.integers(0, 100)),
                    "shield_above": draw(st.integers(0, 12)),
                    "scream_min": draw(st.integers(1, 3)),
                    "inflict": draw(st.sampled_from(["stun", "bound", "bleed"]))}}
    if kind == "minion":
        m.update(attack=draw(st.integers(0, 6)), hp=draw(st.integers(1, 6)))
        names = draw(st.lists(st.sampled_from(MINION_TALENTS), max_size=2, unique=True))
        m["talents"] = names
        m["talent_uses"] = {t: draw(st.integers(0, 3)) for t in names}
        return m
    m.update(attack=draw(st.integers(0, 8)), defence=draw(st.integers(0, 8)), support=draw(st.integers(0, 8)))
    pool = GIRL_TALENTS if kind == "girl" else MONSTER_TALENTS
    m["talents"] = draw(st.lists(st.sampled_from(pool), max_size=K.MAXT, unique=True))
    if kind == "girl":
        m["talents"] = ["Boost"] + m["talents"]
        m["resolve"] = draw(st.integers(4, 20))
        m["overcharge"] = {s: draw(st.integers(0, 10)) for s in ("heart", "fury", "judgment")}
    else:
        m["resolve"] = draw(st.integers(1, 40))
        m["overcharge_pool"] = draw(st.integers(0, 12))
        m["damage_bonus"] = draw(st.integers(0, 3))
    return m


@st.composite
def scenarios(draw):
    a = [draw(member(f"a{k}", "girl")) for k in range(draw(st.integers(1, 3)))]
    b = [draw(member(f"b{k}", draw(st.sampled_from(["monster", "minion", "girl"]))))
         for k in range(draw(st.integers(1, 3)))]
    rules = {"round_cap": draw(st.integers(1, 12)),
             "revive": draw(st.booleans()), "revive_limit": draw(st.integers(-1, 2)),
             "burst_resets": draw(st.booleans()), "burst_at": draw(st.integers(6, 13)),
             "bursts": draw(st.sampled_from(["play", "count"])),
             "burst_timing": draw(st.sampled_from(["after_action", "after_turn"])),
             "fury_spend": draw(st.sampled_from(["damage", "movement"])),
             "judgment_avoid": draw(st.sampled_from(["everyone", "girls", "nobody"])),
             "initiative": draw(st.sampled_from(["roll", "listed"])),
             "backlash_on": draw(st.sampled_from(["every_attack", "hits"])),
             "extra_turn_at": draw(st.sampled_from(["after_own_turn", "end_of_round"])),
             "killing_blow_below": draw(st.integers(1, 6))}
    return mb41_data(a, b, rules=rules, seed=draw(st.integers(0, 2**40)))


def check(inp, dyn, cc):
    comb, r = inp.comb, inp.rules
    res = dyn[:, K.D_RES]
    assert (res >= 0).all() and (res <= comb[:, K.C_RES]).all()
    for j in range(inp.n):
        for s in range(K.MAXT):
            code = comb[j, K.C_TCODE + s]
            if code == 0 or code == K.E_MONSTER_BOOST:
                continue
            limit = comb[j, K.C_TUSES + s]
            left = dyn[j, K.D_TUSES + s]
            if limit < 0:
                assert left == -1
                continue
            assert 0 <= left <= limit, (inp.talents[j][s], left, limit)
            if code == K.E_SHIELD:
                assert cc[j, K.K_TUSE + s] <= limit - left
            else:
                assert cc[j, K.K_TUSE + s] == limit - left, inp.talents[j][s]
        assert 0 <= dyn[j, K.D_BOOSTS] <= comb[j, K.C_BOOSTS]
        if comb[j, K.C_MONSTER] != 0:
            assert 0 <= dyn[j, K.D_POOL] and cc[j, K.K_POOL_SPENT] == comb[j, K.C_POOL] - dyn[j, K.D_POOL]
            assert (dyn[j, K.D_OC:K.D_OC + 3] == 0).all()
        else:
            for s in range(3):
                gained = comb[j, K.C_OC0 + s] + cc[j, K.K_OC_GAIN + s]
                # Power Dampening on her side may have taken some off (K_DAMPENED counts them, not per stat)
                pd = (int(comb[j, K.C_SIDEMASK2]) >> (K.E_POWER_DAMPENING - 64)) & 1
                lo = gained - (cc[j, K.K_DAMPENED] if pd else 0)
                assert dyn[j, K.D_OC + s] >= 0
                if r[K.R_BURSTS] != K.BURSTS_COUNT:
                    if cc[j, K.K_BURSTS + s] == 0:
                        assert lo <= dyn[j, K.D_OC + s] <= gained
                    else:
                        assert dyn[j, K.D_OC + s] <= gained
                elif not r[K.R_BURST_RESETS] or cc[j, K.K_BURSTS + s] == 0:
                    assert lo <= dyn[j, K.D_OC + s] <= gained
        fear = 0
        for e in range(inp.n):
            if comb[e, K.C_SIDE] != comb[j, K.C_SIDE] and not (comb[e, K.C_MONSTER] and dyn[e, K.D_DEAD]):
                for s in range(K.MAXT):
                    if comb[e, K.C_TCODE + s] == K.E_FEAR_AURA:
                        fear += comb[e, K.C_TP1 + s]
            if comb[e, K.C_SIDE] == comb[j, K.C_SIDE] and e != j and dyn[e, K.D_RES] > 0 and not dyn[e, K.D_DEAD]:
                for s in range(K.MAXT):
                    if comb[e, K.C_TCODE + s] == K.E_COURAGE:
                        fear -= comb[e, K.C_TP1 + s]   # a standing ally's Courage Aura
        assert dyn[j, K.D_FEAR] == fear
    # bonds never negative, never rising; burned points are counted; lost = no bonds left
    b0 = comb[:, K.C_BOND:K.C_BOND + K.MAXB]
    b = dyn[:, K.D_BOND:K.D_BOND + K.MAXB]
    assert (b >= 0).all() and (b <= b0).all()
    assert ((b0 - b).sum(axis=1) == cc[:, K.K_BONDS_LOST]).all()
    assert (cc[:, K.K_LOST] == dyn[:, K.D_LOST]).all() and not dyn[:, K.D_PEND:K.D_PEND + 3].any()
    for j in range(inp.n):
        if dyn[j, K.D_LOST]:
            assert not b[j].any() and dyn[j, K.D_DEAD] == 1
        if r[K.R_BURSTS] == K.BURSTS_COUNT:
            # no burst plays: only Hate the World spends bond points
            hate = sum(cc[j, K.K_TUSE + s] for s in range(K.MAXT) if comb[j, K.C_TCODE + s] == K.E_HATE)
            assert b0[j].sum() - b[j].sum() == hate and not cc[j, K.K_FRENZY_TURNS]


@settings(max_examples=80, **SETTINGS)
@given(scn=scenarios(), trials=st.integers(1, 25))
def test_talent_fight_invariants(scn, trials):
    inp = mb41_inputs(scn)
    key = stream_key(scn["seed"])
    total = np.zeros((inp.n, K.NK), dtype=np.int64)
    streams = np.zeros((K.NS, STATE_WORDS), dtype=np.uint64)
    for trial in range(trials):
        for p in range(K.NS):
            seed_stream(streams[p], key, trial, p)
        dyn, cc = mb41_state(inp)
        mb41_fight(inp, dyn, streams, cc)
        check(inp, dyn, cc)
        total += cc[:, :K.NK]
    c = mb41.simulate(inp, 0, trials, key)
    assert (c["combatants"] == total).all()


@settings(max_examples=8, **SETTINGS)
@given(scn=scenarios())
def test_talent_runs_same_on_one_and_two_threads(scn):
    inp = mb41_inputs(scn)
    key = stream_key(scn["seed"])
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mb41.simulate(inp, 0, 600, key)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = mb41.simulate(inp, 0, 600, key)
    finally:
        numba.set_num_threads(old)
    for k in one:
        assert np.array_equal(one[k], two[k]), k
