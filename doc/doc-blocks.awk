# doc-blocks.awk: splits a Markdown file into its fenced code blocks, for tests/test_docs.sh and
# doc/regen-samples.sh. For the N-th block it writes the lines between the fences to OUT/N.body
# and prints one line to standard output:
#     N US LINE US LANG US MARKER
# LINE is the line number of the opening fence, LANG what follows the ``` (empty for a plain
# block), MARKER the text of a `<!-- doctest: ... -->` or `<!-- sample... -->` comment on the
# line right before the fence (without `<!-- ` and ` -->`), or empty. Every occurrence of
# `<!-- timing... -->` and `<!-- simulated... -->` in the text (outside code blocks) is printed too:
#     T US LINE US KIND US MARKER
# (US is the ASCII unit separator, octal 037: a tab would let `read` merge empty fields.)
# Usage: awk -v out=DIR -f doc/doc-blocks.awk FILE.md
BEGIN { inb = 0; n = 0; marker = "" }
inb {
    if ($0 ~ /^```[ \t]*$/) { inb = 0; close(body); next }
    print > body
    next
}
/^```/ {
    n++
    lang = substr($0, 4)
    body = out "/" n ".body"
    printf "" > body
    printf "%d\037%d\037%s\037%s\n", n, NR, lang, marker
    marker = ""; inb = 1
    next
}
/^<!-- (doctest|sample)[ :].*-->[ \t]*$/ {
    marker = $0
    sub(/^<!-- /, "", marker); sub(/ *-->[ \t]*$/, "", marker)
    next
}
{
    marker = ""
    line = $0
    gsub(/`[^`]*`/, "", line)       # a marker in a code span is an example, not a marker
    while (match(line, /<!-- (timing|simulated)[^>]*-->/)) {
        m = substr(line, RSTART + 5, RLENGTH - 9)
        kind = m; sub(/[ :].*/, "", kind)
        printf "T\037%d\037%s\037%s\n", NR, kind, m
        line = substr(line, RSTART + RLENGTH)
    }
}
