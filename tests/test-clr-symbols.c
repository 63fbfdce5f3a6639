/* test-clr-symbols.c: managed method names from the runtime's events in an ETL
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * PerfView's CLR rundown ETL (../shared/fixtures/diagsession) holds 80
 * MethodDCEndVerbose and the module events of a .NET process: the same
 * payloads as in a .nettrace, read by the code both importers share.
 */

#include "config.h"

#include <string.h>

#include "sps-clr-symbols.h"
#include "sps-etl-reader.h"
#include "sps-ms-events.h"
#include "sps-ms-type-name.h"
#include "sps-mstrace-bytes.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"

typedef struct
{
  SpsClrSymbols *symbols;
  guint8         runtime[16];
  guint8         rundown[16];
  GArray        *starts;     /* guint64: each method's start, in file order */
  GArray        *sizes;      /* guint32 */
  guint          n_modules;
} Reading;

static void
on_record (const SpsEtlRecord *r,
           gpointer            user_data)
{
  Reading *reading = user_data;
  SpsClrProvider provider;

  if (r->provider == NULL)
    return;
  if (memcmp (r->provider, reading->rundown, 16) == 0)
    provider = SPS_CLR_PROVIDER_RUNDOWN;
  else if (memcmp (r->provider, reading->runtime, 16) == 0)
    provider = SPS_CLR_PROVIDER_RUNTIME;
  else
    return;

  if (!sps_clr_symbols_add_event (reading->symbols, provider, r->id, r->payload, r->payload_len))
    return;
  if (sps_clr_event_kind (provider, r->id) == SPS_CLR_EVENT_METHOD)
    {
      guint64 start = sps_ms_read_u64 (r->payload + 16);
      guint32 size = sps_ms_read_u32 (r->payload + 24);

      g_array_append_val (reading->starts, start);
      g_array_append_val (reading->sizes, size);
    }
  else
    reading->n_modules++;
}

static void
test_rundown_names (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__gcrundownevents.etl.zip",
                                                      "gcrundownevents/PerfViewData.clrRundown.etl");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsClrSymbols) symbols = sps_clr_symbols_new (builder);
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  Reading reading = { symbols, { 0, }, { 0, }, starts, sizes, 0 };
  const SpsEtlReaderFuncs funcs = { NULL, on_record, NULL, NULL };
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  SpsEtlStats stats;
  guint64 first;
  guint32 frame;
  const SpsFrameTable *frames;

  g_test_summary ("Method and module events of the CLR rundown, in ETL form: 80 methods "
                  "named module!Namespace.Method(params), looked up by IP");
  if (etl == NULL)
    return;

  g_assert_true (sps_etl_guid_parse ("{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}", reading.runtime));
  g_assert_true (sps_etl_guid_parse ("{a669021c-c450-4609-a035-5af59af4df18}", reading.rundown));
  g_assert_true (sps_etl_read (g_bytes_get_data (etl, NULL), g_bytes_get_size (etl), "rundown.etl",
                               &funcs, &reading, &stats, &error));
  g_assert_no_error (error);

  /* 77 MethodDCEndVerbose v1 and 3 v2; 7 ModuleDCEnd and 7 DomainModuleDCEnd */
  g_assert_cmpuint (sps_clr_symbols_get_n_methods (symbols), ==, 80);
  g_assert_cmpuint (starts->len, ==, 80);
  g_assert_cmpuint (reading.n_modules, ==, 14);

  sps_clr_symbols_seal (symbols);
  first = g_array_index (starts, guint64, 0);
  g_assert_cmphex (first, ==, 0x7ffb48740040);
  frame = sps_clr_symbols_frame (symbols, first);
  g_assert_cmpuint (frame, !=, SPS_NO_INDEX);
  /* Inside the same method: the same frame; one byte before its start: not it */
  g_assert_cmpuint (sps_clr_symbols_frame (symbols, first + g_array_index (sizes, guint32, 0) - 1), ==, frame);
  g_assert_cmpuint (sps_clr_symbols_frame (symbols, first - 1), !=, frame);
  g_assert_cmpuint (sps_clr_symbols_frame (symbols, 0x1000), ==, SPS_NO_INDEX);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  frames = sps_trace_get_frames (trace);
  g_assert_cmpuint (frames->n_rows, >=, 1);
  g_assert_cmpstr (sps_trace_get_string (trace, frames->name[frame]), ==,
                   "System.Private.CoreLib!dynamicClass.InvokeStub_EventAttribute.set_Level"
                   "(class System.Object,class System.Object,int*)");
  g_assert_cmpuint (frames->address[frame], ==, first);
}

/* Payload values as JSON: integers of every width at their extremes,
 * written without printf */
static void
test_append_values (void)
{
  static const guint8 payload[] = {
    0x80,                                             /* int8 -128 */
    0xff,                                             /* uint8 255 */
    0x00, 0x80,                                       /* int16 -32768 */
    0xff, 0xff, 0xff, 0xff,                           /* uint32 4294967295 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,   /* int64 min */
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,   /* uint64 max */
    0x00, 0x00, 0x00, 0x00,                           /* int32 0 */
  };
  static const SpsMsField fields[] = {
    { "a", SPS_MS_TYPE_INT8 }, { "b", SPS_MS_TYPE_UINT8 }, { "c", SPS_MS_TYPE_INT16 },
    { "d", SPS_MS_TYPE_UINT32 }, { "e", SPS_MS_TYPE_INT64 }, { "f", SPS_MS_TYPE_UINT64 },
    { "g", SPS_MS_TYPE_INT32 },
  };
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_true (sps_ms_append_fields (out, fields, G_N_ELEMENTS (fields), 8, payload, sizeof payload));
  g_assert_cmpstr (out->str, ==,
                   "{\"a\":-128,\"b\":255,\"c\":-32768,\"d\":4294967295,"
                   "\"e\":-9223372036854775808,\"f\":18446744073709551615,\"g\":0}");

  g_string_truncate (out, 0);
  sps_ms_append_raw_payload (out, payload, 3);
  g_assert_cmpstr (out->str, ==, "{\"payload_size\":3,\"payload_base64\":\"gP8A\"}");
}

/* Reflection's type names as C# writes them */
static void
test_type_display_names (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "System.String", "System.String" },
    { "System.Collections.Generic.Dictionary`2", "System.Collections.Generic.Dictionary" },
    { "System.Collections.Generic.Dictionary`2[System.String,System.Object]",
      "System.Collections.Generic.Dictionary<System.String, System.Object>" },
    { "System.Collections.Generic.List`1[System.WeakReference`1[System.Diagnostics.Tracing.EventSource]]",
      "System.Collections.Generic.List<System.WeakReference<System.Diagnostics.Tracing.EventSource>>" },
    { "System.WeakReference`1[System.Diagnostics.Tracing.EventSource][]",
      "System.WeakReference<System.Diagnostics.Tracing.EventSource>[]" },
    { "System.Collections.Generic.List`1[[System.String, System.Private.CoreLib, Version=5.0.0.0]]",
      "System.Collections.Generic.List<System.String>" },
    { "System.Int32[,][]", "System.Int32[,][]" },
    { "Outer+Inner", "Outer.Inner" },
    /* Not well formed: kept as written */
    { "Broken`1[System.String", "Broken`1[System.String" },
    { "Bad[x]y", "Bad[x]y" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = sps_ms_type_display_name (cases[i].in);

      g_assert_cmpstr (name, ==, cases[i].out);
    }
}

/* A MethodLoadVerbose payload: ids, start, size, token, flags, then
 * namespace, name and signature in UTF-16LE */
static GByteArray *
method_payload (guint64     start,
                guint32     size,
                const char *name,
                const char *signature)
{
  GByteArray *p = g_byte_array_new ();
  const char *strings[] = { "N", name, signature };
  guint8 head[36] = { 0 };

  for (guint i = 0; i < 8; i++)
    {
      head[8 + i] = (guint8) ((guint64) 0x5000 >> (8 * i));
      head[16 + i] = (guint8) (start >> (8 * i));
    }
  for (guint i = 0; i < 4; i++)
    head[24 + i] = (guint8) (size >> (8 * i));
  g_byte_array_append (p, head, sizeof head);
  for (guint s = 0; s < G_N_ELEMENTS (strings); s++)
    for (const char *c = strings[s]; ; c++)
      {
        guint8 unit[2] = { (guint8) *c, 0 };

        g_byte_array_append (p, unit, 2);
        if (*c == '\0')
          break;
      }
  return p;
}

static void
add_method (SpsClrSymbols *symbols,
            guint64        start,
            guint32        size,
            const char    *name)
{
  g_autoptr(GByteArray) p = method_payload (start, size, name, "void  (int32)");

  g_assert_true (sps_clr_symbols_add_method (symbols, p->data, p->len));
}

static const char *
frame_name (SpsTrace *trace,
            guint32   frame)
{
  return sps_trace_get_string (trace, sps_trace_get_frames (trace)->name[frame]);
}

/* A method listed again as the last one at its address is kept once; a
 * lookup still finds the method listed last at an address */
static void
test_repeated_methods (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsClrSymbols) symbols = sps_clr_symbols_new (builder);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint32 at_a, at_b;

  g_test_summary ("The same method listed again (load, rundown) is kept once; another "
                  "method at its address in between keeps the last listed one found");

  /* A at 0x1000, listed three times; B at 0x2000, then C replacing it
   * there, then B again: B is the last one at 0x2000 */
  add_method (symbols, 0x1000, 0x100, "A");
  add_method (symbols, 0x2000, 0x100, "B");
  add_method (symbols, 0x1000, 0x100, "A");
  add_method (symbols, 0x2000, 0x100, "C");
  add_method (symbols, 0x1000, 0x100, "A");
  add_method (symbols, 0x2000, 0x100, "B");
  add_method (symbols, 0x2000, 0x100, "B");
  /* Other bytes, the same name: the signature's return type is not in it */
  {
    g_autoptr(GByteArray) p = method_payload (0x2000, 0x100, "B", "int64  (int32)");

    g_assert_true (sps_clr_symbols_add_method (symbols, p->data, p->len));
  }
  g_assert_cmpuint (sps_clr_symbols_get_n_methods (symbols), ==, 4);
  /* The same start with another size is another method */
  add_method (symbols, 0x1000, 0x80, "A");
  g_assert_cmpuint (sps_clr_symbols_get_n_methods (symbols), ==, 5);

  sps_clr_symbols_seal (symbols);
  at_a = sps_clr_symbols_frame (symbols, 0x10ff);
  at_b = sps_clr_symbols_frame (symbols, 0x2010);
  g_assert_cmpuint (sps_clr_symbols_frame (symbols, 0x1000), ==, at_a);
  g_assert_cmpuint (sps_clr_symbols_frame (symbols, 0x2100), ==, SPS_NO_INDEX);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (frame_name (trace, at_a), ==, "?!N.A(int32)");
  g_assert_cmpstr (frame_name (trace, at_b), ==, "?!N.B(int32)");
}

/* The UTF-16 strings of payloads: the ASCII ones narrowed directly, the
 * others converted by GLib, each against g_utf16_to_utf8() of the same
 * units (which stops at a NUL unit and refuses a lone surrogate) */
static void
test_utf16 (void)
{
  static const gunichar2 cases[][8] = {
    { 'S', 'y', 's', 't', 'e', 'm', '.', 'X' },    /* ASCII, no NUL */
    { 'a', 'b', 0, 'c', 0xe9, 'd', 0, 0 },          /* NUL before non-ASCII */
    { 'n', 0xe9, 'e', 0, 0, 0, 0, 0 },              /* Latin-1 */
    { 0x7f, 0x80, 0x20ac, 0x4e2d, 0, 0, 0, 0 },     /* the boundary, €, 中 */
    { 'x', 0xd83d, 0xde00, 'y', 0, 0, 0, 0 },       /* a surrogate pair */
    { 'x', 0xd83d, 'y', 0, 0, 0, 0, 0 },            /* a lone high surrogate */
    { 0xdc00, 'a', 0, 0, 0, 0, 0, 0 },              /* a lone low surrogate */
    { 0, 'a', 'b', 0, 0, 0, 0, 0 },                 /* empty */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      guint8 bytes[16];
      const guint8 *pos = bytes;
      gsize nul = 0;
      g_autofree char *read = NULL;
      g_autofree char *before_nul = NULL;

      for (gsize i = 0; i < 8; i++)
        {
          bytes[2 * i] = cases[c][i] & 0xff;
          bytes[2 * i + 1] = cases[c][i] >> 8;
        }
      for (gsize n = 0; n <= 8; n++)
        {
          g_autofree char *expected = g_utf16_to_utf8 (cases[c], (glong) n, NULL, NULL, NULL);
          g_autofree char *got = sps_ms_dup_utf16 (bytes, n);

          g_assert_cmpstr (got, ==, expected);
        }

      /* Up to the terminator */
      while (nul < 8 && cases[c][nul] != 0)
        nul++;
      if (nul == 8)
        continue;
      before_nul = g_utf16_to_utf8 (cases[c], (glong) nul, NULL, NULL, NULL);
      read = sps_clr_read_utf16z (&pos, bytes + sizeof bytes);
      g_assert_cmpstr (read, ==, before_nul);
      g_assert_true (pos == bytes + 2 * nul + 2);
    }
  /* No terminator before the end */
  {
    static const guint8 unterminated[] = { 'a', 0, 'b', 0, 'c' };
    const guint8 *pos = unterminated;

    g_assert_null (sps_clr_read_utf16z (&pos, unterminated + sizeof unterminated));
    g_assert_true (pos == unterminated);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mstrace/clr-symbols/rundown-names", test_rundown_names);
  g_test_add_func ("/mstrace/clr-symbols/repeated-methods", test_repeated_methods);
  g_test_add_func ("/mstrace/events/append-values", test_append_values);
  g_test_add_func ("/mstrace/type-names/display", test_type_display_names);
  g_test_add_func ("/mstrace/utf16/against-glib", test_utf16);

  return g_test_run ();
}
