/* sps-etrace-importer.h: imports embedded execution trace streams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_ETRACE_IMPORTER (sps_etrace_importer_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtraceImporter, sps_etrace_importer, SPS, ETRACE_IMPORTER, GObject)

G_END_DECLS
