/* test-nettrace-events.c: every .nettrace event is kept (events_raw), named
 * and timed as PerfView's baselines of the shared fixtures say
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-nettrace-events"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"
#include "sps-test-zip.h"

static char *scratch_dir;

typedef struct
{
  char   *name;
  guint64 count;
  char   *msec;        /* as printed, e.g. "1753.7906" */
  gint64  tid;
  char   *xml;         /* the first instance, <Event …/> */
} BaselineLine;

static void
baseline_line_free (gpointer data)
{
  BaselineLine *line = data;

  g_free (line->name);
  g_free (line->msec);
  g_free (line->xml);
  g_free (line);
}

static char *
attribute (const char *xml,
           const char *key)
{
  g_autofree char *needle = g_strdup_printf (" %s=", key);
  const char *start = strstr (xml, needle);
  const char *end;

  /* The value may be padded before its quote: MSec=  "18.2075" */
  if (start == NULL)
    return NULL;
  start += strlen (needle);
  while (*start == ' ')
    start++;
  g_assert_cmpint (*start, ==, '"');
  start++;
  end = strchr (start, '"');
  g_assert_nonnull (end);
  return g_strstrip (g_strndup (start, (gsize) (end - start)));
}

/* One line per event type: `Provider/Task/Opcode, count, <Event MSec=…>` */
static GPtrArray *
read_baseline (const char *name)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", name);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *out;

  if (path == NULL)
    return NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  out = g_ptr_array_new_with_free_func (baseline_line_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *l = lines[i];
      char *comma, *xml;
      g_autofree char *tid = NULL;
      BaselineLine *line;

      /* The first line may start with a byte-order mark */
      if (g_str_has_prefix (l, "\xef\xbb\xbf"))
        l += 3;
      if (*g_strstrip (l) == '\0')
        continue;
      comma = strstr (l, ", ");
      g_assert_nonnull (comma);
      xml = strstr (comma, "<Event ");
      g_assert_nonnull (xml);

      line = g_new0 (BaselineLine, 1);
      line->name = g_strndup (l, (gsize) (comma - l));
      line->count = g_ascii_strtoull (comma + 2, NULL, 10);
      line->msec = attribute (xml, "MSec");
      tid = attribute (xml, "TID");
      g_assert_nonnull (line->msec);
      g_assert_nonnull (tid);
      line->tid = g_ascii_strtoll (tid, NULL, 10);
      line->xml = g_strdup (xml);
      g_ptr_array_add (out, line);
    }

  return out;
}

static SpsTrace *
load_zip_member (const char *zip_name,
                 const char *member)
{
  g_autoptr(GBytes) bytes = sps_test_shared_zip_member ("nettrace", zip_name, member);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  SpsTrace *trace;

  if (bytes == NULL)
    return NULL;
  path = g_build_filename (scratch_dir, member, NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  trace = sps_test_load_path (path);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "nettrace");
  return trace;
}

/* PerfView prints integers with thousands separators ("1,234") or as
 * hex ("0x00007FFEA93E45B0"); other values (enum and flag names) are not
 * numbers. Returns whether @text is one, and its value. */
static gboolean
baseline_number (const char *text,
                 gint64     *value)
{
  g_autofree char *digits = NULL;
  char *end = NULL;

  if (g_str_has_prefix (text, "0x"))
    {
      *value = (gint64) g_ascii_strtoull (text + 2, &end, 16);
      return end != text + 2 && *end == '\0';
    }
  digits = g_strdup (text);
  g_strdelimit (digits, ",", ' ');
  {
    g_auto(GStrv) parts = g_strsplit (digits, " ", -1);
    g_autofree char *joined = g_strjoinv ("", parts);

    if (joined[0] == '\0')
      return FALSE;
    *value = g_ascii_strtoll (joined, &end, 10);
    return *end == '\0';
  }
}

static char *
xml_unescape (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      static const struct { const char *entity; char c; } entities[] = {
        { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
      };
      gboolean done = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (entities) && !done; i++)
        if (g_str_has_prefix (p, entities[i].entity))
          {
            g_string_append_c (out, entities[i].c);
            p += strlen (entities[i].entity) - 1;
            done = TRUE;
          }
      if (!done)
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* The decoded fields of our first instance that PerfView's prints as a
 * number or a string: equal. Returns how many were compared. */
static guint
compare_fields (const BaselineLine *line,
                const char         *args)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *object;
  guint compared = 0;

  if (args == NULL || g_str_has_prefix (args, "{\"payload_size\""))
    return 0;
  json_parser_load_from_data (parser, args, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *theirs = attribute (line->xml, l->data);
      JsonNode *ours = json_object_get_member (object, l->data);
      gint64 number;

      if (theirs == NULL || !JSON_NODE_HOLDS_VALUE (ours))
        continue;
      if (json_node_get_value_type (ours) == G_TYPE_STRING)
        {
          g_autofree char *text = xml_unescape (theirs);

          g_assert_cmpstr (json_node_get_string (ours), ==, text);
          compared++;
        }
      else if (json_node_get_value_type (ours) == G_TYPE_INT64 && baseline_number (theirs, &number))
        {
          if (json_node_get_int (ours) != number)
            g_error ("%s: %s is %" G_GINT64_FORMAT ", PerfView's %s", line->name, (char *) l->data,
                     json_node_get_int (ours), theirs);
          compared++;
        }
    }
  return compared;
}

/* Each event type of the baseline: its count, and the time and thread of
 * its first instance; no other type. The first instance's decoded fields
 * that PerfView prints as numbers or text are equal to PerfView's
 * (@n_fields_compared of them: the execution checkpoint's 3; ProcessInfo's
 * command line, the rundown's ModuleDCStop, TestEvent1/2's scalars; GC
 * Start/Stop, ModuleLoad and MethodLoadVerbose). SampleProfiler's samples are the
 * samples table, not events_raw. Times are in ms from the sync time, to
 * the baseline's 4 decimals. */
static void
check_against_baseline (const char         *zip_name,
                        const char         *member,
                        const char         *baseline_name,
                        const char * const *not_in_baseline,
                        guint               n_fields_compared)
{
  guint compared = 0;
  g_autoptr(GPtrArray) baseline = read_baseline (baseline_name);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GHashTable) rows = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;

  if (baseline == NULL || !(trace = load_zip_member (zip_name, member)))
    {
      g_test_skip ("the shared fixtures are not there");
      return;
    }
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  sps_sql_engine_set_max_rows (engine, 100000);

  /* SQLite takes the bare columns of an aggregate's MIN() from its row */
  result = sps_test_sql_query (engine,
                  "SELECT e.name, MIN(e.ts), t.tid, COUNT(*), e.args FROM events_raw e"
                  " JOIN threads t ON t.id = e.thread GROUP BY e.name"
                  " UNION ALL"
                  " SELECT 'Microsoft-DotNETCore-SampleProfiler/Thread/Sample', MIN(s.ts), t.tid, COUNT(*), NULL"
                  " FROM samples s JOIN threads t ON t.id = s.thread_id HAVING COUNT(*) > 0");
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    g_hash_table_insert (rows, (gpointer) sps_sql_result_get_text (result, r, 0), GUINT_TO_POINTER (r + 1));
  /* The types the baseline leaves out are exactly the expected ones */
  for (guint i = 0; not_in_baseline[i] != NULL; i++)
    {
      g_assert_true (g_hash_table_contains (rows, not_in_baseline[i]));
      for (guint k = 0; k < baseline->len; k++)
        g_assert_cmpstr (((BaselineLine *) g_ptr_array_index (baseline, k))->name, !=, not_in_baseline[i]);
    }
  g_assert_cmpuint (g_hash_table_size (rows), ==, baseline->len + g_strv_length ((GStrv) not_in_baseline));

  for (guint i = 0; i < baseline->len; i++)
    {
      const BaselineLine *line = g_ptr_array_index (baseline, i);
      guint r = GPOINTER_TO_UINT (g_hash_table_lookup (rows, line->name));
      g_autofree char *msec = NULL;
      gint64 ns;

      if (r == 0)
        g_error ("%s: no event named %s", member, line->name);
      r--;
      ns = sps_sql_result_get_int64 (result, r, 1);
      /* ns → ms with 4 decimals, rounded half up as .NET's F4 does */
      msec = g_strdup_printf ("%" G_GINT64_FORMAT ".%04" G_GINT64_FORMAT,
                              (ns + 50) / 1000000, ((ns + 50) % 1000000) / 100);
      g_assert_cmpstr (msec, ==, line->msec);
      g_assert_cmpint (sps_sql_result_get_int64 (result, r, 2), ==, line->tid);
      g_assert_cmpuint (sps_sql_result_get_int64 (result, r, 3), ==, line->count);
      compared += compare_fields (line, sps_sql_result_get_text (result, r, 4));
    }
  /* Fields of the first instances decoded, and equal to PerfView's */
  g_assert_cmpuint (compared, ==, n_fields_compared);
}

static const char * const none[] = { NULL };

/* PerfView's baseline lists no rundown method events (the 1,499 method
 * DCStopVerbose and 363 IL-to-native maps of this file): they are in the
 * file and we keep them; docs/file-formats.md says why they differ */
static const char * const rundown_methods[] = {
  "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/ILToNativeMapDCStop",
  NULL
};

/* Nor the runtime's IL-to-native maps (35 in this file) */
static const char * const jit_maps[] = {
  "Microsoft-Windows-DotNETRuntime/Method/ILToNativeMap",
  NULL
};

static void
test_executioncheckpoints (void)
{
  check_against_baseline ("perfview__eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip",
                          "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
                          "perfview__eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.baseline.txt",
                          none, 3);
}

static void
test_arraytypes (void)
{
  check_against_baseline ("perfview__eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip",
                          "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
                          "perfview__eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.baseline.txt",
                          rundown_methods, 15);
}

static void
test_objver4 (void)
{
  check_against_baseline ("perfview__eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip",
                          "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
                          "perfview__eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.baseline.txt",
                          jit_maps, 26);
}

/* Fields the metadata describes (V5 arrays, an opcode tag, strings) are
 * decoded as the baseline prints them; the runtime's events, which have no
 * field descriptions, keep their bytes */
static void
test_payload_fields (void)
{
  g_autoptr(SpsTrace) trace = load_zip_member ("perfview__eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip",
                                               "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace");
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *args1 = NULL;
  g_autofree char *args2 = NULL;
  g_autofree char *args3 = NULL;
  g_autofree char *args_info = NULL;
  g_autofree char *args_rundown = NULL;

  if (trace == NULL)
    {
      g_test_skip ("the shared fixtures are not there");
      return;
    }
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);

  args1 = sps_test_first_event_args (engine, "TestEventSource0/TestEvent1");
  g_assert_cmpstr (args1, ==,
                   "{\"arg0\":[2032854139,1608221689,1470019200,199494339,1238846140,1366609043],"
                   "\"arg1\":[26494,17115,-7229,18850,27931],\"arg2\":2033417279}");
  args2 = sps_test_first_event_args (engine, "TestEventSource0/TestEvent2");
  g_assert_cmpstr (args2, ==,
                   "{\"arg0\":-1001479330,\"arg1\":-1397908228,"
                   "\"arg2\":[1470938110,172564262,1133558854,-1572049829],"
                   "\"arg3\":[2055126903,593325874,2130052527,162795177]}");
  args3 = sps_test_first_event_args (engine, "TestEventSource0/TestEvent3/24");
  /* As in the baseline: a private-use character (U+E7A3), then four */
  g_assert_cmpstr (args3, ==, "{\"arg0\":\"\xee\x9e\xa3㎯隍ᳯ诤\"}");
  args_info = sps_test_first_event_args (engine, "Microsoft-DotNETCore-EventPipe/ProcessInfo");
  g_assert_cmpstr (args_info, ==,
                   "{\"CommandLine\":\"C:\\\\work\\\\arraytypes_test\\\\repro\\\\\\\\runtime\\\\corerun.exe  "
                   "C:\\\\work\\\\arraytypes_test\\\\repro\\\\\\\\arraytypesapp.dll\"}");

  /* Runtime/Start: ClrInstanceID 5 (u16), Sku 2 = CoreClr (u16), … */
  args_rundown = sps_test_first_event_args (engine, "Microsoft-Windows-DotNETRuntimeRundown/Runtime/Start");
  g_assert_true (g_str_has_prefix (args_rundown, "{\"payload_size\":"));
  g_assert_true (strstr (args_rundown, "\"payload_base64\":\"BQACAA") != NULL);

  /* The columns of events_raw: provider, id, version, opcode */
  result = sps_test_sql_query (engine,
                  "SELECT provider, id, version, opcode, COUNT(*) FROM events_raw"
                  " WHERE name = 'TestEventSource0/TestEvent3/24'");
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 0), ==, "TestEventSource0");
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 1), ==, 7);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 2), ==, 0);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 3), ==, 24);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 4), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-nettrace-events-XXXXXX", NULL);
  g_assert_nonnull (scratch_dir);

  g_test_add_func ("/nettrace/events/baseline/executioncheckpoints", test_executioncheckpoints);
  g_test_add_func ("/nettrace/events/baseline/arraytypes", test_arraytypes);
  g_test_add_func ("/nettrace/events/baseline/objver4", test_objver4);
  g_test_add_func ("/nettrace/events/payload-fields", test_payload_fields);

  ret = g_test_run ();

  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
