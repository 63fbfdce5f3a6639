/* sps-csv.h: RFC 4180 fields and rows (CSV, and TSV with '\t')
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SPS_CSV_EOL:
 *
 * The end of a record, CR LF as RFC 4180 asks.
 */
#define SPS_CSV_EOL "\r\n"

SPS_AVAILABLE_IN_ALL
gboolean sps_csv_field_needs_quotes (const char  *field,
                                     gssize       len,
                                     char         separator);
SPS_AVAILABLE_IN_ALL
void     sps_csv_append_field       (GString     *out,
                                     const char  *field,
                                     gssize       len,
                                     char         separator);
SPS_AVAILABLE_IN_ALL
void     sps_csv_append_row         (GString     *out,
                                     const char * const *fields,
                                     guint        n_fields,
                                     char         separator);

G_END_DECLS
