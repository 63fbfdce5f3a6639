/* sps-chrome-importer.h: imports Chrome trace JSON (plain or gzip)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_CHROME_IMPORTER (sps_chrome_importer_get_type ())

G_DECLARE_FINAL_TYPE (SpsChromeImporter, sps_chrome_importer, SPS, CHROME_IMPORTER, GObject)

G_END_DECLS
