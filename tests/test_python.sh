#!/bin/sh
# test_python.sh: the Python package (libssdsim/python/ssdsim) against the library just built:
# its unit tests in tests/python/, then the walkthrough of doc/python.md run as written.
# Skipped (exit 77) without python3. With a sanitizer build of the library, python3 itself is
# not instrumented: the sanitizer runtimes are preloaded and leak detection is off (the
# interpreter keeps memory to its exit by design; the C tests check the library's leaks).
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
command -v python3 > /dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
lib="$top_builddir/libssdsim/.libs/libssdsim.so.1"
[ -f "$lib" ] || { echo "no shared library at $lib"; exit 1; }
SSDSIM_LIBRARY=$lib
PYTHONPATH="$top_srcdir/libssdsim/python${PYTHONPATH:+:$PYTHONPATH}"
SSDSIM_MODELS="$top_srcdir/models"
PYTHONDONTWRITEBYTECODE=1
export SSDSIM_LIBRARY PYTHONPATH SSDSIM_MODELS PYTHONDONTWRITEBYTECODE
case "${EXAMPLE_CFLAGS:-}" in
*-fsanitize=*)
    cc=${CC:-cc}
    LD_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export LD_PRELOAD ASAN_OPTIONS
    ;;
esac
out="$top_builddir/tests/out/python"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
python3 -m unittest discover -s "$top_srcdir/tests/python" -p 'test_*.py' 2>&1
# The walkthrough: every ```python block of doc/python.md in order, in one interpreter.
awk '/^```python$/{on=1; next} /^```$/{on=0} on' "$top_srcdir/doc/python.md" > walkthrough.py
(cd "$top_srcdir" && python3 "$out/walkthrough.py") > walkthrough.out 2>&1 ||
    { cat walkthrough.out; exit 1; }
echo "doc/python.md walkthrough: $(grep -c . walkthrough.py) lines ran"
