/* sps-diagsession-importer.h: imports Visual Studio .diagsession packages
 * and Windows ETL traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_DIAGSESSION_IMPORTER (sps_diagsession_importer_get_type ())

G_DECLARE_FINAL_TYPE (SpsDiagsessionImporter, sps_diagsession_importer, SPS, DIAGSESSION_IMPORTER, GObject)

G_END_DECLS
