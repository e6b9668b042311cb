/* model.h: the device model as plain C structs, after JSON loading and validation.
 *
 * The model loader (model.c) keeps the cJSON tree only to apply --set overrides and re-validate;
 * nothing outside config/ sees cJSON. Every time is in ns, every size in bytes.
 */
#ifndef SSDSIM_CONFIG_MODEL_H
#define SSDSIM_CONFIG_MODEL_H

#include "common.h"

/* Cell types; the number of page types per word line equals the bits per cell. */
enum ssdsim__cell { SSDSIM__CELL_SLC = 1, SSDSIM__CELL_MLC = 2, SSDSIM__CELL_TLC = 3,
                    SSDSIM__CELL_QLC = 4 };

#define SSDSIM__MAX_PAGE_TYPES 4
#define SSDSIM__NAME_MAX 32

struct ssdsim__geometry {
    uint32_t channels;
    uint32_t chips_per_channel;
    uint32_t dies_per_chip;
    uint32_t planes_per_die;
    uint32_t blocks_per_plane;
    uint32_t pages_per_block;
    uint32_t page_size; /* bytes */
};

struct ssdsim__flash {
    enum ssdsim__cell cell;
    uint32_t n_page_types;                        /* == cell */
    uint64_t read_ns[SSDSIM__MAX_PAGE_TYPES];     /* per page type: LSB, CSB, MSB, TSB order */
    uint64_t program_ns[SSDSIM__MAX_PAGE_TYPES];  /* per page type */
    uint64_t erase_ns;
    uint32_t bus_mts;        /* channel bus rate, mega-transfers per second */
    uint32_t bus_width_bits; /* 8 or 16 */
    uint32_t rated_pe_cycles;
};

struct ssdsim__controller_cfg {
    uint64_t cmd_overhead_ns; /* firmware time per host command (pipelined: adds latency) */
    uint32_t cores;           /* firmware cores: commands processed in parallel */
    uint32_t queue_depth;     /* commands the device accepts at once; the rest wait on the host */
};

struct ssdsim__host_cfg {
    uint64_t link_bytes_per_s; /* host link bandwidth per direction */
    uint64_t cmd_overhead_ns;  /* link/protocol time per command (submission + completion) */
};

/* Parameters of a plugin section: one value per parameter the plugin declares, in its order,
 * defaults filled in. */
#define SSDSIM__MAX_PARAMS 16

struct ssdsim__ftl_cfg {
    char type[SSDSIM__NAME_MAX]; /* registered FTL name ("page") */
    double params[SSDSIM__MAX_PARAMS];
    double op;             /* (physical - logical) / logical */
    uint32_t mapping_unit; /* bytes; equal to geometry.page_size in this version */
    int hot_cold;          /* separate host writes by update frequency */
    double hot_window;     /* a write is hot if its old copy was written within this fraction
                              of the logical space's worth of writes */
};

struct ssdsim__gc_cfg {
    char policy[SSDSIM__NAME_MAX]; /* registered GC policy name ("greedy") */
    double params[SSDSIM__MAX_PARAMS];
    uint32_t free_blocks_min;    /* per plane: foreground GC starts below this (low watermark) */
    uint32_t free_blocks_target; /* per plane: GC goes on until this (high watermark) */
    uint64_t bg_idle_ns;         /* background GC after this long idle; 0 = never */
    int separate;                /* GC copies get their own write frontier */
};

struct ssdsim__wl_cfg {
    char policy[SSDSIM__NAME_MAX]; /* registered wear leveler ("none") */
    double params[SSDSIM__MAX_PARAMS];
};

struct ssdsim_model {
    char *label; /* file name or caller label, for messages */
    void *json;  /* cJSON tree as loaded (owned), for ssdsim_model_set */
    struct ssdsim__geometry geometry;
    struct ssdsim__flash flash;
    struct ssdsim__controller_cfg controller;
    struct ssdsim__host_cfg host;
    struct ssdsim__ftl_cfg ftl;
    struct ssdsim__gc_cfg gc;
    struct ssdsim__wl_cfg wl;
};

/* Derived sizes of a validated model. */
uint64_t ssdsim__model_physical_pages(const struct ssdsim_model *m);
uint64_t ssdsim__model_logical_pages(const struct ssdsim_model *m); /* in mapping units */

/* Deep copy (label and JSON tree included). Returns NULL when out of memory. */
struct ssdsim_model *ssdsim__model_copy(const struct ssdsim_model *m);

#endif /* SSDSIM_CONFIG_MODEL_H */
