/* error.c: error codes, their names and messages (from the X-macro list in ssdsim.h), the
 * helpers that fill a caller-owned ssdsim_error with a one-line message, and the log handler. */
#include "common.h"

#include <stdio.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

const char *ssdsim_strerror(int code)
{
    switch (code) {
#define SSDSIM__ERR_MSG(num, name, msg)                                                           \
    case num:                                                                                      \
        return msg;
        SSDSIM_ERRORS(SSDSIM__ERR_MSG)
#undef SSDSIM__ERR_MSG
    }
    return "unknown error";
}

const char *ssdsim_errname(int code)
{
    switch (code) {
#define SSDSIM__ERR_NAME(num, name, msg)                                                          \
    case num:                                                                                      \
        return "SSDSIM_E" #name;
        SSDSIM_ERRORS(SSDSIM__ERR_NAME)
#undef SSDSIM__ERR_NAME
    }
    return "SSDSIM_E?";
}

/* Copy `src` with its control characters written as C escapes (\n, \t, \r, \xHH), so that a
 * message quoting the input (a JSON key with a newline in it, say) stays on one line. The copy
 * is cut short, never in the middle of an escape, when `cap` is reached. */
static void escape_controls(char *dst, size_t cap, const char *src)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
        char esc[5];
        if (*p == '\n')
            memcpy(esc, "\\n", 3);
        else if (*p == '\t')
            memcpy(esc, "\\t", 3);
        else if (*p == '\r')
            memcpy(esc, "\\r", 3);
        else if (*p < 0x20 || *p == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        else
            esc[0] = (char)*p, esc[1] = '\0';
        size_t len = strlen(esc);
        if (n + len >= cap)
            break;
        memcpy(dst + n, esc, len);
        n += len;
    }
    dst[n] = '\0';
}

static void error_fill(ssdsim_error *err, int code, const char *file, const char *path, int line,
                       int column, const char *fmt, va_list ap)
{
    char what[512];
    vsnprintf(what, sizeof what, fmt, ap);
    memset(err, 0, sizeof *err);
    err->code = code;
    err->line = line;
    err->column = column;
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
    if (path)
        snprintf(err->path, sizeof err->path, "%s", path);

    char text[sizeof err->message];
    size_t n = 0, cap = sizeof text;
    text[0] = '\0';
    if (err->file[0])
        n += (size_t)snprintf(text + n, cap - n, "%s", err->file);
    if (line > 0 && n < cap)
        n += (size_t)snprintf(text + n, cap - n, ":%d:%d", line, column);
    if (n > 0 && n < cap)
        n += (size_t)snprintf(text + n, cap - n, ": ");
    if (err->path[0] && n < cap)
        n += (size_t)snprintf(text + n, cap - n, "%s: ", err->path);
    if (n < cap)
        snprintf(text + n, cap - n, "%s", what);
    escape_controls(err->message, sizeof err->message, text);
}

int ssdsim__error_set(ssdsim_error *err, int code, const char *file, const char *path,
                      const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    error_fill(err, code, file, path, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

int ssdsim__error_set_at(ssdsim_error *err, int code, const char *file, int line, int column,
                         const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    error_fill(err, code, file, NULL, line, column, fmt, ap);
    va_end(ap);
    return code;
}

/* The log handler is process-wide, as git_trace_set is in libgit2: logging is about the program,
 * not one simulation. A mutex makes installing it safe while simulations run on other threads. */
static GMutex log_lock;
static ssdsim_log_fn log_fn;
static void *log_ud;

void ssdsim_set_log_handler(ssdsim_log_fn fn, void *userdata)
{
    g_mutex_lock(&log_lock);
    log_fn = fn;
    log_ud = userdata;
    g_mutex_unlock(&log_lock);
}

#ifdef SSDSIM_DEBUG
void ssdsim__check_handle(const void *p, uint32_t magic, uint32_t want, const char *what,
                          const char *func)
{
    if (magic == want)
        return;
    /* A broken caller, not bad input: a debug build stops here, loudly, as assert would. */
    fprintf(stderr, "ssdsim: %s: %s handle %p is %s (debug build check)\n", func, what, p,
            magic == SSDSIM__MAGIC_FREED ? "already freed" : "freed or not one");
    abort();
}
#endif

void ssdsim__log(enum ssdsim_log_level level, const char *fmt, ...)
{
    g_mutex_lock(&log_lock);
    ssdsim_log_fn fn = log_fn;
    void *ud = log_ud;
    g_mutex_unlock(&log_lock);
    if (!fn)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fn(level, line, ud);
}
