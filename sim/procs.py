"""Procedures: kernels compiled on their own and called through an address table.

Why: numba links every jitted function a kernel calls into the kernel's own
library, then optimises and compiles the whole of it again. A call graph of a
few hundred rule functions compiled that way costs each function once per
library that links it: minutes of compiling and gigabytes of memory (measured:
12 minutes and 4.5 GB for a gridless 4.1 fight, 20 minutes and up to 20 GB on
the hex grid). A *procedure* is compiled once, in a library of its own, and
cached on its own; a kernel calls it through its machine address, read from an
int64 table passed in with the kernel's arrays. So:

* each procedure is compiled once per process (or loaded from numba's cache),
  whoever calls it;
* a scenario compiles only the procedures its table names (a fight without a
  grid never compiles the hex battlefield's);
* the table is plain data, so a procedure chosen at run time (a geometry, a
  talent's hook) costs one indirect call and no recompilation.

Every procedure of a table has the same signature (the rule system's "world":
a few ints and its state arrays) and returns an int64; :func:`call` checks the
argument types when the caller is compiled. Under ``NUMBA_DISABLE_JIT=1`` the
table holds small indices into a list of the Python functions instead, so the
scripted tests run uncompiled too.

Use::

    SIG = procs.signature(int64, int64, int64, comb_t, rules_t, ...)
    addresses = procs.addresses([fn_a, fn_b], SIG)   # compile or load, in order
    ...
    @kernel
    def caller(...):
        return call(rules[SLOT], i, t, x, comb, rules, ...)
"""
from __future__ import annotations

import contextlib
import warnings

import numpy as np
from numba import types
from numba.core import cgutils, config, errors
from numba.extending import intrinsic, overload

from sim.notice import NOTICE

#: NUMBA_DISABLE_JIT: the Python functions a table's "addresses" index
_PY: list = []
_PY_INDEX: dict = {}


def call(addr, *args):
    """Call the procedure at ``addr`` (an entry of a table from :func:`addresses`)
    with ``args``; returns its int64 result. Uncompiled: ``addr`` indexes the
    Python functions."""
    return _PY[addr](*args)


@intrinsic
def _call_address(typingctx, addr, args):
    """Call the function at machine address ``addr`` with numba's calling
    convention and the argument types of the tuple ``args``; returns int64."""
    if not isinstance(addr, types.Integer):
        raise errors.TypingError("procs.call: the address must be an integer")
    argtys = tuple(args.types)
    sig = types.int64(addr, args)

    def codegen(context, builder, signature, llargs):
        fnty = context.call_conv.get_function_type(types.int64, argtys)
        ptr = builder.inttoptr(llargs[0], fnty.as_pointer())
        vals = cgutils.unpack_tuple(builder, llargs[1], len(argtys))
        _status, res = context.call_conv.call_function(builder, ptr, types.int64, argtys, vals)
        return res

    return sig, codegen


@overload(call)
def _call_impl(addr, *args):
    def impl(addr, *args):
        return _call_address(addr, args)
    return impl


def signature(*argtypes) -> tuple:
    """The argument types every procedure of a table takes (numba types)."""
    return tuple(argtypes)


def _address(disp, sig) -> int:
    """Compile (or load from the cache) ``disp`` for ``sig``; its machine address."""
    disp.compile(sig)
    cres = disp.overloads[tuple(sig)]
    if types.unliteral(cres.signature.return_type) != types.int64:
        raise TypeError(f"procedure {disp.py_func.__qualname__} must return int64, "
                        f"not {cres.signature.return_type}")
    return int(cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))


def _python_index(fn) -> int:
    fn = getattr(fn, "py_func", fn)
    k = _PY_INDEX.get(fn)
    if k is None:
        k = len(_PY)
        _PY.append(fn)
        _PY_INDEX[fn] = k
    return k


def addresses(fns, sig, label: str = "", announce: bool = True) -> np.ndarray:
    """The table of ``fns`` (jitted functions taking ``sig``): int64 addresses in order.

    Compiles what numba's cache does not hold yet; when that takes a while it
    says so on stderr (``label``: whose procedures), with the time it took.
    Uncompiled (``NUMBA_DISABLE_JIT=1``): indices of the Python functions.
    """
    out = np.zeros(len(fns), dtype=np.int64)
    if config.DISABLE_JIT:
        for k, fn in enumerate(fns):
            out[k] = _python_index(fn)
        return out
    todo = [k for k, fn in enumerate(fns) if tuple(sig) not in fn.overloads]
    with contextlib.ExitStack() as scope:
        if announce and todo:
            distinct = len({id(fns[k]) for k in todo})
            scope.enter_context(NOTICE.batch(f"{label or 'kernels'}: {distinct} procedures"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", errors.NumbaExperimentalFeatureWarning)
            for k, fn in enumerate(fns):
                out[k] = _address(fn, sig)
    return out
