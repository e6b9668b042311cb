"""ssdsim: the NAND-flash SSD simulator libssdsim, from Python.

    import ssdsim
    m = ssdsim.Model("models/generic-tlc.json").set("ftl.op", 0.28)
    sim = ssdsim.Simulation(m, seed=1)
    res = sim.run({"rw": "randwrite", "bs": "4k", "iodepth": 32, "number_ios": 100000},
                  interval_ios=10000)
    print(res.iops("write"), res.waf)
    res.timeseries  # a list of dicts, or a DataFrame with pandas

The package is a ctypes layer over the C library: the same models, workloads, results and
determinism as the `ssdsim` command. doc/python.md walks through it.
"""
from ._native import Error
from .core import Model, Results, Simulation, Workload, replay, run, theory_waf, version
from .policy import NO_BLOCK, View, register_gc_policy
from .sweep import point_seed, sweep

__all__ = ["Error", "Model", "Results", "Simulation", "Workload", "replay", "run", "theory_waf",
           "version", "NO_BLOCK", "View", "register_gc_policy", "point_seed", "sweep"]
