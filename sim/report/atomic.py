"""Write a directory all at once or not at all.

Everything is built in a hidden sibling ``.<name>.tmp-<random>`` and renamed
onto the final path only when complete, so a crash, an exception or Ctrl-C
never leaves a half-written run directory behind.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from pathlib import Path

__all__ = ["OutputExistsError", "OutputPathError", "ReportWriteError", "atomic_dir", "preflight"]


class OutputExistsError(FileExistsError):
    """The output directory already exists and is not empty."""


class OutputPathError(ValueError):
    """The output directory cannot be written (a parent is a file, no permission, a symlink)."""


class ReportWriteError(Exception):
    """The simulation finished but its report could not be written; the message
    says where the counters are kept and how to write the report from them."""


def _check_target(out_dir: Path) -> None:
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise OutputExistsError(f"output path exists and is not a directory: {out_dir}")
    if out_dir.is_dir() and any(out_dir.iterdir()):
        raise OutputExistsError(
            f"output directory {out_dir} already exists and is not empty; "
            "choose another run id or remove it first"
        )


def _make_temp_sibling(out_dir: Path) -> Path:
    for _ in range(100):
        tmp = out_dir.parent / f".{out_dir.name}.tmp-{secrets.token_hex(6)}"
        try:
            tmp.mkdir()  # respects the umask, unlike tempfile.mkdtemp (0700)
        except FileExistsError:
            continue
        return tmp
    raise OSError(f"could not create a temporary directory next to {out_dir}")


@contextlib.contextmanager
def atomic_dir(out_dir):
    """Context manager yielding a temporary directory that becomes ``out_dir``.

    On normal exit the temporary directory is renamed to ``out_dir`` (an
    existing *empty* ``out_dir`` is replaced). On any exception (including
    ``KeyboardInterrupt``) it is removed and the exception re-raised.
    Raises :class:`OutputExistsError` up front, before writing anything, if
    ``out_dir`` exists and is not an empty directory.
    """
    out_dir = Path(out_dir)
    if out_dir.name in ("", ".", ".."):
        raise ValueError(f"invalid output directory: {out_dir}")
    _check_target(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = _make_temp_sibling(out_dir)
    try:
        yield tmp
        _check_target(out_dir)  # someone may have written there meanwhile
        if out_dir.is_dir():
            out_dir.rmdir()  # empty: rename over a directory is not portable
        os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def preflight(out_dir, *, refuse_symlink_above: Path | None = None) -> None:
    """Check before simulating that ``out_dir`` can be written at the end.

    Refuses (:class:`OutputExistsError`) an existing non-empty directory, a
    file or a symlink at ``out_dir``, and (:class:`OutputPathError`) a path
    whose nearest existing parent is not a directory or where a directory
    cannot be made (read-only, no permission: tried by making and removing a
    hidden probe directory). ``refuse_symlink_above``: a directory between it
    and ``out_dir`` (inclusive) that is a symlink is refused too (the default
    ``results/<scenario>`` must not lead elsewhere).
    """
    out_dir = Path(out_dir)
    if out_dir.name in ("", ".", "..") or "\x00" in str(out_dir):
        raise OutputPathError(f"invalid output directory: {str(out_dir)!r}")
    _check_target(out_dir)
    if refuse_symlink_above is not None:
        top = Path(refuse_symlink_above)
        for p in [out_dir, *out_dir.parents]:
            if p == top:
                break
            if p.is_symlink():
                raise OutputPathError(
                    f"{p} is a symbolic link; the default output path does not follow links "
                    f"(it could write outside {top}). Remove the link, or give --out a real directory.")
    parent = out_dir.parent
    while not parent.exists():
        if parent.is_symlink():
            raise OutputPathError(f"cannot write {out_dir}: {parent} is a broken symbolic link")
        parent = parent.parent
    if not parent.is_dir():
        raise OutputPathError(f"cannot write {out_dir}: {parent} is a file, not a directory; "
                              "choose another --out")
    try:
        probe = parent / f".sim-probe-{secrets.token_hex(6)}"
        probe.mkdir()
        probe.rmdir()
    except OSError as e:
        raise OutputPathError(f"cannot write {out_dir}: cannot create a directory in {parent} "
                              f"({e.strerror or e}); choose another --out") from None


#: public name of the pre-flight check (the API checks ``--out`` before simulating)
check_target = _check_target
