"""Unit tests of the Python package against figures derived independently of it: the command's
own results for the same model, workload and seed; write amplification that hand arithmetic or
the analytic model gives; a GC policy written in Python against the same policy in C; the
conservation of the time series; errors as the library states them."""
import json
import os
import re
import subprocess
import tempfile
import unittest

import ssdsim

MODELS = os.environ.get("SSDSIM_MODELS", os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "models"))
TRACES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "traces"))


def small(**keys):
    """generic-mlc shrunk to 2 channels and 32 blocks per plane (256 MiB raw, op 0.28)."""
    m = ssdsim.Model(os.path.join(MODELS, "generic-mlc.json"))
    m.set("geometry.channels", 2)
    m.set("geometry.blocks_per_plane", 32)
    return m.set_many({k.replace("__", "."): v for k, v in keys.items()})


def one_plane(op):
    """One plane of 512 blocks x 64 pages: the analytic models' single pool."""
    return small(geometry__channels=1, geometry__chips_per_channel=1, geometry__dies_per_chip=1,
                 geometry__planes_per_die=1, geometry__blocks_per_plane=512,
                 geometry__pages_per_block=64, ftl__op=op)


# uniform random 4 KiB writes (norandommap: fio's random map would write every block once per
# pass), 2.3 times the small model's 51200 logical pages: GC is running by the end
RANDW = {"rw": "randwrite", "bs": "4k", "iodepth": 16, "numjobs": 2, "number_ios": 60000,
         "norandommap": True}


class ModelTest(unittest.TestCase):
    def test_set_and_copy(self):
        m = small()
        m.set("ftl.op", 0.5)
        c = m.copy()
        self.assertEqual(c.to_json(), m.to_json())
        c.set("ftl.op", 0.2)
        self.assertEqual(m.to_json()["ftl"]["op"], 0.5)
        self.assertEqual(c.to_json()["ftl"]["op"], 0.2)
        # logical capacity: physical / (1 + op), whole pages (hand arithmetic)
        g = m.to_json()["geometry"]
        pages = (g["channels"] * g["chips_per_channel"] * g["dies_per_chip"] *
                 g["planes_per_die"] * g["blocks_per_plane"] * g["pages_per_block"])
        self.assertLessEqual(abs(m.logical_bytes / 4096 - pages / 1.5), 1.0)

    def test_copy_is_bit_exact(self):
        """The model's JSON holds each number in enough digits to read back as the same double
        (0.1 + 0.2 printed as 0.3), and 0.3 still prints as 0.3."""
        for op, text in ((0.1 + 0.2, "0.30000000000000004"), (0.3, "0.3"), (1 / 3, None)):
            m = small().set("ftl.op", op)
            self.assertEqual(m.copy().to_json()["ftl"]["op"], op)
            if text:
                self.assertIn(f'"op":\t{text},', ssdsim.core.n.take_string(
                    ssdsim.core.n.lib.ssdsim_model_to_json(m._ptr)))

    def test_copy_is_the_library_copy(self):
        """copy() is ssdsim_model_copy: results of a copy name the model it came from (before,
        "<copy>", from a copy made through the JSON text), and a system model loaded by a
        relative path copies and sets after a chdir, its member still shown by that path
        (before, the copy read the member again by a path relative to the new directory)."""
        m = small()
        r = ssdsim.run(m.copy(), {"rw": "randread", "bs": "4k", "number_ios": 500})
        self.assertEqual(r["model"], os.path.join(MODELS, "generic-mlc.json"))
        was = os.getcwd()
        rel = os.path.relpath(os.path.join(MODELS, "p320h-x4-raid0.json"))
        sysm = ssdsim.Model(rel)
        member = sysm.to_json()["system"]["member"]
        self.assertEqual(member, os.path.join(os.path.dirname(rel), "p320h-350.json"))
        with tempfile.TemporaryDirectory() as d:
            try:
                os.chdir(d)
                c = sysm.copy().set_many({"system.count": 2, "system.controllers": 2})
                sysm.set("system.stripe", "256KiB")
            finally:
                os.chdir(was)
        self.assertEqual(c.to_json()["system"]["member"], member)
        self.assertEqual(c.to_json()["system"]["count"], 2)
        self.assertEqual(sysm.to_json()["system"]["member"], member)

    def test_set_many_in_any_order(self):
        """Keys that depend on each other go in together: one at a time the cell type is refused
        while read_us still holds two values; together, in either order, it is taken. None takes
        a key out: background GC's watermark goes with its idle time."""
        with self.assertRaises(ssdsim.Error) as cm:
            small().set("flash.cell", "slc")
        self.assertIn("flash.read_us", str(cm.exception))
        a = small().set_many({"flash.cell": "slc", "flash.read_us": 25, "flash.program_us": 250})
        b = small().set_many({"flash.program_us": 250, "flash.read_us": 25, "flash.cell": "slc"})
        self.assertEqual(a.to_json(), b.to_json())
        self.assertEqual(a.to_json()["flash"]["cell"], "slc")
        # the watermark first; 0.15 of 32 blocks (5) is what the 7 spare blocks per plane hold
        # besides 2 open ones (0.2 is refused when the model is set)
        m = small(gc__bg_high_watermark=0.15, gc__bg_idle_us=100)
        self.assertEqual(m.to_json()["gc"]["bg_high_watermark"], 0.15)
        m.set_many({"gc.bg_idle_us": 0, "gc.bg_high_watermark": None})
        self.assertEqual(m.to_json()["gc"]["bg_idle_us"], 0)
        self.assertNotIn("bg_high_watermark", m.to_json()["gc"])

    def test_bad_key_is_an_error_naming_it(self):
        with self.assertRaises(ssdsim.Error) as cm:
            small().set("geometry.nope", 3)
        self.assertIn("geometry.nope", str(cm.exception))
        self.assertTrue(cm.exception.name.startswith("SSDSIM_E"))
        self.assertLess(cm.exception.code, 0)

    def test_missing_file(self):
        with self.assertRaises(ssdsim.Error) as cm:
            ssdsim.Model("/nonexistent/model.json")
        self.assertIn("/nonexistent/model.json", str(cm.exception))

    def test_bad_workload_option(self):
        with self.assertRaises(ssdsim.Error) as cm:
            ssdsim.Workload({"rw": "randwrite", "bogus_option": 1})
        self.assertIn("bogus_option", str(cm.exception))


class RunTest(unittest.TestCase):
    def test_same_as_the_command(self):
        """The package and `ssdsim run` give the same results for one model, workload, seed."""
        binary = os.environ.get("SSDSIM_BIN")
        if not binary:
            self.skipTest("SSDSIM_BIN not set")
        m = small()
        r = ssdsim.run(m, RANDW, seed=5)
        with tempfile.TemporaryDirectory() as d:
            mp, wp, rp = (os.path.join(d, x) for x in ("m.json", "w.json", "r.json"))
            with open(mp, "w") as f:
                json.dump(m.to_json(), f)
            with open(wp, "w") as f:
                json.dump(RANDW, f)
            subprocess.run([binary, "run", "--model", mp, "--workload", wp, "--seed", "5",
                            "--json", rp, "--quiet"], check=True)
            with open(rp) as f:
                c = json.load(f)
        self.assertEqual(r["ops"], c["ops"])
        self.assertEqual(r["device"], c["device"])
        self.assertEqual(r["sim_time_ns"], c["sim_time_ns"])

    def test_determinism(self):
        a = ssdsim.run(small(), RANDW, seed=1)
        b = ssdsim.run(small(), RANDW, seed=1)
        c = ssdsim.run(small(), RANDW, seed=2)
        self.assertEqual(a, b)
        self.assertNotEqual(a["ops"], c["ops"])

    def test_sequential_overwrite_waf_is_one(self):
        """Whole blocks overwritten in order leave nothing valid to copy: WAF exactly 1."""
        sim = ssdsim.Simulation(small(), seed=1)
        sim.precondition("seq")
        r = sim.run({"rw": "write", "bs": "128k", "iodepth": 4, "loops": 2})
        self.assertEqual(r["device"]["gc_pages_copied"], 0)
        self.assertEqual(r.waf, 1.0)

    def test_time_series_adds_up(self):
        r = ssdsim.run(small(), RANDW, interval_ios=5000)
        rows = r.timeseries
        rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
        self.assertEqual(len(rows), 120000 // 5000)
        self.assertEqual(sum(x["n_ios"] for x in rows), 120000)
        # counters are cumulative: the last row's are the run's
        self.assertEqual(rows[-1]["host_pages_written"], r["device"]["host_pages_written"])
        self.assertEqual(rows[-1]["host_pages_written"], 120000)

    def test_out_of_range_numbers_are_refused_not_wrapped(self):
        """ctypes would wrap -1 to 2**64 - 1 (an idle of 2**64 - 10**6 ns) and 1e30 s to 0 ns:
        each is refused before the call, naming the argument and its range."""
        m = small()
        for seed in (-1, 2**64, 1.5):
            with self.assertRaisesRegex(ValueError, r"^seed: expected an integer in \[0, "
                                                    r"18446744073709551615\]"):
                ssdsim.Simulation(m, seed=seed)
        sim = ssdsim.Simulation(m, seed=2**64 - 1)  # the whole range is taken
        w = dict(RANDW, number_ios=2000)
        for key, value, hi in (("interval_ns", -1, 2**64 - 1), ("interval_ios", 2**64, 2**64 - 1),
                               ("interval_bytes", 4096.5, 2**64 - 1), ("max_rounds", -1, 2**32 - 1),
                               ("max_rounds", 2**32, 2**32 - 1)):
            with self.assertRaisesRegex(ValueError, rf"^{key}: expected an integer in \[0, {hi}\], "
                                                    rf"got {value!r}"):
                sim.run(w, **dict({"interval_ios": 1000}, **{key: value}))
        for seconds in (-0.001, -1e-12, 1e30, float("nan")):
            with self.assertRaisesRegex(ValueError, r"^idle: seconds: expected a number in \[0, "):
                sim.idle(seconds)
        self.assertEqual(sim.now_ns, 0)
        sim.idle(0.001)
        self.assertEqual(sim.now_ns, 10**6)
        self.assertGreater(len(sim.run(w, interval_ns=1e6).timeseries), 0)

    def test_theory_waf_names_the_bad_argument(self):
        bad = ((("greedy", 2.0), r"spare_factor: expected a number in \(0, 1\), got 2.0"),
               (("greedy", 0.2, -1), r"pages_per_block: expected an integer in \[2, 1048576\]"),
               (("d-choices", 0.2, 64, 0.5), r"param \(d\): expected a number >= 1, got 0.5"),
               (("windowed", 0.2, 64, 2), r"param \(the window.*\): expected a number in \[0, 1\]"))
        for args, says in bad:
            with self.assertRaisesRegex(ValueError, r"^theory_waf\('[a-z-]+', \.\.\.\): " + says):
                ssdsim.theory_waf(*args)
        with self.assertRaisesRegex(ssdsim.Error, "no analytic model of GC policy 'nosuch'"):
            ssdsim.theory_waf("nosuch", 0.2)
        self.assertGreater(ssdsim.theory_waf("d-choices", 0.2, 64, 10), 1)

    def test_greedy_waf_near_theory(self):
        """Uniform random writes, steady state, one pool: greedy's analytic WAF within 5%."""
        op = 0.25
        m = one_plane(op)
        sim = ssdsim.Simulation(m, seed=3)
        sim.precondition("seq")
        units = m.logical_bytes // 4096
        w = {"rw": "randwrite", "bs": "4k", "iodepth": 8, "norandommap": True}
        sim.run(dict(w, number_ios=3 * units))
        r = sim.run(dict(w, number_ios=2 * units))
        d = r["device"]
        want = ssdsim.theory_waf("greedy", d["spare_factor"], 64)
        self.assertLess(abs(r.waf / want - 1), 0.05, f"WAF {r.waf} against {want}")

    def test_fast_precondition_is_steady(self):
        """Fast preconditioning (settled) leaves uniform random writes at steady state: the
        next drive write's WAF is greedy's analytic one within 5%."""
        op = 0.25
        m = one_plane(op)
        sim = ssdsim.Simulation(m, seed=3)
        w = {"rw": "randwrite", "bs": "4k", "iodepth": 8, "norandommap": True}
        sim.precondition("fast", w)
        units = m.logical_bytes // 4096
        r = sim.run(dict(w, number_ios=units))
        want = ssdsim.theory_waf("greedy", r["device"]["spare_factor"], 64)
        self.assertLess(abs(r.waf / want - 1), 0.05, f"WAF {r.waf} against {want}")


def py_greedy(view, plane):
    return view.fewest_valid(plane)


def py_failing(view, plane):
    raise RuntimeError("policy bug")


ssdsim.register_gc_policy("py-greedy", py_greedy, "greedy, in Python")
ssdsim.register_gc_policy("py-failing", py_failing)


class PolicyTest(unittest.TestCase):
    def test_python_greedy_equals_c_greedy(self):
        w = dict(RANDW, number_ios=100000)
        a = ssdsim.run(small(gc__policy="py-greedy"), w, seed=4)
        b = ssdsim.run(small(gc__policy="greedy"), w, seed=4)
        self.assertGreater(b["device"]["gc_pages_copied"], 0)
        self.assertEqual(a["ops"], b["ops"])
        self.assertEqual(a["device"]["gc_pages_copied"], b["device"]["gc_pages_copied"])
        self.assertEqual(a.waf, b.waf)

    def test_policy_exception_reaches_the_caller(self):
        w = dict(RANDW, number_ios=100000)
        with self.assertRaises(RuntimeError) as cm:
            ssdsim.run(small(gc__policy="py-failing"), w)
        self.assertEqual(str(cm.exception), "policy bug")
        self.assertIsInstance(cm.exception.__cause__, ssdsim.Error)

    def test_bad_block_numbers_surface_naming_the_policy(self):
        """A policy's answer is never truncated into another block: a negative number (which
        would become NO_BLOCK), one past 32 bits (2**40 + b would run as b), a float or a string
        raise an exception naming the policy and the value, chained to the library's error."""
        w = dict(RANDW, number_ios=100000)
        cases = (("py-neg", lambda b: -1, ValueError, "returned -1: expected a block number"),
                 ("py-huge", lambda b: 2**40 + b, ValueError, r"returned 10995116\d+: expected"),
                 ("py-float", lambda b: b + 0.0, TypeError, r"returned \d+\.0 \(float\)"),
                 ("py-text", lambda b: str(b), TypeError, r"returned '\d+' \(str\)"),
                 # True is an int to Python, and ran as block 1
                 ("py-bool", lambda b: True, TypeError, r"returned True \(bool\)"))
        for name, answer, kind, says in cases:
            ssdsim.register_gc_policy(name, lambda v, p, f=answer: f(v.fewest_valid(p)))
            with self.assertRaisesRegex(kind, f"^GC policy '{name}' {says}"):
                ssdsim.run(small(gc__policy=name), w)

    def test_view_kept_after_the_call_raises(self):
        """A View kept past select() would read the library's view after it is gone (before, the
        interpreter crashed): every method raises RuntimeError instead; during the call it
        reads as usual."""
        kept = []

        def keeper(view, plane):
            kept.append(view)
            return view.fewest_valid(plane)

        ssdsim.register_gc_policy("py-keeper", keeper)
        r = ssdsim.run(small(gc__policy="py-keeper"), dict(RANDW, number_ios=100000), seed=4)
        self.assertGreater(r["device"]["gc_pages_copied"], 0)
        v = kept[-1]
        calls = (("pages_per_block",), ("n_planes",), ("blocks_per_plane",),
                 ("n_candidates", 0), ("candidate", 0, 0), ("candidates", 0),
                 ("fewest_valid", 0), ("least_recent", 0, 1), ("oldest", 0), ("newer", 0),
                 ("valid", 0), ("closed_at", 0), ("modified_at", 0), ("clock",),
                 ("erase_count", 0), ("random",))
        for name, *args in calls:
            with self.assertRaisesRegex(RuntimeError, r"View used outside the select\(\) call"):
                getattr(v, name)(*args)

    def test_view_arguments_out_of_range_are_refused_not_wrapped(self):
        """ctypes would wrap 2**32 + 3 to block 3 and -1 to plane 2**32 - 1: each raises
        ValueError naming the method and argument; a non-number TypeError; within 32 bits a
        block the device does not have reads as the C function answers it."""
        seen = {}

        def probe(view, plane):
            if not seen:
                for call in (lambda: view.valid(2**32 + 3), lambda: view.n_candidates(-1),
                             lambda: view.candidate(plane, 2**32), lambda: view.newer(-5),
                             lambda: view.least_recent(plane, 2**40),
                             lambda: view.erase_count(2**64), lambda: view.fewest_valid("0"),
                             lambda: view.modified_at(1.5)):
                    try:
                        call()
                        seen.setdefault("answers", []).append("no exception")
                    except (ValueError, TypeError) as e:
                        seen.setdefault("answers", []).append(f"{type(e).__name__}: {e}")
                seen["in range"] = (view.valid(2**32 - 1), view.n_candidates(2**32 - 1),
                                    view.candidate(plane, 2**32 - 1), view.valid(3.0))
                seen["block 3"] = view.valid(3)
            return view.fewest_valid(plane)

        ssdsim.register_gc_policy("py-probe-range", probe)
        ssdsim.run(small(gc__policy="py-probe-range"), dict(RANDW, number_ios=100000))
        self.assertEqual(seen["answers"], [
            "ValueError: View.valid: block: expected an integer in [0, 4294967295], "
            "got 4294967299",
            "ValueError: View.n_candidates: plane: expected an integer in [0, 4294967295], "
            "got -1",
            "ValueError: View.candidate: i: expected an integer in [0, 4294967295], "
            "got 4294967296",
            "ValueError: View.newer: block: expected an integer in [0, 4294967295], got -5",
            "ValueError: View.least_recent: valid: expected an integer in [0, 4294967295], "
            "got 1099511627776",
            "ValueError: View.erase_count: block: expected an integer in [0, 4294967295], "
            "got 18446744073709551616",
            "TypeError: View.fewest_valid: plane: expected an integer in [0, 4294967295], "
            "got '0'",
            "ValueError: View.modified_at: block: expected an integer in [0, 4294967295], "
            "got 1.5"])
        self.assertEqual(seen["in range"], (0, 0, ssdsim.NO_BLOCK, seen["block 3"]))

    def test_register_bad_arguments_are_type_errors(self):
        for args, says in (((None, py_greedy), r"^register_gc_policy: name: expected a str"),
                           ((b"py-bytes", py_greedy), r"name: expected a str"),
                           (("py-notcallable", 3), r"select: expected a function"),
                           (("py-badsummary", py_greedy, 5), r"summary: expected a str")):
            with self.assertRaisesRegex(TypeError, says):
                ssdsim.register_gc_policy(*args)

    def test_name_registered_twice(self):
        with self.assertRaises(ssdsim.Error):
            ssdsim.register_gc_policy("py-greedy", py_greedy)

    def test_close_inside_select_waits_for_the_run(self):
        """sim.__del__() (or close()) from a policy's select freed the simulation under the
        running call (the interpreter died, exit 139): it takes effect when the run returns,
        after which the simulation raises ValueError."""
        holder = {}

        def closer(view, plane):
            if "sim" in holder:
                holder.pop("sim").__del__()
            return view.fewest_valid(plane)

        ssdsim.register_gc_policy("py-closer", closer)
        sim = ssdsim.Simulation(small(gc__policy="py-closer"), seed=4)
        holder["sim"] = sim
        with self.assertRaisesRegex(ValueError, "^ssdsim.Simulation is closed"):
            sim.run(dict(RANDW, number_ios=100000))
        self.assertNotIn("sim", holder)  # select did close it
        for call in (sim.results, lambda: sim.now_ns, lambda: sim.idle(1)):
            with self.assertRaisesRegex(ValueError, "^ssdsim.Simulation is closed"):
                call()
        sim.close()  # twice: nothing

    def test_nul_in_a_name_is_refused(self):
        with self.assertRaisesRegex(ValueError, "NUL byte"):
            ssdsim.register_gc_policy("ab\x00zz", py_greedy)
        with self.assertRaises(ssdsim.Error):  # 'ab' was not registered in its place
            ssdsim.run(small(gc__policy="ab"), {"rw": "randread", "number_ios": 10})


class SimulationTest(unittest.TestCase):
    def test_simulation_takes_a_path_as_run_does(self):
        path = os.path.join(MODELS, "generic-mlc.json")
        w = {"rw": "randread", "bs": "4k", "number_ios": 2000}
        a = ssdsim.Simulation(path, seed=3).run(w)
        b = ssdsim.run(path, w, seed=3)
        self.assertEqual(a, b)
        for bad in (None, 3, {"ftl": {}}):
            with self.assertRaisesRegex(TypeError, r"^Simulation: model: expected a Model or a "
                                                   r"model file's path"):
                ssdsim.Simulation(bad)
        with self.assertRaisesRegex(TypeError, r"^run: model: expected a Model"):
            ssdsim.run(None, w)


    def test_run_none_is_a_type_error(self):
        """run(None) ran the default workload as if one had been given."""
        with self.assertRaisesRegex(TypeError, r"^Simulation.run: workload: expected"):
            ssdsim.Simulation(small()).run(None)

    def test_closed_objects_raise(self):
        """After close (or __del__), results() and to_json() raised MemoryError and now_ns and
        logical_bytes read 0, as if a result: each raises ValueError naming the object."""
        sim = ssdsim.Simulation(small())
        sim.run({"rw": "randread", "bs": "4k", "number_ios": 100})
        sim.close()
        for call in (sim.results, lambda: sim.now_ns, lambda: sim.run({"rw": "read"})):
            with self.assertRaisesRegex(ValueError, r"^ssdsim.Simulation is closed"):
                call()
        m = small()
        m.__del__()
        for call in (m.to_json, lambda: m.logical_bytes, lambda: m.set("ftl.op", 0.1),
                     m.copy, lambda: ssdsim.Simulation(m)):
            with self.assertRaisesRegex(ValueError, r"^ssdsim.Model is closed"):
                call()
        w = ssdsim.Workload({"rw": "read"})
        w.close()
        with self.assertRaisesRegex(ValueError, r"^ssdsim.Workload is closed"):
            ssdsim.Simulation(small()).run(w)

    def test_nul_in_a_string_is_refused(self):
        """'48\\x00garbage' set 48: C strings end at the NUL, so the rest was dropped."""
        m = small()
        with self.assertRaisesRegex(ValueError, "NUL byte"):
            m.set("geometry.blocks_per_plane", "48\x00garbage")
        with self.assertRaisesRegex(ValueError, "NUL byte"):
            m.set("geometry.blocks_per_plane\x00x", 48)
        self.assertEqual(m.to_json()["geometry"]["blocks_per_plane"], 32)


class SweepTest(unittest.TestCase):
    def test_every_point_is_checked_before_any_runs(self):
        """A value the model refuses (the third) fails the sweep before the first point runs
        (the policy counts the runs that reached GC), naming the point, as `ssdsim sweep` does."""
        runs = []

        def counting(view, plane):
            runs.append(1)
            return view.fewest_valid(plane)

        ssdsim.register_gc_policy("py-sweep-count", counting)
        m = small(gc__policy="py-sweep-count")
        with self.assertRaisesRegex(ssdsim.Error, r"^sweep: point 2 \(ftl.op=-1\): .*ftl\.op"):
            ssdsim.sweep(m, dict(RANDW, number_ios=100000), "ftl.op", [0.2, 0.3, -1],
                         as_frame=False)
        self.assertEqual(runs, [])

    def test_more_spare_less_waf(self):
        m = small(geometry__blocks_per_plane=64)
        units = m.logical_bytes // 4096
        w = dict(RANDW, number_ios=3 * units // 2)
        rows = ssdsim.sweep(m, w, "ftl.op", [0.15, 0.28, 0.5], as_frame=False)
        self.assertEqual([r["ftl.op"] for r in rows], [0.15, 0.28, 0.5])
        wafs = [r["waf"] for r in rows]
        self.assertGreater(wafs[0], wafs[1])
        self.assertGreater(wafs[1], wafs[2])
        # each point is exactly the run on its own with the point's seed
        alone = ssdsim.run(m.copy().set("ftl.op", 0.28), w, seed=rows[1]["seed"])
        self.assertEqual(rows[1]["waf"], alone.waf)
        self.assertEqual(rows[1]["iops"], alone.iops())

    def test_point_seed_is_the_guides(self):
        """doc/guide.md, "Seeds of the points": --seed 1, ftl.op=0.1, gc.policy=greedy gives
        2876525550240632, in any order of the keys."""
        self.assertEqual(ssdsim.point_seed(1, {"ftl.op": "0.1", "gc.policy": "greedy"}),
                         2876525550240632)
        self.assertEqual(ssdsim.point_seed(1, {"gc.policy": "greedy", "ftl.op": 0.1}),
                         2876525550240632)
        with self.assertRaisesRegex(ValueError, r"^sweep: seed: expected an integer in "
                                                r"\[0, 9007199254740991\]"):
            ssdsim.sweep(small(), RANDW, "ftl.op", [0.28], seed=2**53)

    def test_same_as_the_command(self):
        """Each point of a Python sweep has the seed, WAF and IOPS of the same point of
        `ssdsim sweep` (its summary.csv), and the results of `ssdsim run` with the row's seed
        and value (its JSON): the seeds come from the command, not from the package."""
        binary = os.environ.get("SSDSIM_BIN")
        if not binary:
            self.skipTest("SSDSIM_BIN not set")
        m = small(geometry__blocks_per_plane=64)
        w = dict(RANDW, number_ios=30000)
        rows = ssdsim.sweep(m, w, "ftl.op", [0.1, 0.3], seed=1, precondition="seq",
                            as_frame=False)
        with tempfile.TemporaryDirectory() as d:
            mp, wp = os.path.join(d, "m.json"), os.path.join(d, "w.json")
            with open(mp, "w") as f:
                json.dump(m.to_json(), f)
            with open(wp, "w") as f:
                json.dump(w, f)
            out = os.path.join(d, "sweep")
            subprocess.run([binary, "sweep", "--model", mp, "--workload", wp, "--vary",
                            "ftl.op=0.1,0.3", "--seed", "1", "--precondition", "seq", "--out",
                            out, "--jobs", "1", "--no-plot", "--quiet"], check=True)
            with open(os.path.join(out, "summary.csv")) as f:
                lines = [line.rstrip("\n").split(",") for line in f]
            head, table = lines[0], [dict(zip(lines[0], line)) for line in lines[1:]]
            self.assertEqual(head[:3], ["ftl.op", "seed", "waf"])
            self.assertEqual([t["ftl.op"] for t in table], ["0.1", "0.3"])
            for r, t in zip(rows, table):
                self.assertEqual(r["seed"], int(t["seed"]))
                # the table prints 6 significant digits (%g)
                self.assertEqual(f"{r['waf']:g}", t["waf"])
                self.assertEqual(f"{r['iops']:g}", t["all_iops"])
            # the second point alone: ssdsim run with its value and seed
            rp = os.path.join(d, "r.json")
            subprocess.run([binary, "run", "--model", mp, "--workload", wp, "--set",
                            "ftl.op=0.3", "--seed", str(rows[1]["seed"]), "--precondition",
                            "seq", "--json", rp, "--quiet"], check=True)
            with open(rp) as f:
                c = json.load(f)
        self.assertEqual(c["seed"], rows[1]["seed"])
        self.assertEqual(rows[1]["waf"], c["device"]["waf"])
        self.assertEqual(rows[1]["iops"], c["ops"]["all"]["iops"])
        self.assertEqual(rows[1]["sim_time_s"], c["sim_time_ns"] / 1e9)



def command_run(binary, args):
    """`ssdsim run ARGS --json F --quiet`: (exit status, stderr, the results JSON or None)."""
    with tempfile.TemporaryDirectory() as d:
        rp = os.path.join(d, "r.json")
        p = subprocess.run([binary, "run"] + args + ["--json", rp, "--quiet"],
                           stderr=subprocess.PIPE, universal_newlines=True)
        c = None
        if os.path.exists(rp):
            with open(rp) as f:
                c = json.load(f)
    return p.returncode, p.stderr, c


class ReplayTest(unittest.TestCase):
    # (sample, Simulation.replay options, the same as `ssdsim run --trace` options)
    CASES = [
        ("sample.spc", {}, []),
        ("sample.msr.csv", {"wrap": True, "iodepth": 4, "max_requests": 20},
         ["--wrap", "--replay-qd", "4", "--max-requests", "20"]),
        ("sample.disksim", {"format": "disksim", "time_unit": "us", "device": 1, "wrap": True,
                            "time_scale": 0.5},
         ["--trace-format", "disksim", "--time-unit", "us", "--device", "1", "--wrap",
          "--time-scale", "0.5"]),
        ("sample.blkparse.txt", {"blkparse_events": "issue", "wrap": True,
                                 "interval_ns": 1000000},
         ["--blkparse-events", "issue", "--wrap", "--interval", "1ms"]),
        ("sample.iolog2", {"wrap": True}, ["--wrap"]),  # its sync and datasync are flushes
        ("sample.csv", {"iodepth": 2, "wrap": True}, ["--replay-qd", "2", "--wrap"]),
    ]

    def test_same_as_the_command(self):
        """A trace replayed from Python gives the results JSON of `ssdsim run --trace` with the
        same model, preconditioning and options: every figure (sim time, IOPS, WAF, latencies,
        jobs, time series), and the `trace` object but for the command's warnings."""
        binary = os.environ.get("SSDSIM_BIN")
        if not binary:
            self.skipTest("SSDSIM_BIN not set")
        got = {}
        for name, opts, args in self.CASES:
            with self.subTest(trace=name):
                path = os.path.join(TRACES, name)
                m = ssdsim.Model().set("geometry.blocks_per_plane", 64)  # the built-in model
                sim = ssdsim.Simulation(m, seed=1)
                sim.precondition("seq")
                r = got[name] = sim.replay(path, **opts)
                rc, err, c = command_run(binary, ["--trace", path, "--precondition", "seq",
                                                  "--set", "geometry.blocks_per_plane=64"]
                                         + args)
                self.assertEqual(rc, 0, err)
                self.assertEqual(r["sim_time_ns"], c["sim_time_ns"])
                self.assertEqual(r.iops(), c["ops"]["all"]["iops"])
                self.assertEqual(r.waf, c["device"]["waf"])
                for key in c:
                    if key != "trace":
                        self.assertEqual(r[key], c[key], key)
                self.assertEqual(set(r.trace) - set(c["trace"]), {"wrapped_requests"})
                for key in c["trace"]:
                    if key != "warnings":
                        self.assertEqual(r.trace[key], c["trace"][key], key)
                self.assertEqual(r.trace["wrapped_requests"],
                                 c["jobs"][0]["replay"]["wrapped_requests"])
        # what the cases exercise: wrapped requests, a closed loop cut short, a device filter,
        # a time series
        msr, disksim = got["sample.msr.csv"], got["sample.disksim"]
        self.assertGreater(msr.trace["wrapped_requests"], 0)
        self.assertEqual(msr["jobs"][0]["replay"]["mode"], "closed loop")
        self.assertEqual(msr.trace["requests_replayed"], 20)
        self.assertGreater(disksim.trace["other_devices"], 0)
        self.assertGreater(len(got["sample.blkparse.txt"].timeseries), 1)

    def test_errors_are_the_commands(self):
        """A missing file, a file that is no trace and a malformed line raise ssdsim.Error with
        the message `ssdsim run --trace` prints for the same file, naming it (and the line)."""
        binary = os.environ.get("SSDSIM_BIN")
        if not binary:
            self.skipTest("SSDSIM_BIN not set")
        with tempfile.TemporaryDirectory() as d:
            garbage, bad = os.path.join(d, "garbage.trace"), os.path.join(d, "bad.spc")
            with open(garbage, "w") as f:
                f.write("hello world\n")
            with open(os.path.join(TRACES, "sample.spc")) as f, open(bad, "w") as g:
                g.writelines(f.readlines()[:5] + ["0,x,4096,w,0.6\n"])
            cases = [(os.path.join(d, "missing.spc"), "SSDSIM_EIO", r":( cannot open)"),
                     (garbage, "SSDSIM_EPARSE", r":(1: cannot tell the trace format)"),
                     (bad, "SSDSIM_EPARSE", r":(6: LBA: expected)")]
            for path, name, what in cases:
                with self.subTest(path=path):
                    rc, err, _ = command_run(binary, ["--trace", path])
                    self.assertEqual(rc, 1)
                    with self.assertRaises(ssdsim.Error) as cm:
                        ssdsim.replay(ssdsim.Model(), path)
                    self.assertEqual(err, f"ssdsim: {cm.exception}\n")
                    self.assertEqual(cm.exception.name, name)
                    self.assertRegex(str(cm.exception), "^" + re.escape(path) + what)
            # skipped, the malformed line is counted and named
            r = ssdsim.replay(ssdsim.Model(), bad, skip_bad_lines=True)
            self.assertEqual((r.trace["bad_lines"], r.trace["requests_replayed"],
                              r.trace["first_bad_line"]), (1, 5, 6))
        spc = os.path.join(TRACES, "sample.spc")
        with self.assertRaisesRegex(ssdsim.Error, "^" + re.escape(spc) +
                                    r": no request to replay: device 7 not in the trace"):
            ssdsim.replay(ssdsim.Model(), spc, device=7)
        with self.assertRaisesRegex(ValueError, r"^replay: time_unit applies to DiskSim ASCII "
                                                r"traces only; .*sample\.spc is spc$"):
            ssdsim.replay(ssdsim.Model(), spc, time_unit="ns")
        with self.assertRaisesRegex(ValueError, r"^replay: time_scale applies to open-loop"):
            ssdsim.replay(ssdsim.Model(), spc, iodepth=4, time_scale=2)
        with self.assertRaisesRegex(ValueError, r"^replay: format: expected auto, msr"):
            ssdsim.replay(ssdsim.Model(), spc, format="tsv")


if __name__ == "__main__":
    unittest.main()
