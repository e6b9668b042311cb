/* test_config.c: model loading and validation (libssdsim/config).
 *
 * Every shipped model and the built-in default load; the unit parsers accept what they document
 * and refuse the rest; each kind of bad input gives the right code and a message naming the
 * file, the JSON path and the reason; ssdsim_model_set either applies a whole valid change or
 * leaves the model untouched; capacities match figures computed by hand; ssdsim_model_to_json
 * reads back to the same model.
 */
#include "config/model.h"
#include "config/units.h"
#include "ssdsim/measure.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* A small valid model: 2 planes x 16 blocks x 8 pages of 4 KiB = 256 pages (1 MiB raw). With
 * op 0.25 it has floor(256 / 1.25) = 204 logical pages and (256 - 204) / 8 / 2 = 3 spare blocks
 * per plane, just enough for gc.free_blocks_min 1 plus the two open blocks. Sections and keys
 * with defaults are left out on purpose. */
static const char small_json[] = "{\n"
                                 "  \"geometry\": {\n"
                                 "    \"channels\": 1,\n"
                                 "    \"chips_per_channel\": 1,\n"
                                 "    \"dies_per_chip\": 1,\n"
                                 "    \"planes_per_die\": 2,\n"
                                 "    \"blocks_per_plane\": 16,\n"
                                 "    \"pages_per_block\": 8,\n"
                                 "    \"page_size\": \"4KiB\"\n"
                                 "  },\n"
                                 "  \"flash\": {\n"
                                 "    \"cell\": \"mlc\",\n"
                                 "    \"read_us\": [50, 70],\n"
                                 "    \"program_us\": [500, 1800],\n"
                                 "    \"erase_us\": \"3ms\",\n"
                                 "    \"bus_mts\": 200,\n"
                                 "    \"bus_width\": 8\n"
                                 "  },\n"
                                 "  \"ftl\": { \"op\": 0.25 },\n"
                                 "  \"gc\": { \"free_blocks_min\": 1 }\n"
                                 "}\n";

#define LABEL "models/x.json"

/* A scratch file in the build tree (tests write nowhere else, so `make distcheck` passes). */
static char *build_tmp(const char *name)
{
    g_mkdir_with_parents(BUILDDIR "/tests/out", 0777);
    return g_strdup_printf("%s/tests/out/config-%s", BUILDDIR, name);
}

/* small_json with the value at dotted `path` replaced by the JSON text `value` (added when
 * absent; removed when `value` is NULL). The caller frees the result with free(). */
static char *small_with(const char *path, const char *value)
{
    cJSON *root = cJSON_Parse(small_json);
    ck_assert_ptr_nonnull(root);
    cJSON *cur = root;
    gchar **parts = g_strsplit(path, ".", -1);
    guint n = g_strv_length(parts);
    for (guint i = 0; i + 1 < n; i++) {
        cJSON *next = cJSON_GetObjectItemCaseSensitive(cur, parts[i]);
        if (!next) {
            next = cJSON_CreateObject();
            cJSON_AddItemToObject(cur, parts[i], next);
        }
        cur = next;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(cur, parts[n - 1]);
    if (value) {
        cJSON *v = cJSON_Parse(value);
        ck_assert_msg(v != NULL, "bad test value %s", value);
        cJSON_AddItemToObject(cur, parts[n - 1], v);
    }
    g_strfreev(parts);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

static ssdsim_model *load_ok(const char *json)
{
    ssdsim_model *m = NULL;
    ssdsim_error e;
    int rc = ssdsim_model_load_string(&m, json, LABEL, &e);
    ck_assert_msg(rc == 0, "load failed: %s", e.message);
    ck_assert_ptr_nonnull(m);
    return m;
}

/* Load `json` expecting failure with `code`, at `path`, with `reason` in the message; the
 * message must also start with the file label. */
static void expect_error(const char *json, int code, const char *path, const char *reason)
{
    ssdsim_model *m = (ssdsim_model *)&m; /* must be reset to NULL */
    ssdsim_error e;
    int rc = ssdsim_model_load_string(&m, json, LABEL, &e);
    ck_assert_msg(rc == code, "expected %s, got %s (%s)", ssdsim_errname(code), ssdsim_errname(rc),
                  e.message);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(e.code, code);
    ck_assert_str_eq(e.file, LABEL);
    ck_assert_str_eq(e.path, path);
    ck_assert_msg(strncmp(e.message, LABEL ": ", strlen(LABEL) + 2) == 0, "message: %s", e.message);
    if (path[0]) {
        g_autofree char *where = g_strdup_printf(": %s: ", path);
        ck_assert_msg(strstr(e.message, where) != NULL, "no path in: %s", e.message);
    }
    ck_assert_msg(strstr(e.message, reason) != NULL, "'%s' not in: %s", reason, e.message);
}

/* small_json with one change must fail as described. */
static void expect_change_error(const char *key, const char *value, const char *path,
                                const char *reason)
{
    char *json = small_with(key, value);
    expect_error(json, SSDSIM_ECONFIG, path, reason);
    free(json);
}

/* ------------------------------------------------------------------------------------------ */

START_TEST(test_config_plugin_params_load_and_print)
{
    char *json = small_with("gc", "{\"policy\": \"d-choices\", \"d\": 5, \"free_blocks_min\": 1}");
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_msg(ssdsim_model_load_string(&m, json, LABEL, &e) == 0, "%s", e.message);
    free(json);
    char *text = ssdsim_model_to_json(m);
    cJSON *root = cJSON_Parse(text);
    const cJSON *gc = cJSON_GetObjectItemCaseSensitive(root, "gc");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(gc, "policy")->valuestring, "d-choices");
    ck_assert_double_eq(cJSON_GetObjectItemCaseSensitive(gc, "d")->valuedouble, 5);
    /* defaults of the other sections are printed too */
    const cJSON *wl = cJSON_GetObjectItemCaseSensitive(root, "wl");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(wl, "policy")->valuestring, "none");
    cJSON_Delete(root);
    free(text);
    /* switching the policy by --set keeps the file's other keys and validates the new one */
    ck_assert_int_eq(ssdsim_model_set(m, "gc.policy", "\"windowed\"", &e), SSDSIM_ECONFIG);
    ck_assert_msg(strstr(e.message, "gc.d: unknown key") != NULL, "%s", e.message);
    ck_assert_int_eq(ssdsim_model_set(m, "wl.policy", "static", &e), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "wl.threshold", "50", &e), 0);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_models_load)
{
    char dir_path[4096];
    test_src_path(dir_path, sizeof dir_path, "models");
    GDir *dir = g_dir_open(dir_path, 0, NULL);
    ck_assert_ptr_nonnull(dir);
    int n = 0;
    const char *name;
    while ((name = g_dir_read_name(dir)) != NULL) {
        if (!g_str_has_suffix(name, ".json"))
            continue;
        g_autofree char *path = g_build_filename(dir_path, name, NULL);
        ssdsim_model *m = NULL;
        ssdsim_error e;
        int rc = ssdsim_model_load_file(&m, path, &e);
        ck_assert_msg(rc == 0, "%s: %s", name, e.message);
        ck_assert_uint_gt(ssdsim_model_logical_bytes(m), 0);
        ssdsim_model_free(m);
        n++;
    }
    g_dir_close(dir);
    ck_assert_int_ge(n, 3);
}
END_TEST

START_TEST(test_config_generic_figures)
{
    char path[4096];
    ssdsim_model *m = NULL;
    ssdsim_error e;

    ck_assert_int_eq(
        ssdsim_model_load_file(&m, test_src_path(path, sizeof path, "models/generic-mlc.json"), &e),
        0);
    ck_assert_int_eq(m->flash.cell, SSDSIM__CELL_MLC);
    ck_assert_uint_eq(m->flash.n_page_types, 2);
    ck_assert_uint_eq(m->flash.read_ns[0], 50000);
    ck_assert_uint_eq(m->flash.read_ns[1], 70000);
    ck_assert_uint_eq(m->flash.program_ns[1], 1800000);
    ck_assert_uint_eq(m->geometry.page_size, 4096);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 2000000000ULL);
    ck_assert_uint_eq(m->controller.cores, 4);
    /* 16 GiB raw = 4194304 pages; logical pages floor(4194304 / (1 + op)), computed here in
     * long double with a margin for op not being exact in binary (3919910 at op 0.07, 3276800
     * at op 0.28) */
    ck_assert_uint_eq(ssdsim__model_physical_pages(m) * m->geometry.page_size, 16ULL << 30);
    ck_assert_uint_eq(ssdsim__model_logical_pages(m),
                      (uint64_t)floorl(4194304.0L / (1.0L + (long double)m->ftl.op) + 1e-6L));
    ssdsim_model_free(m);

    ck_assert_int_eq(
        ssdsim_model_load_file(&m, test_src_path(path, sizeof path, "models/generic-slc.json"), &e),
        0);
    ck_assert_uint_eq(m->flash.n_page_types, 1);
    ck_assert_uint_eq(m->flash.read_ns[0], 25000);
    /* 4194304 / 1.28 = 3276800 exactly */
    ck_assert_uint_eq(ssdsim__model_logical_pages(m), 3276800);
    ssdsim_model_free(m);

    ck_assert_int_eq(
        ssdsim_model_load_file(&m, test_src_path(path, sizeof path, "models/generic-tlc.json"), &e),
        0);
    ck_assert_uint_eq(m->flash.n_page_types, 3);
    ck_assert_uint_eq(m->flash.program_ns[2], 5000000);
    ck_assert_uint_eq(ssdsim__model_physical_pages(m) * m->geometry.page_size, 48ULL << 30);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_builtin_default)
{
    ssdsim_model *def = NULL, *file = NULL;
    ssdsim_error e;
    char path[4096];
    ck_assert_int_eq(ssdsim_model_default(&def, &e), 0);
    ck_assert_str_eq(def->label, "built-in generic-mlc");
    ck_assert_int_eq(ssdsim_model_load_file(
                         &file, test_src_path(path, sizeof path, "models/generic-mlc.json"), &e),
                     0);
    char *a = ssdsim_model_to_json(def);
    char *b = ssdsim_model_to_json(file);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ssdsim_model_free(def);
    ssdsim_model_free(file);
}
END_TEST

START_TEST(test_config_defaults)
{
    ssdsim_model *m = load_ok(small_json);
    ck_assert_uint_eq(m->flash.rated_pe_cycles, 3000); /* by cell: mlc */
    ck_assert_uint_eq(m->controller.cmd_overhead_ns, 2000);
    ck_assert_uint_eq(m->controller.cores, 1);
    ck_assert_uint_eq(m->controller.queue_depth, 32);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 600000000ULL);
    ck_assert_uint_eq(m->host.link.cmd_overhead_ns, 1000);
    ck_assert_str_eq(m->ftl.type, "page");
    ck_assert_uint_eq(m->ftl.mapping_unit, 4096); /* = page_size */
    ck_assert_str_eq(m->gc.policy, "greedy");
    ck_assert_uint_eq(m->flash.erase_ns, 3000000);
    ssdsim_model_free(m);

    /* One number applies to every page type, and rated_pe_cycles follows the cell type. */
    char *json = small_with("flash.read_us", "25");
    m = load_ok(json);
    free(json);
    ck_assert_uint_eq(m->flash.read_ns[0], 25000);
    ck_assert_uint_eq(m->flash.read_ns[1], 25000);
    ck_assert_uint_eq(m->flash.read_ns[2], 0);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.program_us", "\"0.25ms\"", NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.cell", "slc", NULL), 0);
    ck_assert_uint_eq(m->flash.rated_pe_cycles, 100000);
    ck_assert_uint_eq(m->flash.n_page_types, 1);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.cell", "qlc", NULL), 0);
    ck_assert_uint_eq(m->flash.rated_pe_cycles, 300);
    ck_assert_uint_eq(m->flash.read_ns[3], 25000);
    ck_assert_uint_eq(m->flash.program_ns[3], 250000);
    /* 8 pages hold 2 word lines of QLC but 2 2/3 of TLC: refused, naming the block's pages;
     * 24 pages are 8 word lines of TLC (and 6 of QLC) */
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_set(m, "flash.cell", "tlc", &e), SSDSIM_ECONFIG);
    ck_assert_str_eq(e.path, "geometry.pages_per_block");
    ck_assert_ptr_nonnull(strstr(e.message, "8 pages are not a multiple of the 3 bits per cell "
                                            "of flash.cell \"tlc\""));
    ck_assert_ptr_null(strchr(e.message, '\n'));
    ck_assert_int_eq(ssdsim_model_set(m, "geometry.pages_per_block", "24", NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.cell", "tlc", NULL), 0);
    ck_assert_uint_eq(m->flash.rated_pe_cycles, 1000);
    /* an explicit value wins over the default by cell */
    ck_assert_int_eq(ssdsim_model_set(m, "flash.rated_pe_cycles", "1500", NULL), 0);
    ck_assert_uint_eq(m->flash.rated_pe_cycles, 1500);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_units_size)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"16KiB", 16384},
        {"4KB", 4000},
        {"4kB", 4000},
        {"512", 512},
        {"512B", 512},
        {"0", 0},
        {"1.5GiB", 1610612736ULL},
        {"4 KiB", 4096},
        {"1.1KB", 1100},
        {"2MiB", 2097152},
        {"3GB", 3000000000ULL},
        {"1TiB", 1ULL << 40},
        {"2TB", 2000000000000ULL},
        {"0.5KiB", 512},
        {"18446744073709551615", UINT64_MAX},
        {"16777215TiB", 16777215ULL << 40},
    };
    static const char *const bad[] = {
        "",
        "KiB",
        "-1",
        "+1",
        "1.5",
        "0.5B",
        "1.1KiB",
        "4KiBx",
        "4 ",
        " 4",
        "4kib",
        "4K",
        "1e3",
        "0x10",
        "inf",
        "nan",
        "1.",
        ".5KiB",
        "4/s",
        "4\tKiB",
        "18446744073709551616",
        "16777216TiB",
        "1.000000000000000000000000000000001KiB",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 12345;
        ck_assert_msg(ssdsim__units_parse_size(good[i].s, &v) == 0, "refused %s", good[i].s);
        ck_assert_msg(v == good[i].v, "%s gave %llu", good[i].s, (unsigned long long)v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 12345;
        ck_assert_msg(ssdsim__units_parse_size(bad[i], &v) == -1, "accepted '%s'", bad[i]);
        ck_assert_uint_eq(v, 12345); /* untouched on failure */
    }
    uint64_t v;
    ck_assert_int_eq(ssdsim__units_parse_size(NULL, &v), -1);
    ck_assert_int_eq(ssdsim__units_parse_size("4KiB", NULL), -1);
}
END_TEST

START_TEST(test_config_units_time)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"50us", 50000},
        {"1.5ms", 1500000},
        {"2s", 2000000000ULL},
        {"100ns", 100},
        {"0ns", 0},
        {"0.3us", 300},
        {"1.0005ms", 1000500},
        {"0.5ns", 1}, /* halves round up */
        {"0.4999ns", 0},
        {"2.0004us", 2000},
        {"50\xc2\xb5s", 50000},
        {"3 ms", 3000000},
        {"18446744073s", 18446744073000000000ULL},
    };
    static const char *const bad[] = {
        "",
        "50",
        "us",
        "-1us",
        "+1us",
        "1.5",
        "50 u s",
        "1msx",
        "1 ms ",
        " 1ms",
        "1e3us",
        "1.ms",
        "50US",
        "50sec",
        "1min",
        "nan",
        "1h",
        "18446744074s",
        "18446744073709551616ns",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 0;
        ck_assert_msg(ssdsim__units_parse_time_ns(good[i].s, &v) == 0, "refused %s", good[i].s);
        ck_assert_msg(v == good[i].v, "%s gave %llu", good[i].s, (unsigned long long)v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        ck_assert_msg(ssdsim__units_parse_time_ns(bad[i], &v) == -1, "accepted '%s'", bad[i]);
        ck_assert_uint_eq(v, 7);
    }
    ck_assert_int_eq(ssdsim__units_parse_time_ns(NULL, &(uint64_t){0}), -1);
}
END_TEST

START_TEST(test_config_units_rate)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"600MB/s", 600000000ULL},   {"4GiB/s", 4ULL << 30},
        {"1000B/s", 1000},           {"600/s", 600},
        {"2.5MB/s", 2500000},        {"0.5B/s", 1},
        {"1.5 GB/s", 1500000000ULL},
    };
    static const char *const bad[] = {
        "600MB",     "600MB/",   "/s",     "MB/s",   "600MB/sec", "-1MB/s",
        "600 MB /s", "600MB/s ", "600 /s", "1e3B/s", "600MBps",   "",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 0;
        ck_assert_msg(ssdsim__units_parse_rate(good[i].s, &v) == 0, "refused %s", good[i].s);
        ck_assert_msg(v == good[i].v, "%s gave %llu", good[i].s, (unsigned long long)v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        ck_assert_msg(ssdsim__units_parse_rate(bad[i], &v) == -1, "accepted '%s'", bad[i]);
        ck_assert_uint_eq(v, 7);
    }
}
END_TEST

START_TEST(test_config_unknown_key)
{
    expect_change_error("geometry.chanels", "8", "geometry.chanels",
                        "unknown key (did you mean 'channels'?)");
    /* a transposition counts as one edit */
    expect_change_error("controller.queue_dpeth", "8", "controller.queue_dpeth",
                        "did you mean 'queue_depth'?");
    /* a key of that name in another section */
    expect_change_error("flash.page_size", "4096", "flash.page_size",
                        "did you mean 'geometry.page_size'?");
    /* nothing close: the known names are listed */
    expect_change_error("zzzzzz", "1", "zzzzzz", "unknown key (known keys here: name, ");
    expect_change_error("geometri", "{}", "geometri", "did you mean 'geometry'?");
    expect_change_error("ftl.OP", "1", "ftl.OP", "did you mean 'op'?");
    /* dotted names are not keys */
    expect_error("{\"geometry.channels\": 8}", SSDSIM_ECONFIG, "geometry.channels",
                 "write nested objects");
    /* the caveat is text */
    expect_change_error("caveat", "5", "caveat", "expected a string");
}
END_TEST

START_TEST(test_config_duplicate_key)
{
    expect_error("{\"geometry\": {\"channels\": 1, \"channels\": 2}}", SSDSIM_ECONFIG,
                 "geometry.channels", "duplicate key");
    expect_error("{\"name\": \"a\", \"name\": \"a\"}", SSDSIM_ECONFIG, "name", "duplicate key");
    expect_error("{\"gc\": {}, \"gc\": {}}", SSDSIM_ECONFIG, "gc", "duplicate key");
}
END_TEST

START_TEST(test_config_wrong_type)
{
    expect_change_error("geometry.channels", "\"8\"", "geometry.channels",
                        "expected an integer in [1, 256], got a string (\"8\")");
    expect_change_error("ftl.op", "true", "ftl.op", "expected a number in [0, 10], got a bool");
    expect_change_error("flash.cell", "2", "flash.cell",
                        "expected one of \"slc\", \"mlc\", \"tlc\", \"qlc\" or \"xpoint\", got a number (2)");
    expect_change_error("flash.erase_us", "null", "flash.erase_us", "got null");
    expect_change_error("host.link_bw", "[1]", "host.link_bw", "got an array");
    expect_change_error("name", "{}", "name", "expected a string, got an object");
    expect_change_error("flash", "[]", "flash", "expected an object, got an array");
    expect_change_error("flash.read_us", "{}", "flash.read_us", "got an object");
    expect_error("[1, 2]", SSDSIM_ECONFIG, "", "expected a JSON object at the top level");
}
END_TEST

START_TEST(test_config_out_of_range)
{
    /* the example of the style guide, word for word */
    char *json = small_with("flash.program_us", "-3");
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_load_string(&m, json, LABEL, &e), SSDSIM_ECONFIG);
    ck_assert_str_eq(e.message, "models/x.json: flash.program_us: expected a number in [10, "
                                "100000] (microseconds) or a time string, got -3");
    free(json);

    expect_change_error("geometry.channels", "0", "geometry.channels", "got 0");
    expect_change_error("geometry.channels", "257", "geometry.channels", "got 257");
    expect_change_error("geometry.channels", "2.5", "geometry.channels", "got 2.5");
    expect_change_error("geometry.page_size", "\"3KiB\"", "geometry.page_size",
                        "expected a power of two in [512, 65536] bytes");
    expect_change_error("geometry.page_size", "\"128KiB\"", "geometry.page_size", "got \"128KiB\"");
    expect_change_error("geometry.page_size", "\"4 parsecs\"", "geometry.page_size",
                        "got \"4 parsecs\"");
    expect_change_error("flash.read_us", "[50, 20000]", "flash.read_us[1]",
                        "expected a number in [0.05, 10000] (microseconds) or a time string, got "
                        "20000");
    expect_change_error("flash.read_us", "[50, \"20ms\"]", "flash.read_us[1]", "got \"20ms\"");
    /* below 1 us only media without erase reads (3D XPoint); a NAND read is refused */
    expect_change_error("flash.read_us", "0.5", "flash.read_us",
                        "0.5 us is below a NAND array read (at least 1 us");
    expect_change_error("flash.read_us", "0.01", "flash.read_us",
                        "expected a number in [0.05, 10000] (microseconds)");
    expect_change_error("flash.erase_us", "\"50us\"", "flash.erase_us", "got \"50us\"");
    expect_change_error("flash.bus_width", "12", "flash.bus_width", "expected 8 or 16, got 12");
    expect_change_error("flash.cell", "\"MLC\"", "flash.cell", "got \"MLC\"");
    expect_change_error("ftl.op", "-0.5", "ftl.op", "expected a number in [0, 10], got -0.5");
    expect_change_error("ftl.type", "\"pagee\"", "ftl.type",
                        "no FTL named \"pagee\" (did you mean \"page\"?)");
    expect_change_error("gc.policy", "\"nosuch-policy\"", "gc.policy",
                        "no GC policy named \"nosuch-policy\" (registered: greedy, ");
    expect_change_error("gc", "{\"policy\": \"d-choices\", \"d\": 0}", "gc.d",
                        "expected an integer in [1, 1024]");
    expect_change_error("gc", "{\"policy\": \"d-choices\", \"d\": 2.5}", "gc.d",
                        "expected an integer in [1, 1024]");
    /* a parameter of another policy is not a key of this one */
    expect_change_error("gc", "{\"policy\": \"greedy\", \"window\": 8}", "gc.window",
                        "unknown key");
    expect_change_error("gc", "{\"policy\": \"windowed\", \"windw\": 8}", "gc.windw",
                        "did you mean 'window'?");
    expect_change_error("wl.policy", "\"statik\"", "wl.policy",
                        "no wear leveler named \"statik\" (did you mean \"static\"?)");
    expect_change_error("gc", "{\"free_blocks_min\": 4, \"free_blocks_target\": 3}",
                        "gc.free_blocks_target", "below the low one");
    expect_change_error("host.link_bw", "\"200GB/s\"", "host.link_bw",
                        "expected a number in [1000000, 100000000000] (bytes/s) or a rate "
                        "string like \"600MB/s\", got \"200GB/s\"");
    expect_change_error("host.link_bw", "\"fast\"", "host.link_bw", "got \"fast\"");
    expect_change_error("controller.queue_depth", "65536", "controller.queue_depth", "got 65536");
    expect_change_error("controller.cmd_overhead_us", "1e300", "controller.cmd_overhead_us",
                        "got 1e+300");
    expect_change_error("flash.rated_pe_cycles", "0", "flash.rated_pe_cycles", "got 0");
}
END_TEST

START_TEST(test_config_time_list_length)
{
    expect_change_error(
        "flash.read_us", "[50, 70, 90]", "flash.read_us",
        "expected 2 values (one per page type of flash.cell \"mlc\"), got an array of 3");
    expect_change_error(
        "flash.cell", "\"tlc\"", "flash.read_us",
        "expected 3 values (one per page type of flash.cell \"tlc\"), got an array of 2");
    expect_change_error("flash.program_us", "[]", "flash.program_us", "got an array of 0");
}
END_TEST

START_TEST(test_config_missing_required)
{
    expect_change_error("geometry.pages_per_block", NULL, "geometry.pages_per_block",
                        "required key missing");
    expect_change_error("flash.cell", NULL, "flash.cell", "required key missing");
    expect_change_error("flash", NULL, "flash.cell", "required key missing");
    expect_error("{}", SSDSIM_ECONFIG, "geometry.channels", "required key missing");
}
END_TEST

START_TEST(test_config_impossible_geometry)
{
    /* 256 x 64 x 16 x 16 x 1048576 x 4096 pages: far beyond 2^32 */
    char *json = small_with("geometry", "{\"channels\": 256, \"chips_per_channel\": 64, "
                                        "\"dies_per_chip\": 16, \"planes_per_die\": 16, "
                                        "\"blocks_per_plane\": 1048576, \"pages_per_block\": "
                                        "4096, \"page_size\": 4096}");
    expect_error(json, SSDSIM_ECONFIG, "geometry",
                 "impossible geometry: 256 channels x 64 chips x 16 dies x 16 planes x 1048576 "
                 "blocks x 4096 pages = 18014398509481984 pages exceed the 32-bit page address "
                 "space");
    free(json);
    /* exactly 2^32 pages is one too many */
    json = small_with("geometry", "{\"channels\": 256, \"chips_per_channel\": 64, "
                                  "\"dies_per_chip\": 16, \"planes_per_die\": 1, "
                                  "\"blocks_per_plane\": 4096, \"pages_per_block\": "
                                  "4, \"page_size\": 4096}");
    expect_error(json, SSDSIM_ECONFIG, "geometry", "exceed the 32-bit page address space");
    free(json);
}
END_TEST

START_TEST(test_config_op_too_small)
{
    /* 3 spare blocks per plane (see small_json), but 2 + 2 are needed */
    expect_change_error("gc.free_blocks_min", "2", "ftl.op",
                        "over-provisioning leaves 3 spare blocks per plane; gc.free_blocks_min "
                        "(2) plus 2 open blocks need at least 4");
    expect_change_error("ftl.op", "0", "ftl.op", "leaves 0 spare blocks per plane");
    /* 8 pages in 4 blocks of one plane: op 3 leaves floor(8 / 4) = 2 logical pages and 3 spare
     * blocks; op 10 leaves floor(8 / 11) = 0 logical pages. */
    static const char tiny[] =
        "{\"geometry\": {\"channels\": 1, \"chips_per_channel\": 1, \"dies_per_chip\": 1, "
        "\"planes_per_die\": 1, \"blocks_per_plane\": 4, \"pages_per_block\": 2, "
        "\"page_size\": 4096}, \"flash\": {\"cell\": \"slc\", \"read_us\": 25, "
        "\"program_us\": 250, \"erase_us\": 2000, \"bus_mts\": 200, \"bus_width\": 8}, "
        "\"ftl\": {\"op\": 3}, \"gc\": {\"free_blocks_min\": 1}}";
    ssdsim_model *m = load_ok(tiny);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 2 * 4096);
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "10", &e), SSDSIM_ECONFIG);
    ck_assert_str_eq(e.path, "ftl.op");
    ck_assert_msg(strstr(e.message, "leaves no logical capacity") != NULL, "%s", e.message);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_mapping_unit)
{
    /* a power-of-two multiple or divisor of the page (the refusals are in test_unit.c) */
    static const char *units[] = {"4096", "\"8KiB\"", "\"1KiB\""};
    static const uint32_t bytes[] = {4096, 8192, 1024};
    for (int i = 0; i < 3; i++) {
        char *json = small_with("ftl.mapping_unit", units[i]);
        ssdsim_model *m = load_ok(json);
        ck_assert_uint_eq(m->ftl.mapping_unit, bytes[i]);
        ssdsim_model_free(m);
        free(json);
    }
}
END_TEST

START_TEST(test_config_syntax_error)
{
    ssdsim_model *m = NULL;
    ssdsim_error e;
    int rc = ssdsim_model_load_string(&m, "{\n  \"geometry\": @\n}\n", LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(e.line, 2);
    ck_assert_int_eq(e.column, 15);
    ck_assert_str_eq(e.message, "models/x.json:2:15: malformed JSON near '@ } '");

    /* trailing garbage after the object, and a long tail cut at 20 characters */
    rc = ssdsim_model_load_string(&m, "{}\n  xyz 0123456789abcdefghij", LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_int_eq(e.line, 2);
    ck_assert_int_eq(e.column, 3);
    ck_assert_str_eq(e.message, "models/x.json:2:3: malformed JSON near 'xyz 0123456789abcdef'");

    /* the snippet keeps whole UTF-8 characters: 19 bytes and a 2-byte character do not fit */
    rc = ssdsim_model_load_string(&m, "x123456789012345678\xc3\xa9", LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(e.message, "models/x.json:1:1: malformed JSON near 'x123456789012345678'");
    rc = ssdsim_model_load_string(&m, "x12345678901234567\xc3\xa9z", LABEL, &e);
    ck_assert_str_eq(e.message,
                     "models/x.json:1:1: malformed JSON near 'x12345678901234567\xc3\xa9'");

    /* cJSON's nesting limit (CJSON_NESTING_LIMIT, 1000) is named as such, at the bracket that
     * would open level 1001 (the strings' brackets do not count). */
    GString *deep = g_string_new("{\"a[{\": ");
    for (int i = 1; i < 1001; i++)
        g_string_append_c(deep, '[');
    g_string_append(deep, "{}");
    for (int i = 1; i < 1001; i++)
        g_string_append_c(deep, ']');
    g_string_append_c(deep, '}');
    rc = ssdsim_model_load_string(&m, deep->str, LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(e.message,
                     "models/x.json:1:1008: malformed JSON: nested deeper than 1000 levels");
    g_string_free(deep, TRUE);

    /* A UTF-8 byte-order mark is skipped (and not counted in columns). */
    rc = ssdsim_model_load_string(&m, "\xEF\xBB\xBF{\n  \"geometry\": @\n}\n", LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(e.message, "models/x.json:2:15: malformed JSON near '@ } '");

    rc = ssdsim_model_load_string(&m, "", NULL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(e.file, "<string>");
    ck_assert_int_eq(e.line, 1);
    ck_assert_int_eq(e.column, 1);

    rc = ssdsim_model_load_string(&m, "{\"a\": 1,", LABEL, &e);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_msg(strstr(e.message, "malformed JSON") != NULL, "%s", e.message);

    /* a file with a syntax error names the file */
    g_autofree char *tmp = build_tmp("syntax.json");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "{\n\n   }}", 8), 8);
    close(fd);
    rc = ssdsim_model_load_file(&m, tmp, &e);
    g_unlink(tmp);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_str_eq(e.file, tmp);
    ck_assert_int_eq(e.line, 3);
    ck_assert_int_eq(e.column, 5);
}
END_TEST

START_TEST(test_config_missing_file)
{
    ssdsim_model *m = (ssdsim_model *)&m;
    ssdsim_error e;
    char path[4096];
    test_src_path(path, sizeof path, "models/no-such-model.json");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_EIO);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(e.code, SSDSIM_EIO);
    ck_assert_str_eq(e.file, path);
    ck_assert_msg(strstr(e.message, path) == e.message, "%s", e.message);
    ck_assert_msg(strstr(e.message, strerror(ENOENT)) != NULL, "%s", e.message);

    /* a directory cannot be read either */
    test_src_path(path, sizeof path, "models");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_EIO);
    ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_config_bogus_args)
{
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_load_string(NULL, small_json, NULL, &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_load_string(&m, NULL, NULL, &e), SSDSIM_EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ssdsim_model_load_file(NULL, "x", &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_load_file(&m, NULL, &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_default(NULL, &e), SSDSIM_EINVAL);
    /* err may be NULL */
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{", NULL, NULL), SSDSIM_EPARSE);
    ck_assert_int_eq(ssdsim_model_load_string(&m, "{}", NULL, NULL), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(ssdsim_model_set(NULL, "ftl.op", "0.1", &e), SSDSIM_EINVAL);
    m = load_ok(small_json);
    ck_assert_int_eq(ssdsim_model_set(m, NULL, "0.1", &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", NULL, &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(m, "", "1", &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl..op", "1", &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.", "1", &e), SSDSIM_EINVAL);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.5", NULL), 0);
    ck_assert_ptr_null(ssdsim_model_to_json(NULL));
    ck_assert_uint_eq(ssdsim_model_logical_bytes(NULL), 0);
    ck_assert_ptr_null(ssdsim__model_copy(NULL));
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_set)
{
    ssdsim_model *m = load_ok(small_json);
    ssdsim_error e;
    ck_assert_uint_eq(ssdsim__model_logical_pages(m), 204);

    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.28", &e), 0);
    ck_assert(m->ftl.op == 0.28);
    ck_assert_uint_eq(ssdsim__model_logical_pages(m), 200); /* floor(256 / 1.28) */
    ck_assert_int_eq(e.code, 0);

    /* bare words are strings */
    ck_assert_int_eq(ssdsim_model_set(m, "host.link_bw", "4GiB/s", &e), 0);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 4ULL << 30);
    ck_assert_int_eq(ssdsim_model_set(m, "host.link_bw", "1000000", &e), 0);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 1000000);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.read_us", "[\"40us\", 60.5]", &e), 0);
    ck_assert_uint_eq(m->flash.read_ns[0], 40000);
    ck_assert_uint_eq(m->flash.read_ns[1], 60500);
    /* a section that the document lacks is created */
    ck_assert_int_eq(ssdsim_model_set(m, "controller.cores", "8", &e), 0);
    ck_assert_uint_eq(m->controller.cores, 8);
    ck_assert_int_eq(ssdsim_model_set(m, "name", "tiny", &e), 0);
    char *json = ssdsim_model_to_json(m);
    ck_assert_msg(strstr(json, "\"name\":\t\"tiny\"") != NULL, "%s", json);
    free(json);
    /* the label of the model stays the file's */
    ck_assert_str_eq(m->label, LABEL);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_set_failure_unchanged)
{
    static const struct {
        const char *key, *value;
        int code;
        const char *path, *reason;
    } cases[] = {
        {"ftl.op", "-1", SSDSIM_ECONFIG, "ftl.op", "expected a number in [0, 10], got -1"},
        {"ftl.op", "lots", SSDSIM_ECONFIG, "ftl.op", "got a string (\"lots\")"},
        {"flash.cell", "tlc", SSDSIM_ECONFIG, "flash.read_us", "expected 3 values"},
        {"gc.free_blocks_min", "2", SSDSIM_ECONFIG, "ftl.op", "need at least 4"},
        {"geometry.chanels", "2", SSDSIM_ECONFIG, "geometry.chanels",
         "unknown key (did you mean 'channels'?)"},
        {"geometri.channels", "2", SSDSIM_ECONFIG, "geometri", "did you mean 'geometry'?"},
        {"ftl.op.x", "2", SSDSIM_ECONFIG, "ftl.op.x", "'ftl.op' is a value"},
        {"geometry", "{\"channels\": 2}", SSDSIM_ECONFIG, "geometry.chips_per_channel",
         "required key missing"},
        {"geometry.page_size", "{\"a\": 1, \"a\": 2}", SSDSIM_ECONFIG, "geometry.page_size",
         "got an object"},
        {"ftl..op", "1", SSDSIM_EINVAL, "ftl..op", "malformed key"},
    };
    ssdsim_model *m = load_ok(small_json);
    char *before = ssdsim_model_to_json(m);
    struct ssdsim_model saved = *m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ssdsim_error e;
        int rc = ssdsim_model_set(m, cases[i].key, cases[i].value, &e);
        ck_assert_msg(rc == cases[i].code, "%s=%s: %d %s", cases[i].key, cases[i].value, rc,
                      e.message);
        ck_assert_str_eq(e.file, "--set");
        ck_assert_str_eq(e.path, cases[i].path);
        ck_assert_msg(strncmp(e.message, "--set: ", 7) == 0, "%s", e.message);
        ck_assert_msg(strstr(e.message, cases[i].reason) != NULL, "%s", e.message);
        char *after = ssdsim_model_to_json(m);
        ck_assert_str_eq(after, before);
        free(after);
        ck_assert(memcmp(&m->geometry, &saved.geometry, sizeof saved.geometry) == 0);
        ck_assert(memcmp(&m->flash, &saved.flash, sizeof saved.flash) == 0);
        ck_assert(m->ftl.op == saved.ftl.op);
        ck_assert_ptr_eq(m->json, saved.json);
    }
    free(before);
    ssdsim_model_free(m);
}
END_TEST

/* ssdsim_model_set_many validates once, after every override: keys that depend on each other go
 * in any order (turning background GC off takes the keys that apply only with it out, with
 * null); a failure leaves the model as it was and names the override, or says how to take out
 * a key the model gives that the overrides made invalid. */
START_TEST(test_config_set_many)
{
    /* 0.05 of 16 blocks: 1 free block per plane, all the 3 spare ones leave besides 2 open */
    char *json = small_with("gc", "{\"free_blocks_min\": 1, \"bg_idle_us\": 100, "
                                  "\"bg_high_watermark\": 0.05}");
    ssdsim_model *m = load_ok(json);
    free(json);
    ssdsim_error e;
    size_t failed = 99;
    /* one at a time, background GC cannot be turned off: bg_high_watermark still applies */
    ck_assert_int_eq(ssdsim_model_set(m, "gc.bg_idle_us", "0", &e), SSDSIM_ECONFIG);
    ck_assert_str_eq(e.path, "gc.bg_high_watermark");
    ck_assert_msg(strstr(e.message, "applies only when gc.bg_idle_us > 0 (the model gives "
                                    "gc.bg_high_watermark; gc.bg_high_watermark=null takes "
                                    "it out)") != NULL,
                  "%s", e.message);
    char *before = ssdsim_model_to_json(m);
    const double op_before = m->ftl.op;
    /* the same as part of a list: failed is its last override, the model unchanged */
    {
        const char *k[] = {"ftl.op", "gc.bg_idle_us"}, *v[] = {"0.3", "0"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 2, k, v, &failed, &e), SSDSIM_ECONFIG);
        ck_assert_uint_eq(failed, 1);
        ck_assert_str_eq(e.file, "--set");
        ck_assert_str_eq(e.path, "gc.bg_high_watermark");
        char *after = ssdsim_model_to_json(m);
        ck_assert_str_eq(after, before);
        free(after);
        ck_assert(m->ftl.op == op_before);
    }
    /* a bad key or value names its override, whatever comes after it */
    {
        const char *k[] = {"ftl.op", "geometry.chanels", "ftl.op"}, *v[] = {"0.3", "2", "-1"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 3, k, v, &failed, &e), SSDSIM_ECONFIG);
        ck_assert_uint_eq(failed, 1);
        ck_assert_str_eq(e.path, "geometry.chanels");
        const char *k2[] = {"ftl.op", "gc.free_blocks_min"}, *v2[] = {"-1", "1"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 2, k2, v2, &failed, &e), SSDSIM_ECONFIG);
        ck_assert_uint_eq(failed, 0);
        ck_assert_str_eq(e.path, "ftl.op");
        ck_assert(m->ftl.op == op_before);
    }
    /* together, in either order: background GC off, its keys out of the model */
    {
        const char *k[] = {"gc.bg_idle_us", "gc.bg_high_watermark"}, *v[] = {"0", "null"};
        ssdsim_model *c = NULL;
        ck_assert_int_eq(ssdsim_model_copy(&c, m), 0);
        ck_assert_int_eq(ssdsim_model_set_many(m, 2, k, v, &failed, &e), 0);
        ck_assert_uint_eq(m->gc.bg_idle_ns, 0);
        const cJSON *gc = cJSON_GetObjectItemCaseSensitive(m->json, "gc");
        ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(gc, "bg_high_watermark"));
        const char *kr[] = {"gc.bg_high_watermark", "gc.bg_idle_us"}, *vr[] = {"null", "0"};
        ck_assert_int_eq(ssdsim_model_set_many(c, 2, kr, vr, NULL, NULL), 0);
        char *a = ssdsim_model_to_json(m), *b = ssdsim_model_to_json(c);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        ssdsim_model_free(c);
    }
    /* and on again: the watermark before the idle time it depends on */
    {
        const char *k[] = {"gc.bg_high_watermark", "gc.bg_idle_us"}, *v[] = {"0.0625", "\"2ms\""};
        ck_assert_int_eq(ssdsim_model_set_many(m, 2, k, v, NULL, &e), 0);
        ck_assert_uint_eq(m->gc.bg_idle_ns, 2000000);
        ck_assert(m->gc.bg_high_watermark == 0.0625);
        /* a share the spare cannot hold with the open blocks is refused by its key, with the
         * largest that fits; the FTL refused it only when a simulation was built */
        const char *k2[] = {"gc.bg_high_watermark"}, *v2[] = {"0.3"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 1, k2, v2, NULL, &e), SSDSIM_ECONFIG);
        ck_assert_str_eq(e.message, "--set: gc.bg_high_watermark: expected at most 0.0625 (1 of "
                                    "the 16 blocks per plane: the 3 spare blocks per plane hold 2 "
                                    "open blocks and at most 1 free), got 0.3 (5 blocks)");
        ck_assert(m->gc.bg_high_watermark == 0.0625);
    }
    /* a key every model must give is not offered to be taken out; given too, it goes in */
    {
        const char *k[] = {"flash.cell"}, *v[] = {"slc"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 1, k, v, &failed, &e), SSDSIM_ECONFIG);
        ck_assert_str_eq(e.path, "flash.read_us");
        ck_assert_msg(strstr(e.message, "(the model gives flash.read_us: set it too)") != NULL,
                      "%s", e.message);
        const char *k3[] = {"flash.cell", "flash.read_us", "flash.program_us"};
        const char *v3[] = {"slc", "25", "250"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 3, k3, v3, NULL, &e), 0);
        char cell[16];
        ck_assert_int_eq(ssdsim_model_get_string(m, "flash.cell", cell, sizeof cell, NULL), 0);
        ck_assert_str_eq(cell, "slc");
    }
    /* a key given twice takes its last value; null on a key the model does not give is
     * nothing; no overrides is nothing; arrays are needed when there are overrides */
    {
        const char *k[] = {"ftl.op", "ftl.op", "controller.queue_depth"};
        const char *v[] = {"0.1", "0.3", "null"};
        ck_assert_int_eq(ssdsim_model_set_many(m, 3, k, v, NULL, &e), 0);
        ck_assert(m->ftl.op == 0.3);
        ck_assert_int_eq(ssdsim_model_set_many(m, 0, NULL, NULL, NULL, &e), 0);
        ck_assert_int_eq(ssdsim_model_set_many(m, 1, NULL, v, NULL, &e), SSDSIM_EINVAL);
        ck_assert_int_eq(ssdsim_model_set_many(NULL, 1, k, v, NULL, &e), SSDSIM_EINVAL);
        const char *kn[] = {NULL};
        ck_assert_int_eq(ssdsim_model_set_many(m, 1, kn, v, &failed, &e), SSDSIM_EINVAL);
        ck_assert_uint_eq(failed, 0);
    }
    free(before);
    ssdsim_model_free(m);
}
END_TEST

/* A message that quotes the input stays on one line: a key with a newline or a tab in it (JSON
 * allows both in a string) is shown with C escapes (found by tests/fuzz/fuzz_model). */
START_TEST(test_config_message_one_line)
{
    ssdsim_model *m = NULL;
    ssdsim_error e;
    int rc = ssdsim_model_load_string(&m, "{\"name\": \"x\", \"geo\\nmetry\": {}}", "nl.json",
                                      &e);
    ck_assert_int_eq(rc, SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_msg(strchr(e.message, '\n') == NULL, "%s", e.message);
    static const char want[] = "nl.json: geo\\nmetry: unknown key";
    ck_assert_msg(strncmp(e.message, want, sizeof want - 1) == 0, "%s", e.message);
    m = load_ok(small_json);
    rc = ssdsim_model_set(m, "ftl.o\tp\x01", "1", &e);
    ck_assert_int_eq(rc, SSDSIM_ECONFIG);
    ck_assert_msg(strstr(e.message, "ftl.o\\tp\\x01: unknown key") != NULL, "%s", e.message);
    ck_assert_msg(strchr(e.message, '\t') == NULL && strchr(e.message, '\x01') == NULL, "%s",
                  e.message);
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_logical_bytes)
{
    /* small_json: floor(256 / 1.25) = 204 pages of 4096 bytes */
    ssdsim_model *m = load_ok(small_json);
    ck_assert_uint_eq(ssdsim__model_physical_pages(m), 256);
    ck_assert_uint_eq(ssdsim__model_logical_pages(m), 204);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 204 * 4096);
    ssdsim_model_free(m);

    /* 535 pages at op 0.07: 535 / 1.07 is 500 exactly, although the double division gives
     * 499.99999999999994; the capacity must not lose a page to binary rounding. (535 is odd:
     * 107 blocks of 5 pages, so one bit per cell.) */
    char *json = small_with("geometry", "{\"channels\": 1, \"chips_per_channel\": 1, "
                                        "\"dies_per_chip\": 1, \"planes_per_die\": 1, "
                                        "\"blocks_per_plane\": 107, \"pages_per_block\": 5, "
                                        "\"page_size\": \"16KiB\"}");
    cJSON *doc = cJSON_Parse(json);
    free(json);
    ck_assert_ptr_nonnull(doc);
    cJSON_ReplaceItemInObject(doc, "flash",
                              cJSON_Parse("{\"cell\": \"slc\", \"read_us\": 50, "
                                          "\"program_us\": 500, \"erase_us\": \"3ms\", "
                                          "\"bus_mts\": 200, \"bus_width\": 8}"));
    json = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    m = load_ok(json);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.07", NULL), 0);
    ck_assert_uint_eq(ssdsim__model_physical_pages(m), 535);
    ck_assert_uint_eq(ssdsim__model_logical_pages(m), 500);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 500 * 16384);
    ssdsim_model_free(m);
    free(json);
}
END_TEST

/* to_json, then load that text: the same model, and the same text again. */
static void check_round_trip(ssdsim_model *m)
{
    char *a = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(a);
    ssdsim_model *m2 = load_ok(a);
    char *b = ssdsim_model_to_json(m2);
    ck_assert_str_eq(a, b);
    ck_assert(memcmp(&m->geometry, &m2->geometry, sizeof m->geometry) == 0);
    ck_assert(memcmp(&m->flash, &m2->flash, sizeof m->flash) == 0);
    ck_assert(memcmp(&m->controller, &m2->controller, sizeof m->controller) == 0);
    ck_assert(memcmp(&m->host, &m2->host, sizeof m->host) == 0);
    ck_assert(memcmp(&m->ftl, &m2->ftl, sizeof m->ftl) == 0);
    ck_assert(memcmp(&m->gc, &m2->gc, sizeof m->gc) == 0);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), ssdsim_model_logical_bytes(m2));
    free(a);
    free(b);
    ssdsim_model_free(m2);
}

START_TEST(test_config_to_json_round_trip)
{
    static const char *const files[] = {"models/generic-slc.json", "models/generic-mlc.json",
                                        "models/generic-tlc.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        ssdsim_model *m = NULL;
        ssdsim_error e;
        ck_assert_int_eq(ssdsim_model_load_file(&m, test_src_path(path, sizeof path, files[i]), &e),
                         0);
        check_round_trip(m);
        ssdsim_model_free(m);
    }

    /* fractional times and an odd op survive the trip in both directions */
    ssdsim_model *m = load_ok(small_json);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.erase_us", "1.0005ms", NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "flash.read_us", "[\"1.001us\", 0.9996]", NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.3333333333333333", NULL), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "host.link_bw", "1.5GB/s", NULL), 0);
    ck_assert_uint_eq(m->flash.erase_ns, 1000500);
    ck_assert_uint_eq(m->flash.read_ns[0], 1001);
    ck_assert_uint_eq(m->flash.read_ns[1], 1000); /* 999.6 ns rounds to 1 us */
    check_round_trip(m);
    char *json = ssdsim_model_to_json(m);
    ck_assert_msg(strstr(json, "\"erase_us\":\t1000.5") != NULL, "%s", json);
    ck_assert_msg(strstr(json, "\"link_bw\":\t1500000000") != NULL, "%s", json);
    free(json);

    /* A value set from C comes back bit for bit, through the getter and through the JSON (cJSON
     * printed 0.1 + 0.2 as 0.3), while one from decimal text still prints as that text. */
    const double sum = 0.1 + 0.2, third = 1.0 / 3;
    const double values[] = {sum, 0.3, third, 0.3456789012345678};
    const char *const printed[] = {"0.30000000000000004", "0.3", "0.3333333333333333",
                                   "0.3456789012345678"};
    for (size_t i = 0; i < G_N_ELEMENTS(values); i++) {
        double got = 0;
        ck_assert_int_eq(ssdsim_model_set_double(m, "ftl.op", values[i], NULL), 0);
        ck_assert_int_eq(ssdsim_model_get_double(m, "ftl.op", &got, NULL), 0);
        ck_assert_msg(got == values[i], "set %.17g, got %.17g", values[i], got);
        json = ssdsim_model_to_json(m);
        g_autofree char *want = g_strdup_printf("\"op\":\t%s,", printed[i]);
        ck_assert_msg(strstr(json, want) != NULL, "want %s in %s", want, json);
        ssdsim_model *back = load_ok(json);
        ck_assert_msg(back->ftl.op == values[i], "reloaded %.17g", back->ftl.op);
        ssdsim_model_free(back);
        free(json);
    }
    ssdsim_model_free(m);
}
END_TEST

START_TEST(test_config_copy)
{
    ssdsim_model *m = load_ok(small_json);
    ssdsim_model *c = ssdsim__model_copy(m);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_ne(c->json, m->json);
    ck_assert_ptr_ne(c->label, m->label);
    ck_assert_str_eq(c->label, m->label);
    /* the copy is independent */
    ck_assert_int_eq(ssdsim_model_set(c, "ftl.op", "0.5", NULL), 0);
    ck_assert(m->ftl.op == 0.25);
    ssdsim_model_free(m);
    char *json = ssdsim_model_to_json(c);
    ck_assert_ptr_nonnull(json);
    free(json);
    ssdsim_model_free(c);
}
END_TEST

START_TEST(test_config_free_null)
{
    ssdsim_model_free(NULL);
}
END_TEST

START_TEST(test_config_nul_byte)
{
    g_autofree char *tmp = build_tmp("nul.json");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "{}\n\0{", 5), 5);
    close(fd);
    ssdsim_model *m = NULL;
    ssdsim_error e;
    int rc = ssdsim_model_load_file(&m, tmp, &e);
    g_unlink(tmp);
    ck_assert_int_eq(rc, SSDSIM_EPARSE);
    ck_assert_int_eq(e.line, 2);
    ck_assert_int_eq(e.column, 1);
    ck_assert_msg(strstr(e.message, "NUL byte") != NULL, "%s", e.message);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Interfaces, buffer, XPoint, hard disks, systems, spec figures                                */

START_TEST(test_config_interfaces)
{
    /* PCIe gen 2 x4 at 256 B payload: 4 x 5e9 x 8/10 / 8 x 256/280 = 1,828,571,428 B/s;
     * the interface's per-command time (1 us for PCIe) unless given */
    char *json = small_with("host", "{\"interface\": \"pcie\", \"pcie_gen\": 2}");
    ssdsim_model *m = load_ok(json);
    free(json);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 1828571428ULL);
    ck_assert_uint_eq(m->host.link.lanes, 4);
    ck_assert_uint_eq(m->host.link.cmd_overhead_ns, 1000);
    /* the canonical JSON has the PCIe keys and no SATA/SAS or custom ones, and loads back */
    char *text = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(text, "\"pcie_gen\""));
    ck_assert_ptr_null(strstr(text, "\"gbps\""));
    ck_assert_ptr_null(strstr(text, "\"link_bw\""));
    ssdsim_model *back = load_ok(text);
    ck_assert_uint_eq(back->host.link.link_bytes_per_s, 1828571428ULL);
    free(text);
    ssdsim_model_free(back);
    ssdsim_model_free(m);
    /* SATA 6 Gb/s: 6e9 / 10 x 2048/2052 x 254/256 = 594,152,046 B/s, 4 us per command */
    json = small_with("host", "{\"interface\": \"sata\", \"gbps\": 6}");
    m = load_ok(json);
    free(json);
    ck_assert_uint_eq(m->host.link.link_bytes_per_s, 594152046ULL);
    ck_assert_uint_eq(m->host.link.cmd_overhead_ns, 4000);
    ssdsim_model_free(m);
    /* keys of another interface, and impossible combinations */
    expect_change_error("host", "{\"interface\": \"sata\", \"pcie_gen\": 3}", "host.pcie_gen",
                        "applies only when host.interface is \"pcie\"");
    expect_change_error("host", "{\"interface\": \"pcie\", \"link_bw\": \"1GB/s\"}",
                        "host.link_bw", "applies only when host.interface is \"custom\"");
    expect_change_error("host", "{\"interface\": \"sata\", \"gbps\": 12}", "host.gbps",
                        "SATA runs at 1.5, 3 or 6 Gb/s, got 12");
    expect_change_error("host", "{\"interface\": \"pcie\", \"lanes\": 3}", "host.lanes",
                        "expected 1, 2, 4, 8 or 16, got 3");
    expect_change_error("host", "{\"interface\": \"sas\", \"lanes\": 8}", "host.lanes",
                        "a SAS port has 1, 2 or 4 phys, got 8");
    /* SATA's NCQ holds 32 commands */
    json = small_with("host", "{\"interface\": \"sata\"}");
    cJSON *root = cJSON_Parse(json);
    cJSON_AddItemToObject(root, "controller", cJSON_Parse("{\"queue_depth\": 64}"));
    char *j2 = cJSON_Print(root);
    cJSON_Delete(root);
    expect_error(j2, SSDSIM_ECONFIG, "controller.queue_depth",
                 "SATA's native command queue holds at most 32 commands, got 64");
    free(json);
    free(j2);
    /* NVMe queue pairs on a SATA or SAS device: one command queue, nothing to arbitrate */
    static const char *const nvme_bad[][3] = {
        {"sata", "{\"queues\": 2}", "nvme.queues"},
        {"sas", "{\"arbitration\": \"wrr\"}", "nvme.arbitration"},
        {"sata", "{\"fetch_us\": 1}", "nvme.fetch_us"},
        {"sata", "{\"burst\": 4}", "nvme.burst"}, /* was kept, though it did nothing */
    };
    for (size_t i = 0; i < sizeof nvme_bad / sizeof *nvme_bad; i++) {
        g_autofree char *host = g_strdup_printf("{\"interface\": \"%s\"}", nvme_bad[i][0]);
        json = small_with("host", host);
        root = cJSON_Parse(json);
        cJSON_AddItemToObject(root, "nvme", cJSON_Parse(nvme_bad[i][1]));
        j2 = cJSON_Print(root);
        cJSON_Delete(root);
        g_autofree char *why = g_strdup_printf(
            "NVMe queue pairs apply to a PCIe or custom host interface; host.interface is %s",
            nvme_bad[i][0]);
        expect_error(j2, SSDSIM_ECONFIG, nvme_bad[i][2], why);
        free(json);
        free(j2);
    }
    /* host-based FTL costs only with host threads */
    expect_change_error("host", "{\"ftl_cpu_us\": 3}", "host.ftl_cpu_us",
                        "applies only when host.ftl_threads > 0");
}
END_TEST

START_TEST(test_config_buffer)
{
    char *json = small_with("buffer", "{\"size\": \"512KiB\", \"plp\": true, \"flush_start\": 0.5, "
                                      "\"flush_stop\": 0.25}");
    ssdsim_model *m = load_ok(json);
    free(json);
    ck_assert_uint_eq(m->buffer.size, 512 << 10);
    ck_assert(m->buffer.plp);
    ck_assert_uint_eq(m->buffer.dram_bytes_per_s, 3200000000ULL); /* the default */
    ssdsim_model_free(m);
    expect_change_error("buffer", "{\"size\": \"512KiB\", \"plp\": true, \"write_cache\": false}",
                        "buffer.write_cache",
                        "applies only when the buffer is volatile (buffer.plp false)");
    expect_change_error("buffer", "{\"plp\": true}", "buffer.plp",
                        "applies only when buffer.size > 0");
    /* without a buffer the write cache is refused for want of the buffer, not of plp false */
    expect_change_error("buffer", "{\"write_cache\": true}", "buffer.write_cache",
                        ": buffer.write_cache: applies only when buffer.size > 0");
    expect_change_error("buffer", "{\"size\": 1024}", "buffer.size",
                        "a buffer of 1024 bytes holds less than one mapping unit (4096)");
    /* small_json: 2 x 16 x 8 = 256 pages, op 0.25: 204 logical pages of 4 KiB, 835584 bytes. */
    expect_change_error("buffer", "{\"size\": 835585}", "buffer.size",
                        "a write buffer of 835585 bytes is larger than the drive's logical "
                        "capacity (835584 bytes)");
    expect_change_error("buffer",
                        "{\"size\": \"512KiB\", \"flush_start\": 0.2, \"flush_stop\": 0.5}",
                        "buffer.flush_stop", "above where it starts");
    expect_change_error("controller.program_bw", "\"500kB/s\"", "controller.program_bw",
                        "expected 0 (no limit) or at least 1MB/s, got 500000 bytes a second");
}
END_TEST

static char heard_log[1024];
static int n_heard;

static void hear_log(enum ssdsim_log_level level, const char *message, void *userdata)
{
    (void)userdata;
    ck_assert_int_eq(level, SSDSIM_LOG_WARNING);
    snprintf(heard_log, sizeof heard_log, "%s", message);
    n_heard++;
}

/* GC keys given to an FTL that takes no GC victim policy ("fast", "direct") have no effect: the
 * loader says so in one line through the log, naming them; for a set key, only that key. */
START_TEST(test_config_gc_keys_unused_note)
{
    ssdsim_set_log_handler(hear_log, NULL);
    n_heard = 0;
    char *json = small_with("ftl", "{\"type\": \"fast\", \"op\": 0.25}");
    ssdsim_model *m = load_ok(json);
    free(json);
    ck_assert_int_eq(n_heard, 1);
    ck_assert_str_eq(heard_log, "models/x.json: note: gc.free_blocks_min has no effect: ftl.type "
                                "\"fast\" uses no GC victim policy");
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_set(m, "gc.policy", "\"fifo\"", &e), 0);
    ck_assert_int_eq(n_heard, 2);
    ck_assert_str_eq(heard_log, "--set: note: gc.policy has no effect: ftl.type \"fast\" uses no "
                                "GC victim policy");
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.op", "0.3", &e), 0);
    ck_assert_int_eq(n_heard, 2); /* not a GC key: nothing more */
    ssdsim_model_free(m);
    /* The page FTL uses them: no note. */
    m = load_ok(small_json);
    ck_assert_int_eq(n_heard, 2);
    ck_assert_int_eq(ssdsim_model_set(m, "ftl.type", "\"fast\"", &e), 0);
    ck_assert_int_eq(n_heard, 3);
    ck_assert_str_eq(heard_log, "--set: note: gc.free_blocks_min has no effect: ftl.type "
                                "\"fast\" uses no GC victim policy");
    ssdsim_model_free(m);
    ssdsim_set_log_handler(NULL, NULL);
}
END_TEST

/* Units with or without a space are read alike by the model loader ("4 KiB" and "4KiB", "5 us"
 * and "5us"), in sizes, times and rates. */
START_TEST(test_config_units_with_space)
{
    char *a =
        small_with("flash", "{\"cell\": \"mlc\", \"read_us\": [\"50 us\", \"70us\"], "
                            "\"program_us\": [\"500 us\", \"1.8 ms\"], \"erase_us\": \"3 ms\", "
                            "\"bus_mts\": 200, \"bus_width\": 8}");
    ssdsim_model *spaced = load_ok(a);
    ssdsim_model *plain = load_ok(small_json);
    ck_assert_mem_eq(&spaced->flash, &plain->flash, sizeof spaced->flash);
    ssdsim_model_free(spaced);
    free(a);
    a = small_with("geometry.page_size", "\"4 KiB\"");
    spaced = load_ok(a);
    ck_assert_uint_eq(spaced->geometry.page_size, 4096);
    ck_assert_uint_eq(spaced->geometry.page_size, plain->geometry.page_size);
    ssdsim_model_free(spaced);
    free(a);
    ssdsim_model_free(plain);
}
END_TEST

START_TEST(test_config_xpoint)
{
    /* no erase time, the direct FTL and op 0 by default: 256 pages, all logical */
    char *json = small_with("flash", "{\"cell\": \"xpoint\", \"read_us\": 5, \"program_us\": 20, "
                                     "\"bus_mts\": 400, \"bus_width\": 8}");
    cJSON *root = cJSON_Parse(json);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "ftl");
    char *j2 = cJSON_Print(root);
    cJSON_Delete(root);
    ssdsim_model *m = load_ok(j2);
    ck_assert_str_eq(m->ftl.type, "direct");
    ck_assert(m->ftl.op == 0);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 256 * 4096);
    ck_assert_uint_eq(m->flash.n_page_types, 1);
    ssdsim_model_free(m);
    free(json);
    free(j2);
    /* media without erase may read in a fraction of a microsecond (NAND may not: above) */
    json = small_with("flash", "{\"cell\": \"xpoint\", \"read_us\": 0.3, \"program_us\": 20, "
                               "\"bus_mts\": 400, \"bus_width\": 8}");
    root = cJSON_Parse(json);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "ftl");
    j2 = cJSON_Print(root);
    cJSON_Delete(root);
    m = load_ok(j2);
    ck_assert_uint_eq(m->flash.read_ns[0], 300);
    ssdsim_model_free(m);
    free(json);
    free(j2);
    expect_change_error("flash", "{\"cell\": \"xpoint\", \"read_us\": 5, \"program_us\": 20, "
                                 "\"erase_us\": 1000, \"bus_mts\": 400, \"bus_width\": 8}",
                        "flash.erase_us", "applies only when flash.cell is NAND");
    expect_change_error("ftl", "{\"type\": \"direct\", \"op\": 0.25}", "ftl.type",
                        "needs media without erase");
}
END_TEST

static const char hdd_json[] =
    "{\"name\": \"disk\", \"hdd\": {\"capacity\": \"100GB\", \"rpm\": 7200, "
    "\"outer_rate\": \"120MB/s\", \"inner_rate\": \"60MB/s\", \"seek_track_us\": 500, "
    "\"seek_avg_us\": 8500, \"seek_full_us\": 18000}, "
    "\"host\": {\"interface\": \"sata\", \"gbps\": 3}%s}";

START_TEST(test_config_hdd)
{
    char json[1024];
    snprintf(json, sizeof json, hdd_json, "");
    ssdsim_model *m = load_ok(json);
    ck_assert_int_eq(ssdsim_model_get_kind(m), SSDSIM_MODEL_HDD);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 100000000000ULL);
    ck_assert_uint_eq(m->hdd.heads, 4); /* defaults */
    ck_assert_int_eq(m->hdd.sched, SSDSIM__HDD_SATF);
    ck_assert_uint_eq(m->hdd.cache_bytes, 16 << 20);
    char *text = ssdsim_model_to_json(m);
    ck_assert_ptr_null(strstr(text, "\"geometry\""));
    ssdsim_model *back = load_ok(text);
    ck_assert_uint_eq(back->hdd.seek_avg_ns, 8500000);
    free(text);
    ssdsim_model_free(back);
    ssdsim_model_free(m);
    /* flash sections do not belong to a disk */
    snprintf(json, sizeof json, hdd_json, ", \"geometry\": {\"channels\": 1}");
    expect_error(json, SSDSIM_ECONFIG, "geometry.channels", "not a key of a hard-disk model");
    snprintf(json, sizeof json, hdd_json, ", \"buffer\": {\"size\": 0}");
    expect_error(json, SSDSIM_ECONFIG, "buffer.size", "not a key of a hard-disk model");
    /* the disk module's own checks (hdd.c), named by key */
    expect_error("{\"hdd\": {\"capacity\": \"100GB\", \"rpm\": 7200, \"outer_rate\": \"120MB/s\", "
                 "\"inner_rate\": \"60MB/s\", \"seek_track_us\": 4000, \"seek_avg_us\": 3000, "
                 "\"seek_full_us\": 18000}}",
                 SSDSIM_ECONFIG, "hdd.seek_avg_us", "");
    expect_error("{\"hdd\": {\"capacity\": 1000000001, \"rpm\": 7200, \"outer_rate\": "
                 "\"120MB/s\", \"inner_rate\": \"60MB/s\", \"seek_track_us\": 500, "
                 "\"seek_avg_us\": 8500, \"seek_full_us\": 18000}}",
                 SSDSIM_ECONFIG, "hdd.capacity", "");
    expect_error("{\"hdd\": {\"rpm\": 7200}}", SSDSIM_ECONFIG, "hdd.capacity",
                 "required key missing");
}
END_TEST

/* A system whose member is a file: written beside it in the build tree. */
static char *system_file(const char *name, const char *system_json)
{
    char *member = build_tmp("member.json");
    ck_assert(g_file_set_contents(member, small_json, -1, NULL));
    char *path = build_tmp(name);
    ck_assert(g_file_set_contents(path, system_json, -1, NULL));
    g_free(member);
    return path;
}

static void expect_file_error(const char *path, const char *key, const char *reason)
{
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_ECONFIG);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(e.path, key);
    ck_assert_msg(strstr(e.message, reason) != NULL, "'%s' not in: %s", reason, e.message);
}

START_TEST(test_config_system)
{
    /* RAID-5 of 4 small devices with 16 KiB strips: each device's 204 pages = 835,584 B hold
     * 51 whole strips; 3 devices of data: 51 x 16 KiB x 3 = 2,506,752 B */
    char *path = system_file("r5.json", "{\"name\": \"r5\", \"system\": {\"member\": "
                                        "\"config-member.json\", \"count\": 4, \"layout\": "
                                        "\"raid5\", \"stripe\": \"16KiB\", \"raid_us\": 6}}");
    ssdsim_model *m = NULL;
    ssdsim_error e;
    ck_assert_msg(ssdsim_model_load_file(&m, path, &e) == 0, "%s", e.message);
    ck_assert_int_eq(ssdsim_model_get_kind(m), SSDSIM_MODEL_SYSTEM);
    ck_assert_uint_eq(ssdsim_model_n_devices(m), 4);
    ck_assert_uint_eq(ssdsim_model_n_volumes(m), 1);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 2506752);
    ck_assert_uint_eq(m->system.controllers, 4); /* one per device by default */
    /* a change is checked like a file, and the member is found beside the file again */
    ck_assert_int_eq(ssdsim_model_set(m, "system.layout", "raid0", &e), 0);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 51 * 16384 * 4);
    ck_assert_int_eq(ssdsim_model_set(m, "system.layout", "raid5", &e), 0);
    ck_assert_int_eq(ssdsim_model_set(m, "system.count", "2", &e), SSDSIM_ECONFIG);
    ck_assert_str_eq(e.path, "system.count");
    ck_assert_msg(strstr(e.message, "RAID-5 needs at least 3 devices, got 2"), "%s", e.message);
    char *text = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(text, "\"member\""));
    free(text);
    ssdsim_model_free(m);
    g_free(path);
    /* JBOD: a volume per device, each the member's capacity; a PCIe 2.0 x8 uplink:
     * 8 x 5e9 x 8/10 / 8 x 256/280 = 3,657,142,857 B/s */
    path = system_file("jbod.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "4, \"controllers\": 2, \"layout\": \"jbod\", \"uplink\": "
                                    "{\"interface\": \"pcie\", \"pcie_gen\": 2, \"lanes\": 8}}}");
    ck_assert_msg(ssdsim_model_load_file(&m, path, &e) == 0, "%s", e.message);
    ck_assert_uint_eq(ssdsim_model_n_volumes(m), 4);
    ck_assert_uint_eq(ssdsim_model_logical_bytes(m), 204 * 4096);
    ck_assert(m->system.have_uplink);
    ck_assert_uint_eq(m->system.uplink.link_bytes_per_s, 3657142857ULL);
    ssdsim_model_free(m);
    g_free(path);
    /* bad systems */
    path = system_file("bad1.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "3, \"controllers\": 2, \"layout\": \"raid0\"}}");
    expect_file_error(path, "system.controllers", "3 devices cannot be split evenly among 2");
    g_free(path);
    path = system_file("bad2.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layout\": \"jbod\", \"stripe\": \"64KiB\"}}");
    expect_file_error(path, "system.stripe", "applies only when system.layout is");
    g_free(path);
    path = system_file("bad3.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layout\": \"raid0\"}, \"geometry\": {}}");
    expect_file_error(path, "geometry", "not a key of a system model");
    g_free(path);
    path = system_file("bad3c.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                     "2, \"layout\": \"raid0\"}, \"caveat\": []}");
    expect_file_error(path, "caveat", "expected a string");
    g_free(path);
    /* a system's caveat is read back as given (the report prints it) */
    path = system_file("cav.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                   "2, \"layout\": \"raid0\"}, \"caveat\": \"too fast\"}");
    ssdsim_model *cm = NULL;
    ssdsim_error cerr;
    ck_assert_int_eq(ssdsim_model_load_file(&cm, path, &cerr), 0);
    char cav[64];
    ck_assert_int_eq(ssdsim_model_get_string(cm, "caveat", cav, sizeof cav, NULL), 0);
    ck_assert_str_eq(cav, "too fast");
    ssdsim_model_free(cm);
    g_free(path);
    path = system_file("bad4.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layot\": \"raid0\"}}");
    expect_file_error(path, "system.layot", "did you mean 'layout'?");
    g_free(path);
    path = system_file("bad5.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layout\": \"raid0\", \"uplink\": {\"interface\": "
                                    "\"sata\", \"lanes\": 2}}}");
    expect_file_error(path, "system.uplink.lanes", "applies only when host.interface is");
    g_free(path);
    /* keys that would have changed nothing: a JBOD's RAID time, an uplink's command time */
    path = system_file("bad7.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layout\": \"jbod\", \"raid_us\": 20}}");
    expect_file_error(path, "system.raid_us", "a JBOD has no RAID layer");
    g_free(path);
    path = system_file("bad8.json", "{\"system\": {\"member\": \"config-member.json\", \"count\": "
                                    "2, \"layout\": \"raid0\", \"uplink\": {\"interface\": "
                                    "\"pcie\", \"pcie_gen\": 2, \"cmd_overhead_us\": 1000}}}");
    expect_file_error(path, "system.uplink.cmd_overhead_us", "system.path_us");
    g_free(path);
    /* a member that is a system is refused before it is loaded: one naming itself, or two
     * naming each other, used to recurse until the stack overflowed */
    path = system_file("self.json", "{\"system\": {\"member\": \"config-self.json\", "
                                    "\"count\": 2, \"layout\": \"jbod\"}}");
    expect_file_error(path, "system.member",
                      "\"config-self.json\" is itself a system; a member must be a device model");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_ECONFIG);
    g_autofree char *self_msg = g_strdup_printf(
        "%s: system.member: \"config-self.json\" is itself a system; a member must be a device "
        "model",
        path);
    ck_assert_str_eq(e.message, self_msg);
    g_free(path);
    path = system_file("cyc-a.json", "{\"system\": {\"member\": \"config-cyc-b.json\", "
                                     "\"count\": 2, \"layout\": \"jbod\"}}");
    char *path_b = system_file("cyc-b.json", "{\"system\": {\"member\": \"config-cyc-a.json\", "
                                             "\"count\": 2, \"layout\": \"jbod\"}}");
    expect_file_error(path, "system.member", "\"config-cyc-b.json\" is itself a system");
    expect_file_error(path_b, "system.member", "\"config-cyc-a.json\" is itself a system");
    g_free(path_b);
    g_free(path);
    /* ... and so is one set in place of a device */
    path = system_file("r1.json", "{\"system\": {\"member\": \"config-member.json\", "
                                  "\"count\": 2, \"layout\": \"raid1\"}}");
    char *self = build_tmp("self.json");
    ck_assert_msg(ssdsim_model_load_file(&m, path, &e) == 0, "%s", e.message);
    ck_assert_int_eq(ssdsim_model_set(m, "system.member", self, &e), SSDSIM_ECONFIG);
    g_autofree char *want =
        g_strdup_printf("--set: system.member: \"%s\" is itself a system; a member must be a "
                        "device model",
                        self);
    ck_assert_str_eq(e.message, want);
    ck_assert_uint_eq(ssdsim_model_n_devices(m), 2); /* unchanged */
    ssdsim_model_free(m);
    g_free(self);
    g_free(path);
    /* a missing member names its own file */
    path = system_file("bad6.json", "{\"system\": {\"member\": \"nope.json\", \"count\": 2, "
                                    "\"layout\": \"raid1\"}}");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_EIO);
    ck_assert_ptr_nonnull(strstr(e.message, "nope.json"));
    g_free(path);
    /* a member without end (a device) fails after 64 MiB instead of filling the memory */
    path = system_file("bad7.json", "{\"system\": {\"member\": \"/dev/zero\", \"count\": 2, "
                                    "\"layout\": \"raid1\"}}");
    ck_assert_int_eq(ssdsim_model_load_file(&m, path, &e), SSDSIM_EIO);
    ck_assert_msg(strstr(e.message, "/dev/zero: cannot read: longer than 64 MiB") != NULL, "%s",
                  e.message);
    ck_assert_ptr_null(m);
    g_free(path);
}
END_TEST

START_TEST(test_config_spec)
{
    char *json = small_with("spec", "{\"source\": \"data sheet\", \"figures\": [{\"name\": "
                                    "\"4K read\", \"metric\": \"read_iops\", \"value\": 1000, "
                                    "\"rw\": \"randread\", \"bs\": \"4KiB\", \"iodepth\": 32}]}");
    ssdsim_model *m = load_ok(json);
    free(json);
    ck_assert_uint_eq(ssdsim_model_spec_count(m), 1);
    ck_assert_str_eq(ssdsim_model_spec_source(m), "data sheet");
    ssdsim_spec_figure f;
    ck_assert_int_eq(ssdsim_model_spec_get(m, 0, &f), 0);
    ck_assert_str_eq(f.metric, "read_iops");
    ck_assert_uint_eq(f.bs, 4096);
    ck_assert_uint_eq(f.iodepth, 32);
    ck_assert_uint_eq(f.numjobs, 1);
    ck_assert_str_eq(f.state, "fresh");
    ck_assert_int_eq(ssdsim_model_spec_get(m, 1, &f), SSDSIM_EINVAL);
    ck_assert_ptr_null(ssdsim_model_spec_fitted(m, 0));
    /* copies keep them */
    ssdsim_model *c = ssdsim__model_copy(m);
    ck_assert_uint_eq(ssdsim_model_spec_count(c), 1);
    ssdsim_model_free(c);
    ssdsim_model_free(m);
    /* a figure a parameter was derived from names that key; copies and the printed model keep
     * it, and a name that is not a key of a device model is refused */
    json = small_with("spec", "{\"figures\": [{\"name\": \"4K read\", \"metric\": "
                              "\"read_iops\", \"value\": 1000, \"rw\": \"randread\", \"bs\": "
                              "\"4KiB\", \"fitted\": \"controller.cmd_overhead_us\"}]}");
    m = load_ok(json);
    free(json);
    ck_assert_str_eq(ssdsim_model_spec_fitted(m, 0), "controller.cmd_overhead_us");
    ck_assert_ptr_null(ssdsim_model_spec_fitted(m, 1));
    ck_assert_ptr_null(ssdsim_model_spec_fitted(NULL, 0));
    c = ssdsim__model_copy(m);
    ck_assert_str_eq(ssdsim_model_spec_fitted(c, 0), "controller.cmd_overhead_us");
    ssdsim_model_free(c);
    char *text = ssdsim_model_to_json(m);
    ck_assert_ptr_nonnull(strstr(text, "\"fitted\":\t\"controller.cmd_overhead_us\""));
    free(text);
    ssdsim_model_free(m);
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                                "\"value\": 1, \"rw\": \"read\", \"bs\": 4096, \"fitted\": "
                                "\"controller.overhead\"}]}",
                        "spec.figures[0].fitted",
                        "got \"controller.overhead\", not a key of a device model");
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                                "\"value\": 1, \"rw\": \"read\", \"bs\": 4096, \"fitted\": 3}]}",
                        "spec.figures[0].fitted", "expected a non-empty string, got a number (3)");
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                                "\"value\": 1, \"rw\": \"write\", \"bs\": 4096}]}",
                        "spec.figures[0]", "metric \"read_iops\" does not match rw \"write\"");
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"iops\", "
                                "\"value\": 1, \"rw\": \"read\", \"bs\": 4096}]}",
                        "spec.figures[0].metric", "expected one of \"read_iops\"");
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                                "\"value\": 1, \"rw\": \"read\", \"bs\": 4096, \"qd\": 1}]}",
                        "spec.figures[0].qd", "unknown key");
    expect_change_error("spec",
                        "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                        "\"value\": -5, \"rw\": \"read\", \"bs\": 4096}]}",
                        "spec.figures[0].value", "expected a positive number below 1e12, got -5");
    expect_change_error("spec",
                        "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                        "\"value\": 1e308, \"rw\": \"read\", \"bs\": 4096}]}",
                        "spec.figures[0].value",
                        ": spec.figures[0].value: expected a positive number below 1e12, got "
                        "1e+308");
    expect_change_error("spec", "{\"source\": \"x\"}", "spec.figures", "required key missing");
    /* calibrate --figure selects by name or number: a second figure of the same name would
     * never be selected, and a name that is a number would be taken for another figure's */
    expect_change_error("spec",
                        "{\"figures\": [{\"name\": \"write qd1\", \"metric\": "
                        "\"write_iops\", \"value\": 1, \"rw\": \"randwrite\", \"bs\": "
                        "4096}, {\"name\": \"x\", \"metric\": \"read_iops\", \"value\": 1, "
                        "\"rw\": \"read\", \"bs\": 4096}, {\"name\": \"write qd1\", "
                        "\"metric\": \"write_iops\", \"value\": 2, \"rw\": \"randwrite\", "
                        "\"bs\": 4096}]}",
                        "spec.figures[2].name",
                        ": spec.figures[2].name: \"write qd1\" is already the name of "
                        "spec.figures[0]; expected a name of its own (a figure is selected by its "
                        "name)");
    expect_change_error("spec",
                        "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                        "\"value\": 1, \"rw\": \"read\", \"bs\": 4096}, {\"name\": \"2\", "
                        "\"metric\": \"read_iops\", \"value\": 1, \"rw\": \"read\", "
                        "\"bs\": 4096}]}",
                        "spec.figures[1].name",
                        ": spec.figures[1].name: expected a name that is not a plain number (a "
                        "figure is also selected by its number, from 1), got \"2\"");
    json = small_with("spec", "{\"figures\": [{\"name\": \"2 KiB read\", \"metric\": "
                              "\"read_iops\", \"value\": 1, \"rw\": \"read\", \"bs\": 2048}]}");
    m = load_ok(json); /* a name that starts with a digit is a name */
    free(json);
    size_t k = 9;
    ck_assert_int_eq(ssdsim_model_spec_find(m, "2 KiB read", &k), 0);
    ck_assert_uint_eq(k, 0);
    ssdsim_model_free(m);
    expect_change_error("spec", "{\"figures\": [{\"name\": \"x\", \"metric\": \"read_iops\", "
                                "\"value\": 1, \"rw\": \"read\", \"bs\": 4096, \"bound\": \"max\"}]}",
                        "spec.figures[0].bound", "expected one of \"typical\"");
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, test_config_models_load);
    tcase_add_test(tc, test_config_plugin_params_load_and_print);
    tcase_add_test(tc, test_config_generic_figures);
    tcase_add_test(tc, test_config_builtin_default);
    tcase_add_test(tc, test_config_defaults);
    tcase_add_test(tc, test_config_units_size);
    tcase_add_test(tc, test_config_units_time);
    tcase_add_test(tc, test_config_units_rate);
    tcase_add_test(tc, test_config_unknown_key);
    tcase_add_test(tc, test_config_duplicate_key);
    tcase_add_test(tc, test_config_wrong_type);
    tcase_add_test(tc, test_config_out_of_range);
    tcase_add_test(tc, test_config_time_list_length);
    tcase_add_test(tc, test_config_missing_required);
    tcase_add_test(tc, test_config_impossible_geometry);
    tcase_add_test(tc, test_config_op_too_small);
    tcase_add_test(tc, test_config_mapping_unit);
    tcase_add_test(tc, test_config_syntax_error);
    tcase_add_test(tc, test_config_missing_file);
    tcase_add_test(tc, test_config_bogus_args);
    tcase_add_test(tc, test_config_set);
    tcase_add_test(tc, test_config_set_failure_unchanged);
    tcase_add_test(tc, test_config_set_many);
    tcase_add_test(tc, test_config_logical_bytes);
    tcase_add_test(tc, test_config_to_json_round_trip);
    tcase_add_test(tc, test_config_copy);
    tcase_add_test(tc, test_config_free_null);
    tcase_add_test(tc, test_config_nul_byte);
    tcase_add_test(tc, test_config_interfaces);
    tcase_add_test(tc, test_config_buffer);
    tcase_add_test(tc, test_config_gc_keys_unused_note);
    tcase_add_test(tc, test_config_units_with_space);
    tcase_add_test(tc, test_config_xpoint);
    tcase_add_test(tc, test_config_hdd);
    tcase_add_test(tc, test_config_system);
    tcase_add_test(tc, test_config_spec);
    tcase_add_test(tc, test_config_message_one_line);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(config_suite());
}
