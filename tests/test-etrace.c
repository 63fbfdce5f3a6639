/* test-etrace.c: the embedded trace importer, its analysis and CSV export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Streams are written with protobuf-c (etrace-stream.h) and loaded through
 * the plugin engine like any file; the expected figures are worked out by
 * hand from the frames listed in each test.
 */

#define G_LOG_DOMAIN "test-etrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "etrace-stream.h"
#include "tracing_v1.pb-c.h"
#include "sps-etrace-analysis.h"
#include "sps-etrace-decoder.h"

#include "sps-test-util.h"

#define START  1
#define END    2
#define MARKER 3
#define NONE   (-1)

static char *
write_temp (GBytes     *bytes,
            const char *basename)
{
  return sps_test_write_temp ("test-etrace-XXXXXX", basename, g_bytes_get_data (bytes, NULL),
                              g_bytes_get_size (bytes));
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

static SpsTrace *
load_bytes (GByteArray *stream)
{
  g_autoptr(GBytes) bytes = g_bytes_new (stream->data, stream->len);
  g_autofree char *path = write_temp (bytes, "trace.bin");
  SpsTrace *trace = sps_test_load_path (path);

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "etrace");
  remove_temp (path);

  return trace;
}

static JsonObject *
embedded (SpsTrace *trace)
{
  static JsonNode *node;
  SpsArgsRef ref = SPS_ARGS_REF_NONE;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (sps_trace_get_n_info_sections (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_info_section (trace, 0, &ref), ==, "embedded");
  g_clear_pointer (&node, json_node_unref);
  node = sps_trace_parse_args (trace, ref, &error);
  g_assert_no_error (error);

  return json_node_get_object (node);
}

static gint64
embedded_int (SpsTrace   *trace,
              const char *key)
{
  return json_object_get_int_member (embedded (trace), key);
}

static gint64
spans_of (SpsTrace   *trace,
          const char *name)
{
  JsonObject *spans = json_object_get_object_member (embedded (trace), "spans_per_name");

  return json_object_has_member (spans, name) ? json_object_get_int_member (spans, name) : 0;
}

/* All six counts of the embedded section and the warnings agree */
static void
assert_health (SpsTrace *trace,
               gint64    lost,
               gint64    unknown,
               gint64    unmatched,
               gint64    restarts,
               gint64    open,
               gint64    resets)
{
  const struct { const char *name; gint64 count; } expected[] = {
    { "lost_frames", lost },
    { "unknown_name_events", unknown },
    { "unmatched_end", unmatched },
    { "discarded_restarts", restarts },
    { "open_at_end", open },
    { "device_resets", resets },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_test_message ("%s", expected[i].name);
      g_assert_cmpint (embedded_int (trace, expected[i].name), ==, expected[i].count);
      g_assert_cmpint ((gint64) sps_trace_count_warning (trace, expected[i].name), ==, expected[i].count);
    }
}

/* The count of problem @name the "Capture health" counter reached: its
 * steps are cumulative, so its last value in time */
static gint64
health_marks (SpsTrace   *trace,
              const char *name)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  gint64 total = 0;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint first = tracks->first_row[t];
      guint n = tracks->n_rows_in_track[t];

      if (tracks->kind[t] != SPS_TRACK_COUNTER ||
          g_strcmp0 (sps_trace_get_string (trace, tracks->name[t]), name) != 0 || n == 0)
        continue;
      g_assert_cmpint (total, ==, 0);
      total = (gint64) counters->value[first + n - 1];
    }

  return total;
}

/* How many steps the "Capture health" counter of problem @name made */
static guint
health_steps (SpsTrace   *trace,
              const char *name)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  for (guint t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == SPS_TRACK_COUNTER &&
        g_strcmp0 (sps_trace_get_string (trace, tracks->name[t]), name) == 0)
      return tracks->n_rows_in_track[t];

  return 0;
}

/* formats/embedded-trace.md §2.6, the bytes as listed there */
static const guint8 worked_example[] = {
  0x07, 0x08, 0xd0, 0x0f, 0x18, 0x05, 0x60, 0x1f,
  0x1c, 0x08, 0x98, 0x11, 0x10, 0x01, 0x18, 0x04, 0x20, 0x02, 0x32, 0x08,
  0x67, 0x79, 0x72, 0x6f, 0x5f, 0x69, 0x73, 0x72, 0x38, 0x01, 0x40, 0x08,
  0x4d, 0x00, 0x00, 0x00, 0x3f,
  0x06, 0x10, 0x01, 0x18, 0x01, 0x20, 0x01,
  0x09, 0x08, 0xd8, 0x04, 0x10, 0x01, 0x18, 0x02, 0x20, 0x03,
  0x16, 0x08, 0x8c, 0x15, 0x10, 0x02, 0x18, 0x04, 0x20, 0x05, 0x32, 0x0b,
  0x75, 0x6b, 0x66, 0x5f, 0x70, 0x72, 0x65, 0x64, 0x69, 0x63, 0x74,
  0x08, 0x10, 0x02, 0x18, 0x03, 0x20, 0x04, 0x28, 0x00,
  0x09, 0x08, 0xdc, 0x0b, 0x10, 0x01, 0x18, 0x01, 0x20, 0x06,
};

static void
test_worked_example (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GByteArray) encoded = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) args = NULL;
  const SpsSliceTable *slices;
  const SpsInstantTable *instants;
  guint gyro, marker = G_MAXUINT;

  /* Our test encoder writes the same bytes */
  etrace_stream_start (encoded, 1000, 0, FALSE, 0);
  etrace_stream_name (encoded, 1100, 2, 1, "gyro_isr", 1, 8, 0.5f);
  etrace_stream_event (encoded, START, 0, 1, 1, NONE);
  etrace_stream_event (encoded, END, 300, 3, 1, NONE);
  etrace_stream_name (encoded, 1350, 5, 2, "ukf_predict", 0, 0, NAN);
  etrace_stream_event (encoded, MARKER, 0, 4, 2, 0);
  etrace_stream_event (encoded, START, 750, 6, 1, NONE);
  g_assert_cmpmem (encoded->data, encoded->len, worked_example, sizeof worked_example);

  g_byte_array_append (stream, worked_example, sizeof worked_example);
  trace = load_bytes (stream);
  slices = sps_trace_get_slices (trace);
  instants = sps_trace_get_instants (trace);

  /* One matched gyro_isr 1100–1400 ns; the second start is open */
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  gyro = sps_test_find_slice (trace, "gyro_isr", 0);
  g_assert_cmpint (slices->ts[gyro], ==, 1100);
  g_assert_cmpint (slices->dur[gyro], ==, 300);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->category[gyro]), ==, "isr");
  args = sps_trace_parse_args (trace, slices->args[gyro], NULL);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (args), "priority"), ==, 8);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (args), "deadline_missed"));

  for (guint i = 0; i < instants->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, instants->name[i]), "ukf_predict") == 0)
      marker = i;
  g_assert_cmpuint (marker, !=, G_MAXUINT);
  g_assert_cmpint (instants->ts[marker], ==, 1350);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_threads (trace)->name[0]), !=, NULL);

  g_assert_cmpstr (json_object_get_string_member (embedded (trace), "timebase"), ==, "nanoseconds");
  g_assert_cmpint (spans_of (trace, "gyro_isr"), ==, 1);
  g_assert_cmpint (spans_of (trace, "ukf_predict"), ==, 0);
  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 0);
  /* Sequence 0–6 all present (out of order): nothing lost */
  assert_health (trace, 0, 0, 0, 0, 1, 0);
  g_assert_cmpint (health_marks (trace, "open_at_end"), ==, 1);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 7);
}

/* Wire order is not time order: the start is written after the end */
static void
test_pair_by_time (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint a;

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, END, 200, 2, 1, NONE);     /* t = 200 */
  etrace_stream_event (s, START, -100, 3, 1, NONE);  /* t = 100 */
  trace = load_bytes (s);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  a = sps_test_find_slice (trace, "a", 0);
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[a], ==, 100);
  g_assert_cmpint (sps_trace_get_slices (trace)->dur[a], ==, 100);
  assert_health (trace, 0, 0, 0, 0, 0, 0);
}

static void
test_lost_frames (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint seq = 0;

  etrace_stream_start (s, 0, seq++, FALSE, 0);
  etrace_stream_name (s, 0, seq++, 1, "m", 2, 1, NAN);
  /* 2, 4, 3 arrive reordered: not lost */
  etrace_stream_event (s, MARKER, 10, 2, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 4, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 3, 1, NONE);
  /* 5–99 never arrive: 95 lost once 100 is beyond the window */
  etrace_stream_event (s, MARKER, 10, 100, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 101, 1, NONE);
  /* 102–104 missing below the last number, 105: 3 lost at the end */
  etrace_stream_event (s, MARKER, 10, 105, 1, NONE);
  trace = load_bytes (s);

  assert_health (trace, 98, 0, 0, 0, 0, 0);
  g_assert_cmpint (health_marks (trace, "lost_frames"), ==, 98);
  /* The six markers; problems are counter steps, not instants, so that
   * instants stay the firmware's markers (two steps: 95 lost, then 3) */
  g_assert_cmpuint (sps_trace_get_instants (trace)->n_rows, ==, 6);
  g_assert_cmpuint (health_steps (trace, "lost_frames"), ==, 2);
}

static void
test_sequence_wrap (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;

  /* 16382, 16383, 0, 1 is continuous modulo 16384; then 3 skips 2 */
  etrace_stream_start (s, 0, 16381, FALSE, 0);
  etrace_stream_name (s, 0, 16382, 1, "m", 2, 1, NAN);
  etrace_stream_event (s, MARKER, 10, 16383, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 0, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 1, 1, NONE);
  etrace_stream_event (s, MARKER, 10, 3, 1, NONE);
  trace = load_bytes (s);

  assert_health (trace, 1, 0, 0, 0, 0, 0);
}

static void
test_unknown_names (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_event (s, START, 10, 1, 7, NONE);    /* id 7 not yet known */
  etrace_stream_event (s, END, 10, 2, 7, NONE);      /* id 7 not yet known */
  etrace_stream_event (s, MARKER, 10, 3, 0, 5);      /* id 0: dictionary full */
  etrace_stream_name (s, 100, 4, 7, "late", 2, 1, NAN);
  etrace_stream_event (s, START, 10, 5, 7, NONE);
  etrace_stream_event (s, END, 10, 6, 7, NONE);
  trace = load_bytes (s);

  assert_health (trace, 0, 3, 0, 0, 0, 0);
  g_assert_cmpint (spans_of (trace, "late"), ==, 1);
  g_assert_cmpint (health_marks (trace, "unknown_name_events"), ==, 3);
}

static void
test_unmatched_and_restarts (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint a;

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "a", 2, 3, NAN);
  etrace_stream_name (s, 0, 2, 2, "b", 1, 9, NAN);
  etrace_stream_event (s, END, 10, 3, 1, NONE);      /* a: end without start */
  etrace_stream_event (s, START, 10, 4, 1, NONE);    /* a at 20: discarded */
  etrace_stream_event (s, START, 10, 5, 1, NONE);    /* a at 30 */
  etrace_stream_event (s, END, 10, 6, 1, NONE);      /* a 30–40 */
  etrace_stream_event (s, END, 10, 7, 1, NONE);      /* a: end without start */
  etrace_stream_event (s, START, 10, 8, 2, NONE);    /* b open at end */
  trace = load_bytes (s);

  assert_health (trace, 0, 0, 2, 1, 1, 0);
  g_assert_cmpint (spans_of (trace, "a"), ==, 1);
  g_assert_cmpint (spans_of (trace, "b"), ==, 0);
  a = sps_test_find_slice (trace, "a", 0);
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[a], ==, 30);
  g_assert_cmpint (health_marks (trace, "unmatched_end"), ==, 2);
  g_assert_cmpint (health_marks (trace, "discarded_restarts"), ==, 1);
}

static void
test_device_reset (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;

  etrace_stream_start (s, 1000, 0, FALSE, 0);
  etrace_stream_name (s, 1000, 1, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, START, 10, 2, 1, NONE);
  etrace_stream_event (s, END, 10, 3, 1, NONE);
  etrace_stream_event (s, START, 10, 4, 1, NONE);    /* open when the device resets */
  /* A repeated header later in time is not a reset */
  etrace_stream_start (s, 2000, 5, FALSE, 0);
  /* The clock went back: a reset; the dictionary is gone */
  etrace_stream_start (s, 5, 0, FALSE, 0);
  etrace_stream_event (s, START, 10, 1, 1, NONE);    /* unknown id now */
  etrace_stream_name (s, 20, 2, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, START, 10, 3, 1, NONE);
  etrace_stream_event (s, END, 10, 4, 1, NONE);
  trace = load_bytes (s);

  assert_health (trace, 0, 1, 0, 0, 1, 1);
  g_assert_cmpint (spans_of (trace, "a"), ==, 2);
  /* The second boot follows the first on the timeline */
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[sps_test_find_slice (trace, "a", 2)], >, 2000);
}

static void
test_cycles (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint a;

  /* 72 MHz: 72 cycles = 1 µs; a start at 72e6 cycles = 1 s */
  etrace_stream_start (s, 72000000, 0, TRUE, 72000000);
  etrace_stream_name (s, 72000000, 1, 1, "t", 2, 4, 0.001f);
  etrace_stream_event (s, START, 0, 2, 1, NONE);
  etrace_stream_event (s, END, 144, 3, 1, NONE);     /* 2 µs > 1 µs deadline */
  trace = load_bytes (s);

  g_assert_cmpstr (json_object_get_string_member (embedded (trace), "timebase"), ==, "cycles");
  a = sps_test_find_slice (trace, "t", 0);
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[a], ==, 1000000000);
  g_assert_cmpint (sps_trace_get_slices (trace)->dur[a], ==, 2000);
  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 1);
}

/* Near the decoder's end of time (2^62 - 1 ns, where it clamps): every
 * time in the args is written exactly, where a double would round it (the
 * times are past 2^53 ns, a double's step there is 512 ns). Checked by
 * hand: the span starts at 2^62 - 1 - 10^6 + 1001 = 4611686018426388904 ns,
 * its deadline is 10^9 ms = 10^15 ns later. */
static void
test_deadline_end_of_time (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  g_autofree char *args = NULL;
  gsize len = 0;
  guint slice;

  etrace_stream_start (s, (G_GINT64_CONSTANT (1) << 62) - 1 - 1000000, 0, FALSE, 0);
  etrace_stream_name (s, (G_GINT64_CONSTANT (1) << 62) - 1 - 1000000, 1, 1, "late", 2, 4, 1e9f);
  etrace_stream_event (s, START, 1001, 2, 1, NONE);
  etrace_stream_event (s, END, 5000, 3, 1, NONE);
  trace = load_bytes (s);
  slices = sps_trace_get_slices (trace);

  slice = sps_test_find_slice (trace, "late", 0);
  g_assert_cmpint (slices->dur[slice], ==, 5000);
  /* Deferred: made into text when read */
  g_assert_true (sps_args_ref_is_deferred (slices->args[slice]));
  args = sps_trace_dup_args_json (trace, slices->args[slice], &len);
  g_assert_nonnull (g_strstr_len (args, (gssize) len,
                                  "\"deadline_us\":4612686018426388.904,\"deadline_missed\":false"));
  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 0);
}

/* Span and marker args are deferred (made into text when read, from the
 * span's name, start and end or the marker's value): the text, exactly,
 * and a reference to a span the trace never had */
static void
test_args_deferred (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const SpsSliceTable *slices;
  const SpsInstantTable *instants;
  guint first, second;

  /* Deadline 0.01 ms: the first run 1–6 µs (met), the second 106–121 µs
   * (missed by 5 µs); markers with 7 and the largest value */
  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "ctl", 2, 4, 0.01f);
  etrace_stream_name (s, 0, 2, 2, "tick", 0, 0, NAN);
  etrace_stream_event (s, START, 1000, 3, 1, NONE);
  etrace_stream_event (s, MARKER, 500, 4, 2, 7);
  etrace_stream_event (s, END, 4500, 5, 1, NONE);
  etrace_stream_event (s, START, 100000, 6, 1, NONE);
  etrace_stream_event (s, MARKER, 1, 7, 2, G_MAXUINT32);
  etrace_stream_event (s, END, 14999, 8, 1, NONE);
  trace = load_bytes (s);
  slices = sps_trace_get_slices (trace);
  instants = sps_trace_get_instants (trace);

  first = sps_test_find_slice (trace, "ctl", 0);
  second = sps_test_find_slice (trace, "ctl", 1);
  g_assert_true (sps_args_ref_is_deferred (slices->args[first]));
  g_assert_true (sps_args_ref_is_deferred (slices->args[second]));
  /* 0.01f is 0.00999999978 as a float; its deadline rounds to 10,000 ns */
  g_assert_true (sps_trace_append_args_json (trace, slices->args[first], text, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text->str, ==,
                   "{\"type\":\"task\",\"priority\":4,\"deadline_ms\":0.00999999978,"
                   "\"deadline_us\":11,\"deadline_missed\":false}");
  g_string_truncate (text, 0);
  g_assert_true (sps_trace_append_args_json (trace, slices->args[second], text, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text->str, ==,
                   "{\"type\":\"task\",\"priority\":4,\"deadline_ms\":0.00999999978,"
                   "\"deadline_us\":116,\"deadline_missed\":true,\"lateness_us\":5}");

  g_assert_cmpuint (instants->n_rows, ==, 2);
  g_assert_cmpint (instants->ts[0], ==, 1500);
  g_assert_true (sps_args_ref_is_deferred (instants->args[0]));
  g_string_truncate (text, 0);
  g_assert_true (sps_trace_append_args_json (trace, instants->args[0], text, &error));
  g_assert_cmpstr (text->str, ==, "{\"value\":7}");
  g_assert_cmpint (instants->ts[1], ==, 106001);
  g_string_truncate (text, 0);
  g_assert_true (sps_trace_append_args_json (trace, instants->args[1], text, &error));
  g_assert_cmpstr (text->str, ==, "{\"value\":4294967295}");

  /* Two spans: a third is no span of this trace */
  g_string_truncate (text, 0);
  g_assert_false (sps_trace_append_args_json (trace, (slices->args[first] & ~SPS_ARGS_REF_COOKIE_MASK) | 2,
                                              text, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpuint (text->len, ==, 0);
}

static void
test_deadline_miss (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(JsonNode) list = NULL;
  const SpsSliceTable *slices;
  guint second;
  SpsArgsRef ref = SPS_ARGS_REF_NONE;

  /* Deadline 0.01 ms = 10 µs: the first run takes 5 µs, the second 15 */
  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "ctl", 2, 4, 0.01f);
  etrace_stream_event (s, START, 1000, 2, 1, NONE);
  etrace_stream_event (s, END, 5000, 3, 1, NONE);
  etrace_stream_event (s, START, 100000, 4, 1, NONE);
  etrace_stream_event (s, END, 15000, 5, 1, NONE);
  trace = load_bytes (s);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 1);
  second = sps_test_find_slice (trace, "ctl", 1);
  args = sps_trace_parse_args (trace, slices->args[second], NULL);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (args), "deadline_missed"));
  /* ends at 121 µs, deadline 116 µs */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_node_get_object (args), "lateness_us"),
                                  5.0, 1e-9);
  /* the deadline as a time in µs, not the relative deadline in ms again */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_node_get_object (args), "deadline_us"),
                                  116.0, 1e-9);

  /* Listed in the metadata, and the response times */
  for (guint i = 0; i < sps_trace_get_n_metadata (trace); i++)
    {
      const char *key = sps_trace_get_metadata (trace, i, &ref);

      if (g_strcmp0 (key, "deadline_misses") == 0)
        {
          list = sps_trace_parse_args (trace, ref, NULL);
          g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 1);
        }
      else if (g_strcmp0 (key, "response_times") == 0)
        {
          g_autoptr(JsonNode) times = sps_trace_parse_args (trace, ref, NULL);
          JsonObject *ctl = json_object_get_object_member (json_node_get_object (times), "ctl");

          g_assert_cmpfloat (json_object_get_double_member (ctl, "min_us"), ==, 5.0);
          g_assert_cmpfloat (json_object_get_double_member (ctl, "max_us"), ==, 15.0);
          g_assert_cmpfloat (json_object_get_double_member (ctl, "avg_us"), ==, 10.0);
          g_assert_cmpfloat (json_object_get_double_member (ctl, "jitter_us"), ==, 10.0);
        }
    }
  g_assert_nonnull (list);
}

static void
test_cpu_load (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  const SpsTrackTable *tracks;
  const SpsCounterTable *counters;
  guint load = G_MAXUINT;

  /* Busy 0–100 µs out of 0–200 µs: windows of 1 µs (200 < 400 of them),
   * 100 % for the first 100, 0 % after. */
  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "w", 2, 1, NAN);
  etrace_stream_name (s, 0, 2, 2, "m", 0, 0, NAN);
  etrace_stream_event (s, START, 0, 3, 1, NONE);
  etrace_stream_event (s, END, 100000, 4, 1, NONE);
  etrace_stream_event (s, MARKER, 100000, 5, 2, NONE);
  trace = load_bytes (s);
  tracks = sps_trace_get_tracks (trace);
  counters = sps_trace_get_counters (trace);

  for (guint i = 0; i < tracks->n_rows; i++)
    if (tracks->kind[i] == SPS_TRACK_COUNTER &&
        g_strcmp0 (sps_trace_get_string (trace, tracks->name[i]), "w") == 0)
      load = i;
  g_assert_cmpuint (load, !=, G_MAXUINT);
  g_assert_cmpuint (tracks->n_rows_in_track[load], ==, 201);
  g_assert_cmpfloat (counters->value[tracks->first_row[load]], ==, 100.0);
  g_assert_cmpfloat (counters->value[tracks->first_row[load] + 99], ==, 100.0);
  g_assert_cmpfloat (counters->value[tracks->first_row[load] + 100], ==, 0.0);
}

static void
test_tracks_by_priority (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  const SpsThreadTable *threads;
  const SpsProcessTable *processes;
  const char *expected[] = { "high_isr", "low_isr", "hi_task", "lo_task" };

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "lo_task", 2, 1, NAN);
  etrace_stream_name (s, 0, 2, 2, "low_isr", 1, 2, NAN);
  etrace_stream_name (s, 0, 3, 3, "hi_task", 2, 5, NAN);
  etrace_stream_name (s, 0, 4, 4, "high_isr", 1, 9, NAN);
  for (guint id = 1; id <= 4; id++)
    {
      etrace_stream_event (s, START, 10, 3 + 2 * id, id, NONE);
      etrace_stream_event (s, END, 10, 4 + 2 * id, id, NONE);
    }
  trace = load_bytes (s);
  threads = sps_trace_get_threads (trace);
  processes = sps_trace_get_processes (trace);

  /* ISRs first, then tasks, each by priority, highest first */
  g_assert_cmpuint (threads->n_rows, ==, 4);
  for (guint i = 0; i < threads->n_rows; i++)
    {
      const char *process = sps_trace_get_string (trace, processes->name[threads->process[i]]);

      g_assert_cmpint (threads->sort_index[i], ==, (gint) i);
      g_assert_cmpstr (sps_trace_get_string (trace, threads->name[i]), ==, expected[i]);
      g_assert_cmpstr (process, ==, i < 2 ? "ISRs" : "Tasks");
    }
}

static void
test_desync (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  static const guint8 garbage[] = { 0xff, 0xff, 0x00, 0x7f, 0x13, 0x11 };

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, START, 10, 2, 1, NONE);
  g_byte_array_append (s, garbage, sizeof garbage);
  /* Decoding resumes at the next frame: the end at 20 is kept */
  etrace_stream_event (s, END, 10, 3, 1, NONE);
  etrace_stream_start (s, 1000, 4, FALSE, 0);
  etrace_stream_name (s, 1000, 5, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, START, 10, 6, 1, NONE);
  etrace_stream_event (s, END, 10, 7, 1, NONE);
  trace = load_bytes (s);

  g_assert_cmpuint (sps_trace_count_warning (trace, "desync"), ==, 1);
  g_assert_cmpint (embedded_int (trace, "desync"), ==, 1);
  g_assert_cmpint (embedded_int (trace, "skipped_bytes"), ==, sizeof garbage);
  /* 10–20, and 1010–1020 after the repeated header: nothing lost */
  g_assert_cmpint (spans_of (trace, "a"), ==, 2);
  assert_health (trace, 0, 0, 0, 0, 0, 0);
}

static void
test_truncated (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;

  etrace_stream_start (s, 0, 0, FALSE, 0);
  etrace_stream_name (s, 0, 1, 1, "a", 2, 3, NAN);
  etrace_stream_event (s, START, 10, 2, 1, NONE);
  etrace_stream_event (s, END, 10, 3, 1, NONE);
  g_byte_array_set_size (s, s->len - 3);
  trace = load_bytes (s);

  g_assert_cmpuint (sps_trace_count_warning (trace, "truncated_frame"), ==, 1);
  assert_health (trace, 0, 0, 0, 0, 1, 0);
}

/* v1: the repository's snapshot of a SPAN_START, then its end */
static void
test_v1 (void)
{
  static const guint8 start[] = {
    0x1b, 0x08, 0xc0, 0x84, 0x3d, 0x12, 0x08, 0x6c, 0x65, 0x64, 0x5f, 0x74, 0x61, 0x73, 0x6b,
    0x18, 0x02, 0x20, 0x01, 0x28, 0x01, 0x30, 0x02, 0x3d, 0x00, 0x00, 0x00, 0x3f,
  };
  /* SPAN_END led_task at 1 000 700 ns (0xfc 0x89 0x3d), sequence 2 */
  static const guint8 end[] = {
    0x14, 0x08, 0xfc, 0x89, 0x3d, 0x12, 0x08, 0x6c, 0x65, 0x64, 0x5f, 0x74, 0x61, 0x73, 0x6b,
    0x18, 0x02, 0x20, 0x02, 0x28, 0x02,
  };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) args = NULL;
  guint led;

  g_assert_cmpuint (sps_etrace_probe (start, sizeof start), ==, 60);

  g_byte_array_append (s, start, sizeof start);
  g_byte_array_append (s, end, sizeof end);
  trace = load_bytes (s);

  led = sps_test_find_slice (trace, "led_task", 0);
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[led], ==, 1000000);
  g_assert_cmpint (sps_trace_get_slices (trace)->dur[led], ==, 700);
  args = sps_trace_parse_args (trace, sps_trace_get_slices (trace)->args[led], NULL);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (args), "priority"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (args), "deadline_ms"), ==, 0.5);
  assert_health (trace, 0, 0, 0, 0, 0, 0);
}

/* v1 has no stream header: a sequence number far behind is a reset */
static void
test_v1_reset (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  const struct { guint64 ts; guint type; guint32 seq; } frames[] = {
    { 1000, 1, 100000 }, { 2000, 2, 100001 }, { 3000, 1, 100002 },
    /* restarted: sequence 0, clock from 0 */
    { 500, 1, 0 }, { 700, 2, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    etrace_stream_v1 (s, frames[i].type, frames[i].ts, frames[i].seq, "job",
                      TRACING__V1__TRACE_EVENT_SOURCE_TYPE__TASK, 1);
  trace = load_bytes (s);

  /* the start at 3000 ns is cut by the reset; one span in each boot */
  assert_health (trace, 0, 0, 0, 0, 1, 1);
  g_assert_cmpint (spans_of (trace, "job"), ==, 2);
  /* The cut one ends with its boot (a zero-length unfinished slice at
   * 3000); the second boot's clock is counted from there: 3500–3700 */
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[sps_test_find_slice (trace, "job", 1)], ==, 3000);
  g_assert_cmpint (sps_trace_get_slices (trace)->dur[sps_test_find_slice (trace, "job", 1)], ==, 0);
  g_assert_cmpuint (sps_trace_get_slices (trace)->flags[sps_test_find_slice (trace, "job", 1)] & SPS_SLICE_UNFINISHED, !=, 0);
  g_assert_cmpint (sps_trace_get_slices (trace)->ts[sps_test_find_slice (trace, "job", 2)], ==, 3500);
  g_assert_cmpint (sps_trace_get_slices (trace)->dur[sps_test_find_slice (trace, "job", 2)], ==, 200);
}

/* Damaged values stay harmless: huge deltas saturate the clock, a NaN or
 * negative deadline is none */
static void
test_hostile_values (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) args = NULL;

  etrace_stream_start (s, G_MAXINT64, 0, TRUE, 1);
  etrace_stream_name (s, G_MAXINT64, 1, 1, "a", 2, 1, NAN);
  etrace_stream_name (s, G_MAXINT64, 2, 2, "b", 2, 1, -5.0f);
  etrace_stream_event (s, START, G_MAXINT64, 3, 1, NONE);
  etrace_stream_event (s, END, G_MININT64, 4, 1, NONE);
  etrace_stream_event (s, START, 0, 5, 2, NONE);
  etrace_stream_event (s, END, 1, 6, 2, NONE);
  trace = load_bytes (s);

  g_assert_cmpint (spans_of (trace, "b"), ==, 1);
  args = sps_trace_parse_args (trace, sps_trace_get_slices (trace)->args[sps_test_find_slice (trace, "b", 0)], NULL);
  g_assert_false (json_object_has_member (json_node_get_object (args), "deadline_ms"));
  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 0);
}

static void
test_probe (void)
{
  static const char json[] = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1}]}";
  g_autoptr(GByteArray) events = g_byte_array_new ();
  guint8 noise[512];
  GRand *rand = g_rand_new_with_seed (7);

  g_assert_cmpuint (sps_etrace_probe (worked_example, sizeof worked_example), ==, 100);
  g_assert_cmpuint (sps_etrace_probe ((const guint8 *) json, strlen (json)), ==, 0);
  g_assert_cmpuint (sps_etrace_probe (NULL, 0), ==, 0);

  /* A stream attached mid-run (no header): plain v2 events */
  for (guint i = 0; i < 5; i++)
    etrace_stream_event (events, MARKER, 10, i, 1, i);
  g_assert_cmpuint (sps_etrace_probe (events->data, events->len), ==, 60);

  for (guint i = 0; i < sizeof noise; i++)
    noise[i] = (guint8) g_rand_int_range (rand, 0, 256);
  noise[0] = 0xff;
  g_assert_cmpuint (sps_etrace_probe (noise, sizeof noise), ==, 0);
  g_rand_free (rand);
}

/* The decoder gives the same result whatever the chunking */
static void
test_chunks (void)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  GRand *rand = g_rand_new_with_seed (42);
  guint seq = 0;

  etrace_stream_start (s, 0, seq++, FALSE, 0);
  etrace_stream_name (s, 0, seq++, 1, "a", 2, 3, NAN);
  etrace_stream_name (s, 0, seq++, 2, "m", 0, 0, NAN);
  for (guint i = 0; i < 3000; i++)
    {
      etrace_stream_event (s, START, 100, seq++ % 16384, 1, NONE);
      etrace_stream_event (s, MARKER, 10, seq++ % 16384, 2, i * 1000003u);
      etrace_stream_event (s, END, 100, seq++ % 16384, 1, NONE);
    }

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();
      GArray *events;
      gsize pos = 0;

      while (pos < s->len)
        {
          /* (MIN() would draw the random size twice) */
          gsize chunk = (gsize) g_rand_int_range (rand, 1, round == 0 ? 3 : 300);
          gsize n = MIN (chunk, s->len - pos);

          sps_etrace_decoder_feed (decoder, s->data + pos, n);
          pos += n;
        }
      sps_etrace_decoder_finish (decoder);

      events = sps_etrace_decoder_get_events (decoder);
      g_assert_cmpuint (sps_etrace_decoder_get_frames (decoder), ==, 3 + 9000);
      g_assert_cmpuint (events->len, ==, 9000);
      g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 8999).time_ns, ==, 3000 * 210);
      g_assert_cmpuint (g_array_index (events, SpsEtraceEvent, 2998 * 3 + 1).value, ==, 2998 * 1000003u);
      for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
        g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, h), ==, 0);
    }
  g_rand_free (rand);
}

/* Random bytes, and a valid stream with random bytes flipped: decoding
 * and building never fail; whatever decodes is kept and the damage is
 * counted. (Run under ASan/UBSan by `build-aux/dev test --sanitize`.) */
static void
test_garbage (void)
{
  GRand *rand = g_rand_new_with_seed (99);

  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(GByteArray) s = g_byte_array_new ();
      g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();
      g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      gsize pos = 0;

      if (round % 2 == 0)
        {
          for (guint i = 0; i < 20000; i++)
            {
              guint8 byte = (guint8) g_rand_int_range (rand, 0, 256);

              g_byte_array_append (s, &byte, 1);
            }
        }
      else
        {
          guint32 seq = 0;

          etrace_stream_start (s, 0, seq++, round % 4 == 1, 1000000);
          etrace_stream_name (s, 0, seq++, 1, "a", 1, 3, 0.01f);
          etrace_stream_name (s, 0, seq++, 2, "m", 0, 0, NAN);
          for (guint i = 0; i < 2000; i++)
            etrace_stream_event (s, 1 + i % 3, g_rand_int_range (rand, -100, 1000), seq++ % 16384,
                                 1 + i % 2, i % 3 == 2 ? (gint64) i : -1);
          for (guint i = 0; i < 50; i++)
            s->data[g_rand_int_range (rand, 0, (gint32) s->len)] = (guint8) g_rand_int_range (rand, 0, 256);
        }

      while (pos < s->len)
        {
          gsize chunk = (gsize) g_rand_int_range (rand, 1, 700);
          gsize n = MIN (chunk, s->len - pos);

          sps_etrace_decoder_feed (decoder, s->data + pos, n);
          pos += n;
        }
      sps_etrace_decoder_finish (decoder);

      g_assert_true (sps_etrace_build (decoder, builder, NULL, &error));
      g_assert_no_error (error);
      trace = sps_trace_builder_finish (builder, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      if (round % 2 == 1)
        g_assert_cmpuint (sps_trace_get_n_warnings (trace), >, 0);
    }

  g_rand_free (rand);
}

/* The CSV of the worked example, compared with a file written by hand */
static void
test_csv (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (worked_example, sizeof worked_example);
  g_autofree char *input = write_temp (bytes, "example.etrace");
  g_autofree char *output = g_strconcat (input, ".csv", NULL);
  g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data", "etrace", "worked-example.csv", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *actual = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  const char *argv[] = { cli, "convert", input, "--format", "etrace-csv", "-o", output, NULL };
  int status = -1;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      remove_temp (input);
      return;
    }

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  g_file_get_contents (expected_path, &expected, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (output, &actual, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (actual, ==, expected);

  g_unlink (output);
  remove_temp (input);
}

/* The same stream through `info --json` */
static void
test_info_json (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (worked_example, sizeof worked_example);
  g_autofree char *input = write_temp (bytes, "trace.bin");
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  const char *argv[] = { cli, "info", "--json", input, NULL };
  JsonObject *root, *section;
  int status = -1;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      remove_temp (input);
      return;
    }

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);

  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "etrace");
  g_assert_cmpint (json_object_get_int_member (root, "slices"), ==, 1);
  section = json_object_get_object_member (root, "embedded");
  g_assert_nonnull (section);
  g_assert_cmpstr (json_object_get_string_member (section, "timebase"), ==, "nanoseconds");
  g_assert_cmpint (json_object_get_int_member (section, "open_at_end"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (section, "spans_per_name"),
                                               "gyro_isr"), ==, 1);
  /* "embedded" follows "warnings" */
  {
    g_autoptr(GList) members = json_object_get_members (root);
    GList *last = g_list_last (members);

    g_assert_cmpstr (last->data, ==, "embedded");
    g_assert_cmpstr (last->prev->data, ==, "warnings");
  }

  /* The table shows the section too, after the warnings */
  {
    const char *table_argv[] = { cli, "info", input, NULL };
    g_autofree char *table = NULL;

    g_spawn_sync (NULL, (char **) table_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                  &table, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (table, "\nembedded\n  timebase                         nanoseconds\n"
                                     "  spans_per_name\n    gyro_isr                       1\n"));
    g_assert_nonnull (strstr (table, "\n  open_at_end                      1\n"));
  }

  remove_temp (input);
}

/* firmware/examples/simulate.c end to end: its trace.bin is recognised
 * by content, holds 2 gyro_isr and 2 control_task spans, 4 markers and
 * one deadline miss (the second control_task: 6.45 ms against 5 ms), and
 * converts to the CSV worked out by hand from simulate.c's timetable. */
static void
test_simulate (void)
{
  const char *simulate = g_getenv ("ETRACE_SIMULATE");
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *bin = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data", "etrace", "simulate.csv", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *actual = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  int status = -1;

  if (simulate == NULL || cli == NULL)
    {
      g_test_skip ("ETRACE_SIMULATE or SPANSCOPE_CLI is not set");
      return;
    }

  dir = g_dir_make_tmp ("test-etrace-XXXXXX", &error);
  g_assert_no_error (error);
  bin = g_build_filename (dir, "trace.bin", NULL);
  csv = g_build_filename (dir, "trace.csv", NULL);

  {
    const char *argv[] = { simulate, bin, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  file = g_file_new_for_path (bin);
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "etrace");

  g_assert_cmpint (spans_of (trace, "gyro_isr"), ==, 2);
  g_assert_cmpint (spans_of (trace, "control_task"), ==, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 4);
  g_assert_cmpuint (sps_trace_get_instants (trace)->n_rows, ==, 4);
  g_assert_cmpint (embedded_int (trace, "deadline_misses"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (embedded (trace), "timebase"), ==, "nanoseconds");
  assert_health (trace, 0, 0, 0, 0, 0, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  {
    const char *argv[] = { cli, "convert", bin, "--format", "etrace-csv", "-o", csv, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_file_get_contents (expected_path, &expected, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (csv, &actual, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (actual, ==, expected);

  g_unlink (bin);
  g_unlink (csv);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etrace/import/worked-example", test_worked_example);
  g_test_add_func ("/etrace/import/pair-by-time", test_pair_by_time);
  g_test_add_func ("/etrace/import/tracks-by-priority", test_tracks_by_priority);
  g_test_add_func ("/etrace/import/v1", test_v1);
  g_test_add_func ("/etrace/import/v1-reset", test_v1_reset);
  g_test_add_func ("/etrace/import/cycles", test_cycles);
  g_test_add_func ("/etrace/import/hostile-values", test_hostile_values);
  g_test_add_func ("/etrace/health/lost-frames", test_lost_frames);
  g_test_add_func ("/etrace/health/sequence-wrap", test_sequence_wrap);
  g_test_add_func ("/etrace/health/unknown-names", test_unknown_names);
  g_test_add_func ("/etrace/health/unmatched-and-restarts", test_unmatched_and_restarts);
  g_test_add_func ("/etrace/health/device-reset", test_device_reset);
  g_test_add_func ("/etrace/health/desync", test_desync);
  g_test_add_func ("/etrace/health/truncated", test_truncated);
  g_test_add_func ("/etrace/analysis/deadline-miss", test_deadline_miss);
  g_test_add_func ("/etrace/analysis/deadline-end-of-time", test_deadline_end_of_time);
  g_test_add_func ("/etrace/analysis/args-deferred", test_args_deferred);
  g_test_add_func ("/etrace/analysis/cpu-load", test_cpu_load);
  g_test_add_func ("/etrace/decoder/probe", test_probe);
  g_test_add_func ("/etrace/decoder/chunks", test_chunks);
  g_test_add_func ("/etrace/decoder/garbage", test_garbage);
  g_test_add_func ("/etrace/cli/csv", test_csv);
  g_test_add_func ("/etrace/cli/info-json", test_info_json);
  g_test_add_func ("/etrace/simulate/end-to-end", test_simulate);

  return g_test_run ();
}
