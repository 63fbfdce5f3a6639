/* test-ui-nettrace.c: the flame graph's raw/repaired switch on a .nettrace
 * whose cut stacks were repaired
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-nettrace"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "nettrace-gen/nettrace-writer.h"

#include "sps-test-ui.h"

#define SYNC_QPC  G_GINT64_CONSTANT (123456789000)
#define FREQUENCY G_GINT64_CONSTANT (10000000)

static void
wait_until_built (GtkWidget *window,
                  GtkWidget *panel)
{
  gboolean building = TRUE;

  for (guint i = 0; i < 10000 && building; i++)
    {
      g_object_get (panel, "building", &building, NULL);
      if (building)
        g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (building);
  gtk_test_widget_wait_for_draw (window);
}

static void
count_notify (guint *count)
{
  (*count)++;
}

static gboolean
set_done (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A search entry reports its text again when its typing delay (150 ms)
 * ends after Enter; the same text must not build the graph again */
static void
assert_no_rebuild_after_delay (GtkWidget *panel)
{
  guint notified = 0;
  gboolean done = FALSE;
  gulong handler = g_signal_connect_swapped (panel, "notify::building", G_CALLBACK (count_notify), &notified);

  g_timeout_add (400, set_done, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (panel, handler);
  g_assert_cmpuint (notified, ==, 0);
}

/* Saves the window's content and returns it */
static GdkTexture *
save_screenshot (GtkWidget  *window,
                 const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);

  return sps_test_save_screenshot (gtk_window_get_child (GTK_WINDOW (window)), path);
}

/* One thread, 40 samples 1 ms apart: a 60-frame stack, then ten samples
 * 130 frames deep (cut to 100 in the file, repaired from the first), then
 * back to 60 frames. Frames are Main, Step001 … Step129. */
static char *
write_trace (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-ui-nettrace-XXXXXX", NULL);
  char *path = g_build_filename (dir, "deep.nettrace", NULL);
  guint64 ips[130];

  for (guint m = 0; m < 130; m++)
    {
      g_autofree char *name = g_strdup_printf (m == 0 ? "Main" : "Step%03u", m);

      nt_writer_add_method (w, G_GUINT64_CONSTANT (0x7ff700000000) + m * 0x100, 0x80, 0x42,
                            m == 0 ? "Program" : "Deep.Chain", name, "void  ()", FALSE);
    }
  nt_writer_add_module (w, 0x42, "/app/Deep.dll");

  for (guint k = 0; k < 40; k++)
    {
      guint depth = k >= 10 && k < 20 ? 130 : 60;

      /* Leaf first */
      for (guint i = 0; i < depth; i++)
        ips[i] = G_GUINT64_CONSTANT (0x7ff700000000) + (depth - 1 - i) * 0x100 + 0x10;
      nt_writer_sample (w, 77, SYNC_QPC + FREQUENCY + k * (FREQUENCY / 1000), ips, depth, 2);
    }
  bytes = nt_writer_finish (w, SYNC_QPC + 2 * FREQUENCY, TRUE);
  nt_writer_free (w);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));

  return path;
}

static void
test_raw_switch (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(GPtrArray) views = NULL;
  SpsView *view = NULL;
  GtkWidget *window;
  GtkWidget *panel;
  GtkWidget *toggle;
  GtkWidget *status;
  GtkWidget *chart;
  GtkWidget *first_span;
  GtkWidget *span_filter;
  g_autoptr(GdkTexture) repaired_shot = NULL;
  g_autoptr(GdkTexture) raw_shot = NULL;
  graphene_point_t top;
  int y;

  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  /* Ten samples repaired; none lost */
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 40);
  g_assert_cmpuint (sps_trace_get_raw_samples (trace)->n_rows, ==, 40);
  session = sps_session_new (trace);

  views = sps_plugin_engine_create_extensions (sps_plugin_engine_get_default (), SPS_TYPE_VIEW);
  for (guint i = 0; i < views->len; i++)
    if (g_str_equal (sps_view_get_title (g_ptr_array_index (views, i)), "Flame Graph"))
      view = g_ptr_array_index (views, i);
  if (view == NULL)
    {
      g_test_skip ("the flame graph view plugin is not built");
      return;
    }

  window = gtk_window_new ();
  panel = sps_view_create_panel (view, session);
  gtk_window_set_child (GTK_WINDOW (window), panel);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 420);
  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_present (GTK_WINDOW (window));
  wait_until_built (window, panel);

  toggle = sps_test_find_named (panel, "flame-raw-stacks");
  status = sps_test_find_named (panel, "flame-status");
  g_assert_nonnull (toggle);
  g_assert_nonnull (status);
  g_assert_true (gtk_widget_get_visible (toggle));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "40 samples"));
  repaired_shot = save_screenshot (window, "nettrace-flame-repaired.png");

  /* Raw: the ten cut stacks root at Step030, apart from Main's tree */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  wait_until_built (window, panel);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "40 samples"));
  raw_shot = save_screenshot (window, "nettrace-flame-raw.png");

  /* The row under "all", right of the labels: one box (Main) across the
   * width when repaired, two (Step030 for the 10 cut samples, a quarter of
   * the width, Main for 30) when raw. The chart draws 20-pixel rows; the
   * middle of the second one is 30 below its top. */
  chart = sps_test_find_named (panel, "flame-chart");
  g_assert_nonnull (chart);
  g_assert_true (gtk_widget_compute_point (chart, gtk_window_get_child (GTK_WINDOW (window)),
                                           &GRAPHENE_POINT_INIT (0, 0), &top));
  y = (int) top.y + 30;
  g_assert_cmphex (sps_test_pixel_at (repaired_shot, 230, y), ==, sps_test_pixel_at (repaired_shot, 900, y));
  g_assert_cmphex (sps_test_pixel_at (raw_shot, 230, y), !=, sps_test_pixel_at (raw_shot, 900, y));

  /* The span filters on the repaired stacks: only the ten deep samples
   * have Step100; from there on 30 frames deep */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  first_span = sps_test_find_named (panel, "flame-first-span");
  span_filter = sps_test_find_named (panel, "flame-span-filter");
  g_assert_nonnull (first_span);
  g_assert_nonnull (span_filter);
  g_assert_true (gtk_widget_get_visible (first_span));
  g_assert_true (gtk_widget_get_visible (span_filter));
  gtk_editable_set_text (GTK_EDITABLE (first_span), "deep.chain.step100()");
  g_signal_emit_by_name (first_span, "activate");
  wait_until_built (window, panel);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "10 samples"));
  assert_no_rebuild_after_delay (panel);
  g_clear_object (&repaired_shot);
  repaired_shot = save_screenshot (window, "nettrace-flame-first-span.png");

  /* And only the frames named Step12?: 10 samples still */
  gtk_editable_set_text (GTK_EDITABLE (span_filter), "*Step12?()");
  g_signal_emit_by_name (span_filter, "activate");
  wait_until_built (window, panel);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (status)), "10 samples"));
  assert_no_rebuild_after_delay (panel);
  g_clear_object (&raw_shot);
  raw_shot = save_screenshot (window, "nettrace-flame-span-filter.png");

  /* Rows 11 and 15 under "all": two different frames with first-span
   * alone (30 deep), background in both with the filter (10 deep) */
  g_assert_cmphex (sps_test_pixel_at (repaired_shot, 900, y + 200), !=, sps_test_pixel_at (repaired_shot, 900, y + 280));
  g_assert_cmphex (sps_test_pixel_at (raw_shot, 900, y + 200), ==, sps_test_pixel_at (raw_shot, 900, y + 280));

  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/nettrace/flame-raw-switch", test_raw_switch);

  return g_test_run ();
}
