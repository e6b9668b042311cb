/* plugin_load.h: loading plugin modules into the command (plugin_load.c): --plugin FILE.so on
 * run, sweep, suite, calibrate and list, the plugin directories, and the list of modules a
 * sweep's manifest carries to its points. */
#ifndef SSDSIM_PLUGIN_LOAD_H
#define SSDSIM_PLUGIN_LOAD_H

#include <stddef.h>

#include <ssdsim/sys/plugin.h>

/* Load the module FILE and register every FTL, GC policy and wear leveler it lists. A file
 * already loaded (the same file, by its canonical path) is not loaded again. 0, or -1 after
 * printing one line naming the file and the reason. `given`: named on the command line (or in a
 * manifest), so remembered for cli_plugin_given(). */
int cli_plugin_load(const char *path, int given);

/* Load every *.so, in byte order of the names, of each directory of SSDSIM_PLUGIN_PATH
 * (colon-separated; set and empty: none) or, when it is not set, of the installed plugin
 * directory $(pkglibdir)/plugins. A directory that does not exist is skipped. 0, or -1 after
 * printing the error. */
int cli_plugin_autoload(void);

/* The request source of that name a loaded module provides, or NULL. */
const ssdsim_source_ops *cli_plugin_source(const char *name);
/* Request source `i` (0, 1, ... in loading order), or NULL past the last. */
const ssdsim_source_ops *cli_plugin_source_at(size_t i);

/* The canonical paths of the modules given (cli_plugin_load with `given`), in order; n set to
 * their number. */
const char *const *cli_plugin_given(size_t *n);

#endif /* SSDSIM_PLUGIN_LOAD_H */
