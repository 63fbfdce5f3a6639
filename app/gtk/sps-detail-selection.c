/* sps-detail-selection.c: the detail panel's page for a selected event,
 * instant, sample or stack chart box
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-detail-panel"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sps-detail-columns-private.h"
#include "sps-detail-selection-private.h"
#include "sps-stack-text-private.h"
#include <spanscope-core.h>
#include "sps-time-math-private.h"
#include "sps-timeline-stacks-private.h"

/*
 * A slice has its own page (summary, call stack, children, args); the
 * other items a click selects have fewer fields, which differ per kind,
 * so this page lists them as key/value rows made for each item, with the
 * args beside them for instants and events. Value labels are named
 * "item-KEY-value" for the tests.
 */

/**
 * _sps_detail_dup_thread_text:
 * @trace: a trace
 * @thread: a thread index
 *
 * Returns: (transfer full): "Name (tid 42)", or "Thread 42" for a thread
 *   without a name
 */
char *
_sps_detail_dup_thread_text (SpsTrace *trace,
                             guint32   thread)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const char *name;
  g_autofree char *tid = NULL;

  g_return_val_if_fail (thread < threads->n_rows, NULL);

  name = sps_trace_get_string (trace, threads->name[thread]);
  tid = g_strdup_printf ("%" G_GINT64_FORMAT, threads->tid[thread]);
  if (name != NULL && *name != '\0')
    /* TRANSLATORS: a thread's name and its id, e.g. "Main (tid 42)" */
    return g_strdup_printf (_("%s (tid %s)"), name, tid);

  /* TRANSLATORS: a thread without a name, by its id */
  return g_strdup_printf (_("Thread %s"), tid);
}

/**
 * _sps_detail_dup_process_text:
 * @trace: a trace
 * @process: a process index, or %SPS_NO_INDEX
 *
 * Returns: (transfer full): "Name (pid 7)", "Process 7" for a process
 *   without a name, or "—" for none
 */
char *
_sps_detail_dup_process_text (SpsTrace *trace,
                              guint32   process)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const char *name;
  g_autofree char *pid = NULL;

  if (process >= processes->n_rows)
    return g_strdup ("—");

  name = sps_trace_get_string (trace, processes->name[process]);
  pid = g_strdup_printf ("%" G_GINT64_FORMAT, processes->pid[process]);
  if (name != NULL && *name != '\0')
    /* TRANSLATORS: a process's name and its id, e.g. "Browser (pid 7)" */
    return g_strdup_printf (_("%s (pid %s)"), name, pid);

  /* TRANSLATORS: a process without a name, by its id */
  return g_strdup_printf (_("Process %s"), pid);
}

static void
add_field (SpsDetailSelection *page,
           const char         *key,
           const char         *id,
           const char         *value)
{
  g_autofree char *name = g_strdup_printf ("item-%s-value", id);

  gtk_label_set_text (_sps_detail_field_new (page->fields, page->n_fields++, key, name, NULL), value);
}

static void
add_time_field (SpsDetailSelection *page,
                SpsTrace           *trace,
                const char         *key,
                const char         *id,
                SpsTime             time)
{
  g_autofree char *text = sps_time_format (_sps_time_sub (time, sps_trace_get_start_time (trace)));

  add_field (page, key, id, text);
}

/* The thread and process of @track */
static void
add_owner_fields (SpsDetailSelection *page,
                  SpsTrace           *trace,
                  guint32             track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  g_autofree char *process = NULL;

  if (track >= tracks->n_rows)
    return;

  if (tracks->thread[track] != SPS_NO_INDEX)
    {
      g_autofree char *thread = _sps_detail_dup_thread_text (trace, tracks->thread[track]);

      add_field (page, _("Thread"), "thread", thread);
    }
  process = _sps_detail_dup_process_text (trace, tracks->process[track]);
  add_field (page, _("Process"), "process", process);
}

static void
add_number_field (SpsDetailSelection *page,
                  const char         *key,
                  const char         *id,
                  guint               value)
{
  g_autofree char *text = g_strdup_printf ("%u", value);

  add_field (page, key, id, text);
}

static const char *
string_or_dash (SpsTrace *trace,
                guint32   id)
{
  const char *s = sps_trace_get_string (trace, id);

  return s != NULL && *s != '\0' ? s : "—";
}

static void
show_instant (SpsDetailSelection *page,
              SpsTrace           *trace,
              guint               instant)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  gboolean event = instants->kind[instant] == SPS_INSTANT_KIND_EVENT;

  gtk_label_set_text (page->name, string_or_dash (trace, instants->name[instant]));
  /* Translators: what kind of item the detail panel shows */
  gtk_label_set_text (page->kind, event ? _("Event") : _("Instant"));

  if (event)
    {
      SpsEventDescriptor d = instants->event[instant];

      /* Translators: the ETW or EventPipe provider of an event */
      add_field (page, _("Provider"), "provider", string_or_dash (trace, instants->category[instant]));
      /* Translators: an event's id, version and opcode as the provider defines them */
      add_number_field (page, _("Event ID"), "id", SPS_EVENT_DESCRIPTOR_ID (d));
      add_number_field (page, _("Version"), "version", SPS_EVENT_DESCRIPTOR_VERSION (d));
      add_number_field (page, _("Opcode"), "opcode", SPS_EVENT_DESCRIPTOR_OPCODE (d));
    }
  else
    add_field (page, _("Category"), "category", string_or_dash (trace, instants->category[instant]));

  add_time_field (page, trace, _("Time"), "time", instants->ts[instant]);
  add_owner_fields (page, trace, instants->track[instant]);

  _sps_detail_args_show (&page->args, trace, instants->args[instant]);
  gtk_widget_set_visible (page->args_page, TRUE);
}

static void
show_stack_field (SpsDetailSelection *page,
                  SpsTrace           *trace,
                  const char         *key,
                  guint32             callsite)
{
  g_autofree char *text = NULL;

  if (callsite != SPS_NO_INDEX && (text = _sps_stack_text_dup (trace, callsite)) != NULL)
    add_field (page, key, "stack", text);
}

static void
show_sample (SpsDetailSelection *page,
             SpsTrace           *trace,
             guint               sample)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  double cpu;

  gtk_label_set_text (page->name, string_or_dash (trace, samples->name[sample]));
  gtk_label_set_text (page->kind, _("Sample"));
  add_time_field (page, trace, _("Time"), "time", samples->ts[sample]);
  if (_sps_timeline_stacks_estimate_cpu (samples, sample, 1, &cpu) > 0)
    {
      g_autofree char *text = sps_time_format ((SpsTime) MIN (cpu, 9e18));

      add_field (page, _("Estimated CPU"), "cpu", text);
    }
  add_owner_fields (page, trace, samples->track[sample]);
  /* Translators: a sample's call stack, leaf first */
  show_stack_field (page, trace, _("Stack"), samples->callsite[sample]);
}

static void
show_box (SpsDetailSelection *page,
          SpsTrace           *trace,
          const SpsSelection *box)
{
  const SpsSampleTable *samples = box->raw ? sps_trace_get_raw_samples (trace) : sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  guint32 frame = callsites->frame[box->callsite];
  double cpu;

  gtk_label_set_text (page->name, frame < frames->n_rows ? string_or_dash (trace, frames->name[frame]) : "—");
  /* Translators: a box of a stack chart: one frame over consecutive samples */
  gtk_label_set_text (page->kind, _("Stack chart frame"));
  /* Translators: the module (library, assembly) a frame's code is in */
  add_field (page, _("Module"), "module", frame < frames->n_rows ? string_or_dash (trace, frames->module[frame]) : "—");
  add_number_field (page, _("Samples"), "samples", box->n_samples);
  if (_sps_timeline_stacks_estimate_cpu (samples, box->first_sample, box->n_samples, &cpu) > 0)
    {
      g_autofree char *text = sps_time_format ((SpsTime) MIN (cpu, 9e18));

      add_field (page, _("Estimated CPU"), "cpu", text);
    }
  /* Translators: when the first and last samples of a stack chart box were taken */
  add_time_field (page, trace, _("First sample"), "first", samples->ts[box->first_sample]);
  add_time_field (page, trace, _("Last sample"), "last", samples->ts[box->first_sample + box->n_samples - 1]);
  {
    g_autofree char *span = sps_time_format (_sps_time_sub (box->end, box->start));

    /* Translators: how long a stack chart box lasts */
    add_field (page, _("Span"), "span", span);
  }
  add_owner_fields (page, trace, box->track);
  /* Translators: the frames from the box's frame up to the root */
  show_stack_field (page, trace, _("Called from"), box->callsite);
}

/**
 * _sps_detail_selection_show:
 * @page: the page
 * @trace: the trace
 * @selection: an instant, event, sample or box (not a slice: it has its
 *   own page)
 *
 * Fills the page in for @selection.
 */
void
_sps_detail_selection_show (SpsDetailSelection *page,
                            SpsTrace           *trace,
                            const SpsSelection *selection)
{
  GtkWidget *child;

  g_return_if_fail (page != NULL);
  g_return_if_fail (SPS_IS_TRACE (trace));
  g_return_if_fail (selection != NULL);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (page->fields))) != NULL)
    gtk_grid_remove (page->fields, child);
  page->n_fields = 0;
  gtk_widget_set_visible (page->args_page, FALSE);
  _sps_detail_set_model (page->args.view, NULL);

  switch (selection->kind)
    {
    case SPS_SELECTION_INSTANT:
      show_instant (page, trace, selection->index);
      break;
    case SPS_SELECTION_SAMPLE:
      show_sample (page, trace, selection->index);
      break;
    case SPS_SELECTION_STACK_BOX:
      show_box (page, trace, selection);
      break;
    case SPS_SELECTION_NONE:
    case SPS_SELECTION_SLICE:
    default:
      break;
    }
}

/**
 * _sps_detail_selection_page_new:
 * @page: (out caller-allocates): the page's widgets
 *
 * Returns: (transfer floating): the page: a heading with the item's name
 *   and kind, its fields, and its args beside them
 */
GtkWidget *
_sps_detail_selection_page_new (SpsDetailSelection *page)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *summary = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *kind = gtk_label_new (NULL);
  GtkWidget *fields = gtk_grid_new ();

  memset (page, 0, sizeof *page);

  gtk_widget_set_name (name, "item-name-value");
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (name), 0.0f);
  gtk_label_set_selectable (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_name (kind, "item-kind-value");
  gtk_widget_add_css_class (kind, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (kind), 0.0f);
  gtk_widget_set_margin_bottom (kind, 4);

  gtk_grid_set_row_spacing (GTK_GRID (fields), 6);
  gtk_grid_set_column_spacing (GTK_GRID (fields), 12);

  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), kind);
  gtk_box_append (GTK_BOX (box), fields);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (summary), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (summary), box);
  /* As the slice page's summary: a fixed width, the args take the rest */
  gtk_widget_set_size_request (summary, 360, -1);
  gtk_widget_set_hexpand (summary, FALSE);

  page->name = GTK_LABEL (name);
  page->kind = GTK_LABEL (kind);
  page->fields = GTK_GRID (fields);
  page->args_page = _sps_detail_args_page_new (&page->args, "item-arguments-view", "item-arguments-message");
  gtk_widget_set_hexpand (page->args_page, TRUE);

  gtk_box_append (GTK_BOX (content), summary);
  gtk_box_append (GTK_BOX (content), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (content), page->args_page);

  return content;
}
