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
        case "$prog" in *.c | *.h | */Makefile) continue ;; esac
        "$prog" "$models/generic-mlc.json" || { echo "FAIL: example $name: $prog failed"; exit 1; }
    done
    n=$((n + 1))
done
echo "$n examples built against the installed library and run"
[ "$n" -gt 0 ]
