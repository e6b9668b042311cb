#!/bin/sh
# test_docs.sh: every shell command the documentation shows runs. It takes each ```sh block of
# README.md, doc/guide.md, doc/suites.md and doc/validation.md (split by doc/doc-blocks.awk) and
# runs it with sh -e, in document order, in one scratch directory per document under
# tests/out/docs/ (with models/, examples/, traces/ and tests/ linked from the source tree, so
# that the paths the documents give resolve), and prints one line per block:
#     README.md:71 PASS
# It checks that doc/design.md's module list names every source file of libssdsim/ and sim/.
# Then it runs doc/regen-samples.sh --check, which reruns the commands behind the sample outputs
# the documents show and fails when one is stale.
#
# Markers: a block preceded by `<!-- doctest: skip (REASON) -->` is not run (installing
# packages, `make install`, Slurm, paths outside the distribution); `<!-- doctest: needs TOOL
# ... -->` runs it only when every TOOL is on PATH (jq, parallel); `<!-- doctest: exit=N -->`
# expects exit status N instead of 0; `<!-- doctest: file NAME -->` before any block (a JSON
# object, a job file) writes the block's text to NAME in the scratch directory, for the blocks
# after it; `<!-- doctest: slow (REASON) -->` runs the block except in a sanitizer build, where
# REASON says which tests run the same code under the sanitizers (the block's commands take
# minutes there and would only repeat them).
#
# Small size: `ssdsim` and `./sim/ssdsim` resolve to a shim that runs the built command with
# the block's own arguments plus, for the commands that simulate a device model (run, sweep,
# demo, suite, calibrate), `--set geometry.channels=1 --set geometry.chips_per_channel=1
# --set geometry.dies_per_chip=1` appended: one die, with the planes, blocks and pages of the
# model (a later --set wins). The drive is 32 times smaller than the generic models and the
# guide's 2 GiB one, and its over-provisioning per plane, which the model checks, is the
# command's own. A trace replay (--trace) keeps the model's channels, so that the sample
# traces' addresses fit; a hard disk gets `--set hdd.capacity=8GB`; an array is left alone.
# `suite` also gets `--quick`, and `validate` gets `--quick` alone. Nothing else in a command's text is
# changed, so a command that stops working in the document stops working here.
#
# SSDSIM_DOCS_FAST=1 skips the blocks marked `doctest: slow` and the samples that
# doc/regen-samples.sh marks `slow` (the demo, about 10 s at -O2); a sanitizer build
# (-fsanitize in the build tree's Makefile) sets it.
set -u
us=$(printf '\037')

bin=${SSDSIM_BIN:-${top_builddir:-.}/sim/ssdsim}
src=$(cd "${top_srcdir:-.}" && pwd)
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
# A sanitizer build runs several times slower: its slow samples are skipped.
fast=${SSDSIM_DOCS_FAST:-0}
grep -q -e '-fsanitize' "${top_builddir:-.}/Makefile" 2>/dev/null && fast=1
out=${top_builddir:-.}/tests/out/docs
rm -rf "$out"
mkdir -p "$out/bin" || exit 1
out=$(cd "$out" && pwd)

# The shim. SSDSIM_DOCTEST_BIN names the real command.
cat > "$out/bin/ssdsim" << 'EOF'
#!/bin/sh
# ssdsim as the documentation's commands call it, at the test's small size (tests/test_docs.sh).
small=
case ${1-} in
run|sweep|demo|calibrate|suite)
    # The model the command names: a device model has a "geometry" section, a hard disk "hdd".
    model= prev=
    for a in "$@"; do
        case $prev in --model) model=$a ;; esac
        case $a in --model=*) model=${a#--model=} ;; --trace|--trace=*) trace=1 ;; esac
        prev=$a
    done
    case $model in
    '') model=$SSDSIM_MODELS_DIR/generic-mlc.json ;;
    */*|*.json) ;;
    *) model=$SSDSIM_MODELS_DIR/$model.json ;;
    esac
    if grep -q '"geometry"' "$model" 2>/dev/null; then
        small="--set geometry.chips_per_channel=1 --set geometry.dies_per_chip=1"
        # A trace needs the capacity its addresses reach: the model's channels stay.
        [ -n "${trace-}" ] || small="--set geometry.channels=1 $small"
    elif grep -q '"hdd"' "$model" 2>/dev/null; then
        small="--set hdd.capacity=8GB"
    fi
    # A sweep point run from a manifest takes the manifest's model and overrides.
    for a in "$@"; do case $a in --manifest|--manifest=*) small= ;; esac; done
    ;;
validate)
    exec "$SSDSIM_DOCTEST_BIN" "$@" --quick ;;
esac
if [ -n "$small" ]; then
    [ "$1" = suite ] && set -- "$@" --quick
    exec "$SSDSIM_DOCTEST_BIN" "$@" $small
fi
exec "$SSDSIM_DOCTEST_BIN" "$@"
EOF
chmod +x "$out/bin/ssdsim"
SSDSIM_DOCTEST_BIN=$bin
SSDSIM_MODELS_DIR=$src/models
PATH=$out/bin:$PATH
export SSDSIM_DOCTEST_BIN SSDSIM_MODELS_DIR PATH

fail=0
for doc in README.md doc/guide.md doc/suites.md doc/validation.md; do
    name=$(basename "$doc" .md)
    dir=$out/$name
    mkdir -p "$dir/sim" "$dir/.blocks" || exit 1
    for d in models examples traces tests; do ln -s "$src/$d" "$dir/$d"; done
    cp "$out/bin/ssdsim" "$dir/sim/ssdsim"
    awk -v out="$dir/.blocks" -f "$src/doc/doc-blocks.awk" "$src/$doc" > "$dir/.blocks/index" || exit 1
    while IFS=$us read -r n line lang marker; do
        [ "$n" = T ] && continue
        where=$doc:$line
        case $marker in
        "doctest: file "*)
            cp "$dir/.blocks/$n.body" "$dir/${marker#doctest: file }"
            continue ;;
        esac
        [ "$lang" = sh ] || continue
        want=0
        case $marker in
        "doctest: skip"*)
            echo "$where SKIP${marker#doctest: skip}"
            continue ;;
        "doctest: needs "*)
            missing=
            for t in ${marker#doctest: needs }; do
                command -v "$t" > /dev/null 2>&1 || missing="$missing $t"
            done
            if [ -n "$missing" ]; then
                echo "$where SKIP (not installed:$missing)"
                continue
            fi ;;
        "doctest: exit="*)
            want=${marker#doctest: exit=} ;;
        "doctest: slow"*)
            if [ "$fast" = 1 ]; then
                echo "$where SKIP (slow under the sanitizers: ${marker#doctest: slow (}"
                continue
            fi ;;
        esac
        t0=$(date +%s.%N)
        (cd "$dir" && sh -e ".blocks/$n.body") > "$dir/.blocks/$n.out" 2>&1 < /dev/null
        rc=$?
        t=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f s", $2 - $1 }')
        if [ "$rc" = "$want" ]; then
            echo "$where PASS ($t)"
        else
            echo "$where FAIL (exit status $rc, expected $want; $t):"
            tail -5 "$dir/.blocks/$n.out" | sed 's/^/    /'
            fail=1
        fi
    done < "$dir/.blocks/index"
done

# doc/design.md's module list names every source file of the library and the command (by its
# name, or its stem as `stem.*`), so that a file added without a place in the house is caught.
layout=$(awk '/^## Module layout and naming/ { on = 1; next } /^## / { on = 0 } on' \
    "$src/doc/design.md")
for f in $(cd "$src" && find libssdsim sim -name '*.[ch]' | sort); do
    b=${f##*/}
    case $layout in
    *"$b"* | *"${b%.*}.*"*) ;;
    *) echo "doc/design.md: the module list does not name $f"; fail=1 ;;
    esac
done

# The sample outputs, at the documents' own size.
if ! SSDSIM_BIN=$bin SSDSIM_DOCS_SCRATCH=$out/samples SSDSIM_DOCS_FAST=$fast \
        sh "$src/doc/regen-samples.sh" --check; then
    fail=1
fi
exit $fail
