"""The world every 4.1 / draft procedure takes, and how one is called.

The arrays of a fight are the *world*: the static table ``comb``, the rule
table ``rules``, the state and counters ``dyn``, the random ``streams`` and the
battlefield ``bf`` (:mod:`.field`; a field without cells when there is no
grid). A function of the rules takes them as one int64, ``w``: the address of
the five array descriptors, stored once per fight by :func:`pack` (in a buffer
the caller keeps alive) and read back by :func:`unpack`. numba passes each
array as 5 + 2 x ndim machine words, so a call that passed the five arrays
cost 43 words of stack set-up; passing ``w`` costs one register.

A procedure (:mod:`sim.procs`) is compiled on its own and called through its
address in the rule table (``rules[PR_*]``, filled by :mod:`.registry`): the
turn, the attack, the geometry's moves, a talent's hook. Each takes

    (a, b, c, w)

three int64 arguments (who acts, on whom, a slot or an amount: each slot's
meaning in :mod:`.layout`) and the world. It returns an int64 (a damage, a
target, 0/1 for "done").
"""
from __future__ import annotations

import numpy as np
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic, overload

from sim import procs
from sim._jit import jit, kernel
from sim.procs import call  # noqa: F401 - re-exported: ``call(rules[PR_X], a, b, c, comb, rules, dyn, streams, bf)``

from .layout import BF_META, M_NCELL, M_SIZE, NBF, NC, NDYN, R_GRID, R_POSITIONS

_I = types.int64
_A2 = types.Array(types.int64, 2, "C")
#: the world's arrays: comb, rules, dyn, streams, bf
WORLD_TYPES = types.Tuple((_A2, types.Array(types.int64, 1, "C"), _A2, types.Array(types.uint64, 2, "C"), _A2))
# A world's words are written once, by :func:`pack`, before any function that unpacks it
# runs, and never change while ``w`` is in use: :func:`_load` marks their loads invariant,
# so LLVM may keep or move them freely. Re-packing other arrays into a buffer in use would
# break that: every world gets a buffer (or a slot of one) of its own (an episode a slot
# per scene, :func:`.episode.play_episode`).

#: the column count of comb and dyn (``None``: rules is 1-D, a stream row is longer when
#: it carries injected dice, the battlefield's width depends on the field). :func:`_load`
#: gives these arrays their column count and strides as constants, so every
#: ``dyn[i, D_X]`` is ``data + (i * NDYN + D_X) * 8`` with immediates: no shape or
#: stride to load, keep in a register or spill (:func:`pack` checks the arrays have them).
WORLD_COLUMNS = (NC, None, NDYN, None, None)
#: int64 words a world takes in its buffer (:func:`pack`); 43 on 64-bit machines, with room
WORLD_WORDS = 64
#: the argument types of every procedure: a, b, c, w
WORLD = procs.signature(_I, _I, _I, _I)

#: NUMBA_DISABLE_JIT: the worlds by buffer (``w`` is the buffer's address, as compiled)
_PY_WORLDS: dict = {}


@intrinsic
def _store(typingctx, world, buf):
    """Store the world tuple's array descriptors in ``buf``'s data; its address.

    The stored descriptors are *borrowed*: their reference-count fields
    (meminfo, parent) are cleared, so an unpacked array never touches a
    reference count (a null meminfo makes numba's incref and decref no-ops)
    and never points at a meminfo that died with a temporary (the one numba
    makes for an array passed in from Python). The caller keeps the arrays
    and ``buf`` alive while ``w`` is in use (see :func:`keep`)."""
    if world != WORLD_TYPES:
        raise TypeError(f"a world is {WORLD_TYPES}, not {world}")
    sig = types.int64(world, buf)

    def codegen(context, builder, signature, args):
        tup, arr = args
        vals = []
        for k, ty in enumerate(WORLD_TYPES):
            a = cgutils.create_struct_proxy(ty)(context, builder, value=builder.extract_value(tup, k))
            a.meminfo = cgutils.get_null_value(a.meminfo.type)
            a.parent = cgutils.get_null_value(a.parent.type)
            vals.append(a._getvalue())
        borrowed = context.make_tuple(builder, WORLD_TYPES, vals)
        data = cgutils.create_struct_proxy(buf)(context, builder, value=arr).data
        ptr = builder.bitcast(data, context.get_value_type(WORLD_TYPES).as_pointer())
        builder.store(borrowed, ptr)
        return builder.ptrtoint(data, context.get_value_type(types.int64))

    return sig, codegen


@intrinsic
def _load(typingctx, w):
    """The world tuple stored at address ``w`` (each descriptor loaded apart, so the
    ones a function does not use cost nothing); borrowed arrays (:func:`_store`)."""
    sig = WORLD_TYPES(w)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], context.get_value_type(WORLD_TYPES).as_pointer())
        intp = context.get_value_type(types.intp)
        invariant = builder.module.add_metadata([])
        vals = []
        for k, ty in enumerate(WORLD_TYPES):
            at = cgutils.gep_inbounds(builder, ptr, 0, k)
            a = cgutils.create_struct_proxy(ty)(context, builder)
            itemsize = context.get_abi_sizeof(context.get_data_type(ty.dtype))
            a.meminfo = cgutils.get_null_value(a.meminfo.type)  # borrowed (:func:`_store`)
            a.parent = cgutils.get_null_value(a.parent.type)
            a.itemsize = intp(itemsize)
            fields = {}
            for f in ("nitems", "data", "shape", "strides"):
                q = builder.load(cgutils.gep_inbounds(builder, at, 0, a._datamodel.get_field_position(f)))
                q.set_metadata("invariant.load", invariant)  # the buffer never changes while ``w`` is in use
                fields[f] = q
            a.nitems = fields["nitems"]
            a.data = fields["data"]
            a.shape = fields["shape"]
            a.strides = fields["strides"]
            cols = WORLD_COLUMNS[k]
            if cols is not None:  # the column count and strides as constants
                a.shape = builder.insert_value(a.shape, intp(cols), 1)
                a.strides = builder.insert_value(builder.insert_value(a.strides, intp(cols * itemsize), 0),
                                                 intp(itemsize), 1)
            vals.append(a._getvalue())
        return context.make_tuple(builder, WORLD_TYPES, vals)

    return sig, codegen


@kernel
def keep(buf):
    """Mark ``buf`` (a world's buffer) as in use up to here: numba frees an array
    after its last use in a function, and a world's last use may come long after
    its buffer's (the :func:`pack`). Call it after the last use of the world."""
    return buf.shape[0]


@jit
def _pack_jit(comb, rules, dyn, streams, bf, buf):
    return _store((comb, rules, dyn, streams, bf), buf)


def pack(comb, rules, dyn, streams, bf, buf):
    """The world ``w`` of these arrays, stored in ``buf`` (int64[WORLD_WORDS], which the
    caller keeps, with the arrays, for as long as ``w`` is used). ``comb`` and ``dyn``
    must have :data:`WORLD_COLUMNS` columns (ValueError otherwise)."""
    if not _columns_ok(comb, dyn):
        raise ValueError(f"a world's comb and dyn have {NC} and {NDYN} columns, "
                         f"not {comb.shape[1]} and {dyn.shape[1]}")
    if config.DISABLE_JIT:
        # keyed by the buffer's address, as compiled: each slot of a buffer (an episode's scenes)
        # is a world of its own; the id of a slice, which Python may reuse, was not
        w = buf.__array_interface__["data"][0]
        _PY_WORLDS[w] = (comb, rules, dyn, streams, bf)
        return w
    return _pack_jit(comb, rules, dyn, streams, bf, buf)


def unpack(w):
    """``(comb, rules, dyn, streams, bf)`` of the world ``w`` (:func:`pack`)."""
    return _PY_WORLDS[w]


def _columns_ok(comb, dyn):
    """``comb`` and ``dyn`` have the column counts :func:`_load` assumes."""
    if comb.shape[1] != NC:
        return False
    return dyn.shape[1] == NDYN


@overload(_columns_ok, jit_options=dict(cache=True))
def _ov_columns_ok(comb, dyn):
    return _columns_ok


@overload(pack, jit_options=dict(cache=True))
def _ov_pack(comb, rules, dyn, streams, bf, buf):
    def impl(comb, rules, dyn, streams, bf, buf):
        if not _columns_ok(comb, dyn):
            raise ValueError("a world's comb and dyn have the wrong column counts")
        return _store((comb, rules, dyn, streams, bf), buf)
    return impl


@overload(unpack, jit_options=dict(cache=True))
def _ov_unpack(w):
    def impl(w):
        return _load(w)
    return impl


def new_buffer() -> np.ndarray:
    """A buffer for :func:`pack`."""
    return np.zeros(WORLD_WORDS, dtype=np.int64)


@kernel
def on_grid(bf):
    """The fight is on the hex grid (the battlefield has cells)."""
    return bf[BF_META, M_NCELL] > 0


@kernel
def on_positions(rules):
    """The fight is on the draft's line of positions (rule ``positions`` > 0)."""
    return rules[R_POSITIONS] > 0


@kernel
def gridless(rules):
    """Neither a hex grid nor positions: theatre of the mind."""
    if rules[R_GRID] != 0:
        return False
    return rules[R_POSITIONS] == 0


@jit
def no_field():
    """The battlefield array of a fight without a grid (no cells; :func:`on_grid` is False)."""
    bf = np.zeros((NBF, M_SIZE), dtype=np.int64)
    return bf
