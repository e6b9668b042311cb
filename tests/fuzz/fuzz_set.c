/* fuzz_set.c: libFuzzer harness of `--set` (ssdsim_model_set: key=value on a loaded model,
 * libssdsim/config/model_load.c).
 *
 * The input is lines of `key=value`, applied in turn to a model: the built-in default, or, when
 * the first line is `@name.json`, that file of models/ (an HDD or a system model, say). The
 * value is JSON text or a bare word, as on the command line. Invariants: a set succeeds or fails
 * with a negative code and one line; a failed set leaves the model unchanged (its canonical JSON
 * is the same before and after); after a successful set the canonical JSON loads again and
 * gives itself back. The same lines are then given at once (ssdsim_model_set_many) to a copy of
 * the model as it was: the same invariants, `failed` within the lines, and when every set in
 * turn succeeded, all at once succeeds too and gives the same model.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ssdsim/ssdsim.h"

#ifndef FUZZ_MODELS_DIR
#define FUZZ_MODELS_DIR "models"
#endif

/* Sets applied per input at most. */
#define MAX_SETS 16

static void round_trip(const char *json)
{
    ssdsim_model *again = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_model_load_string(&again, json, "<canonical>", &err);
    FUZZ_CHECK(rc == 0, "canonical JSON does not load: %s\n%s", err.message, json);
    char *json2 = ssdsim_model_to_json(again);
    FUZZ_CHECK(json2 && strcmp(json, json2) == 0, "canonical JSON changed on reload:\n%s\n---\n%s",
               json, json2 ? json2 : "(null)");
    free(json2);
    ssdsim_model_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char *line = text, *next;
    ssdsim_model *m = NULL;
    ssdsim_error err;
    memset(&err, 0, sizeof err);
    if (line[0] == '@') {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strchr(line + 1, '/') || strlen(line + 1) > 100) {
            free(text);
            return 0;
        }
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FUZZ_MODELS_DIR, line + 1);
        if (ssdsim_model_load_file(&m, path, &err) != 0) {
            free(text);
            return 0;
        }
        line = next ? next : line + strlen(line);
    } else {
        FUZZ_CHECK(ssdsim_model_default(&m, &err) == 0, "default model: %s", err.message);
    }
    char *before = ssdsim_model_to_json(m);
    FUZZ_CHECK(before != NULL, "no canonical JSON");
    ssdsim_model *orig = NULL;
    FUZZ_CHECK(ssdsim_model_copy(&orig, m) == 0, "copy failed");
    const char *keys[MAX_SETS], *values[MAX_SETS];
    size_t n_kv = 0;
    bool all_ok = true;
    for (int n = 0; *line && n < MAX_SETS; n++, line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        else
            next = line + strlen(line);
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        keys[n_kv] = line;
        values[n_kv++] = eq + 1;
        memset(&err, 0, sizeof err);
        int rc = ssdsim_model_set(m, line, eq + 1, &err);
        all_ok = all_ok && rc == 0;
        char *after = ssdsim_model_to_json(m);
        FUZZ_CHECK(after != NULL, "no canonical JSON after set");
        if (rc != 0) {
            FUZZ_CHECK(rc < 0 && rc >= -(SSDSIM_N_ERRORS - 1), "code %d", rc);
            FUZZ_CHECK(err.message[0] != '\0', "empty message");
            FUZZ_CHECK(strchr(err.message, '\n') == NULL, "message on several lines: %s",
                       err.message);
            FUZZ_CHECK(strcmp(before, after) == 0, "failed set %s=%s changed the model: %s", line,
                       eq + 1, err.message);
            free(after);
        } else {
            round_trip(after);
            free(before);
            before = after;
        }
    }
    /* all at once, on the model as it was */
    char *start = ssdsim_model_to_json(orig);
    FUZZ_CHECK(start != NULL, "no canonical JSON of the copy");
    size_t failed = SIZE_MAX;
    memset(&err, 0, sizeof err);
    int rc = ssdsim_model_set_many(orig, n_kv, keys, values, &failed, &err);
    char *after = ssdsim_model_to_json(orig);
    FUZZ_CHECK(after != NULL, "no canonical JSON after set_many");
    if (rc != 0) {
        FUZZ_CHECK(rc < 0 && rc >= -(SSDSIM_N_ERRORS - 1), "set_many code %d", rc);
        FUZZ_CHECK(err.message[0] != '\0' && strchr(err.message, '\n') == NULL,
                   "set_many message empty or on several lines: %s", err.message);
        FUZZ_CHECK(failed < n_kv, "set_many failed at %zu of %zu", failed, n_kv);
        FUZZ_CHECK(strcmp(start, after) == 0, "a failed set_many changed the model: %s",
                   err.message);
        FUZZ_CHECK(!all_ok, "set_many refused what every set in turn took: %s", err.message);
    } else {
        round_trip(after);
        if (all_ok)
            FUZZ_CHECK(strcmp(before, after) == 0,
                       "set_many gave another model than the sets in turn:\n%s\n---\n%s",
                       before, after);
    }
    free(start);
    free(after);
    ssdsim_model_free(orig);
    free(before);
    ssdsim_model_free(m);
    free(text);
    return 0;
}
