#!/bin/sh
# test_golden.sh: the command's outputs on fixed seeds are byte-identical to the ones recorded
# in tests/golden.sha256. It guards refactorings that must not change a figure (moving a
# measurement method from sim/ into the library, splitting a file): run, sweep, the three
# suites, calibrate and validate on a small model, each output file hashed with sha256sum.
#
# A change that is meant to change figures (a model mechanism, a new default) updates the
# record deliberately, after checking the differences it explains:
#     sh tests/test_golden.sh --update      (from the build tree; rewrites tests/golden.sha256)
# PNG plots (gnuplot's bytes) and lines about wall-clock time are left out of the comparison.
set -u

bin=${SSDSIM_BIN:-${top_builddir:-.}/sim/ssdsim}
src=$(cd "${top_srcdir:-.}" && pwd)
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
out=${top_builddir:-.}/tests/out/golden
record=$src/tests/golden.sha256
update=0
[ "${1:-}" = "--update" ] && update=1

rm -rf "$out"
mkdir -p "$out" || exit 1
cd "$out" || exit 1
SSDSIM_PROGRESS=0
export SSDSIM_PROGRESS

# One SLC die per chip enable on 2 channels, 64 blocks of 64 pages per plane (the model of
# test_calibrate.sh), with a spec block so that calibrate has figures to measure.
cat > small.json << 'EOF'
{
    "name": "golden-small",
    "description": "test_golden.sh: a small drive whose outputs are recorded",
    "geometry": {"channels": 2, "chips_per_channel": 1, "dies_per_chip": 2, "planes_per_die": 1,
                 "blocks_per_plane": 64, "pages_per_block": 64, "page_size": "4KiB"},
    "flash": {"cell": "slc", "read_us": 20, "program_us": 200, "erase_us": 1000,
              "bus_mts": 100, "bus_width": 8},
    "controller": {"cmd_overhead_us": 2, "cores": 1, "queue_depth": 32},
    "host": {"interface": "custom", "link_bw": "100MB/s", "cmd_overhead_us": 1},
    "ftl": {"type": "page", "op": 0.28},
    "spec": {
        "source": "test_golden.sh",
        "figures": [
            {"name": "QD1 read latency", "metric": "read_lat_us", "value": 104.92,
             "rw": "randread", "bs": "4KiB", "iodepth": 1, "numjobs": 1, "state": "full"},
            {"name": "sequential read", "metric": "read_mbps", "value": 100, "rw": "read",
             "bs": "128KiB", "iodepth": 32, "numjobs": 1, "state": "full"},
            {"name": "random write", "metric": "write_iops", "value": 5000,
             "rw": "randwrite", "bs": "4KiB", "iodepth": 32, "numjobs": 1, "state": "steady"}
        ]
    }
}
EOF
cp "$src/tests/data/wl-randwrite-4k.json" wl.json || exit 1
cat > rw.fio << 'EOF'
[global]
ioengine=libaio
direct=1
bs=4k
iodepth=8
[mixed]
rw=randrw
rwmixread=30
number_ios=40000
EOF

fail=0
# run CMD...: runs the command; its stdout goes to NAME.out (lines about wall time dropped),
# its exit status to NAME.rc.
run() {
    name=$1
    shift
    "$@" > "$name.raw" 2> "$name.err"
    echo $? > "$name.rc"
    grep -v -i 'wall' "$name.raw" > "$name.out"
    rm -f "$name.raw"
}

run run "$bin" run --model small.json --workload rw.fio --precondition seq --seed 7 \
    --interval-ios 5000 --json run.json --timeseries run-ts.csv
run steady "$bin" run --model small.json --workload wl.json \
    --set workload.number_ios=2000000 --interval-ios 20000 --until-steady --seed 3 \
    --json steady.json
run sweep "$bin" sweep --model small.json --workload wl.json \
    --set workload.number_ios=5000 --vary ftl.op=0.2,0.3 --vary workload.iodepth=1,8 \
    --out sweep --jobs 1 --quiet
run quick "$bin" suite quick-matrix --model small.json --quick --out quick
run review "$bin" suite review --model small.json --quick --out review
run snia "$bin" suite snia --model small.json --quick --out snia
run calibrate "$bin" calibrate --model small.json --json calibrate.json
run valu "$bin" validate waf --section uniform --policy greedy,fifo,cost-benefit --sf 0.2 \
    --ppb 32 --blocks 256 --json valu.json --markdown valu.md --jobs 1 --quiet
run valh "$bin" validate waf --section hotcold --blocks 128 \
    --json valh.json --jobs 1 --quiet

# A sweep's point files name the model and workload by absolute path and hash the manifest line
# that holds them: both depend on where the build tree is, so they are left out.
here=$(pwd)
for f in sweep/*.json; do
    sed -e "s|$here/||g" -e '/"manifest_hash"/d' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done

# Every output but the plots and the error streams (progress and notes), in a fixed order.
find . -type f ! -name '*.png' ! -name '*.err' ! -name small.json ! -name rw.fio ! -name wl.json ! -name now.sha256 \
    ! -name '*.partial' | LC_ALL=C sort | xargs sha256sum > now.sha256

if [ $update = 1 ]; then
    cp now.sha256 "$record" || exit 1
    echo "test_golden.sh: recorded $(wc -l < now.sha256) outputs in $record"
    exit 0
fi
if ! diff -u "$record" now.sha256 > golden.diff; then
    echo "FAIL: outputs differ from tests/golden.sha256 (in $out):"
    cat golden.diff
    for f in *.err; do
        [ -s "$f" ] && { echo "--- $f"; head -5 "$f"; }
    done
    fail=1
fi
[ $fail = 0 ] && echo "PASS: $(wc -l < now.sha256) outputs byte-identical to the record"
exit $fail
