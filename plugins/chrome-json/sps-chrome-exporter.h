/* sps-chrome-exporter.h: writes a trace as Chrome JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_CHROME_EXPORTER (sps_chrome_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsChromeExporter, sps_chrome_exporter, SPS, CHROME_EXPORTER, GObject)

G_END_DECLS
