/* sps-instance-browser.c: every instance of the selected slice's name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-instance-browser"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-instance-browser.h"
#include "sps-panel-util.h"

/* Rows listed in the table; previous/next still walk every instance. */
#define MAX_ROWS 10000

/**
 * SpsInstanceBrowser:
 *
 * For the name of the session's selected slice, every slice of that name
 * (the filters apply): start from the start of the trace, duration and
 * thread, in a sortable table, with previous/next buttons that select
 * and bring into view each instance in time order. At the top: how many,
 * and min / max / average duration over the measured instances. Sampled
 * spans have estimated intervals: they are counted apart and their
 * average is labelled an estimate; unfinished slices (no end event) are
 * listed but enter no statistic.
 *
 * The list is rebuilt only when the selected name (or the filters)
 * change, in one pass over the slice table; moving through the
 * instances only updates the position.
 *
 * Stack samples whose leaf frame has the name are listed after the
 * slices (kind "sample", no duration: a sample is one observation) and
 * counted in the summary; the arrows walk the slices.
 *
 * Widgets that tests look up carry names: "instance-name",
 * "instance-stats", "instance-estimates", "instance-position",
 * "instance-previous", "instance-next", "instance-table".
 */
struct _SpsInstanceBrowser
{
  GtkWidget       parent_instance;

  SpsSession     *session;
  guint32         name;        /* SPS_NO_INDEX: nothing selected */
  GArray         *instances;   /* guint32 slices, in table order */
  GArray         *samples;     /* guint32 samples of the name, in table order */

  GtkLabel       *name_label;
  GtkLabel       *stats_label;
  GtkLabel       *estimate_label;
  GtkLabel       *position_label;
  GtkButton      *previous_button;
  GtkButton      *next_button;
  SpsResultTable *table;
};

G_DEFINE_FINAL_TYPE (SpsInstanceBrowser, sps_instance_browser, GTK_TYPE_WIDGET)

static inline gboolean
slice_before (const SpsSliceTable *slices,
              guint32              a,
              guint32              b)
{
  if (slices->ts[a] != slices->ts[b])
    return slices->ts[a] < slices->ts[b];
  return a < b;
}

static const char *
kind_text (guint16 flags)
{
  if (flags & SPS_SLICE_SAMPLED)
    return C_("instance kind", "sampled (estimate)");
  if (flags & SPS_SLICE_UNFINISHED)
    return C_("instance kind", "unfinished");
  return C_("instance kind", "measured");
}

/* The samples whose leaf frame has the name */
static void
collect_samples (SpsInstanceBrowser *self,
                 SpsTrace           *trace,
                 gboolean            filtered)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);

  for (guint i = 0; i < samples->n_rows; i++)
    if (samples->name[i] == self->name &&
        (!filtered || sps_session_is_sample_visible (self->session, i)))
      g_array_append_val (self->samples, i);
}

static void
append_sample_rows (SpsInstanceBrowser *self,
                    SpsTrace           *trace,
                    guint               max_rows)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  SpsTime origin = sps_trace_get_start_time (trace);

  for (guint r = 0; r < MIN (self->samples->len, max_rows); r++)
    {
      guint32 s = g_array_index (self->samples, guint32, r);
      g_autofree char *thread = _sps_panel_track_label (trace, samples->track[s]);

      sps_result_table_append_row (self->table,
                                   g_variant_new ("(d@mdss)",
                                                  _sps_panel_ms (samples->ts[s] - origin),
                                                  g_variant_new_maybe (G_VARIANT_TYPE_DOUBLE, NULL),
                                                  thread, C_("instance kind", "sample")));
    }
}

static void
update_position (SpsInstanceBrowser *self)
{
  const SpsSliceTable *slices;
  guint selected;
  guint rank = 0;
  guint row = G_MAXUINT;
  gboolean found = FALSE;
  gboolean have = self->instances->len > 0;

  g_assert (SPS_IS_INSTANCE_BROWSER (self));

  gtk_widget_set_sensitive (GTK_WIDGET (self->previous_button), have);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next_button), have);

  if (!have)
    {
      gtk_label_set_text (self->position_label, "");
      return;
    }

  slices = sps_trace_get_slices (sps_session_get_trace (self->session));
  selected = sps_session_get_selected_slice (self->session);

  for (guint i = 0; i < self->instances->len; i++)
    {
      guint32 s = g_array_index (self->instances, guint32, i);

      if (s == selected)
        {
          found = TRUE;
          row = i;
        }
      else if (selected != SPS_NO_INDEX && slice_before (slices, s, selected))
        rank++;
    }

  /* The current instance's row is highlighted (rows are appended in the
   * instances' order; one past the listed rows selects none). */
  sps_result_table_select_row (self->table, row < MAX_ROWS ? row : G_MAXUINT);

  if (found)
    {
      g_autofree char *text = NULL;

      /* Translators: the position of the selected instance in time
       * order, e.g. "3 of 8" */
      text = g_strdup_printf (_("%u of %u"), rank + 1, self->instances->len);
      gtk_label_set_text (self->position_label, text);
    }
  else
    gtk_label_set_text (self->position_label, "");
}

static void
fill (SpsInstanceBrowser *self)
{
  static const char *names[4];
  static const SpsResultColumnType types[] = {
    SPS_RESULT_COLUMN_REAL, SPS_RESULT_COLUMN_REAL,
    SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_TEXT,
  };
  SpsTrace *trace = sps_session_get_trace (self->session);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  SpsTime origin = sps_trace_get_start_time (trace);
  SpsTime min = G_MAXINT64;
  SpsTime max = 0;
  SpsTime total = 0;
  SpsTime sampled_total = 0;
  guint n_measured = 0;
  guint n_sampled = 0;
  gboolean filtered;

  g_assert (SPS_IS_INSTANCE_BROWSER (self));

  if (names[0] == NULL)
    {
      names[0] = _("Start (ms)");
      names[1] = _("Duration (ms)");
      names[2] = _("Thread");
      names[3] = _("Kind");
    }

  g_array_set_size (self->instances, 0);
  g_array_set_size (self->samples, 0);
  sps_result_table_clear (self->table);

  if (self->name == SPS_NO_INDEX)
    {
      sps_result_table_set_columns (self->table, 0, NULL, NULL);
      sps_result_table_set_note (self->table, NULL);
      sps_result_table_set_placeholder (self->table, _("Select a slice to list every slice of its name"));
      gtk_label_set_text (self->name_label, _("No slice selected"));
      gtk_label_set_text (self->stats_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_label), FALSE);
      update_position (self);
      return;
    }

  filtered = sps_session_has_filters (self->session);
  for (guint i = 0; i < slices->n_rows; i++)
    {
      if (slices->name[i] != self->name)
        continue;
      if (filtered && !sps_session_is_slice_visible (self->session, i))
        continue;

      g_array_append_val (self->instances, i);

      if (slices->flags[i] & SPS_SLICE_SAMPLED)
        {
          n_sampled++;
          sampled_total += slices->dur[i];
        }
      else if (!(slices->flags[i] & SPS_SLICE_UNFINISHED))
        {
          n_measured++;
          total += slices->dur[i];
          min = MIN (min, slices->dur[i]);
          max = MAX (max, slices->dur[i]);
        }
    }

  collect_samples (self, trace, filtered);

  sps_result_table_set_columns (self->table, 4, names, types);
  for (guint r = 0; r < MIN (self->instances->len, MAX_ROWS); r++)
    {
      guint32 s = g_array_index (self->instances, guint32, r);
      g_autofree char *thread = _sps_panel_track_label (trace, slices->track[s]);

      sps_result_table_append_row (self->table,
                                   g_variant_new ("(d@mdss)",
                                                  _sps_panel_ms (slices->ts[s] - origin),
                                                  g_variant_new_maybe (G_VARIANT_TYPE_DOUBLE,
                                                                       g_variant_new_double (_sps_panel_ms (slices->dur[s]))),
                                                  thread,
                                                  kind_text (slices->flags[s])));
    }
  append_sample_rows (self, trace, MAX_ROWS - MIN (self->instances->len, MAX_ROWS));
  if (self->instances->len + self->samples->len > MAX_ROWS)
    {
      g_autofree char *note = NULL;

      /* Translators: %u are numbers of slices and samples */
      note = g_strdup_printf (_("Showing %u of %u instances; the arrows walk all of them"),
                              MAX_ROWS, self->instances->len + self->samples->len);
      sps_result_table_set_note (self->table, note);
    }
  else
    sps_result_table_set_note (self->table, NULL);
  sps_result_table_set_placeholder (self->table, _("Every instance is hidden by the filters"));

  gtk_label_set_text (self->name_label, sps_trace_get_string (trace, self->name));

  if (n_measured > 0)
    {
      g_autofree char *count = NULL;
      g_autofree char *min_text = sps_time_format (min);
      g_autofree char *max_text = sps_time_format (max);
      g_autofree char *avg_text = sps_time_format (total / n_measured);
      g_autofree char *text = NULL;

      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u measured instance",
                                            "%u measured instances", n_measured),
                               n_measured);
      /* Translators: "8 measured instances · min 1 ms · max 3 ms · avg 2 ms" */
      text = g_strdup_printf (_("%s · min %s · max %s · avg %s"), count, min_text, max_text, avg_text);
      gtk_label_set_text (self->stats_label, text);
    }
  else
    gtk_label_set_text (self->stats_label, _("No measured instance"));

  gtk_widget_set_visible (GTK_WIDGET (self->estimate_label), n_sampled > 0 || self->samples->len > 0);
  if (n_sampled == 0 && self->samples->len > 0)
    gtk_label_set_text (self->estimate_label, "");
  if (n_sampled > 0)
    {
      g_autofree char *avg_text = sps_time_format (sampled_total / n_sampled);
      g_autofree char *text = NULL;

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           /* Translators: sampled spans have intervals estimated from
                                            * stack samples; %u is their number, %s their average
                                            * duration */
                                           "%u sampled span · avg %s (estimate)",
                                           "%u sampled spans · avg %s (estimate)", n_sampled),
                              n_sampled, avg_text);
      gtk_label_set_text (self->estimate_label, text);
    }
  if (self->samples->len > 0)
    {
      const char *before = gtk_label_get_text (self->estimate_label);
      g_autofree char *count = NULL;
      g_autofree char *text = NULL;

      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            /* Translators: stack samples whose leaf frame has
                                             * the selected slice's name */
                                            "%u stack sample with this leaf frame",
                                            "%u stack samples with this leaf frame",
                                            self->samples->len),
                               self->samples->len);
      text = *before != '\0' ? g_strconcat (before, "\n", count, NULL) : g_strdup (count);
      gtk_label_set_text (self->estimate_label, text);
    }

  update_position (self);
}

static void
on_selection_changed (SpsInstanceBrowser *self)
{
  guint selected = sps_session_get_selected_slice (self->session);
  guint32 name = SPS_NO_INDEX;

  g_assert (SPS_IS_INSTANCE_BROWSER (self));

  if (selected != SPS_NO_INDEX)
    name = sps_trace_get_slices (sps_session_get_trace (self->session))->name[selected];

  /* Nothing selected keeps the last name listed, so the list stays
   * while the user clears the selection on the timeline. */
  if (name == SPS_NO_INDEX || name == self->name)
    {
      update_position (self);
      return;
    }

  self->name = name;
  fill (self);
}

static void
on_filters_changed (SpsInstanceBrowser *self)
{
  if (self->name != SPS_NO_INDEX)
    fill (self);
}

static gboolean
step (SpsInstanceBrowser *self,
      int                 direction)
{
  const SpsSliceTable *slices;
  guint selected;
  guint32 best = SPS_NO_INDEX;
  guint32 extreme = SPS_NO_INDEX;

  g_assert (SPS_IS_INSTANCE_BROWSER (self));

  if (self->instances->len == 0)
    return FALSE;

  slices = sps_trace_get_slices (sps_session_get_trace (self->session));
  selected = sps_session_get_selected_slice (self->session);

  /* One pass, as in sps_search_result_step(): the nearest instance after
   * (before) the selection in time order, wrapping around. */
  for (guint i = 0; i < self->instances->len; i++)
    {
      guint32 s = g_array_index (self->instances, guint32, i);

      if (direction > 0)
        {
          if (extreme == SPS_NO_INDEX || slice_before (slices, s, extreme))
            extreme = s;
          if (selected != SPS_NO_INDEX && slice_before (slices, selected, s) &&
              (best == SPS_NO_INDEX || slice_before (slices, s, best)))
            best = s;
        }
      else
        {
          if (extreme == SPS_NO_INDEX || slice_before (slices, extreme, s))
            extreme = s;
          if (selected != SPS_NO_INDEX && slice_before (slices, s, selected) &&
              (best == SPS_NO_INDEX || slice_before (slices, best, s)))
            best = s;
        }
    }

  _sps_panel_show_slice (self->session, best != SPS_NO_INDEX ? best : extreme);
  return TRUE;
}

static void
on_previous (SpsInstanceBrowser *self)
{
  step (self, -1);
}

static void
on_next (SpsInstanceBrowser *self)
{
  step (self, 1);
}

static void
on_row_activated (SpsInstanceBrowser *self,
                  guint               row,
                  SpsResultTable     *table)
{
  g_assert (SPS_IS_INSTANCE_BROWSER (self));

  if (row < self->instances->len)
    _sps_panel_show_slice (self->session, g_array_index (self->instances, guint32, row));
}

static void
sps_instance_browser_dispose (GObject *object)
{
  SpsInstanceBrowser *self = (SpsInstanceBrowser *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), SPS_TYPE_INSTANCE_BROWSER);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_instance_browser_parent_class)->dispose (object);
}

static void
sps_instance_browser_finalize (GObject *object)
{
  SpsInstanceBrowser *self = (SpsInstanceBrowser *)object;

  g_clear_pointer (&self->instances, g_array_unref);
  g_clear_pointer (&self->samples, g_array_unref);

  G_OBJECT_CLASS (sps_instance_browser_parent_class)->finalize (object);
}

static void
sps_instance_browser_class_init (SpsInstanceBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_instance_browser_dispose;
  object_class->finalize = sps_instance_browser_finalize;

  g_type_ensure (SPS_TYPE_RESULT_TABLE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/spanscope/Spanscope/sps-instance-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, name_label);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, stats_label);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, estimate_label);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, position_label);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, previous_button);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, next_button);
  gtk_widget_class_bind_template_child (widget_class, SpsInstanceBrowser, table);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "instancebrowser");
}

static void
sps_instance_browser_init (SpsInstanceBrowser *self)
{
  self->name = SPS_NO_INDEX;
  self->instances = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->samples = g_array_new (FALSE, FALSE, sizeof (guint32));

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  g_signal_connect_object (self->previous_button, "clicked", G_CALLBACK (on_previous), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->next_button, "clicked", G_CALLBACK (on_next), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->table, "row-activated", G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);
}

/**
 * sps_instance_browser_new:
 * @session: the window's session
 *
 * Returns: (transfer floating): a new instance browser
 */
GtkWidget *
sps_instance_browser_new (SpsSession *session)
{
  SpsInstanceBrowser *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_INSTANCE_BROWSER, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::selected-slice", G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "filters-changed", G_CALLBACK (on_filters_changed), self, G_CONNECT_SWAPPED);

  fill (self);
  on_selection_changed (self);

  return GTK_WIDGET (self);
}

/**
 * sps_instance_browser_get_n_instances:
 * @self: a #SpsInstanceBrowser
 *
 * Returns: how many instances are listed (visible slices of the name)
 */
guint
sps_instance_browser_get_n_instances (SpsInstanceBrowser *self)
{
  g_return_val_if_fail (SPS_IS_INSTANCE_BROWSER (self), 0);

  return self->instances->len;
}

/**
 * sps_instance_browser_step:
 * @self: a #SpsInstanceBrowser
 * @direction: 1 for the next instance, -1 for the previous one
 *
 * Selects the next (previous) instance in time order, as the buttons do.
 *
 * Returns: whether an instance was selected
 */
gboolean
sps_instance_browser_step (SpsInstanceBrowser *self,
                           int                 direction)
{
  g_return_val_if_fail (SPS_IS_INSTANCE_BROWSER (self), FALSE);
  g_return_val_if_fail (direction == 1 || direction == -1, FALSE);

  return step (self, direction);
}
