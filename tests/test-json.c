/* test-json.c: sps_json_append_string()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-json"

#include "config.h"

#include <spanscope-core.h>

static char *
quoted (const char *text,
        gssize      len)
{
  GString *out = g_string_new ("x=");

  sps_json_append_string (out, text, len);
  return g_string_free (out, FALSE);
}

/* Each expected string written by hand from RFC 8259 §7. */
static void
test_escapes (void)
{
  g_autofree char *plain = quoted ("main", -1);
  g_autofree char *specials = quoted ("a\"b\\c\nd\re\tf", -1);
  g_autofree char *controls = quoted ("\x01\x1f ", -1);
  g_autofree char *utf8 = quoted ("Gr\xc3\xbc\xc3\x9f" "e", -1);
  g_autofree char *empty = quoted ("", -1);

  g_assert_cmpstr (plain, ==, "x=\"main\"");
  g_assert_cmpstr (specials, ==, "x=\"a\\\"b\\\\c\\nd\\re\\tf\"");
  g_assert_cmpstr (controls, ==, "x=\"\\u0001\\u001f \"");
  g_assert_cmpstr (utf8, ==, "x=\"Gr\xc3\xbc\xc3\x9f" "e\"");
  g_assert_cmpstr (empty, ==, "x=\"\"");
}

/* @len bounds the text; invalid UTF-8, and a NUL inside the text (GLib's
 * UTF-8 check rejects it), becomes U+FFFD (EF BF BD). */
static void
test_length_and_invalid (void)
{
  g_autofree char *prefix = quoted ("abcdef", 3);
  g_autofree char *nul = quoted ("a\0b", 3);
  g_autofree char *invalid = quoted ("a\xff" "b", -1);
  g_autofree char *none = quoted (NULL, 0);

  g_assert_cmpstr (prefix, ==, "x=\"abc\"");
  g_assert_cmpstr (nul, ==, "x=\"a\xef\xbf\xbd" "b\"");
  g_assert_cmpstr (invalid, ==, "x=\"a\xef\xbf\xbd" "b\"");
  g_assert_cmpstr (none, ==, "x=\"\"");
}

static void
test_integers (void)
{
  g_autoptr(GString) out = g_string_new ("[");

  g_test_summary ("Integers at the ends of their ranges, written in decimal");
  sps_json_append_uint64 (out, 0);
  g_string_append_c (out, ',');
  sps_json_append_uint64 (out, G_MAXUINT64);
  g_string_append_c (out, ',');
  sps_json_append_int64 (out, G_MININT64);
  g_string_append_c (out, ',');
  sps_json_append_int64 (out, -1);
  g_string_append_c (out, ',');
  sps_json_append_int64 (out, G_MAXINT64);
  g_string_append_c (out, ']');
  g_assert_cmpstr (out->str, ==, "[0,18446744073709551615,-9223372036854775808,-1,9223372036854775807]");
}

static void
test_time_us (void)
{
  const gint64 ns[] = { 0, 1, 10, 100, 1500, 2000, 1001, -1, -1500, G_MAXINT64, G_MININT64, 9007199254740993 };
  g_autoptr(GString) out = g_string_new ("[");

  g_test_summary ("Nanoseconds written as microseconds exactly, without trailing zeros, "
                  "at the ends of gint64 and past 2^53 (where a double rounds)");
  for (guint i = 0; i < G_N_ELEMENTS (ns); i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      sps_json_append_time_us (out, ns[i]);
    }
  g_string_append_c (out, ']');
  g_assert_cmpstr (out->str, ==,
                   "[0,0.001,0.01,0.1,1.5,2,1.001,-0.001,-1.5,9223372036854775.807,"
                   "-9223372036854775.808,9007199254740.993]");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/string/escapes", test_escapes);
  g_test_add_func ("/json/string/length-and-invalid", test_length_and_invalid);
  g_test_add_func ("/json/integers", test_integers);
  g_test_add_func ("/json/time-us", test_time_us);

  return g_test_run ();
}
