"""Knobs: a form for the common fields, that writes a what-if as a new variant.

:func:`knobs` lists, from the editor's text, the numbers a designer turns
most: each member's fields (stats, Resolve, ``talents`` or d10 ``powers``
and ``perks``, the ``policy`` preset, a choice among the system's presets,
and its settings, d10 ``abilities``...), each card side's deck and
policy, and for the card game the numbers of every card in the decks played
(``cards.<card>.<field>`` paths, as ``variants:`` write them).

:func:`add_variant` never edits the base scenario: it appends one entry to
``variants:`` (creating the list, with the original kept as ``base``, when
there is none) whose ``set:`` holds the changed paths, so a what-if is a new
variant beside the original and the two run on common random numbers. The
text is edited as text (comments and layout kept) and the result is checked
by the loader before it is handed back.
"""
from __future__ import annotations

import re

import yaml

from sim.scenario import ScenarioError, load_yaml_text

#: member fields never offered (names, and blocks too large for a form)
SKIP = {"name", "notes", "description", "position", "positions", "episode"}
#: card numbers offered per card
CARD_FIELDS = ("hp", "atk", "mgk", "cost")
MAX_NAME = 80
_TOP_KEY = re.compile(r"^[^\s#\-][^:]*:")


def _kind(v) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "text"
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "list"
    return None


def _fields(prefix: str, obj: dict, depth: int = 0) -> list[dict]:
    out = []
    for k, v in obj.items():
        if k in SKIP or not isinstance(k, str):
            continue
        if isinstance(v, dict) and depth == 0:
            out += _fields(f"{prefix}.{k}", v, depth + 1)
            continue
        kind = _kind(v)
        if kind is not None:
            out.append({"path": f"{prefix}.{k}", "field": k if depth == 0 else f"{prefix.rsplit('.', 1)[-1]}.{k}",
                        "value": v, "type": kind})
    return out


#: list fields offered for every member of a fight system, even when the file leaves them out
LISTS = {"mb41": ("talents",), "mb-draft": ("talents",), "d10": ("powers", "perks")}


def _presets(system: str) -> list[str]:
    """The policy presets of a fight system (``policy.preset``), none for the others."""
    if system in ("mb41", "mb-draft"):
        from sim.systems.mb41.policies import PRESETS
    elif system == "d10":
        from sim.systems.d10.policies import PRESETS
    else:
        return []
    return list(PRESETS)


def _member_fields(system: str, member: dict) -> list[dict]:
    """A member's fields (:func:`_fields`), with its list fields and its policy preset offered
    even when unset; the preset as a choice among the system's presets."""
    name = member["name"]
    fields = _fields(name, member)
    have = {f["path"] for f in fields}
    for key in LISTS.get(system, ()):
        if f"{name}.{key}" not in have and key not in member:
            fields.append({"path": f"{name}.{key}", "field": key, "value": [], "type": "list"})
    presets = _presets(system)
    policy = member.get("policy")
    if presets and (policy is None or isinstance(policy, dict)):
        path = f"{name}.policy.preset"
        current = (policy or {}).get("preset") or ""
        fields = [f for f in fields if f["path"] != path]
        fields.append({"path": path, "field": "policy.preset", "value": current, "type": "choice",
                       "options": ["", *presets]})
    return fields


def _card_groups(data: dict) -> list[dict]:
    """The numbers of every card in the decks the sides play (pool values, with the
    scenario's own ``cards:`` block applied)."""
    from sim.systems.cards import cardsdata

    decks = cardsdata.sample_decks()
    pool = {name: c.model_dump() for name, c in cardsdata.cards_by_name().items()}
    for name, edit in (data.get("cards") or {}).items():
        if isinstance(edit, dict):
            pool[name] = {**pool.get(name, {}), **edit}
    names: dict[str, None] = {}
    for side in data.get("sides") or []:
        if not isinstance(side, dict):
            continue
        cards = side.get("cards") if isinstance(side.get("cards"), dict) else \
            (decks[side["deck"]].cards if side.get("deck") in decks else {})
        names.update(dict.fromkeys(cards))
    groups = []
    for name in names:
        card = pool.get(name)
        if not card:
            continue
        fields = [{"path": f"cards.{name}.{f}", "field": f, "value": int(card.get(f) or 0), "type": "int"}
                  for f in CARD_FIELDS]
        groups.append({"title": f"card {name}", "fields": fields})
    return groups


def knobs(text: str, label: str = "<editor>") -> dict:
    """``{"ok", "message", "groups": [{"title", "fields": [{"path", "field", "value", "type"}]}],
    "variants"}`` for the editor's text (``ok`` false while the YAML does not parse); ``type`` is
    ``int``, ``float``, ``bool``, ``text``, ``list`` (of names) or ``choice`` (with ``options``)."""
    try:
        doc = load_yaml_text(text, label)
    except ScenarioError as e:
        return {"ok": False, "message": str(e), "groups": [], "variants": []}
    data = doc.data
    groups = []
    for side in data.get("sides") or []:
        if not isinstance(side, dict):
            continue
        sname = side.get("name")
        if data.get("system") == "cards" and isinstance(sname, str):
            fields = [f for f in _fields(sname, {k: v for k, v in side.items() if k != "cards"})]
            groups.append({"title": f"side {sname}", "fields": fields})
        for m in side.get("members") or []:
            if isinstance(m, dict) and isinstance(m.get("name"), str):
                groups.append({"title": f"{sname} › {m['name']}",
                               "fields": _member_fields(str(data.get("system")), m)})
    if data.get("system") == "cards":
        groups += _card_groups(data)
    variants = [v.get("name") for v in data.get("variants") or [] if isinstance(v, dict)]
    return {"ok": True, "message": "", "groups": [g for g in groups if g["fields"]], "variants": variants}


def _flow(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6,
                          sort_keys=False).strip().removesuffix("...").strip()


def variant_name(changes: dict, taken) -> str:
    """``Akari.fury=6, Beni.heart=4`` (as a sweep names its variants), unique among ``taken``."""
    def shown(v):
        return _flow(v) if isinstance(v, (list, dict)) else ("true" if v is True else "false" if v is False
                                                             else str(v))

    name = ", ".join(f"{p}={shown(v)}" for p, v in changes.items()) or "what-if"
    name = name if len(name) <= MAX_NAME - 5 else name[:MAX_NAME - 8] + "..."
    base, k = name, 1
    while name in taken:
        k += 1
        name = f"{base} ({k})"
    return name


def _entry(name: str, changes: dict, indent: str) -> list[str]:
    return [f"{indent}- name: {_flow(name)}", f"{indent}  set: {_flow(dict(changes))}"]


def add_variant(text: str, changes: dict, name: str | None = None, label: str = "<editor>") -> tuple[str, str]:
    """``(new text, variant name)``: ``text`` with one more variant that sets ``changes``
    (module doc). Raises :class:`ScenarioError` when the text does not parse, or when its
    ``variants:`` is written in a way this cannot extend (a multi-line ``[...]`` list)."""
    if not changes:
        raise ScenarioError("change a value in the form first: the new variant sets the values changed")
    doc = load_yaml_text(text, label)
    existing = doc.data.get("variants")
    taken = {v.get("name") for v in existing or [] if isinstance(v, dict)}
    name = variant_name(changes, taken) if not name else " ".join(str(name).split())[:MAX_NAME]
    lines = text.splitlines()
    if not existing:
        tail = [] if not lines or not lines[-1].strip() else [""]
        at = doc.lines.get(("variants",))
        if at is not None:  # "variants: []": replace that line
            lines = lines[:at - 1] + lines[at:]
            tail = []
        new = lines + tail + ["variants:"] + _entry("base", {}, "  ")[:1] + _entry(name, changes, "  ")
        return "\n".join(new) + "\n", name
    key_line = doc.lines[("variants",)]
    first_item = doc.lines.get(("variants", 0))
    if first_item is None or first_item == key_line:
        raise ScenarioError(f"{label}, line {key_line}: 'variants:' is written as a [...] list here; write it "
                            "as one '- name: ...' entry per line to add variants from the form")
    indent = re.match(r"^(\s*)", lines[first_item - 1]).group(1)
    end = len(lines)
    for i in range(key_line, len(lines)):  # lines after the key line (0-based i = line i+1)
        if _TOP_KEY.match(lines[i]):
            end = i
            break
    while end > key_line and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    new = lines[:end] + _entry(name, changes, indent) + lines[end:]
    return "\n".join(new) + "\n", name
