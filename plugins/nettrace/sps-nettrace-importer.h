/* sps-nettrace-importer.h: imports .NET EventPipe traces (.nettrace V4/V5)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_NETTRACE_IMPORTER (sps_nettrace_importer_get_type ())

G_DECLARE_FINAL_TYPE (SpsNettraceImporter, sps_nettrace_importer, SPS, NETTRACE_IMPORTER, GObject)

G_END_DECLS
