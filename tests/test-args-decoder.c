/* test-args-decoder.c: deferred args, decoded when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static void
test_refs (void)
{
  SpsArgsRef ref = sps_args_ref_new_deferred (3, 12345);

  g_test_summary ("A deferred reference packs its decoder and cookie; out-of-range ones are none, "
                  "and text references are never taken for deferred ones");
  g_assert_true (sps_args_ref_is_deferred (ref));
  g_assert_cmpuint (ref & SPS_ARGS_REF_COOKIE_MASK, ==, 12345);
  g_assert_cmpuint (ref >> SPS_ARGS_REF_DECODER_SHIFT & 0xf, ==, 3);
  g_assert_true (sps_args_ref_is_deferred (sps_args_ref_new_deferred (15, SPS_ARGS_REF_COOKIE_MASK)));
  g_assert_cmpuint (sps_args_ref_new_deferred (0, 1), ==, SPS_ARGS_REF_NONE);
  g_assert_cmpuint (sps_args_ref_new_deferred (16, 1), ==, SPS_ARGS_REF_NONE);
  g_assert_cmpuint (sps_args_ref_new_deferred (1, SPS_ARGS_REF_COOKIE_MASK + 1), ==, SPS_ARGS_REF_NONE);
  /* The longest text references, in the source and in the arena */
  g_assert_false (sps_args_ref_is_deferred (sps_args_ref_new (FALSE, SPS_ARGS_REF_OFFSET_MASK, G_MAXUINT64)));
  g_assert_false (sps_args_ref_is_deferred (sps_args_ref_new (TRUE, SPS_ARGS_REF_OFFSET_MASK, G_MAXUINT64)));
  g_assert_false (sps_args_ref_is_deferred (SPS_ARGS_REF_NONE));
}

static void
test_decoder_numbers (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTestDecoder) first = sps_test_decoder_new ();

  g_test_summary ("Decoders are numbered 1 to 15 in the order they are added; the same one keeps its "
                  "number; a 16th gets 0");
  g_assert_cmpuint (sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (first)), ==, 1);
  g_assert_cmpuint (sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (first)), ==, 1);
  for (guint i = 2; i <= 16; i++)
    {
      g_autoptr(SpsTestDecoder) other = sps_test_decoder_new ();

      g_assert_cmpuint (sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (other)), ==,
                        i <= 15 ? i : 0);
    }
}

static void
test_read (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTestDecoder) decoder = sps_test_decoder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GString) out = g_string_new ("x");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  const SpsInstantTable *instants;
  guint32 process, thread, name;
  guint number;
  gsize len = 1;

  g_test_summary ("Deferred args are decoded only when read: not by the import or finish(); every "
                  "reader (text, JSON, SQL) gets the decoder's text; a cookie the decoder cannot "
                  "read and a decoder that is not there are errors that leave the output as it was");

  process = sps_trace_builder_ensure_process (builder, 1);
  thread = sps_trace_builder_ensure_thread (builder, process, 2);
  name = sps_trace_builder_intern (builder, "Provider/Event", -1);
  number = sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (decoder));
  sps_trace_builder_add_event (builder, thread, 10, name, name, SPS_EVENT_DESCRIPTOR (1, 0, 0),
                               sps_args_ref_new_deferred (number, 7));
  sps_trace_builder_add_event (builder, thread, 20, name, name, SPS_EVENT_DESCRIPTOR (1, 0, 0),
                               sps_args_ref_new_deferred (number, 99));
  sps_trace_builder_add_event (builder, thread, 30, name, name, SPS_EVENT_DESCRIPTOR (1, 0, 0),
                               sps_args_ref_new_deferred (number + 1, 5));
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&builder);
  g_assert_cmpuint (sps_test_decoder_get_n_calls (decoder), ==, 0);

  instants = sps_trace_get_instants (trace);
  g_assert_cmpuint (instants->n_rows, ==, 3);
  g_assert_true (sps_args_ref_is_deferred (instants->args[0]));

  /* No text in place */
  g_assert_null (sps_trace_get_args_json (trace, instants->args[0], &len));
  g_assert_cmpuint (len, ==, 0);

  text = sps_trace_dup_args_json (trace, instants->args[0], &len);
  g_assert_cmpstr (text, ==, "{\"n\":7}");
  g_assert_cmpuint (len, ==, 7);
  g_assert_true (sps_trace_append_args_json (trace, instants->args[0], out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "x{\"n\":7}");
  node = sps_trace_parse_args (trace, instants->args[0], &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "n"), ==, 7);
  g_assert_cmpuint (sps_test_decoder_get_n_calls (decoder), ==, 3);

  /* Cookie 99: an error, nothing appended */
  g_assert_false (sps_trace_append_args_json (trace, instants->args[1], out, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_cmpstr (out->str, ==, "x{\"n\":7}");
  g_assert_null (sps_trace_dup_args_json (trace, instants->args[1], NULL));
  g_clear_pointer (&node, json_node_unref);
  node = sps_trace_parse_args (trace, instants->args[1], &error);
  g_assert_null (node);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* A decoder number the builder never gave */
  g_assert_false (sps_trace_append_args_json (trace, instants->args[2], out, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* SQL: the text, and NULL where there is none */
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  result = sps_test_sql_query (engine, "SELECT args, CAST(json_extract(args, '$.n') AS TEXT) FROM events_raw ORDER BY ts");
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 3);
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 0), ==, "{\"n\":7}");
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 1), ==, "7");
  g_assert_null (sps_sql_result_get_text (result, 1, 0));
  g_assert_null (sps_sql_result_get_text (result, 2, 0));
}

static void
test_merge (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTestDecoder) decoder = sps_test_decoder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint32 process, thread, name;
  guint number;

  g_test_summary ("A B event's deferred args merge with its E's text as two texts would");

  process = sps_trace_builder_ensure_process (builder, 1);
  thread = sps_trace_builder_ensure_thread (builder, process, 2);
  name = sps_trace_builder_intern (builder, "slice", -1);
  number = sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (decoder));
  sps_trace_builder_add_begin (builder, thread, 0, name, 0, sps_args_ref_new_deferred (number, 4), 0);
  sps_trace_builder_add_end (builder, thread, 10, sps_trace_builder_add_args_text (builder, "{\"m\":2}", -1), 0);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  text = sps_trace_dup_args_json (trace, sps_trace_get_slices (trace)->args[0], NULL);
  g_assert_cmpstr (text, ==, "{\"n\":4,\"m\":2}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/args-decoder/refs", test_refs);
  g_test_add_func ("/core/args-decoder/numbers", test_decoder_numbers);
  g_test_add_func ("/core/args-decoder/read", test_read);
  g_test_add_func ("/core/args-decoder/merge", test_merge);

  return g_test_run ();
}
