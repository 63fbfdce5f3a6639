/* sps-etl-expander.h: an ETL file's compressed buffers expanded ahead of
 * their reading, on a thread of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "sps-etl-reader.h"

G_BEGIN_DECLS

typedef struct _SpsEtlExpander SpsEtlExpander;

SpsEtlExpander *sps_etl_expander_new  (const guint8          *data,
                                       gsize                  len,
                                       gsize                  start,
                                       guint32                compression,
                                       SpsEtlDecompressFunc   decompress,
                                       gboolean               threaded);
gssize          sps_etl_expander_take (SpsEtlExpander        *self,
                                       gsize                  offset,
                                       const guint8         **out,
                                       GError               **error);
guint64         sps_etl_expander_get_n_ahead (SpsEtlExpander *self);
void            sps_etl_expander_free (SpsEtlExpander        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlExpander, sps_etl_expander_free)

G_END_DECLS
