#!/bin/sh
# regen-samples.sh: regenerates the sample outputs, the wall times and the simulated times that
# README.md and doc/guide.md quote, by running the commands behind them with the built ssdsim;
# with --check it only compares and exits 1 when one is stale (tests/test_docs.sh runs that).
#
#     sh doc/regen-samples.sh [--check] [--fast] [FILE.md ...]
#
# Run it after a release build (./configure CFLAGS='-O2 -g': the CPU times it writes are that
# build's, on the machine it runs on); SSDSIM_BIN names
# another ssdsim. Without FILE arguments it reads README.md and doc/guide.md. Nothing but the
# marked blocks and numbers changes; `git diff` shows what did.
#
# Markers (HTML comments, invisible once rendered):
#
# <!-- sample[ OPTIONS] -->, on the line before a ``` block whose lines starting with "$ " are
#     commands (a line ending in \ continues on the next), each followed by its output. The
#     commands run in order, with sh, in one scratch directory per document (models/,
#     examples/, traces/ and tests/ linked from the source tree, `ssdsim` the built command),
#     and each one's output (standard output and error) replaces the lines shown after it.
#     `$ cat NAME` is the exception: the lines after it are NAME's content, written to NAME.
# <!-- sample[ OPTIONS]: COMMAND -->, before a ``` block without "$ " lines: the block is
#     COMMAND's output. COMMAND @sh stands for the ```sh block before this one.
# OPTIONS, blank-separated:
#     lines=RANGES    keep only these lines of each command's output. RANGES is a
#                     comma-separated list of N (line N, from 1), N..M, N.. (to the end), ~N
#                     (the N-th line from the end), ~N..~M, and `...`, which writes a line
#                     "..." indented as the line after it (lines left out elsewhere leave no
#                     trace).
#     lines.K=RANGES  the same, for the K-th command of the block only.
#     keep.K          the K-th command is not run: its output stays as shown (fio's own
#                     output, which holds wall-clock figures).
#     fresh           run in a new empty directory (for `$ ls`).
#     needs=T1,T2     skip the block when one of these tools is not installed.
#     slow            skipped with --fast or SSDSIM_DOCS_FAST=1 (sanitizer builds), and
#                     with it the numbers below whose COMMAND no other sample ran.
#
# NUMBER UNIT<!-- timing[ unit=s|min]: COMMAND -->, in the text: NUMBER is COMMAND's CPU time
#     (user and system, of every process it ran: the wall time of a single-threaded command on
#     an idle machine, and unlike the wall time not inflated when the machine is shared),
#     rounded (seconds to the second from 10 s, else to 0.1 s; minutes to 0.1). --check does
#     not compare them: they depend on the machine and the build.
# NUMBER UNIT<!-- simulated[ unit=s|min]: COMMAND -->: NUMBER is the "simulated time:" COMMAND
#     prints, in the unit (whole minutes, or seconds to 0.001). Checked exactly.
# COMMAND @sh is the last ```sh block before the marker. A COMMAND run for a sample, a timing
# or a simulated time runs once.
set -u
us=$(printf '\037')
# The outputs shown are what a terminal shows on stdout and stderr, without the progress lines
# that a stderr which is not a terminal gets every few seconds.
SSDSIM_PROGRESS=0
export SSDSIM_PROGRESS

check=0
fast=${SSDSIM_DOCS_FAST:-0}
files=
for a in "$@"; do
    case $a in
    --check) check=1 ;;
    --fast) fast=1 ;;
    -*) echo "regen-samples.sh: unknown option '$a' (expected --check or --fast)" >&2; exit 2 ;;
    *) files="$files $a" ;;
    esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$files" ] || files="README.md doc/guide.md"
bin=${SSDSIM_BIN:-$src/sim/ssdsim}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "regen-samples.sh: $bin: no built ssdsim (build first, or set SSDSIM_BIN)" >&2
    exit 2
fi
scratch=${SSDSIM_DOCS_SCRATCH:-}
if [ -z "$scratch" ]; then
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/ssdsim-docs.XXXXXX") || exit 2
    trap 'rm -rf "$scratch"' EXIT
fi
rm -rf "$scratch"
mkdir -p "$scratch/bin" || exit 2
scratch=$(cd "$scratch" && pwd)
printf '#!/bin/sh\nexec "%s" "$@"\n' "$bin" > "$scratch/bin/ssdsim"
chmod +x "$scratch/bin/ssdsim"
PATH=$scratch/bin:$PATH
SSDSIM_MODELS_DIR=$src/models
export PATH SSDSIM_MODELS_DIR

# A directory where the documents' relative paths resolve.
setup_dir() {
    mkdir -p "$1/sim" || exit 2
    for d in models examples traces tests; do ln -s "$src/$d" "$1/$d"; done
    cp "$scratch/bin/ssdsim" "$1/sim/ssdsim"
}

# run_cached DIR COMMAND: runs COMMAND in DIR once per run of this script; sets $cache to the
# file holding its output and $secs to its CPU time.
run_cached() {
    key=$(printf '%s' "$2" | cksum | tr ' ' _)
    cache=$scratch/cache.$key
    if [ ! -f "$cache" ]; then
        # `times` in the shell that ran COMMAND: its second line is the user and system time
        # of the processes it waited for, as 1m2.345s 0m0.012s.
        sh -c 'cd "$1" && sh -c "$2" > "$3" 2>&1 < /dev/null; times > "$3.times"' \
            sh "$1" "$2" "$cache"
        sed -n 2p "$cache.times" | tr 'ms' '  ' |
            awk '{ printf "%.3f\n", $1 * 60 + $2 + $3 * 60 + $4 }' > "$cache.secs"
    fi
    secs=$(cat "$cache.secs")
}

# trim RANGES < OUTPUT: the lines RANGES selects.
trim() {
    awk -v spec="$1" '
    { line[NR] = $0 }
    function pos(s) { return substr(s, 1, 1) == "~" ? NR - substr(s, 2) + 1 : s + 0 }
    END {
        n = split(spec, part, ",")
        for (i = 1; i <= n; i++) {
            p = part[i]
            if (p == "...") { dots = 1; continue }
            if (index(p, "..")) { a = substr(p, 1, index(p, "..") - 1); b = substr(p, index(p, "..") + 2) }
            else { a = p; b = p }
            from = pos(a); to = (b == "") ? NR : pos(b)
            for (j = from; j <= to && j <= NR; j++) {
                if (j < 1) continue
                if (dots) { ind = line[j]; sub(/[^ ].*/, "", ind); print ind "..."; dots = 0 }
                print line[j]
            }
        }
        if (dots) print "..."
    }'
}

# opt NAME MARKER: the value of option NAME=... in the marker's options, or empty.
opt() {
    printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1
}

status=0
for doc in $files; do
    name=$(basename "$doc" .md)
    work=$scratch/$name
    dir=$work/run
    mkdir -p "$work/blocks" && setup_dir "$dir"
    awk -v out="$work/blocks" -f "$src/doc/doc-blocks.awk" "$src/$doc" > "$work/index" || exit 2
    : > "$work/numbers"
    prev_sh=
    while IFS=$us read -r n line lang marker; do
        [ "$n" = T ] && continue
        where=$doc:$line
        body=$work/blocks/$n.body
        case $marker in
        "doctest: file "*) cp "$body" "$dir/${marker#doctest: file }" ;;
        esac
        if [ "$lang" = sh ]; then prev_sh=$body; continue; fi
        case $marker in sample*) ;; *) continue ;; esac
        # The options and the command of the marker.
        spec=${marker#sample}
        cmd=
        case $spec in *": "*) cmd=${spec#*: }; spec=${spec%%: *} ;; esac
        spec=" $spec "
        case $spec in *" slow "*)
            if [ "$fast" = 1 ]; then echo "$where SKIP (slow)"; continue; fi ;;
        esac
        needs=$(opt needs "$spec")
        missing=
        for t in $(echo "$needs" | tr , ' '); do
            command -v "$t" > /dev/null 2>&1 || missing="$missing $t"
        done
        if [ -n "$missing" ]; then echo "$where SKIP (not installed:$missing)"; continue; fi
        rundir=$dir
        case $spec in *" fresh "*)
            rundir=$work/fresh.$n; mkdir -p "$rundir" ;;
        esac
        new=$work/blocks/$n.new
        : > "$new"
        if [ -n "$cmd" ]; then
            [ "$cmd" = @sh ] && cmd=$(cat "$prev_sh")
            run_cached "$rundir" "$cmd"
            ranges=$(opt lines "$spec")
            if [ -n "$ranges" ]; then trim "$ranges" < "$cache" > "$new"; else cp "$cache" "$new"; fi
        else
            # Split the block into commands (with their continuation lines) and outputs.
            awk -v w="$work/blocks/$n" '
                /^\$ / && !cont { k++; printf "" > (w ".out" k) ; f = w ".cmd" k; printf "" > f }
                k == 0 { next }
                f != "" { print > f; cont = /\\$/; if (!cont) { close(f); f = "" } ; next }
                { print > (w ".out" k) }
                END { print k > (w ".n") }' "$body"
            k=1
            while [ "$k" -le "$(cat "$work/blocks/$n.n")" ]; do
                c=$work/blocks/$n.cmd$k
                cat "$c" >> "$new"
                text=$(sed '1s/^\$ //' "$c")
                case $spec in *" keep.$k "*) cat "$work/blocks/$n.out$k" >> "$new"; k=$((k + 1)); continue ;; esac
                case $text in
                "cat "*)
                    f=${text#cat }
                    case $f in *[!A-Za-z0-9._-]*) ;; *)
                        cp "$work/blocks/$n.out$k" "$rundir/$f"
                        cat "$work/blocks/$n.out$k" >> "$new"
                        k=$((k + 1)); continue ;;
                    esac ;;
                esac
                rm -f "$scratch/cache.$(printf '%s' "$text" | cksum | tr ' ' _)"
                run_cached "$rundir" "$text"
                ranges=$(opt "lines.$k" "$spec")
                [ -n "$ranges" ] || ranges=$(opt lines "$spec")
                if [ -n "$ranges" ]; then trim "$ranges" < "$cache" >> "$new"; else cat "$cache" >> "$new"; fi
                k=$((k + 1))
            done
        fi
        if cmp -s "$body" "$new"; then
            echo "$where PASS"
        elif [ "$check" = 1 ]; then
            echo "$where STALE (sh doc/regen-samples.sh regenerates it):"
            diff "$body" "$new" | head -20 | sed 's/^/    /'
            status=1
        else
            echo "$where regenerated"
        fi
    done < "$work/index"

    # Timings and simulated times, in the order they appear.
    grep "^T$us" "$work/index" | while IFS=$us read -r t line kind marker; do
        where=$doc:$line
        cmd=${marker#*: }
        spec=" ${marker%%: *} "
        unit=$(opt unit "$spec"); [ -n "$unit" ] || unit=s
        if [ "$kind" = timing ] && [ "$check" = 1 ]; then
            echo "$where SKIP (CPU time: not checked)"
            echo "$line	-" >> "$work/numbers"
            continue
        fi
        if [ "$cmd" = @sh ]; then
            b=$(awk -F "$us" -v l="$line" '$1 != "T" && $3 == "sh" && $2 < l { b = $1 } END { print b }' "$work/index")
            cmd=$(cat "$work/blocks/$b.body")
        fi
        # --fast runs nothing for a number: a command a sample ran already, or none.
        if [ "$fast" = 1 ] && [ ! -f "$scratch/cache.$(printf '%s' "$cmd" | cksum | tr ' ' _)" ]; then
            echo "$where SKIP (fast: the command ran for no sample)"
            echo "$line	-" >> "$work/numbers"
            continue
        fi
        run_cached "$dir" "$cmd"
        if [ "$kind" = timing ]; then
            v=$secs
        else
            v=$(sed -n 's/^simulated time: \([0-9.]*\) s$/\1/p' "$cache" | head -1)
            if [ -z "$v" ]; then
                echo "$where FAIL: '$cmd' printed no 'simulated time:' line"
                echo "$line	-" >> "$work/numbers"
                echo 1 > "$work/failed"
                continue
            fi
        fi
        v=$(echo "$v $unit $kind" | awk '{
            x = $1; if ($2 == "min") x /= 60
            if ($3 == "simulated") printf($2 == "min" ? "%.0f" : "%.3f", x)
            else if ($2 == "min") printf "%.1f", x
            else printf(x >= 10 ? "%.0f" : "%.1f", x) }')
        echo "$line	$v" >> "$work/numbers"
        echo "$where $kind $v $unit"
    done
    [ -f "$work/failed" ] && status=1

    # The document with the new blocks and numbers.
    awk -v w="$work" -v blocks=$((1 - check)) '
        BEGIN {
            while ((getline l < (w "/numbers")) > 0) {
                split(l, f, "\t"); nv[f[1]]++; val[f[1], nv[f[1]]] = f[2]
            }
        }
        inb { if ($0 ~ /^```[ \t]*$/) { inb = 0; print } else if (!repl) print; next }
        /^```/ {
            nb++; print; inb = 1; repl = 0
            file = w "/blocks/" nb ".new"
            if (blocks && (getline l < file) >= 0) {
                repl = 1; close(file)
                while ((getline l < file) > 0) print l
                close(file)
            }
            next
        }
        {
            if (NR in nv) {
                out = ""; rest = $0; i = 0
                while (match(rest, /[0-9][0-9.,]*( [a-z]+)* ?<!-- (timing|simulated)[^>]*-->/)) {
                    i++; start = RSTART; len = RLENGTH; m = substr(rest, start, len)
                    v = val[NR, i]
                    if (v != "-" && v != "") { match(m, /^[0-9][0-9.,]*/); m = v substr(m, RLENGTH + 1) }
                    out = out substr(rest, 1, start - 1) m
                    rest = substr(rest, start + len)
                }
                $0 = out rest
            }
            print
        }' "$src/$doc" > "$work/new.md"
    if ! cmp -s "$src/$doc" "$work/new.md"; then
        if [ "$check" = 1 ]; then
            # A stale simulated time (CPU times are not compared).
            if ! diff "$src/$doc" "$work/new.md" > "$work/diff"; then
                echo "$doc: stale figures (sh doc/regen-samples.sh regenerates them):"
                sed 's/^/    /' "$work/diff" | head -20
                status=1
            fi
        else
            cp "$work/new.md" "$src/$doc"
        fi
    fi
done
exit $status
