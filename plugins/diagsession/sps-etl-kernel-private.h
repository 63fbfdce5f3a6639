/* sps-etl-kernel-private.h: what the kernel reading's files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-etl-kernel.h"

G_BEGIN_DECLS

/* sps-etl-kernel.c */
void  _sps_etl_kernel_clear_reading_state (SpsEtlKernel       *self);
guint _sps_etl_kernel_last_sample         (const SpsEtlKernel *self,
                                           guint32             tid);

/* sps-etl-kernel-stacks.c */
void  _sps_etl_kernel_init_stacks         (SpsEtlKernel       *self);
void  _sps_etl_kernel_add_stack_walk      (SpsEtlKernel       *self,
                                           const SpsEtlRecord *record);

G_END_DECLS
