/* sps-profile-args.c: the args of a reopened profile, read from its rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A reopened trace keeps no args in memory: its args references are
 * deferred ones whose cookie names a table and a row (see
 * SPS_PROFILE_COOKIE_ROW_BITS), and this decoder reads the JSON text from
 * that row of the database when a view or a query asks. Memory stays what
 * the original import took, where args were references into the mapped
 * capture.
 */

#define G_LOG_DOMAIN "sps-profile"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-profile-args-private.h"
#include "sps-profile-private.h"

struct _SpsProfileArgs
{
  GObject        parent_instance;

  char          *display_name;
  sqlite3       *db;
  /* Decoding may be asked from any thread; one statement per table */
  GMutex         mutex;
  sqlite3_stmt **statements;
};

static void sps_profile_args_decoder_init (SpsArgsDecoderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsProfileArgs, sps_profile_args, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_ARGS_DECODER,
                                                      sps_profile_args_decoder_init))

static const char *
args_column (const SpsProfileTable *table)
{
  for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++)
    if (c->kind == SPS_PROFILE_KIND_ARGS)
      return c->name;
  return NULL;
}

static gboolean
decode_locked (SpsProfileArgs  *self,
               guint64          cookie,
               GString         *json,
               GError         **error)
{
  guint t = cookie >> SPS_PROFILE_COOKIE_ROW_BITS;
  gint64 row = cookie & ((G_GUINT64_CONSTANT (1) << SPS_PROFILE_COOKIE_ROW_BITS) - 1);
  const char *column;
  sqlite3_stmt *stmt;
  int rc;

  if (t >= _sps_profile_n_tables || !(column = args_column (&_sps_profile_tables[t])))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: no table holds these args"), self->display_name);
      return FALSE;
    }

  if ((stmt = self->statements[t]) == NULL)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s WHERE id = ?",
                                              column, _sps_profile_tables[t].name);

      if (sqlite3_prepare_v2 (self->db, sql, -1, &self->statements[t], NULL) != SQLITE_OK)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s",
                       self->display_name, sqlite3_errmsg (self->db));
          return FALSE;
        }
      stmt = self->statements[t];
    }

  sqlite3_bind_int64 (stmt, 1, row);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW && sqlite3_column_type (stmt, 0) == SQLITE_TEXT)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 0);

      g_string_append_len (json, text, sqlite3_column_bytes (stmt, 0));
      sqlite3_reset (stmt);
      return TRUE;
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: a file name, a table and a row number */
               _("%s: the args of %s row %lld are missing: %s"),
               self->display_name, _sps_profile_tables[t].name, (long long) row,
               rc == SQLITE_ROW || rc == SQLITE_DONE ? _("no text") : sqlite3_errmsg (self->db));
  sqlite3_reset (stmt);
  return FALSE;
}

static gboolean
sps_profile_args_decode (SpsArgsDecoder  *decoder,
                         guint64          cookie,
                         GString         *json,
                         GError         **error)
{
  SpsProfileArgs *self = SPS_PROFILE_ARGS (decoder);
  gsize len = json->len;
  gboolean ok;

  g_mutex_lock (&self->mutex);
  ok = decode_locked (self, cookie, json, error);
  g_mutex_unlock (&self->mutex);
  if (!ok)
    g_string_truncate (json, len);
  return ok;
}

static void
sps_profile_args_decoder_init (SpsArgsDecoderInterface *iface)
{
  iface->decode = sps_profile_args_decode;
}

static void
sps_profile_args_finalize (GObject *object)
{
  SpsProfileArgs *self = SPS_PROFILE_ARGS (object);

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    sqlite3_finalize (self->statements[t]);
  g_free (self->statements);
  sqlite3_close (self->db);
  g_mutex_clear (&self->mutex);
  g_free (self->display_name);

  G_OBJECT_CLASS (sps_profile_args_parent_class)->finalize (object);
}

static void
sps_profile_args_class_init (SpsProfileArgsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sps_profile_args_finalize;
}

static void
sps_profile_args_init (SpsProfileArgs *self)
{
  g_mutex_init (&self->mutex);
  self->statements = g_new0 (sqlite3_stmt *, _sps_profile_n_tables);
}

/**
 * sps_profile_args_new:
 * @path: the profile database
 * @display_name: its name in messages
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): a decoder with its own read-only
 *   connection to @path, or %NULL with @error set
 */
SpsProfileArgs *
sps_profile_args_new (const char  *path,
                      const char  *display_name,
                      GError     **error)
{
  g_autoptr(SpsProfileArgs) self = g_object_new (SPS_TYPE_PROFILE_ARGS, NULL);

  self->display_name = g_strdup (display_name);
  if (!(self->db = _sps_profile_open (path, display_name, error)))
    return NULL;
  return g_steal_pointer (&self);
}

/* The connection, for the reader of the same file while the decoder is
 * its alone (before the trace that holds it is made) */
sqlite3 *
_sps_profile_args_get_db (SpsProfileArgs *self)
{
  g_return_val_if_fail (SPS_IS_PROFILE_ARGS (self), NULL);

  return self->db;
}
