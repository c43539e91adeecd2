"""How each targeting policy breaks ties, per rule system (``sim rules SYSTEM`` prints them).

A tie rule decides real fights: with two girls at equal Resolve, mb41's
``focus-weakest`` monster attacks the first listed, so giving the second girl
+1 Resolve moves every such attack onto the first one and a win rate can jump
between neighbouring whole numbers. Studies that sweep a stat flag such jumps
(:mod:`sim.study.curve`); this table is where to look next. Each sentence
names the kernel function that implements it.
"""
from __future__ import annotations

#: system -> [(policy, what it picks and how it breaks ties)]
TIE_RULES: dict[str, list[tuple[str, str]]] = {
    "mb41": [
        ("focus-weakest", "the enemy with the lowest current Resolve (downed enemies first when the policy "
                          "finishes the downed); ties: the first listed (targets.target_of)"),
        ("strongest-threat", "the enemy with the highest Attack; ties: the lowest current Resolve, then the "
                             "first listed (targets.target_of)"),
        ("nearest", "the enemy fewest hexes away; ties: the lowest current Resolve, then the first listed; "
                    "gridless it is focus-weakest (hex.pick)"),
        ("random-target", "a uniformly random candidate from the policy stream: no ties (targets.target_of)"),
        ("heal (heal_below)", "the standing ally (or herself) lowest in Resolve share (whole percent, rounded "
                              "down) below heal_below; ties: the first listed (talents.heal.heal_target)"),
    ],
    "d10": [
        ("weakest", "the enemy with the fewest wounds left; ties: the first listed (d10 defence.choose_target_inline)"),
        ("strongest", "the enemy with the largest attack pool; ties: the first listed "
                      "(d10 defence.choose_target_inline)"),
        ("listed", "the first listed enemy that can be attacked (d10 defence.choose_target_inline)"),
        ("random", "a uniformly random enemy from the policy stream: no ties (d10 defence.choose_target_inline)"),
        ("targets > 1", "further targets of a multi-target attack in listed order"),
    ],
    "cards": [
        ("aggressive, tempo", "the legal action with the highest heuristic score; ties: the first in the "
                              "engine's legal-action list (engine.heur_choose)"),
        ("search", "the action with the best mean rollout result; ties: the rollout heuristic's own choice "
                   "(engine.search_choose)"),
        ("ismcts", "the root child with the most visits; ties: the best mean, then the legal-action order "
                   "(ismcts)"),
        ("random", "a uniformly random legal action: no ties"),
    ],
}
TIE_RULES["mb-draft"] = TIE_RULES["mb41"]


def tie_rules(system: str) -> list[dict]:
    """``[{"policy", "rule"}]`` of ``system`` (empty if none is recorded)."""
    return [{"policy": p, "rule": r} for p, r in TIE_RULES.get(system, [])]
