/* sps-string-pool.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

#define SPS_TYPE_STRING_POOL (sps_string_pool_get_type ())

typedef struct _SpsStringPool SpsStringPool;

SPS_AVAILABLE_IN_ALL
GType          sps_string_pool_get_type (void) G_GNUC_CONST;
SPS_AVAILABLE_IN_ALL
SpsStringPool *sps_string_pool_new      (void);
SPS_AVAILABLE_IN_ALL
SpsStringPool *sps_string_pool_ref      (SpsStringPool *self);
SPS_AVAILABLE_IN_ALL
void           sps_string_pool_unref    (SpsStringPool *self);
SPS_AVAILABLE_IN_ALL
guint32        sps_string_pool_intern   (SpsStringPool *self,
                                         const char    *str,
                                         gssize         len);
SPS_AVAILABLE_IN_ALL
guint32        sps_string_pool_lookup   (SpsStringPool *self,
                                         const char    *str,
                                         gssize         len);
SPS_AVAILABLE_IN_ALL
const char    *sps_string_pool_get      (SpsStringPool *self,
                                         guint32        id,
                                         gsize         *len);
SPS_AVAILABLE_IN_ALL
guint          sps_string_pool_get_size (SpsStringPool *self);
SPS_AVAILABLE_IN_ALL
gsize          sps_string_pool_get_memory_size (SpsStringPool *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsStringPool, sps_string_pool_unref)

G_END_DECLS
