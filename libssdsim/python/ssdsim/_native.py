"""The C library as ctypes sees it: where it is found, the prototypes of the functions the
package calls, and the one way every call's error becomes a Python exception.

The library is looked for, in order, at the path in the environment variable SSDSIM_LIBRARY, at
the path `make install` wrote into _config.py (the installed library beside this package), then
by the system's search (ctypes.util.find_library("ssdsim"), libssdsim.so.1).

Structures the library fills or reads are declared here with the fields this package uses.
Caller-allocated option structs are passed in a zeroed buffer larger than the struct, so a
library whose struct grew at the end (a newer version) reads zeros, its defaults, in the fields
this package does not know.
"""
import ctypes
import ctypes.util
import os

try:
    from . import _config
except ImportError:  # running from the source tree
    _config = None


class Error(Exception):
    """A libssdsim call failed: `code` is the negative SSDSIM_E* code, `name` its symbolic name
    ("SSDSIM_ECONFIG"), and the message the library's one-line explanation."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.name = lib.ssdsim_errname(code).decode() if lib else str(code)


def _candidates():
    env = os.environ.get("SSDSIM_LIBRARY")
    if env:
        yield env
        return
    if _config is not None and getattr(_config, "LIBRARY", None):
        yield _config.LIBRARY
    found = ctypes.util.find_library("ssdsim")
    if found:
        yield found
    yield "libssdsim.so.1"


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("ssdsim: cannot load libssdsim (set SSDSIM_LIBRARY to its path): " +
                      "; ".join(errors))


lib = None
lib = _load()
# free() as the process resolves it (the library's malloc may be a sanitizer's, preloaded)
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None

c_u32, c_u64, c_int, c_double, c_char_p, c_void_p, c_size_t = (
    ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_double, ctypes.c_char_p,
    ctypes.c_void_p, ctypes.c_size_t)


class ErrorStruct(ctypes.Structure):
    """ssdsim_error: where a model or workload failed to load."""
    _fields_ = [("code", c_int), ("file", ctypes.c_char * 256), ("path", ctypes.c_char * 128),
                ("line", c_int), ("column", c_int), ("message", ctypes.c_char * 768)]


# Layout versions of the option structs mirrored here (SSDSIM_*_OPTS_VERSION): the library
# reads only the fields of the version a struct names, so these mirrors stay valid when later
# versions of the library append fields (doc/api.md, "Versioned structs").
STEADY_OPTS_VERSION = 1
RUN_OPTS_VERSION = 1


class SteadyOpts(ctypes.Structure):
    """ssdsim_steady_opts, layout version 1."""
    _fields_ = [("version", ctypes.c_uint), ("window", c_u32), ("max_excursion", c_double),
                ("max_slope_excursion", c_double)]


class RunOpts(ctypes.Structure):
    """ssdsim_run_opts, layout version 1 (zeros are the defaults; set version first)."""
    _fields_ = [("version", ctypes.c_uint), ("interval_ns", c_u64), ("interval_ios", c_u64),
                ("interval_bytes", c_u64), ("until_steady", c_int), ("steady_var", c_int),
                ("steady", SteadyOpts), ("max_rounds", c_u32)]

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.version = RUN_OPTS_VERSION
        self.steady.version = STEADY_OPTS_VERSION


TRACE_OPTS_VERSION = 2
REPLAY_OPTS_VERSION = 4


class TraceOpts(ctypes.Structure):
    """ssdsim_trace_opts (ssdsim/trace.h), layout version 2: how a trace file is read."""
    _fields_ = [("version", ctypes.c_uint), ("format", c_int),
                ("disksim_time_unit_ns", c_u64), ("disksim_read_is_zero", c_int),
                ("blkparse_issue", c_int), ("skip_bad_lines", c_int),
                ("devices", ctypes.POINTER(c_u32)), ("n_devices", c_size_t),
                ("flushes", ctypes.c_bool)]

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.version = TRACE_OPTS_VERSION


class ReplayOpts(ctypes.Structure):
    """ssdsim_replay_opts, layout version 4: how a request source is replayed."""
    _fields_ = [("version", ctypes.c_uint), ("iodepth", c_u32), ("time_scale", c_double),
                ("wrap", c_int), ("max_requests", c_u64), ("runtime_ns", c_u64),
                ("label", c_char_p), ("queue", c_u32), ("placement", c_u32),
                ("volume", c_u32)]

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.version = REPLAY_OPTS_VERSION


class Source(ctypes.Structure):
    """ssdsim_source: a request stream's `next` function and its state (filled by the
    library: ssdsim_trace_as_source)."""
    _fields_ = [("next", c_void_p), ("userdata", c_void_p)]


class TraceStats(ctypes.Structure):
    """ssdsim_trace_stats: what a trace reader has met (read with its size, so a library whose
    struct grew fills these fields only)."""
    _fields_ = [("requests", c_u64), ("bad_lines", c_u64), ("out_of_order", c_u64),
                ("other_devices", c_u64), ("last_time_ns", c_u64), ("time_unit_ns", c_u64),
                ("time_unit_assumed", c_int), ("at_end", c_int),
                ("gzip_trailing_bytes", c_u64), ("first_device", c_u32),
                ("merged_requests", c_u64), ("first_bad_line", c_u64),
                ("first_bad_why", ctypes.c_char * 256)]


def padded(struct):
    """A zeroed buffer of at least 4 KiB holding `struct` at its start (see the module note)."""
    size = max(4096, ctypes.sizeof(struct))
    buf = ctypes.create_string_buffer(size)
    ctypes.memmove(buf, ctypes.addressof(struct), ctypes.sizeof(struct))
    return buf


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


P = ctypes.POINTER
_proto("ssdsim_version", c_char_p)
_proto("ssdsim_strerror", c_char_p, c_int)
_proto("ssdsim_errname", c_char_p, c_int)
_proto("ssdsim_model_load_file", c_int, P(c_void_p), c_char_p, P(ErrorStruct))
_proto("ssdsim_model_load_string", c_int, P(c_void_p), c_char_p, c_char_p, P(ErrorStruct))
_proto("ssdsim_model_default", c_int, P(c_void_p), P(ErrorStruct))
_proto("ssdsim_model_copy", c_int, P(c_void_p), c_void_p)
_proto("ssdsim_model_set", c_int, c_void_p, c_char_p, c_char_p, P(ErrorStruct))
_proto("ssdsim_model_set_many", c_int, c_void_p, ctypes.c_size_t, P(c_char_p), P(c_char_p),
       P(ctypes.c_size_t), P(ErrorStruct))
_proto("ssdsim_model_to_json", c_void_p, c_void_p)
_proto("ssdsim_model_logical_bytes", c_u64, c_void_p)
_proto("ssdsim_model_free", None, c_void_p)
_proto("ssdsim_workload_load_file", c_int, P(c_void_p), c_char_p, P(ErrorStruct))
_proto("ssdsim_workload_load_string", c_int, P(c_void_p), c_char_p, c_char_p, P(ErrorStruct))
_proto("ssdsim_workload_set", c_int, c_void_p, c_char_p, c_char_p, P(ErrorStruct))
_proto("ssdsim_workload_free", None, c_void_p)
_proto("ssdsim_new", c_int, P(c_void_p), c_void_p, c_u64, P(ErrorStruct))
_proto("ssdsim_free", None, c_void_p)
_proto("ssdsim_errmsg", c_char_p, c_void_p)
_proto("ssdsim_precondition_seq", c_int, c_void_p)
_proto("ssdsim_secure_erase", c_int, c_void_p)
_proto("ssdsim_precondition_fast", c_int, c_void_p, c_void_p, c_void_p)
_proto("ssdsim_settle_adaptive", c_int, c_void_p, c_void_p, c_double, c_void_p)
_proto("ssdsim_fill_card_cache", c_int, c_void_p, c_void_p)
_proto("ssdsim_run", c_int, c_void_p, c_void_p, c_void_p)
_proto("ssdsim_idle", c_int, c_void_p, c_u64)
_proto("ssdsim_results_json", c_void_p, c_void_p)
_proto("ssdsim_now", c_u64, c_void_p)
_proto("ssdsim_theory_waf", c_int, c_char_p, c_u32, c_double, c_double, P(c_double))
_proto("ssdsim_point_seed", c_int, c_u64, P(c_char_p), c_size_t, P(c_u64))
# traces (ssdsim/trace.h) and their replay
_proto("ssdsim_trace_format_parse", c_int, c_char_p, P(c_int))
_proto("ssdsim_trace_format_name", c_char_p, c_int)
_proto("ssdsim_trace_open", c_int, P(c_void_p), c_char_p, c_void_p, P(ErrorStruct))
_proto("ssdsim_trace_get_format", c_int, c_void_p)
_proto("ssdsim_trace_get_stats_sized", None, c_void_p, P(TraceStats), c_size_t)
_proto("ssdsim_trace_device_requests", c_u64, c_void_p, c_u32)
_proto("ssdsim_trace_as_source", None, c_void_p, P(Source))
_proto("ssdsim_trace_close", None, c_void_p)
_proto("ssdsim_run_source", c_int, c_void_p, P(Source), c_void_p, c_void_p)
_proto("ssdsim_plugin_count", c_size_t, c_int)
_proto("ssdsim_plugin_describe", c_int, c_int, c_size_t, P(c_char_p), P(c_char_p), c_void_p)
# the view a GC policy reads (ssdsim/sys/gc.h)
for _n in ("ssdsim_view_pages_per_block", "ssdsim_view_n_planes",
           "ssdsim_view_blocks_per_plane", "ssdsim_view_min_erase_count",
           "ssdsim_view_max_erase_count"):
    _proto(_n, c_u32, c_void_p)
for _n in ("ssdsim_view_n_candidates", "ssdsim_view_fewest_valid", "ssdsim_view_oldest",
           "ssdsim_view_first_free"):
    _proto(_n, c_u32, c_void_p, c_u32)
for _n in ("ssdsim_view_newer", "ssdsim_view_valid", "ssdsim_view_erase_count",
           "ssdsim_view_next_free"):
    _proto(_n, c_u32, c_void_p, c_u32)
_proto("ssdsim_view_candidate", c_u32, c_void_p, c_u32, c_u32)
_proto("ssdsim_view_least_recent", c_u32, c_void_p, c_u32, c_u32)
for _n in ("ssdsim_view_closed_at", "ssdsim_view_modified_at"):
    _proto(_n, c_u64, c_void_p, c_u32)
_proto("ssdsim_view_clock", c_u64, c_void_p)
_proto("ssdsim_view_random", c_u64, c_void_p)


def take_string(ptr):
    """A malloc'd C string the library returned, as str; freed here."""
    if not ptr:
        raise MemoryError("ssdsim: out of memory")
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        _libc.free(ptr)


def check(rc, err=None, sim=None):
    """Raise Error for a non-zero return code, with the best message there is."""
    if rc == 0:
        return
    if err is not None and err.message:
        msg = err.message.decode(errors="replace")
    elif sim is not None and lib.ssdsim_errmsg(sim):
        msg = lib.ssdsim_errmsg(sim).decode(errors="replace")
    else:
        msg = lib.ssdsim_strerror(rc).decode()
    raise Error(rc, msg)


def enc(text):
    """A str or bytes as the NUL-terminated bytes C takes. An embedded NUL would end the C
    string there and silently drop the rest ('48\\x00garbage' would set 48): ValueError."""
    b = text.encode() if isinstance(text, str) else text
    if isinstance(b, (bytes, bytearray)) and b"\0" in b:
        raise ValueError(f"a string passed to the library holds a NUL byte: {text!r}")
    return b
