"""Several study contexts whose rows share one checkpoint.

``sim audit`` plays one :class:`~sim.study.arms.StudyContext` per reference
encounter; all their streams go into one study checkpoint
(:mod:`sim.study.checkpoint`, the same file format), each stream's name
prefixed by its context's *tag* (``"<tag> // <name>"``). A
:class:`ContextGroup` stands where the checkpoint expects a context: its
:meth:`streams` are every member's, tagged; :attr:`restored` (set by
:meth:`StudyCheckpoint.restore <sim.study.checkpoint.StudyCheckpoint.restore>`)
is handed to each member, untagged, when it joins (:meth:`add`), before it
builds an arm. Every member shares the group's ``cancel``, ``progress`` and
saver, so a stop in any of them saves the whole group.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

#: between a context's tag and a stream's own name in the checkpoint
SEP = " // "


@dataclass
class TaggedStream:
    """A member's stream as the checkpoint sees it (:class:`sim.study.arms.Arm`'s fields)."""

    purpose: str
    name: str
    key: object
    done: int
    rows: Callable


class ContextGroup:
    """See the module doc. ``saver``: the checkpoint (called as ``saver(group, force)``)."""

    def __init__(self, cancel=None, progress=None, saver=None):
        self.cancel = cancel
        self.progress = progress
        self.saver = saver
        self.restored: dict[tuple, tuple] = {}
        #: every member takes all its rows from :attr:`restored` (``sim report``)
        self.frozen = False
        self.members: list[tuple[str, object]] = []

    def add(self, tag: str, ctx):
        """``ctx`` joins under ``tag`` (unique, without :data:`SEP`): it gets its rows of
        :attr:`restored`, the group's cancel and progress, and saves the group."""
        if SEP in tag or any(t == tag for t, _c in self.members):
            raise ValueError(f"context tag {tag!r} is not unique or holds {SEP!r}")
        head = tag + SEP
        ctx.restored = {(p, n[len(head):]): v for (p, n), v in self.restored.items() if n.startswith(head)}
        ctx.cancel, ctx.progress, ctx.frozen = self.cancel, self.progress, self.frozen
        if self.saver is not None:
            ctx.saver = lambda _ctx, force=False: self.saver(self, force)
        self.members.append((tag, ctx))
        return ctx

    def streams(self) -> list[TaggedStream]:
        """Every member's streams, their names tagged (the checkpoint's content)."""
        return [TaggedStream(a.purpose, tag + SEP + a.name, a.key, a.done, a.rows)
                for tag, ctx in self.members for a in ctx.streams()]

    def done(self) -> dict[str, int]:
        """Trials finished per tagged stream (:attr:`sim.runner.RunCancelled.done`)."""
        return {s.name: s.done for s in self.streams()}

    def restored_trials(self) -> dict[tuple, int]:
        """Trials :attr:`restored` holds per tagged stream label."""
        return {label: int(done) for label, (_k, _c, done) in self.restored.items()}
