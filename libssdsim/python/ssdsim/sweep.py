"""Sweeps in the calling process: one model key over a list of values, each point on its own
copy of the model and its own simulation, the same workload and seed. Each point gives one row
of the figures a sweep is usually plotted from (IOPS, bandwidth, mean and tail latency, WAF);
the rows are a list of dicts, or a pandas DataFrame when pandas is installed and as_frame is not
False. Points run one after another: results do not depend on how many run at once.
"""
from .core import Model, Simulation, Workload


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
    """Run `workload` on `model` with model key `key` set to each of `values`."""
    base = model if isinstance(model, Model) else Model(model)
    wl = workload if isinstance(workload, Workload) else Workload(workload)
    rows = []
    for v in values:
        m = base.copy().set(key, v)
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
