"""Safe YAML loading with limits and line numbers.

``load_yaml(path)`` is ``yaml.safe_load`` (SafeLoader only: plain dicts, lists,
strings, numbers, booleans, null, dates) with the limits below, and it keeps
the line of every key and list item so that later errors can say where the
problem is (``Document.line_of``).

What is rejected, each with a :class:`~sim.scenario.errors.ScenarioError`:
files over ``MAX_BYTES``, text that is not UTF-8, empty files, YAML syntax
errors, more than ``MAX_ALIASES`` alias uses (``*ref``: "billion laughs"),
nesting deeper than ``MAX_DEPTH``, more than ``MAX_NODES`` values once
aliases are expanded, more than ``MAX_MERGES`` merge-key (``<<``) expansions
(each merged mapping also counts as a value towards ``MAX_NODES``, so nested
``<<: [*a, *a]`` "merge bombs" are refused at once), integers beyond ``MAX_INT`` in size, infinite or NaN
floats, duplicate or non-string mapping keys, tags other than the standard
ones, and a top level that is not a mapping.

The limits are module constants read at call time (tests may lower them).
"""
from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import ScenarioError, format_field

MAX_BYTES = 1 << 20          # 1 MiB
MAX_ALIASES = 50             # uses of *ref in one document
MAX_DEPTH = 40               # nested mappings/sequences
MAX_NODES = 200_000          # values after alias expansion
MAX_INT = 2 ** 62            # |integer| <= MAX_INT
MAX_MERGES = 1_000           # mappings merged in by '<<' keys, counted once per expansion

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"



@dataclass(frozen=True)
class Document:
    """A loaded YAML file: its text, its plain data, and where each value is."""

    path: str
    text: str
    data: dict
    lines: dict[tuple, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def sha256(self) -> str:
        """Hex SHA-256 of the UTF-8 text (the file's bytes when it had no BOM)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def line_of(self, loc: tuple | list) -> int | None:
        """1-based line of the key/item at ``loc``, else of its nearest parent."""
        loc = tuple(loc)
        while True:
            line = self.lines.get(loc)
            if line is not None or not loc:
                return line
            loc = loc[:-1]


class _LimitedLoader(yaml.SafeLoader):
    """SafeLoader whose composer counts aliases, depth and nodes."""

    def __init__(self, stream: str, label: str) -> None:
        super().__init__(stream)
        self._label = label
        self._aliases = 0
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):  # noqa: D102 (PyYAML hook)
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise ScenarioError.at(
                    self._label, event.start_mark.line + 1, None,
                    f"too many aliases (*references): more than {MAX_ALIASES} in one "
                    "file. Files that expand aliases exponentially ('billion laughs') "
                    "are refused; write the values out or use fewer anchors.")
            return super().compose_node(parent, index)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise ScenarioError.at(
                self._label, event.start_mark.line + 1, None,
                f"the file has more than {MAX_NODES:,} values; scenario files are "
                "expected to be much smaller.")
        nested = isinstance(event, (MappingStartEvent, SequenceStartEvent))
        if nested:
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise ScenarioError.at(
                    self._label, event.start_mark.line + 1, None,
                    f"nesting is deeper than {MAX_DEPTH} levels.")
        try:
            return super().compose_node(parent, index)
        finally:
            if nested:
                self._depth -= 1


class _Builder:
    """Turns the composed node tree into plain data, recording lines."""

    def __init__(self, loader: _LimitedLoader, label: str) -> None:
        self.loader = loader
        self.label = label
        self.lines: dict[tuple, int] = {}
        self.nodes = 0
        self.merges = 0

    def fail(self, node: Node, loc: tuple, message: str) -> ScenarioError:
        return ScenarioError.at(self.label, node.start_mark.line + 1,
                                format_field(loc) if loc else None, message)

    def build(self, node: Node, loc: tuple, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(node, loc, f"more than {MAX_NODES:,} values once aliases "
                            "(*references) are expanded; the file is refused.")
        if isinstance(node, ScalarNode):
            return self.scalar(node, loc)
        depth += 1
        if depth > MAX_DEPTH:
            raise self.fail(node, loc, f"nesting is deeper than {MAX_DEPTH} levels "
                            "(counting expanded aliases).")
        if isinstance(node, SequenceNode):
            if node.tag != _SEQ_TAG:
                raise self.fail(node, loc, f"unsupported YAML tag {node.tag!r}.")
            out = []
            for i, item in enumerate(node.value):
                self.lines.setdefault(loc + (i,), item.start_mark.line + 1)
                out.append(self.build(item, loc + (i,), depth))
            return out
        if isinstance(node, MappingNode):
            if node.tag != _MAP_TAG:
                raise self.fail(node, loc, f"unsupported YAML tag {node.tag!r}.")
            return self.mapping(node, loc, depth)
        raise self.fail(node, loc, "unsupported YAML node.")  # pragma: no cover

    def scalar(self, node: ScalarNode, loc: tuple) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise self.fail(node, loc, _yaml_problem(exc)) from None
        except (ValueError, OverflowError) as exc:  # e.g. a 5000-digit integer
            raise self.fail(node, loc, f"cannot read the value {_short(node.value)}: "
                            f"{exc}.") from None
        if isinstance(value, str):
            _check_text(self, node, loc, value)
        elif isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_INT:
                raise self.fail(node, loc, f"integer {_short(node.value)} is too large "
                                "(limit: 2**62 in size).")
        elif isinstance(value, float) and not math.isfinite(value):
            raise self.fail(node, loc, f"number {node.value!r} is not finite; "
                            "infinities and NaN are not allowed.")
        return value

    def key(self, node: Node, loc: tuple) -> str:
        if isinstance(node, ScalarNode):
            k = self.scalar(node, loc)
            if isinstance(k, str):
                return k
            shown = node.value if node.value else "(empty)"
            raise self.fail(node, loc, f"mapping key {shown!r} is read as a "
                            f"{type(k).__name__}, not text; keys must be text "
                            f"(quote it: \"{node.value}\").")
        raise self.fail(node, loc, "mapping keys must be plain text, not a list or "
                        "mapping.")

    def count_merge(self, node: MappingNode, loc: tuple) -> None:
        """Count one ``<<`` expansion in ``node`` as a value and as a merge."""
        self.merges += 1
        self.nodes += 1
        if self.merges > MAX_MERGES or self.nodes > MAX_NODES:
            line = self.lines.get(loc, node.start_mark.line + 1)  # the field being read
            raise ScenarioError.at(
                self.label, line, format_field(loc) if loc else None,
                f"more than {MAX_MERGES:,} merge-key (<<) expansions or {MAX_NODES:,} values "
                "once merges are expanded; files that merge mappings into each other "
                "exponentially are refused. Write the values out or merge fewer times.")

    def mapping(self, node: MappingNode, loc: tuple, depth: int) -> dict:
        own: dict[str, Any] = {}
        own_lines: dict[str, int] = {}
        merged: list[MappingNode] = []
        for knode, vnode in node.value:
            if knode.tag == _MERGE_TAG:  # "<<: *defaults"
                sources = vnode.value if isinstance(vnode, SequenceNode) else [vnode]
                for src in sources:
                    if not isinstance(src, MappingNode):
                        raise self.fail(vnode, loc, "a merge key (<<) needs a mapping "
                                        "or a list of mappings.")
                    merged.append(src)
                continue
            k = self.key(knode, loc)
            line = knode.start_mark.line + 1
            if k in own:
                raise self.fail(knode, loc + (k,), f"duplicate key {k!r} (first at line "
                                f"{own_lines[k]}); each key may appear only once.")
            own_lines[k] = line
            self.lines.setdefault(loc + (k,), line)
            own[k] = self.build(vnode, loc + (k,), depth)
        out: dict[str, Any] = {}
        # earlier merge sources win over later ones; the mapping's own keys win over all
        for src in reversed(merged):
            self.count_merge(node, loc)
            sub = self.mapping(src, loc, depth)
            out.update(sub)
        out.update(own)
        return out


#: characters refused in any text: control characters (C0 but tab and line
#: feed, DEL, C1), lone surrogates (``"\\ud800"``: not writable as UTF-8) and the
#: bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069:
#: an unterminated U+202E reverses the rest of a report's paragraph on screen)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
#: what the bidirectional controls are called in an error
_BIDI = {"\u202a": "left-to-right embedding", "\u202b": "right-to-left embedding",
         "\u202c": "pop directional formatting", "\u202d": "left-to-right override",
         "\u202e": "right-to-left override", "\u2066": "left-to-right isolate",
         "\u2067": "right-to-left isolate", "\u2068": "first strong isolate",
         "\u2069": "pop directional isolate"}


def _check_text(builder: "_Builder", node: Node, loc: tuple, value: str) -> None:
    """Refuse control characters (ANSI escapes...) and lone surrogates in a text value or key.

    Names reach the terminal, CSV files and charts; an ``ESC [`` sequence would
    be sent raw to a terminal, so text may hold tabs and line breaks but no
    other control character.
    """
    m = _CONTROL.search(value)
    if m is None:
        return
    ch = m.group()
    what = {"\x1b": "ESC, the start of a terminal escape sequence", "\r": "a carriage return",
            "\x00": "a NUL byte"}.get(ch, "a control character")
    if ch in _BIDI:
        raise builder.fail(node, loc, f"the text {_short(ascii(value))} contains U+{ord(ch):04X} ({_BIDI[ch]}, "
                           f"a bidirectional control) at position {m.start()}; it would reorder the text "
                           "printed after it (a report's verdict could read backwards), so text in a "
                           "scenario may not contain bidirectional controls. Remove it (right-to-left "
                           "letters themselves are fine).")
    if "\ud800" <= ch <= "\udfff":
        raise builder.fail(node, loc, f"the text {_short(ascii(value))} contains U+{ord(ch):04X}, half "
                           "of a UTF-16 surrogate pair, which is not a character and cannot be "
                           "written as UTF-8; write the character itself (or its \\U escape).")
    raise builder.fail(node, loc, f"the text {_short(ascii(value))} contains U+{ord(ch):04X} "
                       f"({what}) at position {m.start()}; text in a scenario may not contain "
                       "control characters (tabs and line breaks are fine). Remove it.")


def _short(text: object, limit: int = 40) -> str:
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _yaml_problem(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        parts = []
        if exc.context:
            ctx = exc.context
            if exc.context_mark is not None and (
                    exc.problem_mark is None
                    or exc.context_mark.line != exc.problem_mark.line):
                ctx += f" (line {exc.context_mark.line + 1})"
            parts.append(ctx)
        if exc.problem:
            parts.append(exc.problem)
        return "; ".join(parts) or "invalid YAML"
    return str(exc).replace("\n", " ")


def _yaml_error(exc: yaml.YAMLError, label: str) -> ScenarioError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = _yaml_problem(exc).rstrip(".")
    if "'\\t'" in problem:
        problem += " (indent with spaces: YAML does not allow tabs there)"
    if mark is not None:
        return ScenarioError(f"{label}, line {mark.line + 1}, column {mark.column + 1}: "
                             f"YAML syntax error: {problem}.",
                             file=label, line=mark.line + 1, detail=problem)
    return ScenarioError(f"{label}: YAML error: {problem}.", file=label, detail=problem)


def load_yaml_text(text: str, path: str = "<string>") -> Document:
    """Parse ``text`` as a scenario document (see the module docstring)."""
    label = str(path)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ScenarioError(f"{label}: the file is larger than {MAX_BYTES:,} bytes; "
                            "scenario files are expected to be small.", file=label)
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise ScenarioError(f"{label}: the file is empty; a scenario needs at least "
                            "'name' and 'system'.", file=label)
    try:
        loader = _LimitedLoader(text, label)  # its reader refuses raw control characters
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise ScenarioError.at(label, line, None, f"the file contains the control character "
                               f"U+{exc.character:04X} (position {exc.position}); text in a scenario "
                               "may not contain control characters (tabs and line breaks are fine).") from None
    try:
        root = loader.get_single_node()
        if root is None:
            raise ScenarioError(f"{label}: the file has no content (only comments?); a "
                                "scenario needs at least 'name' and 'system'.", file=label)
        if not isinstance(root, MappingNode):
            kind = "a list" if isinstance(root, SequenceNode) else "a single value"
            raise ScenarioError.at(label, root.start_mark.line + 1, None,
                                   f"the top level must be a mapping of 'key: value' "
                                   f"lines (name, system, ...), not {kind}.")
        builder = _Builder(loader, label)
        builder.lines[()] = root.start_mark.line + 1
        data = builder.build(root, (), 0)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, label) from None
    except RecursionError:  # pragma: no cover (depth limits come first)
        raise ScenarioError(f"{label}: the document is nested too deeply.",
                            file=label) from None
    finally:
        loader.dispose()
    return Document(path=label, text=text, data=data, lines=builder.lines)


def load_yaml(path: str | os.PathLike) -> Document:
    """Read and parse a scenario file (see the module docstring). Never writes."""
    label = str(path)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError(f"{label}: the file is {size:,} bytes, larger than the "
                                f"{MAX_BYTES:,} allowed for a scenario.", file=label)
        with p.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError(f"{label}: no such file.", file=label) from None
    except IsADirectoryError:
        raise ScenarioError(f"{label}: is a directory, not a scenario file.",
                            file=label) from None
    except OSError as exc:
        raise ScenarioError(f"{label}: cannot read the file ({exc.strerror or exc}).",
                            file=label) from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"{label}: the file is larger than the {MAX_BYTES:,} bytes "
                            "allowed for a scenario.", file=label)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ScenarioError(
            f"{label}, line {line}: the file is not UTF-8 text (byte "
            f"0x{raw[exc.start]:02x} at offset {exc.start}); save it as UTF-8.",
            file=label, line=line) from None
    return load_yaml_text(text, label)
