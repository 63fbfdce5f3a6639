/* sps-time-format.c: durations as text and back, ruler tick steps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-time-format"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-time-format.h"

/* Units are SI symbols, the same in every language, so they are not
 * translated. The decimal separator is always '.', the same that
 * sps_time_parse() reads, so what the UI shows can be typed back. */
typedef struct
{
  const char *symbol;
  guint64     ns;
  guint       digits;   /* log10 (ns) */
} Unit;

static const Unit units[] = {
  { "ns", 1, 0 },
  { "µs", 1000, 3 },
  { "ms", 1000000, 6 },
  { "s", 1000000000, 9 },
};

/* Enough for any fraction of a second in ns: more digits add nothing. */
#define MAX_PRECISION 9

static guint64
pow10_u64 (guint n)
{
  guint64 v = 1;

  g_assert (n <= 19);

  while (n-- > 0)
    v *= 10;

  return v;
}

/* |value| without overflow for G_MININT64. */
static guint64
magnitude (gint64 value)
{
  if (value >= 0)
    return (guint64) value;

  return (guint64) (-(value + 1)) + 1;
}

/**
 * sps_time_format_duration:
 * @duration: a duration in ns (may be negative)
 * @precision: the most digits to show after the decimal point
 *
 * Formats @duration with the largest unit (ns, µs, ms, s) in which it is
 * at least 1, rounded to @precision decimals (half away from zero), with
 * trailing zeros removed: 1500 gives "1.5 µs", 999999 with precision 2
 * gives "1 ms" (rounding can move to the next unit), 250 gives "250 ns".
 *
 * Returns: (transfer full): the text
 */
char *
sps_time_format_duration (SpsTime duration,
                          guint   precision)
{
  guint64 mag = magnitude (duration);
  const char *sign = duration < 0 ? "-" : "";
  guint u = 0;

  precision = MIN (precision, MAX_PRECISION);

  while (u + 1 < G_N_ELEMENTS (units) && mag >= units[u + 1].ns)
    u++;

  for (;;)
    {
      const Unit *unit = &units[u];
      guint digits = MIN (precision, unit->digits);
      guint64 scale = pow10_u64 (digits);
      guint64 whole = mag / unit->ns;
      guint64 rest = mag % unit->ns;
      /* rest < 1e9 and scale <= 1e9, so the product fits in 64 bits. */
      guint64 frac_times_two = rest * scale * 2 / unit->ns;
      guint64 frac = (frac_times_two + 1) / 2;
      char frac_text[MAX_PRECISION + 2];

      if (frac == scale)
        {
          whole++;
          frac = 0;
        }

      if (whole >= 1000 && u + 1 < G_N_ELEMENTS (units))
        {
          u++;
          continue;
        }

      if (frac == 0)
        return g_strdup_printf ("%s%" G_GUINT64_FORMAT " %s", sign, whole, unit->symbol);

      g_snprintf (frac_text, sizeof frac_text, "%0*" G_GUINT64_FORMAT, (int) digits, frac);
      for (gsize len = strlen (frac_text); len > 0 && frac_text[len - 1] == '0'; len--)
        frac_text[len - 1] = '\0';

      return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%s %s", sign, whole, frac_text, unit->symbol);
    }
}

/* What sps_time_format() keeps of a time: enough to tell 1.234 ms from
 * 1.235 ms, few enough to read at a glance, the same in every place. */
#define SIGNIFICANT_DIGITS 4

/**
 * sps_time_format:
 * @time: a time or duration in ns (may be negative)
 *
 * Formats @time as every view shows times and durations to the user, with
 * the same number of significant digits everywhere: the largest unit in
 * which it is at least 1 and 4 significant digits (whole numbers of the
 * unit are kept whole), trailing zeros removed. 1234567 gives "1.235 ms",
 * 123456789 gives "123.5 ms", 1500 gives "1.5 µs", 250 gives "250 ns",
 * 5400000000000 gives "5400 s".
 *
 * Returns: (transfer full): the text
 */
char *
sps_time_format (SpsTime time)
{
  guint64 whole = magnitude (time);
  guint u = 0;
  guint digits = 1;

  while (u + 1 < G_N_ELEMENTS (units) && whole >= units[u + 1].ns)
    u++;
  whole /= units[u].ns;
  while (whole >= 10)
    {
      whole /= 10;
      digits++;
    }

  return sps_time_format_duration (time, digits >= SIGNIFICANT_DIGITS ? 0 : SIGNIFICANT_DIGITS - digits);
}

static const Unit *
lookup_unit (const char *text,
             gsize       len)
{
  static const struct {
    const char *spelling;
    guint       unit;
  } spellings[] = {
    { "ns", 0 },
    { "us", 1 },
    { "µs", 1 },      /* U+00B5 MICRO SIGN */
    { "μs", 1 },      /* U+03BC GREEK SMALL LETTER MU */
    { "ms", 2 },
    { "s", 3 },
  };

  /* No unit: milliseconds, the unit people think of for frame times. */
  if (len == 0)
    return &units[2];

  for (guint i = 0; i < G_N_ELEMENTS (spellings); i++)
    if (strlen (spellings[i].spelling) == len &&
        g_ascii_strncasecmp (text, spellings[i].spelling, len) == 0)
      return &units[spellings[i].unit];

  return NULL;
}

static void
set_parse_error (GError     **error,
                 const char  *text)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("“%s” is not a time: write a number and a unit (ns, us, ms or s), for example 12.5ms"),
               text);
}

/**
 * sps_time_parse:
 * @text: what the user typed
 * @out: (out): the time in ns
 * @error: return location for a #GError
 *
 * Reads a time written as an optional sign, a decimal number and an
 * optional unit: "12.5ms", "300us", "300µs", "300 us", "4s", "1500ns",
 * "-2ms". A number without a unit is in milliseconds ("2.5" is 2.5 ms).
 * Units are case-insensitive; spaces around the number and the unit are
 * allowed. The conversion is exact decimal arithmetic: digits below a
 * nanosecond round half away from zero.
 *
 * Returns: %TRUE on success; %FALSE with @error set
 *   (%G_IO_ERROR_INVALID_ARGUMENT) on anything else, or a time out of the
 *   range of #SpsTime
 */
gboolean
sps_time_parse (const char  *text,
                SpsTime     *out,
                GError     **error)
{
  const char *p;
  const char *int_start;
  const char *frac_start = NULL;
  const char *unit_start;
  const char *unit_end;
  gsize n_int;
  gsize n_frac = 0;
  gboolean negative = FALSE;
  const Unit *unit;
  guint64 whole = 0;
  guint64 frac = 0;
  guint64 total;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  p = text;
  while (g_ascii_isspace (*p))
    p++;

  if (*p == '-' || *p == '+')
    {
      negative = *p == '-';
      p++;
    }

  int_start = p;
  while (g_ascii_isdigit (*p))
    p++;
  n_int = p - int_start;

  if (*p == '.')
    {
      p++;
      frac_start = p;
      while (g_ascii_isdigit (*p))
        p++;
      n_frac = p - frac_start;
    }

  if (n_int + n_frac == 0)
    {
      set_parse_error (error, text);
      return FALSE;
    }

  while (g_ascii_isspace (*p))
    p++;
  unit_start = p;
  while (*p != '\0' && !g_ascii_isspace (*p))
    p++;
  unit_end = p;
  while (g_ascii_isspace (*p))
    p++;

  unit = lookup_unit (unit_start, unit_end - unit_start);
  if (*p != '\0' || unit == NULL)
    {
      set_parse_error (error, text);
      return FALSE;
    }

  for (gsize i = 0; i < n_int; i++)
    {
      guint digit = int_start[i] - '0';

      if (whole > (G_MAXUINT64 - digit) / 10)
        goto out_of_range;
      whole = whole * 10 + digit;
    }

  /* The first unit->digits fraction digits are whole nanoseconds; the
   * next one decides the rounding. */
  for (guint i = 0; i < unit->digits; i++)
    frac = frac * 10 + (i < n_frac ? (guint64) (frac_start[i] - '0') : 0);
  if (n_frac > unit->digits && frac_start[unit->digits] >= '5')
    frac++;

  if (whole > (G_MAXUINT64 - frac) / unit->ns)
    goto out_of_range;
  total = whole * unit->ns + frac;
  if (total > (guint64) G_MAXINT64)
    goto out_of_range;

  *out = negative ? -(gint64) total : (gint64) total;

  return TRUE;

out_of_range:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("“%s” is too large a time"), text);
  return FALSE;
}

/**
 * sps_time_tick_step:
 * @ns_per_pixel: the scale of the axis
 * @min_pixels: the least distance between two ticks, in pixels
 *
 * Finds the smallest step of the form 1, 2 or 5 × 10^k ns (k ≥ 0) that
 * is at least @ns_per_pixel × @min_pixels. Non-positive or NaN input
 * gives 1 ns; the largest step returned is 5 × 10^18 ns.
 *
 * Returns: the step in ns
 */
SpsTime
sps_time_tick_step (double ns_per_pixel,
                    double min_pixels)
{
  static const guint mantissas[] = { 1, 2, 5 };
  double target = ns_per_pixel * min_pixels;
  SpsTime step = 1;

  /* !(x > 0) is also true for NaN. */
  if (!(target > 1))
    return 1;

  for (guint k = 0; k <= 18; k++)
    {
      SpsTime power = (SpsTime) pow10_u64 (k);

      for (guint m = 0; m < G_N_ELEMENTS (mantissas); m++)
        {
          step = power * mantissas[m];
          if ((double) step >= target)
            return step;
        }
    }

  return step;
}
