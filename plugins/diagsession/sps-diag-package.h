/* sps-diag-package.h: a Visual Studio .diagsession package and its resources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SPS_DIAG_RESOURCE_ETL      "DiagnosticsHub.Resource.EtlFile"
#define SPS_DIAG_RESOURCE_COUNTERS "DiagnosticsHub.Resource.CountersFile"

/* One Resource element of metadata.xml */
typedef struct
{
  char     *id;
  char     *type;
  char     *name;
  char     *prefix;       /* the member folder (ResourcePackageUriPrefix) */
  char     *member;       /* prefix/name: where its bytes are */
  gboolean  directory;    /* IsDirectoryOnDisk: a folder of members */
} SpsDiagResource;

typedef struct _SpsDiagPackage SpsDiagPackage;

SpsDiagPackage   *sps_diag_package_open          (GBytes                *bytes,
                                                  const char            *display_name,
                                                  GError               **error);
void              sps_diag_package_free          (SpsDiagPackage        *self);
gboolean          sps_diag_package_has_manifest  (SpsDiagPackage        *self);
GPtrArray        *sps_diag_package_get_resources (SpsDiagPackage        *self);
GPtrArray        *sps_diag_package_find          (SpsDiagPackage        *self,
                                                  const char            *type);
const char       *sps_diag_package_get_metadata  (SpsDiagPackage        *self,
                                                  const char            *key);
GBytes           *sps_diag_package_read          (SpsDiagPackage        *self,
                                                  const SpsDiagResource *resource,
                                                  gsize                  max_size,
                                                  GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsDiagPackage, sps_diag_package_free)

G_END_DECLS
