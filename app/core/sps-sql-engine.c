/* sps-sql-engine.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sps-sql-engine.h"
#include "sps-sql-private.h"
#include "sps-self-trace.h"

/**
 * SpsSqlEngine:
 *
 * SQL over a trace. The engine owns one SQLite connection on an in-memory
 * database whose tables are virtual tables reading the trace's columns in
 * place: `processes`, `threads`, `tracks`, `slices`, `instants`,
 * `counters`, `flows`, `samples`, `callsites`, `frames` and `objects`, the
 * view `events` of slices and samples together, and `visible_slices`, the
 * slices that sps_sql_engine_set_slice_mask()'s mask shows (see
 * docs/architecture.md for their columns). Nothing is copied, so creating
 * an engine costs the same for any trace size and the first query can run
 * the moment the import has finished.
 *
 * The trace tables are read-only: a statement that writes to, drops or
 * alters one fails with %SPS_SQL_ERROR_READ_ONLY. Tables and views of the
 * user's own (`CREATE TEMP TABLE x AS SELECT …`) are allowed and live as
 * long as the engine.
 *
 * The connection runs one query at a time: every query holds the engine's
 * lock from its first statement to its last row, so queries started from
 * several threads (or several sps_sql_engine_query_async() calls) run one
 * after the other, in no promised order. Asynchronous queries run on a
 * worker thread; cancelling the #GCancellable (or the #SpsProgress's)
 * interrupts the running statement with sqlite3_interrupt().
 */

struct _SpsSqlEngine
{
  GObject            parent_instance;

  SpsTrace          *trace;
  SpsSqlVtabContext *vtab;
  sqlite3           *db;
  guint              max_rows;      /* atomic */

  /* Guards db and everything below: one query at a time */
  GMutex             mutex;
  GCancellable      *cancellable;   /* of the running query */
  SpsProgress       *progress;
  char              *denied_table;  /* set by the authorizer */
  gboolean           denied_attach;
  gboolean           denied_pragma;
  GBytes            *query_mask;    /* slice_visible() of the running query */

  /* The mask the next query takes; its own lock, so that setting it never
   * waits for a running query */
  GMutex             mask_lock;
  GBytes            *slice_mask;
};

G_DEFINE_FINAL_TYPE (SpsSqlEngine, sps_sql_engine, G_TYPE_OBJECT)

G_DEFINE_QUARK (sps-sql-error-quark, sps_sql_error)

enum {
  PROP_0,
  PROP_MAX_ROWS,
  PROP_TRACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* SQLite calls the progress handler every this many virtual machine steps */
#define PROGRESS_STEPS 10000

/* Keeps trace tables read-only and the database in memory. Runs while a
 * statement is prepared, with the engine's lock held. */
static int
authorize (void       *user_data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *db_name,
           const char *trigger)
{
  SpsSqlEngine *self = user_data;
  const char *table = NULL;

  switch (action)
    {
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_VTABLE:
    case SQLITE_DROP_VIEW:
      table = arg1;
      break;

    case SQLITE_ALTER_TABLE:
      table = arg2;
      break;

    case SQLITE_ATTACH:
      self->denied_attach = TRUE;
      return SQLITE_DENY;

    case SQLITE_PRAGMA:
      /* Writing the schema would let a statement rewrite the trace tables */
      if (arg1 != NULL && g_ascii_strcasecmp (arg1, "writable_schema") == 0)
        {
          self->denied_pragma = TRUE;
          return SQLITE_DENY;
        }
      return SQLITE_OK;

    default:
      return SQLITE_OK;
    }

  if (table != NULL &&
      (db_name == NULL || g_strcmp0 (db_name, "main") == 0) &&
      (_sps_sql_vtab_is_trace_table (table) || g_ascii_strcasecmp (table, "visible_slices") == 0))
    {
      g_free (self->denied_table);
      self->denied_table = g_strdup (table);
      return SQLITE_DENY;
    }

  return SQLITE_OK;
}

static int
progress_handler (void *user_data)
{
  SpsSqlEngine *self = user_data;

  if (self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable))
    return 1;
  if (self->progress != NULL)
    sps_progress_set_fraction (self->progress,
                               _sps_sql_vtab_context_get_progress (self->vtab));
  return 0;
}

static void
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  SpsSqlEngine *self = user_data;

  /* Safe from any thread while the connection is open; the running query
   * holds a reference on the engine. */
  sqlite3_interrupt (self->db);
}

static void
sps_sql_engine_dispose (GObject *object)
{
  SpsSqlEngine *self = SPS_SQL_ENGINE (object);

  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_clear_pointer (&self->vtab, _sps_sql_vtab_context_free);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (sps_sql_engine_parent_class)->dispose (object);
}

static void
sps_sql_engine_finalize (GObject *object)
{
  SpsSqlEngine *self = SPS_SQL_ENGINE (object);

  g_free (self->denied_table);
  g_clear_pointer (&self->slice_mask, g_bytes_unref);
  g_mutex_clear (&self->mutex);
  g_mutex_clear (&self->mask_lock);

  G_OBJECT_CLASS (sps_sql_engine_parent_class)->finalize (object);
}

static void
sps_sql_engine_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SpsSqlEngine *self = SPS_SQL_ENGINE (object);

  switch (prop_id)
    {
    case PROP_MAX_ROWS:
      g_value_set_uint (value, sps_sql_engine_get_max_rows (self));
      break;

    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_sql_engine_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SpsSqlEngine *self = SPS_SQL_ENGINE (object);

  switch (prop_id)
    {
    case PROP_MAX_ROWS:
      sps_sql_engine_set_max_rows (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_sql_engine_class_init (SpsSqlEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_sql_engine_dispose;
  object_class->finalize = sps_sql_engine_finalize;
  object_class->get_property = sps_sql_engine_get_property;
  object_class->set_property = sps_sql_engine_set_property;

  /**
   * SpsSqlEngine:max-rows:
   *
   * The most rows a result holds; a query with more stops reading there
   * and its result says it was truncated. 0 (the default) means no limit.
   */
  properties[PROP_MAX_ROWS] =
    g_param_spec_uint ("max-rows", NULL, NULL,
                       0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SpsSqlEngine:trace:
   *
   * The trace the tables read.
   */
  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         SPS_TYPE_TRACE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sps_sql_engine_init (SpsSqlEngine *self)
{
  g_mutex_init (&self->mutex);
  g_mutex_init (&self->mask_lock);
}

/* slice_visible(id): 1 when slice @id passes the mask the running query
 * took (or when there is none), 0 when it is hidden, NULL for NULL. */
static void
slice_visible_func (sqlite3_context  *context,
                    int               argc,
                    sqlite3_value   **argv)
{
  SpsSqlEngine *self = sqlite3_user_data (context);
  const guint8 *mask;
  sqlite3_int64 id;
  gsize n = 0;

  if (sqlite3_value_type (argv[0]) == SQLITE_NULL)
    {
      sqlite3_result_null (context);
      return;
    }

  if (self->query_mask == NULL)
    {
      sqlite3_result_int (context, 1);
      return;
    }

  id = sqlite3_value_int64 (argv[0]);
  mask = g_bytes_get_data (self->query_mask, &n);
  sqlite3_result_int (context, id >= 0 && (guint64) id < n && mask[id] != 0);
}

/**
 * sps_sql_engine_set_slice_mask:
 * @self: a #SpsSqlEngine
 * @mask: (nullable): one byte per row of the slices table, nonzero for a
 *   visible slice (what the session's filters give), or %NULL for all
 *   visible
 *
 * Sets what the SQL function `slice_visible(id)` answers and which slices
 * the table `visible_slices` lists, so that queries can follow the viewer's
 * filters: `SELECT … FROM slices WHERE slice_visible(id)`, or
 * `SELECT … FROM slices JOIN visible_slices USING (id)`. A query takes the mask set when it starts; setting it
 * never waits for a running query.
 */
void
sps_sql_engine_set_slice_mask (SpsSqlEngine *self,
                               GBytes       *mask)
{
  g_return_if_fail (SPS_IS_SQL_ENGINE (self));

  g_mutex_lock (&self->mask_lock);
  g_clear_pointer (&self->slice_mask, g_bytes_unref);
  self->slice_mask = mask != NULL ? g_bytes_ref (mask) : NULL;
  g_mutex_unlock (&self->mask_lock);
}

/**
 * sps_sql_engine_new:
 * @trace: a finished #SpsTrace
 * @error: return location for a #GError
 *
 * Opens an in-memory SQLite database and creates the virtual tables over
 * @trace. No row is copied: this takes well under a millisecond whatever
 * the size of the trace. Call it from any thread.
 *
 * Returns: (transfer full): a new engine, or %NULL with @error set when
 *   SQLite cannot open a database
 */
SpsSqlEngine *
sps_sql_engine_new (SpsTrace  *trace,
                    GError   **error)
{
  g_autoptr(SpsSqlEngine) self = NULL;
  int rc;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (SPS_TYPE_SQL_ENGINE, NULL);
  self->trace = g_object_ref (trace);
  self->vtab = _sps_sql_vtab_context_new (trace);

  /* The engine serialises all use of the connection itself */
  rc = sqlite3_open_v2 (":memory:", &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                        SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_MEMORY,
                        NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_SQLITE,
                   /* Translators: %s is SQLite's error message */
                   _("Could not open the SQL database: %s"),
                   self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return NULL;
    }
  sqlite3_extended_result_codes (self->db, 0);

  /* The user's temporary tables stay in memory, like the rest */
  sqlite3_exec (self->db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);

  if (!_sps_sql_vtab_register (self->vtab, self->db, error) ||
      !_sps_sql_visible_register (self->db, self->trace, &self->query_mask, error))
    return NULL;

  /* Not deterministic: its answer follows sps_sql_engine_set_slice_mask() */
  sqlite3_create_function_v2 (self->db, "slice_visible", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, self,
                              slice_visible_func, NULL, NULL, NULL);

  sqlite3_set_authorizer (self->db, authorize, self);

  return g_steal_pointer (&self);
}

/**
 * sps_sql_engine_get_trace:
 * @self: a #SpsSqlEngine
 *
 * Returns: (transfer none): the trace the tables read
 */
SpsTrace *
sps_sql_engine_get_trace (SpsSqlEngine *self)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);

  return self->trace;
}

/**
 * sps_sql_engine_get_max_rows:
 * @self: a #SpsSqlEngine
 *
 * Returns: the #SpsSqlEngine:max-rows limit, 0 for none
 */
guint
sps_sql_engine_get_max_rows (SpsSqlEngine *self)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), 0);

  return g_atomic_int_get (&self->max_rows);
}

/**
 * sps_sql_engine_set_max_rows:
 * @self: a #SpsSqlEngine
 * @max_rows: the most rows a result holds, 0 for no limit
 *
 * Sets #SpsSqlEngine:max-rows for the queries started afterwards.
 */
void
sps_sql_engine_set_max_rows (SpsSqlEngine *self,
                             guint         max_rows)
{
  g_return_if_fail (SPS_IS_SQL_ENGINE (self));

  if ((guint) g_atomic_int_get (&self->max_rows) == max_rows)
    return;
  g_atomic_int_set (&self->max_rows, max_rows);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ROWS]);
}

static void
set_statement_error (SpsSqlEngine  *self,
                     int            rc,
                     gboolean       preparing,
                     GError       **error)
{
  const char *message = sqlite3_errmsg (self->db);

  g_assert (SPS_IS_SQL_ENGINE (self));

  if (rc == SQLITE_INTERRUPT ||
      (self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable)))
    g_set_error_literal (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED,
                         _("The query was interrupted"));
  else if (self->denied_table != NULL)
    g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_READ_ONLY,
                 /* Translators: %s is the name of an SQL table of the trace */
                 _("table %s is read-only"), self->denied_table);
  else if (self->denied_attach)
    g_set_error_literal (error, SPS_SQL_ERROR, SPS_SQL_ERROR_READ_ONLY,
                         _("ATTACH is not allowed: the SQL engine does not touch files"));
  else if (self->denied_pragma)
    g_set_error_literal (error, SPS_SQL_ERROR, SPS_SQL_ERROR_READ_ONLY,
                         _("PRAGMA writable_schema is not allowed: the trace tables are read-only"));
  else if (g_str_has_prefix (message, "table ") &&
           (g_str_has_suffix (message, " may not be modified") ||
            g_str_has_suffix (message, " may not be altered") ||
            g_str_has_suffix (message, " may not be dropped")))
    {
      /* SQLite's own checks for a virtual table without xUpdate, and for
       * an eponymous one (which cannot be altered or dropped) */
      g_autofree char *table = g_strndup (message + strlen ("table "),
                                          strrchr (message, ' ') - message - strlen ("table ") -
                                          strlen (" may not be"));

      g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_READ_ONLY,
                   _("table %s is read-only"), table);
    }
  else
    g_set_error_literal (error, SPS_SQL_ERROR,
                         preparing ? SPS_SQL_ERROR_SYNTAX : SPS_SQL_ERROR_SQLITE,
                         message);
}

/* Moves past whitespace and then @word (any case); FALSE if it is not next */
static gboolean
skip_word (const char **p,
           const char  *word)
{
  gsize len;

  g_assert (p != NULL && *p != NULL);
  g_assert (word != NULL && word[0] != '\0');

  len = strlen (word);
  while (g_ascii_isspace (**p))
    (*p)++;
  if (g_ascii_strncasecmp (*p, word, len) != 0)
    return FALSE;
  /* A keyword or name must end there */
  if (g_ascii_isalnum (word[len - 1]) && (g_ascii_isalnum ((*p)[len]) || (*p)[len] == '_'))
    return FALSE;
  *p += len;
  return TRUE;
}

/* Whether a temporary table or view named @table hides the trace's */
static gboolean
hidden_by_temp (SpsSqlEngine *self,
                const char   *table)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_assert (SPS_IS_SQL_ENGINE (self));
  g_assert (table != NULL);

  if (sqlite3_prepare_v2 (self->db, "SELECT 1 FROM temp.sqlite_schema WHERE name = ?1 COLLATE NOCASE"
                          " AND type IN ('table', 'view')", -1, &stmt, NULL) != SQLITE_OK)
    return TRUE;
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_TRANSIENT);
  return sqlite3_step (stmt) != SQLITE_DONE;
}

/* `SELECT count(*) FROM t` on a trace table: SQLite answers it for its own
 * tables from the b-tree's count (OP_Count) but steps a virtual table row
 * by row; the tables know their row count, so the statement becomes
 * `SELECT n` under the same column name. NULL for any other statement
 * (and when a temporary table of that name hides the trace's). */
static sqlite3_stmt *
prepare_count (SpsSqlEngine *self,
               sqlite3_stmt *stmt)
{
  const char *p = sqlite3_sql (stmt);
  const char *name;
  const char *before;
  g_autofree char *table = NULL;
  char *quoted;
  g_autofree char *sql = NULL;
  sqlite3_stmt *count = NULL;
  gboolean qualified;
  guint64 n_rows;

  g_assert (SPS_IS_SQL_ENGINE (self));
  g_assert (stmt != NULL);

  if (p == NULL || sqlite3_column_count (stmt) != 1 ||
      !skip_word (&p, "select") || !skip_word (&p, "count") || !skip_word (&p, "(") ||
      !skip_word (&p, "*") || !skip_word (&p, ")") || !skip_word (&p, "from"))
    return NULL;
  before = p;
  qualified = skip_word (&p, "main") && skip_word (&p, ".");
  if (!qualified)
    p = before;
  while (g_ascii_isspace (*p))
    p++;
  name = p;
  while (g_ascii_isalnum (*p) || *p == '_')
    p++;
  table = g_strndup (name, p - name);
  while (g_ascii_isspace (*p) || *p == ';')
    p++;
  if (*p != '\0' || !_sps_sql_vtab_count_rows (self->vtab, table, &n_rows))
    return NULL;
  if (!qualified && hidden_by_temp (self, table))
    return NULL;

  quoted = sqlite3_mprintf ("%w", sqlite3_column_name (stmt, 0));
  sql = g_strdup_printf ("SELECT %" G_GUINT64_FORMAT " AS \"%s\"", n_rows, quoted);
  sqlite3_free (quoted);
  if (sqlite3_prepare_v2 (self->db, sql, -1, &count, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (count);
      return NULL;
    }
  return count;
}

/* Runs every statement of @sql in order; the result is that of the last
 * statement that returns columns (else of the last statement). */
static SpsSqlResult *
run_locked (SpsSqlEngine  *self,
            const char    *sql,
            SpsProgress   *progress,
            GCancellable  *cancellable,
            SpsSqlStream  *stream,
            GError       **error)
{
  g_autoptr(SpsSqlResult) result = NULL;
  const char *tail = sql;
  guint max_rows = sps_sql_engine_get_max_rows (self);
  gint64 start = g_get_monotonic_time ();
  SPS_SELF_TRACE_SCOPE_ARG ("sql/query", "sql", sql);

  g_assert (SPS_IS_SQL_ENGINE (self));

  while (tail != NULL && *tail != '\0')
    {
      g_autoptr(sqlite3_stmt) stmt = NULL;
      g_autoptr(SpsSqlResult) current = NULL;
      sqlite3_stmt *count;
      const char *next = NULL;
      int rc;

      if (g_cancellable_set_error_if_cancelled (cancellable, NULL))
        {
          g_set_error_literal (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED,
                               _("The query was interrupted"));
          return NULL;
        }

      g_clear_pointer (&self->denied_table, g_free);
      self->denied_attach = FALSE;
      self->denied_pragma = FALSE;
      rc = sqlite3_prepare_v2 (self->db, tail, -1, &stmt, &next);
      if (rc != SQLITE_OK)
        {
          set_statement_error (self, rc, TRUE, error);
          return NULL;
        }
      tail = next;
      if (stmt == NULL)
        continue;     /* whitespace or a comment */
      if ((count = prepare_count (self, stmt)) != NULL)
        {
          sqlite3_finalize (stmt);
          stmt = count;
        }

      _sps_sql_vtab_context_reset_progress (self->vtab);
      current = _sps_sql_result_new (stmt);
      if (stream != NULL && sps_sql_result_get_n_columns (current) > 0)
        _sps_sql_stream_begin (stream, current);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          if (max_rows > 0 && sps_sql_result_get_n_rows (current) >= max_rows)
            {
              _sps_sql_result_set_truncated (current, TRUE);
              rc = SQLITE_DONE;
              break;
            }
          _sps_sql_result_append_row (current, stmt);
          if (stream != NULL)
            _sps_sql_stream_row_added (stream);
        }
      if (rc != SQLITE_DONE)
        {
          set_statement_error (self, rc, FALSE, error);
          return NULL;
        }

      if (result == NULL ||
          sps_sql_result_get_n_columns (current) > 0 ||
          sps_sql_result_get_n_columns (result) == 0)
        g_set_object (&result, current);
    }

  if (result == NULL)
    {
      g_set_error_literal (error, SPS_SQL_ERROR, SPS_SQL_ERROR_EMPTY,
                           _("The query holds no SQL statement"));
      return NULL;
    }

  _sps_sql_result_set_elapsed_ns (result, (g_get_monotonic_time () - start) * 1000);
  return g_steal_pointer (&result);
}

SpsSqlResult *
_sps_sql_engine_run (SpsSqlEngine  *self,
                     const char    *sql,
                     SpsProgress   *progress,
                     GCancellable  *cancellable,
                     SpsSqlStream  *stream,
                     GError       **error)
{
  g_autoptr(GCancellable) progress_cancellable = NULL;
  SpsSqlResult *result;
  gulong handler = 0;
  gulong progress_handler_id = 0;

  g_assert (SPS_IS_SQL_ENGINE (self));
  g_assert (sql != NULL);

  if (progress != NULL)
    {
      GCancellable *c = sps_progress_get_cancellable (progress);

      progress_cancellable = c != NULL ? g_object_ref (c) : NULL;
      if (cancellable == NULL)
        cancellable = progress_cancellable;
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Running the query"));
    }

  g_mutex_lock (&self->mutex);

  g_mutex_lock (&self->mask_lock);
  self->query_mask = self->slice_mask != NULL ? g_bytes_ref (self->slice_mask) : NULL;
  g_mutex_unlock (&self->mask_lock);

  self->cancellable = cancellable;
  self->progress = progress;
  sqlite3_progress_handler (self->db, PROGRESS_STEPS, progress_handler, self);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), self, NULL);
  if (progress_cancellable != NULL && progress_cancellable != cancellable)
    progress_handler_id = g_cancellable_connect (progress_cancellable, G_CALLBACK (on_cancelled), self, NULL);

  result = run_locked (self, sql, progress, cancellable, stream, error);

  /* Disconnecting waits for a handler running on another thread */
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  if (progress_handler_id != 0)
    g_cancellable_disconnect (progress_cancellable, progress_handler_id);
  sqlite3_progress_handler (self->db, 0, NULL, NULL);
  self->cancellable = NULL;
  self->progress = NULL;
  g_clear_pointer (&self->query_mask, g_bytes_unref);

  g_mutex_unlock (&self->mutex);

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_DONE, NULL);

  return result;
}

/**
 * sps_sql_engine_query:
 * @self: a #SpsSqlEngine
 * @sql: one or more SQL statements separated by `;`
 * @progress: (nullable): where to report progress (its cancellable also
 *   interrupts the query)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs @sql in the calling thread, waiting for a query running on another
 * thread to finish first. The statements run in order; the result is that
 * of the last statement that returns columns, or of the last statement
 * when none does (a result with no columns). Errors carry SQLite's message
 * (%SPS_SQL_ERROR_SYNTAX, %SPS_SQL_ERROR_SQLITE), or say that a trace
 * table is read-only or that the query was interrupted.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 */
SpsSqlResult *
sps_sql_engine_query (SpsSqlEngine  *self,
                      const char    *sql,
                      SpsProgress   *progress,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _sps_sql_engine_run (self, sql, progress, cancellable, NULL, error);
}

typedef struct
{
  char         *sql;
  SpsProgress  *progress;
  SpsSqlStream *stream;
} QueryData;

static void
query_data_free (QueryData *data)
{
  g_free (data->sql);
  g_clear_object (&data->progress);
  g_clear_pointer (&data->stream, _sps_sql_stream_unref);
  g_free (data);
}

static void
query_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SpsSqlEngine *self = source_object;
  QueryData *data = task_data;
  GError *error = NULL;
  SpsSqlResult *result;

  g_assert (G_IS_TASK (task));
  g_assert (SPS_IS_SQL_ENGINE (self));

  result = _sps_sql_engine_run (self, data->sql, data->progress, cancellable, data->stream, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

/* Runs @sql in a task tagged @source_tag on a worker thread: both
 * sps_sql_engine_query_async() and sps_sql_engine_describe_async(). */
void
_sps_sql_engine_run_in_thread (SpsSqlEngine        *self,
                               const char          *sql,
                               SpsProgress         *progress,
                               GCancellable        *cancellable,
                               SpsSqlStream        *stream,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data,
                               gpointer             source_tag)
{
  g_autoptr(GTask) task = NULL;
  QueryData *data;

  g_assert (SPS_IS_SQL_ENGINE (self));
  g_assert (sql != NULL);

  data = g_new0 (QueryData, 1);
  data->sql = g_strdup (sql);
  data->progress = progress != NULL ? g_object_ref (progress) : NULL;
  data->stream = stream;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, data, (GDestroyNotify) query_data_free);
  /* The query reports interruption itself, with its own error */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, query_worker);
}

/**
 * sps_sql_engine_query_async:
 * @self: a #SpsSqlEngine
 * @sql: one or more SQL statements separated by `;`
 * @progress: (nullable): where to report progress
 * @cancellable: (nullable): a #GCancellable that interrupts the query
 * @callback: called on the thread-default main context of the caller
 * @user_data: data for @callback
 *
 * Runs @sql on a worker thread, as sps_sql_engine_query() does.
 */
void
sps_sql_engine_query_async (SpsSqlEngine        *self,
                            const char          *sql,
                            SpsProgress         *progress,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (SPS_IS_SQL_ENGINE (self));
  g_return_if_fail (sql != NULL);
  g_return_if_fail (progress == NULL || SPS_IS_PROGRESS (progress));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  _sps_sql_engine_run_in_thread (self, sql, progress, cancellable, NULL, callback, user_data,
                                 sps_sql_engine_query_async);
}

/**
 * sps_sql_engine_query_stream_async:
 * @self: a #SpsSqlEngine
 * @sql: one or more SQL statements separated by `;`
 * @progress: (nullable): where to report progress
 * @cancellable: (nullable): a #GCancellable that interrupts the query
 * @rows_func: (scope notified) (closure rows_data) (destroy rows_destroy):
 *   called with each batch of rows
 * @rows_data: data for @rows_func
 * @rows_destroy: (nullable): frees @rows_data once no batch is pending
 * @callback: called on the thread-default main context of the caller
 * @user_data: data for @callback
 *
 * Runs @sql on a worker thread as sps_sql_engine_query_async() does, and
 * hands out the rows of each statement that returns columns while it
 * runs: the first batch after a few rows (or 20 ms), then one every
 * 100 ms, each on the caller's thread-default main context, in order and
 * before @callback. Finish with sps_sql_engine_query_finish(): its result
 * holds every row, including those not handed out yet.
 */
void
sps_sql_engine_query_stream_async (SpsSqlEngine        *self,
                                   const char          *sql,
                                   SpsProgress         *progress,
                                   GCancellable        *cancellable,
                                   SpsSqlRowsFunc       rows_func,
                                   gpointer             rows_data,
                                   GDestroyNotify       rows_destroy,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SPS_IS_SQL_ENGINE (self));
  g_return_if_fail (sql != NULL);
  g_return_if_fail (progress == NULL || SPS_IS_PROGRESS (progress));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (rows_func != NULL);

  _sps_sql_engine_run_in_thread (self, sql, progress, cancellable,
                                 _sps_sql_stream_new (rows_func, rows_data, rows_destroy),
                                 callback, user_data, sps_sql_engine_query_async);
}

/**
 * sps_sql_engine_query_finish:
 * @self: a #SpsSqlEngine
 * @result: the #GAsyncResult passed to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 */
SpsSqlResult *
sps_sql_engine_query_finish (SpsSqlEngine  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_sql_engine_query_async ||
                        g_task_get_source_tag (G_TASK (result)) == sps_sql_engine_describe_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
