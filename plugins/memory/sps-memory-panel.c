/* sps-memory-panel.c: allocations outstanding at a time, per function
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-memory-panel"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "sps-memory-panel-private.h"

/**
 * SpsMemoryPanel:
 *
 * The Memory panel: the allocations outstanding at a time T (the
 * capture's end at first; typed in any unit, or the selected event's
 * time), optionally only those born in a range, per function with
 * inclusive and exclusive bytes and counts; a function's allocation
 * paths as a tree; a path's frames. Known allocations are kept apart from
 * uncertain ones everywhere. When the capture has allocations in more
 * than one process, a drop-down chooses whose (at first the process the
 * producer says was profiled, else the one that allocated the most
 * bytes). The model is core's #SpsOutstandingTree, built on a worker
 * thread; a newer request cancels an older one.
 */

enum {
  PROP_0,
  PROP_BUILDING,
  PROP_TIME,
  PROP_BIRTH_START,
  PROP_BIRTH_END,
  PROP_PROCESS,
  PROP_TREE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpsMemoryPanel, sps_memory_panel, GTK_TYPE_WIDGET)

typedef struct
{
  SpsTrace *trace;
  SpsTime   time;
  SpsTime   birth_start;
  SpsTime   birth_end;
  guint32   process;
} Request;

static void
request_free (Request *request)
{
  g_clear_object (&request->trace);
  g_free (request);
}

static void
build_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Request *request = task_data;

  g_task_return_pointer (task,
                         sps_outstanding_tree_new (request->trace, request->time, request->birth_start,
                                                   request->birth_end, request->process),
                         g_object_unref);
}

static void
set_building (SpsMemoryPanel *self,
              GCancellable   *cancellable)
{
  gboolean was = self->cancellable != NULL;

  g_set_object (&self->cancellable, cancellable);
  gtk_spinner_set_spinning (self->spinner, cancellable != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), cancellable != NULL);
  if (was != (cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUILDING]);
}

/* A time from the trace's start; any time a property was given must
 * format, however far it is */
static SpsTime
offset_from (SpsTime time,
             SpsTime origin)
{
  SpsTime offset;

  if (__builtin_sub_overflow (time, origin, &offset))
    return time < 0 ? G_MININT64 : G_MAXINT64;
  return offset;
}

static void
update_summary (SpsMemoryPanel *self)
{
  SpsOutstanding sum;
  g_autofree char *known_count = NULL;
  g_autofree char *known_bytes = NULL;
  g_autofree char *uncertain_count = NULL;
  g_autofree char *uncertain_bytes = NULL;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;
  g_autofree char *at = NULL;

  sps_outstanding_tree_get_summary (self->tree, &sum);
  known_count = _sps_memory_format_count (sum.known_count);
  known_bytes = _sps_memory_format_count (sum.known_bytes);
  uncertain_count = _sps_memory_format_count (sum.uncertain_count);
  uncertain_bytes = _sps_memory_format_count (sum.uncertain_bytes);
  at = sps_time_format (offset_from (self->time, self->origin));
  /* Translators: the allocations outstanding at a time from the trace's
   * start: "At 7.38 s — known: 64,762 bytes (allocations: 717) ·
   * uncertain: 0 bytes (allocations: 0)" */
  text = g_strdup_printf (_("At %s — known: %s bytes (allocations: %s) · uncertain: %s bytes (allocations: %s)"),
                          at, known_bytes, known_count, uncertain_bytes, uncertain_count);
  gtk_label_set_text (self->summary_label, text);

  note = sps_outstanding_tree_dup_summary_note (self->tree);
  if (sum.unknown_size_count > 0)
    {
      g_autofree char *sizes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " of unknown size (counted as 0 bytes)",
                                                             "%" PRIu64 " of unknown size (counted as 0 bytes)",
                                                             sum.unknown_size_count),
                                                sum.unknown_size_count);
      char *joined = g_strdup_printf ("%s%s%s", note, note[0] != '\0' ? _("; ") : "", sizes);

      g_free (note);
      note = joined;
    }
  if (note[0] != '\0')
    {
      g_autofree char *line = g_strdup_printf (_("Uncertain: %s."), note);

      gtk_label_set_text (self->note_label, line);
    }
  else
    gtk_label_set_text (self->note_label, _("Nothing is uncertain at this time."));
}

static void
on_built (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SpsMemoryPanel) self = user_data;
  GTask *task = G_TASK (result);
  g_autoptr(SpsOutstandingTree) tree = g_task_propagate_pointer (task, NULL);

  /* An older request answering late */
  if (g_task_get_cancellable (task) != self->cancellable || tree == NULL)
    return;

  g_set_object (&self->tree, tree);
  update_summary (self);
  _sps_memory_panel_fill_functions (self);
  set_building (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

static void
rebuild (SpsMemoryPanel *self)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = NULL;
  Request *request = g_new0 (Request, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  set_building (self, cancellable);

  request->trace = g_object_ref (self->trace);
  request->time = self->time;
  request->birth_start = self->birth_start;
  request->birth_end = self->birth_end;
  request->process = self->process;
  task = g_task_new (self, cancellable, on_built, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, build_in_thread);
}

static void
show_error (SpsMemoryPanel *self,
            const char     *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* A time from the trace's start, as the entries show and take it */
static void
set_entry_time (GtkEntry *entry,
                SpsTime   time,
                SpsTime   origin)
{
  g_autofree char *text = sps_time_format_duration (offset_from (time, origin), 9);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* Empty is no bound (@none); otherwise a time from the trace's start */
static gboolean
parse_entry (SpsMemoryPanel *self,
             GtkEntry       *entry,
             SpsTime         none,
             SpsTime        *out)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autoptr(GError) error = NULL;
  SpsTime offset;

  if (stripped[0] == '\0')
    {
      *out = none;
      return TRUE;
    }
  if (!sps_time_parse (text, &offset, &error))
    {
      show_error (self, error->message);
      return FALSE;
    }
  /* Any typed offset must leave a valid time */
  if (__builtin_add_overflow (self->origin, offset, out) || *out == SPS_TIME_MIN || *out == SPS_TIME_MAX)
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is too far from the start of the trace"), text);

      show_error (self, message);
      return FALSE;
    }
  return TRUE;
}

static void
on_time_activate (SpsMemoryPanel *self)
{
  SpsTime time;

  if (!parse_entry (self, self->time_entry, sps_trace_get_end_time (self->trace), &time))
    return;
  show_error (self, NULL);
  sps_memory_panel_set_time (self, time);
}

static void
on_birth_activate (SpsMemoryPanel *self)
{
  SpsTime start;
  SpsTime end;

  if (!parse_entry (self, self->birth_start_entry, SPS_TIME_MIN, &start) ||
      !parse_entry (self, self->birth_end_entry, SPS_TIME_MAX, &end))
    return;
  show_error (self, NULL);
  sps_memory_panel_set_birth_range (self, start, end);
}

static void
on_use_selected (SpsMemoryPanel *self)
{
  guint slice = sps_session_get_selected_slice (self->session);

  if (slice != SPS_NO_INDEX)
    sps_memory_panel_set_time (self, sps_trace_get_slices (self->trace)->ts[slice]);
}

static void
on_capture_end (SpsMemoryPanel *self)
{
  sps_memory_panel_set_time (self, sps_trace_get_end_time (self->trace));
}

static void
on_copy_range (SpsMemoryPanel *self)
{
  SpsTime start;
  SpsTime end;

  if (sps_session_get_range (self->session, &start, &end))
    sps_memory_panel_set_birth_range (self, start, end);
}

static void
on_clear_range (SpsMemoryPanel *self)
{
  sps_memory_panel_set_birth_range (self, SPS_TIME_MIN, SPS_TIME_MAX);
}

static void
update_sensitivity (SpsMemoryPanel *self)
{
  SpsTime start;
  SpsTime end;

  gtk_widget_set_sensitive (self->use_selected_button,
                            sps_session_get_selected_slice (self->session) != SPS_NO_INDEX);
  gtk_widget_set_sensitive (self->copy_range_button, sps_session_get_range (self->session, &start, &end));
}

static GtkWidget *
button (SpsMemoryPanel *self,
        GtkWidget      *box,
        const char     *name,
        const char     *mnemonic,
        const char     *tooltip,
        GCallback       callback)
{
  GtkWidget *widget = gtk_button_new_with_mnemonic (mnemonic);

  gtk_widget_set_name (widget, name);
  gtk_widget_set_tooltip_text (widget, tooltip);
  g_signal_connect_object (widget, "clicked", callback, self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), widget);
  return widget;
}

static GtkEntry *
entry (SpsMemoryPanel *self,
       GtkWidget      *box,
       const char     *name,
       const char     *placeholder,
       GCallback       callback)
{
  GtkWidget *widget = gtk_entry_new ();

  gtk_widget_set_name (widget, name);
  gtk_entry_set_placeholder_text (GTK_ENTRY (widget), placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (widget), 12);
  g_signal_connect_object (widget, "activate", callback, self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), widget);
  return GTK_ENTRY (widget);
}

/* The processes with allocations, biggest allocators first (bytes of
 * known size, sampled allocations' amounts included) */
typedef struct
{
  guint32 process;
  guint64 bytes;
} ProcessBytes;

static int
compare_process_bytes (gconstpointer a,
                       gconstpointer b)
{
  const ProcessBytes *pa = a;
  const ProcessBytes *pb = b;

  if (pa->bytes != pb->bytes)
    return pa->bytes > pb->bytes ? -1 : 1;
  return pa->process < pb->process ? -1 : pa->process > pb->process;
}

static GArray *
processes_by_bytes (SpsTrace *trace)
{
  const SpsAllocationTable *allocations = sps_trace_get_allocations (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  g_autofree ProcessBytes *sums = g_new0 (ProcessBytes, MAX (processes->n_rows, 1));
  g_autofree gboolean *seen = g_new0 (gboolean, MAX (processes->n_rows, 1));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ProcessBytes));

  for (guint i = 0; i < allocations->n_rows; i++)
    {
      guint32 p = allocations->process[i];
      guint64 size = allocations->size[i];

      if (p >= processes->n_rows)
        continue;
      seen[p] = TRUE;
      /* Saturating: sizes come from the file */
      if (size != SPS_SIZE_UNKNOWN && __builtin_add_overflow (sums[p].bytes, size, &sums[p].bytes))
        sums[p].bytes = G_MAXUINT64;
    }
  for (guint32 p = 0; p < processes->n_rows; p++)
    if (seen[p])
      {
        sums[p].process = p;
        g_array_append_val (out, sums[p]);
      }
  g_array_sort (out, compare_process_bytes);
  return out;
}

/* The process the producer says was profiled: the one it shows expanded
 * while it collapses the others (Diagnostics Hub's target), or
 * SPS_NO_INDEX */
static guint32
profiled_process (SpsTrace *trace)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint32 expanded = SPS_NO_INDEX;
  gboolean collapsed = FALSE;

  for (guint32 p = 0; p < processes->n_rows; p++)
    {
      if (processes->display[p] == SPS_PROCESS_DISPLAY_COLLAPSED)
        collapsed = TRUE;
      else if (processes->display[p] == SPS_PROCESS_DISPLAY_DEFAULT)
        {
          if (expanded != SPS_NO_INDEX)
            return SPS_NO_INDEX;
          expanded = p;
        }
    }
  return collapsed ? expanded : SPS_NO_INDEX;
}

static char *
process_label (SpsTrace *trace,
               guint32   process,
               guint64   bytes)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const char *name = sps_trace_get_string (trace, processes->name[process]);
  g_autofree char *amount = _sps_memory_format_count (bytes);

  if (name == NULL || name[0] == '\0')
    /* Translators: a process without a name, its id, then the bytes it allocated */
    return g_strdup_printf (_("Process %" PRId64 " — %s bytes allocated"), (gint64) processes->pid[process], amount);
  /* Translators: a process's name, its id, then the bytes it allocated */
  return g_strdup_printf (_("%s (%" PRId64 ") — %s bytes allocated"), name, (gint64) processes->pid[process], amount);
}

static void
on_process_selected (SpsMemoryPanel *self)
{
  guint selected = gtk_drop_down_get_selected (self->process_dropdown);

  if (self->process_rows != NULL && selected < self->process_rows->len)
    sps_memory_panel_set_process (self, g_array_index (self->process_rows, guint32, selected));
}

/* Fills the picker: shown only when more than one process allocated */
static void
setup_processes (SpsMemoryPanel *self)
{
  g_autoptr(GArray) by_bytes = processes_by_bytes (self->trace);
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  guint32 profiled = profiled_process (self->trace);
  guint selected = 0;

  self->process = SPS_NO_INDEX;
  self->process_rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  gtk_widget_set_visible (GTK_WIDGET (self->process_dropdown), by_bytes->len > 1);
  if (by_bytes->len <= 1)
    return;

  for (guint i = 0; i < by_bytes->len; i++)
    {
      const ProcessBytes *p = &g_array_index (by_bytes, ProcessBytes, i);
      g_autofree char *label = process_label (self->trace, p->process, p->bytes);

      g_array_append_val (self->process_rows, p->process);
      gtk_string_list_append (labels, label);
      if (p->process == profiled)
        selected = i;
    }
  self->process = g_array_index (self->process_rows, guint32, selected);
  gtk_drop_down_set_model (self->process_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->process_dropdown, selected);
  g_signal_connect_object (self->process_dropdown, "notify::selected", G_CALLBACK (on_process_selected), self,
                           G_CONNECT_SWAPPED);
}

static GtkWidget *
create_toolbar (SpsMemoryPanel *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_add_css_class (toolbar, "toolbar");
  self->process_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_name (GTK_WIDGET (self->process_dropdown), "memory-process");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->process_dropdown), _("The process whose allocations are shown"));
  gtk_widget_set_visible (GTK_WIDGET (self->process_dropdown), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->process_dropdown));
  gtk_box_append (GTK_BOX (toolbar), gtk_label_new (_("Outstanding at")));
  self->time_entry = entry (self, toolbar, "memory-time", _("e.g. 12.5ms"), G_CALLBACK (on_time_activate));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->time_entry),
                               _("A time from the start of the trace, in any unit: 12.5ms, 300us, 4s"));
  self->use_selected_button = button (self, toolbar, "memory-use-selected", _("Use _Selected Event"),
                                      _("Use the start of the event selected on the timeline"),
                                      G_CALLBACK (on_use_selected));
  button (self, toolbar, "memory-capture-end", _("Capture _End"), _("Go back to the end of the capture"),
          G_CALLBACK (on_capture_end));

  gtk_box_append (GTK_BOX (toolbar), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (toolbar), gtk_label_new (_("Born from")));
  self->birth_start_entry = entry (self, toolbar, "memory-birth-start", _("start"), G_CALLBACK (on_birth_activate));
  gtk_box_append (GTK_BOX (toolbar), gtk_label_new (_("to")));
  self->birth_end_entry = entry (self, toolbar, "memory-birth-end", _("end"), G_CALLBACK (on_birth_activate));
  self->copy_range_button = button (self, toolbar, "memory-copy-range", _("Copy Timeline _Range"),
                                    _("Only allocations born in the range selected on the timeline"),
                                    G_CALLBACK (on_copy_range));
  button (self, toolbar, "memory-clear-range", _("C_lear"), _("Allocations born at any time"),
          G_CALLBACK (on_clear_range));

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->spinner));
  return toolbar;
}

static void
label_line (SpsMemoryPanel *self,
            GtkLabel      **out,
            const char     *name)
{
  *out = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (*out), name);
  gtk_label_set_xalign (*out, 0);
  gtk_label_set_wrap (*out, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (*out), 6);
  gtk_widget_set_parent (GTK_WIDGET (*out), GTK_WIDGET (self));
}

static void
sps_memory_panel_dispose (GObject *object)
{
  SpsMemoryPanel *self = SPS_MEMORY_PANEL (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->functions);
  g_clear_object (&self->function_selection);
  g_clear_object (&self->path_selection);
  g_clear_object (&self->tree);
  g_clear_pointer (&self->paths, g_array_unref);
  g_clear_pointer (&self->process_rows, g_array_unref);
  g_clear_object (&self->trace);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_memory_panel_parent_class)->dispose (object);
}

static void
sps_memory_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SpsMemoryPanel *self = SPS_MEMORY_PANEL (object);

  switch (prop_id)
    {
    case PROP_BUILDING:
      g_value_set_boolean (value, sps_memory_panel_get_building (self));
      break;
    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;
    case PROP_BIRTH_START:
      g_value_set_int64 (value, self->birth_start);
      break;
    case PROP_BIRTH_END:
      g_value_set_int64 (value, self->birth_end);
      break;
    case PROP_PROCESS:
      g_value_set_uint (value, self->process);
      break;
    case PROP_TREE:
      g_value_set_object (value, self->tree);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_memory_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SpsMemoryPanel *self = SPS_MEMORY_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIME:
      sps_memory_panel_set_time (self, g_value_get_int64 (value));
      break;
    case PROP_BIRTH_START:
      sps_memory_panel_set_birth_range (self, g_value_get_int64 (value), self->birth_end);
      break;
    case PROP_BIRTH_END:
      sps_memory_panel_set_birth_range (self, self->birth_start, g_value_get_int64 (value));
      break;
    case PROP_PROCESS:
      sps_memory_panel_set_process (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_memory_panel_class_init (SpsMemoryPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_memory_panel_dispose;
  object_class->get_property = sps_memory_panel_get_property;
  object_class->set_property = sps_memory_panel_set_property;

  properties[PROP_BUILDING] =
    g_param_spec_boolean ("building", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BIRTH_START] =
    g_param_spec_int64 ("birth-start", NULL, NULL, G_MININT64, G_MAXINT64, G_MININT64,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BIRTH_END] =
    g_param_spec_int64 ("birth-end", NULL, NULL, G_MININT64, G_MAXINT64, G_MAXINT64,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROCESS] =
    g_param_spec_uint ("process", NULL, NULL, 0, G_MAXUINT32, SPS_NO_INDEX,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL, SPS_TYPE_OUTSTANDING_TREE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "memorypanel");
}

static void
sps_memory_panel_init (SpsMemoryPanel *self)
{
  GtkLabel *explanation;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->birth_start = SPS_TIME_MIN;
  self->birth_end = SPS_TIME_MAX;

  gtk_widget_set_parent (create_toolbar (self), GTK_WIDGET (self));
  label_line (self, &self->error_label, "memory-error");
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  label_line (self, &self->summary_label, "memory-summary");
  gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "heading");
  label_line (self, &self->note_label, "memory-note");
  label_line (self, &explanation, "memory-explanation");
  gtk_widget_add_css_class (GTK_WIDGET (explanation), "dim-label");
  gtk_label_set_text (explanation,
                      _("These are the allocations the capture recorded, outstanding when born by the time and "
                        "not reported dead by it; they are not the process's memory use (RAM), which also "
                        "holds what was allocated before or outside the recording, the runtime's own heaps "
                        "and free space. Uncertain allocations may or may not be outstanding and are never "
                        "added to the known ones."));
  gtk_widget_set_parent (_sps_memory_panel_create_lists (self), GTK_WIDGET (self));
}

/**
 * sps_memory_panel_new:
 * @session: the window's session
 *
 * Returns: (transfer floating): the panel, showing the capture's end
 */
GtkWidget *
sps_memory_panel_new (SpsSession *session)
{
  SpsMemoryPanel *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_MEMORY_PANEL, NULL);
  self->session = g_object_ref (session);
  self->trace = g_object_ref (sps_session_get_trace (session));
  self->origin = sps_trace_get_start_time (self->trace);

  g_signal_connect_object (session, "notify::selected-slice", G_CALLBACK (update_sensitivity), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::has-range", G_CALLBACK (update_sensitivity), self,
                           G_CONNECT_SWAPPED);
  update_sensitivity (self);

  setup_processes (self);
  self->time = G_MININT64;
  sps_memory_panel_set_time (self, sps_trace_get_end_time (self->trace));

  return GTK_WIDGET (self);
}

/**
 * sps_memory_panel_get_tree:
 * @self: a #SpsMemoryPanel
 *
 * Returns: (transfer none) (nullable): the model shown, %NULL before the
 *   first build ends
 */
SpsOutstandingTree *
sps_memory_panel_get_tree (SpsMemoryPanel *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_PANEL (self), NULL);

  return self->tree;
}

gboolean
sps_memory_panel_get_building (SpsMemoryPanel *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_PANEL (self), FALSE);

  return self->cancellable != NULL;
}

SpsTime
sps_memory_panel_get_time (SpsMemoryPanel *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_PANEL (self), 0);

  return self->time;
}

/**
 * sps_memory_panel_set_time:
 * @self: a #SpsMemoryPanel
 * @time: the moment to show (trace time, not from the start)
 */
void
sps_memory_panel_set_time (SpsMemoryPanel *self,
                           SpsTime         time)
{
  g_return_if_fail (SPS_IS_MEMORY_PANEL (self));

  set_entry_time (self->time_entry, time, self->origin);
  if (self->time == time)
    return;
  self->time = time;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
  rebuild (self);
}

/**
 * sps_memory_panel_set_birth_range:
 * @self: a #SpsMemoryPanel
 * @start: only allocations born at or after this (%SPS_TIME_MIN: no bound)
 * @end: only allocations born before this (%SPS_TIME_MAX: no bound)
 */
void
sps_memory_panel_set_birth_range (SpsMemoryPanel *self,
                                  SpsTime         start,
                                  SpsTime         end)
{
  g_return_if_fail (SPS_IS_MEMORY_PANEL (self));

  if (start == SPS_TIME_MIN)
    gtk_editable_set_text (GTK_EDITABLE (self->birth_start_entry), "");
  else
    set_entry_time (self->birth_start_entry, start, self->origin);
  if (end == SPS_TIME_MAX)
    gtk_editable_set_text (GTK_EDITABLE (self->birth_end_entry), "");
  else
    set_entry_time (self->birth_end_entry, end, self->origin);

  if (self->birth_start == start && self->birth_end == end)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  if (self->birth_start != start)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BIRTH_START]);
  if (self->birth_end != end)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BIRTH_END]);
  self->birth_start = start;
  self->birth_end = end;
  g_object_thaw_notify (G_OBJECT (self));
  rebuild (self);
}

/**
 * sps_memory_panel_get_process:
 * @self: a #SpsMemoryPanel
 *
 * Returns: the process whose allocations are shown, %SPS_NO_INDEX when
 *   all are (the capture's allocations are all of one process, or none)
 */
guint32
sps_memory_panel_get_process (SpsMemoryPanel *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_PANEL (self), SPS_NO_INDEX);

  return self->process;
}

/**
 * sps_memory_panel_set_process:
 * @self: a #SpsMemoryPanel
 * @process: one of the processes the picker offers, or %SPS_NO_INDEX for
 *   all of them
 */
void
sps_memory_panel_set_process (SpsMemoryPanel *self,
                              guint32         process)
{
  g_return_if_fail (SPS_IS_MEMORY_PANEL (self));

  if (self->process == process)
    return;
  self->process = process;
  for (guint i = 0; self->process_rows != NULL && i < self->process_rows->len; i++)
    if (g_array_index (self->process_rows, guint32, i) == process &&
        gtk_drop_down_get_selected (self->process_dropdown) != i)
      gtk_drop_down_set_selected (self->process_dropdown, i);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
  rebuild (self);
}
