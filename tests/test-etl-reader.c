/* test-etl-reader.c: the buffers and records of ETW traces (.etl)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Real ETLs (written by PerfView and by Visual Studio's Diagnostics Hub,
 * from ../shared/fixtures/diagsession, read out of their zips) give the
 * counts of record kinds and events that their README lists; hand-made
 * buffers check every header layout field by field, and what damage
 * leaves.
 */

#include "config.h"

#include <string.h>

#include "sps-etl-args.h"
#include "sps-etl-events.h"
#include "sps-etl-import.h"
#include "sps-etl-reader.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"

#define DIAGHUB "perfview__diaghub-dotnetcore3.1-win-x64-diagsession.etls.zip"
#define DIAGHUB_DIR "diaghub-dotnetcore3.1-win-x64-diagsession/"

/* Counts of records by key ("k<kind> <provider or g<group>> id<id>
 * op<opcode> v<version>"), warnings by kind, and the header */
typedef struct
{
  GHashTable  *records;
  GHashTable  *warnings;
  GPtrArray   *messages;
  SpsEtlHeader header;
  char        *session_name;
  guint        n_headers;
  GArray      *seen;          /* SpsEtlRecord, with payload copies in @payloads */
  GPtrArray   *payloads;
} Counts;

static void
counts_init (Counts *c)
{
  memset (c, 0, sizeof *c);
  c->records = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->warnings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->messages = g_ptr_array_new_with_free_func (g_free);
  c->seen = g_array_new (FALSE, TRUE, sizeof (SpsEtlRecord));
  c->payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}

static void
counts_clear (Counts *c)
{
  /* Also for one never initialised (a test skipped before it) */
  g_clear_pointer (&c->records, g_hash_table_unref);
  g_clear_pointer (&c->warnings, g_hash_table_unref);
  g_clear_pointer (&c->messages, g_ptr_array_unref);
  g_clear_pointer (&c->seen, g_array_unref);
  g_clear_pointer (&c->payloads, g_ptr_array_unref);
  g_clear_pointer (&c->session_name, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Counts, counts_clear)

static void
bump (GHashTable *table,
      char       *key)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (table, key));

  g_hash_table_replace (table, key, GUINT_TO_POINTER (n + 1));
}

static guint
count_of (GHashTable *table,
          const char *key)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (table, key));
}

static void
on_header (const SpsEtlHeader *header,
           gpointer            user_data)
{
  Counts *c = user_data;

  c->header = *header;
  c->header.session_name = NULL;
  c->session_name = g_strdup (header->session_name);
  c->n_headers++;
}

static void
on_record (const SpsEtlRecord *record,
           gpointer            user_data)
{
  Counts *c = user_data;
  g_autofree char *provider = record->provider != NULL ? sps_etl_guid_to_string (record->provider) : NULL;
  SpsEtlRecord copy = *record;
  GBytes *payload = g_bytes_new (record->payload, record->payload_len);

  if (provider != NULL)
    bump (c->records, g_strdup_printf ("k%d %s id%u op%u v%u", record->kind, provider,
                                       record->id, record->opcode, record->version));
  else
    bump (c->records, g_strdup_printf ("k%d g%u op%u v%u", record->kind, record->group,
                                       record->opcode, record->version));

  /* Kept for the hand-made files, which are small */
  if (c->seen->len < 64)
    {
      copy.payload = g_bytes_get_data (payload, NULL);
      copy.provider = NULL;
      copy.extended = NULL;
      g_array_append_val (c->seen, copy);
      g_ptr_array_add (c->payloads, payload);
    }
  else
    g_bytes_unref (payload);
}

static void
on_warning (const char *kind,
            const char *message,
            gpointer    user_data)
{
  Counts *c = user_data;

  bump (c->warnings, g_strdup (kind));
  g_ptr_array_add (c->messages, g_strdup (message));
}

static const SpsEtlReaderFuncs funcs = { on_header, on_record, on_warning, NULL };

static GBytes *
read_zip_member (const char *zip_name,
                 const char *member)
{
  return sps_test_shared_zip_member ("diagsession", zip_name, member);
}

static gboolean
read_bytes (GBytes      *bytes,
            Counts      *counts,
            SpsEtlStats *stats,
            GError     **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return sps_etl_read (data, len, "test.etl", &funcs, counts, stats, error);
}

#define KERNEL_TRACE_CONTROL "{b3e675d7-2554-4f18-830b-2762732560de}"
#define DIAGNOSTICS_HUB "{9e5f9046-43c6-4f62-ba13-7b19896253ff}"
#define CLR_RUNTIME "{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}"
#define CLR_RUNDOWN "{a669021c-c450-4609-a035-5af59af4df18}"
#define TEST_PROVIDER "{0badf00d-1234-4321-8888-0123456789ab}"

static void
test_diaghub_classic (void)
{
  g_autoptr(GBytes) etl = read_zip_member (DIAGHUB, DIAGHUB_DIR "diaghub.etl");
  g_auto(Counts) c = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;

  g_test_summary ("The Diagnostics Hub's relogged kernel-control ETL: its header, 103 "
                  "uncompressed buffers and 62,378 classic records");
  if (etl == NULL)
    return;
  counts_init (&c);
  g_assert_true (read_bytes (etl, &c, &stats, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (c.n_headers, ==, 1);
  g_assert_cmpuint (c.header.pointer_size, ==, 8);
  g_assert_cmpuint (c.header.n_processors, ==, 4);
  g_assert_cmpuint (c.header.perf_freq, ==, 10000000);
  g_assert_cmpuint (c.header.clock_type, ==, 1);
  g_assert_cmpuint (c.header.compression, ==, 0);
  g_assert_cmpuint (c.header.start_ticks, ==, 13764840754);
  g_assert_cmpstr (c.session_name, ==, "Relogger");

  g_assert_cmpuint (stats.n_buffers, ==, 103);
  g_assert_cmpuint (stats.n_compressed_buffers, ==, 0);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_SYSTEM], ==, 1);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_FULL], ==, 62378);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 0);
  /* ImageID and DbgID_RSDS */
  g_assert_cmpuint (count_of (c.records, "k3 " KERNEL_TRACE_CONTROL " id0 op0 v2"), ==, 15423);
  g_assert_cmpuint (count_of (c.records, "k3 " KERNEL_TRACE_CONTROL " id0 op36 v2"), ==, 15076);
  g_assert_cmpuint (g_hash_table_size (c.warnings), ==, 0);
}

static void
test_diaghub_kernel (void)
{
  g_autoptr(GBytes) etl = read_zip_member (DIAGHUB, DIAGHUB_DIR "diaghub.kernel.1.etl");
  g_auto(Counts) c = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;

  g_test_summary ("The Diagnostics Hub's kernel logger: system and PerfInfo records, "
                  "image and process events, no samples");
  if (etl == NULL)
    return;
  counts_init (&c);
  g_assert_true (read_bytes (etl, &c, &stats, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (stats.n_buffers, ==, 59);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_SYSTEM], ==, 1035);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_PERFINFO], ==, 15299);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 1);
  /* Image DCStart, DCEnd; process DCStart, DCEnd */
  g_assert_cmpuint (count_of (c.records, "k0 g20 op3 v3"), ==, 187);
  g_assert_cmpuint (count_of (c.records, "k2 g20 op4 v3"), ==, 14830);
  g_assert_cmpuint (count_of (c.records, "k2 g3 op3 v4"), ==, 223);
  g_assert_cmpuint (count_of (c.records, "k2 g3 op4 v4"), ==, 223);
  /* No SampledProfile, no StackWalk */
  g_assert_cmpuint (count_of (c.records, "k2 g15 op46 v2"), ==, 0);
  g_assert_cmpuint (count_of (c.records, "k0 g24 op32 v2"), ==, 0);
}

static void
test_diaghub_user (void)
{
  g_autoptr(GBytes) injected = read_zip_member (DIAGHUB, DIAGHUB_DIR "diaghub.user_injected.1.etl");
  g_autoptr(GBytes) paged = NULL;
  g_auto(Counts) c = { 0, };
  g_auto(Counts) p = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;

  g_test_summary ("The Diagnostics Hub's user loggers: its own target events, and CLR "
                  "JIT events as EventHeader records");
  if (injected == NULL)
    return;
  counts_init (&c);
  g_assert_true (read_bytes (injected, &c, &stats, &error));
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 3);
  /* TargetProfilingStarted v2, TargetProfilingStopped v1, MachineInfo v0 */
  g_assert_cmpuint (count_of (c.records, "k5 " DIAGNOSTICS_HUB " id1 op0 v2"), ==, 1);
  g_assert_cmpuint (count_of (c.records, "k5 " DIAGNOSTICS_HUB " id2 op0 v1"), ==, 1);
  g_assert_cmpuint (count_of (c.records, "k5 " DIAGNOSTICS_HUB " id5 op0 v0"), ==, 1);
  /* In file order: TargetProfilingStopped (u32 pid, u64 timestamp), then
   * TargetProfilingStarted (u32 pid, u32 reason, u64 timestamp) of
   * process 2140, then MachineInfo (the machine's name first) */
  {
    const SpsEtlRecord *stopped = &g_array_index (c.seen, SpsEtlRecord, 1);
    const SpsEtlRecord *started = &g_array_index (c.seen, SpsEtlRecord, 2);
    const SpsEtlRecord *machine = &g_array_index (c.seen, SpsEtlRecord, 3);
    g_autofree char *name = g_utf16_to_utf8 ((const gunichar2 *) (gconstpointer) machine->payload,
                                             9, NULL, NULL, NULL);

    g_assert_cmpuint (stopped->id, ==, 2);
    g_assert_cmpuint (stopped->payload_len, ==, 12);
    g_assert_cmpuint (started->id, ==, 1);
    g_assert_cmpuint (started->payload_len, ==, 16);
    g_assert_cmpuint (started->pid, ==, 2140);
    g_assert_cmpuint (GUINT32_FROM_LE (*(const guint32 *) (gconstpointer) started->payload), ==, 2140);
    g_assert_cmpuint (machine->id, ==, 5);
    g_assert_cmpuint (machine->payload_len, ==, 58);
    g_assert_cmpstr (name, ==, "liha-test");
  }

  paged = read_zip_member (DIAGHUB, DIAGHUB_DIR "diaghub.user_paged.1.etl");
  counts_init (&p);
  g_assert_true (read_bytes (paged, &p, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_buffers, ==, 139);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 22034);
  /* MethodLoadVerbose v1 and v2, JittingStarted, MethodILToNativeMap */
  g_assert_cmpuint (count_of (p.records, "k5 " CLR_RUNTIME " id143 op37 v1"), ==, 4875);
  g_assert_cmpuint (count_of (p.records, "k5 " CLR_RUNTIME " id143 op37 v2"), ==, 534);
  g_assert_cmpuint (count_of (p.records, "k5 " CLR_RUNTIME " id145 op42 v1"), ==, 5409);
  g_assert_cmpuint (count_of (p.records, "k5 " CLR_RUNTIME " id190 op87 v0"), ==, 5247);
}

static void
test_clr_small (void)
{
  g_autoptr(GBytes) rundown = read_zip_member ("perfview__gcrundownevents.etl.zip",
                                               "gcrundownevents/PerfViewData.clrRundown.etl");
  g_autoptr(GBytes) gc = NULL;
  g_autoptr(GBytes) primitive = NULL;
  g_auto(Counts) r = { 0, };
  g_auto(Counts) g = { 0, };
  g_auto(Counts) t = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;

  g_test_summary ("PerfView's small CLR ETLs: 110 rundown events, 69 GC events, 5 "
                  "self-describing events");
  if (rundown == NULL)
    return;
  counts_init (&r);
  g_assert_true (read_bytes (rundown, &r, &stats, &error));
  g_assert_cmpuint (stats.n_buffers, ==, 2);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 110);
  /* MethodDCEndVerbose v1 and v2 */
  g_assert_cmpuint (count_of (r.records, "k5 " CLR_RUNDOWN " id144 op40 v1"), ==, 77);
  g_assert_cmpuint (count_of (r.records, "k5 " CLR_RUNDOWN " id144 op40 v2"), ==, 3);
  g_assert_cmpstr (r.session_name, ==, "PerfViewSessionRundown");

  gc = read_zip_member ("perfview__gcevents.etl.zip", "gcevents/PerfViewData.etl");
  counts_init (&g);
  g_assert_true (read_bytes (gc, &g, &stats, &error));
  g_assert_cmpuint (stats.n_buffers, ==, 5);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 69);
  /* GCStart v2, GCEnd v1, GCAllocationTick v4 */
  g_assert_cmpuint (count_of (g.records, "k5 " CLR_RUNTIME " id1 op1 v2"), ==, 2);
  g_assert_cmpuint (count_of (g.records, "k5 " CLR_RUNTIME " id2 op2 v1"), ==, 2);
  g_assert_cmpuint (count_of (g.records, "k5 " CLR_RUNTIME " id10 op11 v4"), ==, 12);

  primitive = read_zip_member ("perfview__primitive-types.etl.zip", "primitive-types.etl");
  counts_init (&t);
  g_assert_true (read_bytes (primitive, &t, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_of (t.records, "k5 {d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615} id0 op0 v0"), ==, 5);
  g_assert_cmpstr (t.session_name, ==, "solar_system");
}

static void
test_compressed_without_expander (void)
{
  g_autoptr(GBytes) etl = read_zip_member ("perfview__net.4.5.2.x86.etl.zip", "net.4.5.2.x86.etl");
  g_auto(Counts) c = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A compressed ETL without a decompressor: its header is read and each of "
                  "its 275 compressed buffers is skipped with a warning");
  if (etl == NULL)
    return;
  counts_init (&c);
  g_assert_true (read_bytes (etl, &c, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.header.log_file_mode & SPS_ETL_LOG_FILE_MODE_COMPRESSED, !=, 0);
  /* Plain LZ77 */
  g_assert_cmpuint (c.header.compression, ==, 3);
  g_assert_cmpuint (stats.n_buffers, ==, 276);
  g_assert_cmpuint (stats.n_compressed_buffers, ==, 275);
  g_assert_cmpuint (stats.n_skipped_buffers, ==, 275);
  g_assert_cmpuint (count_of (c.warnings, "etl-compressed-buffer"), ==, 275);
  g_assert_cmpstr (g_ptr_array_index (c.messages, 0), ==,
                   "test.etl (byte 512): a compressed buffer cannot be expanded; the buffer is skipped");
}

/* Hand-made files */

static void
put_u16 (GByteArray *a,
         gsize       at,
         guint16     v)
{
  v = GUINT16_TO_LE (v);
  memcpy (a->data + at, &v, 2);
}

static void
put_u32 (GByteArray *a,
         gsize       at,
         guint32     v)
{
  v = GUINT32_TO_LE (v);
  memcpy (a->data + at, &v, 4);
}

static void
put_u64 (GByteArray *a,
         gsize       at,
         guint64     v)
{
  v = GUINT64_TO_LE (v);
  memcpy (a->data + at, &v, 8);
}

/* Appends @n zero bytes; returns where they start */
static gsize
grow (GByteArray *a,
      gsize       n)
{
  gsize at = a->len;

  g_byte_array_set_size (a, a->len + n);
  memset (a->data + at, 0, n);
  return at;
}

/* A buffer header of @size bytes in the file, @saved of them valid */
static gsize
add_buffer (GByteArray *a,
            guint16     processor)
{
  gsize at = grow (a, 72);

  put_u16 (a, at + 40, processor);
  return at;
}

static void
end_buffer (GByteArray *a,
            gsize       buffer,
            gsize       size)
{
  gsize saved = a->len - buffer;

  g_assert_cmpuint (size, >=, saved);
  grow (a, size - saved);
  memset (a->data + buffer + saved, 0xff, size - saved);
  put_u32 (a, buffer, (guint32) size);
  put_u32 (a, buffer + 4, (guint32) saved);
}

static void
pad8 (GByteArray *a,
      gsize       buffer)
{
  while ((a->len - buffer) % 8 != 0)
    g_byte_array_append (a, (const guint8 *) "\0", 1);
}

/* A system record of @payload_len bytes of 0x5a */
static void
add_system (GByteArray *a,
            gsize       buffer,
            guint8      group,
            guint8      opcode,
            guint16     version,
            guint32     tid,
            guint32     pid,
            guint64     ts,
            gsize       payload_len)
{
  gsize at = grow (a, 32 + payload_len);

  put_u16 (a, at, version);
  a->data[at + 2] = 2;
  a->data[at + 3] = 0xc0;
  put_u16 (a, at + 4, (guint16) (32 + payload_len));
  a->data[at + 6] = opcode;
  a->data[at + 7] = group;
  put_u32 (a, at + 8, tid);
  put_u32 (a, at + 12, pid);
  put_u64 (a, at + 16, ts);
  memset (a->data + at + 32, 0x5a, payload_len);
  pad8 (a, buffer);
}

/* The header record: 64-bit pointers, 2 processors, 1 MHz, session "t" */
static void
add_log_header (GByteArray *a,
                gsize       buffer,
                guint64     start)
{
  gsize at;

  add_system (a, buffer, 0, 0, 2, 0, 0, start, 264 + 16 + 4);
  at = buffer + 72 + 32;
  memset (a->data + at, 0, 284);
  put_u32 (a, at + 12, 2);
  put_u32 (a, at + 44, 8);
  put_u64 (a, at + 256, 1000000);
  put_u32 (a, at + 272, 1);
  put_u16 (a, at + 280, 't');
}

static void
add_perfinfo (GByteArray *a,
              gsize       buffer,
              guint16     version,
              guint8      group,
              guint8      opcode,
              guint64     ts,
              gsize       payload_len)
{
  gsize extra = ((version & 0x8000) != 0 ? 8 : 0) + 8 * ((version >> 8) & 7);
  gsize at = grow (a, 16 + extra + payload_len);

  put_u16 (a, at, version);
  a->data[at + 2] = 17;
  a->data[at + 3] = 0xc0;
  put_u16 (a, at + 4, (guint16) (16 + extra + payload_len));
  a->data[at + 6] = opcode;
  a->data[at + 7] = group;
  put_u64 (a, at + 8, ts);
  memset (a->data + at + 16 + extra, 0x5a, payload_len);
  pad8 (a, buffer);
}

/* An EventHeader record of @provider; the payload's bytes are 0x5a when
 * @payload is NULL */
static void
add_event_header_of (GByteArray   *a,
                     gsize         buffer,
                     const char   *provider,
                     guint16       id,
                     guint8        version,
                     guint64       ts,
                     const guint8 *ext,
                     gsize         ext_len,
                     const guint8 *payload,
                     gsize         payload_len)
{
  gsize at = grow (a, 80 + ext_len + payload_len);

  put_u16 (a, at, (guint16) (80 + ext_len + payload_len));
  a->data[at + 2] = 18;
  a->data[at + 3] = 0xc0;
  put_u16 (a, at + 4, ext_len > 0 ? 0x0021 : 0x0020);
  put_u32 (a, at + 8, 77);
  put_u32 (a, at + 12, 66);
  put_u64 (a, at + 16, ts);
  g_assert_true (sps_etl_guid_parse (provider, a->data + at + 24));
  put_u16 (a, at + 40, id);
  a->data[at + 42] = version;
  a->data[at + 44] = 4;
  a->data[at + 45] = 37;
  if (ext_len > 0)
    memcpy (a->data + at + 80, ext, ext_len);
  if (payload != NULL)
    memcpy (a->data + at + 80 + ext_len, payload, payload_len);
  else
    memset (a->data + at + 80 + ext_len, 0x5a, payload_len);
  pad8 (a, buffer);
}

static void
add_event_header (GByteArray   *a,
                  gsize         buffer,
                  guint16       id,
                  guint8        version,
                  guint64       ts,
                  const guint8 *ext,
                  gsize         ext_len,
                  gsize         payload_len)
{
  add_event_header_of (a, buffer, CLR_RUNTIME, id, version, ts, ext, ext_len, NULL, payload_len);
}

static void
test_hand_made (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  /* A stack item (ExtType 5, 12 bytes: 24 with its header, aligned),
   * then the last item, of 4 bytes (16) */
  guint8 ext[40] = { 0, 0, 5, 0, 1, 0, 12, 0, [24] = 0, 0, 1, 0, 0, 0, 4, 0 };
  g_auto(Counts) c = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;
  gsize b;
  const SpsEtlRecord *r;

  g_test_summary ("Every header layout, field by field, over two buffers of two processors");

  b = add_buffer (a, 0);
  add_log_header (a, b, 5000);
  add_system (a, b, 3, 1, 4, 11, 22, 5100, 13);
  add_perfinfo (a, b, 0x0102, 15, 46, 5200, 16);
  end_buffer (a, b, 1024);
  b = add_buffer (a, 1);
  add_event_header (a, b, 143, 1, 5300, ext, sizeof ext, 9);
  add_event_header (a, b, 144, 2, 5400, NULL, 0, 0);
  end_buffer (a, b, 512);

  counts_init (&c);
  g_assert_true (sps_etl_read (a->data, a->len, "hand.etl", &funcs, &c, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (c.warnings), ==, 0);
  g_assert_cmpuint (stats.n_buffers, ==, 2);
  g_assert_cmpuint (c.header.n_processors, ==, 2);
  g_assert_cmpuint (c.header.perf_freq, ==, 1000000);
  g_assert_cmpuint (c.header.start_ticks, ==, 5000);
  g_assert_cmpstr (c.session_name, ==, "t");
  g_assert_cmpuint (c.seen->len, ==, 5);

  r = &g_array_index (c.seen, SpsEtlRecord, 1);
  g_assert_cmpint (r->kind, ==, SPS_ETL_RECORD_SYSTEM);
  g_assert_cmpuint (r->group, ==, 3);
  g_assert_cmpuint (r->opcode, ==, 1);
  g_assert_cmpuint (r->version, ==, 4);
  g_assert_cmpuint (r->tid, ==, 11);
  g_assert_cmpuint (r->pid, ==, 22);
  g_assert_cmpuint (r->timestamp, ==, 5100);
  g_assert_cmpuint (r->pointer_size, ==, 8);
  g_assert_cmpuint (r->payload_len, ==, 13);
  g_assert_cmpuint (r->processor, ==, 0);
  /* After the 72-byte buffer header, the 320-byte header record */
  g_assert_cmpuint (r->offset, ==, 72 + 320);

  /* PerfInfo with one PMC value: 8 more header bytes; no tid or pid */
  r = &g_array_index (c.seen, SpsEtlRecord, 2);
  g_assert_cmpint (r->kind, ==, SPS_ETL_RECORD_PERFINFO);
  g_assert_cmpuint (r->group, ==, 15);
  g_assert_cmpuint (r->opcode, ==, 46);
  g_assert_cmpuint (r->version, ==, 2);
  g_assert_cmpuint (r->tid, ==, SPS_ETL_NO_ID);
  g_assert_cmpuint (r->timestamp, ==, 5200);
  g_assert_cmpuint (r->payload_len, ==, 16);
  g_assert_cmpuint (((const guint8 *) r->payload)[0], ==, 0x5a);

  /* EventHeader with two extended items before a 9-byte payload */
  r = &g_array_index (c.seen, SpsEtlRecord, 3);
  g_assert_cmpint (r->kind, ==, SPS_ETL_RECORD_EVENT_HEADER);
  g_assert_cmpuint (r->id, ==, 143);
  g_assert_cmpuint (r->version, ==, 1);
  g_assert_cmpuint (r->level, ==, 4);
  g_assert_cmpuint (r->opcode, ==, 37);
  g_assert_cmpuint (r->tid, ==, 77);
  g_assert_cmpuint (r->pid, ==, 66);
  g_assert_cmpuint (r->pointer_size, ==, 4);
  g_assert_cmpuint (r->extended_len, ==, 40);
  g_assert_cmpuint (r->payload_len, ==, 9);
  g_assert_cmpuint (r->processor, ==, 1);
  g_assert_cmpuint (r->buffer_offset, ==, 1024);
  g_assert_cmpuint (count_of (c.records, "k5 " CLR_RUNTIME " id143 op37 v1"), ==, 1);

  r = &g_array_index (c.seen, SpsEtlRecord, 4);
  g_assert_cmpuint (r->id, ==, 144);
  g_assert_cmpuint (r->payload_len, ==, 0);
  /* 80 + 40 + 9 bytes, padded to 136 */
  g_assert_cmpuint (r->offset, ==, 1024 + 72 + 136);
}

/* Deferred args: a record found again from its cookie gives the text the
 * import would have written; cookies that point nowhere are errors */
static void
test_deferred_args (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsEtlArgs) args = sps_etl_args_new (NULL);
  g_auto(Counts) c = { 0, };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) decoded = g_string_new (NULL);
  g_autoptr(GString) direct = g_string_new (NULL);
  guint64 cookies[5];
  SpsEtlStats stats;
  gsize b;

  g_test_summary ("Each record's args decoded from its cookie equal the import's; a file, a buffer "
                  "or a position that holds no record is an error that leaves the text as it was");

  b = add_buffer (a, 0);
  add_log_header (a, b, 5000);
  add_system (a, b, 3, 1, 4, 11, 22, 5100, 13);
  add_perfinfo (a, b, 0x0102, 15, 46, 5200, 16);
  end_buffer (a, b, 1024);
  b = add_buffer (a, 1);
  add_event_header (a, b, 144, 2, 5400, NULL, 0, 0);
  add_event_header (a, b, 143, 1, 5300, NULL, 0, 9);
  end_buffer (a, b, 512);
  bytes = g_bytes_new (a->data, a->len);

  counts_init (&c);
  g_assert_true (sps_etl_read (a->data, a->len, "hand.etl", &funcs, &c, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.seen->len, ==, 5);
  g_assert_true (sps_etl_args_add_file (args, bytes));
  for (guint i = 0; i < c.seen->len; i++)
    g_assert_true (sps_etl_args_get_cookie (args, &g_array_index (c.seen, SpsEtlRecord, i), &cookies[i]));

  for (guint i = 1; i < c.seen->len; i++)
    {
      g_string_truncate (decoded, 0);
      g_string_truncate (direct, 0);
      g_assert_true (sps_args_decoder_decode (SPS_ARGS_DECODER (args), cookies[i], decoded, &error));
      g_assert_no_error (error);
      sps_etl_events_append_args (direct, &g_array_index (c.seen, SpsEtlRecord, i), NULL);
      g_assert_cmpstr (decoded->str, ==, direct->str);
    }
  /* The system record's 13 bytes: no layout for a process event that short */
  g_string_truncate (decoded, 0);
  g_assert_true (sps_args_decoder_decode (SPS_ARGS_DECODER (args), cookies[1], decoded, NULL));
  g_assert_true (g_str_has_prefix (decoded->str, "{\"payload_size\":13,\"payload_base64\":"));

  /* Cookies: file in bits 54–57, buffer in 23–53, position / 8 in 0–22 */
  g_string_assign (decoded, "kept");
  g_assert_false (sps_args_decoder_decode (SPS_ARGS_DECODER (args), (guint64) 1 << 54, decoded, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_cmpstr (error->message, ==, "The event’s file is not in the trace");
  g_clear_error (&error);
  g_assert_false (sps_args_decoder_decode (SPS_ARGS_DECODER (args), (guint64) 7 << 23, decoded, &error));
  g_assert_cmpstr (error->message, ==, "The event’s buffer is not in the file");
  g_clear_error (&error);
  /* Past the last record of the second buffer */
  g_assert_false (sps_args_decoder_decode (SPS_ARGS_DECODER (args), (guint64) 1 << 23 | 400 / 8, decoded, &error));
  g_assert_cmpstr (error->message, ==, "The event cannot be read again");
  g_clear_error (&error);
  g_assert_cmpstr (decoded->str, ==, "kept");
}

static void
test_damage (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_auto(Counts) cut = { 0, };
  g_auto(Counts) bad = { 0, };
  g_auto(Counts) none = { 0, };
  SpsEtlStats stats;
  g_autoptr(GError) error = NULL;
  gsize b, second;

  g_test_summary ("A file cut inside a buffer keeps its complete records; a record that "
                  "runs past its buffer ends the buffer, not the file; a bad first buffer "
                  "is an error that says where");

  b = add_buffer (a, 0);
  add_log_header (a, b, 5000);
  end_buffer (a, b, 512);
  second = b = add_buffer (a, 0);
  for (guint i = 0; i < 4; i++)
    add_system (a, b, 3, 1, 4, 11, 22, 6000 + i, 24);
  end_buffer (a, b, 512);

  /* Cut in the third record of the second buffer */
  counts_init (&cut);
  g_assert_true (sps_etl_read (a->data, second + 72 + 2 * 56 + 20, "cut.etl", &funcs, &cut,
                               &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_records[SPS_ETL_RECORD_SYSTEM], ==, 1 + 2);
  g_assert_cmpuint (count_of (cut.warnings, "etl-truncated"), ==, 1);
  g_assert_cmpuint (count_of (cut.warnings, "etl-truncated-record"), ==, 1);

  /* The second record claims 4,000 bytes; a third buffer follows */
  b = add_buffer (a, 1);
  add_system (a, b, 3, 2, 4, 11, 22, 7000, 8);
  end_buffer (a, b, 256);
  put_u16 (a, second + 72 + 56 + 4, 4000);
  counts_init (&bad);
  g_assert_true (sps_etl_read (a->data, a->len, "bad.etl", &funcs, &bad, &stats, &error));
  g_assert_cmpuint (stats.n_buffers, ==, 3);
  g_assert_cmpuint (count_of (bad.records, "k0 g3 op1 v4"), ==, 1);
  g_assert_cmpuint (count_of (bad.records, "k0 g3 op2 v4"), ==, 1);
  g_assert_cmpuint (count_of (bad.warnings, "etl-truncated-record"), ==, 1);
  g_assert_cmpstr (g_ptr_array_index (bad.messages, 0), ==,
                   "bad.etl (byte 640): a record runs past the end of its buffer; "
                   "the rest of the buffer is skipped");

  /* A first buffer of 40 bytes */
  put_u32 (a, 0, 40);
  counts_init (&none);
  g_assert_false (sps_etl_read (a->data, a->len, "none.etl", &funcs, &none, &stats, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_cmpstr (error->message, ==,
                   "none.etl (byte 0): not an ETL trace (the first buffer's size is invalid)");
  g_assert_cmpuint (none.n_headers, ==, 0);
}

static void
test_guids (void)
{
  guint8 guid[16];
  g_autofree char *text = NULL;

  g_test_summary ("GUIDs as ETW stores them: text, bytes and back");

  g_assert_true (sps_etl_guid_parse (KERNEL_TRACE_CONTROL, guid));
  /* The first three fields little-endian, the rest as written */
  g_assert_cmphex (guid[0], ==, 0xd7);
  g_assert_cmphex (guid[3], ==, 0xb3);
  g_assert_cmphex (guid[4], ==, 0x54);
  g_assert_cmphex (guid[8], ==, 0x83);
  g_assert_cmphex (guid[15], ==, 0xde);
  text = sps_etl_guid_to_string (guid);
  g_assert_cmpstr (text, ==, KERNEL_TRACE_CONTROL);
  g_assert_true (sps_etl_guid_parse ("b3e675d7-2554-4f18-830b-2762732560de", guid));
  g_assert_false (sps_etl_guid_parse ("{b3e675d7-2554-4f18-830b-2762732560d}", guid));
  g_assert_false (sps_etl_guid_parse ("b3e675d7x2554-4f18-830b-2762732560de", guid));
  g_assert_false (sps_etl_guid_parse ("g3e675d7-2554-4f18-830b-2762732560de", guid));
}

/* A TraceLogging schema item (extended data type 11) for an event @name
 * with the fields of @fields (name, NUL, in-type…, as the schema has
 * them), in @ext; returns its size, 8-byte aligned */
static gsize
tracelogging_item (guint8       *ext,
                   const char   *name,
                   const guint8 *fields,
                   gsize         fields_len)
{
  gsize size = 2 + 1 + strlen (name) + 1 + fields_len;

  memset (ext, 0, 8 + ((size + 7) & ~(gsize) 7));
  ext[2] = 11;
  ext[6] = (guint8) size;
  ext[8] = (guint8) size;
  memcpy (ext + 11, name, strlen (name) + 1);
  memcpy (ext + 11 + strlen (name) + 1, fields, fields_len);
  return 8 + ((size + 7) & ~(gsize) 7);
}

/* The hand-made ETL @a imported as one file; @event_stacks gets how many
 * stack parts the kernel's reading gave events other than samples */
static SpsTrace *
import_hand_made (GByteArray *a,
                  guint64    *event_stacks)
{
  g_autoptr(GBytes) bytes = g_bytes_new (a->data, a->len);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsEtlImport) import = sps_etl_import_new (builder, NULL);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  sps_etl_import_add_clock (import, bytes);
  g_assert_true (sps_etl_import_read (import, bytes, "hand.etl", &error));
  g_assert_no_error (error);
  sps_etl_import_finish (import);
  if (event_stacks != NULL)
    *event_stacks = sps_etl_import_get_kernel (import)->n_event_stacks_attached;
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* TraceLogging events whose fields run past their payload keep the
 * fields before and the rest raw; the import warns once per event type */
static void
test_tracelogging_truncated (void)
{
  /* "N": a u16; "S": a struct of 2 members ("A" int32, "B" counted UTF-16
   * string) in an array counted in the payload */
  static const guint8 fields[] = { 'N', 0, 6, 'S', 0, 0x80 | 0x40 | 24, 2, 'A', 0, 7, 'B', 0, 22 };
  /* N = 7, 2 elements: A = -2, B = "hi"; A = 5, B = "" */
  static const guint8 whole[] = { 7, 0, 2, 0, 0xfe, 0xff, 0xff, 0xff, 4, 0, 'h', 0, 'i', 0,
                                  5, 0, 0, 0, 0, 0 };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint8 ext[64], other[64];
  gsize ext_len, other_len;
  gsize b;

  g_test_summary ("TraceLogging fields by their schema, structs in arrays; a cut payload keeps the fields "
                  "before the cut and the rest as raw bytes, with one warning per event type");

  ext_len = tracelogging_item (ext, "Ev", fields, sizeof fields);
  other_len = tracelogging_item (other, "Other", fields, sizeof fields);
  b = add_buffer (a, 0);
  add_log_header (a, b, 5000);
  add_event_header_of (a, b, TEST_PROVIDER, 1, 0, 5100, ext, ext_len, whole, sizeof whole);
  /* Cut inside the second element's string count, twice; once for Other */
  add_event_header_of (a, b, TEST_PROVIDER, 1, 0, 5200, ext, ext_len, whole, 19);
  add_event_header_of (a, b, TEST_PROVIDER, 1, 0, 5300, ext, ext_len, whole, 19);
  add_event_header_of (a, b, TEST_PROVIDER, 2, 0, 5400, other, other_len, whole, 3);
  end_buffer (a, b, 1024);

  trace = import_hand_made (a, NULL);
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  result = sps_test_sql_query (engine, "SELECT name, args FROM events_raw WHERE provider = '" TEST_PROVIDER "' ORDER BY ts");
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 4);
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 0), ==, TEST_PROVIDER "/Ev/37");
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 1), ==,
                   "{\"N\":7,\"S\":[{\"A\":-2,\"B\":\"hi\"},{\"A\":5,\"B\":\"\"}]}");
  /* S starts at byte 2: its 17 bytes (02 00 fe ff ff ff 04 00 68 00 69 00
   * 05 00 00 00 00) in base64 */
  g_assert_cmpstr (sps_sql_result_get_text (result, 1, 1), ==,
                   "{\"N\":7,\"payload_rest_offset\":2,\"payload_rest_base64\":\"AgD+////BABoAGkABQAAAAA=\"}");
  /* (add_event_header_of() writes opcode 37.) N fits in the 3 bytes, S's count does not */
  g_assert_cmpstr (sps_sql_result_get_text (result, 3, 0), ==, TEST_PROVIDER "/Other/37");
  g_assert_cmpstr (sps_sql_result_get_text (result, 3, 1), ==,
                   "{\"N\":7,\"payload_rest_offset\":2,\"payload_rest_base64\":\"Ag==\"}");
  /* Ev twice and Other once: one warning for each of the two types */
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "etl-event-fields-truncated"), ==, 2);
}

/* A system record with @payload (padded with zeros to @len bytes) */
static void
add_system_payload (GByteArray   *a,
                    gsize         buffer,
                    guint8        group,
                    guint8        opcode,
                    guint64       ts,
                    const guint8 *payload,
                    gsize         payload_len,
                    gsize         len)
{
  gsize at = a->len;

  add_system (a, buffer, group, opcode, 2, 77, 66, ts, len);
  memset (a->data + at + 32, 0, len);
  memcpy (a->data + at + 32, payload, payload_len);
}

/* GCAllocationTick v2 with 4-byte pointers: 100,000 bytes of type "Foo" */
static const guint8 allocation_tick[] = {
  0xa0, 0x86, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0xa0, 0x86, 0x01, 0, 0, 0, 0, 0,
  0x34, 0x12, 0, 0, 'F', 0, 'o', 0, 'o', 0, 0, 0, 0, 0, 0, 0
};

/* Allocations get their stacks: one from the stack item of its extended
 * data (type 5, 32-bit: a u64 match id, then the addresses, leaf first),
 * one from the kernel's stack walk of its time and thread (type 32: the
 * event's timestamp, process, thread, then 64-bit addresses), named in
 * the image "app.dll" loaded at 0x400000 (an image load of the kernel's
 * process group, opcode 10) */
static void
test_allocation_stacks (void)
{
  static const guint8 ext_item[8 + 8 + 8] = {
    0, 0, 5, 0, 0, 0, 16, 0,  1, 0, 0, 0, 0, 0, 0, 0,
    0x10, 0x00, 0x40, 0x00,  0x99, 0x99, 0x00, 0x00,
  };
  /* ImageBase, ImageSize, ProcessId, three u32, DefaultBase, four u32, FileName */
  guint8 image[8 + 8 + 4 + 12 + 8 + 16 + 16] = { 0, };
  guint8 walk[16 + 3 * 8] = { 0, };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint64 event_stacks = 0;
#define PATH_SQL(birth) \
    "WITH RECURSIVE c(id, depth) AS (" \
    " SELECT callsite_id, 0 FROM allocations WHERE birth_ts = " birth \
    " UNION ALL SELECT cs.parent_id, c.depth + 1 FROM callsites cs JOIN c ON cs.id = c.id" \
    " WHERE cs.parent_id IS NOT NULL)" \
    " SELECT group_concat(f.name, ' < ') FROM (SELECT f.name FROM c JOIN callsites cs ON cs.id = c.id" \
    " JOIN frames f ON f.id = cs.frame_id ORDER BY c.depth) f"
  gsize b;

  g_test_summary ("GCAllocationTick allocations get the stack of their extended data or of the kernel's "
                  "stack walk of their time and thread, with frames named in the loaded images");

  /* app.dll at 0x400000, 0x10000 bytes, in process 66 */
  image[2] = 0x40;
  image[9] = 0x01;
  image[16] = 66;
  memcpy (image + 8 + 8 + 4 + 12 + 8 + 16, "a\0p\0p\0.\0d\0l\0l\0\0\0", 16);
  /* Ticks 5,200, process 66, thread 77: 0x400020 (leaf), 0x400030, 0x7777 */
  walk[0] = 5200 & 0xff;
  walk[1] = 5200 >> 8;
  walk[8] = 66;
  walk[12] = 77;
  walk[16] = 0x20, walk[17] = 0, walk[18] = 0x40;
  walk[24] = 0x30, walk[25] = 0, walk[26] = 0x40;
  walk[32] = 0x77, walk[33] = 0x77;

  b = add_buffer (a, 0);
  add_log_header (a, b, 5000);
  add_system_payload (a, b, 3, 10, 5050, image, sizeof image, sizeof image);
  add_event_header_of (a, b, CLR_RUNTIME, 10, 2, 5100, ext_item, sizeof ext_item,
                       allocation_tick, sizeof allocation_tick);
  add_event_header_of (a, b, CLR_RUNTIME, 10, 2, 5200, NULL, 0, allocation_tick, sizeof allocation_tick);
  add_system_payload (a, b, 24, 32, 5201, walk, sizeof walk, sizeof walk);
  /* One more tick whose time no stack walk has */
  add_event_header_of (a, b, CLR_RUNTIME, 10, 2, 5300, NULL, 0, allocation_tick, sizeof allocation_tick);
  end_buffer (a, b, 2048);

  trace = import_hand_made (a, &event_stacks);
  g_assert_cmpuint (event_stacks, ==, 2);
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);

  /* Ticks of a 1 MHz clock from 5,000: 100 µs and 200 µs */
  result = sps_test_sql_query (engine, "SELECT birth_ts, size, type, certainty, callsite_id IS NOT NULL "
                                       "FROM allocations ORDER BY birth_ts");
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 3);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 0), ==, 100000);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 1), ==, 100000);
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 2), ==, "Foo");
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 3), ==, "sampled");
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 4), ==, 1);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 1, 4), ==, 1);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 2, 4), ==, 0);
  g_clear_pointer (&result, g_object_unref);

  /* Leaf first: app.dll's 0x10 and an address outside every image */
  result = sps_test_sql_query (engine, PATH_SQL ("100000"));
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 0), ==, "app.dll!+0x10 < 0x9999");
  g_clear_pointer (&result, g_object_unref);
  result = sps_test_sql_query (engine, PATH_SQL ("200000"));
  g_assert_cmpstr (sps_sql_result_get_text (result, 0, 0), ==, "app.dll!+0x20 < app.dll!+0x30 < 0x7777");
#undef PATH_SQL
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/reader/diaghub/classic", test_diaghub_classic);
  g_test_add_func ("/etl/reader/diaghub/kernel", test_diaghub_kernel);
  g_test_add_func ("/etl/reader/diaghub/user", test_diaghub_user);
  g_test_add_func ("/etl/reader/clr-small", test_clr_small);
  g_test_add_func ("/etl/reader/compressed-without-expander", test_compressed_without_expander);
  g_test_add_func ("/etl/reader/hand-made", test_hand_made);
  g_test_add_func ("/etl/reader/damage", test_damage);
  g_test_add_func ("/etl/reader/deferred-args", test_deferred_args);
  g_test_add_func ("/etl/reader/guids", test_guids);
  g_test_add_func ("/etl/reader/tracelogging-truncated", test_tracelogging_truncated);
  g_test_add_func ("/etl/reader/allocation-stacks", test_allocation_stacks);

  return g_test_run ();
}
