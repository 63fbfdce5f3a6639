/* sps-csv.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-csv"

#include "config.h"

#include <string.h>

#include "sps-csv.h"

/**
 * sps_csv_field_needs_quotes:
 * @field: the field's text
 * @len: its length in bytes, or -1 when nul-terminated
 * @separator: the field separator (',' for CSV, '\t' for TSV)
 *
 * Whether a field must be quoted: it holds the separator, a double quote,
 * a CR or a LF (RFC 4180, section 2.6). A field with leading or trailing
 * spaces needs no quotes.
 *
 * Returns: %TRUE when the field must be written between double quotes
 */
gboolean
sps_csv_field_needs_quotes (const char *field,
                            gssize      len,
                            char        separator)
{
  gsize n;

  g_return_val_if_fail (field != NULL || len == 0, FALSE);

  n = len < 0 ? strlen (field) : (gsize) len;
  for (gsize i = 0; i < n; i++)
    {
      char c = field[i];

      if (c == separator || c == '"' || c == '\r' || c == '\n')
        return TRUE;
    }

  return FALSE;
}

/**
 * sps_csv_append_field:
 * @out: where to append
 * @field: (nullable): the field's text; %NULL is written as an empty field
 * @len: its length in bytes, or -1 when nul-terminated
 * @separator: the field separator (',' for CSV, '\t' for TSV)
 *
 * Appends one field, between double quotes with its own double quotes
 * doubled when sps_csv_field_needs_quotes() says so, as it is otherwise.
 * Neither the separator nor the end of record is appended.
 */
void
sps_csv_append_field (GString    *out,
                      const char *field,
                      gssize      len,
                      char        separator)
{
  gsize n;

  g_return_if_fail (out != NULL);

  if (field == NULL)
    return;

  n = len < 0 ? strlen (field) : (gsize) len;
  if (!sps_csv_field_needs_quotes (field, n, separator))
    {
      g_string_append_len (out, field, n);
      return;
    }

  g_string_append_c (out, '"');
  for (gsize i = 0; i < n; i++)
    {
      if (field[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, field[i]);
    }
  g_string_append_c (out, '"');
}

/**
 * sps_csv_append_row:
 * @out: where to append
 * @fields: (array length=n_fields) (nullable): the fields; %NULL elements
 *   are empty fields
 * @n_fields: the number of fields
 * @separator: the field separator (',' for CSV, '\t' for TSV)
 *
 * Appends one record: the fields as sps_csv_append_field() writes them,
 * separated by @separator, then %SPS_CSV_EOL.
 */
void
sps_csv_append_row (GString            *out,
                    const char * const *fields,
                    guint               n_fields,
                    char                separator)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (fields != NULL || n_fields == 0);

  for (guint i = 0; i < n_fields; i++)
    {
      if (i > 0)
        g_string_append_c (out, separator);
      sps_csv_append_field (out, fields[i], -1, separator);
    }
  g_string_append (out, SPS_CSV_EOL);
}
