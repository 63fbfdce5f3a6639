/* sps-chrome-scanner-values.c: numbers and strings of scanned values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Turning a value the scanner read into what the importer stores: times
 * in nanoseconds, 64-bit integers and doubles parsed exactly as JSON
 * writes them, and strings with their escapes decoded and invalid UTF-8
 * replaced. These work on a value's bytes alone, never on the scanner's
 * cursor, so they are apart from the lexer.
 */

#define G_LOG_DOMAIN "sps-chrome-scanner"

#include "config.h"

#include <string.h>

#include "sps-chrome-scanner-private.h"

/* Numbers */

typedef struct
{
  gboolean    negative;
  const char *int_digits;
  gsize       n_int;
  const char *frac_digits;
  gsize       n_frac;
  gint64      exponent;
} NumberParts;

static gboolean
split_number (const char  *text,
              gsize        len,
              NumberParts *parts)
{
  const char *p = text;
  const char *end = text + len;

  parts->negative = FALSE;
  parts->n_frac = 0;
  parts->frac_digits = NULL;
  parts->exponent = 0;

  /* The lexer has already held number tokens to the JSON grammar, so
   * this only widens what a string may hold: the decimal forms strtod
   * reads as a whole (a '+' sign, ".75", "246.", leading zeros). */
  if (p < end && (*p == '-' || *p == '+'))
    {
      parts->negative = *p == '-';
      p++;
    }
  parts->int_digits = p;
  while (p < end && IS_DIGIT (*p))
    p++;
  parts->n_int = (gsize) (p - parts->int_digits);
  if (p < end && *p == '.')
    {
      p++;
      parts->frac_digits = p;
      while (p < end && IS_DIGIT (*p))
        p++;
      parts->n_frac = (gsize) (p - parts->frac_digits);
    }
  if (parts->n_int + parts->n_frac == 0)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      const char *exp_start;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        {
          exp_negative = *p == '-';
          p++;
        }
      exp_start = p;
      while (p < end && IS_DIGIT (*p))
        {
          /* Saturate: beyond this the result is 0 or an overflow anyway */
          if (parts->exponent < 100000)
            parts->exponent = parts->exponent * 10 + (*p - '0');
          p++;
        }
      if (p == exp_start)
        return FALSE;
      if (exp_negative)
        parts->exponent = -parts->exponent;
    }
  return p == end;
}

static inline int
nth_digit (const NumberParts *parts,
           gsize              i)
{
  if (i < parts->n_int)
    return parts->int_digits[i] - '0';
  return parts->frac_digits[i - parts->n_int] - '0';
}

const guint64 sps_chrome_pow10[SPS_CHROME_MAX_TIME_EXP + 1] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/**
 * sps_chrome_time_unit_exponent:
 * @unit: a unit symbol as the options and `weightUnit` spell it: "ns",
 *   "us", "ms" or "s"
 * @time_exp: (out): its power of ten of a nanosecond
 *
 * Returns: %FALSE for anything else
 */
gboolean
sps_chrome_time_unit_exponent (const char *unit,
                               guint      *time_exp)
{
  static const char * const symbols[] = { "ns", "us", "ms", "s" };

  g_assert (time_exp != NULL);

  for (guint i = 0; unit != NULL && i < G_N_ELEMENTS (symbols); i++)
    if (strcmp (unit, symbols[i]) == 0)
      {
        *time_exp = 3 * i;
        return TRUE;
      }

  return FALSE;
}

/**
 * sps_chrome_parse_time:
 * @text: the number as written (JSON number grammar, no surrounding space)
 * @len: its length
 * @time_exp: the unit of the value: 10^@time_exp nanoseconds (0 ns, 3 µs,
 *   6 ms, 9 s)
 * @out: (out): the value in nanoseconds
 *
 * Converts exactly, from the decimal text, without going through double:
 * digits below one nanosecond are rounded half away from zero.
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_time (const char *text,
                       gsize       len,
                       guint       time_exp,
                       SpsTime    *out)
{
  NumberParts parts;
  gsize total;
  gint64 shift;
  gint64 keep;
  guint64 acc = 0;
  const guint64 limit = G_MAXINT64;

  g_assert (time_exp <= SPS_CHROME_MAX_TIME_EXP);

  /* The common case: a plain integer of at most 15 digits (at most 9 in
   * seconds: 10^9 s × 10^9 still fits) */
  if (len > 0 && len <= 15 && len + time_exp <= 18)
    {
      gsize i = 0;
      guint64 v = 0;

      for (; i < len && IS_DIGIT (text[i]); i++)
        v = v * 10 + (guint64) (text[i] - '0');
      if (i == len)
        {
          *out = (SpsTime) (v * sps_chrome_pow10[time_exp]);
          return SPS_CHROME_NUMBER_OK;
        }
    }

  if (!split_number (text, len, &parts))
    return SPS_CHROME_NUMBER_INVALID;

  total = parts.n_int + parts.n_frac;
  shift = parts.exponent + (gint64) time_exp - (gint64) parts.n_frac;
  keep = (gint64) total + MIN (shift, 0);

  for (gint64 i = 0; i < keep; i++)
    {
      guint d = (guint) nth_digit (&parts, (gsize) i);

      if (acc > (limit - d) / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc = acc * 10 + d;
    }
  if (keep >= 0 && (guint64) keep < total && nth_digit (&parts, (gsize) keep) >= 5)
    {
      if (acc == limit)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc++;
    }
  for (gint64 i = 0; i < shift && acc != 0; i++)
    {
      if (acc > limit / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc *= 10;
    }

  *out = parts.negative ? -(gint64) acc : (gint64) acc;
  return SPS_CHROME_NUMBER_OK;
}

/**
 * sps_chrome_parse_int64:
 * @text: an optional '-' and decimal digits, nothing else
 * @len: its length
 * @out: (out): the value
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_int64 (const char *text,
                        gsize       len,
                        gint64     *out)
{
  const char *p = text;
  const char *end = text + len;
  gboolean negative = FALSE;
  guint64 acc = 0;
  guint64 limit;

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (p == end)
    return SPS_CHROME_NUMBER_INVALID;
  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  for (; p < end; p++)
    {
      guint d;

      if (!IS_DIGIT (*p))
        return SPS_CHROME_NUMBER_INVALID;
      d = (guint) (*p - '0');
      if (acc > (limit - d) / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc = acc * 10 + d;
    }
  if (negative)
    *out = acc == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) acc;
  else
    *out = (gint64) acc;
  return SPS_CHROME_NUMBER_OK;
}

/**
 * sps_chrome_parse_double:
 * @text: a number in JSON grammar, nothing else
 * @len: its length
 * @out: (out): the value, correctly rounded
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_double (const char *text,
                         gsize       len,
                         double     *out)
{
  static const double powers[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };
  NumberParts parts;
  gsize total;
  gint64 exp10;

  if (!split_number (text, len, &parts))
    return SPS_CHROME_NUMBER_INVALID;

  /* Exact fast path: a mantissa below 2^53 scaled by an exactly
   * representable power of ten is rounded once, correctly. */
  total = parts.n_int + parts.n_frac;
  exp10 = parts.exponent - (gint64) parts.n_frac;
  if (total <= 15 && exp10 >= -22 && exp10 <= 22)
    {
      guint64 mantissa = 0;
      double v;

      for (gsize i = 0; i < total; i++)
        mantissa = mantissa * 10 + (guint64) nth_digit (&parts, i);
      v = (double) mantissa;
      v = exp10 < 0 ? v / powers[-exp10] : v * powers[exp10];
      *out = parts.negative ? -v : v;
      return SPS_CHROME_NUMBER_OK;
    }
  else
    {
      char stack_buf[128];
      g_autofree char *heap_buf = NULL;
      char *buf = stack_buf;

      if (len >= sizeof stack_buf)
        buf = heap_buf = g_malloc (len + 1);
      memcpy (buf, text, len);
      buf[len] = '\0';
      *out = g_ascii_strtod (buf, NULL);
      return SPS_CHROME_NUMBER_OK;
    }
}

/* A number, or a string holding exactly a number (Bazel writes counter
 * values that way). */
gboolean
sps_chrome_value_to_double (const SpsChromeValue *value,
                            double               *out)
{
  if (value->type == SPS_CHROME_VALUE_NUMBER ||
      (value->type == SPS_CHROME_VALUE_STRING && !value->escaped))
    return sps_chrome_parse_double (value->ptr, value->len, out) == SPS_CHROME_NUMBER_OK;
  return FALSE;
}

/* Compares a string value with @literal (ASCII, no escapes). */
gboolean
sps_chrome_value_equals (const SpsChromeValue *value,
                         const char           *literal)
{
  gsize len = strlen (literal);

  if (value->type != SPS_CHROME_VALUE_STRING)
    return FALSE;
  if (!value->escaped)
    return value->len == len && memcmp (value->ptr, literal, len) == 0;
  else
    {
      g_autoptr(GString) decoded = g_string_new (NULL);

      sps_chrome_decode_string (value->ptr, value->len, decoded);
      return decoded->len == len && memcmp (decoded->str, literal, len) == 0;
    }
}

/* Strings */

static inline int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (const char *p,
           const char *end,
           gunichar   *out)
{
  gunichar v = 0;

  if (end - p < 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);

      if (h < 0)
        return FALSE;
      v = (v << 4) | (gunichar) h;
    }
  *out = v;
  return TRUE;
}

#define REPLACEMENT "\xef\xbf\xbd"

/* Appends @len bytes of raw (unescaped) text, replacing invalid UTF-8 and
 * NUL bytes with U+FFFD. Returns TRUE if something was replaced. */
static gboolean
append_valid_utf8 (GString    *out,
                   const char *p,
                   gsize       len)
{
  gboolean replaced = FALSE;

  while (len > 0)
    {
      const char *valid_end;
      gsize n;

      if (g_utf8_validate_len (p, len, &valid_end))
        {
          g_string_append_len (out, p, (gssize) len);
          break;
        }
      n = (gsize) (valid_end - p);
      g_string_append_len (out, p, (gssize) n);
      g_string_append (out, REPLACEMENT);
      replaced = TRUE;
      /* Skip the bad byte and any continuation bytes that follow it, so
       * one broken sequence gives one replacement character. */
      p = valid_end + 1;
      len -= n + 1;
      while (len > 0 && ((guchar) *p & 0xC0) == 0x80)
        {
          p++;
          len--;
        }
    }

  return replaced;
}

/**
 * sps_chrome_decode_string:
 * @raw: the text between the quotes of a JSON string
 * @len: its length
 * @out: where the decoded UTF-8 text is appended
 *
 * Decodes escapes. `\u0000`, lone surrogates, bad escapes and invalid
 * UTF-8 become U+FFFD, so the result is valid UTF-8 without NUL bytes.
 *
 * Returns: %TRUE if something had to be replaced
 */
gboolean
sps_chrome_decode_string (const char *raw,
                          gsize       len,
                          GString    *out)
{
  const char *p = raw;
  const char *end = raw + len;
  gboolean replaced = FALSE;

  while (p < end)
    {
      const char *bs = memchr (p, '\\', (gsize) (end - p));
      gunichar c;

      if (bs == NULL)
        bs = end;
      if (bs > p)
        replaced |= append_valid_utf8 (out, p, (gsize) (bs - p));
      if (bs == end)
        break;

      p = bs + 1;
      if (p >= end)
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          break;
        }
      switch (*p)
        {
        case '"':  g_string_append_c (out, '"'); p++; continue;
        case '\\': g_string_append_c (out, '\\'); p++; continue;
        case '/':  g_string_append_c (out, '/'); p++; continue;
        case 'b':  g_string_append_c (out, '\b'); p++; continue;
        case 'f':  g_string_append_c (out, '\f'); p++; continue;
        case 'n':  g_string_append_c (out, '\n'); p++; continue;
        case 'r':  g_string_append_c (out, '\r'); p++; continue;
        case 't':  g_string_append_c (out, '\t'); p++; continue;
        case 'u':
          break;
        default:
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          p++;
          continue;
        }

      /* \uXXXX, possibly a surrogate pair */
      p++;
      if (!read_hex4 (p, end, &c))
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          continue;
        }
      p += 4;
      if (c >= 0xD800 && c <= 0xDBFF)
        {
          gunichar low;

          if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
              read_hex4 (p + 2, end, &low) && low >= 0xDC00 && low <= 0xDFFF)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
              p += 6;
            }
          else
            c = 0;
        }
      else if (c >= 0xDC00 && c <= 0xDFFF)
        c = 0;

      if (c == 0)
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
        }
      else
        g_string_append_unichar (out, c);
    }

  return replaced;
}
