/* test-ui-stack-chart.c: the stack chart of samples in the timeline, under
 * a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-palette-private.h"
#include "sps-timeline-private.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  800
#define HEIGHT 400

/* One thread sampled every µs: A>B at 0 and 1 µs, A at 2 and 3 µs. So B
 * is the box [0, 2 µs) at depth 1, and nothing is at depth 1 after it. */
static SpsTrace *
make_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);
  guint32 a_name = sps_trace_builder_intern (b, "A", -1);
  guint32 b_name = sps_trace_builder_intern (b, "B", -1);
  guint32 a = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, sps_trace_builder_intern_frame (b, a_name, 0, 0, 1));
  guint32 ab = sps_trace_builder_intern_callsite (b, a, sps_trace_builder_intern_frame (b, b_name, 0, 0, 2));
  const guint32 stacks[] = { ab, ab, a, a };
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    sps_trace_builder_add_sample (b, thread, 1000 * i, stacks[i] == ab ? b_name : a_name, stacks[i], 0,
                                  NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* B's box is drawn in B's colour where it is, by the time scale, and
 * its row is empty after it; the tooltip there names it. */
static void
test_box_pixels (void)
{
  g_autoptr(SpsTrace) trace = make_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *timeline = sps_timeline_new (session);
  int gutter;
  double px_per_ns;
  int x_in, x_after, y = -1;

  gtk_window_set_child (GTK_WINDOW (window), timeline);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_present (GTK_WINDOW (window));
  sps_session_set_visible (session, 0, 3000);
  gtk_test_widget_wait_for_draw (window);

  /* B spans [0, 2000) ns of 3000 across the tracks: pixels from the
   * gutter to 2/3 of the way; 2 800 ns is after it. */
  gutter = sps_timeline_get_gutter_width (SPS_TIMELINE (timeline));
  px_per_ns = (double) (WIDTH - gutter) / 3000.0;
  x_in = gutter + (int) (1500 * px_per_ns);
  x_after = gutter + (int) (2800 * px_per_ns);

  /* B's row: the one whose tooltip at x_in is B's box */
  for (int row_y = 0; row_y < HEIGHT && y < 0; row_y++)
    {
      g_autofree char *markup = _sps_timeline_dup_tooltip_markup (SPS_TIMELINE (timeline), x_in, row_y);

      if (markup != NULL && g_str_has_prefix (markup, "<b>B</b>\n2 samples over "))
        y = row_y + 8;  /* into the row, clear of its top edge */
    }
  g_assert_cmpint (y, >=, 0);

  gtk_widget_queue_draw (timeline);
  gtk_test_widget_wait_for_draw (window);
  texture = sps_test_render (timeline, WIDTH, HEIGHT);
  g_assert_cmphex (sps_test_pixel_at (texture, x_in, y) & 0xffffff, ==,
                   sps_test_rgb_of (_sps_palette_color_for_name ("B", FALSE)));
  g_assert_cmphex (sps_test_pixel_at (texture, x_after, y) & 0xffffff, !=,
                   sps_test_rgb_of (_sps_palette_color_for_name ("B", FALSE)));
  /* A, the row above, goes on past B */
  g_assert_cmphex (sps_test_pixel_at (texture, x_after, y - 20) & 0xffffff, ==,
                   sps_test_rgb_of (_sps_palette_color_for_name ("A", FALSE)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pixels of the gutter beside @row that differ from its background (the
 * pixel at its left edge): the label's text */
static guint
gutter_ink (GdkTexture           *texture,
            GtkWidget            *timeline,
            const SpsTimelineRow *row)
{
  int top = SPS_TIMELINE (timeline)->ruler_height + row->y;
  int gutter = sps_timeline_get_gutter_width (SPS_TIMELINE (timeline));
  int width = gdk_texture_get_width (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * gdk_texture_get_height (texture));
  guint32 background;
  guint n = 0;

  gdk_texture_download (texture, (guchar *) pixels, width * sizeof (guint32));
  background = pixels[(gsize) (top + row->height / 2) * width + 1];
  for (int y = top + 1; y < top + row->height - 1; y++)
    for (int x = 1; x < gutter - 4; x++)
      n += pixels[(gsize) y * width + x] != background;
  return n;
}

/* The chart's first lane is labelled in the gutter (“Stack” and the
 * thread), its deeper lanes are not */
static void
test_gutter_label (void)
{
  g_autoptr(SpsTrace) trace = make_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *timeline = sps_timeline_new (session);
  SpsTimelineLayout *layout;
  const SpsTimelineRow *lane0 = NULL, *lane1 = NULL;

  gtk_window_set_child (GTK_WINDOW (window), timeline);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (window);

  layout = _sps_timeline_get_layout (SPS_TIMELINE (timeline));
  for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);

      if (row->kind == SPS_TIMELINE_ROW_STACK && row->depth == 0)
        lane0 = row;
      else if (row->kind == SPS_TIMELINE_ROW_STACK && row->depth == 1)
        lane1 = row;
    }
  g_assert_nonnull (lane0);
  g_assert_nonnull (lane1);

  texture = sps_test_save_screenshot (window, g_test_get_filename (G_TEST_BUILT, "ui-stack-chart-gutter.png", NULL));
  g_assert_cmpuint (gutter_ink (texture, timeline, lane0), >, 0);
  g_assert_cmpuint (gutter_ink (texture, timeline, lane1), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/stack-chart/box-pixels", test_box_pixels);
  g_test_add_func ("/ui/stack-chart/gutter-label", test_gutter_label);

  return g_test_run ();
}
