#!/bin/sh
# test_symbols.sh: the shared library exports the public API and nothing else. Every defined
# dynamic symbol (functions and data) must start with ssdsim_; none may be an internal
# ssdsim__ function, which the build hides (-fvisibility=hidden, SSDSIM_API on exports). The
# symbols the linker adds to every shared object (_init, _fini, __bss_start, _edata, _end) and
# version definitions are ignored, and so, in a --enable-coverage build, are those of the
# compiler's gcov runtime (libgcov.a, linked into the library, exports a few: __gcov_master,
# mangle_path). Every function the public headers declare SSDSIM_API must be exported too: a
# name that is also a macro (the result getters that pass sizeof) needs its function defined
# as `int (name)(...)`, or a function pointer, `(name)(...)` and ctypes fail to link. (Lines
# of a macro, such as SSDSIM_PLUGIN_MODULE's ssdsim_plugin_module, declare a module's symbol.)
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
libdir="$top_builddir/libssdsim/.libs"
lib=
for f in "$libdir"/libssdsim.so.*.*.* "$libdir"/libssdsim.so.* "$libdir"/libssdsim.so; do
    if [ -f "$f" ] && [ ! -h "$f" ]; then
        lib=$f
        break
    fi
done
if [ -z "$lib" ]; then
    # A --disable-shared build has nothing to check.
    echo "SKIP: no shared library under $libdir"
    exit 77
fi
command -v nm > /dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }
list=$(nm -D --defined-only "$lib") || { echo "FAIL: nm -D $lib failed"; exit 1; }
# Lines are "ADDRESS TYPE NAME", NAME perhaps with @VERSION or @@VERSION after it. Type A marks
# version definitions (absolute symbols), which are not code or data.
names=$(printf '%s\n' "$list" | awk 'NF >= 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' |
    grep -v -x -e _init -e _fini -e __bss_start -e _edata -e _end || true)
runtime=0
if printf '%s\n' "$names" | grep -q '^__gcov_'; then
    gcov=$(${CC:-cc} -print-file-name=libgcov.a 2> /dev/null || true)
    if [ -f "$gcov" ]; then
        before=$(printf '%s\n' "$names" | grep -c . || true)
        names=$({
            nm --defined-only -g "$gcov" 2> /dev/null | awk 'NF >= 3 { print $3 }'
            echo '#names'
            printf '%s\n' "$names"
        } | awk '/^#names$/ { n = 1; next } !n { rt[$0] = 1; next } !($0 in rt)')
        after=$(printf '%s\n' "$names" | grep -c . || true)
        runtime=$((before - after))
    fi
fi
n=$(printf '%s\n' "$names" | grep -c . || true)
bad=$(printf '%s\n' "$names" | grep . | grep -v '^ssdsim_' || true)
internal=$(printf '%s\n' "$names" | grep '^ssdsim__' || true)
status=0
if [ -n "$bad" ]; then
    echo "FAIL: $(basename "$lib") exports symbols outside the ssdsim_ namespace:"
    printf '  %s\n' $bad
    status=1
fi
if [ -n "$internal" ]; then
    echo "FAIL: $(basename "$lib") exports internal ssdsim__ symbols (declare them in a private"
    echo "header without SSDSIM_API):"
    printf '  %s\n' $internal
    status=1
fi
if [ "$n" -eq 0 ]; then
    echo "FAIL: $(basename "$lib") exports no symbols at all"
    status=1
fi
declared=$(cat "$top_srcdir"/libssdsim/include/ssdsim/*.h \
    "$top_srcdir"/libssdsim/include/ssdsim/sys/*.h | grep 'SSDSIM_API' | grep -v '\\$' |
    sed -n 's/.*[ *]\(ssdsim_[a-z0-9_]*\)(.*/\1/p' | sort -u)
missing=$(printf '%s\n' "$declared" | grep -v -x -F "$(printf '%s\n' "$names")" || true)
if [ -n "$missing" ]; then
    echo "FAIL: $(basename "$lib") does not export functions its headers declare SSDSIM_API:"
    printf '  %s\n' $missing
    status=1
fi
[ "$runtime" -eq 0 ] || echo "$runtime symbols of the gcov runtime ($gcov) ignored"
[ "$status" -ne 0 ] || echo "$n exported symbols, all ssdsim_* ($(basename "$lib"))"
exit "$status"
