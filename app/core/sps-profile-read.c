/* sps-profile-read.c: reopening a saved profile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reader loads the column images the writer saved (see
 * sps-profile-write.c) straight into a trace's columns, checks every
 * value another part of Spanscope uses as an index or trusts as an order
 * (string ids, row references, track ranges, times sorted per track,
 * depths that make parent chains end), and rebuilds what finish() would
 * have derived (the block index, the per-kind slice counts). A file that
 * fails any check is an error naming the file and what is wrong; nothing
 * of it is kept.
 */

#define G_LOG_DOMAIN "sps-profile"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-importer.h"
#include "sps-profile-args-private.h"
#include "sps-profile-private.h"
#include "sps-trace-append-private.h"
#include "sps-trace-finish-private.h"

typedef struct
{
  sqlite3     *db;
  const char  *display_name;
  SpsTrace    *trace;
  SpsProgress *progress;
} Reader;

static gboolean
malformed (GError     **error,
           const char  *display_name,
           const char  *format,
           ...) G_GNUC_PRINTF (3, 4);

static gboolean
malformed (GError     **error,
           const char  *display_name,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
               "%s: %s", display_name, message);
  return FALSE;
}

static gboolean
sqlite_failed (Reader  *r,
               GError **error)
{
  return malformed (error, r->display_name, _("the database cannot be read: %s"),
                    sqlite3_errmsg (r->db));
}

static void
set_str (char       **slot,
         const char  *value)
{
  g_free (*slot);
  *slot = g_strdup (value);
}

static gint64
pragma_int (sqlite3    *db,
            const char *sql,
            gboolean   *ok)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK ||
      sqlite3_step (stmt) != SQLITE_ROW)
    {
      *ok = FALSE;
      return 0;
    }
  return sqlite3_column_int64 (stmt, 0);
}

/* A statement outside a transaction takes the file's shared lock and
 * checks for a hot journal and a changed file (a lock, a stat, a read of
 * the header) before it reads, and drops the lock after: for every
 * statement and every column image. Reads inside one read transaction
 * do that once, and all see the same file. */
static void
read_begin (sqlite3 *db)
{
  sqlite3_exec (db, "BEGIN", NULL, NULL, NULL);
}

/* A read-only transaction: ending it only lets go of the lock */
static void
read_end (sqlite3 *db)
{
  if (!sqlite3_get_autocommit (db))
    sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
}

static const char * const extra_tables[] = {
  "meta", "strings", "warnings", "row_counts", "column_images",
};

/* Every table the reader reads must be a table: a view of the same name
 * could make a query run for ever. */
static gboolean
check_schema (sqlite3     *db,
              const char  *display_name,
              GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT type FROM sqlite_schema WHERE name = ?", -1, &stmt, NULL) != SQLITE_OK)
    return malformed (error, display_name, _("the database cannot be read: %s"), sqlite3_errmsg (db));

  for (guint i = 0; i < G_N_ELEMENTS (extra_tables) + _sps_profile_n_tables; i++)
    {
      const char *name = i < G_N_ELEMENTS (extra_tables)
                         ? extra_tables[i]
                         : _sps_profile_tables[i - G_N_ELEMENTS (extra_tables)].name;
      int rc;

      sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
      rc = sqlite3_step (stmt);
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return malformed (error, display_name, _("the database cannot be read: %s"), sqlite3_errmsg (db));
      if (rc != SQLITE_ROW || g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "table") != 0)
        return malformed (error, display_name, _("the table “%s” is missing"), name);
      sqlite3_reset (stmt);
    }
  return TRUE;
}

/**
 * _sps_profile_open:
 * @path: a file name
 * @display_name: the file's name in messages
 * @error: return location for a #GError
 *
 * Opens a profile read-only and checks its header: the application id,
 * a format version this reader knows and the tables it reads.
 *
 * Returns: (transfer full) (nullable): the connection, or %NULL with
 *   @error set (%SPS_IMPORT_ERROR_UNSUPPORTED for a newer format)
 */
sqlite3 *
_sps_profile_open (const char  *path,
                   const char  *display_name,
                   GError     **error)
{
  sqlite3 *db = NULL;
  gboolean ok = TRUE;
  gint64 application_id;
  gint64 version;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      malformed (error, display_name, _("the database cannot be opened: %s"), sqlite3_errmsg (db));
      sqlite3_close (db);
      return NULL;
    }

  /* The file is input like any other: SQLite's own guards for untrusted
   * databases, and mapped pages (file-backed, not anonymous memory). */
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_exec (db, "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 2147418112;", NULL, NULL, NULL);

  /* The checks read under one lock (see read_begin()) */
  read_begin (db);
  application_id = pragma_int (db, "PRAGMA application_id", &ok);
  version = pragma_int (db, "PRAGMA user_version", &ok);
  if (!ok)
    malformed (error, display_name, _("the database cannot be read: %s"), sqlite3_errmsg (db));
  else if (application_id != SPS_PROFILE_APPLICATION_ID)
    ok = malformed (error, display_name, "%s", _("not a Spanscope profile (another application’s SQLite database)"));
  else if (version > SPS_PROFILE_FORMAT_VERSION)
    {
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED,
                   /* Translators: a file name, then two version numbers */
                   _("%s: saved in profile format %lld by a newer Spanscope; "
                     "this version reads formats up to %d"),
                   display_name, (long long) version, SPS_PROFILE_FORMAT_VERSION);
      ok = FALSE;
    }
  else if (version < 1)
    ok = malformed (error, display_name, _("profile format %lld does not exist"), (long long) version);
  else
    ok = check_schema (db, display_name, error);

  if (!ok)
    {
      sqlite3_close (db);
      return NULL;
    }
  read_end (db);
  return db;
}

static gboolean
read_meta (Reader  *r,
           GError **error)
{
  SpsTrace *trace = r->trace;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *error_domain = NULL;
  g_autofree char *error_message = NULL;
  gint64 error_code = 0;
  gboolean byte_order_ok = FALSE;
  int rc;

  if (sqlite3_prepare_v2 (r->db, "SELECT key, value FROM meta", -1, &stmt, NULL) != SQLITE_OK)
    return sqlite_failed (r, error);

  trace->has_origin = TRUE;
  trace->origin_size = -1;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *key = (const char *) sqlite3_column_text (stmt, 0);
      const char *text = (const char *) sqlite3_column_text (stmt, 1);
      gint64 number = sqlite3_column_int64 (stmt, 1);

      if (key == NULL)
        continue;
      if (strcmp (key, "byte_order") == 0)
        byte_order_ok = g_strcmp0 (text, G_BYTE_ORDER == G_LITTLE_ENDIAN ? "little" : "big") == 0;
      else if (strcmp (key, "trace_format") == 0)
        set_str (&trace->format, text);
      else if (strcmp (key, "display_time_unit") == 0)
        set_str (&trace->display_time_unit, text);
      else if (strcmp (key, "start_time") == 0)
        trace->start_time = number;
      else if (strcmp (key, "end_time") == 0)
        trace->end_time = number;
      else if (strcmp (key, "events_read") == 0)
        trace->events_read = (guint64) number;
      else if (strcmp (key, "metadata_events") == 0)
        trace->metadata_events = (guint64) number;
      else if (strcmp (key, "source_file") == 0)
        set_str (&trace->origin_file, text);
      else if (strcmp (key, "source_size") == 0)
        trace->origin_size = sqlite3_column_type (stmt, 1) == SQLITE_INTEGER && number >= 0 ? number : -1;
      else if (strcmp (key, "source_sha256") == 0)
        set_str (&trace->origin_sha256, text);
      else if (strcmp (key, "import_options") == 0)
        set_str (&trace->origin_import_options, text);
      else if (strcmp (key, "load_error_domain") == 0)
        set_str (&error_domain, text);
      else if (strcmp (key, "load_error_code") == 0)
        error_code = number;
      else if (strcmp (key, "load_error_message") == 0)
        set_str (&error_message, text);
    }
  if (rc != SQLITE_DONE)
    return sqlite_failed (r, error);

  if (!byte_order_ok)
    return malformed (error, r->display_name, "%s",
                      _("saved on a machine of another byte order, which this version cannot read"));
  if (trace->start_time > trace->end_time)
    return malformed (error, r->display_name, "%s", _("the trace ends before it starts"));

  if (error_domain != NULL && error_message != NULL && error_code >= G_MININT && error_code <= G_MAXINT)
    trace->load_error = g_error_new_literal (g_quark_from_string (error_domain), (int) error_code, error_message);
  return TRUE;
}

static gboolean
read_strings (Reader  *r,
              GError **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint32 expected = 0;
  int rc;

  r->trace->strings = sps_string_pool_new ();
  if (sqlite3_prepare_v2 (r->db, "SELECT id, text FROM strings ORDER BY id", -1, &stmt, NULL) != SQLITE_OK)
    return sqlite_failed (r, error);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 1);
      gsize len = sqlite3_column_bytes (stmt, 1);

      /* Ids are positions: 0 is the pool's empty string, then each string
       * once, in order */
      if (sqlite3_column_int64 (stmt, 0) != expected || text == NULL || expected == G_MAXUINT32 ||
          (expected == 0 ? len != 0
                         : sps_string_pool_intern (r->trace->strings, text, len) != expected))
        return malformed (error, r->display_name, _("string %u is missing or repeated"), expected);
      expected++;
    }
  if (rc != SQLITE_DONE)
    return sqlite_failed (r, error);
  return TRUE;
}

static gboolean
read_warnings (Reader  *r,
               GError **error)
{
  SpsTrace *trace = r->trace;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint64));
  int rc;

  if (sqlite3_prepare_v2 (r->db, "SELECT name, count, message FROM warnings ORDER BY id", -1, &stmt, NULL) != SQLITE_OK)
    return sqlite_failed (r, error);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      guint64 count = (guint64) sqlite3_column_int64 (stmt, 1);

      /* Sorted by name, as finish() leaves them */
      if (name == NULL || (names->len > 0 && strcmp (g_ptr_array_index (names, names->len - 1), name) >= 0))
        return malformed (error, r->display_name, "%s", _("the warnings are not sorted by name"));
      g_ptr_array_add (names, g_strdup (name));
      g_ptr_array_add (messages, g_strdup ((const char *) sqlite3_column_text (stmt, 2)));
      g_array_append_val (counts, count);
    }
  if (rc != SQLITE_DONE)
    return sqlite_failed (r, error);

  trace->n_warnings = names->len;
  g_ptr_array_add (names, NULL);
  g_ptr_array_add (messages, NULL);
  trace->warning_names = (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  trace->warning_messages = (char **) g_ptr_array_free (g_steal_pointer (&messages), FALSE);
  trace->warning_counts = (guint64 *) (gpointer) g_array_free (g_steal_pointer (&counts), FALSE);
  return TRUE;
}

static gboolean
read_row_count (Reader                *r,
                sqlite3_stmt          *stmt,
                const SpsProfileTable *table,
                GError               **error)
{
  gint64 n;
  int rc;

  sqlite3_bind_text (stmt, 1, table->name, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      sqlite3_reset (stmt);
      return rc == SQLITE_DONE
             ? malformed (error, r->display_name, _("the row count of “%s” is missing"), table->name)
             : sqlite_failed (r, error);
    }
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  /* Row numbers are guint32 with SPS_NO_INDEX reserved */
  if (n < 0 || n >= G_MAXUINT32)
    return malformed (error, r->display_name, _("“%s” has %lld rows"), table->name, (long long) n);
  memcpy ((char *) r->trace + table->n_rows, &(guint) { (guint) n }, sizeof (guint));
  return TRUE;
}

static gboolean
image_mismatch (Reader                 *r,
                const SpsProfileTable  *table,
                const char             *column,
                GError                **error)
{
  return malformed (error, r->display_name, _("the data of %s.%s does not match its %u rows"),
                    table->name, column, _sps_profile_table_rows (r->trace, table));
}

/* Reads a column's image into new memory of exactly @size bytes (%NULL
 * for 0); the chunks' lengths are checked against @size before anything
 * is allocated, so a row count the file does not back costs nothing. */
static gboolean
read_image (Reader                 *r,
            sqlite3_stmt           *chunks,
            const SpsProfileTable  *table,
            const char             *column,
            gsize                   size,
            guint8                **out,
            GError                **error)
{
  g_autoptr(GArray) rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint8 *data = NULL;
  gboolean chunks_ok = TRUE;
  gsize total = 0;
  gsize offset = 0;
  int rc;

  sqlite3_bind_text (chunks, 1, table->name, -1, SQLITE_STATIC);
  sqlite3_bind_text (chunks, 2, column, -1, SQLITE_STATIC);
  while (chunks_ok && (rc = sqlite3_step (chunks)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (chunks, 0);
      gint64 len = sqlite3_column_int64 (chunks, 2);

      /* Chunks numbered from 0, adding up to no more than the column */
      chunks_ok = sqlite3_column_int64 (chunks, 1) == (gint64) rowids->len &&
                  len >= 0 && (guint64) len <= size - total;
      total += chunks_ok ? (gsize) len : 0;
      g_array_append_val (rowids, rowid);
    }
  sqlite3_reset (chunks);
  if (chunks_ok && rc != SQLITE_DONE)
    return sqlite_failed (r, error);
  if (!chunks_ok || total != size || rowids->len == 0)
    return image_mismatch (r, table, column, error);

  data = size > 0 ? _sps_alloc_large (size) : NULL;
  for (guint i = 0; i < rowids->len && size > 0; i++)
    {
      sqlite3_blob *blob = NULL;
      int len;

      if (sqlite3_blob_open (r->db, "main", "column_images", "data",
                             g_array_index (rowids, gint64, i), 0, &blob) != SQLITE_OK)
        {
          sqlite3_blob_close (blob);
          return sqlite_failed (r, error);
        }
      len = sqlite3_blob_bytes (blob);
      if ((gsize) len > size - offset)
        {
          sqlite3_blob_close (blob);
          return image_mismatch (r, table, column, error);
        }
      if (sqlite3_blob_read (blob, data + offset, len, 0) != SQLITE_OK)
        {
          sqlite3_blob_close (blob);
          return sqlite_failed (r, error);
        }
      sqlite3_blob_close (blob);
      offset += len;
    }
  if (offset != size)
    return image_mismatch (r, table, column, error);

  *out = g_steal_pointer (&data);
  return TRUE;
}

/* Args columns are saved as a bitmap of the rows that have args; their
 * references are deferred ones read back from the rows (sps-profile-args.c). */
static SpsArgsRef *
args_from_bitmap (const guint8 *bitmap,
                  guint         table_index,
                  guint         n)
{
  SpsArgsRef *refs = _sps_alloc_large (MAX (n, 1) * sizeof (SpsArgsRef));
  guint64 base = (guint64) table_index << SPS_PROFILE_COOKIE_ROW_BITS;

  for (guint i = 0; i < n; i++)
    refs[i] = (bitmap[i / 8] >> (i % 8)) & 1
              ? sps_args_ref_new_deferred (1, base | i)
              : SPS_ARGS_REF_NONE;
  return refs;
}

static gboolean
read_tables (Reader  *r,
             GError **error)
{
  g_autoptr(sqlite3_stmt) counts = NULL;
  g_autoptr(sqlite3_stmt) chunks = NULL;

  if (sqlite3_prepare_v2 (r->db, "SELECT n_rows FROM row_counts WHERE name = ?", -1, &counts, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (r->db, "SELECT rowid, chunk, length(data) FROM column_images "
                                 "WHERE table_name = ? AND column_name = ? ORDER BY chunk",
                          -1, &chunks, NULL) != SQLITE_OK)
    return sqlite_failed (r, error);

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    {
      const SpsProfileTable *table = &_sps_profile_tables[t];
      guint n;

      if (!read_row_count (r, counts, table, error))
        return FALSE;
      n = _sps_profile_table_rows (r->trace, table);

      for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++)
        {
          gboolean is_args = c->kind == SPS_PROFILE_KIND_ARGS;
          gsize size = is_args ? (n + 7) / 8 : (gsize) n * _sps_profile_kind_size (c->kind);
          g_autofree guint8 *image = NULL;
          gpointer column;

          if (!read_image (r, chunks, table, c->name, size, &image, error))
            return FALSE;

          column = is_args ? (gpointer) args_from_bitmap (image, t, n) : (gpointer) g_steal_pointer (&image);
          memcpy ((char *) r->trace + c->offset, &column, sizeof column);
        }

      if (r->progress != NULL)
        sps_progress_set_fraction (r->progress, 0.8 * (t + 1) / _sps_profile_n_tables);
      if (r->progress != NULL && sps_progress_is_cancelled (r->progress))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * sps_profile_probe:
 * @head: the first bytes of a file (at least 72 to recognise anything)
 *
 * Recognises a saved profile from its header: the SQLite magic and the
 * `application_id` %SPS_PROFILE_APPLICATION_ID (big-endian at byte 68).
 *
 * Returns: 100 for a saved profile, 0 otherwise
 */
guint
sps_profile_probe (GBytes *head)
{
  static const char magic[16] = "SQLite format 3";
  const guint8 *data;
  gsize size = 0;
  guint32 id;

  g_return_val_if_fail (head != NULL, 0);

  data = g_bytes_get_data (head, &size);
  if (size < 72 || memcmp (data, magic, sizeof magic) != 0)
    return 0;
  id = (guint32) data[68] << 24 | (guint32) data[69] << 16 | (guint32) data[70] << 8 | data[71];
  return id == SPS_PROFILE_APPLICATION_ID ? 100 : 0;
}

/**
 * sps_trace_builder_load_profile:
 * @builder: a new #SpsTraceBuilder, to which nothing was added
 * @file: a saved profile (see sps_trace_save_profile())
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Reads a saved profile: the fast path for tables that were finished
 * when they were saved. The tables go into a trace at once, checked
 * value by value, and sps_trace_builder_finish() then returns that trace
 * as it is, with the format, warnings and metadata of the capture it was
 * made from. Args stay in the file until they are read.
 *
 * Returns: %TRUE on success; %FALSE with @error set (in
 *   %SPS_IMPORT_ERROR) when the file is not a profile, is damaged, or
 *   was written in a newer format version than this library reads
 */
gboolean
sps_trace_builder_load_profile (SpsTraceBuilder  *builder,
                                GFile            *file,
                                SpsProgress      *progress,
                                GError          **error)
{
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsProfileArgs) args = NULL;
  g_autofree char *path = NULL;
  g_autofree char *display_name = NULL;
  Reader r = { 0, };
  gboolean ok;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);
  g_return_val_if_fail (!builder->finished && builder->profile_trace == NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  display_name = g_file_get_parse_name (file);
  if (!(path = g_file_get_path (file)))
    {
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED, "%s: %s", display_name,
                   _("a saved profile is read from a local file only"));
      return FALSE;
    }

  /* The decoder's connection opens and checks the file, then reads the
   * tables too (nothing else has the decoder yet): one open and one
   * check of the schema, not two */
  if (!(args = sps_profile_args_new (path, display_name, error)))
    return FALSE;

  trace = g_object_new (SPS_TYPE_TRACE, NULL);
  r.display_name = display_name;
  r.trace = trace;
  r.progress = progress;
  r.db = _sps_profile_args_get_db (args);

  read_begin (r.db);
  ok = read_meta (&r, error) &&
       read_strings (&r, error) &&
       read_warnings (&r, error) &&
       read_tables (&r, error);
  read_end (r.db);
  if (!ok || !_sps_profile_check (trace, display_name, error))
    return FALSE;

  _sps_trace_store_constants (trace);
  _sps_trace_derive (trace);
  trace->arena = g_bytes_new (NULL, 0);
  trace->decoders = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (trace->decoders, g_steal_pointer (&args));
  if (trace->format == NULL)
    trace->format = g_strdup ("");

  builder->profile_trace = g_steal_pointer (&trace);
  return TRUE;
}
