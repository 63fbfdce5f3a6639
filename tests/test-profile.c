/* test-profile.c: saved profiles (issue 16, "Saved profiles")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each capture is imported, saved with the exporter plugin and reopened
 * with the importer plugin (sps_trace_load(), as File ▸ Open does), and
 * the two traces are compared table by table, row by row, column by
 * column, through the profile schema's own column list, which a first
 * test proves covers every column of every table of SpsTrace.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sps-profile-private.h"
#include "sps-test-util.h"

static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-profile-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_temp_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* Saves through the exporter plugin, as spanscope-cli save does */
static void
save (SpsTrace   *trace,
      const char *source,
      const char *out)
{
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (out);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GError) error = NULL;
  GVariantDict dict;

  exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), "spanscope-profile");
  g_assert_nonnull (exporter);
  g_assert_cmpstr (sps_exporter_get_suffix (exporter), ==, ".spprofile");

  g_variant_dict_init (&dict, NULL);
  if (source != NULL)
    g_variant_dict_insert (&dict, "source-file", "s", source);
  options = g_variant_ref_sink (g_variant_dict_end (&dict));

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (sps_exporter_write (exporter, trace, options, G_OUTPUT_STREAM (stream), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error));
  g_assert_no_error (error);
}

static SpsTrace *
reopen (const char  *path,
        GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error);
}

static void
assert_same_args (SpsTrace   *a,
                  SpsTrace   *b,
                  SpsArgsRef  ra,
                  SpsArgsRef  rb,
                  const char *where)
{
  g_autofree char *ta = sps_trace_dup_args_json (a, ra, NULL);
  g_autofree char *tb = sps_trace_dup_args_json (b, rb, NULL);

  if (g_strcmp0 (ta, tb) != 0)
    g_error ("%s: args %s ≠ %s", where, ta, tb);
  g_assert_cmpint (ra == SPS_ARGS_REF_NONE, ==, rb == SPS_ARGS_REF_NONE || tb == NULL);
}

/* Every table of the schema, every row, every column; args by their text */
static void
assert_same_traces (SpsTrace *a,
                    SpsTrace *b)
{
  SpsStringPool *sa = sps_trace_get_strings (a);
  SpsStringPool *sb = sps_trace_get_strings (b);
  guint n_strings = sps_string_pool_get_size (sa);
  guint n_rows_checked = 0;

  g_assert_cmpstr (sps_trace_get_format (a), ==, sps_trace_get_format (b));
  g_assert_cmpstr (sps_trace_get_display_time_unit (a), ==, sps_trace_get_display_time_unit (b));
  g_assert_cmpint (sps_trace_get_start_time (a), ==, sps_trace_get_start_time (b));
  g_assert_cmpint (sps_trace_get_end_time (a), ==, sps_trace_get_end_time (b));
  g_assert_cmpuint (sps_trace_get_events_read (a), ==, sps_trace_get_events_read (b));
  g_assert_cmpuint (sps_trace_get_metadata_events (a), ==, sps_trace_get_metadata_events (b));
  g_assert_cmpint (sps_trace_get_load_error (a) == NULL, ==, sps_trace_get_load_error (b) == NULL);
  for (guint k = 0; k < SPS_N_TRACK_KINDS; k++)
    g_assert_cmpuint (sps_trace_count_slices (a, k), ==, sps_trace_count_slices (b, k));

  g_assert_cmpuint (n_strings, ==, sps_string_pool_get_size (sb));
  for (guint i = 0; i < n_strings; i++)
    {
      gsize la, lb;
      const char *ta = sps_string_pool_get (sa, i, &la);
      const char *tb = sps_string_pool_get (sb, i, &lb);

      g_assert_cmpmem (ta, la, tb, lb);
    }

  g_assert_cmpuint (sps_trace_get_n_warnings (a), ==, sps_trace_get_n_warnings (b));
  for (guint i = 0; i < sps_trace_get_n_warnings (a); i++)
    {
      guint64 ca, cb;
      const char *ma, *mb;

      g_assert_cmpstr (sps_trace_get_warning (a, i, &ca, &ma), ==, sps_trace_get_warning (b, i, &cb, &mb));
      g_assert_cmpuint (ca, ==, cb);
      g_assert_cmpstr (ma, ==, mb);
    }

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    {
      const SpsProfileTable *table = &_sps_profile_tables[t];
      guint n = _sps_profile_table_rows (a, table);

      g_assert_cmpuint (n, ==, _sps_profile_table_rows (b, table));
      for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++)
        {
          /* Columns stored once compare by their rows' values */
          g_autofree gpointer owned_a = NULL;
          g_autofree gpointer owned_b = NULL;
          const guint8 *da = _sps_profile_column_rows (a, c, n, &owned_a);
          const guint8 *db = _sps_profile_column_rows (b, c, n, &owned_b);
          gsize size = _sps_profile_kind_size (c->kind);

          for (guint r = 0; r < n; r++)
            {
              if (c->kind == SPS_PROFILE_KIND_ARGS)
                {
                  g_autofree char *where = g_strdup_printf ("%s.%s row %u", table->name, c->name, r);

                  assert_same_args (a, b, ((const SpsArgsRef *) da)[r], ((const SpsArgsRef *) db)[r], where);
                }
              else if (memcmp (da + r * size, db + r * size, size) != 0)
                g_error ("%s.%s differs in row %u", table->name, c->name, r);
            }
        }
      n_rows_checked += n;
    }
  g_assert_cmpuint (n_rows_checked, >, 0);

  /* What finish() derives: the range index answers the same */
  for (guint t = 0; t < sps_trace_get_tracks (a)->n_rows; t++)
    g_assert_cmpuint (sps_trace_find_slice (a, t, sps_trace_get_start_time (a)), ==,
                      sps_trace_find_slice (b, t, sps_trace_get_start_time (b)));
}

/* Every SQL table and view, every row, as CSV text: what the SQL panel
 * and `spanscope-cli query` show (args included, through the profile's
 * decoder on the reopened side) */
static char *
query_csv (SpsSqlEngine *engine,
           const char   *table)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = g_strdup_printf ("SELECT * FROM %s", table);
  g_autoptr(SpsSqlResult) result = sps_sql_engine_query (engine, sql, NULL, NULL, &error);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  g_assert_false (sps_sql_result_get_truncated (result));
  g_assert_true (sps_sql_result_write_csv (result, out, ',', NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
assert_same_sql (SpsTrace *a,
                 SpsTrace *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) ea = sps_sql_engine_new (a, &error);
  g_autoptr(SpsSqlEngine) eb = sps_sql_engine_new (b, &error);
  g_auto(GStrv) tables_a = NULL;
  g_auto(GStrv) tables_b = NULL;

  g_assert_no_error (error);
  sps_sql_engine_set_max_rows (ea, G_MAXUINT);
  sps_sql_engine_set_max_rows (eb, G_MAXUINT);
  tables_a = sps_sql_engine_list_tables (ea, &error);
  g_assert_no_error (error);
  tables_b = sps_sql_engine_list_tables (eb, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (tables_a, tables_b);
  g_assert_cmpuint (g_strv_length (tables_a), >=, 15);

  for (guint i = 0; tables_a[i] != NULL; i++)
    {
      g_autofree char *csv_a = query_csv (ea, tables_a[i]);
      g_autofree char *csv_b = query_csv (eb, tables_a[i]);

      if (g_strcmp0 (csv_a, csv_b) != 0)
        g_error ("SELECT * FROM %s differs", tables_a[i]);
    }
}

static char *
run_info_json (const char *path)
{
  g_auto(SpsTestRun) run = { 0, };

  sps_test_run_cli_va (&run, "info", "--json", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  return g_strdup (run.out);
}

/* Import, save, reopen, compare; also `info --json` of both files */
static void
round_trip (const char *path,
            const char *expected_format,
            int         n_allocations)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *out = g_build_filename (dir, "saved.spprofile", NULL);
  g_autoptr(SpsTrace) original = sps_test_load_path (path);
  g_autoptr(SpsTrace) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *info_a = NULL;
  g_autofree char *info_b = NULL;

  g_assert_cmpstr (sps_trace_get_format (original), ==, expected_format);
  if (n_allocations >= 0)
    g_assert_cmpuint (sps_trace_get_allocations (original)->n_rows, ==, n_allocations);

  save (original, path, out);
  reopened = reopen (out, &error);
  g_assert_no_error (error);
  assert_same_traces (original, reopened);
  assert_same_sql (original, reopened);

  info_a = run_info_json (path);
  info_b = run_info_json (out);
  g_assert_cmpstr (info_a, ==, info_b);

  remove_temp_dir (dir);
}

/* The profile's schema names every table and column the trace has: each
 * column of _sps_trace_get_layouts() is in _sps_profile_tables, and so is
 * each table's row count. */
static void
test_schema_complete (void)
{
  guint n_layouts;
  const SpsTableLayout *layouts = _sps_trace_get_layouts (&n_layouts);
  guint n_columns = 0;

  for (guint l = 0; l < n_layouts; l++)
    {
      gboolean table_found = FALSE;

      for (guint t = 0; t < _sps_profile_n_tables; t++)
        table_found |= _sps_profile_tables[t].n_rows == layouts[l].n_rows;
      g_assert_true (table_found);

      for (guint c = 0; c < SPS_MAX_COLUMNS && layouts[l].columns[c].element_size != 0; c++)
        {
          gboolean found = FALSE;

          for (guint t = 0; t < _sps_profile_n_tables; t++)
            for (const SpsProfileColumn *pc = _sps_profile_tables[t].columns; pc->name != NULL; pc++)
              if (pc->offset == layouts[l].columns[c].offset)
                {
                  g_assert_cmpuint (_sps_profile_kind_size (pc->kind), ==, layouts[l].columns[c].element_size);
                  /* A column stored once is written out from the same constant */
                  g_assert_cmpuint (pc->constant, ==, layouts[l].columns[c].constant);
                  found = TRUE;
                }
          if (!found)
            g_error ("column %u of table %u is not saved", c, l);
          n_columns++;
        }
    }
  /* 14 tables of sps-trace.c, counted by hand: 5 + 4 + 8 + 12 + 7 + 3 + 5
   * + 11 + 11 + 3 + 7 + 6 + 12 + 8 columns */
  g_assert_cmpuint (n_layouts, ==, 14);
  g_assert_cmpuint (n_columns, ==, 102);
}

static void
test_chrome (void)
{
  g_autofree char *path = sps_test_fixture_path ("chrome-memory-objects.json");

  /* Object histories, by hand from the file: 0x1, 0x2, 0x5 twice (N),
   * 0x3 seen first in a snapshot, 0x4 only destroyed: 6 */
  round_trip (path, "chrome-json", 6);
}

static void
test_chrome_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);

  round_trip (path, "chrome-json", -1);
}

static void
test_nettrace (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", "RememberCalendar__trace.nettrace");

  if (path != NULL)
    round_trip (path, "nettrace", -1);
}

static void
test_allocations (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", "shirhatti__allocTrace.nettrace");

  if (path != NULL)
    /* 717 exact and 83 of unknown birth, as test-memory counts them */
    round_trip (path, "nettrace", 717 + 83);
}

static void
test_etrace (void)
{
  const char *simulate = g_getenv ("ETRACE_SIMULATE");
  g_autofree char *dir = NULL;
  g_autofree char *bin = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  if (simulate == NULL)
    {
      g_test_skip ("ETRACE_SIMULATE is not set");
      return;
    }
  dir = make_temp_dir ();
  bin = g_build_filename (dir, "capture.bin", NULL);
  {
    const char *argv[] = { simulate, bin, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  round_trip (bin, "etrace", -1);
  remove_temp_dir (dir);
}

static sqlite3 *
open_db (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  return db;
}

static void
exec_sql (const char *path,
          const char *sql)
{
  sqlite3 *db = open_db (path);

  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* The meta table says what the profile came from */
/* The `meta` table of the profile at @path, key → value as text */
static GHashTable *
read_meta_table (const char *path)
{
  GHashTable *meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db = open_db (path);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT key, value FROM meta", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_hash_table_insert (meta, g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         g_strdup ((const char *) sqlite3_column_text (stmt, 1)));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return meta;
}

static void
test_meta (void)
{
  g_autofree char *source = sps_test_fixture_path ("chrome-memory-objects.json");
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *out = g_build_filename (dir, "m.spprofile", NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (source);
  g_autofree char *contents = NULL;
  g_autofree char *sha256 = NULL;
  g_autofree char *again = g_build_filename (dir, "again.spprofile", NULL);
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GHashTable) meta_again = NULL;
  g_autoptr(SpsTrace) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) head = NULL;
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  gsize len;

  save (trace, source, out);

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);

  meta = read_meta_table (out);
  g_assert_cmpstr (g_hash_table_lookup (meta, "format_version"), ==, "1");
  g_assert_cmpstr (g_hash_table_lookup (meta, "producer"), ==, "Spanscope");
  g_assert_cmpstr (g_hash_table_lookup (meta, "producer_version"), ==, PACKAGE_VERSION);
  g_assert_cmpstr (g_hash_table_lookup (meta, "source_file"), ==, "chrome-memory-objects.json");
  {
    g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, len);

    g_assert_cmpstr (g_hash_table_lookup (meta, "source_size"), ==, size);
  }
  g_assert_cmpstr (g_hash_table_lookup (meta, "source_sha256"), ==, sha256);
  g_assert_cmpstr (g_hash_table_lookup (meta, "trace_format"), ==, "chrome-json");
  g_assert_true (g_hash_table_contains (meta, "import_options"));
  g_assert_false (g_hash_table_contains (meta, "resaved_from"));

  /* Reopened and saved again, the profile still names the capture (not
   * itself) as its source, and says which profile it was saved from */
  reopened = reopen (out, &error);
  g_assert_no_error (error);
  save (reopened, out, again);
  meta_again = read_meta_table (again);
  for (const char *const *key = (const char *const[]) { "source_file", "source_size", "source_sha256",
                                                        "import_options", "trace_format", NULL };
       *key != NULL; key++)
    g_assert_cmpstr (g_hash_table_lookup (meta_again, *key), ==, g_hash_table_lookup (meta, *key));
  g_assert_cmpstr (g_hash_table_lookup (meta_again, "resaved_from"), ==, "m.spprofile");

  /* The header the probe reads; and the rows are plain SQL */
  db = open_db (out);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM slices", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 0), ==, sps_trace_get_slices (trace)->n_rows);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
  head = g_bytes_new (contents, MIN (len, 4096));
  g_assert_cmpuint (sps_profile_probe (head), ==, 100);
  remove_temp_dir (dir);
}

/* A profile from a newer Spanscope is refused, naming both versions */
static void
test_future_version (void)
{
  g_autofree char *source = sps_test_fixture_path ("chrome-memory-objects.json");
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *out = g_build_filename (dir, "future.spprofile", NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (source);
  g_autoptr(SpsTrace) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  save (trace, NULL, out);
  exec_sql (out, "PRAGMA user_version = 7");

  reopened = reopen (out, &error);
  g_assert_null (reopened);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED);
  expected = g_strdup_printf ("%s: saved in profile format 7 by a newer Spanscope; "
                              "this version reads formats up to 1", out);
  g_assert_cmpstr (error->message, ==, expected);
  remove_temp_dir (dir);
}

/* Damaged profiles are errors naming the file, never a crash */
static void
test_damaged (void)
{
  g_autofree char *source = sps_test_fixture_path ("chrome-memory-objects.json");
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *out = g_build_filename (dir, "d.spprofile", NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (source);
  static const struct
  {
    const char *sql;
    const char *message;
  } edits[] = {
    /* A row count the column images do not back */
    { "UPDATE row_counts SET n_rows = 1000000 WHERE name = 'slices'",
      "the data of slices.ts does not match its 1000000 rows" },
    /* A parent that does not exist */
    { "UPDATE column_images SET data = zeroblob(length(data)) WHERE table_name = 'slices' AND column_name = 'track';"
      "UPDATE column_images SET data = x'ffffff7f' || substr(data, 5) WHERE table_name = 'slices' AND column_name = 'name'",
      "slices.name of row 0 is not a string" },
    { "DROP TABLE strings", "the table “strings” is missing" },
    { "PRAGMA application_id = 1", "not a Spanscope profile (another application’s SQLite database)" },
  };

  save (trace, NULL, out);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autofree char *copy = g_build_filename (dir, "edited.spprofile", NULL);
      g_autofree char *contents = NULL;
      g_autofree char *expected = g_strdup_printf ("%s: %s", copy, edits[i].message);
      g_autoptr(SpsTrace) reopened = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (copy, contents, len, NULL));
      exec_sql (copy, edits[i].sql);

      reopened = reopen (copy, &error);
      g_assert_null (reopened);
      if (i == G_N_ELEMENTS (edits) - 1)
        {
          /* No longer recognised at all: another SQLite file */
          g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT);
          continue;
        }
      g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
      g_assert_cmpstr (error->message, ==, expected);
    }

  /* Cut at every 4 KiB: an error each time, never a crash */
  {
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
    for (gsize cut = 4096; cut < len; cut += 4096)
      {
        g_autofree char *copy = g_build_filename (dir, "cut.spprofile", NULL);
        g_autoptr(SpsTrace) reopened = NULL;
        g_autoptr(GError) error = NULL;

        g_assert_true (g_file_set_contents (copy, contents, cut, NULL));
        reopened = reopen (copy, &error);
        g_assert_null (reopened);
        g_assert_nonnull (error);
        g_assert_nonnull (strstr (error->message, copy));
      }
  }
  remove_temp_dir (dir);
}

/* spanscope-cli save: -o - is refused (a database is not a stream), and a
 * saved file reopens */
static void
test_cli_save (void)
{
  g_autofree char *source = sps_test_fixture_path ("chrome-memory-objects.json");
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *out = g_build_filename (dir, "cli.spprofile", NULL);
  g_autoptr(SpsTrace) reopened = NULL;
  g_autoptr(SpsTrace) original = sps_test_load_path (source);
  g_autoptr(GError) error = NULL;

  {
    g_auto(SpsTestRun) run = { 0, };

    sps_test_run_cli_va (&run, "save", source, "-o", "-", NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "a profile is a database and cannot be written to standard output"));
  }
  {
    g_auto(SpsTestRun) run = { 0, };

    sps_test_run_cli_va (&run, "save", source, "-o", out, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "");
  }

  reopened = reopen (out, &error);
  g_assert_no_error (error);
  assert_same_traces (original, reopened);
  remove_temp_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/schema/complete", test_schema_complete);
  g_test_add_func ("/profile/round-trip/chrome", test_chrome);
  g_test_add_func ("/profile/round-trip/chrome-demo", test_chrome_demo);
  g_test_add_func ("/profile/round-trip/nettrace", test_nettrace);
  g_test_add_func ("/profile/round-trip/allocations", test_allocations);
  g_test_add_func ("/profile/round-trip/etrace", test_etrace);
  g_test_add_func ("/profile/meta", test_meta);
  g_test_add_func ("/profile/future-version", test_future_version);
  g_test_add_func ("/profile/damaged", test_damaged);
  g_test_add_func ("/profile/cli-save", test_cli_save);

  return g_test_run ();
}
