/* sps-profile-args-private.h: the args of a reopened profile, read from its rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sqlite3.h>

#include "sps-args-decoder.h"

G_BEGIN_DECLS

#define SPS_TYPE_PROFILE_ARGS (sps_profile_args_get_type ())

G_DECLARE_FINAL_TYPE (SpsProfileArgs, sps_profile_args, SPS, PROFILE_ARGS, GObject)

SpsProfileArgs *sps_profile_args_new     (const char      *path,
                                          const char      *display_name,
                                          GError         **error);
sqlite3        *_sps_profile_args_get_db (SpsProfileArgs  *self);

G_END_DECLS
