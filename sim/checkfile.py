"""Reading a checkpoint file without trusting it: sizes, dtypes and shapes first.

A checkpoint (``sim run``'s counters, :mod:`sim.runner`; a study's per-trial
rows, :mod:`sim.study.checkpoint`) is an ``.npz``: a zip of ``.npy`` arrays
with a JSON ``meta``. Before a byte of an array is unpacked,
:func:`load_arrays` reads the zip's directory and every array's header and
refuses (:class:`DamagedCheckpoint`, one paragraph):

* a file that is empty, not a zip, truncated or with a bad CRC;
* a member that is not an ``.npy`` array, an object (pickled) array, or a
  dtype other than a plain bool, integer, float or unicode string;
* an array whose header shape needs more bytes than the member holds, and a
  file whose members unpack to more than ``max_bytes`` (a zip bomb: a few MB
  that unpack to GBs).

The callers then check the meaning (keys, counts against ``done``...) with
the helpers here (:func:`need`, :func:`meta_field`), each failure one
:class:`DamagedCheckpoint` paragraph that names the file and the part.
"""
from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import numpy as np

#: the most a run checkpoint may unpack to (its counters are KB to a few MB)
RUN_MAX_BYTES = 256 << 20

ADVICE = ("It cannot be used: remove it (or restore a good copy) and run again; a run or study that "
          "starts afresh plays the same trials.")


class DamagedCheckpoint(ValueError):
    """A checkpoint file that is damaged or not a checkpoint (one paragraph)."""


def damaged(path, what: str) -> DamagedCheckpoint:
    return DamagedCheckpoint(f"{path} is not a readable mgsim checkpoint: {what}. {ADVICE}")


def _member_header(z: zipfile.ZipFile, info: zipfile.ZipInfo, path) -> tuple[tuple, np.dtype]:
    from numpy.lib import format as npf

    with z.open(info) as f:
        version = npf.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npf.read_array_header_1_0(f)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = npf.read_array_header_2_0(f)
        else:
            raise ValueError(f"unknown .npy version {version}")
    if dtype.hasobject or dtype.kind not in "biufU":
        raise damaged(path, f"its array {info.filename[:-4]!r} has dtype {dtype} (only plain numbers and "
                      "text are written)")
    need = math.prod(int(d) for d in shape) * dtype.itemsize
    if need > info.file_size:
        raise damaged(path, f"its array {info.filename[:-4]!r} claims shape {shape} ({need:,} bytes) but "
                      f"holds {info.file_size:,} bytes")
    return shape, dtype


def load_arrays(path, max_bytes: int = RUN_MAX_BYTES) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``path``, checked first (see the module doc).

    Raises :class:`DamagedCheckpoint`, or ``FileNotFoundError`` for no file.
    """
    path = Path(path)
    if path.is_dir():
        raise damaged(path, "it is a directory")
    size = path.stat().st_size
    if size == 0:
        raise damaged(path, "the file is empty (0 bytes)")
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            total = sum(i.file_size for i in infos)
            if total > max_bytes:
                raise damaged(path, f"its arrays would unpack to {total:,} bytes, more than the "
                              f"{max_bytes:,} a checkpoint may hold (a damaged or hostile file)")
            for info in infos:
                if not info.filename.endswith(".npy"):
                    raise damaged(path, f"it holds {info.filename!r}, not an array")
                _member_header(z, info, path)
        with np.load(path, allow_pickle=False) as npz:
            return {k: npz[k] for k in npz.files}
    except DamagedCheckpoint:
        raise
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile,
            NotImplementedError, RuntimeError) as e:
        raise damaged(path, f"it cannot be read ({type(e).__name__}: {e})") from None


def need(path, arrays: dict, key: str, *, kind: str, ndim: int) -> np.ndarray:
    """``arrays[key]``, refused when missing or not of dtype ``kind`` (``"i"``
    integer, ``"U"`` text) and ``ndim`` dimensions."""
    if key not in arrays:
        raise damaged(path, f"the array {key!r} is missing")
    a = arrays[key]
    if a.dtype.kind != kind and not (kind == "i" and a.dtype.kind == "u"):
        want = {"i": "whole numbers", "U": "text"}[kind]
        raise damaged(path, f"the array {key!r} holds {a.dtype} values, not {want}")
    if a.ndim != ndim:
        raise damaged(path, f"the array {key!r} has {a.ndim} dimensions, not {ndim}")
    return a


def read_meta(path, arrays: dict) -> dict:
    """The JSON object in ``arrays["meta"]`` (a text scalar)."""
    raw = need(path, arrays, "meta", kind="U", ndim=0)
    try:
        meta = json.loads(str(raw))
    except ValueError as e:
        raise damaged(path, f"its description ('meta') is not JSON ({e})") from None
    if not isinstance(meta, dict):
        raise damaged(path, "its description ('meta') is not a JSON object")
    return meta


_TYPES = {"int": (int,), "str": (str,), "bool": (bool,), "list": (list,), "dict": (dict,),
          "float": (int, float)}


def meta_field(path, meta: dict, key: str, typ: str, *, optional: bool = False, lo=None, hi=None):
    """``meta[key]`` checked: of type ``typ`` (``int`` never a bool), in ``[lo, hi]``."""
    if key not in meta:
        if optional:
            return None
        raise damaged(path, f"its description lacks {key!r}")
    v = meta[key]
    if v is None and optional:
        return None
    ok = isinstance(v, _TYPES[typ]) and not (typ in ("int", "float") and isinstance(v, bool))
    if ok and lo is not None and v < lo:
        ok = False
    if ok and hi is not None and v > hi:
        ok = False
    if not ok:
        rng = "" if lo is None else f" from {lo} to {hi}"
        a = {"int": "a whole number", "str": "text", "bool": "true or false", "list": "a list",
             "dict": "an object", "float": "a number"}[typ]
        raise damaged(path, f"its {key!r} is {v!r}, not {a}{rng}")
    return v


def counts(path, a: np.ndarray, what: str) -> np.ndarray:
    """An integer array with no negative entry, as int64."""
    if a.dtype.kind not in "iu":
        raise damaged(path, f"{what} holds {a.dtype} values, not whole-number counts")
    a = a.astype(np.int64, copy=False)
    if a.size and int(a.min()) < 0:
        raise damaged(path, f"{what} holds a negative count ({int(a.min())})")
    return a


def peek_meta(path) -> dict | None:
    """The ``meta`` object of the ``.npz`` at ``path`` without reading its other
    arrays (``None`` when it cannot be read: the full check then says why)."""
    from numpy.lib import format as npf

    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("meta.npy")
            if info.file_size > 64 << 20:
                return None
            _member_header(z, info, path)
            with z.open(info) as f:
                meta = json.loads(str(npf.read_array(f, allow_pickle=False)))
        return meta if isinstance(meta, dict) else None
    except Exception:
        return None
