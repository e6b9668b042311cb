#!/bin/sh
# gen-api.sh: write the API reference of libssdsim as Markdown to stdout, from the doc comments of
# the public headers (libssdsim/include/ssdsim/ssdsim.h, then trace.h, theory.h, the other
# ssdsim/*.h in name order (the methods layer), sys/plugin.h, then the other sys/*.h). doc/api.md
# is its output; after changing a header, regenerate it from the top of the source tree with
#     sh doc/gen-api.sh > doc/api.md
# An optional argument names the top of the source tree (default: the parent of this script's
# directory). Needs only a POSIX sh and awk (tested with mawk, Debian's default awk).
#
# It reads the headers as they are written:
#   - the first comment of a header introduces its section;
#   - a line of dashes in a comment followed by a one-line comment starts a group ("Workloads");
#   - a doc comment (or a plain comment directly above code) and the declarations after it, up to
#     the next blank line or comment, make one entry; every function, type and macro declared in
#     it is named in the entry's heading and gets an anchor;
#   - member comments (trailing ones and ones above a member) of structs, enums and macros become
#     a list under the declaration, which is shown without them; SSDSIM_API is dropped;
#   - the SSDSIM_ERRORS X-macro is expanded into enum ssdsim_errcode, with a table of the codes;
#   - in the text, names of the API become links to their entries, and @return starts a paragraph.
# An exported function (a line starting with SSDSIM_API) with no doc comment is reported on stderr
# and makes the exit status 1 (the output is still complete).
set -eu
LC_ALL=C
export LC_ALL

if [ $# -gt 0 ]; then
    top=$1
else
    top=$(cd "$(dirname "$0")/.." && pwd)
fi
inc="$top/libssdsim/include/ssdsim"
[ -f "$inc/ssdsim.h" ] || {
    echo "gen-api.sh: $inc/ssdsim.h not found (give the top of the source tree)" >&2
    exit 2
}
set -- "$inc/ssdsim.h"
if [ -f "$inc/trace.h" ]; then
    set -- "$@" "$inc/trace.h"
fi
if [ -f "$inc/theory.h" ]; then
    set -- "$@" "$inc/theory.h"
fi
for h in "$inc"/*.h; do
    case ${h##*/} in
    ssdsim.h | trace.h | theory.h) ;;
    *) [ ! -f "$h" ] || set -- "$@" "$h" ;;
    esac
done
if [ -f "$inc/sys/plugin.h" ]; then
    set -- "$@" "$inc/sys/plugin.h"
fi
for h in "$inc"/sys/*.h; do
    if [ -f "$h" ] && [ "$h" != "$inc/sys/plugin.h" ]; then
        set -- "$@" "$h"
    fi
done

exec awk -v inc="$inc/" '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function lastindex(s, c,    i, p) {
    p = 0
    for (i = 1; i <= length(s); i++)
        if (substr(s, i, 1) == c)
            p = i
    return p
}

# The text of one line of a comment, without the comment markers and a leading "*".
function ctext(s) {
    s = trim(s)
    if (substr(s, 1, 4) == "/**<")
        s = substr(s, 5)
    else if (substr(s, 1, 3) == "/**")
        s = substr(s, 4)
    else if (substr(s, 1, 2) == "/*")
        s = substr(s, 3)
    else if (s == "*" || substr(s, 1, 2) == "* ")
        s = substr(s, 2)
    sub(/[ \t]*\*\/[ \t]*$/, "", s)
    return trim(s)
}

function stripcomments(s,    p, q, out) {
    out = ""
    while ((p = index(s, "/*")) > 0) {
        out = out substr(s, 1, p - 1)
        s = substr(s, p + 2)
        q = index(s, "*/")
        if (q == 0)
            return out
        s = substr(s, q + 2)
    }
    return out s
}

# ------------------------------------------------------------------ parsing

function startfile() {
    nf++
    flabel[nf] = "ssdsim/" substr(FILENAME, length(inc) + 1)
    fintro[nf] = ""
    st = "start"
    collecting = 0
    havepdoc = 0
    curgroup = 0
}

function additem(type, id) {
    nitem++
    itype[nitem] = type
    iid[nitem] = id
    ifile[nitem] = nf
}

function startentry() {
    ne++
    nn[ne] = 0
    nm[ne] = 0
    ecode[ne] = ""
    edoc[ne] = pdoc
    egroup[ne] = curgroup
    errcode[ne] = 0
    collecting = 1
    havepdoc = 0
    depth = 0
    incont = 0
    inmemc = 0
    inmdoc = 0
    pmem = ""
    stmt = ""
    dedent = 0
    additem("e", ne)
}

function finish() {
    if (!collecting)
        return
    collecting = 0
    if (nn[ne] == 0) {
        # Nothing declared (an orphan comment): drop it.
        nitem--
        ne--
    }
}

function addname(n, disp,    k) {
    # A getter macro has the name of the function it stands for: name it once.
    for (k = 1; k <= nn[ne]; k++)
        if (ename[ne, k] == n)
            return
    nn[ne]++
    ename[ne, nn[ne]] = n
    edisp[ne, nn[ne]] = disp
    known[n] = n
}

function addmember(n, doc) {
    nm[ne]++
    mname[ne, nm[ne]] = n
    mdoc[ne, nm[ne]] = doc
}

function membername(code,    n, parts, k, i, out, x) {
    n = trim(code)
    if (index(n, "(*") > 0) {
        n = substr(n, index(n, "(*") + 2)
        sub(/\).*$/, "", n)
        return trim(n)
    }
    sub(/[;,]$/, "", n)
    sub(/[ \t]*=.*$/, "", n)
    k = split(n, parts, ",")
    out = ""
    for (i = 1; i <= k; i++) {
        x = trim(parts[i])
        sub(/\[.*$/, "", x)
        sub(/^.*[ *]/, "", x)
        out = out (out == "" ? "" : ", ") x
    }
    return out
}

# The enumerators of an enum declared in statement s link to its entry.
function enumerators(s, anchor,    b, k, parts, i, x) {
    if (index(s, "{") == 0)
        return
    b = substr(s, index(s, "{") + 1)
    b = substr(b, 1, lastindex(b, "}") - 1)
    k = split(b, parts, ",")
    for (i = 1; i <= k; i++) {
        x = trim(parts[i])
        sub(/[ \t]*=.*$/, "", x)
        if (x ~ /^[A-Z][A-Z0-9_]*$/)
            known[x] = anchor
    }
}

# One complete declaration: record the names it declares.
function endstmt(s,    n, p) {
    s = trim(stripcomments(s))
    gsub(/[ \t]+/, " ", s)
    if (s == "")
        return
    if (s ~ /^#define /) {
        n = substr(s, 9)
        sub(/[ (].*$/, "", n)
        addname(n, n)
        return
    }
    if (s ~ /^struct [A-Za-z0-9_]+ ?;$/)
        return
    if (s ~ /^typedef /) {
        if (index(s, "{") == 0 && index(s, "(*") > 0) {
            n = substr(s, index(s, "(*") + 2)
            sub(/\).*$/, "", n)
            n = trim(n)
        } else {
            n = s
            p = lastindex(n, "}")
            if (p > 0)
                n = substr(n, p + 1)
            sub(/;$/, "", n)
            n = trim(n)
            sub(/^.*[ *]/, "", n)
        }
        addname(n, n)
        if (s ~ /^typedef enum/)
            enumerators(s, n)
        return
    }
    if (s ~ /^enum [A-Za-z0-9_]+ ?\{/) {
        n = substr(s, 6)
        sub(/[ {].*$/, "", n)
        addname(n, "enum " n)
        if (index(s, "SSDSIM_ERRORS(") > 0)
            errcode[ne] = 1
        else
            enumerators(s, n)
        return
    }
    p = index(s, "(")
    if (p == 0)
        return
    n = trim(substr(s, 1, p - 1))
    sub(/^.*[ *]/, "", n)
    addname(n, n)
}

# An X(num, NAME, "message") line of the SSDSIM_ERRORS list.
function xline(t,    p) {
    t = trim(t)
    t = substr(t, 3)
    sub(/\)[ \t]*$/, "", t)
    p = index(t, ",")
    nerr++
    errnum[nerr] = trim(substr(t, 1, p - 1))
    t = substr(t, p + 1)
    p = index(t, ",")
    errname[nerr] = "SSDSIM_E" trim(substr(t, 1, p - 1))
    t = trim(substr(t, p + 1))
    gsub(/^"|"$/, "", t)
    errmsg[nerr] = t
}

function body(line,    cont, t, p, c, code, tmp, opens, closes) {
    cont = 0
    if (line ~ /\\[ \t]*$/) {
        cont = 1
        sub(/[ \t]*\\[ \t]*$/, "", line)
    }
    if (inmemc) {
        mdoc[ne, nm[ne]] = mdoc[ne, nm[ne]] " " ctext(line)
        if (line ~ /\*\//)
            inmemc = 0
        incont = cont
        return
    }
    if (inmdoc) {
        pmem = pmem " " ctext(line)
        if (line ~ /\*\//)
            inmdoc = 0
        incont = cont
        return
    }
    t = trim(line)
    if (substr(t, 1, 3) == "/**" && substr(t, 1, 4) != "/**<") {
        pmem = ctext(t)
        if (t !~ /\*\//)
            inmdoc = 1
        incont = cont
        return
    }
    code = line
    p = index(code, "/**<")
    if (p > 0) {
        c = substr(code, p)
        code = rtrim(substr(code, 1, p - 1))
        addmember(membername(code), ctext(c))
        if (c !~ /\*\//)
            inmemc = 1
    } else if (pmem != "") {
        addmember(membername(code), pmem)
        pmem = ""
    }
    code = rtrim(code)
    if (code ~ /^SSDSIM_API /) {
        code = substr(code, 12)
        dedent = 1
    } else if (dedent && substr(code, 1, 11) == "           ") {
        code = substr(code, 12)
    }
    if (code ~ /^[ \t]*X\(/)
        xline(code)
    ecode[ne] = ecode[ne] (ecode[ne] == "" ? "" : "\n") code (cont ? " \\" : "")
    stmt = stmt " " code
    tmp = code
    opens = gsub(/\{/, "{", tmp)
    closes = gsub(/\}/, "}", tmp)
    depth += opens - closes
    incont = cont
    if (depth == 0 && !cont && (code ~ /;[ \t]*$/ || trim(stmt) ~ /^#define /)) {
        endstmt(stmt)
        stmt = ""
        dedent = 0
    }
}

FNR == 1 { startfile() }

{
    line = $0
    sub(/\r$/, "", line)
    if (st == "start") {
        if (line ~ /^[ \t]*\/\*/) {
            fintro[nf] = ctext(line)
            st = line ~ /\*\// ? "top" : "intro"
        }
        next
    }
    if (st == "intro") {
        fintro[nf] = fintro[nf] "\n" ctext(line)
        if (line ~ /\*\//)
            st = "top"
        next
    }
    if (st == "doc") {
        pdoc = pdoc "\n" ctext(line)
        if (line ~ /\*\//)
            st = "top"
        next
    }
    if (st == "divider") {
        ng++
        gtitle[ng] = ctext(line)
        curgroup = ng
        additem("g", ng)
        st = "top"
        next
    }
    if (collecting && (depth > 0 || incont || inmemc || inmdoc)) {
        body(line)
        next
    }
    if (line ~ /^[ \t]*$/) {
        finish()
        havepdoc = 0
        next
    }
    if (line ~ /^\/\* *-+ *\*\/$/) {
        finish()
        havepdoc = 0
        st = "divider"
        next
    }
    if (line ~ /^[ \t]*\/\*/) {
        finish()
        pdoc = ctext(line)
        havepdoc = 1
        if (line !~ /\*\//)
            st = "doc"
        next
    }
    if (collecting && trim(stmt) == "" && line ~ /^#/ && line !~ /^#define /) {
        finish()
        next
    }
    if (!collecting && !havepdoc) {
        if (line ~ /^SSDSIM_API /) {
            n = line
            sub(/\(.*$/, "", n)
            sub(/^.*[ *]/, "", n)
            printf "gen-api.sh: %s:%d: %s has no doc comment\n", FILENAME, FNR, n > "/dev/stderr"
            undocumented++
        }
        next
    }
    if (!collecting)
        startentry()
    body(line)
}

# ------------------------------------------------------------------ rendering

function hid(label,    s) { s = label; gsub(/[\/.]/, "-", s); return s }

# A header comment without its "name.h: " prefix, starting with a capital.
function intro(t) {
    sub(/^[^:\n]*: */, "", t)
    return toupper(substr(t, 1, 1)) substr(t, 2)
}

# The first sentence of a header comment.
function summary(t,    p) {
    t = intro(t)
    p = index(t, "\n\n")
    if (p > 0)
        t = substr(t, 1, p - 1)
    gsub(/\n/, " ", t)
    p = index(t, ". ")
    if (p > 0)
        t = substr(t, 1, p)
    return t
}

function esc(t) {
    gsub(/\*/, "\\*", t)
    gsub(/</, "\\&lt;", t)
    return t
}

function tokrender(tok,    base) {
    if (tok ~ /\.h$/)
        return (tok in header) ? "[`" tok "`](#" hid(tok) ")" : "`" tok "`"
    if (tok ~ /^doc\//)
        return "[" tok "](" substr(tok, 5) ")"
    base = tok
    sub(/\*$/, "", base)
    sub(/\(\)$/, "", base)
    sub(/\..*$/, "", base)
    return (base in known) ? "[`" tok "`](#" known[base] ")" : "`" tok "`"
}

# Plain text: escape what Markdown would misread, and turn names of the API into code and links.
function deco(t,    out) {
    out = ""
    while (match(t, /(ssdsim|SSDSIM)_[A-Za-z0-9_]*(\.[a-z_]+)?(\(\))?\*?|ssdsim\/[a-z\/]+\.h|doc\/[a-z]+\.md/)) {
        out = out esc(substr(t, 1, RSTART - 1)) tokrender(substr(t, RSTART, RLENGTH))
        t = substr(t, RSTART + RLENGTH)
    }
    return out esc(t)
}

function codelink(c,    base) {
    base = c
    sub(/\(\)$/, "", base)
    sub(/\..*$/, "", base)
    return (base in known) ? "[`" c "`](#" known[base] ")" : "`" c "`"
}

function inline(s,    out, p) {
    out = ""
    while ((p = index(s, "`")) > 0) {
        out = out deco(substr(s, 1, p - 1))
        s = substr(s, p + 1)
        p = index(s, "`")
        if (p == 0) {
            out = out "\\`"
            break
        }
        out = out codelink(substr(s, 1, p - 1))
        s = substr(s, p + 1)
    }
    return out deco(s)
}

# Comment text as Markdown: @return starts a paragraph of its own.
function prose(doc,    k, lines, i, l, p, out, blank) {
    k = split(doc, lines, "\n")
    out = ""
    blank = 1
    for (i = 1; i <= k; i++) {
        l = lines[i]
        while ((p = index(l, "@return")) > 0) {
            if (trim(substr(l, 1, p - 1)) != "") {
                out = out trim(substr(l, 1, p - 1)) "\n"
                blank = 0
            }
            if (!blank)
                out = out "\n"
            out = out "\001"
            blank = 2
            l = trim(substr(l, p + 7))
        }
        if (l == "") {
            if (blank == 2)
                continue
            if (!blank)
                out = out "\n"
            blank = 1
            continue
        }
        out = out l "\n"
        blank = 0
    }
    sub(/\n+$/, "", out)
    out = inline(out)
    gsub(/\001/, "**Returns:** ", out)
    return out
}

function heading(e, level,    i, a, d) {
    a = ""
    d = ""
    for (i = 1; i <= nn[e]; i++) {
        a = a "<a id=\"" ename[e, i] "\"></a>"
        d = d (i > 1 ? ", " : "") "`" edisp[e, i] "`"
    }
    return level " " a d
}

function members(e,    i, k, parts, j, names) {
    for (i = 1; i <= nm[e]; i++) {
        k = split(mname[e, i], parts, ", ")
        names = ""
        for (j = 1; j <= k; j++)
            names = names (j > 1 ? ", " : "") "`" parts[j] "`"
        print "- " names ": " prose(trim(mdoc[e, i]))
    }
    if (nm[e] > 0)
        print ""
}

function errcode_block(e,    i) {
    print "```c"
    print "enum " ename[e, 1] " {"
    for (i = 1; i <= nerr; i++)
        print "    " errname[i] " = " errnum[i] ","
    print "};"
    print "```"
    print ""
}

function contents(f,    i, line, open, e, j, sep) {
    line = ""
    open = 0
    for (i = 1; i <= nitem; i++)
        if (ifile[i] == f && itype[i] == "g")
            open = 1
    for (i = 1; i <= nitem; i++) {
        if (ifile[i] != f)
            continue
        if (itype[i] == "g") {
            if (line != "")
                print (open ? "- " : "") line
            line = "**" gtitle[iid[i]] "**:"
            continue
        }
        e = iid[i]
        for (j = 1; j <= nn[e]; j++) {
            sep = (line == "" || line ~ /:$/) ? (line == "" ? "" : " ") : " · "
            line = line sep "[`" ename[e, j] "`](#" ename[e, j] ")"
        }
    }
    if (line != "")
        print (open ? "- " : "") line
    print ""
}

END {
    for (f = 1; f <= nf; f++)
        header[flabel[f]] = 1

    print "# libssdsim API reference"
    print ""
    print "<!-- Generated by doc/gen-api.sh from the public headers: do not edit by hand. -->"
    print ""
    print "This file is generated from the doc comments of the public headers by"
    print "[gen-api.sh](gen-api.sh); do not edit it by hand. After changing a header, regenerate it from"
    print "the top of the source tree with `sh doc/gen-api.sh > doc/api.md`."
    print ""
    print "How to use the library, with examples: [the guide](guide.md#using-the-library). Writing FTLs,"
    print "GC policies and wear levelers: [plugins.md](plugins.md). A program that only runs simulations"
    print "includes `<ssdsim/ssdsim.h>` alone; the `ssdsim/sys/` headers are for plugin authors."
    print ""
    print "Headers:"
    print ""
    for (f = 1; f <= nf; f++) {
        print "- [`" flabel[f] "`](#" hid(flabel[f]) "): " inline(summary(fintro[f]))
    }
    print ""

    for (f = 1; f <= nf; f++) {
        print "## <a id=\"" hid(flabel[f]) "\"></a>`" flabel[f] "`"
        print ""
        print prose(intro(fintro[f]))
        print ""
        contents(f)
        ingroup = 0
        for (i = 1; i <= nitem; i++) {
            if (ifile[i] != f)
                continue
            if (itype[i] == "g") {
                print "### " gtitle[iid[i]]
                print ""
                ingroup = 1
                continue
            }
            e = iid[i]
            print heading(e, ingroup ? "####" : "###")
            print ""
            if (errcode[e]) {
                errcode_block(e)
            } else {
                print "```c"
                print ecode[e]
                print "```"
                print ""
            }
            d = prose(edoc[e])
            if (d != "") {
                print d
                print ""
            }
            members(e)
            if (errcode[e]) {
                print "| Code | Value | Message (`ssdsim_strerror`) |"
                print "|------|------:|---------|"
                for (k = 1; k <= nerr; k++)
                    print "| `" errname[k] "` | " errnum[k] " | " errmsg[k] " |"
                print ""
            }
        }
    }
    if (undocumented)
        exit 1
}
' "$@"
