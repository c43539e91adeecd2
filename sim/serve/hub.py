"""Server-sent events: every open tab hears what happens (progress, queue, files, runs).

Each tab keeps one ``GET /api/events`` stream open; :class:`Hub` keeps one
asyncio queue per stream and :meth:`Hub.publish` (callable from any thread:
the job reader runs in its own) puts each event on all of them. An event is a
JSON object with a ``type``; a tab that falls behind by :data:`MAX_BACKLOG`
events is dropped (it reconnects and reloads the state).
"""
from __future__ import annotations

import asyncio
import json
import threading

MAX_BACKLOG = 2000
#: seconds between keep-alive comments on an idle stream
KEEPALIVE_S = 15.0


class Hub:
    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subs: set[asyncio.Queue] = set()
        self._lock = threading.Lock()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def subscribe(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue(MAX_BACKLOG)
        with self._lock:
            self._subs.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue) -> None:
        with self._lock:
            self._subs.discard(q)

    def _put_all(self, event: dict) -> None:
        with self._lock:
            subs = list(self._subs)
        for q in subs:
            try:
                q.put_nowait(event)
            except asyncio.QueueFull:
                self.unsubscribe(q)  # fallen behind: its stream ends at the None below
                try:
                    q.get_nowait()
                    q.put_nowait(None)
                except (asyncio.QueueEmpty, asyncio.QueueFull):
                    pass

    def publish(self, event: dict) -> None:
        """Send ``event`` to every stream (thread-safe; dropped before the server runs)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._put_all(event)
        else:
            loop.call_soon_threadsafe(self._put_all, event)

    async def stream(self, first: list[dict], disconnected):
        """The text of one SSE stream: the ``first`` events, then everything published."""
        q = self.subscribe()
        try:
            for ev in first:
                yield _frame(ev)
            while True:
                try:
                    ev = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    if await disconnected():
                        break
                    yield ": keep-alive\n\n"
                    continue
                if ev is None:
                    break
                yield _frame(ev)
        finally:
            self.unsubscribe(q)


def plain(x):
    """``x`` with NaN and infinities as None (JSON has neither), recursively."""
    if isinstance(x, float):
        return x if x == x and x not in (float("inf"), float("-inf")) else None
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        return plain(x.item())
    return x


def dumps(x) -> str:
    """Strict JSON of ``x`` (:func:`plain` first)."""
    return json.dumps(plain(x), default=str, allow_nan=False)


def _frame(event: dict) -> str:
    return f"data: {dumps(event)}\n\n"
