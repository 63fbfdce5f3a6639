/* sps-search-panel.c: find slices by name or category
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-search-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-panel-util.h"
#include "sps-search-panel.h"

/* In "every match" mode the table lists at most this many slices (in
 * time order of the table, that is by thread then start); Enter still
 * walks every match. A GtkColumnView holds a row object per row, and
 * nobody reads a million rows. */
#define MAX_MATCH_ROWS 10000

/**
 * SpsSearchPanel:
 *
 * The search panel of a trace window. Each change of the text (or of
 * name/category mode) cancels the search in flight and starts
 * sps_search_run_async() on a worker thread, so typing never waits for a
 * scan. The results fill an #SpsResultTable: one row per name (count,
 * total and average over measured slices: sampled spans and unfinished
 * slices count, but their times are estimates and stay out of the sums),
 * or one row per matching slice. Selecting a row selects its slice (for a
 * name, its first instance) and brings it into view; Enter and
 * Shift+Enter in the entry select the next and previous match in time
 * order. The text is also the session's "search-text", so other views
 * can highlight matches.
 *
 * Hidden threads, processes and categories (the filter panel) are not
 * searched: the session's slice mask goes with each search, which runs
 * again when the filters change.
 */
struct _SpsSearchPanel
{
  GtkWidget        parent_instance;

  SpsSession      *session;
  SpsSearchResult *result;
  GCancellable    *cancellable;
  /* The text and field of the search running or shown */
  char            *searched_text;
  SpsSearchField   searched_field;
  /* Row of the table (append order) → slice to show, or SPS_NO_INDEX
   * and the time to go to (an event's), or neither (SPS_TIME_MIN) */
  GArray          *row_slices;
  GArray          *row_times;
  /* Enter pressed before the result came: step once it does. */
  int              pending_step;

  GtkBox          *toolbar;
  GtkSearchEntry  *entry;
  GtkToggleButton *name_button;
  GtkToggleButton *category_button;
  GtkCheckButton  *unique_button;
  GtkButton       *previous_button;
  GtkButton       *next_button;
  GtkLabel        *status_label;
  SpsResultTable  *table;
};

G_DEFINE_FINAL_TYPE (SpsSearchPanel, sps_search_panel, GTK_TYPE_WIDGET)

static void
append_target (SpsSearchPanel *self,
               guint32         slice,
               SpsTime         time)
{
  g_array_append_val (self->row_slices, slice);
  g_array_append_val (self->row_times, time);
}

/* The matching events as rows (at most @room of them), after the slices:
 * an instant, so no duration; activating one goes to its time. Returns
 * how many matched. */
static guint
append_event_rows (SpsSearchPanel *self,
                   SpsTrace       *trace,
                   guint           room)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  const guint32 *matches = sps_search_result_get_event_matches (self->result);
  guint n = sps_search_result_get_n_event_matches (self->result);
  SpsTime origin = sps_trace_get_start_time (trace);

  for (guint i = 0; i < MIN (n, room); i++)
    {
      guint32 e = matches[i];
      g_autofree char *thread = _sps_panel_track_label (trace, instants->track[e]);

      sps_result_table_append_row (self->table,
                                   g_variant_new ("(sdds)",
                                                  sps_trace_get_string (trace, instants->name[e]),
                                                  _sps_panel_ms (instants->ts[e] - origin), 0.0, thread));
      append_target (self, SPS_NO_INDEX, instants->ts[e]);
    }
  return n;
}

static void
fill_table (SpsSearchPanel *self)
{
  static const char *group_names[6];
  static const char *match_names[4];
  static const SpsResultColumnType group_types[] = {
    SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_INTEGER,
    SPS_RESULT_COLUMN_REAL, SPS_RESULT_COLUMN_REAL, SPS_RESULT_COLUMN_INTEGER,
    SPS_RESULT_COLUMN_INTEGER,
  };
  static const SpsResultColumnType match_types[] = {
    SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_REAL,
    SPS_RESULT_COLUMN_REAL, SPS_RESULT_COLUMN_TEXT,
  };
  SpsTrace *trace;
  const SpsSliceTable *slices;
  SpsTime origin;
  guint n;

  g_assert (SPS_IS_SEARCH_PANEL (self));

  /* Column titles are translated at run time, once. */
  if (group_names[0] == NULL)
    {
      group_names[0] = _("Name");
      group_names[1] = _("Count");
      group_names[2] = _("Total (ms)");
      group_names[3] = _("Average (ms)");
      /* Translators: stack samples whose leaf frame has the name */
      group_names[4] = _("Samples");
      /* Translators: decoded ETW/EventPipe events that have the name */
      group_names[5] = _("Events");
      match_names[0] = _("Name");
      match_names[1] = _("Start (ms)");
      match_names[2] = _("Duration (ms)");
      match_names[3] = _("Thread");
    }

  sps_result_table_clear (self->table);
  g_array_set_size (self->row_slices, 0);
  g_array_set_size (self->row_times, 0);

  if (self->result == NULL)
    {
      sps_result_table_set_columns (self->table, 0, NULL, NULL);
      sps_result_table_set_note (self->table, NULL);
      return;
    }

  trace = sps_session_get_trace (self->session);
  slices = sps_trace_get_slices (trace);
  origin = sps_trace_get_start_time (trace);

  if (gtk_check_button_get_active (self->unique_button))
    {
      const SpsInstantTable *instants = sps_trace_get_instants (trace);

      sps_result_table_set_columns (self->table, 6, group_names, group_types);
      n = sps_search_result_get_n_groups (self->result);
      for (guint i = 0; i < n; i++)
        {
          const SpsSearchGroup *group = sps_search_result_get_group (self->result, i);
          GVariant *average;

          /* No measured slice, no average: NULL sorts last. */
          if (group->n_measured > 0)
            average = g_variant_new_maybe (G_VARIANT_TYPE_DOUBLE,
                                           g_variant_new_double (_sps_panel_ms (group->measured_total) / group->n_measured));
          else
            average = g_variant_new_maybe (G_VARIANT_TYPE_DOUBLE, NULL);

          sps_result_table_append_row (self->table,
                                       g_variant_new ("(std@mdtt)",
                                                      sps_trace_get_string (trace, group->name),
                                                      (guint64) group->count,
                                                      _sps_panel_ms (group->measured_total),
                                                      average, (guint64) group->n_samples,
                                                      (guint64) group->n_events));
          append_target (self, group->first_slice,
                         group->first_event != SPS_NO_INDEX ? instants->ts[group->first_event] : SPS_TIME_MIN);
        }
      sps_result_table_set_note (self->table, NULL);
      /* Where the time went first; a header click sorts otherwise. */
      sps_result_table_sort (self->table, 2, GTK_SORT_DESCENDING);
    }
  else
    {
      const guint32 *matches = sps_search_result_get_matches (self->result);

      sps_result_table_set_columns (self->table, 4, match_names, match_types);
      n = sps_search_result_get_n_matches (self->result);
      for (guint i = 0; i < MIN (n, MAX_MATCH_ROWS); i++)
        {
          guint32 s = matches[i];
          g_autofree char *thread = _sps_panel_track_label (trace, slices->track[s]);

          sps_result_table_append_row (self->table,
                                       g_variant_new ("(sdds)",
                                                      sps_trace_get_string (trace, slices->name[s]),
                                                      _sps_panel_ms (slices->ts[s] - origin),
                                                      _sps_panel_ms (slices->dur[s]),
                                                      thread));
          append_target (self, s, SPS_TIME_MIN);
        }
      n += append_event_rows (self, trace, MAX_MATCH_ROWS - MIN (n, MAX_MATCH_ROWS));

      if (n > MAX_MATCH_ROWS)
        {
          g_autofree char *note = NULL;

          /* Translators: %u are numbers of slices, e.g. "Showing 10000 of 52311 matches" */
          note = g_strdup_printf (_("Showing %u of %u matches; Enter walks all of them"),
                                  MAX_MATCH_ROWS, n);
          sps_result_table_set_note (self->table, note);
        }
      else
        sps_result_table_set_note (self->table, NULL);
    }
}

static void
update_status (SpsSearchPanel *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  gboolean have = self->result != NULL && (sps_search_result_get_n_matches (self->result) > 0 ||
                                           sps_search_result_get_n_event_matches (self->result) > 0);

  g_assert (SPS_IS_SEARCH_PANEL (self));

  gtk_widget_set_sensitive (GTK_WIDGET (self->previous_button), have);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next_button), have);
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");

  if (text[0] == '\0')
    {
      gtk_label_set_text (self->status_label, "");
      sps_result_table_set_placeholder (self->table, _("Type to search"));
    }
  else if (self->cancellable != NULL)
    {
      gtk_label_set_text (self->status_label, _("Searching…"));
    }
  else if (!have)
    {
      g_autofree char *message = NULL;

      /* Translators: %s is the text searched for */
      message = g_strdup_printf (_("No slice matches “%s”"), text);
      gtk_label_set_text (self->status_label, message);
      gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
      sps_result_table_set_placeholder (self->table, message);
    }
  else
    {
      g_autofree char *slices = NULL;
      g_autofree char *message = NULL;
      guint n = sps_search_result_get_n_matches (self->result);
      guint n_events = sps_search_result_get_n_event_matches (self->result);
      guint names = sps_search_result_get_n_groups (self->result);

      slices = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u slice", "%u slices", n), n);
      if (n_events > 0)
        {
          g_autofree char *events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event", "%u events",
                                                                  n_events), n_events);
          char *both = n > 0 ? g_strdup_printf ("%s, %s", slices, events) : g_steal_pointer (&events);

          g_free (slices);
          slices = both;
        }
      /* Translators: the first %s is "N slices" (already translated),
       * the %u the number of distinct names among them */
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u name", "%s, %u names", names),
                                 slices, names);
      gtk_label_set_text (self->status_label, message);
    }
}

static gboolean
step (SpsSearchPanel *self,
      int             direction)
{
  guint slice;

  g_assert (SPS_IS_SEARCH_PANEL (self));

  if (self->result == NULL)
    return FALSE;

  slice = sps_search_result_step (self->result,
                                  sps_session_get_selected_slice (self->session),
                                  direction);
  if (slice == SPS_NO_INDEX)
    return FALSE;

  _sps_panel_show_slice (self->session, slice);
  return TRUE;
}

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(SpsSearchPanel) self = user_data;
  g_autoptr(SpsSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = sps_search_run_finish (res, &error);

  /* Superseded by a newer search (or the panel went away): that one
   * reports. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      g_warning ("Search failed: %s", error->message);
      return;
    }

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->result, sps_search_result_unref);
  self->result = g_steal_pointer (&result);

  fill_table (self);
  update_status (self);

  if (self->pending_step != 0)
    {
      int direction = self->pending_step;

      self->pending_step = 0;
      step (self, direction);
    }
}

/* Starts a search for the entry's text, cancelling the one in flight.
 * Unless @force, a search for the same text and field as the running or
 * shown one is not started again (Enter comes before the entry's delayed
 * "search-changed"). */
static void
start_search (SpsSearchPanel *self,
              gboolean        force)
{
  g_autoptr(GBytes) mask = NULL;
  const char *text;
  SpsSearchField field;

  g_assert (SPS_IS_SEARCH_PANEL (self));

  if (self->session == NULL)
    return;

  text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  field = gtk_toggle_button_get_active (self->category_button) ? SPS_SEARCH_CATEGORY : SPS_SEARCH_NAME;
  if (!force && self->searched_text != NULL &&
      g_str_equal (text, self->searched_text) && field == self->searched_field)
    return;

  g_free (self->searched_text);
  self->searched_text = g_strdup (text);
  self->searched_field = field;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->result, sps_search_result_unref);
  self->pending_step = 0;

  sps_session_set_search_text (self->session, text);
  sps_session_set_search_in_category (self->session, field == SPS_SEARCH_CATEGORY);

  if (text[0] == '\0')
    {
      fill_table (self);
      update_status (self);
      return;
    }

  self->cancellable = g_cancellable_new ();
  mask = sps_session_dup_slice_mask (self->session);
  sps_search_run_async (sps_session_get_trace (self->session), text, field, mask,
                        self->cancellable, on_search_done, g_object_ref (self));
  update_status (self);
}

static void
on_entry_changed (SpsSearchPanel *self)
{
  start_search (self, FALSE);
}

static void
on_mode_toggled (SpsSearchPanel  *self,
                 GtkToggleButton *button)
{
  /* The group emits for the button going off too: search once. */
  if (gtk_toggle_button_get_active (button))
    start_search (self, FALSE);
}

static void
on_unique_toggled (SpsSearchPanel *self)
{
  fill_table (self);
}

static void
on_filters_changed (SpsSearchPanel *self)
{
  if (gtk_editable_get_text (GTK_EDITABLE (self->entry))[0] != '\0')
    start_search (self, TRUE);
}

static void
step_or_wait (SpsSearchPanel *self,
              int             direction)
{
  g_assert (SPS_IS_SEARCH_PANEL (self));

  start_search (self, FALSE);

  if (self->cancellable != NULL)
    self->pending_step = direction;
  else
    step (self, direction);
}

static void
on_entry_activate (SpsSearchPanel *self)
{
  step_or_wait (self, 1);
}

static void
on_next_match (SpsSearchPanel *self)
{
  step_or_wait (self, 1);
}

static void
on_previous_match (SpsSearchPanel *self)
{
  step_or_wait (self, -1);
}

/* Shift+Enter: the entry only knows Enter ("activate"). */
static gboolean
on_entry_key_pressed (SpsSearchPanel        *self,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      GtkEventControllerKey *controller)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & GDK_SHIFT_MASK) != 0)
    {
      step_or_wait (self, -1);
      return TRUE;
    }

  return FALSE;
}

static void
on_row_activated (SpsSearchPanel *self,
                  guint           row,
                  SpsResultTable *table)
{
  g_assert (SPS_IS_SEARCH_PANEL (self));

  if (self->session == NULL || row >= self->row_slices->len)
    return;

  /* A name that only samples have has neither */
  if (g_array_index (self->row_slices, guint32, row) != SPS_NO_INDEX)
    _sps_panel_show_slice (self->session, g_array_index (self->row_slices, guint32, row));
  else if (g_array_index (self->row_times, SpsTime, row) != SPS_TIME_MIN)
    sps_session_go_to_time (self->session, g_array_index (self->row_times, SpsTime, row));
}

static void
sps_search_panel_dispose (GObject *object)
{
  SpsSearchPanel *self = (SpsSearchPanel *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SPS_TYPE_SEARCH_PANEL);
  g_clear_pointer (&self->result, sps_search_result_unref);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_search_panel_parent_class)->dispose (object);
}

static void
sps_search_panel_finalize (GObject *object)
{
  SpsSearchPanel *self = (SpsSearchPanel *)object;

  g_clear_pointer (&self->row_slices, g_array_unref);
  g_clear_pointer (&self->row_times, g_array_unref);
  g_clear_pointer (&self->searched_text, g_free);

  G_OBJECT_CLASS (sps_search_panel_parent_class)->finalize (object);
}

static void
sps_search_panel_class_init (SpsSearchPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_search_panel_dispose;
  object_class->finalize = sps_search_panel_finalize;

  g_type_ensure (SPS_TYPE_RESULT_TABLE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/spanscope/Spanscope/sps-search-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, toolbar);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, entry);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, name_button);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, category_button);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, unique_button);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, previous_button);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, next_button);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, status_label);
  gtk_widget_class_bind_template_child (widget_class, SpsSearchPanel, table);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "searchpanel");
}

static void
sps_search_panel_init (SpsSearchPanel *self)
{
  GtkEventController *keys;

  self->row_slices = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->row_times = g_array_new (FALSE, FALSE, sizeof (SpsTime));

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  g_signal_connect_object (self->entry, "search-changed", G_CALLBACK (on_entry_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "activate", G_CALLBACK (on_entry_activate), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "next-match", G_CALLBACK (on_next_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "previous-match", G_CALLBACK (on_previous_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->name_button, "toggled", G_CALLBACK (on_mode_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->category_button, "toggled", G_CALLBACK (on_mode_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->unique_button, "toggled", G_CALLBACK (on_unique_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->next_button, "clicked", G_CALLBACK (on_next_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->previous_button, "clicked", G_CALLBACK (on_previous_match), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->table, "row-activated", G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_entry_key_pressed), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);

  update_status (self);
}

/**
 * sps_search_panel_new:
 * @session: the window's session
 *
 * Returns: (transfer floating): a new search panel
 */
GtkWidget *
sps_search_panel_new (SpsSession *session)
{
  SpsSearchPanel *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_SEARCH_PANEL, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "filters-changed", G_CALLBACK (on_filters_changed), self, G_CONNECT_SWAPPED);

  return GTK_WIDGET (self);
}

/**
 * sps_search_panel_focus:
 * @self: a #SpsSearchPanel
 *
 * Puts the keyboard focus in the search entry with its text selected,
 * so typing replaces it (Ctrl+F).
 */
void
sps_search_panel_focus (SpsSearchPanel *self)
{
  g_return_if_fail (SPS_IS_SEARCH_PANEL (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

/**
 * sps_search_panel_is_busy:
 * @self: a #SpsSearchPanel
 *
 * Returns: whether a search is running
 */
gboolean
sps_search_panel_is_busy (SpsSearchPanel *self)
{
  g_return_val_if_fail (SPS_IS_SEARCH_PANEL (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * sps_search_panel_get_result:
 * @self: a #SpsSearchPanel
 *
 * Returns: (transfer none) (nullable): the shown result, or %NULL while
 *   searching or without text
 */
SpsSearchResult *
sps_search_panel_get_result (SpsSearchPanel *self)
{
  g_return_val_if_fail (SPS_IS_SEARCH_PANEL (self), NULL);

  return self->result;
}

/**
 * sps_search_panel_step:
 * @self: a #SpsSearchPanel
 * @direction: 1 for the next match, -1 for the previous one
 *
 * Selects the next (or previous) match in time order after the selected
 * slice, as Enter and Shift+Enter do.
 *
 * Returns: whether a match was selected
 */
gboolean
sps_search_panel_step (SpsSearchPanel *self,
                       int             direction)
{
  g_return_val_if_fail (SPS_IS_SEARCH_PANEL (self), FALSE);
  g_return_val_if_fail (direction == 1 || direction == -1, FALSE);

  return step (self, direction);
}
