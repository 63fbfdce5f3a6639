/* sps-etrace-exporter.h: writes the intermediate CSV of embedded-etrace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_ETRACE_EXPORTER (sps_etrace_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtraceExporter, sps_etrace_exporter, SPS, ETRACE_EXPORTER, GObject)

G_END_DECLS
