"""The scenario files the page can open: the folder served, and the bundled examples.

The folder ``sim serve`` was started on (``root``) holds the user's files:
they can be opened and saved (:func:`sim.serve.paths.resolve_under` refuses
any path outside it). The examples shipped with mgsim (the repository's
``scenarios/``, when it is not inside ``root`` already) can be opened, not
saved over: saving one writes a copy under ``root``.

Saving is atomic (a temporary file renamed over the old one) and refuses to
overwrite a file changed on disk since the page loaded it (``base_sha``), so
an edit made in another editor is never lost silently. :class:`Watcher`
polls the files the tabs have open and announces a change within
:data:`POLL_S` seconds.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

from .paths import SUFFIXES, PathRefused, relative, resolve_under

#: folders never listed
SKIP_DIRS = {"results", "node_modules", "__pycache__", "build", "dist", "site-packages"}
#: most files listed, and how deep
MAX_FILES = 2000
MAX_DEPTH = 6
#: largest file the page reads or writes (the loader's own limit)
MAX_BYTES = 1 << 20
#: seconds between two looks at the open files
POLL_S = 0.25

EXAMPLES_PREFIX = "examples/"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class FileError(ValueError):
    """A file problem worded for the page (missing, too large, not UTF-8, changed on disk)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _walk(top: Path, limit: int) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(top):
        depth = len(Path(dirpath).relative_to(top).parts)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and depth < MAX_DEPTH)
        for f in sorted(filenames):
            if f.lower().endswith(SUFFIXES) and not f.startswith("."):
                out.append(Path(dirpath) / f)
                if len(out) >= limit:
                    return out
    return out


class Files:
    """The user's files under ``root`` and the bundled ``examples`` (module doc)."""

    def __init__(self, root: Path, examples: Path | None):
        self.root = Path(os.path.realpath(root))
        ex = Path(os.path.realpath(examples)) if examples is not None and Path(examples).is_dir() else None
        if ex is not None:
            try:
                ex.relative_to(self.root)
                ex = None  # already among the user's files
            except ValueError:
                pass
        self.examples = ex

    def listing(self) -> dict:
        mine = [relative(self.root, p) for p in _walk(self.root, MAX_FILES)]
        ex = [EXAMPLES_PREFIX + relative(self.examples, p) for p in _walk(self.examples, MAX_FILES)] \
            if self.examples else []
        return {"root": str(self.root), "files": mine, "examples": ex}

    def locate(self, rel: str) -> tuple[Path, bool]:
        """``(real path, writable)``: an example (``examples/...``) is read-only."""
        if isinstance(rel, str) and rel.startswith(EXAMPLES_PREFIX) and self.examples is not None:
            return resolve_under(self.examples, rel[len(EXAMPLES_PREFIX):]), False
        return resolve_under(self.root, rel), True

    def read(self, rel: str) -> dict:
        path, writable = self.locate(rel)
        if not path.is_file():
            raise FileError(f"{rel}: no such file in the folder served", 404)
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FileError(f"{rel}: the file is {size:,} bytes, larger than the {MAX_BYTES:,} allowed "
                            "for a scenario")
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise FileError(f"{rel}: the file is not UTF-8 text; save it as UTF-8") from None
        return {"path": rel, "text": text, "sha": sha(text), "writable": writable, "mtime": path.stat().st_mtime,
                "real": str(path)}

    def save(self, rel: str, text: str, base_sha: str | None) -> dict:
        """Write ``text`` to ``rel`` (atomic); refuse if the file changed since ``base_sha``
        (``None``: a new file, refused if one exists)."""
        path, writable = self.locate(rel)
        if not writable:
            raise FileError(f"{rel} is a bundled example and cannot be changed; save it under a new name "
                            "in your folder", 403)
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise FileError(f"the text is larger than the {MAX_BYTES:,} bytes allowed for a scenario")
        if not path.parent.is_dir():
            raise FileError(f"{rel}: its folder does not exist", 404)
        if path.exists():
            current = sha(path.read_bytes().decode("utf-8", "replace"))
            if base_sha is None:
                raise FileError(f"{rel} already exists; open it, or choose another name", 409)
            if current != base_sha:
                raise FileError(f"{rel} was changed on disk since you opened it; reload it (or copy your "
                                "text) before saving", 409)
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
        try:
            tmp.write_text(text, encoding="utf-8", newline="")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return {"path": rel, "sha": sha(text), "mtime": path.stat().st_mtime}


class Watcher:
    """Polls the files open in the tabs; ``publish({"type": "file", ...})`` on a change."""

    def __init__(self, files: Files, publish):
        self.files = files
        self.publish = publish
        self._seen: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sim-serve-watcher", daemon=True)
        self._thread.start()

    def watch(self, rel: str) -> None:
        try:
            path, _ = self.files.locate(rel)
            st = path.stat()
        except (PathRefused, OSError):
            return
        with self._lock:
            self._seen[rel] = (st.st_mtime_ns, st.st_size)

    def _loop(self) -> None:
        while not self._stop.wait(POLL_S):
            with self._lock:
                items = list(self._seen.items())
            for rel, old in items:
                try:
                    path, _ = self.files.locate(rel)
                    st = path.stat()
                    new = (st.st_mtime_ns, st.st_size)
                except (PathRefused, OSError):
                    new = None
                if new != old:
                    with self._lock:
                        if new is None:
                            self._seen.pop(rel, None)
                        else:
                            self._seen[rel] = new
                    self._announce(rel, new is None)

    def _announce(self, rel: str, gone: bool) -> None:
        if gone:
            self.publish({"type": "file", "path": rel, "gone": True})
            return
        try:
            info = self.files.read(rel)
        except (FileError, PathRefused, OSError):
            return
        self.publish({"type": "file", "path": rel, "sha": info["sha"], "text": info["text"],
                      "t": time.time()})

    def close(self) -> None:
        self._stop.set()
