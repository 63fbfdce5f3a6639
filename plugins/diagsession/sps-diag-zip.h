/* sps-diag-zip.h: libzip, opened the first time a package is read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>
#include <zip.h>

G_BEGIN_DECLS

/* The libzip functions the package reader calls */
#define SPS_DIAG_ZIP_FUNCTIONS(F) \
  F (zip_discard) \
  F (zip_error_fini) \
  F (zip_error_init) \
  F (zip_error_strerror) \
  F (zip_fclose) \
  F (zip_file_strerror) \
  F (zip_fopen_index) \
  F (zip_fread) \
  F (zip_get_name) \
  F (zip_get_num_entries) \
  F (zip_name_locate) \
  F (zip_open_from_source) \
  F (zip_source_buffer_create) \
  F (zip_source_free) \
  F (zip_stat) \
  F (zip_stat_init) \
  F (zip_strerror)

#define SPS_DIAG_ZIP_MEMBER(name) __typeof__ (name) *name;

/* Each member has the name and type of the libzip function it points to */
typedef struct
{
  SPS_DIAG_ZIP_FUNCTIONS (SPS_DIAG_ZIP_MEMBER)
} SpsDiagZip;

#undef SPS_DIAG_ZIP_MEMBER

const SpsDiagZip *sps_diag_zip_get (GError **error);

G_END_DECLS
