/* test-nettrace-limits.c: a .nettrace whose numbers are hostile: sample
 * times that do not fit the model's time range, stacks that are empty
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-nettrace-limits"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "nettrace-gen/nettrace-writer.h"

#include "sps-test-util.h"

#define FREQUENCY G_GINT64_CONSTANT (1000000000)
#define SYNC_QPC  G_GINT64_CONSTANT (5000000000)
#define METHOD    G_GUINT64_CONSTANT (0x7ff812340000)

static SpsTrace *
load (GBytes  *bytes,
      char   **path_out)
{
  g_autofree char *path = sps_test_write_temp ("spanscope-nettrace-XXXXXX", "limits.nettrace",
                                               g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE,
                          NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  *path_out = g_steal_pointer (&path);
  return trace;
}

/* Ticks 1 s after the sync point, then G_MAXINT64 ticks (292 years at
 * 1 GHz: ticks × 10⁹ overflows 64 bits, and the time is beyond the ±2^62
 * ns of the model) and one tick before the sync point minus 2^63: both
 * dropped, each a warning that names the file; the samples around them
 * are kept with their exact times. An empty stack is a sample without a
 * stack. */
static void
test_sample_times (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  static const guint64 ips[] = { METHOD + 0x10 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  const SpsSampleTable *samples;
  const char *first = NULL;
  guint64 count = 0;

  nt_writer_add_method (w, METHOD, 0x100, 0x5000, "App", "Run", "void  ()", FALSE);
  nt_writer_add_module (w, 0x5000, "/app/App.dll");
  nt_writer_sample (w, 1, SYNC_QPC + FREQUENCY, ips, 1, 2);
  nt_writer_sample (w, 1, G_MAXINT64, ips, 1, 2);
  nt_writer_sample (w, 1, G_MININT64, ips, 1, 2);
  nt_writer_sample (w, 1, SYNC_QPC + 2 * FREQUENCY, NULL, 0, 2);
  bytes = nt_writer_finish (w, SYNC_QPC + 3 * FREQUENCY, TRUE);
  nt_writer_free (w);

  trace = load (bytes, &path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 2);
  g_assert_cmpint (samples->ts[0], ==, 1000000000);
  g_assert_cmpint (samples->ts[1], ==, 2000000000);
  g_assert_cmpuint (samples->callsite[1], ==, SPS_NO_INDEX);

  g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-time-out-of-range"), ==, 2);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    if (g_strcmp0 (sps_trace_get_warning (trace, i, &count, &first), "nettrace-time-out-of-range") == 0)
      break;
  expected = g_strdup_printf ("%s (byte ", path);
  g_assert_true (g_str_has_prefix (first, expected));
  g_assert_true (g_str_has_suffix (first, "): a sample time more than 146 years from the trace start; "
                                          "the sample is dropped"));
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (a, b, 4);
}

static void
put_utf16z (GByteArray *a,
            const char *ascii)
{
  for (const char *c = ascii; ; c++)
    {
      guint8 unit[2] = { (guint8) *c, 0 };

      g_byte_array_append (a, unit, 2);
      if (*c == '\0')
        break;
    }
}

/* The events of @provider, in table order: time, name and args */
static char *
dump_events (SpsTrace   *trace,
             const char *provider)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < instants->n_rows; i++)
    {
      const char *args;
      gsize len;

      if (instants->kind[i] != SPS_INSTANT_KIND_EVENT ||
          g_strcmp0 (sps_trace_get_string (trace, instants->category[i]), provider) != 0)
        continue;
      args = sps_trace_get_args_json (trace, instants->args[i], &len);
      g_string_append_printf (out, "%" G_GINT64_FORMAT " %s %.*s\n", instants->ts[i],
                              sps_trace_get_string (trace, instants->name[i]), (int) len, args);
    }
  return g_string_free (out, FALSE);
}

/* Payloads that do not fit their description are kept raw, whole: a cut
 * Int64, a string without its terminator. Fields that take no bytes
 * cannot make text without bound: 3,000 empty objects of a 0-byte
 * payload are kept as the empty payload. A nested object decodes. */
static void
test_event_payloads (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  g_autoptr(GByteArray) cut = g_byte_array_new ();
  g_autoptr(GByteArray) text = g_byte_array_new ();
  g_autoptr(GByteArray) empty = g_byte_array_new ();
  g_autoptr(GByteArray) nested = g_byte_array_new ();
  static const guint8 four[4] = { 1, 2, 3, 4 };
  static const guint8 unterminated[4] = { 'a', 0, 'b', 0 };
  static const guint8 nested_payload[8] = { 7, 0, 0, 0, 9, 0, 0, 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *path = NULL;
  g_autofree char *events = NULL;
  guint32 t_cut, t_text, t_empty, t_nested;

  put_u32 (cut, 1);
  put_u32 (cut, 11);                /* Int64 */
  put_utf16z (cut, "big");
  put_u32 (text, 1);
  put_u32 (text, 18);               /* UTF-16 string */
  put_utf16z (text, "s");
  put_u32 (empty, 3000);
  for (guint i = 0; i < 3000; i++)
    {
      put_u32 (empty, 1);           /* Object */
      put_u32 (empty, 0);           /* of no field */
      put_utf16z (empty, "o");
    }
  put_u32 (nested, 2);
  put_u32 (nested, 1);              /* Object of one Int32 */
  put_u32 (nested, 1);
  put_u32 (nested, 9);
  put_utf16z (nested, "a");
  put_utf16z (nested, "inner");
  put_u32 (nested, 10);             /* then a UInt32 */
  put_utf16z (nested, "b");

  t_cut = nt_writer_add_event_type (w, "Test", 1, "Cut", cut->data, cut->len);
  t_text = nt_writer_add_event_type (w, "Test", 2, "Text", text->data, text->len);
  t_empty = nt_writer_add_event_type (w, "Test", 3, "Empty", empty->data, empty->len);
  t_nested = nt_writer_add_event_type (w, "Test", 4, "Nested", nested->data, nested->len);
  nt_writer_event (w, t_cut, 5, SYNC_QPC + 1000, four, 4);
  nt_writer_event (w, t_text, 5, SYNC_QPC + 2000, unterminated, 4);
  nt_writer_event (w, t_empty, 5, SYNC_QPC + 3000, NULL, 0);
  nt_writer_event (w, t_nested, 5, SYNC_QPC + 4000, nested_payload, 8);
  bytes = nt_writer_finish (w, SYNC_QPC + 5000, TRUE);
  nt_writer_free (w);

  trace = load (bytes, &path);
  events = dump_events (trace, "Test");
  g_assert_cmpstr (events, ==,
                   "1000 Test/Cut {\"payload_size\":4,\"payload_base64\":\"AQIDBA==\"}\n"
                   "2000 Test/Text {\"payload_size\":4,\"payload_base64\":\"YQBiAA==\"}\n"
                   "3000 Test/Empty {\"payload_size\":0}\n"
                   "4000 Test/Nested {\"inner\":{\"a\":7},\"b\":9}\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nettrace/limits/sample-times", test_sample_times);
  g_test_add_func ("/nettrace/limits/event-payloads", test_event_payloads);

  return g_test_run ();
}
