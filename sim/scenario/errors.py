"""Friendly scenario errors.

A :class:`ScenarioError` is one short paragraph for a designer, with no
traceback: the file, the line, the field as a dotted path
(``sides[0].members[0].atack``) and what was expected::

    scenarios/x.yaml, line 12, field sides[0].members[0].atack: unknown field.
    Did you mean 'attack'? Allowed here: name, attack, defence, support, policy.

:func:`validate_model` runs a pydantic model on loaded data and turns its
``ValidationError`` into such a paragraph (at most ``MAX_PROBLEMS`` problems),
finding lines with ``Document.line_of`` and suggesting field names for
unknown keys.
"""
from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from .base import ErrorAt
from .suggest import closest, list_names, suggest

#: problems shown per error; the rest are counted
MAX_PROBLEMS = 3
#: characters of a given value shown in a message
MAX_SHOWN = 60

_IDENT = re.compile(r"^[A-Za-z_][\w\-]*$")


class ScenarioError(Exception):
    """A problem in a scenario file, worded for the person who wrote it.

    ``str(err)`` is the whole message. Attributes (None when unknown):
    ``file``, ``line``, ``field`` (dotted path) and ``detail`` describe the
    first problem; ``problems`` lists all shown as ``(line, field, detail)``.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None, detail: str | None = None,
                 problems: list[tuple[int | None, str | None, str]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.detail = detail if detail is not None else message
        self.problems = problems if problems is not None else [(line, field, self.detail)]

    def __str__(self) -> str:
        return self.message

    @classmethod
    def at(cls, file: str, line: int | None, field: str | None, detail: str,
           where: str = "") -> "ScenarioError":
        """``file, line N, where, field F: detail`` (parts omitted when unknown)."""
        head = [file]
        if line is not None:
            head.append(f"line {line}")
        if where:
            head.append(where)
        if field:
            head.append(f"field {field}")
        return cls(f"{', '.join(head)}: {_sentence(detail)}", file=file, line=line,
                   field=field, detail=detail)


def doc_error(doc, loc: tuple, detail: str, where: str = "") -> ScenarioError:
    """A ScenarioError about the value at ``loc`` in ``doc`` (a Document or None)."""
    file = getattr(doc, "path", "<data>")
    line = doc.line_of(loc) if doc is not None else None
    return ScenarioError.at(file, line, format_field(loc) if loc else None, detail, where)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith((".", "?", "!")) else text + "."


def format_field(loc: Sequence[Any]) -> str:
    """``("sides", 0, "members", 1, "attack")`` -> ``sides[0].members[1].attack``."""
    out = ""
    for seg in loc:
        if isinstance(seg, int) and not isinstance(seg, bool):
            out += f"[{seg}]"
        elif _IDENT.match(str(seg)):
            out += ("." if out else "") + str(seg)
        else:
            out += f"[{str(seg)!r}]"
    out = out or "(top level)"
    if len(out) > 100:  # e.g. a runaway nesting: keep both ends
        out = out[:45] + "..." + out[-45:]
    return out


def shown(value: Any) -> str:
    """A short description of a given value for messages."""
    if isinstance(value, Mapping):
        return "a mapping" if value else "an empty mapping"
    if isinstance(value, (list, tuple)) and len(repr(value)) > MAX_SHOWN:
        return f"a list of {len(value)} items"
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value)
    if len(text) > MAX_SHOWN:
        text = text[: MAX_SHOWN - 3] + "..."
    return text


# ---------------------------------------------------------------- pydantic errors

def _data_path(data: Any, loc: tuple, keep_last: bool) -> tuple:
    """Drop pydantic's union tags and other segments that are not in the data.

    ``("sides", 0, "ToyMember", "attack")`` -> ``("sides", 0, "attack")``. For a
    missing field (``keep_last``) the last segment is kept although absent.
    """
    out: list = []
    cur = data
    for i, seg in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(cur, Mapping) and seg in cur:
            out.append(seg)
            cur = cur[seg]
        elif (isinstance(cur, list) and isinstance(seg, int)
              and not isinstance(seg, bool) and -len(cur) <= seg < len(cur)):
            out.append(seg)
            cur = cur[seg]
        elif last and keep_last:
            out.append(seg)
        else:
            continue  # a tag such as 'ToyMember', 'int', 'function-after[...]'
    return tuple(out)


def _unwrap(tp: Any) -> list:
    """Flatten Annotated / Optional / Union into a list of concrete types."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin is Union or origin is types.UnionType:
        out = []
        for arg in typing.get_args(tp):
            out.extend(_unwrap(arg))
        return out
    return [tp]


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _field_key(name: str, info) -> str:
    alias = info.validation_alias if isinstance(info.validation_alias, str) else None
    return alias or info.alias or name


def _models_at(model_cls: type, loc: tuple) -> list[type]:
    """The BaseModel classes whose fields apply at ``loc`` (walking the types)."""
    current = [model_cls]
    for seg in loc:
        nxt: list = []
        flat = [t for tp in current for t in _unwrap(tp)]
        models = [t for t in flat if _is_model(t)]
        tagged = [m for m in models if m.__name__ == seg]
        if tagged:  # pydantic's union tag names the branch
            current = tagged
            continue
        for t in flat:
            if _is_model(t):
                for name, info in t.model_fields.items():
                    if seg in (name, _field_key(name, info)):
                        nxt.append(info.annotation)
                continue
            origin = typing.get_origin(t) or t
            args = typing.get_args(t)
            if not isinstance(origin, type):
                continue
            if issubclass(origin, Mapping) and not _is_model(origin):
                if isinstance(seg, str) and len(args) == 2:
                    nxt.append(args[1])
            elif issubclass(origin, (list, tuple, set, frozenset, Sequence)) \
                    and not issubclass(origin, (str, bytes)):
                if isinstance(seg, int) and args:
                    if origin is tuple and args[-1] is not Ellipsis:
                        if 0 <= seg < len(args):
                            nxt.append(args[seg])
                    else:
                        nxt.append(args[0])
        if not nxt:
            # an unknown segment (a tag of a non-model union branch): stay put
            continue
        current = nxt
    return [t for tp in current for t in _unwrap(tp) if _is_model(t)]


def allowed_fields(model_cls: type, loc: tuple) -> list[str]:
    """Field names (aliases where set) allowed at ``loc`` inside ``model_cls``."""
    names: list[str] = []
    for m in _models_at(model_cls, loc):
        for name, info in m.model_fields.items():
            key = _field_key(name, info)
            if key not in names:
                names.append(key)
    return names


def _detail(err: dict, model_cls: type) -> str:
    kind = err.get("type", "")
    loc = tuple(err.get("loc", ()))
    msg = " ".join(str(err.get("msg", "")).split())
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if kind == "extra_forbidden":
        name = loc[-1] if loc else ""
        allowed = allowed_fields(model_cls, loc[:-1])
        text = "unknown field." + suggest(name, allowed)
        if allowed:
            text += f" Allowed here: {list_names(allowed)}."
        return text
    if kind == "missing":
        return "required field missing."
    if kind in ("value_error", "assertion_error"):
        return _sentence(msg)
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        # pydantic names the class ("instance of ToyPolicy"): say it plainly
        return f"expected a mapping of 'key: value' entries; got {shown(err.get('input'))}."
    if kind == "list_type":
        return f"expected a list; got {shown(err.get('input'))}."
    return f"{_sentence(msg)[:-1]}; got {shown(err.get('input'))}."


def _origin_of(path: tuple, origins: Mapping[tuple, tuple] | None) -> tuple | None:
    """The longest prefix of ``path`` set by a variant, as its document loc; else a
    change made below ``path`` (``policy.bost`` set on a side with no ``policy``
    field fails at ``policy``: the change is what put it there)."""
    if not origins:
        return None
    for n in range(len(path), -1, -1):
        if path[:n] in origins:
            return origins[path[:n]]
    if path:
        for changed, loc in origins.items():
            if changed[:len(path)] == path:
                return loc
    return None


def validation_error(exc: ValidationError, model_cls: type, data: Any, doc,
                     where: str = "",
                     origins: Mapping[tuple, tuple] | None = None) -> ScenarioError:
    """Convert a pydantic ValidationError into one ScenarioError paragraph."""
    file = getattr(doc, "path", "<data>")
    problems: list[tuple[int | None, str | None, str]] = []
    seen = set()
    errors = exc.errors(include_url=False)
    # "atack: unknown field. Did you mean 'attack'?" already says 'attack' is
    # missing: drop the separate "attack: required field missing" then.
    misspelt = set()
    for err in errors:
        loc = tuple(err.get("loc", ()))
        if err.get("type") == "extra_forbidden" and loc:
            best = closest(loc[-1], allowed_fields(model_cls, loc[:-1]))
            if best is not None:
                misspelt.add(loc[:-1] + (best,))
    errors = [e for e in errors
              if not (e.get("type") == "missing" and tuple(e.get("loc", ())) in misspelt)]
    for err in errors:
        loc = tuple(err.get("loc", ()))
        raised = (err.get("ctx") or {}).get("error")
        if isinstance(raised, ErrorAt):  # a model validator naming the field it is about
            loc += raised.loc
        path = _data_path(data, loc, keep_last=err.get("type") == "missing")
        field = format_field(path) if path else None
        detail = _detail(err, model_cls)
        if (field, detail) in seen:
            continue
        seen.add((field, detail))
        origin = _origin_of(path, origins)
        if origin is not None:
            line = doc.line_of(origin) if doc is not None else None
            field = f"{field or '(top level)'} (as set by {format_field(origin)})"
        else:
            line = doc.line_of(path) if doc is not None else None
        problems.append((line, field, detail))
    shown_problems = problems[:MAX_PROBLEMS]
    hidden = len(problems) - len(shown_problems)
    if len(shown_problems) == 1 and not hidden:
        line, field, detail = shown_problems[0]
        err = ScenarioError.at(file, line, field, detail, where)
        err.problems = problems
        return err
    head = file + (f", {where}" if where else "") + f": {len(problems)} problems:"
    parts = []
    for i, (line, field, detail) in enumerate(shown_problems, 1):
        at = ", ".join(([f"line {line}"] if line is not None else [])
                       + ([f"field {field}"] if field else [])) or "top level"
        parts.append(f"({i}) {at}: {_sentence(detail)}")
    text = " ".join([head, *parts])
    if hidden:
        text += f" (and {hidden} more)"
    line, field, detail = shown_problems[0]
    return ScenarioError(text, file=file, line=line, field=field, detail=detail,
                         problems=problems)


def validate_model(model_cls: type[BaseModel], data: Any, doc, where: str = "", *,
                   origins: Mapping[tuple, tuple] | None = None) -> BaseModel:
    """``model_cls.model_validate(data)``, with errors as a :class:`ScenarioError`.

    ``doc`` is the :class:`~sim.scenario.yamlload.Document` the data came from
    (or None); ``where`` (e.g. ``"variant 'stronger'"``) is named in the message;
    ``origins`` maps data paths changed by a variant to the document location
    that changed them, so such errors point at the variant's line.
    """
    try:
        return model_cls.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, model_cls, data, doc, where, origins) from None
