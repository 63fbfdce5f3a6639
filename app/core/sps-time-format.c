/* sps-time-format.c: the one formatter of times and durations, the one
 * parser of what users type, ruler tick steps
 *
 * Every place that shows a time to a person (the views, the CLI, the
 * plugins) goes through these functions, so a time reads the same
 * everywhere.
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

/* Formats @mag ns (with a minus sign when @negative) in the largest unit
 * in which it is at least 1, rounded to @precision decimals. */
static char *
format_magnitude (gboolean negative,
                  guint64  mag,
                  guint    precision)
{
  const char *sign = negative && mag > 0 ? "-" : "";
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

/* @mag ns with 4 significant digits (whole units kept whole). */
static char *
format_significant (gboolean negative,
                    guint64  mag)
{
  guint64 whole = mag;
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

  return format_magnitude (negative, mag, digits >= SIGNIFICANT_DIGITS ? 0 : SIGNIFICANT_DIGITS - digits);
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
 * Use it where a fixed number of decimals matters (a value the user will
 * type back); everywhere else use sps_time_format().
 *
 * Returns: (transfer full): the text
 */
char *
sps_time_format_duration (SpsTime duration,
                          guint   precision)
{
  return format_magnitude (duration < 0, magnitude (duration), precision);
}

/**
 * sps_time_format:
 * @time: a time or duration in ns (may be negative)
 *
 * Formats @time as every view, the command line and the plugins show
 * times and durations to the user, with the same number of significant
 * digits everywhere: the largest unit in which it is at least 1 and 4
 * significant digits (whole numbers of the unit are kept whole), trailing
 * zeros removed. 1234567 gives "1.235 ms", 123456789 gives "123.5 ms",
 * 1500 gives "1.5 µs", 250 gives "250 ns", 5400000000000 gives "5400 s".
 *
 * Returns: (transfer full): the text
 */
char *
sps_time_format (SpsTime time)
{
  return format_significant (time < 0, magnitude (time));
}

/**
 * sps_time_format_span:
 * @start: a time in ns
 * @end: a time in ns
 *
 * Formats the duration from @start to @end as sps_time_format() does,
 * computed without overflow: the span between the earliest and the latest
 * time (up to 2^64 - 1 ns) does not fit an #SpsTime but is formatted
 * exactly ("18446744074 s"). @end before @start gives a negative duration.
 *
 * Returns: (transfer full): the text
 */
char *
sps_time_format_span (SpsTime start,
                      SpsTime end)
{
  /* Two's complement: the unsigned difference is exact modulo 2^64, and
   * the true span is below 2^64. */
  if (end >= start)
    return format_significant (FALSE, (guint64) end - (guint64) start);

  return format_significant (TRUE, (guint64) start - (guint64) end);
}

/* The length in ns of the unit spelled @text (@len bytes), 0 if none. */
static guint64
lookup_unit (const char *text,
             gsize       len)
{
  static const struct {
    const char *spelling;
    guint64     ns;
  } spellings[] = {
    { "ns", 1 },
    { "us", G_GUINT64_CONSTANT (1000) },
    { "µs", G_GUINT64_CONSTANT (1000) },      /* U+00B5 MICRO SIGN */
    { "μs", G_GUINT64_CONSTANT (1000) },      /* U+03BC GREEK SMALL LETTER MU */
    { "ms", G_GUINT64_CONSTANT (1000000) },
    { "s", G_GUINT64_CONSTANT (1000000000) },
    /* For the length of a capture; "m" alone is not one (minutes or
     * milli-something?). */
    { "min", G_GUINT64_CONSTANT (60000000000) },
    { "h", G_GUINT64_CONSTANT (3600000000000) },
  };

  /* No unit: milliseconds, the unit people think of for frame times. */
  if (len == 0)
    return G_GUINT64_CONSTANT (1000000);

  for (guint i = 0; i < G_N_ELEMENTS (spellings); i++)
    if (strlen (spellings[i].spelling) == len &&
        g_ascii_strncasecmp (text, spellings[i].spelling, len) == 0)
      return spellings[i].ns;

  return 0;
}

static void
set_parse_error (GError     **error,
                 const char  *text)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("“%s” is not a time: write a number and a unit (ns, us, ms, s, min or h), for example 12.5ms"),
               text);
}

/* The fraction digits that count: 19 of them resolve a nanosecond of an
 * hour 10^6 times over, and fit a guint64. */
#define MAX_FRACTION_DIGITS 19

/**
 * sps_time_parse:
 * @text: what the user typed
 * @out: (out): the time in ns
 * @error: return location for a #GError
 *
 * Reads a time written as an optional sign, a decimal number and an
 * optional unit: "12.5ms", "300us", "300µs", "300 us", "4s", "1500ns",
 * "-2ms", "1.5min", "2h". A number without a unit is in milliseconds
 * ("2.5" is 2.5 ms). Units are case-insensitive; spaces around the number
 * and the unit are allowed. The conversion is exact decimal arithmetic
 * (to the 19th decimal): what falls below a nanosecond rounds half away
 * from zero.
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
  gsize n_used;
  gboolean negative = FALSE;
  guint64 unit_ns;
  guint64 whole = 0;
  guint64 frac_digits = 0;
  guint64 frac_ns;
  unsigned __int128 scaled;
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

  unit_ns = lookup_unit (unit_start, unit_end - unit_start);
  if (*p != '\0' || unit_ns == 0)
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

  /* fraction × unit, rounded half away from zero: F / 10^n × unit_ns with
   * F < 10^19 and unit_ns < 2^42 needs more than 64 bits. */
  n_used = MIN (n_frac, MAX_FRACTION_DIGITS);
  for (gsize i = 0; i < n_used; i++)
    frac_digits = frac_digits * 10 + (guint64) (frac_start[i] - '0');
  scaled = (unsigned __int128) frac_digits * unit_ns * 2 / pow10_u64 ((guint) n_used);
  frac_ns = (guint64) ((scaled + 1) / 2);

  if (whole > (G_MAXUINT64 - frac_ns) / unit_ns)
    goto out_of_range;
  total = whole * unit_ns + frac_ns;
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
