/* test-etl-fields.c: payloads decoded by EventSource manifests' templates and TraceLogging schemas
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hand-made manifests and schemas, with payloads written byte by byte
 * here; every expected value is read off those bytes (little-endian).
 */

#include "config.h"

#include <string.h>

#include "sps-etl-events.h"
#include "sps-etl-fields.h"
#include "sps-etl-manifest.h"

/* A one-chunk ManifestData payload holding @xml */
static GByteArray *
manifest_payload (const char *xml)
{
  GByteArray *out = g_byte_array_new ();
  static const guint8 envelope[8] = { 1, 1, 0, 0x5b, 1, 0, 0, 0 };

  g_byte_array_append (out, envelope, sizeof envelope);
  g_byte_array_append (out, (const guint8 *) xml, (guint) strlen (xml));
  return out;
}

static const char manifest_xml[] =
  "<instrumentationManifest><instrumentation><events><provider name=\"P\" guid=\"{0badf00d-1234-4321-8888-0123456789ab}\">"
  "<events>"
  "<event value=\"1\" version=\"0\" task=\"T1\" template=\"A\"/>"
  "<event value=\"2\" version=\"0\" task=\"T2\" template=\"B\"/>"
  "<event value=\"3\" task=\"T3\" template=\"C\"/>"
  "<event value=\"4\" task=\"T4\" template=\"D\"/>"
  "<event value=\"5\" task=\"T5\"/>"
  "</events><templates>"
  "<template tid=\"A\">"
  "<data name=\"Count\" inType=\"win:UInt16\"/>"
  "<data name=\"Values\" inType=\"win:Int32\" count=\"Count\"/>"
  "<data name=\"Size\" inType=\"win:UInt32\"/>"
  "<data name=\"Blob\" inType=\"win:Binary\" length=\"Size\"/>"
  "<data name=\"Name\" inType=\"win:AnsiString\"/>"
  "<data name=\"Fixed\" inType=\"win:UnicodeString\" length=\"3\"/>"
  "<data name=\"When\" inType=\"win:FILETIME\"/>"
  "<data name=\"Ok\" inType=\"win:Boolean\"/>"
  "<data name=\"Ptr\" inType=\"win:Pointer\"/>"
  "</template>"
  "<template tid=\"B\"><data name=\"X\" inType=\"win:Double\"/><data name=\"Odd\" inType=\"win:Unknown\"/>"
  "<data name=\"Y\" inType=\"win:Int8\"/></template>"
  "<template tid=\"C\"><data name=\"S\" inType=\"win:UnicodeString\"/><data name=\"G\" inType=\"win:GUID\"/></template>"
  "<template tid=\"D\"><data name=\"V\" inType=\"win:Int32\" count=\"Later\"/><data name=\"Later\" inType=\"win:UInt16\"/></template>"
  "</templates></provider></events></instrumentation></instrumentationManifest>";

/* Payloads of the manifest's events 1 – 3:
 * - 1: Count 2; Values -1, 300; Size 3; Blob ab cd ef; Name "ok"; Fixed
 *   "xyz" (3 UTF-16 units, no terminator); When 116444736000000000 (the
 *   Unix epoch as a FILETIME); Ok 1; Ptr 0x1234 (4-byte pointers)
 * - 2: X 1.5, then two bytes no field describes
 * - 3: S "ab", then 4 of the GUID's 16 bytes */
static const guint8 event1[] = { 2, 0, 0xff, 0xff, 0xff, 0xff, 0x2c, 1, 0, 0, 3, 0, 0, 0, 0xab, 0xcd, 0xef,
                            'o', 'k', 0, 'x', 0, 'y', 0, 'z', 0,
                            0x00, 0x80, 0x3e, 0xd5, 0xde, 0xb1, 0x9d, 0x01, 1, 0, 0, 0, 0x34, 0x12, 0, 0 };
static const guint8 event2[] = { 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 9, 8 };
static const guint8 event3[] = { 'a', 0, 'b', 0, 0, 0, 1, 2, 3, 4 };

/* Appends @layout's decoding of @payload to a new string; the walk over
 * the sizes alone (what the import checks) must say the same */
static char *
decode (SpsEtlLayout       *layout,
        guint               pointer_size,
        const guint8       *payload,
        gsize               len,
        SpsEtlFieldsStatus  expected)
{
  GString *out = g_string_new (NULL);

  g_assert_cmpint (sps_etl_layout_append (layout, out, pointer_size, payload, len), ==, expected);
  g_assert_cmpint (sps_etl_layout_check (layout, pointer_size, payload, len), ==, expected);
  return g_string_free (out, FALSE);
}

/* Every prefix of @payload shorter than @fits bytes is PARTIAL for both
 * the decoding and the walk, the first @fits bytes and more COMPLETE */
static void
check_prefixes (SpsEtlLayout *layout,
                guint         pointer_size,
                const guint8 *payload,
                gsize         len,
                gsize         fits)
{
  for (gsize n = 0; n <= len; n++)
    {
      g_autofree char *text = decode (layout, pointer_size, payload, n,
                                      n < fits ? SPS_ETL_FIELDS_PARTIAL : SPS_ETL_FIELDS_COMPLETE);
    }
}

static void
test_manifest_templates (void)
{
  g_autoptr(SpsEtlManifest) manifest = sps_etl_manifest_new ();
  g_autoptr(GByteArray) chunk = manifest_payload (manifest_xml);
  g_autoptr(GHashTable) layouts = NULL;
  g_autofree char *text_a = NULL;
  g_autofree char *text_b = NULL;
  g_autofree char *text_c = NULL;
  g_autofree char *text_d = NULL;

  g_test_summary ("An EventSource manifest's templates: counted arrays, a binary sized by the field before "
                  "it (not shown, as TraceEvent shows it), fixed-length text, times; an unknown in-type "
                  "ends the template; a cut payload keeps the fields before the cut");

  g_assert_true (sps_etl_manifest_add_chunk (manifest, chunk->data, chunk->len));
  layouts = sps_etl_manifest_ref_layouts (manifest);
  /* Event 5 has no template; D's count names a later field, so its
   * template ends before that field */
  g_assert_cmpuint (g_hash_table_size (layouts), ==, 4);
  g_assert_null (g_hash_table_lookup (layouts, GUINT_TO_POINTER (5)));

  text_a = decode (g_hash_table_lookup (layouts, GUINT_TO_POINTER (1)), 4, event1, sizeof event1, SPS_ETL_FIELDS_COMPLETE);
  /* Its last field, the pointer, takes the last 4 bytes: one short is a
   * cut, and so is each shorter prefix */
  check_prefixes (g_hash_table_lookup (layouts, GUINT_TO_POINTER (1)), 4, event1, sizeof event1, sizeof event1);
  g_assert_cmpstr (text_a, ==, "{\"Count\":2,\"Values\":[-1,300],\"Blob\":\"abcdef\",\"Name\":\"ok\",\"Fixed\":\"xyz\","
                               "\"When\":\"1970-01-01T00:00:00.0000000Z\",\"Ok\":true,\"Ptr\":4660}");
  /* 09 08 in base64 is CQg= */
  text_b = decode (g_hash_table_lookup (layouts, GUINT_TO_POINTER (2)), 8, event2, sizeof event2, SPS_ETL_FIELDS_COMPLETE);
  g_assert_cmpstr (text_b, ==, "{\"X\":1.5,\"payload_rest_offset\":8,\"payload_rest_base64\":\"CQg=\"}");
  /* 01 02 03 04 is AQIDBA== */
  text_c = decode (g_hash_table_lookup (layouts, GUINT_TO_POINTER (3)), 8, event3, sizeof event3, SPS_ETL_FIELDS_PARTIAL);
  g_assert_cmpstr (text_c, ==, "{\"S\":\"ab\",\"payload_rest_offset\":6,\"payload_rest_base64\":\"AQIDBA==\"}");
  text_d = decode (g_hash_table_lookup (layouts, GUINT_TO_POINTER (4)), 8, event3, 3, SPS_ETL_FIELDS_COMPLETE);
  g_assert_cmpstr (text_d, ==, "{\"payload_rest_offset\":0,\"payload_rest_base64\":\"YQBi\"}");
}

/* An EventHeader record of the manifest's provider {0badf00d-…} */
static SpsEtlRecord
manifest_record (guint16       id,
                 guint         pointer_size,
                 const guint8 *payload,
                 gsize         len)
{
  static const guint8 guid[16] = { 0x0d, 0xf0, 0xad, 0x0b, 0x34, 0x12, 0x21, 0x43,
                                   0x88, 0x88, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab };
  SpsEtlRecord r = { 0, };

  r.kind = SPS_ETL_RECORD_EVENT_HEADER;
  r.pointer_size = pointer_size;
  r.provider = guid;
  r.id = id;
  r.payload = payload;
  r.payload_len = len;
  return r;
}

/* What the import's check says of a record equals what its decoding
 * returns, and is @expected */
static void
check_record (const SpsEtlRecord *r,
              GHashTable         *layouts,
              SpsEtlFieldsStatus  expected)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) scratch = g_string_new (NULL);

  g_assert_cmpint (sps_etl_events_append_args (out, r, layouts), ==, expected);
  g_assert_cmpint (sps_etl_events_check_args (r, layouts, scratch), ==, expected);
  /* The walk writes nothing */
  if (g_hash_table_lookup (layouts, GUINT_TO_POINTER ((guint) r->id)) != NULL)
    g_assert_cmpuint (scratch->len, ==, 0);
}

/* The import checks whether each event of an EventSource's manifest fits
 * its payload by walking the sizes of its fields: the same answer as
 * decoding the event, for whole events, cut ones and ids the manifest
 * does not describe. */
static void
test_manifest_event_check (void)
{
  g_autoptr(SpsEtlManifest) manifest = sps_etl_manifest_new ();
  g_autoptr(GByteArray) chunk = manifest_payload (manifest_xml);
  g_autoptr(GHashTable) layouts = NULL;
  SpsEtlRecord r;

  g_test_summary ("Manifest events: the size walk the import uses and the decoding agree, "
                  "on whole payloads, every cut of one, and ids without a template");

  g_assert_true (sps_etl_manifest_add_chunk (manifest, chunk->data, chunk->len));
  layouts = sps_etl_manifest_ref_layouts (manifest);

  /* Event 1 fits exactly in its 42 bytes; every shorter prefix is cut */
  for (gsize n = 0; n <= sizeof event1; n++)
    {
      r = manifest_record (1, 4, event1, n);
      check_record (&r, layouts, n == sizeof event1 ? SPS_ETL_FIELDS_COMPLETE : SPS_ETL_FIELDS_PARTIAL);
    }
  /* Event 2: bytes no field describes are not a cut */
  r = manifest_record (2, 8, event2, sizeof event2);
  check_record (&r, layouts, SPS_ETL_FIELDS_COMPLETE);
  /* Event 3: the GUID has 4 of its 16 bytes */
  r = manifest_record (3, 8, event3, sizeof event3);
  check_record (&r, layouts, SPS_ETL_FIELDS_PARTIAL);
  /* Event 5 has no template, 6 is not in the manifest: raw bytes, whole */
  r = manifest_record (5, 8, event3, sizeof event3);
  check_record (&r, layouts, SPS_ETL_FIELDS_COMPLETE);
  r = manifest_record (6, 8, event3, sizeof event3);
  check_record (&r, layouts, SPS_ETL_FIELDS_COMPLETE);
}

/* A TraceLogging schema: size, one tag byte 0, the name, then @fields */
static GByteArray *
schema (const char   *name,
        const guint8 *fields,
        gsize         len)
{
  GByteArray *out = g_byte_array_new ();
  guint16 size = (guint16) (2 + 1 + strlen (name) + 1 + len);
  guint8 head[3] = { size & 0xff, size >> 8, 0 };

  g_byte_array_append (out, head, 3);
  g_byte_array_append (out, (const guint8 *) name, (guint) strlen (name) + 1);
  g_byte_array_append (out, fields, (guint) len);
  return out;
}

static void
test_tracelogging_schema (void)
{
  /* "C": 3 uint8 with the boolean out-type, constant count 3 in the schema;
   * "T": a counted ANSI string; "H": a hex int64; "Z": a SID */
  static const guint8 fields[] = { 'C', 0, 0x80 | 0x20 | 4, 3, 3, 0, 'T', 0, 23, 'H', 0, 21, 'Z', 0, 19 };
  /* 1 0 7; "abc"; 0x10; S-1-5-32-544 (revision 1, 2 sub-authorities,
   * authority 5, then 32 and 544) */
  static const guint8 payload[] = { 1, 0, 7, 3, 0, 'a', 'b', 'c', 0x10, 0, 0, 0, 0, 0, 0, 0,
                                    1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0 };
  /* "E": a struct of no members in a payload-counted array */
  static const guint8 empty[] = { 'E', 0, 0x80 | 0x40 | 24, 0 };
  static const guint8 many[] = { 0xff, 0xff };
  /* A struct of 3 members with only one after it */
  static const guint8 short_struct[] = { 'S', 0, 0x80 | 24, 3, 'A', 0, 7 };
  g_autoptr(GByteArray) s1 = schema ("One", fields, sizeof fields);
  g_autoptr(GByteArray) s2 = schema ("Two", empty, sizeof empty);
  g_autoptr(GByteArray) s3 = schema ("Three", short_struct, sizeof short_struct);
  g_autoptr(SpsEtlLayout) l1 = NULL;
  g_autoptr(SpsEtlLayout) l2 = NULL;
  g_autofree char *name = NULL;
  g_autofree char *name3 = NULL;
  g_autofree char *text1 = NULL;
  g_autofree char *text2 = NULL;

  g_test_summary ("TraceLogging schemas: constant-count arrays, out-types, counted strings, SIDs; "
                  "elements of no bytes stop at the text limit; a struct whose members are missing is refused");

  l1 = sps_etl_layout_new_tracelogging (s1->data, s1->len, &name);
  g_assert_nonnull (l1);
  g_assert_cmpstr (name, ==, "One");
  text1 = decode (l1, 8, payload, sizeof payload, SPS_ETL_FIELDS_COMPLETE);
  g_assert_cmpstr (text1, ==, "{\"C\":[true,false,true],\"T\":\"abc\",\"H\":16,\"Z\":\"S-1-5-32-544\"}");

  /* 65,535 empty objects would be 196 KB of text for 2 bytes: kept raw
   * (ff ff is //8=) */
  l2 = sps_etl_layout_new_tracelogging (s2->data, s2->len, NULL);
  g_assert_nonnull (l2);
  text2 = decode (l2, 8, many, sizeof many, SPS_ETL_FIELDS_PARTIAL);
  g_assert_cmpstr (text2, ==, "{\"payload_rest_offset\":0,\"payload_rest_base64\":\"//8=\"}");

  g_assert_null (sps_etl_layout_new_tracelogging (s3->data, s3->len, &name3));
  g_assert_cmpstr (name3, ==, "Three");
  /* Shorter than its head, or a name without its end */
  g_assert_null (sps_etl_layout_new_tracelogging (s1->data, 2, NULL));
  g_assert_null (sps_etl_layout_new_tracelogging (s1->data, 5, NULL));
}

/* The import's check walks the sizes without decoding: for payloads that
 * fit exactly, that are one byte short, whose nested structs have more or
 * fewer elements than their count says, or whose text is not UTF-16, it
 * says what the decoding says */
static void
test_size_walk (void)
{
  /* "N" uint16; "S" an array (u16 count in the payload) of a struct of
   * "A" int32 and "I", a struct of "B", two uint8 (a count of 2 in the
   * schema); "W" an array (u16 count in the payload) of NUL-terminated
   * UTF-16 strings */
  static const guint8 fields[] = { 'N', 0, 6,
                                   'S', 0, 0x80 | 0x40 | 24, 2,
                                   'A', 0, 7,
                                   'I', 0, 0x80 | 24, 1,
                                   'B', 0, 0x80 | 0x20 | 4, 0, 2, 0,
                                   'W', 0, 0x40 | 1 };
  /* N 7; S of 2: (A 1, B 5 6), (A -1, B 0 1); W of 1: "hi" — 24 bytes,
   * the last the high byte of the terminator */
  static const guint8 payload[] = { 7, 0, 2, 0,
                                    1, 0, 0, 0, 5, 6,
                                    0xff, 0xff, 0xff, 0xff, 0, 1,
                                    1, 0, 'h', 0, 'i', 0, 0, 0 };
  /* The same with S counting 4 structs, then 1 */
  static const guint8 four[] = { 7, 0, 4, 0,
                                  1, 0, 0, 0, 5, 6,
                                  0xff, 0xff, 0xff, 0xff, 0, 1,
                                  1, 0, 'h', 0, 'i', 0, 0, 0 };
  static const guint8 one[] = { 7, 0, 1, 0,
                                1, 0, 0, 0, 5, 6,
                                0xff, 0xff, 0xff, 0xff, 0, 1,
                                1, 0, 'h', 0, 'i', 0, 0, 0 };
  /* "h" then a high surrogate (d800) with no low one after it */
  static const guint8 lone[] = { 7, 0, 0, 0, 1, 0, 'h', 0, 0x00, 0xd8, 0, 0 };
  /* The same place with a pair (d83d de00, U+1F600) */
  static const guint8 pair[] = { 7, 0, 0, 0, 1, 0, 0x3d, 0xd8, 0x00, 0xde, 0, 0 };
  g_autoptr(GByteArray) s = schema ("Nest", fields, sizeof fields);
  g_autoptr(SpsEtlLayout) layout = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_four = NULL;
  g_autofree char *text_one = NULL;
  g_autofree char *text_lone = NULL;
  g_autofree char *text_pair = NULL;

  g_test_summary ("The size walk the import runs agrees with the decoding: exact fit, one byte short "
                  "and every shorter prefix, nested struct counts, a count in the payload, invalid UTF-16");

  layout = sps_etl_layout_new_tracelogging (s->data, s->len, NULL);
  g_assert_nonnull (layout);
  text = decode (layout, 8, payload, sizeof payload, SPS_ETL_FIELDS_COMPLETE);
  g_assert_cmpstr (text, ==, "{\"N\":7,\"S\":[{\"A\":1,\"I\":{\"B\":[5,6]}},{\"A\":-1,\"I\":{\"B\":[0,1]}}],"
                             "\"W\":[\"hi\"]}");
  check_prefixes (layout, 8, payload, sizeof payload, sizeof payload);

  /* The third struct is read from W's bytes (A from 01 00 68 00, B from
   * 69 00), the fourth has 2 of its 6 bytes: S is kept raw from byte 2 */
  text_four = decode (layout, 8, four, sizeof four, SPS_ETL_FIELDS_PARTIAL);
  g_assert_cmpstr (text_four, ==, "{\"N\":7,\"payload_rest_offset\":2,"
                                  "\"payload_rest_base64\":\"BAABAAAABQb/////AAEBAGgAaQAAAA==\"}");
  /* One struct: W's count is read from ff ff (65,535 strings) */
  text_one = decode (layout, 8, one, sizeof one, SPS_ETL_FIELDS_PARTIAL);
  g_assert_true (g_str_has_prefix (text_one, "{\"N\":7,\"S\":[{\"A\":1,\"I\":{\"B\":[5,6]}}],"
                                             "\"payload_rest_offset\":10,"));

  text_lone = decode (layout, 8, lone, sizeof lone, SPS_ETL_FIELDS_PARTIAL);
  g_assert_true (g_str_has_prefix (text_lone, "{\"N\":7,\"S\":[],\"payload_rest_offset\":4,"));
  text_pair = decode (layout, 8, pair, sizeof pair, SPS_ETL_FIELDS_COMPLETE);
  g_assert_cmpstr (text_pair, ==, "{\"N\":7,\"S\":[],\"W\":[\"\xf0\x9f\x98\x80\"]}");
  check_prefixes (layout, 8, pair, sizeof pair, sizeof pair);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/fields/manifest-templates", test_manifest_templates);
  g_test_add_func ("/etl/fields/tracelogging-schema", test_tracelogging_schema);
  g_test_add_func ("/etl/fields/size-walk", test_size_walk);
  g_test_add_func ("/etl/fields/manifest-event-check", test_manifest_event_check);

  return g_test_run ();
}
