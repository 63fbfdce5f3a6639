/* sps-result-table-export.c: a result table's rows as CSV or TSV
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written through the table's public API: the column names, then the
 * rows in the order shown, each cell in its exported text form.
 */

#define G_LOG_DOMAIN "sps-result-table"

#include "config.h"

#include <spanscope-core.h>

#include "sps-result-table.h"

/**
 * sps_result_table_export_bytes:
 * @self: a table
 * @format: CSV or TSV
 *
 * Writes a header line with the column names and one line per row in the
 * order shown, each ended by CRLF. Fields holding the separator, a quote
 * or a line break are quoted as RFC 4180 says; NULL is an empty field.
 *
 * Returns: (transfer full): the UTF-8 bytes
 */
GBytes *
sps_result_table_export_bytes (SpsResultTable  *self,
                               SpsResultFormat  format)
{
  g_autoptr(GString) out = NULL;
  g_autofree char **fields = NULL;
  guint n_columns;
  guint row;
  char separator;

  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), NULL);
  g_return_val_if_fail (format == SPS_RESULT_FORMAT_CSV || format == SPS_RESULT_FORMAT_TSV, NULL);

  n_columns = sps_result_table_get_n_columns (self);
  separator = format == SPS_RESULT_FORMAT_TSV ? '\t' : ',';
  out = g_string_new (NULL);
  fields = g_new0 (char *, n_columns + 1);

  for (guint c = 0; c < n_columns; c++)
    fields[c] = g_strdup (sps_result_table_get_column_name (self, c));
  if (n_columns > 0)
    sps_csv_append_row (out, (const char * const *) fields, n_columns, separator);

  /* In the order shown (get_row_at() puts the rows still waiting into
   * the view first) */
  for (guint position = 0; (row = sps_result_table_get_row_at (self, position)) != G_MAXUINT; position++)
    {
      for (guint c = 0; c < n_columns; c++)
        {
          g_free (fields[c]);
          fields[c] = sps_result_table_dup_cell_text (self, row, c);
        }
      sps_csv_append_row (out, (const char * const *) fields, n_columns, separator);
    }

  /* Not a GStrv: a NULL cell is a NULL field in the middle */
  for (guint c = 0; c < n_columns; c++)
    g_free (fields[c]);

  return g_string_free_to_bytes (g_steal_pointer (&out));
}

/**
 * sps_result_table_export_to_file:
 * @self: a table
 * @file: where to write; replaced atomically
 * @format: CSV or TSV
 * @error: return location for an error
 *
 * Writes [method@ResultTable.export_bytes] to @file.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_result_table_export_to_file (SpsResultTable   *self,
                                 GFile            *file,
                                 SpsResultFormat   format,
                                 GError          **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  bytes = sps_result_table_export_bytes (self, format);
  return sps_file_replace_contents (file, bytes, NULL, error);
}
