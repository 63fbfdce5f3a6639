/* sps-source-location.h: where in which source file a slice, sample or frame comes from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

/* A location as the trace writes it: @file is a path (absolute, relative or
 * Windows) or a URL, untouched; @line and @column are 1-based, 0 when
 * unknown. */
typedef struct
{
  char  *file;
  char  *function;
  guint  line;
  guint  column;
} SpsSourceLocation;

SpsSourceLocation *sps_source_location_new           (const char         *file,
                                                      const char         *function,
                                                      guint               line,
                                                      guint               column);
void               sps_source_location_free          (SpsSourceLocation  *self);
char              *sps_source_location_to_string     (const SpsSourceLocation *self);

SpsSourceLocation *sps_source_location_from_args     (JsonNode           *args);
SpsSourceLocation *sps_source_location_from_name     (const char         *name);
SpsSourceLocation *sps_source_location_from_frame    (SpsTrace           *trace,
                                                      guint32             frame);
SpsSourceLocation *sps_source_location_find          (SpsTrace           *trace,
                                                      const SpsSelection *selection);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsSourceLocation, sps_source_location_free)

G_END_DECLS
