/* test-diag-package.c: .diagsession packages and their counters resource
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No real .diagsession could be obtained (see ../shared/fixtures/diagsession
 * /README.md), so the packages here are assembled: a ZIP written by the
 * test with a metadata.xml in the form Visual Studio writes, holding the
 * real resources of the shared fixtures (an ETL of a Diagnostics Hub
 * session, a counters file from a real capture).
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <zip.h>

#include "sps-diag-counters.h"
#include "sps-diag-package.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"

#define GOBLIN "goblin__1197E42F-003D-4F91-A845-6404CF289E84.counters"

static GBytes *
shared_bytes (const char *name)
{
  return sps_test_shared_bytes ("diagsession/resources", name);
}

static GBytes *
utf16_bytes (const char *text,
             gboolean    bom)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autofree gunichar2 *units = g_utf8_to_utf16 (text, -1, NULL, NULL, NULL);

  if (bom)
    g_byte_array_append (a, (const guint8 *) "\xff\xfe", 2);
  for (gsize i = 0; units[i] != 0; i++)
    {
      guint8 le[2] = { units[i] & 0xff, units[i] >> 8 };

      g_byte_array_append (a, le, 2);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&a));
}

static void
test_counters_real (void)
{
  g_autoptr(GBytes) goblin = shared_bytes (GOBLIN);
  g_autoptr(GBytes) session = NULL;
  g_autoptr(SpsDiagCounters) c = NULL;
  g_autoptr(SpsDiagCounters) s = NULL;
  g_autoptr(GError) error = NULL;
  const SpsDiagCounter *bytes_counter;
  const SpsDiagCounter *cpu;

  g_test_summary ("The real counters resource (no BOM) and the hand-written example (BOM): "
                  "header numbers from their halves, chunks of one id merged");
  if (goblin == NULL)
    return;

  c = sps_diag_counters_parse (g_bytes_get_data (goblin, NULL), g_bytes_get_size (goblin), GOBLIN, &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  /* {"h":31236572,"l":-121673181}: 31236572 << 32 | (guint32) -121673181 */
  g_assert_cmpint (c->begin_time, ==, (gint64) ((guint64) 31236572 << 32 | (guint32) -121673181));
  g_assert_cmpuint (c->begin_ticks, ==, (guint64) 145 << 32 | (guint32) -30320850);
  g_assert_cmpuint (c->frequency, ==, 10000000);
  g_assert_cmpuint (c->duration, ==, 0);
  g_assert_cmpuint (c->n_bad_points, ==, 0);
  /* Private bytes, then the allocation tool's live objects, each written in
   * many chunks */
  g_assert_cmpuint (c->counters->len, ==, 2);
  bytes_counter = g_ptr_array_index (c->counters, 0);
  g_assert_cmpstr (bytes_counter->id, ==, "DiagnosticsHub.Counters.Process.PrivateBytes");
  g_assert_cmpstr (((SpsDiagCounter *) g_ptr_array_index (c->counters, 1))->id, ==,
                   "DotNetAlloc.Counters.LiveObjects");
  g_assert_cmpuint (g_array_index (bytes_counter->points, SpsDiagCounterPoint, 0).t, ==,
                    (guint64) 145 << 32 | (guint32) -29285596);
  g_assert_cmpfloat (g_array_index (bytes_counter->points, SpsDiagCounterPoint, 0).v, ==, 409600);
  {
    const SpsDiagCounterPoint *last = &g_array_index (bytes_counter->points, SpsDiagCounterPoint,
                                                      bytes_counter->points->len - 1);

    g_assert_cmpuint (last->t, ==, (guint64) 146 << 32 | 74481144);
    g_assert_cmpfloat (last->v, ==, 77824);
  }

  session = shared_bytes ("CreateJsonDiagSession__Session.counters");
  s = sps_diag_counters_parse (g_bytes_get_data (session, NULL), g_bytes_get_size (session), "s", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->frequency, ==, 0);
  g_assert_cmpuint (s->duration, ==, 10000);
  g_assert_cmpuint (s->counters->len, ==, 1);
  cpu = g_ptr_array_index (s->counters, 0);
  g_assert_cmpstr (cpu->id, ==, "DiagnosticsHub.Counters.Process.CPU");
  g_assert_cmpuint (cpu->points->len, ==, 3);
  g_assert_cmpuint (g_array_index (cpu->points, SpsDiagCounterPoint, 1).t, ==, 5000);
  g_assert_cmpfloat (g_array_index (cpu->points, SpsDiagCounterPoint, 1).v, ==, 0);
  g_assert_cmpfloat (g_array_index (cpu->points, SpsDiagCounterPoint, 2).v, ==, 100);
}

static void
test_counters_bad (void)
{
  g_autoptr(GBytes) odd = g_bytes_new ("{\0}", 3);
  g_autoptr(GBytes) deep = NULL;
  g_autoptr(GBytes) points = NULL;
  g_autoptr(GBytes) none = NULL;
  g_autoptr(SpsDiagCounters) c = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) nest = g_string_new ("{\"counters\":");

  g_test_summary ("Counters files that are not: cut UTF-16, nesting past the limit, no "
                  "counters array; points without a time or value are skipped and counted");

  g_assert_null (sps_diag_counters_parse (g_bytes_get_data (odd, NULL), 3, "odd.counters", &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_cmpstr (error->message, ==, "odd.counters: UTF-16 text cut in the middle of a character at byte 2");
  g_clear_error (&error);

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nest, '[');
  deep = utf16_bytes (nest->str, FALSE);
  g_assert_null (sps_diag_counters_parse (g_bytes_get_data (deep, NULL), g_bytes_get_size (deep), "deep", &error));
  g_assert_cmpstr (error->message, ==, "deep: JSON nested deeper than 64 levels");
  g_clear_error (&error);

  none = utf16_bytes ("{\"beginTime\":{\"h\":0,\"l\":1}}", TRUE);
  g_assert_null (sps_diag_counters_parse (g_bytes_get_data (none, NULL), g_bytes_get_size (none), "none", &error));
  g_assert_cmpstr (error->message, ==, "none: not a counters file (no “counters” array)");
  g_clear_error (&error);

  /* A time as a plain number, a value as text, a half out of range, and
   * one good point */
  points = utf16_bytes ("{\"counters\":[{\"id\":\"x\",\"p\":["
                        "{\"t\":5,\"v\":1},"
                        "{\"t\":{\"h\":0,\"l\":1},\"v\":\"1\"},"
                        "{\"t\":{\"h\":0,\"l\":4294967296},\"v\":1},"
                        "{\"t\":{\"h\":-1,\"l\":-1},\"v\":2.5}]}]}", TRUE);
  c = sps_diag_counters_parse (g_bytes_get_data (points, NULL), g_bytes_get_size (points), "p", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (c->n_bad_points, ==, 3);
  g_assert_cmpuint (((SpsDiagCounter *) g_ptr_array_index (c->counters, 0))->points->len, ==, 1);
  g_assert_cmpuint (g_array_index (((SpsDiagCounter *) g_ptr_array_index (c->counters, 0))->points,
                                   SpsDiagCounterPoint, 0).t, ==, G_MAXUINT64);
}

/* A .diagsession assembled by the test (see the file's comment) */
static char *
assemble (const char *dir,
          const char *metadata,
          GBytes     *etl,
          GBytes     *counters)
{
  g_autofree char *path = g_build_filename (dir, "assembled.diagsession", NULL);
  g_autoptr(GBytes) types = g_bytes_new_static (SPS_TEST_CONTENT_TYPES, strlen (SPS_TEST_CONTENT_TYPES));
  g_autoptr(GBytes) manifest = metadata != NULL ? g_bytes_new_static (metadata, strlen (metadata)) : NULL;

  sps_test_write_zip (path, "[Content_Types].xml", types, "metadata.xml", manifest,
                      "3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90/sc.user_aux.etl", etl,
                      "3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90/1197E42F.counters", counters, NULL);
  return g_steal_pointer (&path);
}

static const char metadata_xml[] =
  "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
  "<Package xmlns=\"urn:diagnosticshub-package-metadata-2-1\">\n"
  "  <Content>\n"
  /* Listed first, but of a type nothing reads */
  "    <Resource Id=\"{0a5b6c7d-1111-2222-3333-444455556666}\" Type=\"DiagnosticsHub.Resource.SymbolCache\""
  " Name=\"symcache\" ResourcePackageUriPrefix=\"aa11bb22-0000-0000-0000-000000000000\""
  " IsDirectoryOnDisk=\"true\" CompressionOption=\"norm\" TimeAddedUTC=\"133000000000000000\" />\n"
  "    <Resource Id=\"{4f1c2d3e-aaaa-bbbb-cccc-ddddeeeeffff}\" Type=\"DiagnosticsHub.Resource.CountersFile\""
  " Name=\"1197E42F.counters\" ResourcePackageUriPrefix=\"3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90\""
  " IsDirectoryOnDisk=\"false\" />\n"
  /* Named like a counters file, typed as the trace: the type decides */
  "    <Resource Id=\"{7e8f9a0b-1234-5678-9abc-def012345678}\" Type=\"DiagnosticsHub.Resource.EtlFile\""
  " Name=\"sc.user_aux.etl\" ResourcePackageUriPrefix=\"3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90\""
  " IsDirectoryOnDisk=\"false\" />\n"
  "    <Resource Id=\"{99999999-8888-7777-6666-555544443333}\" Type=\"DiagnosticsHub.Resource.EtlFile\""
  " Name=\"missing.etl\" ResourcePackageUriPrefix=\"3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90\" />\n"
  "  </Content>\n"
  "  <Metadata><Item Key=\"_BuildVersion\">17.14.36607.1</Item></Metadata>\n"
  "</Package>\n";

static void
test_package (void)
{
  g_autoptr(GBytes) counters = shared_bytes (GOBLIN);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(SpsDiagPackage) package = NULL;
  g_autoptr(GPtrArray) etls = NULL;
  g_autoptr(GPtrArray) counter_files = NULL;
  g_autoptr(GBytes) etl = g_bytes_new_static ("ETL bytes", 9);
  g_autoptr(GBytes) got = NULL;
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;
  const SpsDiagResource *r;

  g_test_summary ("An assembled package: resources chosen by type in manifest order, their "
                  "members read, the manifest's metadata, a listed member that is missing");
  if (counters == NULL)
    return;

  dir = g_dir_make_tmp ("sps-diag-XXXXXX", NULL);
  path = assemble (dir, metadata_xml, etl, counters);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  file = g_bytes_new_take (data, len);

  package = sps_diag_package_open (file, "assembled.diagsession", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_diag_package_get_resources (package)->len, ==, 4);
  g_assert_cmpstr (sps_diag_package_get_metadata (package, "_BuildVersion"), ==, "17.14.36607.1");

  etls = sps_diag_package_find (package, SPS_DIAG_RESOURCE_ETL);
  g_assert_cmpuint (etls->len, ==, 2);
  r = g_ptr_array_index (etls, 0);
  g_assert_cmpstr (r->member, ==, "3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90/sc.user_aux.etl");
  g_assert_cmpstr (r->id, ==, "{7e8f9a0b-1234-5678-9abc-def012345678}");
  got = sps_diag_package_read (package, r, 1 << 20, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (got, etl));
  g_clear_pointer (&got, g_bytes_unref);

  /* Listed, but not in the ZIP */
  g_assert_null (sps_diag_package_read (package, g_ptr_array_index (etls, 1), 1 << 20, &error));
  g_assert_cmpstr (error->message, ==, "assembled.diagsession: the package has no member "
                   "“3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90/missing.etl”");
  g_clear_error (&error);

  /* Too large for the caller's limit */
  g_assert_null (sps_diag_package_read (package, g_ptr_array_index (etls, 0), 8, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE);
  g_clear_error (&error);

  counter_files = sps_diag_package_find (package, SPS_DIAG_RESOURCE_COUNTERS);
  g_assert_cmpuint (counter_files->len, ==, 1);
  got = sps_diag_package_read (package, g_ptr_array_index (counter_files, 0), 1 << 20, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (got, counters));

  /* Folders are not files */
  g_assert_cmpuint (g_ptr_array_index (sps_diag_package_get_resources (package), 0) != NULL, ==, TRUE);
  g_assert_true (((SpsDiagResource *) g_ptr_array_index (sps_diag_package_get_resources (package), 0))->directory);

  sps_test_remove_tree (dir);
}

static void
test_package_bad (void)
{
  static const guint8 cfb[16] = { 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1 };
  g_autoptr(GBytes) compound = g_bytes_new_static (cfb, sizeof cfb);
  g_autoptr(GBytes) text = g_bytes_new_static ("{\"traceEvents\":[]}", 18);
  g_autofree char *dir = g_dir_make_tmp ("sps-diag-XXXXXX", NULL);
  g_autofree char *plain = NULL;
  g_autofree char *broken = NULL;
  g_autoptr(GBytes) plain_bytes = NULL;
  g_autoptr(GBytes) broken_bytes = NULL;
  g_autoptr(GBytes) cut_bytes = NULL;
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_test_summary ("Not packages: the OLE compound form, not a ZIP, a ZIP without "
                  "metadata.xml, a manifest that is not XML, a cut ZIP: errors that say which");

  g_assert_null (sps_diag_package_open (compound, "old.diagsession", &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "old.diagsession: a .diagsession in the OLE compound file form; "
                   "only ZIP packages are read");
  g_clear_error (&error);

  g_assert_null (sps_diag_package_open (text, "t.diagsession", &error));
  g_assert_cmpstr (error->message, ==, "t.diagsession: not a .diagsession package (not a ZIP file)");
  g_clear_error (&error);

  plain = assemble (dir, NULL, NULL, NULL);
  g_assert_true (g_file_get_contents (plain, &data, &len, NULL));
  plain_bytes = g_bytes_new_take (data, len);
  g_assert_null (sps_diag_package_open (plain_bytes, "z.diagsession", &error));
  g_assert_cmpstr (error->message, ==, "z.diagsession: a ZIP file without metadata.xml, so not a "
                   ".diagsession package");
  g_clear_error (&error);

  broken = assemble (dir, "<Package><Content></Package>", NULL, NULL);
  g_assert_true (g_file_get_contents (broken, &data, &len, NULL));
  broken_bytes = g_bytes_new_take (data, len);
  g_assert_null (sps_diag_package_open (broken_bytes, "b.diagsession", &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_true (g_str_has_prefix (error->message, "b.diagsession: metadata.xml: Error on line 1"));
  g_clear_error (&error);

  /* Cut before its central directory */
  cut_bytes = g_bytes_new_from_bytes (broken_bytes, 0, g_bytes_get_size (broken_bytes) - 30);
  g_assert_null (sps_diag_package_open (cut_bytes, "c.diagsession", &error));
  g_assert_true (g_str_has_prefix (error->message, "c.diagsession: damaged ZIP archive: "));

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/diagsession/counters/real", test_counters_real);
  g_test_add_func ("/diagsession/counters/bad", test_counters_bad);
  g_test_add_func ("/diagsession/package/assembled", test_package);
  g_test_add_func ("/diagsession/package/bad", test_package_bad);

  return g_test_run ();
}
