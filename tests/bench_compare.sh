#!/bin/sh
# bench_compare.sh: make bench's figures for another commit and for this build tree, built side
# by side and run alternately, as ratios (`make bench-compare BASE=REV`).
#
#     tests/bench_compare.sh [-n PAIRS] BASE [MODEL [KEY=VALUE ...]]
#
# Run from the top of a configured build tree whose tests/bench_sim and tests/bench_engine are
# built (the make target builds them). BASE is any git revision of the source tree; it is
# checked out as a detached worktree in $BENCH_BASE_DIR (default: bench-base/ in the build tree),
# configured with this build's CFLAGS ($BENCH_CFLAGS, which the make target passes), and built
# once per commit: a later comparison with the same commit reuses it. The two builds' bench_sim
# and bench_engine then run PAIRS times each (default 5), alternately and base first in odd
# pairs, so that both see the same neighbours on a shared machine. Prints, per figure, the median
# and range of each build and the ratio of the medians (this tree / BASE): rates are per
# CPU-second of the process, which neighbours distort less than wall time, but one run still
# varies by 10 to 15% on a shared virtual machine, hence the medians. Then says whether the
# simulated figures (IOPS, WAF, GC copies, events, latencies) were the same in every run: when
# they differ, the change altered the simulation and the rates compare different work.
# Asserts nothing about speed; exits non-zero only when something could not be built or run.
set -u

pairs=5
while getopts n: opt; do
    case $opt in
    n) pairs=$OPTARG ;;
    *)
        echo "usage: $0 [-n PAIRS] BASE [MODEL [KEY=VALUE ...]]" >&2
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
    echo "usage: $0 [-n PAIRS] BASE [MODEL [KEY=VALUE ...]]" >&2
    exit 2
fi
case $pairs in
'' | *[!0-9]* | 0)
    echo "bench_compare: -n: expected a number of pairs >= 1, got '$pairs'" >&2
    exit 2
    ;;
esac
base_rev=$1
shift
srcdir=$(cd "$(dirname "$0")/.." && pwd)
model=${1:-$srcdir/models/generic-mlc.json}
[ $# -gt 0 ] && shift
if [ ! -x tests/bench_sim ] || [ ! -x tests/bench_engine ]; then
    echo "bench_compare: run from a build tree with tests/bench_sim and tests/bench_engine" \
        "built (make bench-compare BASE=REV builds them)" >&2
    exit 1
fi
if [ ! -f "$model" ]; then
    echo "bench_compare: $model: no such model file" >&2
    exit 1
fi
sha=$(git -C "$srcdir" rev-parse --verify --quiet "$base_rev^{commit}") || {
    echo "bench_compare: $base_rev: not a commit of $srcdir" >&2
    exit 1
}
short=$(git -C "$srcdir" rev-parse --short "$sha")
head_desc=$(git -C "$srcdir" describe --always --dirty 2>/dev/null || echo "this tree")
cflags=${BENCH_CFLAGS:-"-O2 -g"}
dir=${BENCH_BASE_DIR:-$(pwd)/bench-base}/$short

# The base build: a worktree of BASE, built in place, once.
if [ ! -x "$dir/tests/bench_sim" ] || [ ! -x "$dir/tests/bench_engine" ]; then
    mkdir -p "$(dirname "$dir")" || exit 1
    if [ ! -d "$dir" ]; then
        git -C "$srcdir" worktree add --detach "$dir" "$sha" >/dev/null 2>&1 || {
            echo "bench_compare: git worktree add $dir $short failed" >&2
            exit 1
        }
    fi
    echo "bench_compare: building $short in $dir (CFLAGS '$cflags'; log: $dir/bench-build.log)"
    (cd "$dir" && ./autogen.sh && ./configure CFLAGS="$cflags" &&
        make -j2 libssdsim/libssdsim.la && make tests/bench_sim tests/bench_engine) \
        >"$dir/bench-build.log" 2>&1 || {
        echo "bench_compare: building $short failed; see $dir/bench-build.log" >&2
        exit 1
    }
fi

# A base older than bench_sim's rates per CPU-second (4e08e44) runs this tree's bench_sim.c,
# which uses the public API only, linked with the base's library; before
# ssdsim_events_executed (0ef3472) without its events lines, and before ssdsim_fast_forward
# without the fast-forward line. Its bench_engine, which reads the engine's internal header, is
# then left out.
base_sim=$dir/tests/bench_sim base_eng=$dir/tests/bench_engine no_events=
if ! grep -q 'per CPU-second' "$dir/tests/bench_sim.c"; then
    base_sim=$dir/bench_sim_head
    defs=
    if ! grep -q ssdsim_events_executed "$dir/libssdsim/include/ssdsim/ssdsim.h"; then
        defs="-Dssdsim_events_executed(s)=0"
        no_events=yes
    fi
    if ! grep -q ssdsim_fast_forward "$dir/libssdsim/include/ssdsim/ssdsim.h"; then
        defs="$defs -DBENCH_NO_FF"
    fi
    # shellcheck disable=SC2086
    ${BENCH_CC:-${CC:-cc}} $cflags -I"$dir/libssdsim/include" $defs \
        "$srcdir/tests/bench_sim.c" -o "$base_sim" -L"$dir/libssdsim/.libs" -lssdsim \
        -Wl,-rpath,"$dir/libssdsim/.libs" -lm >>"$dir/bench-build.log" 2>&1 || {
        echo "bench_compare: $short's bench_sim has no rates per CPU-second, and this tree's" \
            "tests/bench_sim.c does not build against its library; see $dir/bench-build.log" >&2
        exit 1
    }
    echo "bench_compare: $short's bench_sim has no rates per CPU-second: running this tree's" \
        "tests/bench_sim.c linked with its library${no_events:+ (without the events lines)}"
fi
if ! grep -q 'per CPU-second' "$dir/tests/bench_engine.c"; then
    base_eng=
    echo "bench_compare: $short's bench_engine has no rates per CPU-second: left out"
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/bench_compare.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT INT TERM

# One run of a build: its figures, one "name value" line each, in $out/WHO.N.fig, and what the
# run simulated (its output without the rates, CPU and wall times and memory) in $out/WHO.N.sim.
run_one() { # WHO ENGINE SIM N [KEY=VALUE ...] (ENGINE empty: none)
    r_who=$1 r_eng=$2 r_sim=$3 r_n=$4
    shift 4
    : >"$out/$r_who.$r_n.eng"
    if [ -n "$r_eng" ]; then
        "$r_eng" >"$out/$r_who.$r_n.eng" 2>&1 || return 1
    fi
    "$r_sim" "$model" "$@" >"$out/$r_who.$r_n.out" 2>&1 || return 1
    awk '
        / million schedule\+pop pairs per CPU-second/ { print "engine", $2 }
        /^simulator: .* per CPU-second/ { print "writes", $2 }
        /^random reads: .* per CPU-second/ { print "reads", $3 }
        /^70\/30 random read\/write: .* per CPU-second/ { print "mix", $4 }
        /^fast-forward: .* per CPU-second/ { print "ff", $2 }
    ' "$out/$r_who.$r_n.eng" "$out/$r_who.$r_n.out" >"$out/$r_who.$r_n.fig"
    sed -e 's/[0-9.]* million host I\/Os per CPU-second//' \
        -e 's/[0-9.]* million host writes per CPU-second//' \
        -e 's/ in [0-9.]* CPU-s, [0-9.]* s wall//' -e 's/; warm-up [0-9.]* CPU-s//' \
        -e 's/, [0-9]* ns CPU per event//' -e '/^memory: /d' "$out/$r_who.$r_n.out" |
        if [ -n "$no_events" ]; then
            sed -e '/^events: /d' -e 's/, [0-9.]* events per host I\/O//'
        else
            cat
        fi >"$out/$r_who.$r_n.sim"
}

echo "bench_compare: base $short, head $head_desc (this build tree), $pairs alternated pairs;" \
    "model $(basename "$model")${*:+ $*}"
i=1
while [ "$i" -le "$pairs" ]; do
    if [ $((i % 2)) -eq 1 ]; then order="base head"; else order="head base"; fi
    for who in $order; do
        if [ "$who" = base ]; then
            set_eng=$base_eng set_sim=$base_sim
        else
            set_eng=./tests/bench_engine set_sim=./tests/bench_sim
        fi
        if ! run_one "$who" "$set_eng" "$set_sim" "$i" "$@"; then
            echo "bench_compare: the $who build's benchmark failed:" >&2
            cat "$out/$who.$i.eng" "$out/$who.$i.out" 2>/dev/null | tail -5 >&2
            exit 1
        fi
    done
    printf 'pair %d: base %s | head %s\n' "$i" \
        "$(awk '{printf "%s %s  ", $1, $2}' "$out/base.$i.fig")" \
        "$(awk '{printf "%s %s  ", $1, $2}' "$out/head.$i.fig")"
    i=$((i + 1))
done

# Median and range of one figure over a build's runs.
stats() { # WHO NAME DECIMALS
    cat "$out/$1".*.fig | awk -v k="$2" '$1 == k { print $2 }' | sort -g | awk -v d="$3" '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print "- - -"; exit }
            m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%." d "f %s %s\n", m, v[1], v[NR]
        }'
}

echo
printf '%-44s %-20s %-20s %s\n' "figure (millions per CPU-second)" "base $short" "head" \
    "head/base"
for k in engine writes reads mix ff; do
    case $k in
    engine) label="engine: schedule+pop pairs" dec=1 ;;
    writes) label="steady 4 KiB random writes: host I/Os" dec=2 ;;
    reads) label="random reads: host I/Os" dec=2 ;;
    mix) label="70/30 read/write: host I/Os" dec=2 ;;
    ff) label="fast-forward: host writes" dec=2 ;;
    esac
    set -- $(stats base $k $dec) $(stats head $k $dec)
    ratio=$(awk -v a="$1" -v b="$4" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }')
    b="$1 ($2-$3)" h="$4 ($5-$6)"
    [ "$1" = - ] && b=-
    [ "$4" = - ] && h=-
    printf '%-44s %-20s %-20s %s\n' "$label" "$b" "$h" "$ratio"
done

echo
# A base without fast-forward in its bench_sim (before this line was added): the simulated
# figures are compared without it in either build.
if ! grep -q '^fast-forward: ' "$out/base.1.out"; then
    for f in "$out"/*.sim; do
        sed -i '/^fast-forward: /d' "$f"
    done
fi
same=yes
for f in "$out"/*.sim; do
    cmp -s "$f" "$out/base.1.sim" || same=no
done
if [ "$same" = yes ]; then
    echo "simulated figures: the same in all $((2 * pairs)) runs (the rates compare the same work)"
else
    echo "simulated figures: they differ between the builds, so the rates compare different work:"
    diff "$out/base.1.sim" "$out/head.1.sim" | sed 's/^/    /'
fi
