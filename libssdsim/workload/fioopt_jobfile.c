/* fioopt_jobfile.c: the values of a fio job file that fio would read differently from the
 * option table (fioopt.c), refused so that a job file means the same to ssdsim and to fio: IEC
 * prefixes ("4KiB", which fio reads in powers of 1000), fractions fio drops ("1.5g", "1.5s"),
 * time units fio does not know (ns, nsec, min) and fio's arithmetic in parentheses. The JSON
 * reading of the same text (4096 bytes, 1.5 GiB, ...) is kept for JSON workloads.
 */
#include "workload/fioval.h"
#include "workload/workload.h"

#include <ctype.h>
#include <string.h>

int ssdsim__fio_check_jobfile_value(const char *key, const char *value, char *errbuf, size_t errlen)
{
    enum ssdsim__optkind kind = 0;
    if (!value || !ssdsim__fio_option_lookup(key, &kind))
        return 0;
    bool numeric =
        kind == SSDSIM__OPTKIND_INT || kind == SSDSIM__OPTKIND_SIZE || kind == SSDSIM__OPTKIND_TIME;
    if (!numeric && kind != SSDSIM__OPTKIND_MIXED)
        return 0;
    const char *s = value;
    size_t len = strlen(s);
    ssdsim__fio_trim(&s, &len);
    if (numeric && len > 0 && s[0] == '(') {
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s, len);
        return ssdsim__fio_fail(
            errbuf, errlen,
            "fio's arithmetic expressions ('%s') are not supported: write the value", q.text);
    }
    for (size_t i = 0; i < len;) {
        /* A number starts at a digit that does not continue a word ("nvme0n1") or a number. */
        if (!isdigit((unsigned char)s[i]) ||
            (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '_'))) {
            i++;
            continue;
        }
        size_t start = i;
        if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
            for (i += 2; i < len && isxdigit((unsigned char)s[i]); i++)
                ;
            continue;
        }
        while (i < len && isdigit((unsigned char)s[i]))
            i++;
        if (i + 1 < len && s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
            for (i++; i < len && isdigit((unsigned char)s[i]); i++)
                ;
            if (kind != SSDSIM__OPTKIND_MIXED) {
                size_t end = i;
                while (end < len && (isalpha((unsigned char)s[end]) || s[end] == '%'))
                    end++;
                struct ssdsim__fio_quoted q = ssdsim__fio_quote(s + start, end - start);
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "fio drops the fraction of '%s' (it reads 1.5g as 1 byte, 1.5s as 1 "
                    "s): write a whole number, with a smaller unit if needed",
                    q.text);
            }
        }
        size_t unit = i;
        while (i < len && isalpha((unsigned char)s[i]))
            i++;
        size_t ulen = i - unit;
        struct ssdsim__fio_quoted q = ssdsim__fio_quote(s + start, i - start);
        if (kind == SSDSIM__OPTKIND_TIME) {
            if (ssdsim__fio_word_eq(s + unit, ulen, "ns") ||
                ssdsim__fio_word_eq(s + unit, ulen, "nsec") ||
                ssdsim__fio_word_eq(s + unit, ulen, "min"))
                return ssdsim__fio_fail(
                    errbuf, errlen,
                    "fio does not know the unit of '%s' (it knows us, ms, s, m, h, d)", q.text);
        } else if (ulen >= 2 && strchr("kmgtpKMGTP", s[unit]) &&
                   (s[unit + 1] == 'i' || s[unit + 1] == 'I')) {
            return ssdsim__fio_fail(
                errbuf, errlen,
                "fio reads '%s' in powers of 1000 (with its default kb_base=1024 the IEC "
                "prefixes mean 10^3, 10^6, ...): write %.*s%c for powers of 1024",
                q.text, (int)(unit - start), s + start, tolower((unsigned char)s[unit]));
        }
    }
    return 0;
}
