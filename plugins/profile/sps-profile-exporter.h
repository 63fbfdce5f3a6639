/* sps-profile-exporter.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_PROFILE_EXPORTER (sps_profile_exporter_get_type ())

G_DECLARE_FINAL_TYPE (SpsProfileExporter, sps_profile_exporter, SPS, PROFILE_EXPORTER, GObject)

G_END_DECLS
