"""Models, workloads and simulations: thin owners of the C objects.

A Model is a device (or system) model: loaded from a file, from JSON text or the built-in
default, changed with set(key, value) exactly as `ssdsim run --set` changes it, and copied as
the library copies it (ssdsim_model_copy). A Workload holds fio options (a dict, JSON text or a
fio job file). A Simulation is one device with its state: it runs workloads and replays block
traces one after another (wear and mapping carry over, statistics restart), and its results are
the library's results JSON as a dict (keys in doc/results.md), with the time series as a list of
dicts or, when pandas is installed, a DataFrame.
"""
import ctypes
import json
import math
import operator
import os

from . import _native as n
from ._native import Error


def _value_text(value):
    """A --set value as the loader reads it: JSON for numbers, booleans, lists and dicts; a
    string as it is (sizes and times such as "4KiB" or "50us" are strings)."""
    if isinstance(value, str):
        return value
    return json.dumps(value)


U32_MAX, U64_MAX = 2**32 - 1, 2**64 - 1
ERR_INVAL = -2  # SSDSIM_EINVAL
TIME_UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}
TRACE_BLKPARSE, TRACE_DISKSIM = 3, 4  # ssdsim_trace_format
CLOCK_LIMIT_NS = 2**62  # the simulated clock's limit (ssdsim_idle, ssdsim_run_until)


def whole(what, value, lo, hi):
    """`value` as an int in [lo, hi], or ValueError (TypeError for a non-number) naming `what`
    and the range: ctypes would otherwise wrap it silently into the C type (-1 becomes
    2**64 - 1). A float is taken when it is whole (1e9)."""
    try:
        i = operator.index(value)
    except TypeError:
        if not isinstance(value, float):
            raise TypeError(f"{what}: expected an integer in [{lo}, {hi}], got {value!r}") \
                from None
        if not value.is_integer():
            raise ValueError(f"{what}: expected an integer in [{lo}, {hi}], got {value!r}") \
                from None
        i = int(value)
    if not lo <= i <= hi:
        raise ValueError(f"{what}: expected an integer in [{lo}, {hi}], got {value!r}")
    return i


class _Handle:
    """A library object freed by `_free` (the name of its ssdsim_*_free): closed once and for
    all, after which every call raises ValueError."""

    _free = None

    def _live(self):
        """The library's handle, or ValueError once closed (a NULL handle would give the
        library's neutral answers, 0 or an out-of-memory error, that look like results)."""
        if not getattr(self, "_ptr", None):
            raise ValueError(f"ssdsim.{type(self).__name__} is closed")
        return self._ptr

    def close(self):
        """Free it now; later calls raise ValueError."""
        self.__del__()

    def __del__(self):
        if getattr(self, "_ptr", None):
            getattr(n.lib, self._free)(self._ptr)
            self._ptr = None


class Model(_Handle):
    """A device or system model."""

    _free = "ssdsim_model_free"

    def __init__(self, source=None, *, json_text=None, label="<python>", **keys):
        """Model(path) loads a model file; Model(json_text=...) a JSON string; Model() the
        built-in default (generic MLC). Keyword arguments with '__' for '.' are set afterwards:
        Model(ftl__op=0.28) sets ftl.op."""
        self._ptr = ctypes.c_void_p()
        err = n.ErrorStruct()
        if json_text is not None:
            if isinstance(json_text, dict):
                json_text = json.dumps(json_text)
            rc = n.lib.ssdsim_model_load_string(ctypes.byref(self._ptr), n.enc(json_text),
                                                n.enc(label), ctypes.byref(err))
        elif source is not None:
            rc = n.lib.ssdsim_model_load_file(ctypes.byref(self._ptr), n.enc(str(source)),
                                              ctypes.byref(err))
        else:
            rc = n.lib.ssdsim_model_default(ctypes.byref(self._ptr), ctypes.byref(err))
        n.check(rc, err)
        if keys:
            self.set_many({k.replace("__", "."): v for k, v in keys.items()})

    def set(self, key, value):
        """Set one key ("ftl.op", "geometry.blocks_per_plane", "buffer"...): the value as
        `--set key=value` takes it (None takes the key out). Returns the model, so that calls
        chain."""
        err = n.ErrorStruct()
        n.check(n.lib.ssdsim_model_set(self._live(), n.enc(key), n.enc(_value_text(value)),
                                       ctypes.byref(err)), err)
        return self

    def set_many(self, keys):
        """Set several keys at once ({"flash.cell": "slc", "flash.read_us": 25, ...}), the model
        validated once after all of them, so that keys that depend on each other can come in
        any order; None takes a key out of the model (it then has its default). Returns the
        model."""
        items = list(keys.items())
        ks = (ctypes.c_char_p * max(len(items), 1))(*[n.enc(k) for k, _ in items])
        vs = (ctypes.c_char_p * max(len(items), 1))(*[n.enc(_value_text(v)) for _, v in items])
        err = n.ErrorStruct()
        failed = ctypes.c_size_t(0)
        n.check(n.lib.ssdsim_model_set_many(self._live(), len(items), ks, vs,
                                            ctypes.byref(failed), ctypes.byref(err)), err)
        return self

    def to_json(self):
        """The canonical JSON of the model (every key, defaults filled in), as a dict."""
        return json.loads(n.take_string(n.lib.ssdsim_model_to_json(self._live())))

    def copy(self):
        """An independent copy (ssdsim_model_copy): the same keys and label, so that results
        name the model the copy came from; a system's member path and the directory it is read
        from when the copy is set are the original's."""
        c = Model.__new__(Model)
        c._ptr = ctypes.c_void_p()
        n.check(n.lib.ssdsim_model_copy(ctypes.byref(c._ptr), self._live()))
        return c

    @property
    def logical_bytes(self):
        return n.lib.ssdsim_model_logical_bytes(self._live())


class Workload(_Handle):
    """fio options: a dict ({"rw": "randwrite", "bs": "4k", ...}), JSON text, or a path to a
    fio job file or JSON workload file."""

    _free = "ssdsim_workload_free"

    def __init__(self, source=None, **options):
        self._ptr = ctypes.c_void_p()
        err = n.ErrorStruct()
        if source is None or isinstance(source, dict):
            opts = dict(source or {})
            opts.update(options)
            rc = n.lib.ssdsim_workload_load_string(ctypes.byref(self._ptr),
                                                   n.enc(json.dumps(opts)), b"<python>",
                                                   ctypes.byref(err))
        elif isinstance(source, str) and source.lstrip().startswith("{"):
            rc = n.lib.ssdsim_workload_load_string(ctypes.byref(self._ptr), n.enc(source),
                                                   b"<python>", ctypes.byref(err))
        else:
            rc = n.lib.ssdsim_workload_load_file(ctypes.byref(self._ptr), n.enc(str(source)),
                                                 ctypes.byref(err))
        n.check(rc, err)

    def set(self, key, value):
        err = n.ErrorStruct()
        n.check(n.lib.ssdsim_workload_set(self._live(), n.enc(key), n.enc(_value_text(value)),
                                          ctypes.byref(err)), err)
        return self


def _as_workload(w):
    return w if isinstance(w, Workload) else Workload(w)


class Results(dict):
    """The results JSON of a run as a dict, with shortcuts for what is read most."""

    @property
    def waf(self):
        return self["device"]["waf"]

    def iops(self, op="all"):
        return self["ops"][op]["iops"]

    def latency_ns(self, op="all", stat="mean"):
        return self["ops"][op]["lat_ns"][stat]

    @property
    def trace(self):
        """What the reader of a replayed trace met (Simulation.replay; the `trace` object of
        `ssdsim run --trace --json`), or None for a workload's run."""
        return self.get("trace")

    @property
    def timeseries(self):
        """The time series (one dict per interval; a pandas DataFrame if pandas is there)."""
        rows = self.get("timeseries") or []
        try:
            import pandas
        except ImportError:
            return rows
        return pandas.DataFrame(rows)


def _as_model(what, model):
    """A Model as it is, or one loaded from a path (str or os.PathLike); anything else is a
    TypeError naming `what`."""
    if isinstance(model, Model):
        return model
    if isinstance(model, (str, os.PathLike)):
        return Model(model)
    raise TypeError(f"{what}: model: expected a Model or a model file's path, got {model!r}")


class Simulation:
    """One simulated device (or system) with its state."""

    def __init__(self, model, seed=1):
        """Simulation(model, seed): `model` is a Model or a model file's path."""
        model = _as_model("Simulation", model)
        self.model = model  # kept alive: the simulation reads it
        self._ptr = ctypes.c_void_p()
        err = n.ErrorStruct()
        seed = whole("seed", seed, 0, U64_MAX)
        n.check(n.lib.ssdsim_new(ctypes.byref(self._ptr), model._live(), seed, ctypes.byref(err)),
                err)

    _depth = 0             # calls that run events now on the stack (_events)
    _close_pending = False  # __del__/close called from a callback of one of them

    def _live(self):
        """The library's handle, or ValueError once closed."""
        if not getattr(self, "_ptr", None) or self._close_pending:
            raise ValueError("ssdsim.Simulation is closed")
        return self._ptr

    def _events(self, fn, *args):
        """fn(handle, *args), a library call that runs events, checked. A close from one of
        its callbacks (a Python policy's select) would free the simulation under the call:
        it waits until the outermost such call returns."""
        ptr = self._live()
        self._depth += 1
        try:
            self._check(fn(ptr, *args))
        finally:
            self._depth -= 1
            if self._depth == 0 and self._close_pending:
                self._close_pending = False
                self.close()

    def _check(self, rc):
        from .policy import take_failure
        failure = take_failure()
        if rc and failure is not None:
            raise failure from Error(rc, n.lib.ssdsim_errmsg(self._ptr).decode())
        n.check(rc, sim=self._ptr)

    def precondition(self, kind="seq", workload=None, settle=True):
        """Put the device in a state before measuring: "seq" (write it full sequentially),
        "erase" (secure erase) or "fast" (the steady state `workload` would reach, installed
        from a scaled run; page FTL only; then, with `settle`, written on with timing until
        garbage collection holds its free blocks and a RAID card's write-back cache is filled,
        as `ssdsim run --precondition fast` does)."""
        if kind == "seq":
            self._events(n.lib.ssdsim_precondition_seq)
        elif kind == "erase":
            self._events(n.lib.ssdsim_secure_erase)
        elif kind == "fast":
            if workload is None:
                raise ValueError("precondition('fast') needs the workload")
            wl = _as_workload(workload)
            self._events(n.lib.ssdsim_precondition_fast, wl._live(), None)
            if settle:  # at most SSDSIM_SETTLE_DRIVE_WRITES, a tenth of a drive write
                self._events(n.lib.ssdsim_settle_adaptive, wl._live(), 0.1, None)
                self._events(n.lib.ssdsim_fill_card_cache, wl._live())
        else:
            raise ValueError(f"precondition: kind {kind!r} is not seq, erase or fast")
        return self

    def run(self, workload, *, interval_ns=0, interval_ios=0, interval_bytes=0,
            until_steady=False, max_rounds=0):
        """Run a workload to its end and return its Results. One interval kind gives a time
        series; until_steady stops at the first steady window by the SNIA rule. None raises
        TypeError (Workload() is the default workload, asked for by name)."""
        if workload is None:
            raise TypeError("Simulation.run: workload: expected a Workload, a dict of fio "
                            "options, JSON text or a job file's path, got None")
        wl = _as_workload(workload)
        o = n.RunOpts(interval_ns=whole("interval_ns", interval_ns, 0, U64_MAX),
                      interval_ios=whole("interval_ios", interval_ios, 0, U64_MAX),
                      interval_bytes=whole("interval_bytes", interval_bytes, 0, U64_MAX),
                      until_steady=int(bool(until_steady)),
                      max_rounds=whole("max_rounds", max_rounds, 0, U32_MAX))
        self._events(n.lib.ssdsim_run, wl._live(), n.padded(o))
        return self.results()

    def replay(self, path, *, format=None, time_unit=None, read_flag=None,
               blkparse_events=None, device=None, skip_bad_lines=False, wrap=False,
               time_scale=1.0, iodepth=None, max_requests=None, runtime_ns=0, queue=0,
               volume=0, placement=0, interval_ns=0, interval_ios=0, interval_bytes=0,
               until_steady=False, max_rounds=0):
        """Replay a block trace file on the drive, as `ssdsim run --trace` does, and return its
        Results, with Results.trace the reader's counts (requests read and replayed, out of
        order, wrapped, ...). The options are the command's (doc/traces.md): `format` a name
        ("spc", "msr", "blkparse", "disksim", "fio-iolog2", "fio-iolog3", "csv"; None probes
        the file), `time_unit` ("ns", "us", "ms" or "s") and `read_flag` (0 or 1) for DiskSim
        ASCII, `blkparse_events` ("queue" or "issue") for blkparse, `device` a device number
        or a list of them (None: every device, merged), `skip_bad_lines`; `wrap` (addresses
        beyond the drive wrap around), `time_scale` (open loop: 2 replays twice as fast,
        1e-6 to 1e6), `iodepth` (closed loop: that many outstanding, times ignored; 1 to
        65536), `max_requests`, `runtime_ns` (stop issuing after this much simulated time),
        `queue`, `volume` and `placement` (an NVMe queue pair, a JBOD's device, an FDP
        placement id); the run options are run()'s. A file that cannot be opened or read, a
        malformed line and a trace with nothing to replay raise ssdsim.Error with the
        library's one-line message, which names the file (and the line)."""
        path = os.fspath(path)
        if not isinstance(path, str):
            path = os.fsdecode(path)
        to = n.TraceOpts(flushes=True)  # flushes and FUA writes are replayed, as the command does
        if format is not None:
            fmt = ctypes.c_int()
            if not isinstance(format, str) or n.lib.ssdsim_trace_format_parse(
                    n.enc(format), ctypes.byref(fmt)):
                raise ValueError(f"replay: format: expected auto, msr, spc, blkparse, disksim, "
                                 f"fio-iolog2, fio-iolog3 or csv, got {format!r}")
            to.format = fmt.value
        if time_unit is not None:
            if time_unit not in TIME_UNITS:
                raise ValueError(f"replay: time_unit: expected ns, us, ms or s, got "
                                 f"{time_unit!r}")
            to.disksim_time_unit_ns = TIME_UNITS[time_unit]
        if read_flag is not None:
            if read_flag not in (0, 1) or isinstance(read_flag, bool):
                raise ValueError(f"replay: read_flag: expected 0 or 1, got {read_flag!r}")
            to.disksim_read_is_zero = int(read_flag == 0)
        if blkparse_events is not None:
            if blkparse_events not in ("queue", "issue"):
                raise ValueError(f"replay: blkparse_events: expected queue or issue, got "
                                 f"{blkparse_events!r}")
            to.blkparse_issue = int(blkparse_events == "issue")
        to.skip_bad_lines = int(bool(skip_bad_lines))
        if device is None:
            devices = []
        elif isinstance(device, (list, tuple)):
            devices = [whole("replay: device", d, 0, U32_MAX) for d in device]
        else:
            devices = [whole("replay: device", device, 0, U32_MAX)]
        dev_array = (ctypes.c_uint32 * max(len(devices), 1))(*devices)
        if devices:
            to.devices = dev_array
            to.n_devices = len(devices)
        ro = n.ReplayOpts(wrap=int(bool(wrap)),
                          max_requests=whole("replay: max_requests", max_requests, 1, U64_MAX)
                          if max_requests is not None else 0,
                          runtime_ns=whole("replay: runtime_ns", runtime_ns, 0, U64_MAX),
                          queue=whole("replay: queue", queue, 0, U32_MAX),
                          volume=whole("replay: volume", volume, 0, U32_MAX),
                          placement=whole("replay: placement", placement, 0, U32_MAX))
        if iodepth is not None:
            ro.iodepth = whole("replay: iodepth", iodepth, 1, 65536)
        try:
            scale = float(time_scale)
        except (TypeError, ValueError):
            raise TypeError(f"replay: time_scale: expected a number in [1e-06, 1e6], got "
                            f"{time_scale!r}") from None
        if not 1e-6 <= scale <= 1e6:  # the command's range; False for NaN
            raise ValueError(f"replay: time_scale: expected a number in [1e-06, 1e6], got "
                             f"{time_scale!r}")
        if iodepth is not None and scale != 1:
            raise ValueError("replay: time_scale applies to open-loop replay; iodepth (closed "
                             "loop) ignores the trace's times")
        ro.time_scale = scale
        label = n.enc(path)
        ro.label = label
        o = n.RunOpts(interval_ns=whole("interval_ns", interval_ns, 0, U64_MAX),
                      interval_ios=whole("interval_ios", interval_ios, 0, U64_MAX),
                      interval_bytes=whole("interval_bytes", interval_bytes, 0, U64_MAX),
                      until_steady=int(bool(until_steady)),
                      max_rounds=whole("max_rounds", max_rounds, 0, U32_MAX))

        t = ctypes.c_void_p()
        err = n.ErrorStruct()
        n.check(n.lib.ssdsim_trace_open(ctypes.byref(t), label, n.padded(to),
                                        ctypes.byref(err)), err)
        try:
            kind = n.lib.ssdsim_trace_get_format(t)
            for opt, given, fits, name in (("time_unit", time_unit, TRACE_DISKSIM,
                                            "DiskSim ASCII"),
                                           ("read_flag", read_flag, TRACE_DISKSIM,
                                            "DiskSim ASCII"),
                                           ("blkparse_events", blkparse_events, TRACE_BLKPARSE,
                                            "blkparse")):
                if given is not None and kind != fits:
                    raise ValueError(f"replay: {opt} applies to {name} traces only; {path} is "
                                     f"{n.lib.ssdsim_trace_format_name(kind).decode()}")
            src = n.Source()
            n.lib.ssdsim_trace_as_source(t, ctypes.byref(src))
            self._events(n.lib.ssdsim_run_source, ctypes.byref(src), n.padded(ro),
                         n.padded(o))
            st = n.TraceStats()
            n.lib.ssdsim_trace_get_stats_sized(t, ctypes.byref(st), ctypes.sizeof(st))
            absent = [d for d in devices if n.lib.ssdsim_trace_device_requests(t, d) == 0]
        finally:
            n.lib.ssdsim_trace_close(t)
        res = self.results()
        job = (res.get("jobs") or [{}])[0].get("replay", {})
        trace = {
            "file": path,
            "format": n.lib.ssdsim_trace_format_name(kind).decode(),
            "time_unit_ns": st.time_unit_ns,
            "time_unit_assumed": bool(st.time_unit_assumed),
            "requests_read": st.requests,
            "requests_replayed": res["ops"]["all"]["count"],
            "bad_lines": st.bad_lines,
            "out_of_order": st.out_of_order,
            "other_devices": st.other_devices,
            "merged_requests": st.merged_requests,
            "span_ns": st.last_time_ns,
            "devices_absent": absent,
            "gzip_trailing_bytes": st.gzip_trailing_bytes,
            "wrapped_requests": job.get("wrapped_requests", 0),
        }
        if st.bad_lines:
            trace["first_bad_line"] = st.first_bad_line
            trace["first_bad_why"] = st.first_bad_why.decode(errors="replace")
        if st.requests == 0:
            why = (f"device {', '.join(map(str, absent))} not in the trace "
                   f"({st.other_devices} requests of other devices skipped)"
                   if absent and st.other_devices else
                   "the trace has no read, write or trim request")
            if st.bad_lines:
                why += f"; {st.bad_lines} malformed lines skipped (skip_bad_lines)"
            raise Error(ERR_INVAL, f"{path}: no request to replay: {why}")
        return Results(trace=trace, **res)

    def idle(self, seconds):
        """Let the device sit idle (background GC may run) for simulated seconds, at least 0 and
        at most the clock's limit, 2**62 ns (about 146 years) from time 0."""
        limit = CLOCK_LIMIT_NS / 1e9
        try:
            ns = seconds * 1e9
            ok = 0 <= ns <= CLOCK_LIMIT_NS  # False for NaN
        except TypeError:
            raise TypeError(f"idle: seconds: expected a number in [0, {limit!r}], "
                            f"got {seconds!r}") from None
        if not ok:
            raise ValueError(f"idle: seconds: expected a number in [0, {limit!r}] (the clock's "
                             f"limit, 2**62 ns), got {seconds!r}")
        self._events(n.lib.ssdsim_idle, int(ns))

    def results(self):
        """The results of the last run (doc/results.md)."""
        return Results(json.loads(n.take_string(n.lib.ssdsim_results_json(self._live()))))

    @property
    def now_ns(self):
        return n.lib.ssdsim_now(self._live())

    def close(self):
        """Free the simulation; later calls raise ValueError. Called from a callback of a
        run (a Python policy's select), it takes effect when the run returns."""
        if self._depth:
            self._close_pending = True
            return
        if getattr(self, "_ptr", None):
            n.lib.ssdsim_free(self._ptr)
            self._ptr = None

    def __del__(self):
        self.close()


def run(model, workload, *, seed=1, precondition=None, **run_options):
    """One workload on a fresh copy of `model` (a Model or a path): its Results."""
    sim = Simulation(_as_model("run", model), seed)
    if precondition:
        sim.precondition(precondition, workload)
    return sim.run(workload, **run_options)


def replay(model, path, *, seed=1, precondition=None, **replay_options):
    """One trace replayed on a fresh simulation of `model` (a Model or a path), after the
    preconditioning "seq" or "erase" if given: its Results (Simulation.replay)."""
    sim = Simulation(_as_model("replay", model), seed)
    if precondition:
        sim.precondition(precondition)
    return sim.replay(path, **replay_options)


THEORY_MAX_PAGES_PER_BLOCK = 1 << 20  # the analytic models' largest block


def theory_waf(policy, spare_factor, pages_per_block=64, param=0.0):
    """Analytic steady-state WAF of a GC policy under uniform random writes: `spare_factor` in
    (0, 1), `pages_per_block` in [2, 2**20], `param` d >= 1 for "d-choices" and the window as a
    fraction of all blocks, in [0, 1], for "windowed". A bad argument raises ValueError naming
    it and its range."""
    what = f"theory_waf({policy!r}, ...)"
    if not isinstance(policy, str):
        raise TypeError(f"{what}: policy: expected a name (greedy, fifo, random, d-choices, "
                        f"windowed)")
    b = whole(f"{what}: pages_per_block", pages_per_block, 2, THEORY_MAX_PAGES_PER_BLOCK)
    try:
        sf, p = float(spare_factor), float(param)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: spare_factor and param must be numbers, got "
                        f"{spare_factor!r} and {param!r}") from None
    if not 0 < sf < 1:
        raise ValueError(f"{what}: spare_factor: expected a number in (0, 1), got "
                         f"{spare_factor!r}")
    if policy == "d-choices" and not (p >= 1 and math.isfinite(p)):
        raise ValueError(f"{what}: param (d): expected a number >= 1, got {param!r}")
    if policy == "windowed" and not 0 <= p <= 1:
        raise ValueError(f"{what}: param (the window as a fraction of all blocks): expected a "
                         f"number in [0, 1], got {param!r}")
    out = ctypes.c_double()
    rc = n.lib.ssdsim_theory_waf(n.enc(policy), b, sf, p, ctypes.byref(out))
    if rc and n.lib.ssdsim_errname(rc) == b"SSDSIM_ENOTFOUND":
        raise Error(rc, f"{what}: no analytic model of GC policy {policy!r} (greedy, fifo, "
                        f"random, d-choices, windowed)")
    if rc:
        raise Error(rc, f"{what}: {n.lib.ssdsim_strerror(rc).decode()}")
    return out.value


def version():
    return n.lib.ssdsim_version().decode()
