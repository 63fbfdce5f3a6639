/* sps-etl-args.h: the args of ETL events, decoded when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etl-reader.h"

G_BEGIN_DECLS

#define SPS_TYPE_ETL_ARGS (sps_etl_args_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtlArgs, sps_etl_args, SPS, ETL_ARGS, GObject)

SpsEtlArgs *sps_etl_args_new             (SpsEtlDecompressFunc  decompress);
gboolean    sps_etl_args_add_file        (SpsEtlArgs           *self,
                                          GBytes               *etl);
void        sps_etl_args_set_compression (SpsEtlArgs           *self,
                                          guint32               compression);
gboolean    sps_etl_args_get_cookie      (SpsEtlArgs           *self,
                                          const SpsEtlRecord   *record,
                                          guint64              *cookie);
void        sps_etl_args_set_layouts     (SpsEtlArgs           *self,
                                          const guint8         *provider,
                                          GHashTable           *layouts);
gboolean    sps_etl_args_is_complete     (SpsEtlArgs           *self,
                                          guint64               cookie,
                                          GString              *scratch);

G_END_DECLS
