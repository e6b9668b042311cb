/* fioopt_int.h: what the files of the fio option table share (never installed): a row of the
 * table, the type of the setters that apply a simulated option to a job, and the setters the
 * table names.
 *
 * The table and the machinery that looks an option up and applies it are in fioopt.c; the
 * setters are grouped by what they set: plain fields and strings (fioopt_set.c), sizes, offsets,
 * block sizes and rates (fioopt_size.c), the access pattern: rw, random_distribution and its
 * zones (fioopt_pattern.c), the steady-state stop (fioopt_ss.c), and the drive's features: FUA,
 * NVMe queues, FDP placement, zones (fioopt_dev.c). Each setter checks its value completely
 * before storing anything, so a failed apply leaves the job as it was.
 */
#ifndef SSDSIM_WORKLOAD_FIOOPT_INT_H
#define SSDSIM_WORKLOAD_FIOOPT_INT_H

#include "workload/fioval.h"
#include "workload/workload.h"

#include <stddef.h>
#include <stdint.h>

enum ssdsim__fio_optclass {
    SSDSIM__FIO_SIM,    /* parsed into the jobspec */
    SSDSIM__FIO_IGNORE, /* accepted, no effect on a simulation, listed as ignored */
    SSDSIM__FIO_REFUSE, /* refused with a reason, except for the values in `noop` (ignored) */
};

struct ssdsim__fio_optdef;

/* Apply option `o` with `value` (NULL: given without a value) to `job`: 0, or SSDSIM_ECONFIG
 * (SSDSIM_ENOMEM for a string) with a one-line reason in errbuf. */
typedef int (*ssdsim__fio_setter)(const struct ssdsim__fio_optdef *o,
                                  struct ssdsim__jobspec *job, const char *value, char *errbuf,
                                  size_t errlen);

/* A row of the option table. */
struct ssdsim__fio_optdef {
    const char *name;
    const char *alias; /* fio's alias, or NULL */
    enum ssdsim__optkind kind;
    enum ssdsim__fio_optclass cls;
    ssdsim__fio_setter apply; /* SSDSIM__FIO_SIM */
    size_t off;       /* field the generic setters (set_bool, set_time, ...) store into */
    size_t size;      /* its size: integers are stored at the width of its elements */
    uint64_t unit_ns; /* time options: the unit when none is written */
    const char *noop; /* SSDSIM__FIO_REFUSE: values that change nothing, '|'-separated ("0") */
    const char *why;  /* SSDSIM__FIO_REFUSE: why, completing "not supported: " */
    uint64_t min, max; /* integers: the range of each value */
};

/* The field of `job` that row `o` names, as a `type *`. */
#define SSDSIM__FIO_FIELD(job, o, type) ((type *)(void *)((char *)(job) + (o)->off))

/* Declares a setter. */
#define SSDSIM__FIO_SETTER(fn)                                                                     \
    int fn(const struct ssdsim__fio_optdef *o, struct ssdsim__jobspec *job, const char *value,    \
           char *errbuf, size_t errlen)

/* fioopt_set.c: the row's field: a flag or a bool, a time with the row's unit, an integer in the
 * row's range (set_uint) or one per direction (set_dirs), a log-file prefix; the string
 * options; loops; iodepth and ioengine. */
SSDSIM__FIO_SETTER(ssdsim__fio_set_bool);
SSDSIM__FIO_SETTER(ssdsim__fio_set_time);
SSDSIM__FIO_SETTER(ssdsim__fio_set_uint);
SSDSIM__FIO_SETTER(ssdsim__fio_set_dirs);
SSDSIM__FIO_SETTER(ssdsim__fio_set_logname);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_name);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_read_iolog);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_loops);
SSDSIM__FIO_SETTER(ssdsim__fio_set_iodepth);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_ioengine);

/* fioopt_size.c: block sizes, the region and the amount of I/O, pacing. */
SSDSIM__FIO_SETTER(ssdsim__fio_opt_bs);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_ba);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_bsrange);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_bssplit);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_size);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_offset);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_offset_increment);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_offset_align);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_io_size);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_rate_process);

/* fioopt_pattern.c: the access pattern. */
SSDSIM__FIO_SETTER(ssdsim__fio_opt_rw);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_rwmixwrite);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_randseed);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_random_distribution);

/* fioopt_ss.c: the steady-state criterion and limit. */
SSDSIM__FIO_SETTER(ssdsim__fio_opt_ss);

/* fioopt_dev.c: the drive's features. */
SSDSIM__FIO_SETTER(ssdsim__fio_opt_sync);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_queue);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_placement);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_fdp_pli);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_fdp_pli_select);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_zonemode);
SSDSIM__FIO_SETTER(ssdsim__fio_set_zone_bytes);
SSDSIM__FIO_SETTER(ssdsim__fio_opt_zonerange);

#endif /* SSDSIM_WORKLOAD_FIOOPT_INT_H */
