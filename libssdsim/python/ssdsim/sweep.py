"""Sweeps in the calling process: one model key over a list of values, each point on its own
copy of the model and its own simulation, the same workload. Each point runs with the seed
`ssdsim sweep` gives it: derived from the base seed and the point's parameter by the library
(ssdsim_point_seed; doc/guide.md, "Seeds of the points"), so that a point gives the figures of
the command's point with the same values, and can be rerun alone (`ssdsim run --seed SEED`, or
ssdsim.run(..., seed=SEED)). Each point gives one row of the figures a sweep is usually plotted
from (IOPS, bandwidth, mean and tail latency, WAF) and its seed; the rows are a list of dicts,
or a pandas DataFrame when pandas is installed and as_frame is not False. Points run one after
another: results do not depend on how many run at once.
"""
import ctypes

from . import _native as n
from ._native import Error
from .core import Simulation, Workload, _as_model, _value_text, whole

# `ssdsim sweep --seed` is below 2^53, as are the seeds it derives, so that JSON readers that
# hold numbers as doubles read them exactly
SEED_LIMIT = 2**53


def point_seed(seed, params):
    """The seed `ssdsim sweep --seed SEED` gives the point whose parameters are `params`, a dict
    {key: value} ({"ftl.op": 0.28}), computed by the library (ssdsim_point_seed). A value is
    taken as the text the model gets: a str as it is, anything else as JSON (0.1 is "0.1",
    100.0 is "100.0"); the command hashes the value as written on its command line, so the
    seeds agree when the texts do."""
    base = whole("point_seed: seed", seed, 0, SEED_LIMIT - 1)
    kvs = [n.enc(f"{k}={_value_text(v)}") for k, v in params.items()]
    arr = (ctypes.c_char_p * max(len(kvs), 1))(*kvs)
    out = ctypes.c_uint64()
    n.check(n.lib.ssdsim_point_seed(base, arr, len(kvs), ctypes.byref(out)))
    return out.value


def point_row(key, value, seed, res):
    """The row of one sweep point from its seed and Results."""
    ops = res["ops"]["all"]
    dev = res["device"]
    return {
        key: value,
        "seed": seed,
        "iops": ops["iops"],
        "bw_bytes": ops["bw_bytes"],
        "lat_mean_us": ops["lat_ns"]["mean"] / 1e3,
        "lat_p99_us": ops["lat_ns"]["p99"] / 1e3,
        "lat_max_us": ops["lat_ns"]["max"] / 1e3,
        "waf": dev.get("waf"),
        "sim_time_s": res["sim_time_ns"] / 1e9,
    }


def sweep(model, workload, key, values, *, seed=1, precondition=None, as_frame=None,
          **run_options):
    """Run `workload` on `model` with model key `key` set to each of `values`. `seed` is the
    base seed (an integer below 2**53, as `ssdsim sweep --seed` takes): each point runs with
    point_seed(seed, {key: value}), the seed `ssdsim sweep` gives it, which its row holds under
    "seed". Every point's model is made (its key set on its own copy) before any point runs, as
    `ssdsim sweep` checks its grid first: a value the model refuses raises ssdsim.Error naming
    the point and nothing has run."""
    base = _as_model("sweep", model)
    wl = workload if isinstance(workload, Workload) else Workload(workload)
    seed = whole("sweep: seed", seed, 0, SEED_LIMIT - 1)
    values = list(values)
    models = []
    for i, v in enumerate(values):
        try:
            models.append(base.copy().set(key, v))
        except Error as e:
            raise Error(e.code, f"sweep: point {i} ({key}={v!r}): {e}") from None
    seeds = [point_seed(seed, {key: v}) for v in values]
    rows = []
    for v, s, m in zip(values, seeds, models):
        sim = Simulation(m, s)
        if precondition:
            sim.precondition(precondition, wl)
        rows.append(point_row(key, v, s, sim.run(wl, **run_options)))
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return rows
    return pandas.DataFrame(rows)
