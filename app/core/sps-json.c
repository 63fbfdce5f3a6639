/* sps-json.c: writing and tidying JSON text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-json"

#include "config.h"

#include <string.h>

#include "sps-json.h"

/**
 * sps_json_append_uint64:
 * @out: where to append
 * @value: a number
 *
 * Appends @value as a JSON number, in decimal: what printf would write,
 * without the allocation GLib's printf functions make per call (exporters
 * and importers write one per field of millions of events).
 */
void
sps_json_append_uint64 (GString *out,
                        guint64  value)
{
  char digits[20];
  guint pos = sizeof digits;

  do
    {
      digits[--pos] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  g_string_append_len (out, digits + pos, (gssize) (sizeof digits - pos));
}

/**
 * sps_json_append_int64:
 * @out: where to append
 * @value: a number
 *
 * Appends @value as a JSON number, as sps_json_append_uint64() does.
 */
void
sps_json_append_int64 (GString *out,
                       gint64   value)
{
  if (value < 0)
    {
      g_string_append_c (out, '-');
      /* Negated in unsigned arithmetic: -G_MININT64 does not fit a gint64 */
      sps_json_append_uint64 (out, (guint64) 0 - (guint64) value);
    }
  else
    sps_json_append_uint64 (out, (guint64) value);
}

/**
 * sps_json_append_time_us:
 * @out: where to append
 * @ns: a time or a duration in nanoseconds
 *
 * Appends @ns as a JSON number of microseconds, exactly: the whole
 * microseconds, then up to three decimals without trailing zeros (1500 ns
 * is `1.5`, 2000 ns is `2`), for the whole range of #gint64 (a double
 * would round times past 2^53 ns, about 104 days).
 */
void
sps_json_append_time_us (GString *out,
                         gint64   ns)
{
  guint64 magnitude;
  guint frac;

  if (ns < 0)
    {
      g_string_append_c (out, '-');
      magnitude = (guint64) 0 - (guint64) ns;
    }
  else
    magnitude = (guint64) ns;

  sps_json_append_uint64 (out, magnitude / 1000);
  frac = (guint) (magnitude % 1000);
  if (frac != 0)
    {
      char digits[5] = { '.', (char) ('0' + frac / 100), (char) ('0' + frac / 10 % 10), (char) ('0' + frac % 10), 0 };
      gsize len = 4;

      while (digits[len - 1] == '0')
        len--;
      g_string_append_len (out, digits, (gssize) len);
    }
}

/**
 * sps_json_append_string:
 * @out: where to append
 * @text: the string's text
 * @len: its length in bytes, or -1 when nul-terminated
 *
 * Appends @text as a JSON string, between double quotes: `"` and `\` are
 * escaped, as are line feeds, carriage returns and tabs (`\n`, `\r`, `\t`)
 * and the other control characters (`\u00XX`); everything else is copied.
 * Invalid UTF-8 (and a nul byte within @len) becomes U+FFFD, so that the
 * output is always valid JSON.
 */
void
sps_json_append_string (GString    *out,
                        const char *text,
                        gssize      len)
{
  g_autofree char *valid = NULL;
  gsize n;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  n = len < 0 ? strlen (text) : (gsize) len;
  if (!g_utf8_validate_len (text, n, NULL))
    {
      text = valid = g_utf8_make_valid (text, (gssize) n);
      n = strlen (valid);
    }

  g_string_append_c (out, '"');
  for (gsize i = 0; i < n; i++)
    {
      guchar c = (guchar) text[i];

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

/**
 * sps_json_strip_trailing_commas:
 * @text: (array length=len) (element-type guint8): JSON text
 * @len: its length in bytes
 * @out_len: (out): the length of the result
 *
 * Producers write a comma before a closing bracket, which the importers
 * accept; strict parsers do not.
 *
 * Returns: (transfer full) (nullable): a copy without the commas that are
 *   followed by '}' or ']' (outside strings), or %NULL if there are none
 */
char *
sps_json_strip_trailing_commas (const char *text,
                                gsize       len,
                                gsize      *out_len)
{
  GString *out = NULL;
  gboolean in_string = FALSE;
  gsize copied = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];
      gsize j;

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        {
          in_string = TRUE;
          continue;
        }
      if (c != ',')
        continue;
      for (j = i + 1; j < len && strchr (" \t\n\r", text[j]) != NULL && text[j] != '\0'; j++)
        ;
      if (j < len && (text[j] == '}' || text[j] == ']'))
        {
          if (out == NULL)
            out = g_string_sized_new (len);
          g_string_append_len (out, text + copied, (gssize) (i - copied));
          copied = i + 1;
        }
    }

  if (out == NULL)
    return NULL;

  g_string_append_len (out, text + copied, (gssize) (len - copied));
  *out_len = out->len;

  return g_string_free (out, FALSE);
}
