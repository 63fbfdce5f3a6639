/* sps-chromium-exporter.h: writes stack samples as a Chrome flame chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_CHROMIUM_EXPORTER (sps_chromium_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsChromiumExporter, sps_chromium_exporter, SPS, CHROMIUM_EXPORTER, GObject)

G_END_DECLS
