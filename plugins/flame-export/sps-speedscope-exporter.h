/* sps-speedscope-exporter.h: writes speedscope's JSON file format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_SPEEDSCOPE_EXPORTER (sps_speedscope_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsSpeedscopeExporter, sps_speedscope_exporter, SPS, SPEEDSCOPE_EXPORTER, GObject)

G_END_DECLS
