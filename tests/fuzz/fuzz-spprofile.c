/* fuzz-spprofile.c: a saved profile (.spprofile) through the importer,
 * its checks and finish(), then every deferred args reference decoded
 * (sps-fuzz.c checks them) from the database's rows
 *
 * Two kinds of input:
 *
 * - a file that starts with SQLite's header is read as it is;
 * - anything else is an edit script applied to a valid profile saved from
 *   one of a few small fixtures (its first byte picks which). Mutated
 *   database files almost never get past SQLite's own checks, so raw
 *   bytes alone left the reader's checks of the column images, the row
 *   counts, the meta and the strings unreached (the coverage stayed flat
 *   at 394 edges over 16 million inputs); edits made through SQLite keep
 *   the database valid and aim at exactly those checks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sps-chrome-importer.h"
#include "sps-profile-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

/* Fixtures whose profiles hold every table the format has: objects and
 * allocations, flows, samples with callsites, counters, async lanes */
static const char * const base_fixtures[] = {
  "chrome-memory-objects.json",
  "semantics-flows-labels.json",
  "chrome-perf-samples.json",
  "chrome-phase-counter.json",
  "semantics-async.json",
  "sampled_stacks.json",
};

#define MAX_EDITS 48

static GPtrArray *bases;  /* GBytes: a profile per fixture */
/* Each base in a connection of its own, kept open: an input's edits are
 * made in a transaction that is rolled back after. A new connection per
 * input parsed the whole schema again for every input. The profile
 * serialised is the same but for the header's commit counters (bytes
 * 24–27 and 92–95: one commit instead of one per edit), which the reader
 * does not read. */
static sqlite3 *base_dbs[G_N_ELEMENTS (base_fixtures)];

static GBytes *
save_base (const char *name)
{
  g_autofree char *path = g_build_filename (SPS_FUZZ_FIXTURES_DIR, name, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(SpsImporter) importer = g_object_new (SPS_TYPE_CHROME_IMPORTER, NULL);
  g_autoptr(GVariant) options = sps_fuzz_chrome_options ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  trace = sps_fuzz_import (importer, (const guint8 *) contents, len, options);
  g_assert_nonnull (trace);

  dir = g_dir_make_tmp ("fuzz-spprofile-XXXXXX", &error);
  g_assert_no_error (error);
  out = g_build_filename (dir, "base.spprofile", NULL);
  if (!sps_trace_save_profile (trace, out, NULL, NULL, &error))
    g_error ("%s: %s", name, error->message);
  if (!g_file_get_contents (out, &saved, &len, &error))
    g_error ("%s", error->message);
  g_unlink (out);
  g_rmdir (dir);

  return g_bytes_new_take (g_steal_pointer (&saved), len);
}

static void
init_bases (void)
{
  if (bases != NULL)
    return;
  bases = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < G_N_ELEMENTS (base_fixtures); i++)
    {
      gsize len;
      const guint8 *data;
      unsigned char *copy;

      g_ptr_array_add (bases, save_base (base_fixtures[i]));
      data = g_bytes_get_data (g_ptr_array_index (bases, i), &len);
      /* SQLite frees the copy with the connection */
      copy = sqlite3_malloc64 (len);
      g_assert_nonnull (copy);
      memcpy (copy, data, len);
      g_assert_cmpint (sqlite3_open (":memory:", &base_dbs[i]), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_deserialize (base_dbs[i], "main", copy, len, len,
                                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE),
                       ==, SQLITE_OK);
    }
}

static sqlite3_int64
count_rows (sqlite3    *db,
            const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT max(rowid) FROM %s", table);
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 n = 0;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

/* Runs @sql with up to two bound values: an integer (or NULL when
 * @blob is set), then @blob (as text when @as_text) */
static void
run_edit (sqlite3      *db,
          const char   *sql,
          sqlite3_int64 number,
          const guint8 *blob,
          gsize         blob_len,
          gboolean      as_text,
          sqlite3_int64 rowid)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    return;
  if (blob != NULL && as_text)
    sqlite3_bind_text (stmt, 1, (const char *) blob, (int) blob_len, SQLITE_TRANSIENT);
  else if (blob != NULL)
    sqlite3_bind_blob (stmt, 1, blob, (int) blob_len, SQLITE_TRANSIENT);
  else
    sqlite3_bind_int64 (stmt, 1, number);
  sqlite3_bind_int64 (stmt, 2, rowid);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
}

/* Values that sit on the reader's boundaries: counts, indices, sentinels */
static guint32
interesting_u32 (SpsFuzzInput *in)
{
  static const guint32 values[] = {
    0, 1, 2, 0x7f, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
  };
  guint8 pick = sps_fuzz_take_u8 (in);

  if (pick < G_N_ELEMENTS (values) * 16)
    return values[pick % G_N_ELEMENTS (values)];
  return sps_fuzz_take_u32 (in);
}

/* Overwrites 1 or 4 bytes of one column image in place */
static void
edit_image (sqlite3      *db,
            SpsFuzzInput *in,
            gboolean      word)
{
  sqlite3_int64 n = count_rows (db, "column_images");
  sqlite3_blob *blob = NULL;
  sqlite3_int64 rowid;
  guint32 offset;
  int len;

  if (n <= 0)
    return;
  rowid = 1 + (sqlite3_int64) (sps_fuzz_take_u32 (in) % (guint64) n);
  offset = sps_fuzz_take_u32 (in);
  if (sqlite3_blob_open (db, "main", "column_images", "data", rowid, 1, &blob) != SQLITE_OK)
    {
      sqlite3_blob_close (blob);
      return;
    }
  len = sqlite3_blob_bytes (blob);
  if (word && len >= 4)
    {
      guint32 value = GUINT32_TO_LE (interesting_u32 (in));

      offset = (offset % (guint32) (len / 4)) * 4;
      sqlite3_blob_write (blob, &value, 4, (int) offset);
    }
  else if (len > 0)
    {
      guint8 value = sps_fuzz_take_u8 (in);

      sqlite3_blob_write (blob, &value, 1, (int) (offset % (guint32) len));
    }
  sqlite3_blob_close (blob);
}

static sqlite3_int64
pick_row (sqlite3      *db,
          const char   *table,
          SpsFuzzInput *in)
{
  sqlite3_int64 n = count_rows (db, table);

  return n > 0 ? 1 + (sqlite3_int64) (sps_fuzz_take_u32 (in) % (guint64) n) : 0;
}

static void
apply_edit (sqlite3      *db,
            SpsFuzzInput *in)
{
  static const char * const deletable[] = {
    "meta", "strings", "warnings", "row_counts", "column_images",
  };
  guint8 op = sps_fuzz_take_u8 (in);

  switch (op % 8)
    {
    case 0:
    case 1:
      edit_image (db, in, op % 8 == 1);
      break;

    case 2:
      {
        sqlite3_int64 row = pick_row (db, "column_images", in);
        guint32 keep = sps_fuzz_take_u32 (in);

        run_edit (db, "UPDATE column_images SET data = substr(data, 1, ?1) WHERE rowid = ?2", keep % 65536, NULL, 0, FALSE, row);
        break;
      }

    case 3:
      {
        sqlite3_int64 row = pick_row (db, "row_counts", in);

        run_edit (db, "UPDATE row_counts SET n_rows = ?1 WHERE rowid = ?2",
                  (gint32) interesting_u32 (in), NULL, 0, FALSE, row);
        break;
      }

    case 4:
      {
        sqlite3_int64 row = pick_row (db, "meta", in);
        gint64 value = (gint64) (((guint64) sps_fuzz_take_u32 (in) << 32) | sps_fuzz_take_u32 (in));

        run_edit (db, "UPDATE meta SET value = ?1 WHERE rowid = ?2", value, NULL, 0, FALSE, row);
        break;
      }

    case 5:
    case 6:
      {
        const char *sql = op % 8 == 5 ? "UPDATE strings SET text = ?1 WHERE rowid = ?2"
                                      : "UPDATE meta SET value = ?1 WHERE rowid = ?2";
        sqlite3_int64 row = pick_row (db, op % 8 == 5 ? "strings" : "meta", in);
        gsize len = sps_fuzz_take_u8 (in) % 32;

        len = MIN (len, in->len);

        run_edit (db, sql, 0, in->data, len, TRUE, row);
        in->data += len;
        in->len -= len;
        break;
      }

    default:
      {
        const char *table = deletable[sps_fuzz_take_u8 (in) % G_N_ELEMENTS (deletable)];
        g_autofree char *sql = g_strdup_printf ("DELETE FROM %s WHERE rowid = ?2", table);

        run_edit (db, sql, 0, NULL, 0, FALSE, pick_row (db, table, in));
        break;
      }
    }
}

static int
run_edited (const uint8_t *data,
            size_t         size)
{
  SpsFuzzInput in = { data, size };
  g_autoptr(SpsImporter) importer = g_object_new (SPS_TYPE_PROFILE_IMPORTER, NULL);
  g_autoptr(SpsTrace) trace = NULL;
  unsigned char *edited;
  sqlite3_int64 edited_len = 0;
  sqlite3 *db;

  init_bases ();
  db = base_dbs[sps_fuzz_take_u8 (&in) % bases->len];

  g_assert_cmpint (sqlite3_exec (db, "BEGIN", NULL, NULL, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < MAX_EDITS && in.len > 0; i++)
    apply_edit (db, &in);

  /* The edited pages into the database's memory, which serialising
   * copies, then back to the base for the next input */
  g_assert_cmpint (sqlite3_db_cacheflush (db), ==, SQLITE_OK);
  edited = sqlite3_serialize (db, "main", &edited_len, 0);
  g_assert_cmpint (sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_true (sqlite3_get_autocommit (db));
  if (edited == NULL)
    return 0;

  trace = sps_fuzz_import (importer, edited, (gsize) edited_len, NULL);
  sqlite3_free (edited);
  return 0;
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  static const char header[] = "SQLite format 3";

  sps_fuzz_init ();
  /* SQLite opens a path, following its links */
  sps_fuzz_use_real_files ();
  if (size >= sizeof header && memcmp (data, header, sizeof header) == 0)
    return sps_fuzz_run_importer (SPS_TYPE_PROFILE_IMPORTER, data, size, NULL);
  return run_edited (data, size);
}
