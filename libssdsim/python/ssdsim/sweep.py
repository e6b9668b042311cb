"""Sweeps in the calling process: one model key over a list of values, each point on its own
copy of the model and its own simulation, the same workload and seed. Each point gives one row
of the figures a sweep is usually plotted from (IOPS, bandwidth, mean and tail latency, WAF);
the rows are a list of dicts, or a pandas DataFrame when pandas is installed and as_frame is not
False. Points run one after another: results do not depend on how many run at once.
"""
from ._native import Error
from .core import Simulation, Workload, _as_model


def point_row(key, value, res):
    """The row of one sweep point from its Results."""
    ops = res["ops"]["all"]
    dev = res["device"]
    return {
        key: value,
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
    """Run `workload` on `model` with model key `key` set to each of `values`. Every point's
    model is made (its key set on its own copy) before any point runs, as `ssdsim sweep` checks
    its grid first: a value the model refuses raises ssdsim.Error naming the point and nothing
    has run."""
    base = _as_model("sweep", model)
    wl = workload if isinstance(workload, Workload) else Workload(workload)
    values = list(values)
    models = []
    for i, v in enumerate(values):
        try:
            models.append(base.copy().set(key, v))
        except Error as e:
            raise Error(e.code, f"sweep: point {i} ({key}={v!r}): {e}") from None
    rows = []
    for v, m in zip(values, models):
        sim = Simulation(m, seed)
        if precondition:
            sim.precondition(precondition, wl)
        rows.append(point_row(key, v, sim.run(wl, **run_options)))
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return rows
    return pandas.DataFrame(rows)
