/* sps-etl-manifest.h: the event names and payload layouts of an EventSource's manifest, as
 * the EventSource writes it into the trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SpsEtlManifest SpsEtlManifest;

SpsEtlManifest *sps_etl_manifest_new        (void);
void            sps_etl_manifest_free       (SpsEtlManifest *self);
gboolean        sps_etl_manifest_add_chunk  (SpsEtlManifest *self,
                                             const guint8   *payload,
                                             gsize           len);
const char     *sps_etl_manifest_get_provider_name (SpsEtlManifest *self);
const char     *sps_etl_manifest_lookup     (SpsEtlManifest *self,
                                             guint           id);
GHashTable     *sps_etl_manifest_ref_layouts (SpsEtlManifest *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlManifest, sps_etl_manifest_free)

G_END_DECLS
