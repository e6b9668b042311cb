#!/bin/sh
# test_fio_agree.sh: does ssdsim judge fio job files as fio does?
#
# Every job file in tests/data/fio and examples/jobs is given to fio (fio --parse-only FILE) and
# to ssdsim (test_jobfile --check FILE: load it, then check it against a 1 TiB device, as a run
# would). Each file's first line may say what to expect:
#     ; expect: valid                   both accept it (also when the line is missing)
#     ; expect: invalid                 both refuse it
#     ; expect: invalid-ssdsim REASON   fio accepts it, ssdsim refuses it on purpose
#     ; expect: valid-ssdsim REASON     fio refuses it, ssdsim accepts it
# The last two record the known differences (doc/fio.md explains each); the test fails when
# either program's verdict is not the expected one, so a change on either side shows.
#
# fio is looked up on PATH (or $FIO); without it the test is skipped (exit 77). fio parses
# without opening the files the jobs name (filename=/dev/nvme0n1 needs no such device).
set -u

: "${top_srcdir:=.}"
: "${top_builddir:=.}"
FIO=${FIO:-fio}
if ! command -v "$FIO" >/dev/null 2>&1; then
    echo "fio not found: skipping the comparison with fio (apt-get install fio)"
    exit 77
fi
CHECK="$top_builddir/tests/test_jobfile"
if [ ! -x "$CHECK" ]; then
    echo "$CHECK is not built"
    exit 99
fi

# The fixtures' ${VAR}s (env.fio, env-unset.fio).
SSDSIM_TEST_BS=8k
export SSDSIM_TEST_BS
unset SSDSIM_TEST_UNSET

# fio writes nothing with --parse-only, but run it in the build tree all the same.
work="$top_builddir/tests/out/fio-agree"
mkdir -p "$work" || exit 99

pass=0
fail=0
for f in "$top_srcdir"/tests/data/fio/*.fio "$top_srcdir"/examples/jobs/*.fio; do
    [ -f "$f" ] || continue
    expect=$(sed -n '1s/^; expect: *\([a-z-]*\).*/\1/p' "$f")
    [ -n "$expect" ] || expect=valid
    if (cd "$work" && "$FIO" --parse-only "$f") >"$work/fio.log" 2>&1; then
        fio=valid
    else
        fio=invalid
    fi
    if "$CHECK" --check "$f" >"$work/ssdsim.log" 2>&1; then
        ssdsim=valid
    else
        ssdsim=invalid
    fi
    case $expect in
    valid) want_fio=valid want_ssdsim=valid ;;
    invalid) want_fio=invalid want_ssdsim=invalid ;;
    invalid-ssdsim) want_fio=valid want_ssdsim=invalid ;;
    valid-ssdsim) want_fio=invalid want_ssdsim=valid ;;
    *)
        echo "FAIL $f: unknown expectation '$expect'"
        fail=$((fail + 1))
        continue
        ;;
    esac
    name=${f#"$top_srcdir"/}
    if [ "$fio" = "$want_fio" ] && [ "$ssdsim" = "$want_ssdsim" ]; then
        echo "ok   $name: fio $fio, ssdsim $ssdsim"
        pass=$((pass + 1))
    else
        echo "FAIL $name: expected fio $want_fio and ssdsim $want_ssdsim, got fio $fio and" \
            "ssdsim $ssdsim"
        sed 's/^/     fio: /' "$work/fio.log"
        sed 's/^/     ssdsim: /' "$work/ssdsim.log"
        fail=$((fail + 1))
    fi
done
echo "$pass job files judged as expected by fio ($("$FIO" --version)) and ssdsim, $fail not"
[ "$fail" -eq 0 ]
