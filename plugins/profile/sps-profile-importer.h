/* sps-profile-importer.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_PROFILE_IMPORTER (sps_profile_importer_get_type ())

G_DECLARE_FINAL_TYPE (SpsProfileImporter, sps_profile_importer, SPS, PROFILE_IMPORTER, GObject)

G_END_DECLS
