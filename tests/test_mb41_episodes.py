"""Episodes of Magical Burst 4.1: several scenes (fights) with rests between
them, state carried over (seed 000 L1420-1451, L1571; audit A6, A18, A54).

Scripted tests call :func:`kernel.next_scene` (the step between two scenes)
with injected dice; the episode kernel itself is checked against the plain
fight (one scene = the fight, bit for bit), across thread counts, and on the
loss-ends-the-episode rule.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest
from helpers import Script, faces, load_data, mb41_call, mb41_member

from sim.scenario.errors import ScenarioError
from sim.systems import mb41
from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2


def girl(name, **kw):
    m = {"attack": 4, "defence": 4, "support": 3, "policy": {"boost": "never", "overcharge_cap": 99}}
    m.update(kw)
    return mb41_member(name, **m)


def foe(name, **kw):
    m = {"kind": "monster", "resolve": 20, "damage_bonus": 0, "overcharge_pool": 10}
    m.update(kw)
    return mb41_member(name, **m)


def episode_data(party, scenes, rules=None, rest=None, **top) -> dict:
    """An episode scenario dict: ``party`` member dicts, ``scenes`` lists of enemy member dicts."""
    r = {"grid": "none", "revive": False, "initiative": "listed"}
    r.update(rules or {})
    ep = {"scenes": [{"name": f"S{k + 1}", "enemies": {"name": f"foes{k + 1}", "members": list(m)}}
                     for k, m in enumerate(scenes)]}
    if rest is not None:
        ep["rest"] = rest
    d = {"name": "episode", "system": "mb41", "seed": 3, "trials": 1000, "rules": r,
         "sides": [{"name": "girls", "members": list(party)}], "episode": ep}
    d.update(top)
    return d


def compiled(data):
    return mb41.compile(load_data(data).base)


def state(inp):
    """Fresh stacked ``dyn`` (block 0 reset) and a copy of ``comb`` to write maxima in."""
    dyn = np.zeros((inp.n, K.NDYN), dtype=np.int64)
    comb = inp.comb.copy()
    a, e = int(inp.episode.offsets[0]), int(inp.episode.offsets[1])
    mb41_call(K.reset, comb=comb[a:e], rules=inp.rules, dyn=dyn[a:e])
    return comb, dyn


def step(inp, comb, dyn, s_from, script, recover=None):
    """Go from scene ``s_from`` to the next (0-based) with scripted dice; returns the party counters."""
    ep = inp.episode
    party = np.zeros((ep.party, K.NPE), dtype=np.int64)
    rec = int(ep.recover[s_from]) if recover is None else recover
    mb41_call(K.next_scene, comb=comb, rules=inp.rules, dyn=dyn, prev=int(ep.offsets[s_from]),
              a=int(ep.offsets[s_from + 1]), e=int(ep.offsets[s_from + 2]), ng=ep.party, recover=rec,
              streams=script.streams, party=party)
    script.assert_consumed()
    return party


TWO = [[foe("Hound")], [foe("Lord", resolve=30), foe("Imp", resolve=5)]]


# ------------------------------------------------------------------ layout


def test_stacked_blocks_party_first_in_every_scene():
    inp = compiled(episode_data([girl("Aoi"), girl("Bea")], TWO))
    ep = inp.episode
    assert ep.offsets.tolist() == [0, 3, 7]
    assert ep.party == 2 and ep.scene_names == ["S1", "S2"]
    assert inp.names == ["Aoi", "Bea", "Hound", "Aoi", "Bea", "Lord", "Imp"]
    assert inp.comb[:, K.C_SIDE].tolist() == [0, 0, 1, 0, 0, 1, 1]
    assert inp.comb[:, K.C_ORDER].tolist() == [0, 1, 2, 0, 1, 2, 3]   # per scene (listed initiative)
    assert ep.recover.tolist() == [0, 0]


def test_scene_columns_are_dynamic_columns():
    for name in K.SCENE_COLUMNS:
        assert isinstance(getattr(K, name), int)
    assert K.ND > 50 and K.NK <= K.D_RECOVERS < K.NDYN


# ------------------------------------------------------------------ carry-over


def test_carry_over_resolve_wounds_penalty_overcharge_and_uses():
    """Resolve and overcharge carry (A6); the wound penalty is rolled at the next
    scene (1d6 per wound level minus Tenacity, L1443, A18); per-scene uses and
    Boost come back, per-episode uses (Steal Action 3/Episode) do not (A54);
    ailments end with the scene; enemies start fresh; any other column (e.g. a
    bond column added later) carries."""
    party = [girl("Aoi", tenacity=2, talents=["Boost", "Healing Magic", "Steal Action"]), girl("Bea")]
    inp = compiled(episode_data(party, TWO))
    comb, dyn = state(inp)
    heal, steal = 0, 1
    assert comb[0, K.C_TEPISODE] == 1 << steal
    dyn[0, K.D_RES] = 7
    dyn[0, K.D_WOUNDS] = 3                 # wound level 2 (A16a)
    dyn[0, K.D_OC + FURY] = 9
    dyn[0, K.D_BOOSTS] = 0
    dyn[0, K.D_TUSES + heal] = 0
    dyn[0, K.D_TUSES + steal] = 1
    dyn[0, K.D_AIL + 1] = 1
    dyn[0, K.D_BOND + 3] = 7               # a column nobody resets per scene (her bonds carry over)
    dyn[2, K.D_RES] = 0                    # the hound, dead
    dyn[2, K.D_DEAD] = 1
    step(inp, comb, dyn, 0, Script(setup=faces(4, 5)))   # 2d6 = 9, minus Tenacity 2: penalty 7
    a = 3
    assert comb[a, K.C_RES] == 11 and inp.comb[a, K.C_RES] == 18   # the stacked copy only
    assert dyn[a, K.D_RES] == 7
    assert dyn[a, K.D_WOUNDS] == 3 and dyn[a, K.D_PEN_DICE] == 9 and dyn[a, K.D_PEN_LEVELS] == 2
    assert dyn[a, K.D_OC + FURY] == 9
    assert dyn[a, K.D_BOOSTS] == 3
    assert dyn[a, K.D_TUSES + heal] == 2 and dyn[a, K.D_TUSES + steal] == 1
    assert dyn[a, K.D_AIL + 1] == 0
    assert dyn[a, K.D_BOND + 3] == 7
    assert dyn[a + 1, K.D_RES] == 18 and comb[a + 1, K.C_RES] == 18     # Bea: no wounds, no dice
    assert dyn[5, K.D_RES] == 30 and dyn[5, K.D_DEAD] == 0 and dyn[6, K.D_RES] == 5   # fresh enemies


def test_penalty_dice_only_for_new_levels_and_floor():
    data = episode_data([girl("Aoi", tenacity=0)], [[foe("A")], [foe("B")], [foe("C")]])
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_WOUNDS] = 1                 # level 1
    step(inp, comb, dyn, 0, Script(setup=faces(6)))
    assert comb[2, K.C_RES] == 12 and dyn[2, K.D_RES] == 12   # 18 - 6, Resolve capped
    step(inp, comb, dyn, 1, Script())      # same level: no new die, same maximum
    assert comb[4, K.C_RES] == 12
    dyn[2, K.D_WOUNDS] = 5                 # level 3: two more dice
    step(inp, comb, dyn, 1, Script(setup=faces(6, 6)))
    assert comb[4, K.C_RES] == 1           # 18 - 18 = 0, floored at min_max_resolve 1 (A18iii)
    assert dyn[4, K.D_RES] == 1


def test_wound_penalty_per_wound_or_none():
    data = episode_data([girl("Aoi", tenacity=1)], [[foe("A")], [foe("B")]], rules={"wound_penalty": "wounds"})
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_WOUNDS] = 2                 # level 1, but three separate wounds (A18i b)
    dyn[0, K.D_WOUND_HITS] = 3
    step(inp, comb, dyn, 0, Script(setup=faces(1, 2, 3)))
    assert comb[2, K.C_RES] == 18 - (6 - 1)   # rows: Aoi, A | Aoi, B
    data["rules"]["wound_penalty"] = "none"
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_WOUNDS] = 5
    step(inp, comb, dyn, 0, Script())
    assert comb[2, K.C_RES] == 18


def test_wound_hits_count_damage_at_zero_resolve():
    inp = compiled(episode_data([girl("Aoi")], [[foe("A")]]))
    comb, dyn = state(inp)
    cc = dyn  # one buffer: counters and state
    dyn[0, K.D_RES] = 0
    for dmg in (1, 2):
        mb41_call(K.apply_damage, t=0, dmg=dmg, comb=comb, rules=inp.rules, dyn=dyn,
                  streams=Script().streams, cc=cc)
    assert dyn[0, K.D_WOUNDS] == 3 and dyn[0, K.D_WOUND_HITS] == 2


@pytest.mark.parametrize("model, dice", [("track", 3), ("per_hit", 4), ("boxes", 2)])
def test_wound_levels_between_scenes_follow_the_wound_model(model, dice):
    """Two hits of 3 at 0 Resolve (death_wounds 10: nobody dies), then the next scene's
    penalty, 1d6 per wound level (L1443, A18i a): the track (A16a) holds 6 damage, level 3
    (3 dice); per hit (A16b) two level-2 wounds, 2 + 2 = 4 dice; boxes (A16c) two boxes, 2
    dice. Tenacity 0 and every die a 1: the penalty is the number of dice."""
    data = episode_data([girl("Aoi", tenacity=0)], [[foe("A")], [foe("B")]],
                        rules={"wound_model": model, "death_wounds": 10})
    inp = compiled(data)
    comb, dyn = state(inp)
    cc = dyn  # one buffer: counters and state
    dyn[0, K.D_RES] = 0
    for _ in range(2):
        mb41_call(K.apply_damage, t=0, dmg=3, comb=comb, rules=inp.rules, dyn=dyn, streams=Script().streams, cc=cc)
    assert dyn[0, K.D_DEAD] == 0
    step(inp, comb, dyn, 0, Script(setup=faces(*[1] * dice)))
    assert comb[2, K.C_RES] == 18 - dice and dyn[2, K.D_PEN_LEVELS] == dice


def test_recover_in_the_rest_capped_and_limited_per_episode():
    """Recover (L1571): 1d6+2 while below the maximum, never above the
    wound-penalised maximum; at most recover_uses (2) per episode."""
    data = episode_data([girl("Aoi", tenacity=2), girl("Bea")], [[foe("A")], [foe("B")], [foe("C")]],
                        rest={"recover": 2})
    inp = compiled(data)
    assert inp.episode.recover.tolist() == [2, 2, 0]
    comb, dyn = state(inp)
    dyn[0, K.D_RES] = 2
    dyn[0, K.D_WOUNDS] = 1                 # level 1: 1d6 - 2
    dyn[1, K.D_RES] = 17
    # Aoi: penalty die 5 -> max 15; Recover 3+2 -> 7, 6+2 -> 15 (cap); Bea: 1+2 -> 18 (cap), then full
    party = step(inp, comb, dyn, 0, Script(setup=faces(5, 3, 6, 1)))
    # rows: Aoi, Bea, A | Aoi, Bea, B | Aoi, Bea, C
    assert comb[3, K.C_RES] == 15 and dyn[3, K.D_RES] == 15
    assert dyn[4, K.D_RES] == 18
    assert party[0, K.PE_RECOVERS] == 2 and party[0, K.PE_RECOVERED] == 13
    assert party[1, K.PE_RECOVERS] == 1 and party[1, K.PE_RECOVERED] == 1
    dyn[3, K.D_RES] = 3
    dyn[4, K.D_RES] = 3
    step(inp, comb, dyn, 1, Script(setup=faces(2)))   # Aoi used both; Bea one more: 2+2
    assert dyn[6, K.D_RES] == 3 and dyn[7, K.D_RES] == 7


def test_resolve_full_refill_option_and_downed_girls():
    data = episode_data([girl("Aoi"), girl("Bea"), girl("Cho")], [[foe("A")], [foe("B")]])
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_RES] = 0
    dyn[0, K.D_PENDING] = 6                # downed, her revive pending: rises (scene_downed rise)
    dyn[1, K.D_RES] = 0                    # downed, no revive pending: stays down
    dyn[2, K.D_RES] = 0
    dyn[2, K.D_DEAD] = 1                   # dead stays dead
    step(inp, comb, dyn, 0, Script())
    assert dyn[4, K.D_RES] == 6 and dyn[4, K.D_PENDING] == -1
    assert dyn[5, K.D_RES] == 0 and dyn[6, K.D_DEAD] == 1
    data["rules"].update(scene_downed="down")
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_RES] = 0
    dyn[0, K.D_PENDING] = 6
    step(inp, comb, dyn, 0, Script())
    assert dyn[4, K.D_RES] == 0 and dyn[4, K.D_PENDING] == -1
    data["rules"].update(scene_resolve="full", scene_downed="rise")
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_RES] = 4
    dyn[1, K.D_RES] = 0
    dyn[2, K.D_DEAD] = 1
    dyn[2, K.D_RES] = 0
    step(inp, comb, dyn, 0, Script())
    assert dyn[4, K.D_RES] == 18 and dyn[5, K.D_RES] == 18 and dyn[6, K.D_RES] == 0


def test_overcharge_reset_and_per_scene_uses_options():
    party = [girl("Aoi", talents=["Steal Action"], overcharge={"fury": 2})]
    data = episode_data(party, [[foe("A")], [foe("B")]],
                        rules={"scene_overcharge": "reset", "episode_uses": "scene"})
    inp = compiled(data)
    comb, dyn = state(inp)
    dyn[0, K.D_OC + FURY] = 11
    dyn[0, K.D_TUSES] = 0
    step(inp, comb, dyn, 0, Script())
    assert dyn[2, K.D_OC + FURY] == 2 and dyn[2, K.D_TUSES] == 3


# ------------------------------------------------------------------ the episode kernel


def _plain_of(data):
    """The plain two-side scenario of a one-scene episode."""
    d = copy.deepcopy(data)
    ep = d.pop("episode")
    d["sides"].append(ep["scenes"][0]["enemies"])
    return d


PARTY = [girl("Aoi", talents=["Boost", "Healing Magic"], policy="support-first"),
         girl("Bea", attack=5, talents=["Boost", "Steal Action"])]
FOES = [foe("Hound", attack=5, defence=4, support=3, resolve=24, damage_bonus=2),
        foe("Imp", kind="minion", attack=3, resolve=None, damage_bonus=None, overcharge_pool=None)]


def test_one_scene_episode_is_the_plain_fight_bit_for_bit():
    rules = {"initiative": "roll", "revive": True}
    data = episode_data(PARTY, [FOES], rules=rules)
    ep_inp = compiled(data)
    plain = compiled(_plain_of(data))
    a = mb41.simulate(ep_inp, 0, 3000, 99)
    b = mb41.simulate(plain, 0, 3000, 99, fast=False)
    for k in ("outcomes", "rounds_sum", "rounds_hist", "side_curve", "comb_curve", "combatants"):
        assert np.array_equal(a[k], b[k]), k
    assert np.array_equal(a["scene_outcomes"][0], b["outcomes"])


def same_on_threads_and_chunks(inp, n, split, key=5):
    """Play ``n`` episodes on 1 thread, on 2, and as two chunks (``split`` + the rest);
    assert every counter is the same; return the 1-thread counters."""
    import numba

    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mb41.simulate(inp, 0, n, key)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = mb41.simulate(inp, 0, n, key)
    finally:
        numba.set_num_threads(old)
    parts = [mb41.simulate(inp, 0, split, key), mb41.simulate(inp, split, n - split, key)]
    for k in one:
        assert np.array_equal(one[k], two[k]), k
        assert np.array_equal(one[k], parts[0][k] + parts[1][k]), k
    return one


def test_episode_threads_and_chunks_do_not_change_results():
    data = episode_data(PARTY, [FOES, [foe("Lord", attack=6, defence=5, resolve=30)]],
                        rules={"initiative": "roll", "revive": True}, rest={"recover": 1})
    same_on_threads_and_chunks(compiled(data), 2048, 1000)


GRID = {"width": 8, "height": 6}


def test_one_scene_episode_on_the_grid_is_the_plain_grid_fight_bit_for_bit():
    """An episode on a battlefield plays each scene as the plain grid fight does: one scene
    gives the plain fight's counters exactly (same streams, same deployment)."""
    rules = {"initiative": "roll", "revive": True, "grid": "hex"}
    data = episode_data(PARTY, [FOES], rules=rules, battlefield=GRID)
    ep_inp = compiled(data)
    plain = compiled(_plain_of(data))
    assert ep_inp.battlefield is not None and plain.battlefield is not None
    a = mb41.simulate(ep_inp, 0, 2000, 99)
    b = mb41.simulate(plain, 0, 2000, 99)
    for k in ("outcomes", "rounds_sum", "rounds_hist", "side_curve", "comb_curve", "combatants"):
        assert np.array_equal(a[k], b[k]), k
    assert b["combatants"][:, K.K_MOVES].sum() > 0   # they did move on the grid
    gridless = mb41.simulate(compiled(episode_data(PARTY, [FOES], rules={**rules, "grid": "none"})), 0, 2000, 99)
    assert not np.array_equal(a["combatants"], gridless["combatants"])


def test_two_scene_episode_on_the_grid_redeploys_and_is_reproducible():
    """Scene 2 on the same battlefield starts from its own starting hexes (the party's too):
    the girls move again in scene 2; 1 and 2 threads and two chunks give the same counters."""
    data = episode_data(PARTY, [FOES, [foe("Lord", attack=6, defence=5, resolve=30, position=[7, 5])]],
                        rules={"initiative": "roll", "revive": True, "grid": "hex"}, rest={"recover": 1},
                        battlefield=GRID)
    inp = compiled(data)
    assert inp.battlefield is not None
    one = same_on_threads_and_chunks(inp, 1024, 500)
    off = inp.episode.offsets
    scene2 = slice(int(off[1]), int(off[2]))
    assert one["scene_outcomes"][1].sum() > 0
    assert one["combatants"][scene2][:2, K.K_MOVES].sum() > 0   # the party walked to the Lord
    assert inp.comb[int(off[1]) + 2, K.C_CELL] == inp.battlefield.cell_offset(7, 5)


def test_a_lost_scene_ends_the_episode():
    hopeless = [foe("Titan", attack=20, defence=20, support=10, resolve=500, damage_bonus=10)]
    data = episode_data([girl("Aoi")], [hopeless, [foe("Never")]])
    inp = compiled(data)
    c = mb41.simulate(inp, 0, 300, 1)
    assert c["outcomes"].tolist() == [0, 300, 0]
    assert c["scene_outcomes"][0].tolist() == [0, 300, 0]
    assert c["scene_outcomes"][1].sum() == 0
    assert c["combatants"][2:].sum() == 0           # the second scene's rows never played


def test_bookkeeping_over_an_episode():
    """Every episode reaches scene 1; scene k+1 is reached exactly by the wins of
    scene k; party counters stay within bounds."""
    data = episode_data(PARTY, [FOES, [foe("Lord", attack=6, defence=5, resolve=30)], [foe("Rex")]],
                        rules={"initiative": "roll", "revive": True}, rest={"recover": 1})
    inp = compiled(data)
    n = 1500
    c = mb41.simulate(inp, 0, n, 11)
    so = c["scene_outcomes"]
    assert so[0].sum() == n
    for k in range(2):
        assert so[k + 1].sum() == so[k, 0]
    assert c["outcomes"][0] == so[2, 0]
    assert c["rounds_hist"].sum() == n and c["rounds_sum"][0] == c["scene_rounds_sum"].sum()
    p = c["party"]
    assert (p[:, K.PE_DEAD] <= n).all() and (p[:, K.PE_RECOVERS] <= 2 * n).all()
    assert (p[:, K.PE_MAXRES_END] <= 18 * n).all()
    assert (p[:, K.PE_MAXRES_END] + p[:, K.PE_PENALTY_END] == 18 * n).all()


# ------------------------------------------------------------------ the scenario and the report


def test_runner_writes_episode_tables(tmp_path):
    from sim.report.write import write_run
    from sim.runner import run_loaded
    from sim.scenario import load_scenario

    loaded = load_scenario("scenarios/mb41/episode-three-scenes.yaml")
    res = run_loaded(loaded, trials=400)
    for name in ("episode", "episode_scenes", "episode_progress", "episode_party", "combatants", "talents"):
        assert name in res.tables and not res.tables[name].empty, name
    ep = res.tables["episode"]
    assert (ep["win_rate"].to_numpy() == res.summary["win_rate"].to_numpy()).all()
    assert set(res.summary.columns) >= {"scenes", "scenes_won"}
    prog = res.tables["episode_progress"]
    assert np.allclose(prog.groupby("variant")["rate"].sum(), 1.0)
    out = write_run(res, tmp_path / "run")
    assert (out / "episode_progress.png").exists() and (out / "episode_scenes.csv").exists()
    import json

    js = json.loads((out / "summary.json").read_text())
    assert "episode" in js["tables"] and "scenes_won" in js["results"][0]


# ------------------------------------------------------------------ bad YAML


def _err(data) -> str:
    with pytest.raises(ScenarioError) as e:
        load_data(data)
    return str(e.value)


def test_bad_episode_yaml_errors():
    base = episode_data([girl("Aoi")], [[foe("A")], [foe("B")]])
    d = copy.deepcopy(base)
    d["episode"]["scenes"][0]["enemy"] = d["episode"]["scenes"][0].pop("enemies")
    msg = _err(d)
    assert "episode.scenes[0]" in msg and "enemies" in msg
    d = copy.deepcopy(base)
    d["sides"].append({"name": "more", "members": [foe("X")]})
    assert "sides lists only the party" in _err(d)
    d = copy.deepcopy(base)
    del d["episode"]
    assert "give two sides" in _err(d)
    d = copy.deepcopy(base)
    d["episode"]["scenes"][1]["rest_after"] = {"recover": 1}
    assert "last scene has no rest" in _err(d)
    d = copy.deepcopy(base)
    d["episode"]["scenes"][1]["name"] = "S1"
    assert "two scenes are named 'S1'" in _err(d)
    d = copy.deepcopy(base)
    d["episode"]["rest"] = {"recovr": 1}
    msg = _err(d)
    assert "episode.rest.recovr" in msg and "recover" in msg
    d = copy.deepcopy(base)
    d["battlefield"] = {"width": 6, "height": 6}
    d["rules"]["grid"] = "hex"
    d["episode"]["scenes"][1]["enemies"]["members"][0]["position"] = [9, 9]
    msg = _err(d)
    assert "episode.scenes[1]" in msg and "position" in msg
    d = copy.deepcopy(base)
    d["rules"]["scene_resolv"] = "full"
    assert "scene_resolve" in _err(d)
    d = copy.deepcopy(base)
    d["episode"]["scenes"][1]["enemies"]["members"].append(girl("Aoi"))
    assert "two combatants are named 'Aoi'" in _err(d)


# ------------------------------------------------------------------ statistics (slow)


@pytest.mark.slow
def test_a_full_reset_between_scenes_makes_scene_two_a_fresh_fight():
    """With every carry-over switched off (full refill, no wound penalty,
    overcharge reset, per-scene uses) and enemies that leave downed girls alone
    (no wounds, no deaths), scene 2 given that it was reached is distributed as
    the plain fight: its win rate lies within the plain fight's interval."""
    from sim.stats import wilson

    rules = {"initiative": "roll", "revive": True, "scene_resolve": "full", "wound_penalty": "none",
             "scene_overcharge": "reset", "episode_uses": "scene"}
    foes = [dict(f, policy={"preset": "cinematic"}) for f in FOES]
    data = episode_data(PARTY, [foes, foes], rules=rules)
    c = mb41.simulate(compiled(data), 0, 40000, 17)
    assert c["party"][:, K.PE_DEAD].sum() == 0
    one = episode_data(PARTY, [foes], rules=rules)
    plain = mb41.simulate(compiled(_plain_of(one)), 0, 40000, 18)
    w2, n2 = int(c["scene_outcomes"][1, 0]), int(c["scene_outcomes"][1].sum())
    w, n = int(plain["outcomes"][0]), int(plain["outcomes"].sum())
    lo2, hi2 = wilson(w2, n2)
    lo, hi = wilson(w, n)
    assert lo2 <= hi and lo <= hi2, (w2 / n2, w / n)


def test_variant_paths_reach_the_episode():
    """``set:`` paths name scene members and sides like the party's, or start with 'episode'."""
    base = episode_data([girl("Aoi")], [[foe("Hound")], [foe("Lord"), foe("Imp", resolve=4)]],
                        rest={"recover": 1})
    d = copy.deepcopy(base)
    d["variants"] = [{"name": "v", "set": {"Lord.attack": 9, "episode.rest.recover": 2,
                                           "episode.scenes[0].enemies.members[0].resolve": 30}}]
    m = load_data(d).variants[-1][1]
    assert m.episode.scenes[1].enemies.members[0].attack == 9
    assert m.episode.rest.recover == 2 and m.episode.scenes[0].enemies.members[0].resolve == 30
    d = copy.deepcopy(base)
    d["episode"]["scenes"][0]["enemies"]["members"].append(foe("Imp", resolve=4))
    d["variants"] = [{"name": "v", "set": {"Imp.attack": 4}}]
    msg = _err(d)
    assert "ambiguous" in msg and "episode.scenes[0].enemies.members[1].attack" in msg
    d = copy.deepcopy(base)
    d["variants"] = [{"name": "v", "set": {"episod.rest.recover": 0}}]
    assert "Did you mean 'episode'" in _err(d)


# ------------------------------------------------------------------ episodes on the draft's positions


def draft_episode(scenes, **kw):
    """An ``mb-draft`` episode on a line of 4 positions (DRAFT L480): the party at Position 1,
    each scene's enemies at the far end unless a member gives its ``position``."""
    rules = {"initiative": "roll", "revive": True, "positions": 4}
    rules.update(kw.pop("rules", {}))
    party = [girl("Aoi", talents=["Boost"]), girl("Bea", attack=5, talents=["Boost"], attack_kind="ranged")]
    return episode_data(party, scenes, rules=rules, system="mb-draft", **kw)


def test_one_scene_episode_on_positions_is_the_plain_positions_fight_bit_for_bit():
    """An episode on the draft's positions plays each scene as the plain fight on positions:
    one scene gives the plain fight's counters exactly; the girls did move positions."""
    data = draft_episode([[foe("Hound", attack=5, defence=4, support=3, resolve=24, damage_bonus=2)]])
    ep_inp = compiled(data)
    plain = compiled(_plain_of(data))
    assert int(plain.rules[K.R_POSITIONS]) == 4 and ep_inp.episode is not None
    a = mb41.simulate(ep_inp, 0, 2000, 99)
    b = mb41.simulate(plain, 0, 2000, 99, fast=False)
    for k in ("outcomes", "rounds_sum", "rounds_hist", "side_curve", "comb_curve", "combatants"):
        assert np.array_equal(a[k], b[k]), k
    assert b["combatants"][:2, K.K_PLACES].sum() > 0   # they did move on the line
    no_line = mb41.simulate(compiled(draft_episode(data_scenes(data), rules={"positions": 0})), 0, 2000, 99)
    assert not np.array_equal(a["combatants"], no_line["combatants"])


def data_scenes(data):
    return [s["enemies"]["members"] for s in data["episode"]["scenes"]]


def test_two_scene_episode_on_positions_starts_each_scene_from_its_positions():
    """Scene 2 starts from its own starting positions (the party back at Position 1, the
    Lord where its ``position`` says): the girls move again in scene 2; 1 and 2 threads
    and two chunks give the same counters."""
    data = draft_episode([[foe("Hound", attack=5, defence=4, support=3, resolve=24, damage_bonus=2)],
                          [foe("Lord", attack=6, defence=5, resolve=30, position=3)]], rest={"recover": 1})
    inp = compiled(data)
    one = same_on_threads_and_chunks(inp, 1024, 500)
    off = inp.episode.offsets
    scene2 = slice(int(off[1]), int(off[2]))
    assert one["scene_outcomes"][1].sum() > 0
    assert one["combatants"][scene2][:2, K.K_PLACES].sum() > 0   # the party walked toward the Lord again
    assert inp.pol[int(off[1]) + 2, K.P_PLACE] == 2                 # Position 3, 0-based
