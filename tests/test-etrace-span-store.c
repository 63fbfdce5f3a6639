/* test-etrace-span-store.c: the store of the spans whose args an
 * embedded trace hands out grows by chunks that never move, small ones
 * first: every span reads back from its place across each chunk's
 * bounds, and a build sealed earlier reads only the spans it had
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-etrace-span-store"

#include "config.h"

#include "sps-etrace-span-args.h"

/* One name with a deadline of 0.5 ms: a span's args say its deadline
 * (start + 500 µs), whether its end missed it and by how much */
static GPtrArray *
names_new (void)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  SpsEtraceName *name = g_new0 (SpsEtraceName, 1);

  name->name = (char *) "control";
  name->priority = 2;
  name->deadline_ms = 0.5f;
  name->source = SPS_ETRACE_SOURCE_TASK;
  name->has_deadline = TRUE;
  g_ptr_array_add (names, name);
  return names;
}

/* Span @id starts at @id µs; every third one (from 0) ends 600 µs later,
 * 100 µs past its deadline, the others 400 µs later */
static void
add_spans (SpsEtraceSpanStore *store,
           guint32             from,
           guint32             to)
{
  for (guint32 id = from; id < to; id++)
    {
      gint64 start = (gint64) id * 1000;

      g_assert_cmpuint (sps_etrace_span_store_add (store, start, start + (id % 3 == 0 ? 600000 : 400000), 0),
                        ==, id);
    }
}

static char *
decode (SpsEtraceSpanArgs *args,
        guint64            cookie,
        GError           **error)
{
  g_autoptr(GString) json = g_string_new (NULL);

  if (!sps_args_decoder_decode (SPS_ARGS_DECODER (args), cookie, json, error))
    return NULL;
  return g_string_free (g_steal_pointer (&json), FALSE);
}

static void
assert_span (SpsEtraceSpanArgs *args,
             guint32            id,
             const char        *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = decode (args, id, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, expected);
}

#define PREFIX "{\"type\":\"task\",\"priority\":2,\"deadline_ms\":0.5,\"deadline_us\":"

static void
test_chunk_bounds (void)
{
  g_autoptr(GPtrArray) names = names_new ();
  SpsEtraceSpanStore *store = sps_etrace_span_store_new ();
  g_autoptr(SpsEtraceSpanArgs) early = NULL;
  g_autoptr(SpsEtraceSpanArgs) late = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  /* 300 spans: past the first chunk (256) into the second */
  add_spans (store, 0, 300);
  early = sps_etrace_span_args_new (store, names);
  sps_etrace_span_args_seal (early);

  /* On past the doubling chunks (65,536 spans in all) into the first two
   * of the full size */
  add_spans (store, 300, 140000);
  late = sps_etrace_span_args_new (store, names);
  sps_etrace_span_args_seal (late);
  g_assert_cmpuint (sps_etrace_span_store_get_count (store), ==, 140000);
  sps_etrace_span_store_unref (store);

  /* The first and last row of chunks: 0–255, 256–511, 512–1023, then
   * 32768–65535, 65536–131071 and 131072– */
  assert_span (late, 0, PREFIX "500,\"deadline_missed\":true,\"lateness_us\":100}");
  assert_span (late, 255, PREFIX "755,\"deadline_missed\":true,\"lateness_us\":100}");
  assert_span (late, 256, PREFIX "756,\"deadline_missed\":false}");
  assert_span (late, 511, PREFIX "1011,\"deadline_missed\":false}");
  assert_span (late, 512, PREFIX "1012,\"deadline_missed\":false}");
  assert_span (late, 1023, PREFIX "1523,\"deadline_missed\":true,\"lateness_us\":100}");
  assert_span (late, 1024, PREFIX "1524,\"deadline_missed\":false}");
  assert_span (late, 32767, PREFIX "33267,\"deadline_missed\":false}");
  assert_span (late, 32768, PREFIX "33268,\"deadline_missed\":false}");
  assert_span (late, 65535, PREFIX "66035,\"deadline_missed\":true,\"lateness_us\":100}");
  assert_span (late, 65536, PREFIX "66036,\"deadline_missed\":false}");
  assert_span (late, 131071, PREFIX "131571,\"deadline_missed\":false}");
  assert_span (late, 131072, PREFIX "131572,\"deadline_missed\":false}");
  assert_span (late, 139999, PREFIX "140499,\"deadline_missed\":false}");

  /* The early build reads its 300 spans from the same chunks, and no
   * later one */
  assert_span (early, 299, PREFIX "799,\"deadline_missed\":false}");
  json = decode (early, 300, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (json);
  g_clear_error (&error);
  json = decode (late, 140000, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (json);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etrace/span-store/chunk-bounds", test_chunk_bounds);
  return g_test_run ();
}
