/* threadcounts-view.c: a view plugin, a panel that counts slices per thread
 *
 * The panel lists every thread of the trace with how many slices it has
 * (measured ones, on its slice track), most first; a click on a thread
 * selects its longest slice, which the timeline and the other panels
 * follow. Row i's labels are named "thread-TID" and "count-TID".
 *
 * What it shows of the plugin API: a view (SpsView) registered from a
 * module with a dynamic type, a panel built for one window's SpsSession,
 * reading the trace's tables, and driving the session.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <libpeas/peas.h>
#include <spanscope-gtk.h>

#define EXAMPLE_TYPE_THREAD_COUNTS_VIEW (example_thread_counts_view_get_type ())
G_DECLARE_FINAL_TYPE (ExampleThreadCountsView, example_thread_counts_view, EXAMPLE, THREAD_COUNTS_VIEW, GObject)

struct _ExampleThreadCountsView
{
  GObject parent_instance;
};

static void example_thread_counts_view_iface_init (SpsViewInterface *iface);

/* Dynamic: the type belongs to the module libpeas loads */
G_DEFINE_DYNAMIC_TYPE_EXTENDED (ExampleThreadCountsView, example_thread_counts_view, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_VIEW,
                                                               example_thread_counts_view_iface_init))

typedef struct
{
  guint thread;
  guint n_slices;
  guint longest;      /* slice index, SPS_NO_INDEX when none */
} ThreadCount;

static int
compare_counts (gconstpointer a,
                gconstpointer b)
{
  const ThreadCount *ca = a;
  const ThreadCount *cb = b;

  if (ca->n_slices != cb->n_slices)
    return ca->n_slices > cb->n_slices ? -1 : 1;
  return ca->thread < cb->thread ? -1 : ca->thread > cb->thread;
}

/* One entry per thread: its measured slices and the longest of them */
static GArray *
count_slices (SpsTrace *trace)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  GArray *counts = g_array_sized_new (FALSE, TRUE, sizeof (ThreadCount), threads->n_rows);

  for (guint t = 0; t < threads->n_rows; t++)
    {
      ThreadCount c = { t, 0, SPS_NO_INDEX };

      g_array_append_val (counts, c);
    }

  /* A track's slices are the rows [first_row, first_row + n_rows_in_track) */
  for (guint k = 0; k < tracks->n_rows; k++)
    {
      ThreadCount *c;

      if (tracks->kind[k] != SPS_TRACK_THREAD_SLICES || tracks->thread[k] == SPS_NO_INDEX)
        continue;

      c = &g_array_index (counts, ThreadCount, tracks->thread[k]);
      for (guint i = tracks->first_row[k]; i < tracks->first_row[k] + tracks->n_rows_in_track[k]; i++)
        {
          c->n_slices++;
          if (c->longest == SPS_NO_INDEX || slices->dur[i] > slices->dur[c->longest])
            c->longest = i;
        }
    }

  g_array_sort (counts, compare_counts);

  return counts;
}

static void
on_row_activated (GtkListBox    *list,
                  GtkListBoxRow *row,
                  SpsSession    *session)
{
  guint longest = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "longest"));

  if (longest != SPS_NO_INDEX)
    sps_session_set_selected_slice (session, longest);
}

static GtkWidget *
example_thread_counts_view_create_panel (SpsView    *view,
                                         SpsSession *session)
{
  SpsTrace *trace = sps_session_get_trace (session);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autoptr(GArray) counts = count_slices (trace);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *list = gtk_list_box_new ();

  for (guint i = 0; i < counts->len; i++)
    {
      const ThreadCount *c = &g_array_index (counts, ThreadCount, i);
      gint64 tid = threads->tid[c->thread];
      const char *name = sps_trace_get_string (trace, threads->name[c->thread]);
      g_autofree char *title = g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", name[0] != '\0' ? name : "thread", tid);
      /* A real plugin translates this with its own gettext domain */
      g_autofree char *count = g_strdup_printf (c->n_slices == 1 ? "%u slice" : "%u slices", c->n_slices);
      g_autofree char *title_name = g_strdup_printf ("thread-%" G_GINT64_FORMAT, tid);
      g_autofree char *count_name = g_strdup_printf ("count-%" G_GINT64_FORMAT, tid);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (title);

      gtk_widget_set_name (label, title_name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), label);

      label = gtk_label_new (count);
      gtk_widget_set_name (label, count_name);
      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (GTK_BOX (box), label);

      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data (G_OBJECT (row), "longest", GUINT_TO_POINTER (c->longest));
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }

  /* The session outlives the panel: the handler goes with the list */
  g_signal_connect_object (list, "row-activated", G_CALLBACK (on_row_activated), session, 0);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_widget_set_name (scrolled, "thread-counts");

  return scrolled;
}

static const char *
example_thread_counts_view_get_title (SpsView *view)
{
  /* A real plugin translates this with its own gettext domain */
  return "Thread slices";
}

static const char *
example_thread_counts_view_get_icon_name (SpsView *view)
{
  return "view-list-symbolic";
}

static SpsViewArea
example_thread_counts_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_SIDE;
}

static void
example_thread_counts_view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = example_thread_counts_view_get_title;
  iface->get_icon_name = example_thread_counts_view_get_icon_name;
  iface->get_area = example_thread_counts_view_get_area;
  iface->create_panel = example_thread_counts_view_create_panel;
}

static void
example_thread_counts_view_class_init (ExampleThreadCountsViewClass *klass)
{
}

static void
example_thread_counts_view_class_finalize (ExampleThreadCountsViewClass *klass)
{
}

static void
example_thread_counts_view_init (ExampleThreadCountsView *self)
{
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  example_thread_counts_view_register_type (G_TYPE_MODULE (module));
  peas_object_module_register_extension_type (module, SPS_TYPE_VIEW, EXAMPLE_TYPE_THREAD_COUNTS_VIEW);
}
