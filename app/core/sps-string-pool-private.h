/* sps-string-pool-private.h: the string pool's limit, for the builder and
 * the tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-string-pool.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

/* The ids a string pool hands out at most, the empty string's included:
 * its probe table keeps twice as many slots, a power of two that a guint
 * holds */
#define SPS_STRING_POOL_MAX_STRINGS (1u << 30)

/* Exported for the tests of the limits only */
_SPS_EXTERN
void     _sps_string_pool_set_max_strings (SpsStringPool *self,
                                           guint          max_strings);
_SPS_EXTERN
guint64  _sps_string_pool_get_n_dropped   (SpsStringPool *self);

G_END_DECLS
