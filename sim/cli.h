/* cli.h: shared pieces of the ssdsim command (subcommands, report, progress line). */
#ifndef SSDSIM_CLI_H
#define SSDSIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ssdsim/ssdsim.h"

/* Exit codes: 0 success, 1 the simulation or its input failed, 2 bad command line. */
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

int cli_run(int argc, char **argv);
int cli_demo(int argc, char **argv);

/* Print one error line "ssdsim: ..." to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Human-readable summary and the preconditioning table. */
void cli_report(FILE *out, const ssdsim *sim, const ssdsim_model *model, const char *wl_desc);

/* Progress line on stderr, only when it is a terminal (the callback for ssdsim_set_progress). */
struct cli_progress;
struct cli_progress *cli_progress_new(const char *what);
int cli_progress_cb(double fraction, void *userdata);
void cli_progress_done(struct cli_progress *p);

#endif /* SSDSIM_CLI_H */
