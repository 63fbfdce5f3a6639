/* sps-sql-tab.c: one query tab of the SQL panel: editor, error, results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-tab"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <gtksourceview/gtksource.h>

#include "sps-sql-tab.h"

/* What a running query needs to find its tab again; a query whose
 * cancellable is no longer the tab's was superseded (or cancelled) and is
 * dropped. Shared by the batches of rows and the end of the query, and
 * released on whichever thread drops it last: hence the weak reference. */
typedef struct
{
  GWeakRef      self;
  GCancellable *cancellable;
  char         *sql;
  gboolean      streamed;       /* the table shows this query's rows */
} Query;

struct _SpsSqlTab
{
  GtkWidget        parent_instance;

  SpsSession      *session;
  char            *title;
  char            *error;
  char            *last_sql;

  GtkSourceBuffer *buffer;
  GtkWidget       *editor;
  GtkLabel        *error_label;
  SpsResultTable  *table;

  GCancellable    *cancellable;
  SpsProgress     *progress;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_TITLE,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpsSqlTab, sps_sql_tab, GTK_TYPE_WIDGET)

static void
query_clear (gpointer data)
{
  Query *query = data;

  g_weak_ref_clear (&query->self);
  g_clear_object (&query->cancellable);
  g_clear_pointer (&query->sql, g_free);
}

static void
query_unref (gpointer query)
{
  g_atomic_rc_box_release_full (query, query_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Query, query_unref)

static void
set_error (SpsSqlTab  *self,
           const char *message)
{
  g_assert (SPS_IS_SQL_TAB (self));

  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
set_running (SpsSqlTab *self,
             GCancellable *cancellable)
{
  gboolean was_running = self->cancellable != NULL;

  g_assert (SPS_IS_SQL_TAB (self));

  g_set_object (&self->cancellable, cancellable);
  if (cancellable == NULL)
    g_clear_object (&self->progress);
  if (was_running != (cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* True when a word of @sql (outside quotes or not, a heuristic) is
 * @word, ignoring case. */
static gboolean
mentions_word (const char *sql,
               const char *word)
{
  gsize len = strlen (word);

  for (const char *p = sql; *p != '\0'; p++)
    {
      if (g_ascii_strncasecmp (p, word, len) == 0 &&
          (p == sql || !(g_ascii_isalnum (p[-1]) || p[-1] == '_')) &&
          !(g_ascii_isalnum (p[len]) || p[len] == '_'))
        return TRUE;
    }
  return FALSE;
}

static gboolean
cell_integer (SpsResultTable *table,
              guint           row,
              int             column,
              gint64         *out)
{
  g_autoptr(GVariant) cell = NULL;

  if (column < 0)
    return FALSE;
  cell = sps_result_table_get_cell (table, row, column);
  if (cell == NULL || !g_variant_is_of_type (cell, G_VARIANT_TYPE_INT64))
    return FALSE;
  *out = g_variant_get_int64 (cell);
  return TRUE;
}

/* The slice a result row names: a slice_id column, an id column when the
 * query reads the slices table, or a ts and a track_id column. */
static guint
slice_of_row (SpsSqlTab *self,
              guint      row)
{
  SpsTrace *trace = sps_session_get_trace (self->session);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  gint64 id;
  gint64 ts;
  gint64 track;

  if (cell_integer (self->table, row, sps_result_table_find_column (self->table, "slice_id"), &id) ||
      (self->last_sql != NULL && mentions_word (self->last_sql, "slices") &&
       cell_integer (self->table, row, sps_result_table_find_column (self->table, "id"), &id)))
    {
      if (id >= 0 && id < slices->n_rows)
        return (guint) id;
    }

  if (cell_integer (self->table, row, sps_result_table_find_column (self->table, "ts"), &ts) &&
      cell_integer (self->table, row, sps_result_table_find_column (self->table, "track_id"), &track) &&
      track >= 0 && track < G_MAXUINT32)
    return sps_trace_find_slice (trace, (guint) track, ts);

  return SPS_NO_INDEX;
}

static void
on_row_activated (SpsSqlTab      *self,
                  guint           row,
                  SpsResultTable *table)
{
  guint slice;

  g_assert (SPS_IS_SQL_TAB (self));

  if ((slice = slice_of_row (self, row)) != SPS_NO_INDEX)
    sps_session_reveal_slice (self->session, slice);
}

static void
on_progress (SpsSqlTab   *self,
             GParamSpec  *pspec,
             SpsProgress *progress)
{
  g_autofree char *note = NULL;

  g_assert (SPS_IS_SQL_TAB (self));

  if (progress != self->progress)
    return;
  /* Translators: a query is running; %d is how far through the rows it is */
  note = g_strdup_printf (_("Running… %d %%"), (int) (100 * sps_progress_get_fraction (progress)));
  sps_result_table_set_note (self->table, note);
}

/* A batch of rows while the query runs: the first of a statement replaces
 * what the table showed, the others are appended */
static void
rows_cb (SpsSqlResult *rows,
         guint         first_row,
         gpointer      user_data)
{
  Query *query = user_data;
  g_autoptr(SpsSqlTab) self = g_weak_ref_get (&query->self);

  g_assert (SPS_IS_SQL_RESULT (rows));

  if (self == NULL || self->cancellable != query->cancellable)
    return;

  if (first_row == 0 || !query->streamed)
    sps_result_table_set_result (self->table, rows);
  else
    sps_result_table_append_result (self->table, rows);
  query->streamed = TRUE;
}

static void
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Query) query = user_data;
  g_autoptr(SpsSqlResult) sql_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *elapsed = NULL;
  g_autofree char *note = NULL;
  g_autoptr(SpsSqlTab) self = g_weak_ref_get (&query->self);

  sql_result = sps_sql_engine_query_finish (SPS_SQL_ENGINE (object), result, &error);

  /* Superseded by a newer query, or the tab is going away. */
  if (self == NULL || self->cancellable != query->cancellable)
    return;
  set_running (self, NULL);

  if (sql_result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED))
        sps_result_table_set_note (self->table, _("Cancelled"));
      else
        set_error (self, error->message);
      return;
    }

  g_free (self->last_sql);
  self->last_sql = g_steal_pointer (&query->sql);
  /* The rows not handed out in batches yet, or everything when the
   * statement that gives the result is not the one streamed */
  if (query->streamed)
    sps_result_table_update_result (self->table, sql_result);
  else
    sps_result_table_set_result (self->table, sql_result);
  elapsed = sps_time_format (sps_sql_result_get_elapsed_ns (sql_result));
  if (sps_sql_result_get_truncated (sql_result))
    /* Translators: %s is a duration such as "12.5 ms"; the query had more
     * rows than the panel shows */
    note = g_strdup_printf (_("in %s, stopped at the row limit"), elapsed);
  else
    /* Translators: %s is a duration such as "12.5 ms" */
    note = g_strdup_printf (_("in %s"), elapsed);
  sps_result_table_set_note (self->table, note);
}

static void
sps_sql_tab_dispose (GObject *object)
{
  SpsSqlTab *self = SPS_SQL_TAB (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->progress);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->buffer);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_sql_tab_parent_class)->dispose (object);
}

static void
sps_sql_tab_finalize (GObject *object)
{
  SpsSqlTab *self = SPS_SQL_TAB (object);

  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->last_sql, g_free);

  G_OBJECT_CLASS (sps_sql_tab_parent_class)->finalize (object);
}

static void
sps_sql_tab_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SpsSqlTab *self = SPS_SQL_TAB (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, sps_sql_tab_get_running (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_sql_tab_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SpsSqlTab *self = SPS_SQL_TAB (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_TITLE:
      sps_sql_tab_set_title (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_sql_tab_class_init (SpsSqlTabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_sql_tab_dispose;
  object_class->finalize = sps_sql_tab_finalize;
  object_class->get_property = sps_sql_tab_get_property;
  object_class->set_property = sps_sql_tab_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SPS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sqltab");
}

/* The editor's colours follow the app's light or dark theme */
static void
update_scheme (const char *scheme_id,
               gpointer    user_data)
{
  SpsSqlTab *self = user_data;
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (gtk_source_style_scheme_manager_get_default (), scheme_id);

  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}

static void
sps_sql_tab_init (SpsSqlTab *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkWidget *paned;
  GtkWidget *box;
  GtkWidget *scrolled;

  self->buffer = gtk_source_buffer_new (NULL);
  gtk_source_buffer_set_language (self->buffer, gtk_source_language_manager_get_language (languages, "sql"));
  gtk_source_buffer_set_highlight_syntax (self->buffer, TRUE);
  sps_source_scheme_follow (GTK_WIDGET (self), update_scheme, self, NULL);

  self->editor = gtk_source_view_new_with_buffer (self->buffer);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->editor), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->editor), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->editor), 6);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (self->editor), 4);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (self->editor), TRUE);
  gtk_source_view_set_auto_indent (GTK_SOURCE_VIEW (self->editor), TRUE);
  gtk_source_view_set_tab_width (GTK_SOURCE_VIEW (self->editor), 2);
  gtk_source_view_set_insert_spaces_instead_of_tabs (GTK_SOURCE_VIEW (self->editor), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("SQL query"),
                                  -1);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_position (GTK_PANED (paned), 420);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_size_request (scrolled, 200, -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->editor);
  gtk_box_append (GTK_BOX (box), scrolled);

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_wrap_mode (self->error_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_label_set_xalign (self->error_label, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_margin_start (GTK_WIDGET (self->error_label), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->error_label), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->error_label), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->error_label), 4);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->error_label));
  gtk_paned_set_start_child (GTK_PANED (paned), box);

  self->table = SPS_RESULT_TABLE (sps_result_table_new ());
  gtk_widget_set_size_request (GTK_WIDGET (self->table), 240, -1);
  sps_result_table_set_placeholder (self->table, _("Press Ctrl+Enter to run the query"));
  g_signal_connect_object (self->table, "row-activated", G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (self->table));
}

SpsSqlTab *
sps_sql_tab_new (SpsSession *session,
                 const char *title,
                 const char *text)
{
  SpsSqlTab *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_SQL_TAB, "session", session, "title", title, NULL);
  sps_sql_tab_set_text (self, text);
  return self;
}

const char *
sps_sql_tab_get_title (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  return self->title;
}

void
sps_sql_tab_set_title (SpsSqlTab  *self,
                       const char *title)
{
  g_return_if_fail (SPS_IS_SQL_TAB (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

char *
sps_sql_tab_dup_text (SpsSqlTab *self)
{
  GtkTextIter start;
  GtkTextIter end;

  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
}

void
sps_sql_tab_set_text (SpsSqlTab  *self,
                      const char *text)
{
  g_return_if_fail (SPS_IS_SQL_TAB (self));

  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text != NULL ? text : "", -1);
}

void
sps_sql_tab_insert_text (SpsSqlTab  *self,
                         const char *text)
{
  g_return_if_fail (SPS_IS_SQL_TAB (self));
  g_return_if_fail (text != NULL);

  gtk_text_buffer_insert_at_cursor (GTK_TEXT_BUFFER (self->buffer), text, -1);
  gtk_widget_grab_focus (self->editor);
}

GtkTextBuffer *
sps_sql_tab_get_buffer (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  return GTK_TEXT_BUFFER (self->buffer);
}

GtkWidget *
sps_sql_tab_get_editor (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  return self->editor;
}

SpsResultTable *
sps_sql_tab_get_table (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  return self->table;
}

/* The last query's error message, or NULL. */
const char *
sps_sql_tab_get_error (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), NULL);

  return self->error;
}

gboolean
sps_sql_tab_get_running (SpsSqlTab *self)
{
  g_return_val_if_fail (SPS_IS_SQL_TAB (self), FALSE);

  return self->cancellable != NULL;
}

/* Runs the editor's text on the session's engine, in a worker thread; a
 * query still running is cancelled first. */
void
sps_sql_tab_run (SpsSqlTab *self)
{
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  SpsSqlEngine *engine;
  Query *query;

  g_return_if_fail (SPS_IS_SQL_TAB (self));

  sql = sps_sql_tab_dup_text (self);
  g_strstrip (sql);
  if (sql[0] == '\0')
    return;

  sps_sql_tab_cancel (self);
  if (!(engine = sps_session_get_sql_engine (self->session, &error)))
    {
      set_error (self, error->message);
      return;
    }
  set_error (self, NULL);
  sps_result_table_set_note (self->table, _("Running…"));

  cancellable = g_cancellable_new ();
  set_running (self, cancellable);

  /* The progress reports from the worker on the main thread. */
  self->progress = sps_progress_new (cancellable);
  g_signal_connect_object (self->progress, "notify::fraction", G_CALLBACK (on_progress), self, G_CONNECT_SWAPPED);

  query = g_atomic_rc_box_new0 (Query);
  g_weak_ref_init (&query->self, self);
  query->cancellable = g_object_ref (cancellable);
  query->sql = g_strdup (sql);
  /* Rows show while the statement runs; the table keeps them when it is
   * cancelled */
  sps_sql_engine_query_stream_async (engine, sql, self->progress, cancellable,
                                     rows_cb, g_atomic_rc_box_acquire (query), query_unref,
                                     query_cb, query);
}

void
sps_sql_tab_cancel (SpsSqlTab *self)
{
  g_return_if_fail (SPS_IS_SQL_TAB (self));

  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  set_running (self, NULL);
  sps_result_table_set_note (self->table, _("Cancelled"));
}
