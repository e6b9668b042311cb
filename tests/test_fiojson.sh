#!/bin/sh
# test_fiojson.sh: feed what `ssdsim run --output-format fio-json` and a job file's fio logs
# produce to fio's own tools (Debian package fio): fio_jsonplus_clat2csv (reads the json+
# "bins"), fio2gnuplot (reads *_bw.N.log / *_iops.N.log) and fio_generate_plots (reads the
# lat, clat, slat, iops and bw logs, with gnuplot), and check each reads them without error
# and writes what it writes for fio's own output. Each tool is first run on the output of a real
# fio run (ioengine=null, no device needed) as a control: a tool that fails on fio's own output
# is broken here and is skipped, not blamed on ssdsim. Exits 77 (skipped) without the fio
# package.
set -u

bin=${SSDSIM_BIN:-${top_builddir:-.}/sim/ssdsim}
out=${top_builddir:-.}/tests/out/fiojson-sh
if ! command -v fio_jsonplus_clat2csv > /dev/null 2>&1 &&
    ! command -v fio2gnuplot > /dev/null 2>&1; then
    echo "fio's tools are not installed (apt-get install fio): skipped"
    exit 77
fi
rm -rf "$out"
mkdir -p "$out/ssdsim" "$out/fio" || exit 1
cd "$out" || exit 1

fail=0
ran=0
bad() {
    echo "FAIL: $*"
    fail=1
}

# The workload: two sections, numjobs, logs averaged over 10 ms windows.
cat > jobs.fio << 'EOF'
[global]
bs=4k
iodepth=4
log_avg_msec=10
write_bw_log=sim
write_iops_log=sim
write_lat_log=sim

[writers]
rw=randwrite
number_ios=1500
numjobs=2

# Reads of never-written data take microseconds: paced, so that the job spans several
# windows (a job shorter than one window gets empty bw and iops logs, from fio as from ssdsim,
# and fio2gnuplot cannot average an empty log).
[readers]
rw=randread
number_ios=1500
rate_iops=20000
EOF

(cd ssdsim && "$bin" run --workload ../jobs.fio --set geometry.blocks_per_plane=64 \
    --json out.json --output-format fio-json --quiet) || { echo "FAIL: ssdsim run"; exit 1; }
for f in sim_bw.1.log sim_iops.1.log sim_lat.1.log sim_clat.1.log sim_slat.1.log sim_bw.3.log; do
    [ -f "ssdsim/$f" ] || bad "ssdsim did not write $f"
done

# The control: the same jobs on fio's null engine (no device, no root needed).
have_fio=0
if command -v fio > /dev/null 2>&1; then
    sed -e '/^rate_iops=/d' -e 's/^\[global\]$/[global]\nioengine=null\nsize=64m\nrate_iops=5000/' \
        jobs.fio > fio/jobs.fio
    if (cd fio && fio --output-format=json+ --output=out.json jobs.fio > /dev/null 2>&1); then
        have_fio=1
    else
        echo "note: fio could not run the control jobs; tools run without a control"
    fi
fi

# control TOOL-DIR COMMAND...: 0 when the tool works on fio's own output (or there is none).
control() {
    [ "$have_fio" = 1 ] || return 0
    dir=$1
    shift
    (cd "fio" && "$@") > "control-$dir.log" 2>&1
}

# ---- fio_jsonplus_clat2csv: one CSV per job from the clat_ns bins, then --validate.
if command -v fio_jsonplus_clat2csv > /dev/null 2>&1; then
    if control clat2csv fio_jsonplus_clat2csv out.json clat.csv; then
        ran=1
        if (cd ssdsim && fio_jsonplus_clat2csv out.json clat.csv) > clat2csv.log 2>&1; then
            for j in 0 1 2; do
                csv=ssdsim/clat_job$j.csv
                [ -f "$csv" ] || { bad "fio_jsonplus_clat2csv wrote no $csv"; continue; }
                lines=$(wc -l < "$csv")
                [ "$lines" -gt 1 ] || bad "$csv has no rows"
                # The last row holds the largest latency: cumulative percentile 1.0.
                tail -1 "$csv" | grep -q ', 1.0, ' || bad "$csv does not end at percentile 1.0"
            done
            (cd ssdsim && fio_jsonplus_clat2csv out.json clat.csv --validate) \
                > clat2csv-validate.log 2>&1 || bad "fio_jsonplus_clat2csv --validate"
            echo "fio_jsonplus_clat2csv: $(grep -c generated clat2csv.log) CSV files"
        else
            bad "fio_jsonplus_clat2csv failed on ssdsim's JSON: $(tail -3 clat2csv.log)"
        fi
    else
        echo "fio_jsonplus_clat2csv fails on fio's own output here: skipped"
    fi
fi

# ---- fio2gnuplot: the per-job bandwidth and IOPS logs (-g renders with gnuplot).
if command -v fio2gnuplot > /dev/null 2>&1; then
    g=""
    command -v gnuplot > /dev/null 2>&1 && g=-g
    f2g=0
    for kind in b i; do
        if control "f2g$kind" fio2gnuplot -$kind $g; then
            ran=1
            f2g=1
            if (cd ssdsim && fio2gnuplot -$kind $g) > "fio2gnuplot-$kind.log" 2>&1; then
                grep -q "Using log file per job format" "fio2gnuplot-$kind.log" ||
                    bad "fio2gnuplot -$kind did not find the per-job logs"
                echo "fio2gnuplot -$kind: $(grep -c -- '|->' "fio2gnuplot-$kind.log") logs"
            else
                bad "fio2gnuplot -$kind failed on ssdsim's logs: $(tail -3 fio2gnuplot-$kind.log)"
            fi
        else
            echo "fio2gnuplot -$kind fails on fio's own logs here: skipped"
        fi
    done
    if [ -n "$g" ] && [ "$f2g" = 1 ]; then
        n=$(ls ssdsim/*.png 2> /dev/null | wc -l)
        [ "$n" -gt 0 ] || bad "fio2gnuplot -g rendered no PNG"
    fi
fi

# ---- fio_generate_plots: an SVG per log kind, with gnuplot.
if command -v fio_generate_plots > /dev/null 2>&1 && command -v gnuplot > /dev/null 2>&1; then
    if control gen fio_generate_plots control; then
        ran=1
        if (cd ssdsim && fio_generate_plots ssdsim) > generate-plots.log 2>&1; then
            for kind in lat clat iops bw; do
                [ -s "ssdsim/ssdsim-$kind.svg" ] || bad "fio_generate_plots wrote no $kind plot"
            done
            echo "fio_generate_plots: $(ls ssdsim/*.svg | wc -l) SVG files"
        else
            bad "fio_generate_plots failed on ssdsim's logs: $(tail -3 generate-plots.log)"
        fi
    else
        echo "fio_generate_plots fails on fio's own logs here: skipped"
    fi
fi

# ---- What fio-plot (github.com/louwrentius/fio-plot) reads of every job, and fio's own
# layout: the same keys, in the same order, as the control run's JSON.
if command -v python3 > /dev/null 2>&1; then
    ran=1
    python3 - ssdsim/out.json fio/out.json "$have_fio" << 'EOF' > layout.log 2>&1 ||
import json, sys
ours = json.load(open(sys.argv[1]))
for job in ours["jobs"]:
    opts = {**job["job options"], **ours["global options"]}
    for k in ("iodepth", "numjobs", "bs", "rw"):
        assert k in opts or k in ("iodepth", "numjobs"), "job options lack " + k
    for mode in ("read", "write"):
        d = job[mode]
        for k in ("bw", "iops", "iops_stddev"):
            float(d[k])
        float(d["lat_ns"]["mean"]), float(d["lat_ns"]["stddev"])
    for k in ("latency_ms", "latency_us", "latency_ns", "usr_cpu", "sys_cpu"):
        job[k]
if sys.argv[3] == "1":
    fio = json.load(open(sys.argv[2]))
    def keys(o, path=""):
        out = []
        for k, v in o.items():
            if k in ("bins", "percentile", "job options", "global options"):
                out.append(path + k)
                continue
            out.append(path + k)
            if isinstance(v, dict):
                out += keys(v, path + k + ".")
        return out
    a, b = keys(ours["jobs"][0]), keys(fio["jobs"][0])
    missing = [k for k in b if k not in a]
    extra = [k for k in a if k not in b]
    assert not missing, "keys fio writes and ssdsim does not: %s" % missing
    order_ours = [k for k in a if k in b]
    assert order_ours == b, "key order differs from fio's"
    print("same job keys as fio %s; ssdsim adds %s" % (fio["fio version"], extra))
print("layout ok")
EOF
        bad "JSON layout: $(tail -3 layout.log)"
    cat layout.log
fi

[ "$ran" = 1 ] || { echo "no fio tool could run: skipped"; exit 77; }
[ "$fail" = 0 ] || exit 1
echo "fio's tools read ssdsim's output"
