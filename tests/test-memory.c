/* test-memory.c: allocation histories and GC observations (issue 16, the model)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Real captures (the shared fixtures, skipped when ../shared is missing)
 * and generated ones whose births, deaths and GCs are known. Every value
 * was checked by hand against the input, as each test's comment says.
 */

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "nettrace-gen/nettrace-writer.h"
#include "sps-test-util.h"

#define FREQUENCY G_GINT64_CONSTANT (1000000000)
#define SYNC_QPC  G_GINT64_CONSTANT (5000000000)

/* Helpers */

static SpsTrace *
load_shared (const char *subdir,
             const char *name)
{
  g_autofree char *path = sps_test_shared_fixture_path (subdir, name);

  return path != NULL ? sps_test_load_path (path) : NULL;
}

static SpsTrace *
load_bytes (GBytes     *bytes,
            const char *name)
{
  g_autofree char *path = sps_test_write_temp ("spanscope-memory-XXXXXX", name,
                                               g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autofree char *dir = g_path_get_dirname (path);
  SpsTrace *trace = sps_test_load_path (path);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  return trace;
}

static gint64
query_int (SpsTrace   *trace,
           const char *sql)
{
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;

  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  result = sps_test_sql_query (engine, sql);
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  return sps_sql_result_get_int64 (result, 0, 0);
}

/* One line per row, columns separated by spaces, NULL as "-" */
static char *
query_text (SpsTrace   *trace,
            const char *sql)
{
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GString *out = g_string_new (NULL);

  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  result = sps_test_sql_query (engine, sql);
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    {
      for (guint c = 0; c < sps_sql_result_get_n_columns (result); c++)
        {
          g_autofree char *text = NULL;

          if (!sps_sql_result_is_null (result, r, c))
            text = sps_sql_result_dup_display_text (result, r, c);
          g_string_append_printf (out, "%s%s", c > 0 ? " " : "", text != NULL ? text : "-");
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* The rows of @sql as query_text() writes them are @expected */
static void
assert_rows (SpsTrace   *trace,
             const char *sql,
             const char *expected)
{
  g_autofree char *rows = query_text (trace, sql);

  g_assert_cmpstr (rows, ==, expected);
}

static void
assert_outstanding (SpsTrace *trace,
                    SpsTime   time,
                    guint64   known_count,
                    guint64   known_bytes,
                    guint64   uncertain_count,
                    guint64   uncertain_bytes,
                    guint64   unknown_size_count)
{
  SpsOutstanding out;

  sps_trace_sum_outstanding (trace, time, SPS_NO_INDEX, &out);
  g_test_message ("at %" G_GINT64_FORMAT " ns", time);
  g_assert_cmpuint (out.known_count, ==, known_count);
  g_assert_cmpuint (out.known_bytes, ==, known_bytes);
  g_assert_cmpuint (out.uncertain_count, ==, uncertain_count);
  g_assert_cmpuint (out.uncertain_bytes, ==, uncertain_bytes);
  g_assert_cmpuint (out.unknown_size_count, ==, unknown_size_count);
}

/* allocTrace: Visual Studio's .NET Object Allocation provider through
 * EventPipe.
 *
 * Every expected value below was computed by a throw-away reader written
 * for this test and independent of the importer (Python: it parses the
 * blocks, the V5 metadata and the compressed headers itself, decodes
 * ObjectAllocation as ObjectID u64, Size u32, TypesSize u32 and the Types
 * bytes, TypeDefinition as ModuleId u64, TypeId u32, TypeName, and
 * DeadObjects as Reserve, Count and Count u64 ids, resolves stack IPs
 * against the MethodLoadVerbose/DCStopVerbose ranges), and
 * cross-checked with SQL over events_raw for the counts. */

static SpsTrace *
load_alloc_trace (void)
{
  return load_shared ("nettrace", "shirhatti__allocTrace.nettrace");
}

/* The provider's event counts, and what became of them: one exact
 * allocation per ObjectAllocation; the 83 ids of the one DeadObjects event
 * were allocated before the capture (none of the 717 allocated ids), so
 * they are records of unknown birth that died by the start of GC #1. */
static void
test_alloc_trace_counts (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw WHERE name = "
                                     "'DhCorProfilerProvider/ObjectAllocation'"), ==, 717);
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw WHERE name = "
                                     "'DhCorProfilerProvider/DeadObjects'"), ==, 1);
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw WHERE name = "
                                     "'DhCorProfilerProvider/TypeDefinition'"), ==, 779);

  g_assert_cmpuint (sps_trace_get_allocations (trace)->n_rows, ==, 717 + 83);
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE certainty = 'exact' "
                                     "AND death_ts IS NULL AND callsite_id IS NOT NULL"), ==, 717);
  /* GC #1 started at 3,096,400 ns; the DeadObjects event (7,047,000 ns)
   * came during it, and no GC came before */
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE certainty = 'unknown_birth' "
                                     "AND birth_ts IS NULL AND death_after IS NULL AND death_by = 3096400 "
                                     "AND size IS NULL"), ==, 83);
}

/* The DeadObjects event's args are the ids the allocations read: its
 * ObjectIds array has Count (the field before it) elements and no u16
 * count of its own, unlike an EventPipe array. Checked by hand: the
 * payload is at byte 26,302 of the file, 00000000 53000000 then 83
 * little-endian u64s 20, 24, 28, 36, 92, 100, 136, 152, 164, 168 … 1,380,
 * 1,388, 1,480 (a generic array reader took 0x0014 for the count and
 * showed 0x0018000000000000 first). The same 83 ids are the 83 records
 * of unknown birth. */
static void
test_alloc_trace_dead_object_ids (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_rows (trace, "SELECT json_extract(args, '$.Reserve'), json_extract(args, '$.Count'), "
                      "json_array_length(args, '$.ObjectIds') FROM events_raw "
                      "WHERE name = 'DhCorProfilerProvider/DeadObjects'",
               "0 83 83\n");
  assert_rows (trace, "SELECT group_concat(value, ',') FROM (SELECT j.value FROM events_raw, "
                      "json_each(events_raw.args, '$.ObjectIds') j "
                      "WHERE name = 'DhCorProfilerProvider/DeadObjects' AND (j.key < 10 OR j.key >= 80) ORDER BY j.key)",
               "20,24,28,36,92,100,136,152,164,168,1380,1388,1480\n");
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw, json_each(events_raw.args, '$.ObjectIds') j "
                                     "JOIN allocations a ON a.address = j.value AND a.certainty = 'unknown_birth' "
                                     "WHERE name = 'DhCorProfilerProvider/DeadObjects'"), ==, 83);
}

/* Outstanding at the end and at three times. Sizes summed by the
 * independent reader over the ObjectAllocation events born at or before
 * each time; the 83 objects of unknown birth are possibly alive (so
 * uncertain, of unknown size) until GC #1 starts and dead after it. */
static void
test_alloc_trace_outstanding (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_outstanding (trace, 3000000, 0, 0, 83, 0, 83);
  assert_outstanding (trace, G_GINT64_CONSTANT (7200000000), 9, 394, 0, 0, 0);
  assert_outstanding (trace, G_GINT64_CONSTANT (7300000000), 436, 29572, 0, 0, 0);
  assert_outstanding (trace, sps_trace_get_end_time (trace), 717, 64762, 0, 0, 0);
}

/* The three types with the most bytes allocated: the type of an
 * allocation is its TypeDefinition's name (by module and token), with
 * "[]" when the Types record says it is an array */
static void
test_alloc_trace_top_types (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_rows (trace, "SELECT type, count(*), sum(size) FROM allocations WHERE type IS NOT NULL "
                      "GROUP BY type ORDER BY sum(size) DESC LIMIT 3",
               "System.String 372 33624\n"
               "System.SByte[] 216 11328\n"
               "System.Object[] 11 7488\n");
}

/* Generic types named as C# writes them. Checked with a second
 * throw-away reader (Python, over events_raw's TypeDefinition fields and
 * ObjectAllocation's Types bytes): a descriptor is a list of types, each
 * module u64, token u32, array flag u32, extra levels u32, ranks, an
 * element code for arrays, then its arguments' list indices up to a 0;
 * a nested type is named after its ParentTypeId's type, and a level takes
 * the arguments of the parameters it adds (NumGenericParams). It agrees
 * with the importer on all 63 types, their counts and bytes. */
static void
test_alloc_trace_generic_types (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  g_assert_cmpint (query_int (trace, "SELECT count(DISTINCT type) FROM allocations"), ==, 63);
  assert_rows (trace, "SELECT type, count(*), sum(size) FROM allocations WHERE type LIKE '%Dictionary%' "
                      "OR type LIKE '%WeakReference%' OR type LIKE 'System.Buffers%' GROUP BY type ORDER BY type",
               "System.Buffers.SpanAction<System.Char, System.ValueTuple<System.IntPtr, System.Int32, "
               "System.IntPtr, System.Int32, System.Boolean>> 1 64\n"
               "System.Collections.Generic.Dictionary<System.String, System.Globalization.CultureData> 1 80\n"
               "System.Collections.Generic.Dictionary<System.String, System.Globalization.CultureData>.Entry[] 1 96\n"
               "System.Collections.Generic.Dictionary<System.String, System.Globalization.CultureInfo> 1 80\n"
               "System.Collections.Generic.Dictionary<System.String, System.Globalization.CultureInfo>.Entry[] 1 96\n"
               "System.Collections.Generic.Dictionary<System.String, System.IntPtr> 1 80\n"
               "System.Collections.Generic.Dictionary<System.String, System.IntPtr>.Entry[] 1 96\n"
               "System.WeakReference<System.Diagnostics.Tracing.EventSource> 1 24\n"
               "System.WeakReference<System.Diagnostics.Tracing.EventSource>[] 1 56\n");
  /* Nested non-generic types after their declaring type, arrays of arrays */
  assert_rows (trace, "SELECT type, count(*) FROM allocations WHERE type LIKE '%OneElement%' "
                      "OR type LIKE '%ActivityInfo%' OR type = 'System.String[][]' GROUP BY type ORDER BY type",
               "System.Action<System.Threading.AsyncLocalValueChangedArgs<"
               "System.Diagnostics.Tracing.ActivityTracker.ActivityInfo>> 1\n"
               "System.Diagnostics.Tracing.ActivityTracker.ActivityInfo 4\n"
               "System.String[][] 1\n"
               "System.Threading.AsyncLocal<System.Diagnostics.Tracing.ActivityTracker.ActivityInfo> 1\n"
               "System.Threading.AsyncLocalValueMap.OneElementAsyncLocalValueMap 8\n");
}

/* LiveObjectsCount: 718 events (events_raw), 287 during GC #1 before its
 * DeadObjects (7,046,400 ns), then one after each of the 717
 * allocations, 288 to 1,004 = 287 + 717: a counter track of the
 * process, not a bound on any object's life */
static void
test_alloc_trace_live_objects (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_rows (trace, "SELECT t.series, count(*), min(c.ts), max(c.ts), min(c.value), max(c.value) "
                      "FROM counters c JOIN tracks t ON t.id = c.track_id WHERE t.name = 'Live objects' GROUP BY t.id",
               "LiveObjectsCount 718 7046400 7382365500 287.0 1004.0\n");
  assert_rows (trace, "SELECT c.ts, c.value FROM counters c JOIN tracks t ON t.id = c.track_id "
                      "WHERE t.name = 'Live objects' ORDER BY c.ts LIMIT 3",
               "7046400 287.0\n7195739100 288.0\n7198572200 289.0\n");
}

/* The first allocation (object 1484, a 48-byte SByte[] at 7,195,745,700
 * ns): its stack's five IPs, leaf first, fall in these methods' code */
static void
test_alloc_trace_path (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_rows (trace, "SELECT birth_ts, address, size, type, heap FROM allocations "
                      "WHERE certainty = 'exact' ORDER BY birth_ts LIMIT 1",
               "7195745700 1484 48 System.SByte[] managed\n");

  assert_rows (trace,
               "WITH RECURSIVE c(id, depth) AS ("
               " SELECT callsite_id, 0 FROM allocations WHERE address = 1484"
               " UNION ALL SELECT cs.parent_id, c.depth + 1 FROM callsites cs JOIN c ON cs.id = c.id"
               " WHERE cs.parent_id IS NOT NULL)"
               " SELECT f.name FROM c JOIN callsites cs ON cs.id = c.id"
               " JOIN frames f ON f.id = cs.frame_id ORDER BY c.depth",
               "System.Private.CoreLib!System.IO.StreamReader.ReadBuffer()\n"
               "System.Private.CoreLib!System.IO.StreamReader.ReadLine()\n"
               "System.Console!System.IO.SyncTextReader.ReadLine()\n"
               "System.Console!System.Console.ReadLine()\n"
               "CoreConsoleAp!CoreConsoleAp.Program.Main(class System.String[])\n");
}

/* The runtime's GC events of allocTrace as observations: read by hand
 * from events_raw (SuspendEEStart's Reason 1, GCStart v2 Count 1 Depth 2
 * Reason 1, MarkWithType's Type and Bytes, GCHeapStats v2's generation
 * sizes 24 + 95,128 + 24 + 24 + 17,440 = 112,640) */
static void
test_alloc_trace_gc (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();

  if (trace == NULL)
    return;

  assert_rows (trace, "SELECT ts, kind, gc_number, generation, reason, bytes FROM gc_observations",
               "2649800 suspend - - SuspendForGC -\n"
               "3096400 start 1 2 Induced -\n"
               "3880200 mark - - MarkStack 37408\n"
               "3880900 mark - - MarkFQ 0\n"
               "3901900 mark - - MarkHandles 67479\n"
               "7053000 end 1 2 - 112640\n"
               "7079100 restart - - - -\n");
  assert_rows (trace, "SELECT t.name, s.name, s.ts, s.dur FROM slices s JOIN tracks t ON t.id = s.track_id "
                      "ORDER BY s.ts",
               "GC Suspension 2649800 4429300\n"
               "GC GC gen2 3096400 3956600\n");
}

/* gcevents.etl: 12 GCAllocationTick v4 events, each one sampled
 * allocation of AllocationAmount64 bytes (decoded by hand from the
 * payloads: amount u32, kind u32, ClrInstanceID u16, amount64 u64, TypeID,
 * TypeName, HeapIndex u32, Address, ObjectSize) */
static void
test_gcevents_allocation_tick (void)
{
  g_autoptr(SpsTrace) trace = load_shared ("diagsession", "perfview__gcevents.etl.zip");

  if (trace == NULL)
    return;

  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw WHERE name = "
                                     "'Microsoft-Windows-DotNETRuntime/GC/AllocationTick' AND version = 4"), ==, 12);
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE certainty = 'sampled' "
                                     "AND heap = 'managed' AND death_by IS NULL"), ==, 12);
  g_assert_cmpuint (sps_trace_get_allocations (trace)->n_rows, ==, 12);
  /* 109120 + 109440 + 110496 + 107664 + 110384 + 108920 + 112512 +
   * 135088 + 105984 + 217320 + 108672 + 114344 */
  g_assert_cmpint (query_int (trace, "SELECT sum(size) FROM allocations"), ==, 1449944);

  assert_rows (trace, "SELECT birth_ts, size, type, address FROM allocations LIMIT 2",
               "8215605900 109120 System.String 1859511225136\n"
               "8224959700 109440 System.Text.StringBuilder 1859511334992\n");
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE type = 'System.Char[]'"), ==, 5);
  /* The file has no stacks: none of its 69 records carries an extended
   * data item and it holds no StackWalk record (checked with a throw-away
   * reader of its EventHeader records), so no allocation has a path;
   * test-etl-reader's allocation-stacks test gives hand-made ones theirs */
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE callsite_id IS NULL"), ==, 12);

  /* Sampled: never known, uncertain from their birth to the end */
  assert_outstanding (trace, sps_trace_get_end_time (trace), 0, 0, 12, 1449944, 0);

  /* Two induced GCs: gen1 (#1) and gen2 (#2), each in a suspension, with
   * 7 and 6 MarkWithType events (the README: 13 of id 202); the
   * first's heap after it from GCHeapStats v2: 584 + 314,184 + 0 +
   * 326,056 (generation 3) + 16,368 (generation 4) */
  assert_rows (trace, "SELECT kind, count(*) FROM gc_observations GROUP BY kind ORDER BY kind",
               "end 2\nmark 13\nrestart 2\nstart 2\nsuspend 2\n");
  g_assert_cmpint (query_int (trace, "SELECT bytes FROM gc_observations WHERE kind = 'end' AND gc_number = 1"),
                   ==, 657192);
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM slices s JOIN tracks t ON t.id = s.track_id "
                                     "WHERE t.name = 'GC' AND s.name = 'GC gen1' AND s.ts = 11607431800 "
                                     "AND s.dur = 702700"), ==, 1);
}

/* PerfView's .NET Framework 4.5.2 trace: the runtime writes GCStart
 * twice per GC (v1, then v2 with the same Count, 80 of each; SQL over
 * events_raw), so 80 GCs, never nested, and 3,196 GCAllocationTick v3
 * events, sampled allocations */
static void
test_net452_gcs (void)
{
  g_autoptr(SpsTrace) trace = load_shared ("diagsession", "perfview__net.4.5.2.x86.etl.zip");

  if (trace == NULL)
    return;

  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM events_raw WHERE name = "
                                     "'Microsoft-Windows-DotNETRuntime/GC/Start'"), ==, 160);
  assert_rows (trace, "SELECT kind, count(*) FROM gc_observations GROUP BY kind ORDER BY kind",
               "end 80\nrestart 81\nstart 80\nsuspend 81\n");
  assert_rows (trace, "SELECT s.name, count(*), max(s.depth) FROM slices s JOIN tracks t ON t.id = s.track_id "
                      "WHERE t.name = 'GC' GROUP BY s.name ORDER BY s.name",
               "GC gen0 80 0\nSuspension 81 0\n");
  g_assert_cmpint (query_int (trace, "SELECT count(*) FROM allocations WHERE certainty = 'sampled'"), ==, 3196);
}

/* A generated capture */

static void
put_u16 (GByteArray *a,
         guint16     v)
{
  v = GUINT16_TO_LE (v);
  g_byte_array_append (a, (const guint8 *) &v, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (a, (const guint8 *) &v, 4);
}

static void
put_u64 (GByteArray *a,
         guint64     v)
{
  v = GUINT64_TO_LE (v);
  g_byte_array_append (a, (const guint8 *) &v, 8);
}

static void
put_utf16 (GByteArray *a,
           const char *ascii)
{
  for (const char *c = ascii; ; c++)
    {
      put_u16 (a, (guint16) *c);
      if (*c == '\0')
        break;
    }
}

typedef struct
{
  NtWriter *w;
  guint32   allocation, dead, type, gc_start, gc_end, suspend, restart, tick;
} Capture;

#define MODULE G_GUINT64_CONSTANT (0x7ff000001000)

static void
event (Capture    *c,
       guint32     type,
       gint64      ns,
       GByteArray *payload)
{
  nt_writer_event (c->w, type, 1, SYNC_QPC + ns, payload->data, payload->len);
  g_byte_array_set_size (payload, 0);
}

/* ObjectAllocation v3 of an object of type @token (an array when @array) */
static void
allocate (Capture *c,
          gint64   ns,
          guint64  id,
          guint32  size,
          guint32  token,
          gboolean array)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  put_u64 (p, id);
  put_u32 (p, size);
  put_u32 (p, array ? 29 : 25);
  put_u64 (p, MODULE);
  put_u32 (p, token);
  put_u32 (p, array ? 1 : 0);     /* an array… */
  put_u32 (p, 0);                 /* …of no nested array */
  put_u32 (p, array ? 1 : 0);     /* rank */
  if (array)
    put_u32 (p, 4);               /* length */
  g_byte_array_append (p, (const guint8 *) "", 1);
  event (c, c->allocation, ns, p);
}

static void
dead (Capture       *c,
      gint64         ns,
      const guint64 *ids,
      guint          n)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  put_u32 (p, 0);
  put_u32 (p, n);
  for (guint i = 0; i < n; i++)
    put_u64 (p, ids[i]);
  event (c, c->dead, ns, p);
}

static void
gc (Capture *c,
    gint64   start,
    gint64   end,
    guint32  count,
    guint32  depth)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  put_u32 (p, count);
  put_u32 (p, depth);
  put_u32 (p, 0);                 /* AllocSmall */
  put_u32 (p, 0);
  put_u16 (p, 8);
  put_u64 (p, 0);
  event (c, c->gc_start, start, p);
  if (end == 0)
    return;
  put_u32 (p, count);
  put_u32 (p, depth);
  put_u16 (p, 8);
  event (c, c->gc_end, end, p);
}

/* Births, deaths and GCs chosen so that every case of the model occurs:
 *
 *   1000 A (0x10, 100 B, Node)     4000–4900 suspension
 *   2000 B (0x20, 200 B, Leaf[])   4100–4800 GC #1 (gen1); at 4500 A dead
 *   3000 C (0x30, 300 B, Node)     6000–6800 GC #2 (gen1); at 6500 B and
 *   5000 D (0x40, 400 B, Leaf)               0x99 (born before) dead
 *   7000 a GCAllocationTick v4 of 100,000 bytes (Demo.Big)
 *   7500 E (0x50, 500 B, Node)
 *
 * A died after its birth (no GC before GC #1) and by GC #1's start; B
 * after GC #1's start and by GC #2's; 0x99 likewise, birth unknown. */
static GBytes *
write_capture (gboolean end_tag)
{
  Capture c = { nt_writer_new (8, FREQUENCY, SYNC_QPC), };
  g_autoptr(GByteArray) p = g_byte_array_new ();
  static const guint8 no_fields[4] = { 0, };
  static const guint64 first[] = { 0x10 };
  static const guint64 second[] = { 0x20, 0x99 };
  GBytes *bytes;

#define TYPE(provider, id, name, version) \
  nt_writer_add_versioned_event_type (c.w, provider, id, name, version, no_fields, sizeof no_fields)
  c.allocation = TYPE ("DhCorProfilerProvider", 1, "ObjectAllocation", 3);
  c.dead = TYPE ("DhCorProfilerProvider", 2, "DeadObjects", 1);
  c.type = TYPE ("DhCorProfilerProvider", 3, "TypeDefinition", 1);
  c.gc_start = TYPE ("Microsoft-Windows-DotNETRuntime", 1, "", 2);
  c.gc_end = TYPE ("Microsoft-Windows-DotNETRuntime", 2, "", 1);
  c.suspend = TYPE ("Microsoft-Windows-DotNETRuntime", 9, "", 1);
  c.restart = TYPE ("Microsoft-Windows-DotNETRuntime", 3, "", 1);
  c.tick = TYPE ("Microsoft-Windows-DotNETRuntime", 10, "", 4);
#undef TYPE

  for (guint t = 1; t <= 2; t++)
    {
      put_u64 (p, MODULE);
      put_u32 (p, 0x02000000 + t);
      put_utf16 (p, t == 1 ? "Demo.Node" : "Demo.Leaf");
      put_u32 (p, 0);
      put_u32 (p, 0);
      g_byte_array_append (p, (const guint8 *) "", 1);
      event (&c, c.type, 500, p);
    }

  allocate (&c, 1000, 0x10, 100, 0x02000001, FALSE);
  allocate (&c, 2000, 0x20, 200, 0x02000002, TRUE);
  allocate (&c, 3000, 0x30, 300, 0x02000001, FALSE);

  put_u32 (p, 1);                 /* SuspendForGC */
  put_u32 (p, 1);
  put_u16 (p, 8);
  event (&c, c.suspend, 4000, p);
  gc (&c, 4100, 4800, 1, 1);
  dead (&c, 4500, first, G_N_ELEMENTS (first));
  put_u16 (p, 8);
  event (&c, c.restart, 4900, p);

  allocate (&c, 5000, 0x40, 400, 0x02000002, FALSE);
  gc (&c, 6000, 6800, 2, 1);
  dead (&c, 6500, second, G_N_ELEMENTS (second));

  put_u32 (p, 100000);
  put_u32 (p, 0);
  put_u16 (p, 8);
  put_u64 (p, 100000);
  put_u64 (p, 0x7ff000002000);
  put_utf16 (p, "Demo.Big");
  put_u32 (p, 0);
  put_u64 (p, 0x1000000);
  put_u64 (p, 100000);
  event (&c, c.tick, 7000, p);

  allocate (&c, 7500, 0x50, 500, 0x02000001, FALSE);

  bytes = nt_writer_finish (c.w, SYNC_QPC + 9000, end_tag);
  nt_writer_free (c.w);
  return bytes;
}

/* The GC bounds of each death, by the capture's design above */
static void
test_generated_bounds (void)
{
  g_autoptr(GBytes) bytes = write_capture (TRUE);
  g_autoptr(SpsTrace) trace = load_bytes (bytes, "memory.nettrace");

  assert_rows (trace, "SELECT address, birth_ts, death_after, death_by, size, type, certainty "
                      "FROM allocations",
               "153 - 4100 6000 - - unknown_birth\n"
               "16 1000 1000 4100 100 Demo.Node exact\n"
               "32 2000 4100 6000 200 Demo.Leaf[] exact\n"
               "48 3000 - - 300 Demo.Node exact\n"
               "64 5000 - - 400 Demo.Leaf exact\n"
               "16777216 7000 - - 100000 Demo.Big sampled\n"
               "80 7500 - - 500 Demo.Node exact\n");

  assert_rows (trace, "SELECT ts, kind, gc_number, generation, reason FROM gc_observations",
               "4000 suspend 1 - SuspendForGC\n"
               "4100 start 1 1 AllocSmall\n"
               "4800 end 1 1 -\n"
               "4900 restart - - -\n"
               "6000 start 2 1 AllocSmall\n"
               "6800 end 2 1 -\n");
}

/* Generations: X (born 100) is reported dead at a gen1 GC (400); the gen0
 * GC at 300 between does not look at gen1 objects, so X is known alive
 * only until the gen1 GC at 200. Y (born 150) is reported at the gen0 GC
 * at 300: the gen1 GC at 200 looked at it too (gen1 GCs collect gen0), so
 * it was alive at 200. */
static void
test_generated_generations (void)
{
  Capture c = { nt_writer_new (8, FREQUENCY, SYNC_QPC), };
  static const guint8 no_fields[4] = { 0, };
  static const guint64 x[] = { 0x10 };
  static const guint64 y[] = { 0x20 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  c.allocation = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 1, "ObjectAllocation", 3,
                                                     no_fields, sizeof no_fields);
  c.dead = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 2, "DeadObjects", 1,
                                               no_fields, sizeof no_fields);
  c.gc_start = nt_writer_add_versioned_event_type (c.w, "Microsoft-Windows-DotNETRuntime", 1, "", 2,
                                                   no_fields, sizeof no_fields);
  c.gc_end = nt_writer_add_versioned_event_type (c.w, "Microsoft-Windows-DotNETRuntime", 2, "", 1,
                                                 no_fields, sizeof no_fields);
  allocate (&c, 100, 0x10, 10, 0x02000001, FALSE);
  allocate (&c, 150, 0x20, 20, 0x02000001, FALSE);
  gc (&c, 200, 250, 1, 1);
  gc (&c, 300, 350, 2, 0);
  dead (&c, 320, y, G_N_ELEMENTS (y));
  gc (&c, 400, 450, 3, 1);
  dead (&c, 420, x, G_N_ELEMENTS (x));
  bytes = nt_writer_finish (c.w, SYNC_QPC + 500, TRUE);
  nt_writer_free (c.w);
  trace = load_bytes (bytes, "generations.nettrace");

  assert_rows (trace, "SELECT address, birth_ts, death_after, death_by FROM allocations",
               "16 100 200 400\n"
               "32 150 200 300\n");
}

/* Known and uncertain apart, at times chosen between the events:
 *   3500: B, C known (500 B); A (between its birth and GC #1) and 0x99
 *         (unknown birth, unknown size) uncertain (100 B)
 *   5500: C, D known (700 B); B (between GC #1 and GC #2) and 0x99
 *         uncertain (200 B)
 *   8000: C, D, E known (1,200 B); the sampled tick uncertain (100,000 B)
 * and, when the stream stopped without its end tag after the rundown at
 * 9000, C, D and E are in a gap: known until 9000, uncertain from it. */
static void
test_generated_uncertain_split (void)
{
  g_autoptr(GBytes) bytes = write_capture (TRUE);
  g_autoptr(SpsTrace) trace = load_bytes (bytes, "memory.nettrace");
  g_autoptr(GBytes) cut_bytes = write_capture (FALSE);
  g_autoptr(SpsTrace) cut = load_bytes (cut_bytes, "memory-cut.nettrace");

  assert_outstanding (trace, 999, 0, 0, 1, 0, 1);
  assert_outstanding (trace, 3500, 2, 500, 2, 100, 1);
  assert_outstanding (trace, 5500, 2, 700, 2, 200, 1);
  assert_outstanding (trace, 8000, 3, 1200, 1, 100000, 0);

  /* The cut capture's last events are the rundown's, at 9000 */
  g_assert_cmpint (query_int (cut, "SELECT count(*) FROM allocations WHERE certainty = 'in_gap' "
                                   "AND death_after = 9000 AND death_by IS NULL"), ==, 3);
  assert_outstanding (cut, 3500, 2, 500, 2, 100, 1);
  assert_outstanding (cut, 8000, 3, 1200, 1, 100000, 0);
  assert_outstanding (cut, 9000, 0, 0, 4, 101200, 0);
}

/* Events the runtime dropped (three sequence numbers of the thread skipped
 * between its events at 2000 and 3000; a sample of another capture thread
 * at 2500 is no loss): A (born 1000) and B (born 2000) may have died in
 * the loss, so they are in_gap, known alive until 2000; C, born at 3000
 * after the loss, is not */
static void
test_generated_lost_events (void)
{
  Capture c = { nt_writer_new (8, FREQUENCY, SYNC_QPC), };
  static const guint8 no_fields[4] = { 0, };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  c.allocation = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 1, "ObjectAllocation", 3,
                                                     no_fields, sizeof no_fields);
  allocate (&c, 1000, 0x10, 100, 0x02000001, FALSE);
  allocate (&c, 2000, 0x20, 200, 0x02000001, FALSE);
  nt_writer_lose_events (c.w, 3);
  /* Another capture thread's event: the sampler's */
  nt_writer_sample (c.w, 2, SYNC_QPC + 2500, NULL, 0, 2);
  allocate (&c, 3000, 0x30, 300, 0x02000001, FALSE);
  bytes = nt_writer_finish (c.w, SYNC_QPC + 4000, TRUE);
  nt_writer_free (c.w);
  trace = load_bytes (bytes, "lost.nettrace");

  g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-events-lost"), ==, 1);
  assert_rows (trace, "SELECT birth_ts, death_after, death_by, certainty FROM allocations",
               "1000 2000 - in_gap\n"
               "2000 2000 - in_gap\n"
               "3000 - - exact\n");
  assert_outstanding (trace, 1500, 1, 100, 0, 0, 0);
  assert_outstanding (trace, 3500, 1, 300, 2, 300, 0);
}

/* Hostile payloads: counts and sizes larger than the bytes left, short
 * fixed fields and an unknown layout version are warnings that name the
 * file and the event's byte offset; nothing is allocated for them */
static void
test_generated_malformed (void)
{
  Capture c = { nt_writer_new (8, FREQUENCY, SYNC_QPC), };
  g_autoptr(GByteArray) p = g_byte_array_new ();
  static const guint8 no_fields[4] = { 0, };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  guint32 old_allocation;
  const char *message = NULL;
  guint64 count = 0;

  c.allocation = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 1, "ObjectAllocation", 3,
                                                     no_fields, sizeof no_fields);
  old_allocation = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 1, "ObjectAllocation", 2,
                                                       no_fields, sizeof no_fields);
  c.dead = nt_writer_add_versioned_event_type (c.w, "DhCorProfilerProvider", 2, "DeadObjects", 1,
                                               no_fields, sizeof no_fields);
  c.tick = nt_writer_add_versioned_event_type (c.w, "Microsoft-Windows-DotNETRuntime", 10, "", 4,
                                               no_fields, sizeof no_fields);

  /* TypesSize of 4 GiB in a 40-byte payload */
  put_u64 (p, 1);
  put_u32 (p, 16);
  put_u32 (p, G_MAXUINT32);
  put_u64 (p, MODULE);
  put_u32 (p, 1);
  put_u32 (p, 0);
  put_u64 (p, 0);
  event (&c, c.allocation, 100, p);
  /* 10 bytes: shorter than ObjectID, Size and TypesSize */
  put_u64 (p, 2);
  put_u16 (p, 0);
  event (&c, c.allocation, 200, p);
  /* A version whose layout is not known */
  put_u64 (p, 3);
  put_u32 (p, 16);
  put_u32 (p, 0);
  event (&c, old_allocation, 300, p);
  /* 2^32 − 1 ids announced, one given */
  put_u32 (p, 0);
  put_u32 (p, G_MAXUINT32);
  put_u64 (p, 1);
  event (&c, c.dead, 400, p);
  /* A TypeName without its terminator */
  put_u32 (p, 100);
  put_u32 (p, 0);
  put_u16 (p, 8);
  put_u64 (p, 100);
  put_u64 (p, 0);
  put_u16 (p, 'A');
  event (&c, c.tick, 500, p);

  bytes = nt_writer_finish (c.w, SYNC_QPC + 1000, TRUE);
  nt_writer_free (c.w);
  trace = load_bytes (bytes, "hostile.nettrace");

  g_assert_cmpuint (sps_trace_get_allocations (trace)->n_rows, ==, 0);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    if (g_strcmp0 (sps_trace_get_warning (trace, i, &count, &message), "memory-event-malformed") == 0)
      break;
  g_assert_cmpuint (count, ==, 5);
  g_assert_nonnull (message);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "hostile.nettrace (byte "));
  g_assert_nonnull (strstr (message, "ObjectAllocation"));
}

/* Chrome object events (tests/fixtures/chrome-memory-objects.json):
 *   Layer 0x1: N at 10 µs, snapshot size 64 at 20, D at 50
 *   Layer 0x2: N at 30, never destroyed, no size
 *   Tile 0x3: only a snapshot (size 16) at 40: birth unknown
 *   Tile 0x4: only a D at 45: birth unknown
 *   Layer 0x5: N at 60 and N again at 70 without a D between: the first
 *   life's end is unknown */
static void
test_chrome_objects (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-memory-objects.json");

  assert_rows (trace, "SELECT type, birth_ts, death_ts, size, heap, certainty FROM allocations",
               "Tile - - 16 object unknown_birth\n"
               "Tile - 45000 - object unknown_birth\n"
               "Layer 10000 50000 64 object exact\n"
               "Layer 30000 - - object exact\n"
               "Layer 60000 - - object unknown_death\n"
               "Layer 70000 - - object exact\n");

  /* 55 µs: Layer 0x2 known (no size); Tile 0x3 uncertain */
  assert_outstanding (trace, 55000, 1, 0, 1, 16, 1);
  /* 80 µs: Layer 0x2 and the second 0x5 known; Tile 0x3 and the first
   * 0x5 uncertain; all but Tile 0x3 of unknown size */
  assert_outstanding (trace, 80000, 2, 0, 2, 16, 3);
  g_assert_cmpuint (sps_trace_get_gc_observations (trace)->n_rows, ==, 0);
}

/* The builder alone: allocations added out of birth order come out
 * sorted (unknown births first, ties in input order), death bounds given
 * in the wrong order are swapped, and a GC end without its start (a
 * capture that begins during a GC) is an observation but no slice and no
 * warning */
static void
test_builder_tables (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const SpsAllocationTable *a;
  const SpsGcObservationTable *gc;
  guint32 process = sps_trace_builder_ensure_process (builder, 7);
  guint32 node = sps_trace_builder_intern (builder, "Node", -1);
  guint32 first;

  first = sps_trace_builder_add_allocation (builder, process, SPS_NO_INDEX, 30, 3, node, 0x3,
                                            SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  sps_trace_builder_add_allocation (builder, process, SPS_NO_INDEX, 10, 1, node, 0x1,
                                    SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  sps_trace_builder_add_allocation (builder, process, SPS_NO_INDEX, SPS_TIME_MIN, SPS_SIZE_UNKNOWN, 0, 0x9,
                                    SPS_HEAP_NATIVE, SPS_ALLOCATION_UNKNOWN_BIRTH);
  sps_trace_builder_add_allocation (builder, process, SPS_NO_INDEX, 10, 2, node, 0x2,
                                    SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_death (builder, first, 50, 40);

  sps_trace_builder_add_gc_observation (builder, process, SPS_NO_INDEX, 5, SPS_GC_END, 1, 0, 0);
  sps_trace_builder_add_gc_observation (builder, process, SPS_NO_INDEX, 60, SPS_GC_START, 2, 1,
                                        sps_trace_builder_intern (builder, "Induced", -1));
  sps_trace_builder_add_gc_observation (builder, process, SPS_NO_INDEX, 70, SPS_GC_END, 2, 1, 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  a = sps_trace_get_allocations (trace);
  g_assert_cmpuint (a->n_rows, ==, 4);
  g_assert_cmpuint (a->address[0], ==, 0x9);
  g_assert_cmpuint (a->address[1], ==, 0x1);
  g_assert_cmpuint (a->address[2], ==, 0x2);
  g_assert_cmpuint (a->address[3], ==, 0x3);
  g_assert_cmpint (a->death_after[3], ==, 40);
  g_assert_cmpint (a->death_by[3], ==, 50);
  g_assert_cmpint (a->death[3], ==, 50);
  g_assert_cmpint (a->death[1], ==, SPS_TIME_MAX);
  g_assert_cmpuint (a->heap[0], ==, SPS_HEAP_NATIVE);

  gc = sps_trace_get_gc_observations (trace);
  g_assert_cmpuint (gc->n_rows, ==, 3);
  g_assert_cmpint (gc->ts[0], ==, 5);
  g_assert_cmpuint (gc->kind[0], ==, SPS_GC_END);
  g_assert_cmpstr (sps_trace_get_string (trace, gc->reason[1]), ==, "Induced");
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
  assert_rows (trace, "SELECT t.name, s.name, s.ts, s.dur, s.category, s.args FROM slices s "
                      "JOIN tracks t ON t.id = s.track_id",
               "GC GC gen1 60 10 gc {\"count\":2,\"generation\":1,\"reason\":\"Induced\"}\n");
  /* The birth range covers the allocations' known times */
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 5);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 70);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory/nettrace/alloctrace/event-counts", test_alloc_trace_counts);
  g_test_add_func ("/memory/nettrace/alloctrace/outstanding", test_alloc_trace_outstanding);
  g_test_add_func ("/memory/nettrace/alloctrace/dead-object-ids", test_alloc_trace_dead_object_ids);
  g_test_add_func ("/memory/nettrace/alloctrace/generic-type-names", test_alloc_trace_generic_types);
  g_test_add_func ("/memory/nettrace/alloctrace/live-objects-count", test_alloc_trace_live_objects);
  g_test_add_func ("/memory/nettrace/alloctrace/top-types", test_alloc_trace_top_types);
  g_test_add_func ("/memory/nettrace/alloctrace/allocation-path", test_alloc_trace_path);
  g_test_add_func ("/memory/nettrace/alloctrace/gc-observations", test_alloc_trace_gc);
  g_test_add_func ("/memory/etl/gcevents/allocation-tick", test_gcevents_allocation_tick);
  g_test_add_func ("/memory/etl/net452/gc-start-twice", test_net452_gcs);
  g_test_add_func ("/memory/nettrace/generated/gc-bounds", test_generated_bounds);
  g_test_add_func ("/memory/nettrace/generated/uncertain-split", test_generated_uncertain_split);
  g_test_add_func ("/memory/nettrace/generated/generations", test_generated_generations);
  g_test_add_func ("/memory/nettrace/generated/lost-events", test_generated_lost_events);
  g_test_add_func ("/memory/nettrace/generated/malformed", test_generated_malformed);
  g_test_add_func ("/memory/chrome/object-history", test_chrome_objects);
  g_test_add_func ("/memory/builder/tables", test_builder_tables);

  return g_test_run ();
}
