/* sps-flamegraph-panel.c: the flame graph panel of a trace window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A toolbar (thread, tree kind, breadcrumbs of the zoom, export) above an
 * icicle chart. The tree is built on a worker thread whenever the scope
 * changes: thread, kind, the session's range selection or its filters.
 * Search text, selection and zoom only redraw.
 *
 * Selection sync: clicking a frame zooms to it and selects its longest
 * slice on the timeline (span trees); selecting a slice elsewhere outlines
 * the frame it was counted in.
 */

#define G_LOG_DOMAIN "sps-flamegraph"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "sps-flamegraph-chart.h"
#include "sps-flamegraph-panel.h"

struct _SpsFlamegraphPanel
{
  GtkBox              parent_instance;

  SpsSession         *session;
  SpsTrace           *trace;

  GtkDropDown        *thread_dropdown;
  GtkDropDown        *kind_dropdown;
  GtkToggleButton    *raw_toggle;
  GtkSearchEntry     *first_span_entry;
  GtkSearchEntry     *span_filter_entry;
  GtkBox             *breadcrumbs;
  GtkLabel           *status;
  SpsFlamegraphChart *chart;

  GArray             *thread_rows;   /* dropdown position − 1 → thread row */
  GArray             *kinds;         /* dropdown position → SpsFlameTreeKind */

  GCancellable       *cancellable;
  guint               rebuild_id;
  gboolean            building;
  /* The scope changed while the panel was hidden: it builds when shown */
  gboolean            stale;

  /* The span filters the last build used: an entry reports the same text
   * on Enter and again when its typing delay ends */
  char               *built_first_span;
  char               *built_span_filter;

  /* Names from the root to the zoomed node, kept across rebuilds */
  GArray             *zoom_path;     /* guint32 string ids */
};

enum {
  PROP_0,
  PROP_BUILDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpsFlamegraphPanel, sps_flamegraph_panel, GTK_TYPE_BOX)

/* What a build needs from the session, copied on the main thread so the
 * worker never calls into it. */
typedef struct
{
  SpsFlamegraphPanel *panel;      /* owned */
  GBytes             *slice_mask; /* nullable */
  guint8             *track_visible;
  guint               n_tracks;
  SpsFlameTreeParams  params;
  SpsFilteredSamples *filtered;   /* nullable: the span filters' samples */
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->panel);
  g_clear_pointer (&data->slice_mask, g_bytes_unref);
  g_free (data->track_visible);
  g_clear_pointer (&data->filtered, sps_filtered_samples_free);
  g_free (data);
}

static gboolean
slice_visible (SpsTrace *trace,
               guint     slice,
               gpointer  user_data)
{
  BuildData *data = user_data;
  gsize size;
  const guint8 *mask = g_bytes_get_data (data->slice_mask, &size);

  return slice >= size || mask[slice] != 0;
}

static gboolean
sample_visible (SpsTrace *trace,
                guint     sample,
                gpointer  user_data)
{
  BuildData *data = user_data;
  const SpsSampleTable *table = data->params.samples != NULL ? data->params.samples : sps_trace_get_samples (trace);
  guint32 track = table->track[sample];

  return track >= data->n_tracks || data->track_visible[track] != 0;
}

static guint32
selected_thread (SpsFlamegraphPanel *self)
{
  guint pos = gtk_drop_down_get_selected (self->thread_dropdown);

  if (pos == 0 || pos == GTK_INVALID_LIST_POSITION || pos > self->thread_rows->len)
    return SPS_NO_INDEX;

  return g_array_index (self->thread_rows, guint32, pos - 1);
}

static SpsFlameTreeKind
selected_kind (SpsFlamegraphPanel *self)
{
  guint pos = gtk_drop_down_get_selected (self->kind_dropdown);

  if (pos == GTK_INVALID_LIST_POSITION || pos >= self->kinds->len)
    return sps_flame_tree_get_default_kind (self->trace);

  return g_array_index (self->kinds, SpsFlameTreeKind, pos);
}

static void
set_building (SpsFlamegraphPanel *self,
              gboolean            building)
{
  if (self->building == building)
    return;
  self->building = building;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUILDING]);
}

static void update_breadcrumbs (SpsFlamegraphPanel *self);
static void sync_selection_from_session (SpsFlamegraphPanel *self);

static void
on_breadcrumb_clicked (GtkButton          *button,
                       SpsFlamegraphPanel *self)
{
  guint node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "sps-node"));

  sps_flamegraph_chart_set_zoom (self->chart, node);
  update_breadcrumbs (self);
}

/* "all › outer › … › zoomed", the last one not clickable */
static void
update_breadcrumbs (SpsFlamegraphPanel *self)
{
  SpsFlameTree *tree = sps_flamegraph_chart_get_tree (self->chart);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumbs))))
    gtk_box_remove (self->breadcrumbs, child);

  g_array_set_size (self->zoom_path, 0);
  if (tree == NULL)
    return;

  for (guint32 n = sps_flamegraph_chart_get_zoom (self->chart); n != SPS_NO_INDEX;
       n = sps_flame_tree_get_node (tree, n)->parent)
    g_array_prepend_val (path, n);

  for (guint i = 0; i < path->len; i++)
    {
      guint32 node = g_array_index (path, guint32, i);
      const SpsFlameNode *n = sps_flame_tree_get_node (tree, node);
      const char *name = node == 0 ? _("all") : sps_trace_get_string (self->trace, n->name);
      GtkWidget *button = gtk_button_new_with_label (name);
      GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

      if (node != 0)
        g_array_append_val (self->zoom_path, n->name);

      if (i > 0)
        {
          GtkWidget *sep = gtk_label_new ("›");

          gtk_widget_add_css_class (sep, "dim-label");
          gtk_box_append (self->breadcrumbs, sep);
        }

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
      gtk_widget_set_tooltip_text (button, name);
      g_object_set_data (G_OBJECT (button), "sps-node", GUINT_TO_POINTER (node));
      if (i + 1 == path->len)
        gtk_widget_set_sensitive (button, FALSE);
      else
        g_signal_connect (button, "clicked", G_CALLBACK (on_breadcrumb_clicked), self);
      gtk_box_append (self->breadcrumbs, button);
    }
}

static void
update_status (SpsFlamegraphPanel *self)
{
  SpsFlameTree *tree = sps_flamegraph_chart_get_tree (self->chart);
  const SpsFlameNode *root;
  g_autofree char *text = NULL;

  if (self->building)
    {
      gtk_label_set_text (self->status, _("Building…"));
      return;
    }
  if (tree == NULL)
    {
      gtk_label_set_text (self->status, "");
      return;
    }

  root = sps_flame_tree_get_node (tree, 0);
  if (root->inclusive == 0)
    text = g_strdup (_("Nothing in this scope"));
  else if (sps_flame_tree_get_kind (tree) == SPS_FLAME_TREE_SAMPLES)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRId64 " sample",
                                         "%" PRId64 " samples", (gulong) root->inclusive),
                            root->inclusive);
  else
    {
      g_autofree char *total = sps_time_format (root->inclusive);

      if (sps_flame_tree_get_values_are_estimates (tree))
        /* Translators: a duration estimated from sampled spans */
        text = g_strdup_printf (_("%s estimated"), total);
      else
        text = g_steal_pointer (&total);
    }

  gtk_label_set_text (self->status, text);
}

static void
on_built (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  BuildData *data = user_data;
  SpsFlamegraphPanel *self = data->panel;
  g_autoptr(SpsFlameTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  guint zoom = 0;

  tree = sps_flame_tree_build_finish (result, &error);

  if (tree == NULL)
    {
      /* A newer build replaced this one */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_warning ("Could not build the flame graph: %s", error->message);
          set_building (self, FALSE);
          update_status (self);
        }
      build_data_free (data);
      return;
    }

  /* Keep the zoom where the same path still exists */
  for (guint i = 0; i < self->zoom_path->len; i++)
    {
      guint child = sps_flame_tree_find_child (tree, zoom, g_array_index (self->zoom_path, guint32, i));

      if (child == SPS_NO_INDEX)
        break;
      zoom = child;
    }

  sps_flamegraph_chart_set_tree (self->chart, tree);
  sps_flamegraph_chart_set_zoom (self->chart, zoom);
  update_breadcrumbs (self);
  sync_selection_from_session (self);
  set_building (self, FALSE);
  update_status (self);

  build_data_free (data);
}

static void
rebuild_now (SpsFlamegraphPanel *self)
{
  BuildData *data;
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  SpsTime start;
  SpsTime end;

  self->stale = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  data = g_new0 (BuildData, 1);
  data->panel = g_object_ref (self);
  sps_flame_tree_params_init (&data->params, selected_kind (self));
  data->params.thread = selected_thread (self);
  /* The stacks as read, before a repair (e.g. of .nettrace stacks cut at
   * 100 frames) */
  if (data->params.kind == SPS_FLAME_TREE_SAMPLES && gtk_toggle_button_get_active (self->raw_toggle))
    data->params.samples = sps_trace_get_raw_samples (self->trace);
  /* The span filters of a stack repair (first-span, span-filter), applied
   * to the samples shown */
  if (data->params.kind == SPS_FLAME_TREE_SAMPLES)
    {
      const char *first_span = gtk_editable_get_text (GTK_EDITABLE (self->first_span_entry));
      const char *span_filter = gtk_editable_get_text (GTK_EDITABLE (self->span_filter_entry));

      g_free (self->built_first_span);
      self->built_first_span = g_strdup (first_span);
      g_free (self->built_span_filter);
      self->built_span_filter = g_strdup (span_filter);
      if (first_span[0] != '\0' || span_filter[0] != '\0')
        data->filtered = sps_filtered_samples_new (self->trace, data->params.samples,
                                                   first_span[0] != '\0' ? first_span : NULL,
                                                   span_filter[0] != '\0' ? span_filter : NULL, NULL);
      if (data->filtered != NULL)
        {
          data->params.samples = sps_filtered_samples_get_samples (data->filtered);
          data->params.callsites = sps_filtered_samples_get_callsites (data->filtered);
        }
    }
  if (sps_session_get_range (self->session, &start, &end))
    {
      data->params.has_range = TRUE;
      data->params.range_start = start;
      data->params.range_end = end;
    }

  if (sps_session_has_filters (self->session))
    {
      data->slice_mask = sps_session_dup_slice_mask (self->session);
      data->n_tracks = tracks->n_rows;
      data->track_visible = g_new (guint8, MAX (tracks->n_rows, 1));
      for (guint t = 0; t < tracks->n_rows; t++)
        data->track_visible[t] = sps_session_is_track_visible (self->session, t);
      if (data->slice_mask != NULL)
        data->params.slice_visible = slice_visible;
      data->params.sample_visible = sample_visible;
      data->params.user_data = data;
    }

  set_building (self, TRUE);
  update_status (self);
  sps_flame_tree_build_async (self->trace, &data->params, NULL, self->cancellable, on_built, data);
}

static gboolean
rebuild_idle (gpointer user_data)
{
  SpsFlamegraphPanel *self = user_data;

  self->rebuild_id = 0;
  /* Hidden since the change: built when shown */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return G_SOURCE_REMOVE;
    }
  rebuild_now (self);

  return G_SOURCE_REMOVE;
}

/* Several changes in one main loop turn (a range drag) make one build.
 * A hidden panel builds nothing until it is shown: a tree of the whole
 * trace costs a core for a while, which the first frame and every range
 * drag would otherwise share with a graph nobody sees. */
static void
queue_rebuild (SpsFlamegraphPanel *self)
{
  set_building (self, TRUE);
  /* Says so at once, when shown again too: the old graph is not the scope's */
  update_status (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      g_clear_handle_id (&self->rebuild_id, g_source_remove);
      g_cancellable_cancel (self->cancellable);
      return;
    }
  if (self->rebuild_id == 0)
    self->rebuild_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, rebuild_idle, self, NULL);
}

static void
sps_flamegraph_panel_map (GtkWidget *widget)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (widget);

  GTK_WIDGET_CLASS (sps_flamegraph_panel_parent_class)->map (widget);
  if (self->stale)
    queue_rebuild (self);
}

/* Outlines the frame of the session's selected slice */
static void
sync_selection_from_session (SpsFlamegraphPanel *self)
{
  SpsFlameTree *tree = sps_flamegraph_chart_get_tree (self->chart);
  guint slice = sps_session_get_selected_slice (self->session);
  guint node = SPS_NO_INDEX;
  gboolean inside = FALSE;

  if (tree == NULL)
    return;

  if (slice != SPS_NO_INDEX)
    node = sps_flame_tree_get_slice_node (tree, slice);

  /* Zoom out when the frame is outside the zoomed subtree */
  if (node != SPS_NO_INDEX)
    {
      guint zoom = sps_flamegraph_chart_get_zoom (self->chart);

      for (guint32 n = node; n != SPS_NO_INDEX && !inside; n = sps_flame_tree_get_node (tree, n)->parent)
        inside = n == zoom;
      if (!inside)
        {
          sps_flamegraph_chart_set_zoom (self->chart, 0);
          update_breadcrumbs (self);
        }
    }

  sps_flamegraph_chart_set_selected (self->chart, node);
}

static void
on_node_clicked (SpsFlamegraphChart *chart,
                 guint               node,
                 SpsFlamegraphPanel *self)
{
  SpsFlameTree *tree = sps_flamegraph_chart_get_tree (chart);
  const SpsFlameNode *n = sps_flame_tree_get_node (tree, node);

  sps_flamegraph_chart_set_zoom (chart, node);
  update_breadcrumbs (self);
  sps_flamegraph_chart_set_selected (chart, node);

  /* Span trees: the longest instance becomes the timeline's selection,
   * so the timeline and the instance browser show it */
  if (sps_flame_tree_get_kind (tree) != SPS_FLAME_TREE_SAMPLES && n->instance != SPS_NO_INDEX)
    {
      const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
      SpsTime ts = slices->ts[n->instance];

      sps_session_set_selected_slice (self->session, n->instance);
      if (ts < sps_session_get_visible_start (self->session) ||
          ts >= sps_session_get_visible_end (self->session))
        sps_session_go_to_time (self->session, ts);
    }
}

static void
on_scope_changed (SpsFlamegraphPanel *self)
{
  queue_rebuild (self);
}

static void
on_span_filters_changed (SpsFlamegraphPanel *self)
{
  if (self->rebuild_id == 0 &&
      g_strcmp0 (self->built_first_span, gtk_editable_get_text (GTK_EDITABLE (self->first_span_entry))) == 0 &&
      g_strcmp0 (self->built_span_filter, gtk_editable_get_text (GTK_EDITABLE (self->span_filter_entry))) == 0)
    return;

  queue_rebuild (self);
}

static void
on_search_changed (SpsFlamegraphPanel *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
}

static void
on_selected_slice_changed (SpsFlamegraphPanel *self)
{
  sync_selection_from_session (self);
}

/* Export */

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SpsFlamegraphPanel *self = source_object;
  const char *format = g_object_get_data (G_OBJECT (task), "sps-format");
  GVariant *options = g_object_get_data (G_OBJECT (task), "sps-options");
  GFile *file = task_data;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;
  g_autoptr(SpsProgress) progress = sps_progress_new (cancellable);
  GError *error = NULL;

  if (!(exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), format)))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               /* Translators: a format name (folded, speedscope) */
                               _("No plugin writes the format “%s”"), format);
      return;
    }

  if (!(out = sps_file_replace (file, cancellable, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (out), 1 << 20);

  if (!sps_exporter_write (exporter, self->trace, options, buffered, progress, &error))
    {
      sps_file_replace_abandon (buffered);
      g_task_return_error (task, error);
      return;
    }

  if (!g_output_stream_close (buffered, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_exported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (source);
  g_autoptr(GError) error = NULL;
  GFile *file = g_task_get_task_data (G_TASK (result));
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    /* Translators: a file name */
    text = g_strdup_printf (_("Saved %s"), name);
  else
    /* Translators: a file name, then an error message */
    text = g_strdup_printf (_("Could not save %s: %s"), name, error->message);

  gtk_label_set_text (self->status, text);
}

static void
export_to_file (SpsFlamegraphPanel *self,
                const char         *format,
                GFile              *file)
{
  /* Not the build's cancellable: a rebuild must not stop an export */
  g_autoptr(GTask) task = g_task_new (self, NULL, on_exported, NULL);
  guint32 thread = selected_thread (self);
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "tree", "s", sps_flame_tree_kind_to_string (selected_kind (self)));
  if (thread != SPS_NO_INDEX)
    g_variant_dict_insert (&dict, "thread", "x", sps_trace_get_threads (self->trace)->tid[thread]);

  g_task_set_source_tag (task, export_to_file);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_object_set_data_full (G_OBJECT (task), "sps-format", g_strdup (format), g_free);
  g_object_set_data_full (G_OBJECT (task), "sps-options",
                          g_variant_ref_sink (g_variant_dict_end (&dict)),
                          (GDestroyNotify) g_variant_unref);
  g_task_run_in_thread (task, export_thread);
}

static void
on_export_response (GtkNativeDialog    *dialog,
                    int                 response,
                    SpsFlamegraphPanel *self)
{
  const char *format = g_object_get_data (G_OBJECT (dialog), "sps-format");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        export_to_file (self, format, file);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (widget);
  const char *format = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  name = g_strconcat ("flame-", sps_flame_tree_kind_to_string (selected_kind (self)),
                      g_str_equal (format, "speedscope") ? ".speedscope.json" : ".folded", NULL);

  dialog = gtk_file_chooser_native_new (g_str_equal (format, "speedscope") ? _("Export as speedscope JSON")
                                                                           : _("Export as folded stacks"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_object_set_data_full (G_OBJECT (dialog), "sps-format", g_strdup (format), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Setup */

static void
fill_thread_dropdown (SpsFlamegraphPanel *self)
{
  const SpsThreadTable *threads = sps_trace_get_threads (self->trace);
  const SpsProcessTable *processes = sps_trace_get_processes (self->trace);
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, _("All threads"));
  for (guint32 t = 0; t < threads->n_rows; t++)
    {
      const char *name = sps_trace_get_string (self->trace, threads->name[t]);
      guint32 process = threads->process[t];
      gint64 pid = process < processes->n_rows ? processes->pid[process] : 0;
      g_autofree char *label = NULL;

      if (name[0] != '\0')
        /* Translators: a thread name, its thread id and process id */
        label = g_strdup_printf (_("%s (tid %" PRId64 ", pid %" PRId64 ")"),
                                 name, threads->tid[t], pid);
      else
        /* Translators: a thread without a name: its thread id and process id */
        label = g_strdup_printf (_("Thread %" PRId64 " (pid %" PRId64 ")"),
                                 threads->tid[t], pid);
      gtk_string_list_append (list, label);
      g_array_append_val (self->thread_rows, t);
    }

  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
}

static void
fill_kind_dropdown (SpsFlamegraphPanel *self)
{
  static const struct { SpsFlameTreeKind kind; const char *label; } kinds[] = {
    { SPS_FLAME_TREE_MEASURED, N_("Measured spans") },
    { SPS_FLAME_TREE_SAMPLES, N_("Samples") },
    { SPS_FLAME_TREE_SAMPLED, N_("Sampled spans (estimates)") },
  };
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  SpsFlameTreeKind preferred = sps_flame_tree_get_default_kind (self->trace);
  guint selected = 0;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      if (!sps_flame_tree_trace_has_kind (self->trace, kinds[i].kind))
        continue;
      if (kinds[i].kind == preferred)
        selected = self->kinds->len;
      gtk_string_list_append (list, _(kinds[i].label));
      g_array_append_val (self->kinds, kinds[i].kind);
    }

  /* A trace with none of them still gets an (empty) measured tree */
  if (self->kinds->len == 0)
    {
      SpsFlameTreeKind kind = SPS_FLAME_TREE_MEASURED;

      gtk_string_list_append (list, _(kinds[0].label));
      g_array_append_val (self->kinds, kind);
    }

  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->kind_dropdown, selected);
  gtk_widget_set_sensitive (GTK_WIDGET (self->kind_dropdown), self->kinds->len > 1);
}

static GtkWidget *
make_export_button (void)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();

  g_menu_append (menu, _("Folded Stacks…"), "flame.export::folded");
  g_menu_append (menu, _("Speedscope JSON…"), "flame.export::speedscope");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-save-symbolic");
  gtk_widget_set_tooltip_text (button, _("Export the flame graph"));
  gtk_widget_set_name (button, "flame-export");

  return button;
}

static void
sps_flamegraph_panel_dispose (GObject *object)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (sps_flamegraph_panel_parent_class)->dispose (object);
}

static void
sps_flamegraph_panel_finalize (GObject *object)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (object);

  g_clear_pointer (&self->thread_rows, g_array_unref);
  g_clear_pointer (&self->kinds, g_array_unref);
  g_clear_pointer (&self->zoom_path, g_array_unref);
  g_clear_pointer (&self->built_first_span, g_free);
  g_clear_pointer (&self->built_span_filter, g_free);

  G_OBJECT_CLASS (sps_flamegraph_panel_parent_class)->finalize (object);
}

static void
sps_flamegraph_panel_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SpsFlamegraphPanel *self = SPS_FLAMEGRAPH_PANEL (object);

  switch (prop_id)
    {
    case PROP_BUILDING:
      g_value_set_boolean (value, self->building);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_flamegraph_panel_class_init (SpsFlamegraphPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_flamegraph_panel_dispose;
  object_class->finalize = sps_flamegraph_panel_finalize;
  object_class->get_property = sps_flamegraph_panel_get_property;
  widget_class->map = sps_flamegraph_panel_map;

  /* Whether a tree is being built, or waits (for the panel to be shown,
   * or for the end of a main loop turn), for a new scope */
  properties[PROP_BUILDING] =
    g_param_spec_boolean ("building", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "flame.export", "s", export_action);
}

static void
sps_flamegraph_panel_init (SpsFlamegraphPanel *self)
{
  GtkWidget *toolbar;
  GtkWidget *scroller;
  GtkWidget *crumbs_scroller;

  self->thread_rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->kinds = g_array_new (FALSE, FALSE, sizeof (SpsFlameTreeKind));
  self->zoom_path = g_array_new (FALSE, FALSE, sizeof (guint32));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);

  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_end (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 4);
  gtk_widget_set_margin_bottom (toolbar, 4);
  gtk_box_append (GTK_BOX (self), toolbar);

  self->thread_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_name (GTK_WIDGET (self->thread_dropdown), "flame-thread");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->thread_dropdown), _("Thread"));
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->thread_dropdown));

  self->kind_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_name (GTK_WIDGET (self->kind_dropdown), "flame-tree-kind");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->kind_dropdown), _("What the widths measure"));
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->kind_dropdown));

  /* Translators: a toggle of the flame graph: show the stacks as read,
   * before the repair of stacks cut at 100 frames */
  self->raw_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Raw stacks")));
  gtk_widget_set_name (GTK_WIDGET (self->raw_toggle), "flame-raw-stacks");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->raw_toggle),
                               _("Show the stacks as recorded, before cut stacks were repaired"));
  gtk_widget_set_visible (GTK_WIDGET (self->raw_toggle), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->raw_toggle));

  self->first_span_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->first_span_entry), "flame-first-span");
  /* Translators: placeholder of a pattern entry; "span" is a stack frame */
  g_object_set (self->first_span_entry, "placeholder-text", _("First span"), NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->first_span_entry), 14);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->first_span_entry),
                               _("Drop the frames from the root up to the first one matching this pattern "
                                 "(* and ?, any case, without module!); samples without a match are left out"));
  gtk_widget_set_visible (GTK_WIDGET (self->first_span_entry), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->first_span_entry));

  self->span_filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->span_filter_entry), "flame-span-filter");
  /* Translators: placeholder of a pattern entry; "span" is a stack frame */
  g_object_set (self->span_filter_entry, "placeholder-text", _("Span filter"), NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->span_filter_entry), 14);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->span_filter_entry),
                               _("Keep only the frames matching this pattern (* and ?, any case, without module!)"));
  gtk_widget_set_visible (GTK_WIDGET (self->span_filter_entry), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->span_filter_entry));

  crumbs_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (crumbs_scroller), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
  gtk_widget_set_hexpand (crumbs_scroller, TRUE);
  self->breadcrumbs = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0));
  gtk_widget_set_name (GTK_WIDGET (self->breadcrumbs), "flame-breadcrumbs");
  gtk_widget_set_valign (GTK_WIDGET (self->breadcrumbs), GTK_ALIGN_CENTER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (crumbs_scroller), GTK_WIDGET (self->breadcrumbs));
  gtk_box_append (GTK_BOX (toolbar), crumbs_scroller);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->status), "flame-status");
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->status));

  gtk_box_append (GTK_BOX (toolbar), make_export_button ());

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self), scroller);
  self->chart = NULL;
  g_object_set_data (G_OBJECT (self), "sps-scroller", scroller);
}

/**
 * sps_flamegraph_panel_new:
 * @session: the window's session
 *
 * Returns: (transfer full): a new panel
 */
GtkWidget *
sps_flamegraph_panel_new (SpsSession *session)
{
  SpsFlamegraphPanel *self;
  GtkWidget *scroller;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_FLAMEGRAPH_PANEL, NULL);
  self->session = g_object_ref (session);
  self->trace = g_object_ref (sps_session_get_trace (session));

  self->chart = SPS_FLAMEGRAPH_CHART (sps_flamegraph_chart_new (session));
  gtk_widget_set_name (GTK_WIDGET (self->chart), "flame-chart");
  gtk_widget_set_valign (GTK_WIDGET (self->chart), GTK_ALIGN_START);
  g_signal_connect (self->chart, "node-clicked", G_CALLBACK (on_node_clicked), self);
  scroller = g_object_get_data (G_OBJECT (self), "sps-scroller");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->chart));

  fill_thread_dropdown (self);
  fill_kind_dropdown (self);

  g_signal_connect_swapped (self->thread_dropdown, "notify::selected", G_CALLBACK (on_scope_changed), self);
  g_signal_connect_swapped (self->kind_dropdown, "notify::selected", G_CALLBACK (on_scope_changed), self);
  /* Only traces whose stacks were rewritten have raw ones to show */
  gtk_widget_set_visible (GTK_WIDGET (self->raw_toggle), sps_trace_get_raw_samples (self->trace)->n_rows > 0);
  /* The session's switch, so that the timeline's stack charts follow */
  g_object_bind_property (self->session, "raw-stacks", self->raw_toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->raw_toggle, "toggled", G_CALLBACK (on_scope_changed), self);
  gtk_widget_set_visible (GTK_WIDGET (self->first_span_entry), sps_trace_get_raw_samples (self->trace)->n_rows > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->span_filter_entry), sps_trace_get_raw_samples (self->trace)->n_rows > 0);
  g_signal_connect_swapped (self->first_span_entry, "search-changed", G_CALLBACK (on_span_filters_changed), self);
  g_signal_connect_swapped (self->first_span_entry, "activate", G_CALLBACK (on_span_filters_changed), self);
  g_signal_connect_swapped (self->span_filter_entry, "search-changed", G_CALLBACK (on_span_filters_changed), self);
  g_signal_connect_swapped (self->span_filter_entry, "activate", G_CALLBACK (on_span_filters_changed), self);

  g_signal_connect_swapped (session, "notify::has-range", G_CALLBACK (on_scope_changed), self);
  g_signal_connect_swapped (session, "notify::range-start", G_CALLBACK (on_scope_changed), self);
  g_signal_connect_swapped (session, "notify::range-end", G_CALLBACK (on_scope_changed), self);
  g_signal_connect_swapped (session, "filters-changed", G_CALLBACK (on_scope_changed), self);
  g_signal_connect_swapped (session, "notify::search-text", G_CALLBACK (on_search_changed), self);
  g_signal_connect_swapped (session, "notify::search-in-category", G_CALLBACK (on_search_changed), self);
  g_signal_connect_swapped (session, "notify::selected-slice", G_CALLBACK (on_selected_slice_changed), self);

  queue_rebuild (self);

  return GTK_WIDGET (self);
}
