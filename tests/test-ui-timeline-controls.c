/* test-ui-timeline-controls.c: what the timeline shows of the session's
 * controls (search hits), its counters' axes, under a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-palette-private.h"
#include "sps-timeline-private.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  800
#define HEIGHT 400

typedef struct
{
  SpsTrace    *trace;
  SpsSession  *session;
  GtkWidget   *window;
  GtkWidget   *timeline;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->trace = sps_test_load_fixture (data);
  fixture->session = sps_session_new (fixture->trace);
  fixture->window = sps_test_present_timeline (fixture->session, WIDTH, HEIGHT, &fixture->timeline);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&fixture->window)));
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
}

static GdkTexture *
render (Fixture *fixture)
{
  return sps_test_redraw (fixture->window, fixture->timeline, WIDTH, HEIGHT);
}

/* The four sides of @name's rectangle (sps_timeline_get_slice_area(), the
 * rectangle the slice painter fills) are @rgb, or none is */
static void
check_outline (Fixture    *fixture,
               GdkTexture *texture,
               const char *name,
               gboolean    outlined)
{
  graphene_rect_t area;
  guint32 rgb = sps_test_rgb_of (&SPS_TIMELINE (fixture->timeline)->style.accent);
  int x0, y0, x1, y1;
  int xm, ym;

  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (fixture->timeline),
                                              sps_test_find_slice (fixture->trace, name, 0), &area));
  x0 = (int) area.origin.x;
  y0 = (int) area.origin.y;
  x1 = (int) (area.origin.x + area.size.width) - 1;
  y1 = (int) (area.origin.y + area.size.height) - 1;
  /* Right of the middle: clear of the label */
  xm = (x0 + 3 * x1) / 4;
  ym = (y0 + y1) / 2;

#define CHECK(x, y) \
  if (outlined) \
    g_assert_cmphex (sps_test_pixel_at (texture, x, y) & 0xffffff, ==, rgb); \
  else \
    g_assert_cmphex (sps_test_pixel_at (texture, x, y) & 0xffffff, !=, rgb)
  CHECK (x0, ym);
  CHECK (x1, ym);
  CHECK (xm, y0);
  CHECK (xm, y1);
#undef CHECK
  /* Inside, the slice keeps its colour */
  g_assert_cmphex (sps_test_pixel_at (texture, xm, ym) & 0xffffff, !=, rgb);
}

/* The session's search text outlines its hits, and only them: “inner”
 * matches inner (chrome-phase-x.json, 110.5–130.75 µs), not outer or leaf
 * drawn in the same window; category mode matches leaf's “c2”. Clearing
 * the search clears the outlines. */
static void
test_search_outline (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) inner = NULL;
  g_autoptr(GdkTexture) category = NULL;
  g_autoptr(GdkTexture) cleared = NULL;

  sps_session_set_visible (fixture->session, 100000, 150000);
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);

  before = render (fixture);
  check_outline (fixture, before, "inner", FALSE);

  sps_session_set_search_text (fixture->session, "INNER");
  inner = render (fixture);
  check_outline (fixture, inner, "inner", TRUE);
  check_outline (fixture, inner, "outer", FALSE);
  check_outline (fixture, inner, "leaf", FALSE);

  sps_session_set_search_text (fixture->session, "c2");
  sps_session_set_search_in_category (fixture->session, TRUE);
  category = render (fixture);
  check_outline (fixture, category, "leaf", TRUE);
  check_outline (fixture, category, "inner", FALSE);
  sps_test_maybe_screenshot (fixture->window, "search-outline");

  sps_session_set_search_text (fixture->session, NULL);
  cleared = render (fixture);
  check_outline (fixture, cleared, "leaf", FALSE);
}

/* One process (pid 1) of one thread (tid 1) named @thread_name, with
 * one slice */
static SpsTrace *
named_thread_trace (const char *thread_name)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);
  SpsTrace *trace;

  sps_trace_builder_set_thread_name (b, thread, sps_trace_builder_intern (b, thread_name, -1));
  sps_test_add_complete (b, thread, 0, 1000, "work", "cat", NULL, SPS_SLICE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* The gutter takes the width of its longest label: narrower than the old
 * fixed 200 px for a short thread name, the 360 px limit for a very long
 * one; a width the user chose stays until the gutter fits again. */
static void
test_gutter_fits (void)
{
  const char *names[] = { "main", NULL };
  g_autofree char *long_name = g_strnfill (300, 'w');

  names[1] = long_name;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(SpsTrace) trace = named_thread_trace (names[i]);
      g_autoptr(SpsSession) session = sps_session_new (trace);
      GtkWidget *timeline = NULL;
      GtkWidget *window = sps_test_present_timeline (session, WIDTH, HEIGHT, &timeline);
      SpsTimeline *self = SPS_TIMELINE (timeline);
      int fitted = sps_timeline_get_gutter_width (self);

      g_test_message ("%s…: gutter %d px", names[i], fitted);
      g_assert_true (sps_timeline_get_gutter_auto (self));
      /* Whatever the font: what the labels need, measured again */
      g_assert_cmpint (fitted, ==, MAX (_sps_timeline_fit_gutter (self, 360), 80));
      if (i == 0)
        {
          g_assert_cmpint (fitted, <, 200);
          g_assert_cmpint (fitted, >=, 80);
        }
      else
        {
          g_assert_cmpint (fitted, ==, 360);
        }

      /* The user's width, then fitting again */
      sps_timeline_set_gutter_auto (self, FALSE);
      sps_timeline_set_gutter_width (self, 500);
      gtk_test_widget_wait_for_draw (window);
      g_assert_cmpint (sps_timeline_get_gutter_width (self), ==, 500);
      sps_timeline_set_gutter_auto (self, TRUE);
      gtk_test_widget_wait_for_draw (window);
      g_assert_cmpint (sps_timeline_get_gutter_width (self), ==, fitted);

      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* One thread of 1000 slices of 10 ns every 20 ns, 0 to 20 µs: the first
 * 500 named alpha, the others beta; one more slice on a second thread */
static SpsTrace *
dense_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);
  SpsTrace *trace;

  for (guint i = 0; i < 1000; i++)
    sps_test_add_complete (b, thread, i * 20, 10, i < 500 ? "alpha" : "beta", "cat", NULL, SPS_SLICE_NONE);
  /* On another thread at 30 µs, so that the window below fits the trace */
  sps_test_add_complete (b, sps_trace_builder_ensure_thread (b, process, 2), 30000, 10, "end", "cat", NULL,
                         SPS_SLICE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* Zoomed out so far that the 1000 slices merge into one run (40 ns a
 * pixel: 2 slices a pixel, gaps of half a pixel), the run is a mosaic of
 * its names in the merged colours, alpha's half then beta's, instead of
 * one bar of one colour; the tooltip counts what a pixel merges. */
static void
test_merged_mosaic (void)
{
  g_autoptr(SpsTrace) trace = dense_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *tooltip = NULL;
  GtkWidget *timeline = NULL;
  GtkWidget *window = sps_test_present_timeline (session, WIDTH, HEIGHT, &timeline);
  SpsTimeline *self = SPS_TIMELINE (timeline);
  guint alpha = _sps_palette_index_for_name ("alpha", -1);
  guint beta = _sps_palette_index_for_name ("beta", -1);
  graphene_rect_t area;
  int y;

  g_assert_cmpuint (alpha, !=, beta);
  sps_timeline_set_gutter_auto (self, FALSE);
  sps_timeline_set_gutter_width (self, 200);
  /* 600 px of tracks for 24 µs: 40 ns a pixel */
  sps_session_set_visible (session, 0, 24000);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, 24000);
  sps_session_set_selected_slice (session, SPS_NO_INDEX);
  gtk_widget_queue_draw (timeline);
  gtk_test_widget_wait_for_draw (window);
  texture = sps_test_render (timeline, WIDTH, HEIGHT);

  g_assert_true (sps_timeline_get_slice_area (self, sps_test_find_slice (trace, "alpha", 0), &area));
  y = (int) (area.origin.y + area.size.height / 2);
  /* 4 µs (alpha), 16 µs (beta), 22 µs (after the last slice) */
  g_assert_cmphex (sps_test_pixel_at (texture, 200 + 100, y) & 0xffffff, ==, sps_test_rgb_of (&self->style.merged[alpha]));
  g_assert_cmphex (sps_test_pixel_at (texture, 200 + 400, y) & 0xffffff, ==, sps_test_rgb_of (&self->style.merged[beta]));
  g_assert_cmphex (sps_test_pixel_at (texture, 200 + 550, y) & 0xffffff, !=, sps_test_rgb_of (&self->style.merged[beta]));

  /* The pixel of [4000, 4040) ns holds the slices at 4000 and 4020 */
  tooltip = _sps_timeline_dup_tooltip_markup (self, 200 + 100, y);
  g_assert_cmpstr (tooltip, ==, "<b>2 slices merged</b>\nMostly alpha here; zoom in to see each");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/ui/timeline-controls/search-outline", Fixture, "chrome-phase-x.json",
              fixture_set_up, test_search_outline, fixture_tear_down);

  g_test_add_func ("/ui/timeline-controls/gutter-fits", test_gutter_fits);
  g_test_add_func ("/ui/timeline-controls/merged-mosaic", test_merged_mosaic);

  return g_test_run ();
}
