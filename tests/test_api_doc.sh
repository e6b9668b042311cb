#!/bin/sh
# test_api_doc.sh: doc/api.md is what doc/gen-api.sh writes from the public headers now, so the
# reference never lags a header change, and every exported function has a doc comment (gen-api.sh
# fails otherwise). After changing a header: sh doc/gen-api.sh > doc/api.md
set -eu
srcdir=${srcdir:-.}
tmp=$(mktemp "${TMPDIR:-/tmp}/ssdsim-api.XXXXXX")
trap 'rm -f "$tmp"' EXIT
if ! sh "$srcdir/doc/gen-api.sh" "$srcdir" > "$tmp"; then
    echo "FAIL: doc/gen-api.sh reports an undocumented function (see above)"
    exit 1
fi
if ! diff -u "$srcdir/doc/api.md" "$tmp"; then
    echo "FAIL: doc/api.md is out of date: run sh doc/gen-api.sh > doc/api.md"
    exit 1
fi
echo "PASS: doc/api.md matches the headers"
