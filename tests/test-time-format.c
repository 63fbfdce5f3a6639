/* test-time-format.c: the one formatter of times (views, CLI, plugins),
 * parsing what users type, ticks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-time-format"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

static void
assert_format (SpsTime     duration,
               guint       precision,
               const char *expected)
{
  g_autofree char *text = sps_time_format_duration (duration, precision);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_format_units (void)
{
  assert_format (0, 3, "0 ns");
  assert_format (250, 3, "250 ns");
  assert_format (999, 3, "999 ns");
  assert_format (1000, 3, "1 µs");
  assert_format (1500, 3, "1.5 µs");
  assert_format (1001, 3, "1.001 µs");
  assert_format (1234567, 3, "1.235 ms");
  assert_format (1000000000, 3, "1 s");
  assert_format (3250000000, 3, "3.25 s");
  assert_format (G_GINT64_CONSTANT (3600000000000), 3, "3600 s");
}

static void
test_format_precision (void)
{
  assert_format (1234567, 2, "1.23 ms");
  assert_format (1234567, 0, "1 ms");
  assert_format (1234567, 6, "1.234567 ms");
  /* More than 9 decimals add nothing below a nanosecond. */
  assert_format (1000000001, 12, "1.000000001 s");
  /* Half away from zero: 1.005 µs. */
  assert_format (1005, 2, "1.01 µs");
  assert_format (1004, 2, "1 µs");
  /* Trailing zeros go: 1.100 ms → 1.1 ms. */
  assert_format (1100000, 3, "1.1 ms");
}

static void
test_format_rounding_carries (void)
{
  /* 999.999 µs rounds to 1000.00 µs, shown as the next unit. */
  assert_format (999999, 2, "1 ms");
  assert_format (999500, 0, "1 ms");
  assert_format (999499, 0, "999 µs");
  assert_format (999999999, 2, "1 s");
  /* Seconds have no larger unit. */
  assert_format (G_GINT64_CONSTANT (999999999999), 2, "1000 s");
}

static void
assert_time (SpsTime     time,
             const char *expected)
{
  g_autofree char *text = sps_time_format (time);

  g_assert_cmpstr (text, ==, expected);
}

/* The one format of times shown to users: 4 significant digits in the
 * largest unit that fits, whole units kept whole (values by hand). */
static void
test_format_significant (void)
{
  assert_time (0, "0 ns");
  assert_time (7, "7 ns");
  assert_time (250, "250 ns");
  assert_time (1500, "1.5 µs");
  assert_time (1234567, "1.235 ms");
  assert_time (12345678, "12.35 ms");
  assert_time (123456789, "123.5 ms");
  assert_time (1154300000, "1.154 s");
  assert_time (-1234567, "-1.235 ms");
  /* 9.9996 ms rounds to 10.00 ms: trailing zeros go */
  assert_time (9999600, "10 ms");
  /* 999.96 µs rounds to 1000.0 µs, shown in the next unit */
  assert_time (999960, "1 ms");
  /* More integer digits than 4 stay */
  assert_time (G_GINT64_CONSTANT (5400000000000), "5400 s");
  assert_time (G_GINT64_CONSTANT (54321987654321), "54322 s");
  assert_time (G_MININT64, "-9223372037 s");
}

static void
test_format_negative (void)
{
  assert_format (-1500, 3, "-1.5 µs");
  assert_format (-1, 3, "-1 ns");
  assert_format (G_MININT64, 3, "-9223372036.855 s");
  assert_format (G_MAXINT64, 0, "9223372037 s");
}

/* The largest times: 9223372036854775807 ns is 9223372036.854775807 s;
 * with 4 significant digits whole seconds stay whole and .85 rounds up. */
static void
test_format_huge (void)
{
  assert_format (G_MAXINT64, 9, "9223372036.854775807 s");
  assert_format (G_MAXINT64, 3, "9223372036.855 s");
  assert_format (G_MAXINT64 - 1, 9, "9223372036.854775806 s");
  assert_time (G_MAXINT64, "9223372037 s");
  assert_time (G_MAXINT64 - 1, "9223372037 s");
  assert_time (G_MININT64 + 1, "-9223372037 s");
  /* 0 has no sign, at any precision */
  assert_format (0, 0, "0 ns");
  assert_time (0, "0 ns");
  assert_time (-1, "-1 ns");
  assert_time (-999999, "-1 ms");
}

static void
assert_span (SpsTime     start,
             SpsTime     end,
             const char *expected)
{
  g_autofree char *text = sps_time_format_span (start, end);

  g_assert_cmpstr (text, ==, expected);
}

/* The span between two times, which may not fit an SpsTime: from the
 * earliest to the latest time is 2^64 − 1 ns = 18446744073.709551615 s,
 * shown as 18446744074 s (4 significant digits keep whole seconds). */
static void
test_format_span (void)
{
  assert_span (0, 1234567, "1.235 ms");
  assert_span (1000, 1000, "0 ns");
  assert_span (5, 3, "-2 ns");
  assert_span (-1500, 0, "1.5 µs");
  assert_span (G_MININT64, G_MAXINT64, "18446744074 s");
  assert_span (G_MAXINT64, G_MININT64, "-18446744074 s");
  /* The extremes `spanscope-cli info` meets: ±9223372036854775 µs */
  assert_span (G_GINT64_CONSTANT (-9223372036854775000), G_GINT64_CONSTANT (9223372036854775000),
               "18446744074 s");
  assert_span (G_MININT64, 0, "9223372037 s");
}

static void
assert_parse (const char *text,
              SpsTime     expected)
{
  g_autoptr(GError) error = NULL;
  SpsTime value = 12345;

  g_assert_true (sps_time_parse (text, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, expected);
}

static void
assert_parse_fails (const char *text)
{
  g_autoptr(GError) error = NULL;
  SpsTime value = 12345;

  g_assert_false (sps_time_parse (text, &value, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, text));
  /* The output is left alone on failure. */
  g_assert_cmpint (value, ==, 12345);
}

static void
test_parse_units (void)
{
  assert_parse ("12.5ms", 12500000);
  assert_parse ("300us", 300000);
  assert_parse ("300µs", 300000);
  assert_parse ("300μs", 300000);     /* Greek mu */
  assert_parse ("300 us", 300000);
  assert_parse ("4s", G_GINT64_CONSTANT (4000000000));
  assert_parse ("1500ns", 1500);
  assert_parse ("12MS", 12000000);
  assert_parse ("2 Us", 2000);
  /* Minutes and hours, for the length of a capture */
  assert_parse ("1min", G_GINT64_CONSTANT (60000000000));
  assert_parse ("1.5 min", G_GINT64_CONSTANT (90000000000));
  assert_parse ("2H", G_GINT64_CONSTANT (7200000000000));
  assert_parse ("0.1h", G_GINT64_CONSTANT (360000000000));
}

static void
test_parse_bare_number_is_ms (void)
{
  assert_parse ("2.5", 2500000);
  assert_parse ("7", 7000000);
  assert_parse (".5", 500000);
  assert_parse ("5.", 5000000);
  assert_parse ("0", 0);
}

static void
test_parse_sign_and_spaces (void)
{
  assert_parse ("-2ms", -2000000);
  assert_parse ("+3 s", G_GINT64_CONSTANT (3000000000));
  assert_parse ("  7ms  ", 7000000);
  assert_parse ("\t-0.25 us\n", -250);
  assert_parse ("-0", 0);
}

static void
test_parse_exact_decimal (void)
{
  /* Exact digits, no binary floating point: 0.1 + 0.2 style traps. */
  assert_parse ("0.3s", 300000000);
  assert_parse ("1.000000001s", 1000000001);
  assert_parse ("123456.789012ms", G_GINT64_CONSTANT (123456789012));
  /* Below a nanosecond: the next digit rounds half away from zero. */
  assert_parse ("1.0000005ms", 1000001);
  assert_parse ("1.00000049ms", 1000000);
  assert_parse ("0.5ns", 1);
  assert_parse ("0.4ns", 0);
  assert_parse ("-0.5ns", -1);
  assert_parse ("9223372036854775807ns", G_MAXINT64);
  assert_parse ("-9223372036854775807ns", -G_MAXINT64);
  assert_parse ("9223372036.854775807s", G_MAXINT64);
  /* 10^-13 h is 0.36 ns, 2 × 10^-13 h is 0.72 ns */
  assert_parse ("0.0000000000001h", 0);
  assert_parse ("0.0000000000002h", 1);
  /* Past the 19th decimal nothing counts */
  assert_parse ("1.00000000000000000009h", G_GINT64_CONSTANT (3600000000000));
  /* 153722867 min = 9223372020000000000 ns; 2562047 h = 9223369200000000000 ns */
  assert_parse ("153722867min", G_GINT64_CONSTANT (9223372020000000000));
  assert_parse ("2562047h", G_GINT64_CONSTANT (9223369200000000000));
}

static void
test_parse_garbage (void)
{
  assert_parse_fails ("");
  assert_parse_fails ("   ");
  assert_parse_fails ("abc");
  assert_parse_fails ("ms");
  assert_parse_fails ("-");
  assert_parse_fails (".");
  assert_parse_fails ("12 parsecs");
  assert_parse_fails ("1.2.3ms");
  assert_parse_fails ("12 ms x");
  assert_parse_fails ("1e3ms");
  assert_parse_fails ("12m");
  assert_parse_fails ("12 mins");
  assert_parse_fails ("1hr");
  assert_parse_fails ("--1ms");
  assert_parse_fails ("1 2ms");
}

static void
test_parse_out_of_range (void)
{
  assert_parse_fails ("9223372036854775808ns");
  assert_parse_fails ("9223372037s");
  assert_parse_fails ("99999999999999999999999");
  assert_parse_fails ("-9223372036854775808ns");
  assert_parse_fails ("9223372036.854775808s");
  assert_parse_fails ("153722868min");
  assert_parse_fails ("2562048h");
  assert_parse_fails ("18446744073709551616ns");
}

static void
test_parse_round_trips_format (void)
{
  static const SpsTime values[] = { 0, 1, 999, 1500, 1234567, 42000000, G_GINT64_CONSTANT (3250000000), -7000 };

  /* What the panel shows at full precision can be typed back. */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = sps_time_format_duration (values[i], 9);

      assert_parse (text, values[i]);
    }
}

static void
test_tick_step_values (void)
{
  g_assert_cmpint (sps_time_tick_step (1.0, 50), ==, 50);
  g_assert_cmpint (sps_time_tick_step (1.0, 51), ==, 100);
  g_assert_cmpint (sps_time_tick_step (2.0, 100), ==, 200);
  g_assert_cmpint (sps_time_tick_step (3.0, 70), ==, 500);
  g_assert_cmpint (sps_time_tick_step (1e6, 80), ==, 100000000);
  g_assert_cmpint (sps_time_tick_step (2e7, 100), ==, G_GINT64_CONSTANT (2000000000));
  g_assert_cmpint (sps_time_tick_step (0.01, 10), ==, 1);
}

static void
test_tick_step_degenerate (void)
{
  g_assert_cmpint (sps_time_tick_step (NAN, 50), ==, 1);
  g_assert_cmpint (sps_time_tick_step (-5, 50), ==, 1);
  g_assert_cmpint (sps_time_tick_step (0, 50), ==, 1);
  g_assert_cmpint (sps_time_tick_step (INFINITY, 50), ==, G_GINT64_CONSTANT (5000000000000000000));
  g_assert_cmpint (sps_time_tick_step (1e18, 100), ==, G_GINT64_CONSTANT (5000000000000000000));
}

/* For many scales: the step is 1, 2 or 5 × 10^k, ticks are at least
 * min_pixels apart, and the next smaller candidate would be too close. */
static void
test_tick_step_is_smallest (void)
{
  for (double ns_per_pixel = 0.013; ns_per_pixel < 1e12; ns_per_pixel *= 1.37)
    {
      SpsTime step = sps_time_tick_step (ns_per_pixel, 60);
      SpsTime mantissa = step;
      SpsTime smaller;

      while (mantissa % 10 == 0)
        mantissa /= 10;
      g_assert_true (mantissa == 1 || mantissa == 2 || mantissa == 5);
      g_assert_cmpfloat ((double) step / ns_per_pixel, >=, 60 - 1e-9);

      if (step == 1)
        continue;

      if (mantissa == 1)
        smaller = step / 2;
      else if (mantissa == 2)
        smaller = step / 2;
      else
        smaller = step * 2 / 5;
      g_assert_cmpfloat ((double) smaller / ns_per_pixel, <, 60);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/time-format/duration/units", test_format_units);
  g_test_add_func ("/core/time-format/duration/precision", test_format_precision);
  g_test_add_func ("/core/time-format/duration/rounding-carries", test_format_rounding_carries);
  g_test_add_func ("/core/time-format/duration/negative", test_format_negative);
  g_test_add_func ("/core/time-format/duration/huge", test_format_huge);
  g_test_add_func ("/core/time-format/span/exact", test_format_span);
  g_test_add_func ("/core/time-format/time/significant", test_format_significant);
  g_test_add_func ("/core/time-format/parse/units", test_parse_units);
  g_test_add_func ("/core/time-format/parse/bare-number-is-ms", test_parse_bare_number_is_ms);
  g_test_add_func ("/core/time-format/parse/sign-and-spaces", test_parse_sign_and_spaces);
  g_test_add_func ("/core/time-format/parse/exact-decimal", test_parse_exact_decimal);
  g_test_add_func ("/core/time-format/parse/garbage", test_parse_garbage);
  g_test_add_func ("/core/time-format/parse/out-of-range", test_parse_out_of_range);
  g_test_add_func ("/core/time-format/parse/round-trips-format", test_parse_round_trips_format);
  g_test_add_func ("/core/time-format/tick-step/values", test_tick_step_values);
  g_test_add_func ("/core/time-format/tick-step/degenerate", test_tick_step_degenerate);
  g_test_add_func ("/core/time-format/tick-step/is-smallest", test_tick_step_is_smallest);

  return g_test_run ();
}
