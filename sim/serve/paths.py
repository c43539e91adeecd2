"""Paths the page may name: files under the folder served, runs under the results folder.

The page names files by a path *relative to the folder* ``sim serve`` was
started on (``scenarios/quickstart.yaml``). :func:`resolve_under` turns such a
path into a real path and refuses, with a sentence for the page, anything
that could reach outside: an absolute path, a ``..`` part, a drive or a
backslash, a NUL byte, or a symbolic link whose target lies outside. Only
scenario files (``.yaml``/``.yml``) are read or written.

Run directories are named by ``<scenario>/<run id>`` and checked the same way
against the results folder (:func:`run_dir`).
"""
from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

#: longest path the page may name, in characters
MAX_PATH = 400
#: scenario file suffixes the page may open and save
SUFFIXES = (".yaml", ".yml")
#: one part of a run's name: the scenario's folder or the run id (letters, digits, ``._-`` and spaces)
_RUN_PART = re.compile(r"^[^/\\\x00-\x1f]{1,200}$")


class PathRefused(ValueError):
    """A path the page may not use; ``str(err)`` is the sentence shown."""


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def resolve_under(root: Path, rel: str, *, suffixes=SUFFIXES) -> Path:
    """The real path of ``rel`` inside ``root`` (which must be a real, absolute path).

    Raises :class:`PathRefused` for an absolute path, a ``..`` part, a path
    through a link that leads outside ``root``, or a suffix not in ``suffixes``.
    The file need not exist (a save may create it; its folder must exist).
    """
    if not isinstance(rel, str) or not rel.strip():
        raise PathRefused("no file named: give a path inside the folder served, e.g. scenarios/mine.yaml")
    if len(rel) > MAX_PATH or "\x00" in rel:
        raise PathRefused("that path is too long or holds a NUL character")
    shown = rel if len(rel) <= 80 else rel[:77] + "..."
    if rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) or "\\" in rel:
        raise PathRefused(f"'{shown}' is refused: absolute paths (and backslashes) are not allowed; "
                          f"name a file inside the folder served ({root}) by a relative path")
    parts = PurePosixPath(rel).parts
    if any(p == ".." for p in parts):
        raise PathRefused(f"'{shown}' is refused: '../' would leave the folder served ({root}); "
                          "the page opens and saves only files inside it")
    if suffixes and not rel.lower().endswith(tuple(suffixes)):
        raise PathRefused(f"'{shown}' is refused: the page opens and saves scenario files only "
                          f"({', '.join(suffixes)})")
    real = Path(os.path.realpath(root / Path(*parts)))
    if not _inside(real, root):
        raise PathRefused(f"'{shown}' is refused: it leads outside the folder served ({root}) "
                          "through a symbolic link")
    return real


def relative(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` in the page's form (forward slashes)."""
    return Path(path).relative_to(root).as_posix()


def run_dir(results: Path, scenario: str, run_id: str) -> Path:
    """The directory of run ``<scenario>/<run_id>`` under ``results`` (need not exist).

    Each part must be one plain folder name (no separator, no ``..``, no control
    character), and the result must lie inside ``results`` once links are followed.
    """
    for part in (scenario, run_id):
        if not isinstance(part, str) or not _RUN_PART.match(part) or part in (".", "..") \
                or part.startswith("."):
            raise PathRefused("no such run: a run is named by its scenario folder and run id")
    real = Path(os.path.realpath(results / scenario / run_id))
    if not _inside(real, Path(os.path.realpath(results))):
        raise PathRefused("no such run: it lies outside the results folder")
    return real
