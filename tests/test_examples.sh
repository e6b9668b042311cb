#!/bin/sh
# test_examples.sh: install the library into a scratch root (DESTDIR), then build every example
# in examples/ against that installed copy with pkg-config, exactly as a user would, and run it.
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
root="$top_builddir/tests/out/install-root"
rm -rf "$root"
mkdir -p "$root"
${MAKE:-make} -C "$top_builddir" install DESTDIR="$root" > "$top_builddir/tests/out/install.log" 2>&1 ||
    { echo "make install failed:"; tail -20 "$top_builddir/tests/out/install.log"; exit 1; }
pcdir=$(find "$root" -name ssdsim.pc -printf '%h\n' | head -1)
[ -n "$pcdir" ] || { echo "ssdsim.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH="$pcdir"
export PKG_CONFIG_SYSROOT_DIR="$root"
libdir=$(dirname "$pcdir")
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
models=$(find "$root" -path '*/ssdsim/models' -type d | head -1)
SSDSIM_SAMPLE_TRACES=$(find "$root" -path '*/ssdsim/traces' -type d | head -1)
export SSDSIM_SAMPLE_TRACES
n=0
for ex in "$top_srcdir"/examples/*/; do
    name=$(basename "$ex")
    [ -f "$ex/Makefile" ] || continue # data, such as the fio job files in examples/jobs
    out="$top_builddir/tests/out/examples/$name"
    rm -rf "$out"
    mkdir -p "$out"
    cp "$ex"* "$out"/
    # Sanitizer builds of the library need the sanitizer runtime in the example too.
    ${MAKE:-make} -s -C "$out" CFLAGS="-O1 -g -Wall -Wextra -Werror ${EXAMPLE_CFLAGS:-}" ||
        { echo "FAIL: example $name did not build"; exit 1; }
    for prog in "$out"/*; do
        [ -x "$prog" ] && [ -f "$prog" ] || continue
        case "$prog" in *.c | *.h | *.so | */Makefile) continue ;; esac
        "$prog" "$models/generic-mlc.json" || { echo "FAIL: example $name: $prog failed"; exit 1; }
    done
    n=$((n + 1))
done
echo "$n examples built against the installed library and run"
[ "$n" -gt 0 ]

# ------------------------------------------------------------------------------------------
# Plugin modules in the command (doc/plugins.md): the example's GC policy, built as a module,
# loaded with --plugin gives the results of the same policy registered from C; a sweep and its
# manifest carry it to their points; bad modules are refused with one line.
ssdsim=$(find "$root" -path '*/bin/ssdsim' -type f | head -1)
[ -x "$ssdsim" ] || { echo "FAIL: ssdsim was not installed"; exit 1; }
ex="$top_builddir/tests/out/examples/gc-plugin"
so="$ex/wear-greedy.so"
[ -f "$so" ] || { echo "FAIL: the gc-plugin example did not build wear-greedy.so"; exit 1; }
pl="$top_builddir/tests/out/plugins"
rm -rf "$pl"
mkdir -p "$pl"
cd "$pl"
export SSDSIM_PLUGIN_PATH= # only the modules the test names
fail() { echo "FAIL: plugins: $*"; exit 1; }
model="$models/generic-mlc.json"
# The workload, model settings and seed of examples/gc-plugin/wear_greedy.c.
printf '{"rw": "randwrite", "bs": "4k", "iodepth": 16, "numjobs": 4, "number_ios": 50000}\n' > w.json
set -- --model "$model" --set geometry.blocks_per_plane=64 --set gc.policy=wear-greedy \
    --set gc.span=8 --workload w.json --seed 42 --precondition seq
"$ex/wear_greedy" "$model" from-c.json > from-c.txt || fail "the example program failed"
"$ssdsim" run --plugin "$so" "$@" --json module.json -q > run.log 2>&1 ||
    { cat run.log; fail "run --plugin failed"; }
# Everything but the workload's label ("example" in the program, the file name here) agrees.
printf '\n' >> from-c.json
grep -v '"label":' from-c.json > a.json
grep -v '"label":' module.json > b.json
cmp -s a.json b.json || { diff a.json b.json | head; fail "run --plugin differs from the policy registered from C"; }
grep -q '"gc_policy":	"wear-greedy"' module.json || fail "the results do not name the plugin's policy"
# Without the module the name is unknown.
if "$ssdsim" run "$@" --json none.json -q > none.log 2>&1; then fail "gc.policy=wear-greedy ran without the module"; fi
# The plugin directory: SSDSIM_PLUGIN_PATH names it; `list` shows what it holds.
mkdir -p dir
cp "$so" dir/
SSDSIM_PLUGIN_PATH="$pl/dir" "$ssdsim" list > list.log 2>&1 || { cat list.log; fail "list with SSDSIM_PLUGIN_PATH failed"; }
grep -q '^  wear-greedy ' list.log || fail "list does not show the plugin directory's policy"
"$ssdsim" list > list0.log 2>&1
if grep -q 'wear-greedy' list0.log; then fail "an empty SSDSIM_PLUGIN_PATH still loaded plugins"; fi
# A sweep loads the module in every worker; its manifest names it for `run --manifest`.
printf '{"rw": "randwrite", "bs": "4k", "iodepth": 8, "number_ios": 5000}\n' > s.json
set -- --plugin "$so" --model "$model" --set geometry.blocks_per_plane=64 \
    --set gc.policy=wear-greedy --workload s.json --precondition seq --vary gc.span=1,4,16
"$ssdsim" sweep "$@" --jobs 2 --no-plot --out sweep -q > sweep.log 2>&1 ||
    { cat sweep.log; fail "sweep --plugin failed"; }
[ "$(ls sweep/gc.span-*.json | wc -l)" -eq 3 ] || fail "the sweep did not complete its 3 points"
for f in sweep/gc.span-*.json; do
    grep -q '"gc_policy":	"wear-greedy"' "$f" || fail "$f does not name the plugin's policy"
done
"$ssdsim" sweep "$@" --out sweep --emit manifest.jsonl -q > emit.log 2>&1 || fail "sweep --emit failed"
grep -q "\"plugins\":\[\"$so\"\]" manifest.jsonl || fail "the manifest does not name the module"
"$ssdsim" run --manifest manifest.jsonl --index 2 --json point2.json -q > point.log 2>&1 ||
    { cat point.log; fail "run --manifest of a sweep with a plugin failed"; }
cmp -s point2.json sweep/gc.span-16.json || fail "run --manifest differs from the sweep's point"
# A request source from a module (examples/custom-source) replays as the program replays it.
srcex="$top_builddir/tests/out/examples/custom-source"
[ -f "$srcex/onoff.so" ] || fail "the custom-source example did not build onoff.so"
"$srcex/onoff" "$model" src-c.json > src-c.txt || fail "the onoff program failed"
"$ssdsim" run --plugin "$srcex/onoff.so" --source onoff --model "$model" --seed 42 \
    --precondition seq --json src-module.json -q > src.log 2>&1 || { cat src.log; fail "run --source failed"; }
printf '\n' >> src-c.json
cmp -s src-c.json src-module.json || { diff src-c.json src-module.json | head; fail "run --source differs from the program's replay"; }
"$ssdsim" list --plugin "$srcex/onoff.so" > srclist.log 2>&1 || fail "list --plugin onoff.so failed"
grep -q '^  onoff ' srclist.log || fail "list does not show the module's request source"
# Bad modules: one line naming the file and the reason, exit 1.
printf 'int not_a_plugin(void);\nint not_a_plugin(void) { return 0; }\n' > noentry.c
cat > abi.c << 'EOF'
#include <ssdsim/sys/plugin.h>
static const ssdsim_plugin_module_table table = {SSDSIM_PLUGIN_MODULE_ABI_VERSION + 98,
                                                 sizeof(ssdsim_plugin_module_table), "future",
                                                 NULL, NULL, NULL};
SSDSIM_PLUGIN_MODULE(table)
EOF
cc_mod() { ${CC:-cc} -shared -fPIC ${EXAMPLE_CFLAGS:-} "$1" $(pkg-config --cflags ssdsim) -o "$2"; }
cc_mod noentry.c noentry.so || fail "cannot build noentry.so"
cc_mod abi.c abi.so || fail "cannot build abi.so"
printf 'not a shared object\n' > text.so
expect() { # expect PATTERN ssdsim-arguments...: exit 1 and one line matching PATTERN
    want=$1
    shift
    rc=0
    "$ssdsim" "$@" > bad.out 2> bad.err || rc=$?
    [ "$rc" -eq 1 ] || { cat bad.err; fail "ssdsim $*: exit $rc, expected 1"; }
    [ "$(wc -l < bad.err)" -eq 1 ] || { cat bad.err; fail "ssdsim $*: not one line"; }
    case "$(cat bad.err)" in $want) ;; *) fail "ssdsim $*: got '$(cat bad.err)', expected '$want'" ;; esac
}
set -- --model "$model" --workload w.json
expect 'ssdsim: missing.so: cannot load plugin: No such file or directory' run --plugin missing.so "$@"
expect 'ssdsim: text.so: cannot load plugin: ?*' run --plugin text.so "$@"
expect 'ssdsim: noentry.so: not an ssdsim plugin (no ssdsim_plugin_module symbol)' run --plugin noentry.so "$@"
expect 'ssdsim: abi.so: plugin ABI version 99; this ssdsim supports 1' sweep --plugin abi.so "$@" --vary gc.d=2,3
expect 'ssdsim: noentry.so: not an ssdsim plugin (no ssdsim_plugin_module symbol)' suite quick-matrix --plugin noentry.so --model "$model"
expect 'ssdsim: abi.so: plugin ABI version 99; this ssdsim supports 1' calibrate --plugin abi.so --model "$model"
cp abi.so dir/
SSDSIM_PLUGIN_PATH="$pl/dir" expect "ssdsim: $pl/dir/abi.so: plugin ABI version 99; this ssdsim supports 1" list
# A module met twice is loaded once: the build's module by --plugin (or in a manifest) and its
# installed copy, another file with the same bytes, in the plugin directory.
mkdir -p copy
cp "$so" copy/
SSDSIM_PLUGIN_PATH="$pl/copy" "$ssdsim" list --plugin "$so" > twice.log 2>&1 ||
    { cat twice.log; fail "the same module by --plugin and from the directory was refused"; }
[ "$(grep -c '^  wear-greedy ' twice.log)" -eq 1 ] || fail "the same module twice: not one wear-greedy"
SSDSIM_PLUGIN_PATH="$pl/copy" "$ssdsim" run --manifest manifest.jsonl --index 2 \
    --json point2-copy.json -q > twice.log 2>&1 ||
    { cat twice.log; fail "run --manifest with the manifest's module installed too failed"; }
cmp -s point2-copy.json sweep/gc.span-16.json || fail "run --manifest with the module installed differs"
# A different module registering a name already taken: one line naming both files.
cat > clash.c << 'EOF'
#include <ssdsim/sys/gc.h>
#include <ssdsim/sys/plugin.h>
static uint32_t pick(void *state, const ssdsim_view *v, uint32_t plane)
{
    (void)state;
    return ssdsim_view_fewest_valid(v, plane);
}
static const ssdsim_gc_ops clash = {.abi_version = SSDSIM_PLUGIN_ABI_VERSION,
                                    .struct_size = sizeof(ssdsim_gc_ops), .name = "wear-greedy",
                                    .summary = "another policy of the same name",
                                    .select_victim = pick};
static const ssdsim_gc_ops *const gcs[] = {&clash, NULL};
static const ssdsim_plugin_module_table table = {SSDSIM_PLUGIN_MODULE_ABI_VERSION,
                                                 sizeof(ssdsim_plugin_module_table), "clash",
                                                 NULL, gcs, NULL, NULL};
SSDSIM_PLUGIN_MODULE(table)
EOF
cc_mod clash.c clash.so || fail "cannot build clash.so"
expect "ssdsim: clash.so: cannot register plugin: a GC policy named 'wear-greedy' is already registered by $so, a different module (not the same bytes)" list --plugin "$so" --plugin clash.so
# A module whose list holds the same table twice: named as listed twice, not as a clash.
cat > twice.c << 'EOF'
#include <ssdsim/sys/gc.h>
#include <ssdsim/sys/plugin.h>
static uint32_t pick(void *state, const ssdsim_view *v, uint32_t plane)
{
    (void)state;
    return ssdsim_view_fewest_valid(v, plane);
}
static const ssdsim_gc_ops bad = {.abi_version = SSDSIM_PLUGIN_ABI_VERSION,
                                  .struct_size = sizeof(ssdsim_gc_ops), .name = "bad",
                                  .summary = "listed twice", .select_victim = pick};
static const ssdsim_gc_ops *const gcs[] = {&bad, &bad, NULL};
static const ssdsim_plugin_module_table table = {SSDSIM_PLUGIN_MODULE_ABI_VERSION,
                                                 sizeof(ssdsim_plugin_module_table), "twice",
                                                 NULL, gcs, NULL, NULL};
SSDSIM_PLUGIN_MODULE(table)
EOF
cc_mod twice.c twice.so || fail "cannot build twice.so"
expect "ssdsim: twice.so: cannot register plugin: 'bad' is listed twice in twice.so's .gc list" list --plugin twice.so
# A manifest's module that cannot be loaded is named with the manifest's line; an empty
# manifest holds no point.
sed "s|\"$so\"|\"$pl/gone.so\"|" manifest.jsonl > gone.jsonl
expect "ssdsim: gone.jsonl:3: $pl/gone.so: cannot load plugin: No such file or directory" run --manifest gone.jsonl --index 2
: > empty.jsonl
expect 'ssdsim: empty.jsonl is empty: it holds no point (no point 0)' run --manifest empty.jsonl --index 0
echo "plugin modules: run, run --source, sweep, run --manifest, list and the bad-module lines checked"
