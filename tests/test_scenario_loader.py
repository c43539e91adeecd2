"""Tests for sim.scenario: safe YAML, friendly errors, variants, the loader.

A toy rule system (a pydantic model registered as system ``toy``) stands in
for the real ones so these tests do not depend on any system's progress.
"""
from __future__ import annotations

import sys
import textwrap
import types
from typing import Literal

import pytest
from pydantic import Field, field_validator

import sim.systems as systems
from sim.scenario import (
    Document,
    ScenarioError,
    ScenarioHeader,
    StrictModel,
    expand_variants,
    load_scenario,
    load_scenario_text,
    load_yaml,
    load_yaml_text,
    suggest,
    unknown_name_message,
    validate_model,
)
from sim.scenario import yamlload

TALENTS = ["Boost", "Heal", "Shield Wall", "Quick Step"]


class ToyPolicy(StrictModel):
    boost: Literal["never", "always", "smart"] = "smart"


class ToyMember(StrictModel):
    name: str
    attack: int = Field(ge=0, le=10)
    defence: int = Field(ge=0, le=10)
    support: int = Field(ge=0, le=10)
    policy: ToyPolicy = ToyPolicy()
    talents: list[str] = []

    @field_validator("talents")
    @classmethod
    def _known_talents(cls, value: list[str]) -> list[str]:
        for t in value:
            if t not in TALENTS:
                raise ValueError(unknown_name_message("talent", t, TALENTS))
        return value


class ToySide(StrictModel):
    name: str
    members: list[ToyMember] = Field(min_length=1)


class ToyScenario(ScenarioHeader):
    rules: dict = {}
    sides: list[ToySide]


@pytest.fixture(autouse=True)
def toy_system(monkeypatch):
    mod = types.ModuleType("_toy_system_for_tests")
    mod.NAME = "toy"
    mod.SCENARIO_MODEL = ToyScenario
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    monkeypatch.setitem(systems.SYSTEMS, "toy", mod.__name__)
    return mod


BASE = """\
name: duel-basic
system: toy
seed: 7
trials: 100000
rules:
  grid: none
  revive: false
sides:
  - name: girls
    members:
      - name: Akari
        attack: 4
        defence: 4
        support: 3
        policy: {boost: never}
  - name: youma
    members:
      - {name: Shade, attack: 3, defence: 3, support: 3}
"""


def load(text: str, label: str = "scenarios/x.yaml"):
    return load_scenario_text(textwrap.dedent(text), label)


def error_of(fn, *args) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        fn(*args)
    msg = str(info.value)
    assert "\n" not in msg and "Traceback" not in msg
    return info.value


# ------------------------------------------------------------------ safe YAML

def test_document_lines_and_hash(tmp_path):
    p = tmp_path / "duel.yaml"
    p.write_text(BASE, encoding="utf-8")
    doc = load_yaml(p)
    assert isinstance(doc, Document)
    assert doc.data["sides"][0]["members"][0]["attack"] == 4
    assert doc.line_of(("sides", 0, "members", 0, "attack")) == 12
    assert doc.line_of(("sides", 1, "members", 0, "attack")) == 18
    assert doc.line_of(("sides", 1)) == 16
    # nearest existing parent
    assert doc.line_of(("sides", 0, "members", 0, "nope", 3)) == 11
    assert doc.line_of(("rules", "revive")) == 7
    assert doc.line_of(()) == 1
    import hashlib
    assert doc.sha256 == hashlib.sha256(p.read_bytes()).hexdigest()
    assert doc.path == str(p)


def test_size_limit(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_text("name: x\n" + "# padding\n" * (yamlload.MAX_BYTES // 10 + 10))
    err = error_of(load_yaml, p)
    assert "larger than" in str(err) and str(p) in str(err)


def test_billion_laughs_rejected_by_alias_count():
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    err = error_of(load_yaml_text, "\n".join(levels), "bomb.yaml")
    assert "too many aliases" in str(err)


def test_alias_expansion_rejected_by_node_count():
    # 50 aliases, but 10**5 expanded values: caught while expanding
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
    for prev, name in zip("abcd", "bcde"):
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]\n"
    text += "f: [" + ", ".join(["*e"] * 10) + "]\n"
    err = error_of(load_yaml_text, text, "wide.yaml")
    assert "expanded" in str(err)


def test_node_limit(monkeypatch):
    monkeypatch.setattr(yamlload, "MAX_NODES", 50)
    err = error_of(load_yaml_text, "xs: [" + ", ".join(["1"] * 60) + "]\n", "n.yaml")
    assert "50" in str(err)


def test_aliases_within_limits_are_expanded():
    doc = load_yaml_text("base: &m {attack: 3, defence: 2}\ncopy: *m\n"
                         "merged:\n  <<: *m\n  attack: 5\n")
    assert doc.data["copy"] == {"attack": 3, "defence": 2}
    assert doc.data["merged"] == {"attack": 5, "defence": 2}
    assert doc.line_of(("merged", "attack")) == 5


def test_depth_limit():
    text = "a: " + "[" * (yamlload.MAX_DEPTH + 5) + "]" * (yamlload.MAX_DEPTH + 5)
    err = error_of(load_yaml_text, text, "deep.yaml")
    assert "deeper than 40" in str(err)
    # exactly at the limit is fine (the top-level mapping counts as one level)
    ok = "a: " + "[" * (yamlload.MAX_DEPTH - 1) + "]" * (yamlload.MAX_DEPTH - 1)
    load_yaml_text(ok)


def test_recursive_alias_is_rejected():
    err = error_of(load_yaml_text, "a: &x [1, *x]\n", "loop.yaml")
    assert "deeper" in str(err)


def test_duplicate_key():
    err = error_of(load_yaml_text, "name: a\nseed: 1\nseed: 2\n", "dup.yaml")
    assert err.line == 3
    assert "duplicate key 'seed' (first at line 2)" in str(err)


def test_non_string_key():
    err = error_of(load_yaml_text, "rules:\n  1: x\n", "k.yaml")
    assert err.line == 2 and "keys must be text" in str(err)
    err = error_of(load_yaml_text, "rules:\n  on: true\n", "k.yaml")
    assert "bool" in str(err) and '"on"' in str(err)


@pytest.mark.parametrize("text, words", [
    ("- a\n- b\n", "not a list"),
    ("just text\n", "not a single value"),
    ("", "empty"),
    ("   \n\n", "empty"),
    ("# only a comment\n", "no content"),
])
def test_top_level_must_be_mapping(text, words):
    assert words in str(error_of(load_yaml_text, text, "t.yaml"))


def test_bad_utf8(tmp_path):
    p = tmp_path / "latin1.yaml"
    p.write_bytes("name: caf\u00e9\n".encode("utf-8") + b"x: \xe9t\xe9\n")
    err = error_of(load_yaml, p)
    assert "not UTF-8" in str(err) and err.line == 2


@pytest.mark.parametrize("value", ["4611686018427387905", "-4611686018427387905",
                                   "1" * 5000, "0x" + "f" * 40])
def test_huge_int(value):
    err = error_of(load_yaml_text, f"name: a\nseed: {value}\n", "i.yaml")
    assert err.line == 2


def test_int_at_limit_is_accepted():
    assert load_yaml_text(f"x: {2**62}\n").data["x"] == 2**62


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", "1.0e+999"])
def test_non_finite_float(value):
    err = error_of(load_yaml_text, f"name: a\nprecision: {value}\n", "f.yaml")
    assert "finite" in str(err) and err.line == 2


def test_unsafe_tag_rejected():
    err = error_of(load_yaml_text, "x: !!python/object/apply:os.system [echo hi]\n", "t.yaml")
    assert "line 1" in str(err)
    err = error_of(load_yaml_text, "x: !custom {a: 1}\n", "t.yaml")
    assert "unsupported YAML tag" in str(err)


def test_yaml_syntax_error_has_line_and_column():
    err = error_of(load_yaml_text, "name: a\nsides:\n  - name: [unclosed\n  - x\n", "s.yaml")
    assert str(err).startswith("s.yaml, line ") and "column" in str(err)
    assert "YAML syntax error" in str(err)
    err = error_of(load_yaml_text, "name: a\n\tseed: 1\n", "tab.yaml")
    assert err.line == 2


# ------------------------------------------------------------------ suggestions

def test_suggest():
    assert suggest("atack", ["attack", "defence"]) == " Did you mean 'attack'?"
    assert suggest("ATTACK", ["attack"]) == " Did you mean 'attack'?"
    assert suggest("zzz", ["attack", "defence"]) == ""
    msg = unknown_name_message("talent", "Bost", TALENTS)
    assert msg == ("unknown talent 'Bost'. Did you mean 'Boost'? "
                   "Known: Boost, Heal, Shield Wall, Quick Step.")
    long = unknown_name_message("card", "x", [f"c{i}" for i in range(40)])
    assert "(15 more)" in long


# ------------------------------------------------------------------ validation

def test_valid_base_scenario(tmp_path):
    p = tmp_path / "duel.yaml"
    p.write_text(BASE)
    sc = load_scenario(p)
    assert sc.name == "duel-basic" and sc.system == "toy"
    assert sc.module.SCENARIO_MODEL is ToyScenario
    assert isinstance(sc.base, ToyScenario) and sc.base.seed == 7
    assert sc.base.sides[0].members[0].policy.boost == "never"
    assert [n for n, _ in sc.variants] == ["base"]
    assert sc.variants[0][1] == sc.base
    assert sc.raw["trials"] == 100000
    assert len(sc.sha256) == 64
    with pytest.raises(Exception):
        sc.base.seed = 3  # frozen


def test_unknown_field_suggestion_and_line():
    err = error_of(load, BASE.replace("        attack: 4", "        atack: 4"))
    msg = str(err)
    assert msg.startswith("scenarios/x.yaml, line 12, field sides[0].members[0].atack: "
                          "unknown field. Did you mean 'attack'?")
    assert "Allowed here: name, attack, defence, support, policy, talents." in msg


def test_unknown_nested_and_top_level_fields():
    err = error_of(load, BASE.replace("{boost: never}", "{bost: never}"))
    assert "field sides[0].members[0].policy.bost" in str(err)
    assert "Did you mean 'boost'?" in str(err) and err.line == 15
    err = error_of(load, BASE.replace("trials:", "trails:"))
    assert "Did you mean 'trials'?" in str(err) and err.line == 4
    err = error_of(load, BASE + "variants:\n  - {name: v, sett: {Akari.attack: 5}}\n")
    assert "Did you mean 'set'?" in str(err) and "variants[0].sett" in str(err)


def test_misspelled_talent():
    text = BASE.replace("        support: 3\n", "        support: 3\n        talents: [Heal, Bost]\n", 1)
    err = error_of(load, text)
    msg = str(err)
    assert "Value error" not in msg
    assert ("line 15, field sides[0].members[0].talents: unknown talent 'Bost'. "
            "Did you mean 'Boost'?") in msg


def test_negative_trials():
    err = error_of(load, BASE.replace("trials: 100000", "trials: -5"))
    assert str(err) == ("scenarios/x.yaml, line 4, field trials: Input should be "
                        "greater than or equal to 1; got -5.")


def test_missing_required_field():
    err = error_of(load, BASE.replace("        defence: 4\n", ""))
    assert "field sides[0].members[0].defence: required field missing" in str(err)
    assert err.line == 11  # the member's line


def test_type_error_shows_given_value():
    err = error_of(load, BASE.replace("attack: 4", "attack: lots"))
    assert "valid integer" in str(err) and "got 'lots'" in str(err)


def test_bad_scenario_name():
    err = error_of(load, BASE.replace("name: duel-basic", "name: ../../etc"))
    assert "invalid name" in str(err) and "Value error" not in str(err)


def test_several_problems_in_one_paragraph():
    text = BASE.replace("seed: 7", "seed: -1").replace("trials: 100000", "trials: 0")
    text = text.replace("attack: 4", "attack: 99").replace("defence: 4", "defence: 99")
    err = error_of(load, text)
    msg = str(err)
    assert msg.startswith("scenarios/x.yaml: 4 problems: (1) line 3, field seed:")
    assert "(3) line 12" in msg and "(and 1 more)" in msg
    assert len(err.problems) == 4


def test_validate_model_directly_with_union_and_dict():
    class Cat(StrictModel):
        lives: int = 9

    class Dog(StrictModel):
        bark: str = "woof"

    class Zoo(StrictModel):
        pets: dict[str, Cat | Dog] = {}
        keeper: Cat | None = None

    doc = load_yaml_text("pets:\n  tom: {lives: 3}\nkeeper: {livs: 2}\n", "zoo.yaml")
    err = error_of(validate_model, Zoo, doc.data, doc, "zoo check")
    assert "zoo.yaml, line 3, zoo check, field keeper.livs: unknown field. " \
           "Did you mean 'lives'?" in str(err)
    doc = load_yaml_text("pets:\n  tom: {lives: 3, brk: x}\n", "zoo.yaml")
    msg = str(error_of(validate_model, Zoo, doc.data, doc))
    assert "field pets.tom.brk" in msg and "Did you mean 'bark'?" in msg
    assert "Cat" not in msg.split(":")[0]


def test_unknown_system():
    err = error_of(load, BASE.replace("system: toy", "system: tou"))
    assert str(err).startswith("scenarios/x.yaml, line 2, field system: unknown system "
                               "'tou'. Did you mean 'toy'? Known systems:")
    err = error_of(load, BASE.replace("system: toy\n", ""))
    assert "field system: required field missing" in str(err)
    err = error_of(load, BASE.replace("system: toy", "system: [toy]"))
    assert "expected the name of a rule system" in str(err)


def test_missing_file(tmp_path):
    err = error_of(load_scenario, tmp_path / "nope.yaml")
    assert "no such file" in str(err)


# ------------------------------------------------------------------ variants

VARIANTS = BASE + """\
variants:
  - name: stronger
    set: {Akari.attack: 5, rules.revive: true}
  - name: tougher youma
    set:
      youma.name: Big Shade
      sides[1].members[0].defence: 6
"""


def test_explicit_variants():
    sc = load(VARIANTS)
    assert [n for n, _ in sc.variants] == ["stronger", "tougher youma"]
    stronger = dict(sc.variants)["stronger"]
    assert stronger.sides[0].members[0].attack == 5
    assert stronger.rules == {"grid": "none", "revive": True}
    assert stronger.variants == [] and stronger.sweep is None
    tougher = dict(sc.variants)["tougher youma"]
    assert tougher.sides[1].name == "Big Shade"
    assert tougher.sides[1].members[0].defence == 6
    # the base is unchanged and carries no variants
    assert sc.base.sides[0].members[0].attack == 4 and sc.base.variants == []
    assert sc.raw["variants"][0]["name"] == "stronger"


def test_expand_variants_data_level():
    doc = load_yaml_text(textwrap.dedent(VARIANTS))
    out = expand_variants(doc.data, doc)
    assert [n for n, _ in out] == ["stronger", "tougher youma"]
    for _, d in out:
        assert "variants" not in d and "sweep" not in d
    assert doc.data["sides"][0]["members"][0]["attack"] == 4  # no mutation
    out[0][1]["sides"][0]["members"][0]["policy"]["boost"] = "always"
    assert out[1][1]["sides"][0]["members"][0]["policy"]["boost"] == "never"
    base = expand_variants({"name": "a", "rules": {}}, None)
    assert base == [("base", {"name": "a", "rules": {}})]


def test_rules_created_when_absent():
    doc = load_yaml_text("name: a\nsides: []\nvariants:\n  - {name: r, set: {rules.revive: true}}\n")
    assert expand_variants(doc.data, doc)[0][1]["rules"] == {"revive": True}


def test_sweep_cartesian_product():
    sc = load(BASE + "sweep:\n  Akari.attack: [3, 4, 5]\n  rules.revive: [false, true]\n")
    names = [n for n, _ in sc.variants]
    assert names[0] == "Akari.attack=3, rules.revive=false"
    assert names[-1] == "Akari.attack=5, rules.revive=true"
    assert len(names) == 6 and len(set(names)) == 6
    got = {(m.sides[0].members[0].attack, m.rules["revive"]) for _, m in sc.variants}
    assert got == {(a, r) for a in (3, 4, 5) for r in (False, True)}


def test_sweep_on_top_of_variants():
    sc = load(VARIANTS + "sweep:\n  Shade.attack: [1, 2]\n")
    assert [n for n, _ in sc.variants] == [
        "stronger / Shade.attack=1", "stronger / Shade.attack=2",
        "tougher youma / Shade.attack=1", "tougher youma / Shade.attack=2"]
    m = dict(sc.variants)["stronger / Shade.attack=2"]
    assert m.sides[0].members[0].attack == 5 and m.sides[1].members[0].attack == 2


def test_sweep_limits():
    err = error_of(load, BASE + "sweep:\n  Akari.attack: []\n")
    assert "at least 1 item" in str(err) and err.line == 20
    doc = load_yaml_text(BASE + "sweep:\n  Akari.attack: []\n")
    err = error_of(expand_variants, doc.data, doc)
    assert "non-empty list" in str(err) and err.line == 20
    big = "sweep:\n" + "".join(f"  {k}: [{', '.join(map(str, range(11)))}]\n"
                               for k in ("Akari.attack", "Akari.defence", "Shade.attack"))
    err = error_of(load, BASE + big)
    assert "1,331 variants" in str(err)


def test_ambiguous_member():
    text = BASE.replace("{name: Shade,", "{name: Akari,") + \
        "variants:\n  - {name: v, set: {Akari.attack: 5}}\n"
    err = error_of(load, text)
    assert "ambiguous" in str(err) and err.line == 20
    assert "variant 'v'" in str(err)


def test_unknown_path_with_suggestion():
    err = error_of(load, BASE + "variants:\n  - name: v\n    set: {Akri.attack: 5}\n")
    msg = str(err)
    assert err.line == 21
    assert "unknown name 'Akri'" in msg and "Did you mean 'Akari'?" in msg
    assert "field variants[0].set['Akri.attack']" in msg
    err = error_of(load, BASE + "sweep:\n  rule.revive: [true]\n")
    assert "Did you mean 'rules'?" in str(err)


def test_bad_paths():
    for path, words in [("Akari", "names no field"), ("sides[9].name", "out of range"),
                        ("Akari.attack.x", "single value"), ("a..b", "malformed")]:
        err = error_of(load, BASE + f"variants:\n  - {{name: v, set: {{'{path}': 1}}}}\n")
        assert words in str(err), (path, str(err))


def test_duplicate_and_missing_variant_names():
    err = error_of(load, BASE + "variants:\n  - {name: v}\n  - {name: v}\n")
    assert "duplicate variant name" in str(err) or "unique" in str(err)
    err = error_of(load, BASE + "variants:\n  - {set: {Akari.attack: 5}}\n")
    assert "variants[0].name: required field missing" in str(err)


def test_variant_validation_error_names_variant_and_line():
    text = BASE + "variants:\n  - name: broken\n    set:\n      Akari.attack: 50\n"
    err = error_of(load, text)
    msg = str(err)
    assert msg.startswith("scenarios/x.yaml, line 22, variant 'broken', field "
                          "sides[0].members[0].attack (as set by "
                          "variants[0].set['Akari.attack']): Input should be less "
                          "than or equal to 10; got 50.")
    # a field that does not exist, set by a sweep
    err = error_of(load, BASE + "sweep:\n  Akari.atack: [1]\n")
    assert "variant 'Akari.atack=1'" in str(err) and "Did you mean 'attack'?" in str(err)
    assert err.line == 20


def test_plain_wording_for_wrong_shapes():
    err = error_of(load, BASE.replace("policy: {boost: never}", "policy: never"))
    assert "field sides[0].members[0].policy: expected a mapping" in str(err)
    assert "ToyPolicy" not in str(err)
    err = error_of(load_yaml_text, "name: a\n\tseed: 1\n", "tab.yaml")
    assert "tabs" in str(err)
