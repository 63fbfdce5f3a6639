/* sps-profile.h: saved profiles, the trace's tables in a SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace-builder.h"
#include "sps-trace.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SPS_PROFILE_FORMAT_VERSION:
 *
 * The version of the saved profile format this library writes, kept in
 * the database's `user_version`. Older versions are read; newer ones are
 * refused.
 */
#define SPS_PROFILE_FORMAT_VERSION 1

/**
 * SPS_PROFILE_APPLICATION_ID:
 *
 * The database's `application_id` ("SpsP" in ASCII), which tells a saved
 * profile apart from any other SQLite file.
 */
#define SPS_PROFILE_APPLICATION_ID 0x53707350

/**
 * SPS_PROFILE_MIME_TYPE:
 *
 * The MIME type of saved profiles (suffix `.spprofile`).
 */
#define SPS_PROFILE_MIME_TYPE "application/x-spanscope-profile"

SPS_AVAILABLE_IN_ALL
guint     sps_profile_probe                (GBytes           *head);
SPS_AVAILABLE_IN_ALL
gboolean  sps_trace_save_profile           (SpsTrace         *trace,
                                            const char       *path,
                                            GVariant         *options,
                                            SpsProgress      *progress,
                                            GError          **error);
SPS_AVAILABLE_IN_ALL
gboolean  sps_trace_builder_load_profile   (SpsTraceBuilder  *builder,
                                            GFile            *file,
                                            SpsProgress      *progress,
                                            GError          **error);

G_END_DECLS
