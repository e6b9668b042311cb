/* scaled.h: the scaled-copy rule (scaled.c) for fast preconditioning (precond.c), on the
 * internal model, which for a system is its member. Private. */
#ifndef SSDSIM_METHODS_SCALED_H
#define SSDSIM_METHODS_SCALED_H

#include "common.h"

struct ssdsim_model;

/* Blocks per plane of the scaled copy the library chooses for device model `m`. */
uint32_t ssdsim__scaled_bpp(const struct ssdsim_model *m);

/* Blocks per plane of the flash a scaled copy of `model` scales: its own, or a system's
 * member's; 0 for a hard disk or an array of them. */
uint32_t ssdsim__model_blocks_per_plane(const struct ssdsim_model *model);

/* The scaled copy of device model `m` with `bpp_s` blocks per plane and the over-provisioning
 * of the rule; NULL with `err` filled (message, code) on failure. */
struct ssdsim_model *ssdsim__scaled_copy(const struct ssdsim_model *m, uint32_t bpp_s,
                                         ssdsim_error *err);

#endif /* SSDSIM_METHODS_SCALED_H */
