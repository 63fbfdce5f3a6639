/* sps-stats-panel.c: per-name (or per-thread) statistics of the trace or
 * of the selected range
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-stats-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-stats-panel.h"

#define SETTINGS_SCHEMA "io.github.spanscope.Spanscope.sql"

struct _SpsStatsPanel
{
  GtkWidget       parent_instance;

  SpsSession     *session;
  GSettings      *settings;
  GCancellable   *cancellable;
  char           *error;

  GtkToggleButton *by_name_button;
  GtkToggleButton *by_thread_button;
  GtkLabel       *scope_label;
  GtkSpinner     *spinner;
  GtkLabel       *error_label;
  SpsResultTable *table;

  /* Per row of the table: whether it is the sampled spans' row. */
  GArray         *row_sampled;
  gboolean        shown_by_thread;
  gboolean        by_thread;
  gboolean        dirty;
  guint           refresh_id;
  GCancellable   *find_cancellable;
};

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpsStatsPanel, sps_stats_panel, GTK_TYPE_WIDGET)

/* A query in flight: the panel and the grouping it was asked for. */
typedef struct
{
  SpsStatsPanel *self;
  GCancellable  *cancellable;
  gboolean       by_thread;
} Query;

static void
query_free (Query *query)
{
  g_clear_object (&query->self);
  g_clear_object (&query->cancellable);
  g_free (query);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Query, query_free)

static void
set_busy (SpsStatsPanel *self,
          GCancellable  *cancellable)
{
  gboolean was_busy = self->cancellable != NULL;

  g_assert (SPS_IS_STATS_PANEL (self));

  g_set_object (&self->cancellable, cancellable);
  gtk_spinner_set_spinning (self->spinner, cancellable != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), cancellable != NULL);
  if (was_busy != (cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_error (SpsStatsPanel *self,
           const char    *message)
{
  g_assert (SPS_IS_STATS_PANEL (self));

  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
update_scope (SpsStatsPanel *self)
{
  SpsTime start;
  SpsTime end;

  g_assert (SPS_IS_STATS_PANEL (self));

  if (sps_session_get_range (self->session, &start, &end))
    {
      SpsTime origin = sps_trace_get_start_time (sps_session_get_trace (self->session));
      g_autofree char *from = sps_time_format (start - origin);
      g_autofree char *to = sps_time_format (end - origin);
      g_autofree char *length = sps_time_format (end - start);
      /* Translators: the statistics cover a time range: its start and
       * end from the beginning of the trace, then its length */
      g_autofree char *text = g_strdup_printf (_("Range %s – %s (%s)"), from, to, length);

      gtk_label_set_text (self->scope_label, text);
    }
  else
    {
      gtk_label_set_text (self->scope_label, _("Whole trace"));
    }
}

static const char *
kind_label (const char *kind)
{
  if (g_strcmp0 (kind, "measured") == 0)
    return _("Measured");
  if (g_strcmp0 (kind, "sampled_span") == 0)
    return _("Sampled");
  return kind;
}

static void
fill_table (SpsStatsPanel *self,
            SpsSqlResult  *result,
            gboolean       by_thread)
{
  /* Titles are translated; the SQL columns behind them are fixed. */
  const char *names[] = {
    _("Thread"), _("Name"), _("Kind"), _("Count"), _("Total"),
    _("Self Total"), _("Average"), _("Min"), _("Max"),
  };
  const SpsResultColumnType types[] = {
    SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_TEXT,
    SPS_RESULT_COLUMN_INTEGER, SPS_RESULT_COLUMN_DURATION, SPS_RESULT_COLUMN_DURATION,
    SPS_RESULT_COLUMN_DURATION, SPS_RESULT_COLUMN_DURATION, SPS_RESULT_COLUMN_DURATION,
  };
  guint skip = by_thread ? 0 : 1;
  guint n_columns = G_N_ELEMENTS (names) - skip;
  guint kind_column = 2 - skip;

  g_assert (SPS_IS_STATS_PANEL (self));
  g_assert (sps_sql_result_get_n_columns (result) == n_columns);

  sps_result_table_set_columns (self->table, n_columns, names + skip, types + skip);
  g_array_set_size (self->row_sampled, 0);
  self->shown_by_thread = by_thread;
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    {
      gboolean sampled = g_strcmp0 (sps_sql_result_get_text (result, r, kind_column), "measured") != 0;
      GVariantBuilder row;

      g_array_append_val (self->row_sampled, sampled);
      g_variant_builder_init (&row, G_VARIANT_TYPE_TUPLE);
      for (guint c = 0; c < n_columns; c++)
        {
          if (sps_sql_result_is_null (result, r, c))
            g_variant_builder_add (&row, "mv", NULL);
          else if (c == kind_column)
            g_variant_builder_add (&row, "mv",
                                   g_variant_new_string (kind_label (sps_sql_result_get_text (result, r, c))));
          else if (sps_sql_result_get_value_type (result, r, c) == SPS_SQL_TYPE_INTEGER)
            g_variant_builder_add (&row, "mv", g_variant_new_int64 (sps_sql_result_get_int64 (result, r, c)));
          else if (sps_sql_result_get_value_type (result, r, c) == SPS_SQL_TYPE_REAL)
            g_variant_builder_add (&row, "mv", g_variant_new_double (sps_sql_result_get_double (result, r, c)));
          else
            {
              g_autofree char *text = sps_sql_result_dup_display_text (result, r, c);

              g_variant_builder_add (&row, "mv", g_variant_new_string (text != NULL ? text : ""));
            }
        }
      sps_result_table_append_row (self->table, g_variant_builder_end (&row));
    }
}

static void
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Query) query = user_data;
  g_autoptr(SpsSqlResult) sql_result = NULL;
  g_autoptr(GError) error = NULL;
  SpsStatsPanel *self = query->self;

  sql_result = sps_statistics_compute_finish (result, &error);
  if (self->cancellable != query->cancellable)
    return;

  if (sql_result == NULL)
    set_error (self, error->message);
  else
    fill_table (self, sql_result, query->by_thread);

  /* Last, so that a test waiting for "busy" sees the rows. */
  sps_result_table_get_row_at (self->table, 0);
  set_busy (self, NULL);
}

static void
find_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SpsStatsPanel) self = user_data;
  g_autoptr(SpsSqlResult) sql_result = NULL;
  g_autoptr(GError) error = NULL;

  sql_result = sps_sql_engine_query_finish (SPS_SQL_ENGINE (object), result, &error);
  if (sql_result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          !g_error_matches (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED))
        set_error (self, error->message);
      return;
    }
  if (self->session != NULL && sps_sql_result_get_n_rows (sql_result) == 1)
    sps_session_reveal_slice (self->session, (guint) sps_sql_result_get_int64 (sql_result, 0, 0));
}

/* A row leads to the longest slice it counts, selected on the timeline. */
static void
on_row_activated (SpsStatsPanel  *self,
                  guint           row,
                  SpsResultTable *table)
{
  g_autofree char *thread = NULL;
  g_autofree char *name = NULL;
  g_autofree char *sql = NULL;
  g_autoptr(GError) error = NULL;
  SpsSqlEngine *engine;
  SpsTime start = 0;
  SpsTime end = 0;
  gboolean has_range;
  guint name_column;

  g_assert (SPS_IS_STATS_PANEL (self));

  if (row >= self->row_sampled->len)
    return;
  /* As the rows were computed, whatever the buttons say now. */
  name_column = self->shown_by_thread ? 1 : 0;
  if (self->shown_by_thread)
    thread = sps_result_table_dup_cell_text (table, row, 0);
  if (!(name = sps_result_table_dup_cell_text (table, row, name_column)))
    return;
  if (!(engine = sps_session_get_sql_engine (self->session, &error)))
    {
      set_error (self, error->message);
      return;
    }

  has_range = sps_session_get_range (self->session, &start, &end);
  sql = sps_sql_build_longest_slice (name, g_array_index (self->row_sampled, gboolean, row),
                                     sps_session_has_filters (self->session), thread, has_range, start, end);
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_set_object (&self->find_cancellable, g_cancellable_new ());
  sps_sql_engine_query_async (engine, sql, NULL, self->find_cancellable, find_cb, g_object_ref (self));
}

static gboolean
refresh_cb (gpointer user_data)
{
  SpsStatsPanel *self = user_data;

  self->refresh_id = 0;
  sps_stats_panel_refresh (self);
  return G_SOURCE_REMOVE;
}

/* Range drags notify many times: recompute once they settle, and only
 * while the panel is shown. */
static void
queue_refresh (SpsStatsPanel *self)
{
  g_assert (SPS_IS_STATS_PANEL (self));

  update_scope (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  self->refresh_id = g_timeout_add (150, refresh_cb, self);
}

static void
on_map (SpsStatsPanel *self)
{
  g_assert (SPS_IS_STATS_PANEL (self));

  if (self->dirty)
    sps_stats_panel_refresh (self);
}

static void
on_grouping_toggled (SpsStatsPanel   *self,
                     GtkToggleButton *button)
{
  g_assert (SPS_IS_STATS_PANEL (self));

  if (gtk_toggle_button_get_active (button))
    sps_stats_panel_set_by_thread (self, button == self->by_thread_button);
}

static void
sps_stats_panel_dispose (GObject *object)
{
  SpsStatsPanel *self = SPS_STATS_PANEL (object);
  GtkWidget *child;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_stats_panel_parent_class)->dispose (object);
}

static void
sps_stats_panel_finalize (GObject *object)
{
  SpsStatsPanel *self = SPS_STATS_PANEL (object);

  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->row_sampled, g_array_unref);

  G_OBJECT_CLASS (sps_stats_panel_parent_class)->finalize (object);
}

static void
sps_stats_panel_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SpsStatsPanel *self = SPS_STATS_PANEL (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, sps_stats_panel_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Leaving the window stops the computation (a running one holds the
 * panel alive until it returns); mapping again recomputes. */
static void
sps_stats_panel_unroot (GtkWidget *widget)
{
  SpsStatsPanel *self = SPS_STATS_PANEL (widget);

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      set_busy (self, NULL);
      self->dirty = TRUE;
    }
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);

  GTK_WIDGET_CLASS (sps_stats_panel_parent_class)->unroot (widget);
}

static void
sps_stats_panel_class_init (SpsStatsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->unroot = sps_stats_panel_unroot;
  object_class->dispose = sps_stats_panel_dispose;
  object_class->finalize = sps_stats_panel_finalize;
  object_class->get_property = sps_stats_panel_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "statspanel");
}

static void
sps_stats_panel_init (SpsStatsPanel *self)
{
  GtkWidget *toolbar;
  GtkWidget *linked;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->dirty = TRUE;
  self->row_sampled = g_array_new (FALSE, FALSE, sizeof (gboolean));

  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_add_css_class (toolbar, "toolbar");
  gtk_widget_set_parent (toolbar, GTK_WIDGET (self));

  linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (linked, "linked");
  self->by_name_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("By _Name")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->by_name_button), _("One row per slice name"));
  self->by_thread_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("By _Thread")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->by_thread_button), _("One row per thread and slice name"));
  gtk_toggle_button_set_group (self->by_thread_button, self->by_name_button);
  gtk_toggle_button_set_active (self->by_name_button, TRUE);
  g_signal_connect_object (self->by_name_button, "toggled", G_CALLBACK (on_grouping_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->by_thread_button, "toggled", G_CALLBACK (on_grouping_toggled), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (linked), GTK_WIDGET (self->by_name_button));
  gtk_box_append (GTK_BOX (linked), GTK_WIDGET (self->by_thread_button));
  gtk_box_append (GTK_BOX (toolbar), linked);

  self->scope_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->scope_label, 0.0);
  gtk_label_set_ellipsize (self->scope_label, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->scope_label), "dim-label");
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->scope_label));

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->spinner));

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_label_set_xalign (self->error_label, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->error_label), GTK_WIDGET (self));

  self->table = SPS_RESULT_TABLE (sps_result_table_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->table), TRUE);
  sps_result_table_set_placeholder (self->table, _("Computing statistics…"));
  /* Sampled spans have no average, minimum or maximum. */
  sps_result_table_set_null_text (self->table, "—");
  g_signal_connect_object (self->table, "row-activated", G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);
  gtk_widget_set_parent (GTK_WIDGET (self->table), GTK_WIDGET (self));

  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

GtkWidget *
sps_stats_panel_new (SpsSession *session)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  SpsStatsPanel *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_STATS_PANEL, NULL);
  self->session = g_object_ref (session);

  if (source != NULL && (schema = g_settings_schema_source_lookup (source, SETTINGS_SCHEMA, TRUE)))
    {
      self->settings = g_settings_new (SETTINGS_SCHEMA);
      self->by_thread = g_settings_get_boolean (self->settings, "statistics-by-thread");
      gtk_toggle_button_set_active (self->by_thread ? self->by_thread_button : self->by_name_button, TRUE);
    }

  g_signal_connect_object (session, "notify::has-range", G_CALLBACK (queue_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "filters-changed", G_CALLBACK (queue_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-start", G_CALLBACK (queue_refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-end", G_CALLBACK (queue_refresh), self, G_CONNECT_SWAPPED);
  update_scope (self);

  return GTK_WIDGET (self);
}

SpsResultTable *
sps_stats_panel_get_table (SpsStatsPanel *self)
{
  g_return_val_if_fail (SPS_IS_STATS_PANEL (self), NULL);

  return self->table;
}

gboolean
sps_stats_panel_get_by_thread (SpsStatsPanel *self)
{
  g_return_val_if_fail (SPS_IS_STATS_PANEL (self), FALSE);

  return self->by_thread;
}

void
sps_stats_panel_set_by_thread (SpsStatsPanel *self,
                               gboolean       by_thread)
{
  g_return_if_fail (SPS_IS_STATS_PANEL (self));

  by_thread = !!by_thread;
  if (self->by_thread == by_thread)
    return;
  self->by_thread = by_thread;
  gtk_toggle_button_set_active (by_thread ? self->by_thread_button : self->by_name_button, TRUE);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "statistics-by-thread", by_thread);
  queue_refresh (self);
}

gboolean
sps_stats_panel_get_busy (SpsStatsPanel *self)
{
  g_return_val_if_fail (SPS_IS_STATS_PANEL (self), FALSE);

  return self->cancellable != NULL;
}

/* The last computation's error, or NULL. */
const char *
sps_stats_panel_get_error (SpsStatsPanel *self)
{
  g_return_val_if_fail (SPS_IS_STATS_PANEL (self), NULL);

  return self->error;
}

/* Computes the statistics now on a worker thread, cancelling a
 * computation still running; "busy" is TRUE until the table is filled. */
void
sps_stats_panel_refresh (SpsStatsPanel *self)
{
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GBytes) mask = NULL;
  SpsTrace *trace;
  SpsTime start = 0;
  SpsTime end = 0;
  gboolean has_range;
  Query *query;

  g_return_if_fail (SPS_IS_STATS_PANEL (self));

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  self->dirty = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  update_scope (self);
  set_error (self, NULL);

  trace = sps_session_get_trace (self->session);
  has_range = sps_session_get_range (self->session, &start, &end);
  /* Hidden threads, processes and categories count nowhere */
  mask = sps_session_dup_slice_mask (self->session);

  cancellable = g_cancellable_new ();
  set_busy (self, cancellable);
  query = g_new0 (Query, 1);
  query->self = g_object_ref (self);
  query->cancellable = g_object_ref (cancellable);
  query->by_thread = self->by_thread;
  /* The rows of sps_sql_build_statistics()'s query, computed natively:
   * a few times faster than SQL, and a range costs what its slices cost */
  sps_statistics_compute_async (trace, self->by_thread ? SPS_STATS_BY_THREAD : SPS_STATS_BY_NAME,
                                mask, has_range, start, end, cancellable, query_cb, query);
}
