/* sps-chrome-json-out.c: JSON text written by the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Numbers, times and strings appended to a GString as JSON, and JSON text
 * of the input copied as strictly valid JSON.
 */

#include "config.h"

#include <math.h>

#include "sps-chrome-json-out.h"

/* JSON has no NaN or infinity. An infinity is written as a literal that
 * every parser reads back as an infinity; NaN has no number form. */
void
sps_chrome_out_double (GString *out,
                       double   value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    {
      sps_chrome_out_literal (out, "null");
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value < 0 ? "-1e999" : "1e999");
      return;
    }
  if (value == floor (value) && fabs (value) < 1e15)
    {
      sps_json_append_int64 (out, (gint64) value);
      return;
    }

  /* The shortest of %.15g and %.17g that reads back as the same double. */
  g_ascii_formatd (text, sizeof text, "%.15g", value);
  if (g_ascii_strtod (text, NULL) != value)
    g_ascii_formatd (text, sizeof text, "%.17g", value);
  g_string_append (out, text);
}

static void
append_escaped_char (GString *out,
                     guchar   c)
{
  /* The characters with a short escape, and the letter of each */
  static const char shorts[] = "\"\\\n\r\t\b\f";
  static const char letters[] = "\"\\nrtbf";
  static const char hex[] = "0123456789abcdef";
  const char *hit = c != '\0' ? strchr (shorts, c) : NULL;

  if (hit != NULL)
    {
      g_string_append_c (out, '\\');
      g_string_append_c (out, letters[hit - shorts]);
    }
  else
    {
      sps_chrome_out_literal (out, "\\u00");
      g_string_append_c (out, hex[c >> 4]);
      g_string_append_c (out, hex[c & 0xf]);
    }
}

/* Appends @str (@len bytes, may hold NULs) as a JSON string literal.
 * Invalid UTF-8 is replaced by U+FFFD so the output is always valid JSON. */
void
sps_chrome_out_string (GString    *out,
                       const char *str,
                       gsize       len)
{
  const char *end = str + len;
  const char *run = str;
  const char *p = str;

  g_string_append_c (out, '"');

  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
        {
          p++;
          continue;
        }

      if (c >= 0x80)
        {
          gunichar ch = g_utf8_get_char_validated (p, end - p);

          if (ch != (gunichar) -1 && ch != (gunichar) -2)
            {
              p = g_utf8_next_char (p);
              continue;
            }

          sps_chrome_out_len (out, run, p - run);
          sps_chrome_out_literal (out, "\xef\xbf\xbd");
          p++;
          run = p;
          continue;
        }

      sps_chrome_out_len (out, run, p - run);
      append_escaped_char (out, c);
      p++;
      run = p;
    }

  sps_chrome_out_len (out, run, p - run);
  g_string_append_c (out, '"');
}

static gboolean
is_json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Copies the text of a JSON value as the importer accepted it, made
 * strictly valid on the way. The importer's scanner checks the structure
 * but, like the producers it reads, lets through trailing commas, numbers
 * with leading zeros, raw control characters, unknown escapes and invalid
 * UTF-8 inside strings; stricter readers refuse all of them. Valid text
 * is copied unchanged, in runs. */
void
sps_chrome_out_value (GString    *out,
                      const char *text,
                      gsize       len)
{
  const char *end = text + len;
  const char *run = text;
  const char *p = text;

  while (p < end)
    {
      char c;

      /* Outside strings only quotes, commas and numbers matter. */
      while (p < end && (c = *p) != '"' && c != ',' && c != '-' && !is_digit (c))
        p++;
      if (p >= end)
        break;

      if (c == ',')
        {
          const char *next = p + 1;

          while (next < end && is_json_space (*next))
            next++;
          if (next < end && (*next == '}' || *next == ']'))
            {
              sps_chrome_out_len (out, run, p - run);
              run = p + 1;
            }
          p++;
          continue;
        }

      if (c != '"')
        {
          const char *digits = c == '-' ? p + 1 : p;

          if (digits + 1 < end && digits[0] == '0' && is_digit (digits[1]))
            {
              const char *first = digits;

              while (first + 1 < end && first[0] == '0' && is_digit (first[1]))
                first++;
              sps_chrome_out_len (out, run, digits - run);
              run = first;
            }
          p = digits;
          while (p < end && (is_digit (*p) || *p == '.' || *p == 'e' || *p == 'E' ||
                             *p == '+' || *p == '-'))
            p++;
          continue;
        }

      /* A string */
      p++;
      while (p < end)
        {
          guchar b = (guchar) *p;

          if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\')
            {
              p++;
              continue;
            }
          if (b == '"')
            {
              p++;
              break;
            }

          if (b == '\\')
            {
              if (p + 1 < end && p[1] != '\0' && strchr ("\"\\/bfnrt", p[1]) != NULL)
                {
                  p += 2;
                  continue;
                }
              if (p + 5 < end && p[1] == 'u' && g_ascii_isxdigit (p[2]) &&
                  g_ascii_isxdigit (p[3]) && g_ascii_isxdigit (p[4]) && g_ascii_isxdigit (p[5]))
                {
                  p += 6;
                  continue;
                }
              /* An unknown escape keeps its backslash as a character. */
              sps_chrome_out_len (out, run, p - run);
              sps_chrome_out_literal (out, "\\\\");
            }
          else if (b < 0x20)
            {
              sps_chrome_out_len (out, run, p - run);
              append_escaped_char (out, b);
            }
          else
            {
              gunichar ch = g_utf8_get_char_validated (p, end - p);

              if (ch != (gunichar) -1 && ch != (gunichar) -2)
                {
                  p = g_utf8_next_char (p);
                  continue;
                }
              sps_chrome_out_len (out, run, p - run);
              sps_chrome_out_literal (out, "\xef\xbf\xbd");
            }
          p++;
          run = p;
        }
    }

  sps_chrome_out_len (out, run, end - run);
}