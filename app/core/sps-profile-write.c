/* sps-profile-write.c: saving a trace as a profile database
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A saved profile is a SQLite database (docs/file-formats.md). Every
 * table of the trace is written twice: as rows of a real SQL table, for
 * anyone who opens the file with SQLite, and as one image per column
 * (the column's array as it is in memory, in chunks), which is what the
 * reader loads: copying arrays is many times faster than stepping
 * through millions of rows, and reopening must beat importing the
 * original. Args are only in the rows, as JSON text; the reopened trace
 * reads them from there when asked (sps-profile-args.c).
 */

#define G_LOG_DOMAIN "sps-profile"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-profile-private.h"

/* Bytes per row of the column image table: large enough that a column
 * takes few rows, small enough for SQLite's default length limit. */
#define IMAGE_CHUNK_SIZE (16u << 20)

typedef struct
{
  SpsTrace    *trace;
  sqlite3     *db;
  const char  *path;
  SpsProgress *progress;
  guint64      rows_done;
  guint64      rows_total;
} Writer;

static gboolean
set_sqlite_error (Writer  *w,
                  GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s",
               w->path, sqlite3_errmsg (w->db));
  return FALSE;
}

static gboolean
exec (Writer      *w,
      const char  *sql,
      GError     **error)
{
  if (sqlite3_exec (w->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return set_sqlite_error (w, error);
  return TRUE;
}

static sqlite3_stmt *
prepare (Writer      *w,
         const char  *sql,
         GError     **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (w->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      set_sqlite_error (w, error);
      return NULL;
    }
  return stmt;
}

static gboolean
step_done (Writer        *w,
           sqlite3_stmt  *stmt,
           GError       **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    return set_sqlite_error (w, error);
  return TRUE;
}

static gboolean
cancelled (Writer  *w,
           GError **error)
{
  if (w->progress != NULL && sps_progress_is_cancelled (w->progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("Saving was cancelled"));
      return TRUE;
    }
  return FALSE;
}

static void
advance (Writer *w,
         guint   rows)
{
  w->rows_done += rows;
  if (w->progress != NULL && w->rows_total > 0)
    sps_progress_set_fraction (w->progress, MIN (1.0, (double) w->rows_done / (double) w->rows_total));
}

static gboolean
put_meta (Writer        *w,
          sqlite3_stmt  *stmt,
          const char    *key,
          const char    *text,
          gint64         number,
          gboolean       is_number,
          GError       **error)
{
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  if (is_number)
    sqlite3_bind_int64 (stmt, 2, number);
  else if (text != NULL)
    sqlite3_bind_text (stmt, 2, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, 2);
  return step_done (w, stmt, error);
}

#define META_TEXT(key, text) put_meta (w, stmt, key, text, 0, FALSE, error)
#define META_INT(key, number) put_meta (w, stmt, key, NULL, number, TRUE, error)

/* The source's size and SHA-256, read in a stream: the capture is not
 * needed again, so this is the only time anything can say which file the
 * profile came from. */
static gboolean
hash_source (const char  *path,
             gint64      *size,
             char       **sha256)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buffer = g_malloc (1 << 20);
  gint64 total = 0;
  gssize n;

  if (!(stream = g_file_read (file, NULL, NULL)))
    return FALSE;
  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, 1 << 20, NULL, NULL)) > 0)
    {
      g_checksum_update (checksum, buffer, n);
      total += n;
    }
  if (n < 0)
    return FALSE;
  *size = total;
  *sha256 = g_strdup (g_checksum_get_string (checksum));
  return TRUE;
}

static gboolean
write_meta (Writer    *w,
            GVariant  *options,
            GError   **error)
{
  SpsTrace *trace = w->trace;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GVariant) import_options = NULL;
  g_autofree char *import_text = NULL;
  g_autofree char *source_name = NULL;
  g_autofree char *sha256 = NULL;
  g_autofree char *resaved_from = NULL;
  const char *source = NULL;
  gint64 source_size = -1;

  if (!exec (w, "CREATE TABLE meta (key TEXT PRIMARY KEY, value)", error) ||
      !(stmt = prepare (w, "INSERT INTO meta VALUES (?, ?)", error)))
    return FALSE;

  if (options != NULL)
    {
      g_variant_lookup (options, "source-file", "&s", &source);
      import_options = g_variant_lookup_value (options, "import-options", G_VARIANT_TYPE_VARDICT);
    }
  if (trace->has_origin)
    {
      /* Saved again from a profile: the capture stays the source, and
       * the profile it was reopened from is named apart */
      source_name = g_strdup (trace->origin_file);
      source_size = trace->origin_size;
      sha256 = g_strdup (trace->origin_sha256);
      import_text = g_strdup (trace->origin_import_options);
      if (source != NULL)
        resaved_from = g_path_get_basename (source);
    }
  else
    {
      if (source != NULL)
        {
          source_name = g_path_get_basename (source);
          if (!hash_source (source, &source_size, &sha256))
            source_size = -1;
        }
      if (import_options != NULL)
        import_text = g_variant_print (import_options, TRUE);
    }

  if (!META_INT ("format_version", SPS_PROFILE_FORMAT_VERSION) ||
      !META_TEXT ("producer", "Spanscope") ||
      !META_TEXT ("producer_version", PACKAGE_VERSION) ||
      !META_TEXT ("byte_order", G_BYTE_ORDER == G_LITTLE_ENDIAN ? "little" : "big") ||
      !META_TEXT ("source_file", source_name) ||
      !(source_size >= 0 ? META_INT ("source_size", source_size) : META_TEXT ("source_size", NULL)) ||
      !META_TEXT ("source_sha256", sha256) ||
      !META_TEXT ("import_options", import_text) ||
      !META_TEXT ("trace_format", trace->format) ||
      !META_TEXT ("display_time_unit", trace->display_time_unit) ||
      !META_INT ("start_time", trace->start_time) ||
      !META_INT ("end_time", trace->end_time) ||
      !META_INT ("events_read", (gint64) trace->events_read) ||
      !META_INT ("metadata_events", (gint64) trace->metadata_events) ||
      (resaved_from != NULL && !META_TEXT ("resaved_from", resaved_from)))
    return FALSE;

  if (trace->load_error != NULL &&
      (!META_TEXT ("load_error_domain", g_quark_to_string (trace->load_error->domain)) ||
       !META_INT ("load_error_code", trace->load_error->code) ||
       !META_TEXT ("load_error_message", trace->load_error->message)))
    return FALSE;

  return TRUE;
}

#undef META_TEXT
#undef META_INT

static gboolean
write_strings (Writer  *w,
               GError **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint n = sps_string_pool_get_size (w->trace->strings);

  if (!exec (w, "CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL)", error) ||
      !(stmt = prepare (w, "INSERT INTO strings VALUES (?, ?)", error)))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *s = sps_string_pool_get (w->trace->strings, i, &len);

      sqlite3_bind_int64 (stmt, 1, i);
      sqlite3_bind_text64 (stmt, 2, s, len, SQLITE_STATIC, SQLITE_UTF8);
      if (!step_done (w, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_warnings (Writer  *w,
                GError **error)
{
  SpsTrace *trace = w->trace;
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (!exec (w, "CREATE TABLE warnings (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                "count INTEGER NOT NULL, message TEXT)", error) ||
      !(stmt = prepare (w, "INSERT INTO warnings VALUES (?, ?, ?, ?)", error)))
    return FALSE;

  for (guint i = 0; i < trace->n_warnings; i++)
    {
      sqlite3_bind_int64 (stmt, 1, i);
      sqlite3_bind_text (stmt, 2, trace->warning_names[i], -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, (gint64) trace->warning_counts[i]);
      sqlite3_bind_text (stmt, 4, trace->warning_messages[i], -1, SQLITE_STATIC);
      if (!step_done (w, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static const char *
sql_type (const SpsProfileColumn *column)
{
  switch (column->kind)
    {
    case SPS_PROFILE_KIND_F64:
      return "REAL";
    case SPS_PROFILE_KIND_ARGS:
      return "TEXT";
    default:
      return "INTEGER";
    }
}

static void
bind_value (sqlite3_stmt           *stmt,
            int                     index,
            const SpsProfileColumn *column,
            gconstpointer           data,
            guint                   row)
{
  switch (column->kind)
    {
    case SPS_PROFILE_KIND_I64:
      sqlite3_bind_int64 (stmt, index, ((const gint64 *) data)[row]);
      break;
    case SPS_PROFILE_KIND_U64:
      /* The bits as they are: sizes and ids above 2^63 read back negative */
      sqlite3_bind_int64 (stmt, index, (gint64) ((const guint64 *) data)[row]);
      break;
    case SPS_PROFILE_KIND_I32:
      sqlite3_bind_int64 (stmt, index, ((const gint32 *) data)[row]);
      break;
    case SPS_PROFILE_KIND_U32:
    case SPS_PROFILE_KIND_STRING:
      {
        guint32 v = ((const guint32 *) data)[row];

        if (column->nullable && v == SPS_NO_INDEX)
          sqlite3_bind_null (stmt, index);
        else
          sqlite3_bind_int64 (stmt, index, v);
      }
      break;
    case SPS_PROFILE_KIND_U16:
      sqlite3_bind_int64 (stmt, index, ((const guint16 *) data)[row]);
      break;
    case SPS_PROFILE_KIND_U8:
      sqlite3_bind_int64 (stmt, index, ((const guint8 *) data)[row]);
      break;
    case SPS_PROFILE_KIND_F64:
      /* SQLite keeps NaN as NULL; the column image keeps it exactly */
      sqlite3_bind_double (stmt, index, ((const double *) data)[row]);
      break;
    default:
      g_assert_not_reached ();
    }
}

static char *
create_table_sql (const SpsProfileTable *table)
{
  GString *sql = g_string_new (NULL);

  g_string_append_printf (sql, "CREATE TABLE %s (id INTEGER PRIMARY KEY", table->name);
  for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++)
    g_string_append_printf (sql, ", %s %s", c->name, sql_type (c));
  g_string_append (sql, ")");
  return g_string_free (sql, FALSE);
}

/* The rows of @table; @bitmaps gets, for each args column, which rows
 * have args (what the reader needs without reading the rows). */
static gboolean
write_rows (Writer                 *w,
            const SpsProfileTable  *table,
            GPtrArray              *bitmaps,
            GError                **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GString) sql = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);
  g_autofree char *create = create_table_sql (table);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  guint n = _sps_profile_table_rows (w->trace, table);
  guint n_columns = 0;
  gconstpointer rows[SPS_PROFILE_MAX_COLUMNS];

  g_string_append_printf (sql, "INSERT INTO %s VALUES (?", table->name);
  for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++, n_columns++)
    {
      gpointer mem;

      g_string_append (sql, ", ?");
      g_ptr_array_add (bitmaps, c->kind == SPS_PROFILE_KIND_ARGS ? g_malloc0 (n / 8 + 1) : NULL);
      rows[n_columns] = _sps_profile_column_rows (w->trace, c, n, &mem);
      if (mem != NULL)
        g_ptr_array_add (owned, mem);
    }
  g_string_append (sql, ")");

  if (!exec (w, create, error) || !(stmt = prepare (w, sql->str, error)))
    return FALSE;

  for (guint r = 0; r < n; r++)
    {
      sqlite3_bind_int64 (stmt, 1, r);
      for (guint i = 0; i < n_columns; i++)
        {
          const SpsProfileColumn *c = &table->columns[i];
          gconstpointer data = rows[i];
          SpsArgsRef ref;

          if (c->kind != SPS_PROFILE_KIND_ARGS)
            {
              bind_value (stmt, i + 2, c, data, r);
              continue;
            }

          /* Deferred args are decoded now: the profile does without the
           * capture they were read from. Args that cannot be read are
           * saved as none, as the views show them. */
          ref = ((const SpsArgsRef *) data)[r];
          g_string_truncate (json, 0);
          if (ref != SPS_ARGS_REF_NONE &&
              sps_trace_append_args_json (w->trace, ref, json, NULL) && json->len > 0)
            {
              guint8 *bitmap = g_ptr_array_index (bitmaps, bitmaps->len - n_columns + i);

              bitmap[r / 8] |= 1u << (r % 8);
              sqlite3_bind_text64 (stmt, i + 2, json->str, json->len, SQLITE_TRANSIENT, SQLITE_UTF8);
            }
          else
            sqlite3_bind_null (stmt, i + 2);
        }
      if (!step_done (w, stmt, error))
        return FALSE;
      if ((r & 0xffff) == 0xffff)
        {
          if (cancelled (w, error))
            return FALSE;
          advance (w, 0x10000);
        }
    }
  advance (w, n & 0xffff);
  return TRUE;
}

static gboolean
write_image (Writer         *w,
             sqlite3_stmt   *stmt,
             const char     *table,
             const char     *column,
             gconstpointer   data,
             gsize           size,
             GError        **error)
{
  gsize chunk = 0;

  /* An empty column still gets its row, so that the reader can tell it
   * from a missing one. */
  do
    {
      gsize len = MIN (size - chunk * IMAGE_CHUNK_SIZE, IMAGE_CHUNK_SIZE);

      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, column, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, (gint64) chunk);
      sqlite3_bind_blob64 (stmt, 4, len > 0 ? (const char *) data + chunk * IMAGE_CHUNK_SIZE : "",
                           len, SQLITE_STATIC);
      if (!step_done (w, stmt, error))
        return FALSE;
      chunk++;
    }
  while (chunk * IMAGE_CHUNK_SIZE < size);
  return TRUE;
}

static gboolean
write_tables (Writer  *w,
              GError **error)
{
  g_autoptr(sqlite3_stmt) image = NULL;
  g_autoptr(sqlite3_stmt) count = NULL;

  if (!exec (w, "CREATE TABLE row_counts (name TEXT PRIMARY KEY, n_rows INTEGER NOT NULL)", error) ||
      !exec (w, "CREATE TABLE column_images (table_name TEXT NOT NULL, column_name TEXT NOT NULL, "
                "chunk INTEGER NOT NULL, data BLOB NOT NULL, "
                "PRIMARY KEY (table_name, column_name, chunk))", error) ||
      !(image = prepare (w, "INSERT INTO column_images VALUES (?, ?, ?, ?)", error)) ||
      !(count = prepare (w, "INSERT INTO row_counts VALUES (?, ?)", error)))
    return FALSE;

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    {
      const SpsProfileTable *table = &_sps_profile_tables[t];
      g_autoptr(GPtrArray) bitmaps = g_ptr_array_new_with_free_func (g_free);
      guint n = _sps_profile_table_rows (w->trace, table);
      guint i = 0;

      if (!write_rows (w, table, bitmaps, error))
        return FALSE;

      sqlite3_bind_text (count, 1, table->name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (count, 2, n);
      if (!step_done (w, count, error))
        return FALSE;

      for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++, i++)
        {
          g_autofree gpointer owned = NULL;
          gconstpointer data = c->kind == SPS_PROFILE_KIND_ARGS
                               ? g_ptr_array_index (bitmaps, i)
                               : _sps_profile_column_rows (w->trace, c, n, &owned);
          gsize size = c->kind == SPS_PROFILE_KIND_ARGS
                       ? (n + 7) / 8
                       : (gsize) n * _sps_profile_kind_size (c->kind);

          if (!write_image (w, image, table->name, c->name, data, size, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
write_database (Writer    *w,
                GVariant  *options,
                GError   **error)
{
  g_autofree char *pragmas = NULL;

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    w->rows_total += _sps_profile_table_rows (w->trace, &_sps_profile_tables[t]);

  /* Written once into a new file: no journal, no syncs until the end.
   * Large pages keep the column images' overflow chains short in a large
   * trace; a small one keeps small pages, or its 20-odd tables would take
   * a MiB and more. */
  pragmas = g_strdup_printf ("PRAGMA page_size = %u;"
                             "PRAGMA journal_mode = OFF;"
                             "PRAGMA synchronous = OFF;"
                             "PRAGMA application_id = %d;"
                             "PRAGMA user_version = %d;",
                             w->rows_total < (1u << 20) ? 4096u : 65536u,
                             (int) SPS_PROFILE_APPLICATION_ID, SPS_PROFILE_FORMAT_VERSION);

  return exec (w, pragmas, error) &&
         exec (w, "BEGIN", error) &&
         write_meta (w, options, error) &&
         write_strings (w, error) &&
         write_warnings (w, error) &&
         write_tables (w, error) &&
         exec (w, "COMMIT", error);
}

/**
 * sps_trace_save_profile:
 * @trace: a #SpsTrace
 * @path: the database file to write; it is created, or emptied if it
 *   exists
 * @options: (nullable): an a{sv} dictionary, or %NULL: "source-file" (s,
 *   the capture the trace was read from: its name, size and SHA-256 go
 *   into the `meta` table) and "import-options" (a{sv}, what the import
 *   was given)
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Saves @trace as a profile: a SQLite database holding every table of the
 * trace, its strings, warnings, metadata and a `meta` table, which
 * sps_trace_builder_load_profile() reopens without the capture or its
 * symbols. The format is described in docs/file-formats.md. @path is
 * written in place; write to a temporary name and rename it to keep an
 * older file whole on failure.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_trace_save_profile (SpsTrace     *trace,
                        const char   *path,
                        GVariant     *options,
                        SpsProgress  *progress,
                        GError      **error)
{
  Writer w = { trace, NULL, path, progress, 0, 0 };
  struct stat st = { 0, };
  gboolean ok;
  int fd;

  g_return_val_if_fail (SPS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (options == NULL || g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* SQLite would add to a database already there. O_NONBLOCK: a FIFO
   * without a reader fails at once instead of blocking; anything but a
   * regular file is refused. */
  if ((fd = g_open (path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0666)) < 0 ||
      fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || ftruncate (fd, 0) != 0)
    {
      int saved_errno = fd >= 0 && !S_ISREG (st.st_mode) ? EINVAL : errno;

      if (fd >= 0)
        g_close (fd, NULL);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", path, saved_errno == EINVAL ? _("not a regular file") : g_strerror (saved_errno));
      return FALSE;
    }
  g_close (fd, NULL);

  if (sqlite3_open_v2 (path, &w.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      ok = set_sqlite_error (&w, error);
      sqlite3_close (w.db);
      return ok;
    }

  /* As the other exporters report writing */
  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Writing"));

  ok = write_database (&w, options, error);
  if (sqlite3_close (w.db) != SQLITE_OK && ok)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, _("could not be closed"));
      ok = FALSE;
    }
  return ok;
}
