/* fuzz_model.c: libFuzzer harness of the model loader (ssdsim_model_load_string and
 * ssdsim_model_load_file, libssdsim/config/model_load.c).
 *
 * The input is a model's JSON text. It is loaded from the string, and from a file in a scratch
 * directory where every model of models/ is linked too (so a system model finds its member
 * beside it). Whatever the bytes, a load either succeeds or fails with a negative code and a
 * one-line message naming the input; it never crashes, hangs or leaks. A model that loads must
 * round-trip: its canonical JSON (ssdsim_model_to_json) loads again and gives the same canonical
 * JSON, and the figures the public API reports about it are sane.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ssdsim/ssdsim.h"

#ifndef FUZZ_MODELS_DIR
#define FUZZ_MODELS_DIR "models"
#endif

/* The failure must name the input and say something on one line. */
static void check_error(int rc, const ssdsim_error *err, const char *label)
{
    FUZZ_CHECK(rc < 0 && rc >= -(SSDSIM_N_ERRORS - 1), "code %d", rc);
    FUZZ_CHECK(err->code == rc, "err.code %d, returned %d", err->code, rc);
    FUZZ_CHECK(err->message[0] != '\0', "empty message");
    FUZZ_CHECK(strchr(err->message, '\n') == NULL, "message on several lines: %s", err->message);
    /* the input, or the member model file a system names (a message about the member names
     * the member's file) */
    FUZZ_CHECK(strstr(err->message, label) != NULL || err->file[0] != '\0' || rc == SSDSIM_ENOMEM,
               "message does not name %s: %s", label, err->message);
}

/* A loaded model: sane figures, and canonical JSON that reloads to itself. */
static void check_model(const ssdsim_model *m)
{
    ssdsim_model_kind kind = ssdsim_model_get_kind(m);
    FUZZ_CHECK(kind == SSDSIM_MODEL_SSD || kind == SSDSIM_MODEL_HDD || kind == SSDSIM_MODEL_SYSTEM,
               "kind %d", (int)kind);
    FUZZ_CHECK(ssdsim_model_logical_bytes(m) > 0, "no logical capacity");
    uint32_t nd = ssdsim_model_n_devices(m), nv = ssdsim_model_n_volumes(m);
    FUZZ_CHECK(nd >= 1 && nv >= 1 && nv <= nd, "%u devices, %u volumes", nd, nv);
    size_t nspec = ssdsim_model_spec_count(m);
    for (size_t i = 0; i < nspec; i++) {
        ssdsim_spec_figure f;
        FUZZ_CHECK(ssdsim_model_spec_get(m, i, &f) == 0, "spec figure %zu", i);
        FUZZ_CHECK(f.name && f.metric && f.rw && f.state, "spec figure %zu has a NULL string", i);
    }
    ssdsim_spec_figure f;
    FUZZ_CHECK(ssdsim_model_spec_get(m, nspec, &f) == SSDSIM_EINVAL, "spec figure out of range");

    char *json = ssdsim_model_to_json(m);
    FUZZ_CHECK(json != NULL, "no canonical JSON");
    ssdsim_model *again = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_model_load_string(&again, json, "<canonical>", &err);
    FUZZ_CHECK(rc == 0, "canonical JSON does not load: %s\n%s", err.message, json);
    char *json2 = ssdsim_model_to_json(again);
    FUZZ_CHECK(json2 && strcmp(json, json2) == 0, "canonical JSON changed on reload:\n%s\n---\n%s",
               json, json2 ? json2 : "(null)");
    FUZZ_CHECK(ssdsim_model_logical_bytes(again) == ssdsim_model_logical_bytes(m),
               "capacity changed on reload");
    free(json2);
    ssdsim_model_free(again);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int linked;
    if (!linked) {
        fuzz_link_models(FUZZ_MODELS_DIR);
        linked = 1;
    }
    char *text = fuzz_string(data, size);
    ssdsim_model *m = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_model_load_string(&m, text, "fuzz-input", &err);
    if (rc == 0) {
        FUZZ_CHECK(m != NULL, "success without a model");
        check_model(m);
    } else {
        FUZZ_CHECK(m == NULL, "failure left a model");
        check_error(rc, &err, "fuzz-input");
    }
    ssdsim_model_free(m);

    /* The same bytes from a file (gives the system members a directory to be found in). */
    const char *path = fuzz_file("fuzz-model.json", data, size);
    m = NULL;
    memset(&err, 0, sizeof err);
    rc = ssdsim_model_load_file(&m, path, &err);
    if (rc == 0) {
        check_model(m);
    } else {
        FUZZ_CHECK(m == NULL, "failure left a model");
        check_error(rc, &err, "fuzz-model.json");
    }
    ssdsim_model_free(m);
    free(text);
    return 0;
}
