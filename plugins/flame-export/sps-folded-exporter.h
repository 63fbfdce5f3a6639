/* sps-folded-exporter.h: writes a flame tree as folded stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_FOLDED_EXPORTER (sps_folded_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsFoldedExporter, sps_folded_exporter, SPS, FOLDED_EXPORTER, GObject)

G_END_DECLS
