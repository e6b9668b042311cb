"""GC victim policies written in Python, registered with the library as any C plugin is
(ssdsim_gc_register): once registered, a model selects one by name with gc.policy.

The policy is a function select(view, plane) -> block that returns a candidate block of the plane
(global block number) or NO_BLOCK to collect nothing now. `view` reads the device's blocks as the
C policies do (ssdsim/sys/gc.h): candidates, valid pages, ages on the write clock, erase counts,
and the simulation's own random stream (use it, not Python's, to stay reproducible).

Registration is for the life of the process and a name can be registered once. Python runs
at every victim choice, so a Python policy is slower than a C one, not different: a policy
written in both gives the same results. An exception in the policy stops the run, and
Simulation.run raises it again (chained to the library's error); an answer that is not an int in
[0, NO_BLOCK] or None does the same, as a TypeError or ValueError naming the policy and the value.
"""
import ctypes
import operator

from . import _native as n
from ._native import Error
from .core import U32_MAX, whole

NO_BLOCK = 0xFFFFFFFF
PLUGIN_ABI_VERSION = 1  # ssdsim/sys/plugin.h, the version this package was written for
_BAD_BLOCK = 0xFFFFFFFE

_INIT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_size_t)
_FINI = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_SELECT = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32)


class _GcOps(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_uint32), ("struct_size", ctypes.c_uint32),
                ("name", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("state_size", ctypes.c_size_t), ("params", ctypes.c_void_p),
                ("init", _INIT), ("fini", _FINI), ("select_victim", _SELECT)]


class View:
    """The device's blocks as a GC policy sees them, valid only during the call that received
    it: the library's view it reads exists only then, so a view kept after select() returns
    raises RuntimeError when used. Block and plane numbers are unsigned 32-bit, checked before
    the call (ValueError outside [0, 2**32 - 1], TypeError for a non-number) where ctypes would
    wrap them into another block; within that range, a block or plane the device does not have
    reads as the C functions answer it (0 valid pages, NO_BLOCK)."""
    __slots__ = ("_v",)

    def __init__(self, ptr):
        self._v = ptr

    def _ptr(self):
        v = self._v
        if v is None:
            raise RuntimeError("ssdsim.View used outside the select() call it was given to: "
                               "a view is valid only during that call")
        return v

    def pages_per_block(self):
        return n.lib.ssdsim_view_pages_per_block(self._ptr())

    def n_planes(self):
        return n.lib.ssdsim_view_n_planes(self._ptr())

    def blocks_per_plane(self):
        return n.lib.ssdsim_view_blocks_per_plane(self._ptr())

    def n_candidates(self, plane):
        v, p = self._ptr(), _u32("View.n_candidates: plane", plane)
        return n.lib.ssdsim_view_n_candidates(v, p)

    def candidate(self, plane, i):
        v, p = self._ptr(), _u32("View.candidate: plane", plane)
        return n.lib.ssdsim_view_candidate(v, p, _u32("View.candidate: i", i))

    def candidates(self, plane):
        v, p = self._ptr(), _u32("View.candidates: plane", plane)
        return [n.lib.ssdsim_view_candidate(v, p, i)
                for i in range(n.lib.ssdsim_view_n_candidates(v, p))]

    def fewest_valid(self, plane):
        v, p = self._ptr(), _u32("View.fewest_valid: plane", plane)
        return n.lib.ssdsim_view_fewest_valid(v, p)

    def least_recent(self, plane, valid):
        v, p = self._ptr(), _u32("View.least_recent: plane", plane)
        return n.lib.ssdsim_view_least_recent(v, p, _u32("View.least_recent: valid", valid))

    def oldest(self, plane):
        v, p = self._ptr(), _u32("View.oldest: plane", plane)
        return n.lib.ssdsim_view_oldest(v, p)

    def newer(self, block):
        v, b = self._ptr(), _u32("View.newer: block", block)
        return n.lib.ssdsim_view_newer(v, b)

    def valid(self, block):
        v, b = self._ptr(), _u32("View.valid: block", block)
        return n.lib.ssdsim_view_valid(v, b)

    def closed_at(self, block):
        v, b = self._ptr(), _u32("View.closed_at: block", block)
        return n.lib.ssdsim_view_closed_at(v, b)

    def modified_at(self, block):
        v, b = self._ptr(), _u32("View.modified_at: block", block)
        return n.lib.ssdsim_view_modified_at(v, b)

    def clock(self):
        return n.lib.ssdsim_view_clock(self._ptr())

    def erase_count(self, block):
        v, b = self._ptr(), _u32("View.erase_count: block", block)
        return n.lib.ssdsim_view_erase_count(v, b)

    def random(self):
        """A uniform 64-bit number from the simulation's policy stream."""
        return n.lib.ssdsim_view_random(self._ptr())


def _u32(what, value):
    """A plane, block or count argument as the uint32 the C function takes, or the error of
    whole() naming `what` ("View.valid: block")."""
    if type(value) is int and 0 <= value <= U32_MAX:  # the common case, kept cheap
        return value
    return whole(what, value, 0, U32_MAX)


_registered = {}  # name -> (ops, callbacks, state): the library keeps pointers to them
_failures = []    # exceptions raised by Python policies, re-raised by Simulation.run

n.lib.ssdsim_gc_register.restype = ctypes.c_int
n.lib.ssdsim_gc_register.argtypes = [ctypes.POINTER(_GcOps), ctypes.POINTER(n.ErrorStruct)]


def _block(name, b):
    """A policy's answer as the uint32 the library takes, or an exception naming the policy and
    the value: ctypes would truncate it to 32 bits (2**40 + b would run as b, -1 as NO_BLOCK)
    and a float to its whole part, so that a different block than the one chosen would be
    collected."""
    try:
        if isinstance(b, bool):  # True would collect block 1: a bool is not a block number
            raise TypeError
        i = operator.index(b)
    except TypeError:
        raise TypeError(f"GC policy '{name}' returned {b!r} ({type(b).__name__}): expected a "
                        f"block number (int) or NO_BLOCK") from None
    if not 0 <= i <= NO_BLOCK:
        raise ValueError(f"GC policy '{name}' returned {b!r}: expected a block number in "
                         f"[0, {NO_BLOCK - 1}] or NO_BLOCK ({NO_BLOCK})")
    return i


def register_gc_policy(name, select, summary="a GC policy written in Python"):
    """Register `select(view, plane) -> block` as GC policy `name` ([a-z0-9-]+). A name or
    summary that is not a str, or a `select` that cannot be called, raises TypeError."""
    if not isinstance(name, str):
        raise TypeError(f"register_gc_policy: name: expected a str ([a-z0-9-]+), got {name!r}")
    if not callable(select):
        raise TypeError(f"register_gc_policy('{name}', ...): select: expected a function "
                        f"select(view, plane) -> block, got {select!r}")
    if not isinstance(summary, str):
        raise TypeError(f"register_gc_policy('{name}', ...): summary: expected a str, got "
                        f"{summary!r}")
    if name in _registered:
        raise Error(-2, f"GC policy '{name}' is already registered")

    def c_select(state, view, plane):
        v = View(view)
        try:
            b = select(v, plane)
            return NO_BLOCK if b is None else _block(name, b)
        except BaseException as e:  # noqa: B902 - every failure must reach the caller
            _failures.append(e)
            return _BAD_BLOCK
        finally:
            v._v = None  # the library's view ends with the call: a kept View must not reach it

    select_cb = _SELECT(c_select)
    name_b, summary_b = n.enc(name), n.enc(summary)
    ops = _GcOps(abi_version=PLUGIN_ABI_VERSION, struct_size=ctypes.sizeof(_GcOps),
                 name=name_b, summary=summary_b, state_size=0, params=None,
                 init=_INIT(), fini=_FINI(), select_victim=select_cb)
    err = n.ErrorStruct()
    n.check(n.lib.ssdsim_gc_register(ctypes.byref(ops), ctypes.byref(err)), err)
    _registered[name] = (ops, select_cb, name_b, summary_b)
    return name


def take_failure():
    """The first exception a Python policy raised since the last call, or None."""
    if not _failures:
        return None
    e = _failures[0]
    _failures.clear()
    return e
