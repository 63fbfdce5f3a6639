/* test-ui-timeline-pins.c: the pinned band, pinned threads of folded
 * processes, a collapsed process's representative lane and the ruler's
 * menu, checked on the pixels drawn, under a display
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
#define GUTTER 200
#define N_FILL 30

/* The index of the slice named @name */
#define SLICE(name) sps_test_find_slice (fixture->trace, (name), 0)

/*
 * process pid 1: thread tid 1 "main"    outer [0, 12000]
 *                                          mid [1000, 5000]
 *                                            leaf [1500, 2000]
 *                thread tid 2 "worker"  target [7000, 9000]
 * process pid 2: thread tid 3 "io"      r1 [2000, 4500]
 *                                          r1child [2100, 2500]
 *                                        r2 [6000, 8000]
 *                thread tid 4 "timer"   tick [3000, 4000]
 * process pid 3: threads tid 100 … 129, one slice each: fillK [100 K, 100 K + 5000]
 *
 * Flows from leaf (at 1800, 1850, 1900) to target (7000), r1child (2100) and tick
 * (3000). The view is 0–12000 ns over 600 px after a 200 px gutter:
 * 20 ns a pixel, time t at x = 200 + t / 20. Unpinned, the rows are
 * pid 1's header, main's three lanes, worker's, pid 2's header, io's two
 * lanes, timer's, pid 3's header and its 30 lanes: 3 headers and 37
 * lanes (812 px with 20 px lanes and 24 px headers), taller than the
 * view, which scrolls.
 */
typedef struct
{
  SpsTrace    *trace;
  SpsSession  *session;
  GtkWidget   *window;
  GtkWidget   *timeline;
  guint        thread_worker;
  guint        thread_io;
  guint        process_io;
  guint        fill_threads[N_FILL];
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 p1 = sps_trace_builder_ensure_process (b, 1);
  guint32 p2 = sps_trace_builder_ensure_process (b, 2);
  guint32 p3 = sps_trace_builder_ensure_process (b, 3);
  guint32 main_thread = sps_trace_builder_ensure_thread (b, p1, 1);
  guint32 worker = sps_trace_builder_ensure_thread (b, p1, 2);
  guint32 io = sps_trace_builder_ensure_thread (b, p2, 3);
  guint32 timer = sps_trace_builder_ensure_thread (b, p2, 4);
  guint32 fill[N_FILL];
  guint32 leaf, target, r1child, tick;
  const SpsTrackTable *tracks;
  const SpsSliceTable *slices;
  SpsTimeline *self;

  for (guint i = 0; i < N_FILL; i++)
    fill[i] = sps_trace_builder_ensure_thread (b, p3, 100 + i);
  sps_test_add_complete (b, main_thread, 0, 12000, "outer", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, main_thread, 1000, 4000, "mid", "cat", NULL, SPS_SLICE_NONE);
  leaf = sps_test_add_complete (b, main_thread, 1500, 500, "leaf", "cat", NULL, SPS_SLICE_NONE);
  target = sps_test_add_complete (b, worker, 7000, 2000, "target", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, io, 2000, 2500, "r1", "cat", NULL, SPS_SLICE_NONE);
  r1child = sps_test_add_complete (b, io, 2100, 400, "r1child", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, io, 6000, 2000, "r2", "cat", NULL, SPS_SLICE_NONE);
  tick = sps_test_add_complete (b, timer, 3000, 1000, "tick", "cat", NULL, SPS_SLICE_NONE);
  for (guint i = 0; i < N_FILL; i++)
    {
      g_autofree char *name = g_strdup_printf ("fill%u", i);

      sps_test_add_complete (b, fill[i], i * 100, 5000, name, "cat", NULL, SPS_SLICE_NONE);
    }
  sps_test_add_flow (b, 1, main_thread, 1800, leaf, worker, 7000, target);
  sps_test_add_flow (b, 2, main_thread, 1850, leaf, io, 2100, r1child);
  sps_test_add_flow (b, 3, main_thread, 1900, leaf, timer, 3000, tick);
  fixture->trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_flows (fixture->trace)->n_rows, ==, 3);

  tracks = sps_trace_get_tracks (fixture->trace);
  slices = sps_trace_get_slices (fixture->trace);
  fixture->thread_worker = tracks->thread[slices->track[sps_test_find_slice (fixture->trace, "target", 0)]];
  fixture->thread_io = tracks->thread[slices->track[sps_test_find_slice (fixture->trace, "r1", 0)]];
  fixture->process_io = tracks->process[slices->track[sps_test_find_slice (fixture->trace, "r1", 0)]];
  for (guint i = 0; i < N_FILL; i++)
    {
      g_autofree char *name = g_strdup_printf ("fill%u", i);

      fixture->fill_threads[i] = tracks->thread[slices->track[sps_test_find_slice (fixture->trace, name, 0)]];
    }

  fixture->session = sps_session_new (fixture->trace);
  fixture->window = sps_test_present_timeline (fixture->session, WIDTH, HEIGHT, &fixture->timeline);
  self = SPS_TIMELINE (fixture->timeline);
  sps_timeline_set_gutter_auto (self, FALSE);
  sps_timeline_set_gutter_width (self, GUTTER);
  sps_session_set_visible (fixture->session, 0, 12000);
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
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

static guint32
fill_of (Fixture    *fixture,
         const char *name)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);

  return sps_test_rgb_of (&self->style.fill[_sps_palette_index_for_name (name, -1)]);
}

/* The pixel three quarters across @area (right of its label), halfway down */
static guint32
pixel_in (GdkTexture            *texture,
          const graphene_rect_t *area)
{
  return sps_test_pixel_at (texture, (int) (area->origin.x + area->size.width * 3 / 4),
                            (int) (area->origin.y + area->size.height / 2)) & 0xffffff;
}

static guint32
pixel (GdkTexture *texture,
       int         x,
       int         y)
{
  return sps_test_pixel_at (texture, x, y) & 0xffffff;
}

/* What a click at (@x, @y) would select: a slice, or SPS_NO_INDEX */
static guint
hit (Fixture *fixture,
     double   x,
     double   y)
{
  SpsSelection selection;

  _sps_timeline_hit_item (SPS_TIMELINE (fixture->timeline), x, y, &selection);
  return selection.kind == SPS_SELECTION_SLICE ? selection.index : SPS_NO_INDEX;
}

/* Pinning worker puts its lane in a band right under the ruler (target's
 * rectangle from the ruler's bottom + 1, in its colour), with a 2 px
 * separator under it: main's outer moves down by a lane and the
 * separator. Scrolling the rows by 100 px leaves the band as it was
 * (target in place, in its colour) and moves outer out of sight. Hit
 * tests and tooltips find target in the band and r1child below it
 * (content y: the band's lane, pid 1's header, main's three lanes, pid
 * 2's header, io's first lane: r1child's lane starts at 5 lanes and 2
 * headers, at widget y tracks top + that - the pinned lane - 100); the
 * gutter labels the
 * pinned lane; with leaf selected, the flow into target ends at target's
 * start (x = 550) in the band, its arrow head in the accent colour; a
 * search for "target" outlines it in the band. */
static void
test_band (Fixture       *fixture,
           gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture->timeline));
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) pinned = NULL;
  g_autoptr(GdkTexture) scrolled = NULL;
  g_autoptr(GdkTexture) flows = NULL;
  g_autoptr(GdkTexture) search = NULL;
  graphene_rect_t outer, target, outer_pinned, target_pinned, target_scrolled;
  g_autofree char *tooltip = NULL;
  int ruler = self->ruler_height;
  int lane = self->lane_height;
  int header = self->header_height;
  int tracks_top = ruler + lane + SPS_TIMELINE_PIN_SEPARATOR;
  guint32 separator;
  guint n_label = 0;

  before = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("outer"), &outer));
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("target"), &target));

  sps_session_set_thread_pinned (fixture->session, fixture->thread_worker, TRUE);
  pinned = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-band");
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("target"), &target_pinned));
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("outer"), &outer_pinned));
  g_assert_cmpfloat (target_pinned.origin.y, ==, ruler + 1);
  g_assert_cmpfloat (target_pinned.origin.x, ==, 550);
  g_assert_cmpfloat (outer_pinned.origin.y, ==, outer.origin.y + lane + SPS_TIMELINE_PIN_SEPARATOR);
  g_assert_cmphex (pixel_in (pinned, &target_pinned), ==, fill_of (fixture, "target"));
  /* The separator, across the whole width */
  separator = pixel (pinned, GUTTER + 10, tracks_top - 1);
  g_assert_cmphex (separator, !=, pixel (pinned, GUTTER + 10, tracks_top + 2));
  g_assert_cmphex (pixel (pinned, GUTTER + 10, tracks_top - 2), ==, separator);
  g_assert_cmphex (pixel (pinned, 10, tracks_top - 2), ==, pixel (pinned, 10, tracks_top - 1));
  g_assert_cmphex (pixel (pinned, 10, tracks_top - 1), !=, sps_test_rgb_of (&self->style.panel));
  g_assert_cmphex (pixel (pinned, WIDTH - 10, tracks_top - 1), ==, separator);
  /* The pinned lane's label: text over the gutter's panel colour */
  for (int x = 0; x < GUTTER - 10; x++)
    for (int y = ruler + 2; y < ruler + lane - 2; y++)
      n_label += pixel (pinned, x, y) != sps_test_rgb_of (&self->style.panel);
  g_assert_cmpuint (n_label, >, 20);

  /* The rows scroll beneath the band */
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), ==, 3 * header + 37 * lane - lane);
  gtk_adjustment_set_value (vadjustment, 100);
  scrolled = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-band-scrolled");
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("target"), &target_scrolled));
  g_assert_cmpfloat (target_scrolled.origin.y, ==, target_pinned.origin.y);
  g_assert_cmphex (pixel_in (scrolled, &target_scrolled), ==, fill_of (fixture, "target"));
  g_assert_false (sps_timeline_get_slice_area (self, SLICE ("outer"), &outer));
  g_assert_cmphex (pixel (scrolled, WIDTH - 10, tracks_top - 1), ==, separator);

  /* Hit tests and tooltips in both areas */
  g_assert_cmpuint (hit (fixture, 600, ruler + lane / 2), ==, SLICE ("target"));
  g_assert_cmpuint (hit (fixture, 315, tracks_top + 5 * lane + 2 * header - lane - 100 + lane / 2), ==, SLICE ("r1child"));
  g_assert_cmpuint (hit (fixture, 600, tracks_top - 1), ==, SPS_NO_INDEX);
  tooltip = _sps_timeline_dup_tooltip_markup (self, 600, ruler + lane / 2);
  g_assert_nonnull (strstr (tooltip, "target"));

  /* A flow from a scrolled lane into the band */
  gtk_adjustment_set_value (vadjustment, 0);
  sps_session_set_selected_slice (fixture->session, SLICE ("leaf"));
  flows = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-band-flows");
  g_assert_cmphex (pixel (flows, 547, ruler + lane / 2), ==, sps_test_rgb_of (&self->style.accent));

  /* A search hit in the band is outlined */
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
  sps_session_set_search_text (fixture->session, "target");
  search = render (fixture);
  g_assert_cmphex (pixel (search, 550, ruler + lane / 2), ==, sps_test_rgb_of (&self->style.accent));
  g_assert_cmphex (pixel_in (search, &target_pinned), ==, fill_of (fixture, "target"));
}

/* Thirty pinned lanes (600 px of 20 px lanes) are more than the band may
 * take: 40 % of the rows' height. The band shows the first ones and scrolls inside
 * itself: selecting fill29 scrolls the band (not the rows) until its
 * lane's bottom is the band's; the wheel over the band's labels scrolls
 * it back by three lanes. The rows below start under the band: outer,
 * under pid 1's header (pid 3's header stays, empty). */
static void
test_band_capped (Fixture       *fixture,
                  gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture->timeline));
  g_autoptr(GdkTexture) texture = NULL;
  graphene_rect_t area;
  int ruler = self->ruler_height;
  int lane = self->lane_height;
  int view = MAX ((int) ((HEIGHT - ruler) * SPS_TIMELINE_PIN_FRACTION), lane);
  gboolean handled = FALSE;

  for (guint i = 0; i < N_FILL; i++)
    sps_session_set_thread_pinned (fixture->session, fixture->fill_threads[i], TRUE);
  texture = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-band-capped");

  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("fill0"), &area));
  g_assert_cmpfloat (area.origin.y, ==, ruler + 1);
  g_assert_cmphex (pixel_in (texture, &area), ==, fill_of (fixture, "fill0"));
  g_assert_false (sps_timeline_get_slice_area (self, SLICE ("fill29"), &area));
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("outer"), &area));
  g_assert_cmpfloat (area.origin.y, ==, ruler + view + SPS_TIMELINE_PIN_SEPARATOR + self->header_height + 1);

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select", "u", SLICE ("fill29")));
  g_clear_object (&texture);
  texture = render (fixture);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  g_assert_cmpint (self->pinned_scroll, ==, N_FILL * lane - view);
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("fill29"), &area));
  g_assert_cmpfloat (area.origin.y + area.size.height, ==, ruler + view - 1);
  g_assert_cmphex (pixel_in (texture, &area), ==, fill_of (fixture, "fill29"));
  g_assert_false (sps_timeline_get_slice_area (self, SLICE ("fill0"), &area));

  /* The wheel over the band's labels scrolls the band only */
  self->pointer_inside = TRUE;
  self->resting = FALSE;
  self->pointer_x = 50;
  self->pointer_y = ruler + 5;
  g_signal_emit_by_name (sps_test_find_controller (fixture->timeline, GTK_TYPE_EVENT_CONTROLLER_SCROLL, 0),
                         "scroll", 0.0, -1.0, &handled);
  g_assert_true (handled);
  g_assert_cmpint (self->pinned_scroll, ==, N_FILL * lane - view - 3 * lane);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  self->pointer_inside = FALSE;
}

/* A pinned thread shows its lanes whatever its process's state: io
 * pinned, pid 2 collapsed, then hidden, io's two lanes stay in the band
 * with r1, r1child and r2 in their colours, found by hit tests. */
static void
test_pinned_folded_process (Fixture       *fixture,
                            gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  const char *names[] = { "r1", "r1child", "r2" };
  int ruler = self->ruler_height;

  sps_session_set_thread_pinned (fixture->session, fixture->thread_io, TRUE);
  for (guint state = 0; state < 2; state++)
    {
      g_autoptr(GdkTexture) texture = NULL;

      if (state == 0)
        sps_session_set_process_collapsed (fixture->session, fixture->process_io, TRUE);
      else
        sps_session_set_process_hidden (fixture->session, fixture->process_io, TRUE);
      texture = render (fixture);
      sps_test_maybe_screenshot (fixture->window, state == 0 ? "pins-collapsed-process" : "pins-hidden-process");

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          graphene_rect_t area;

          g_test_message ("%s, %s", state == 0 ? "collapsed" : "hidden", names[i]);
          g_assert_true (sps_timeline_get_slice_area (self, SLICE (names[i]), &area));
          g_assert_cmpfloat (area.origin.y, ==, ruler + 1 + (i == 1 ? self->lane_height : 0));
          g_assert_cmphex (pixel_in (texture, &area), ==, fill_of (fixture, names[i]));
          g_assert_cmpuint (hit (fixture, area.origin.x + area.size.width * 3 / 4, area.origin.y + 5), ==,
                            SLICE (names[i]));
        }
      /* timer, io's sibling, is not pinned: folded away */
      g_assert_false (sps_timeline_get_slice_area (self, SLICE ("tick"), &(graphene_rect_t) { 0, }));
      /* Selecting a slice of the pinned thread elsewhere (a search
       * match, say) reveals it, and leaves its process as it is: the
       * band shows it already */
      if (state == 0)
        {
          sps_session_set_selected_slice (fixture->session, SLICE ("r1child"));
          g_assert_true (sps_session_get_process_collapsed (fixture->session, fixture->process_io));
          sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
        }
    }
}

/* A collapsed process shows, under its header, the first lane of its
 * first thread as that lane is drawn expanded: the pixel row through
 * r1's lane, collapsed, is the pixel row through io's first lane,
 * expanded, across the tracks (r1 and r2 at their places and colours,
 * nothing of tick, timer's). Hit tests and tooltips find r2 there. With
 * leaf selected, the flows into r1child (hidden, under r1) and tick
 * (hidden, no visible ancestor) end on that lane: arrow heads at x = 305
 * (2100 ns) and 350 (3000 ns), over r1. */
static void
test_collapsed_representative (Fixture       *fixture,
                               gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  g_autoptr(GdkTexture) expanded = NULL;
  g_autoptr(GdkTexture) collapsed = NULL;
  g_autoptr(GdkTexture) flows = NULL;
  g_autofree char *tooltip = NULL;
  graphene_rect_t r1, r1_collapsed, r2;
  int y_expanded, y_collapsed;
  guint accent = sps_test_rgb_of (&self->style.accent);

  /* Only the selected slice's flows, which cross the lanes compared */
  sps_session_set_show_flows (fixture->session, FALSE);
  expanded = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("r1"), &r1));

  sps_session_set_process_collapsed (fixture->session, fixture->process_io, TRUE);
  collapsed = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-representative");
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("r1"), &r1_collapsed));
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("r2"), &r2));
  g_assert_false (sps_timeline_get_slice_area (self, SLICE ("r1child"), &r2));
  g_assert_false (sps_timeline_get_slice_area (self, SLICE ("tick"), &r2));
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("r2"), &r2));
  /* In place: the header, then the lane */
  g_assert_cmpfloat (r1_collapsed.origin.y, ==, r1.origin.y);

  y_expanded = (int) (r1.origin.y + r1.size.height / 2);
  y_collapsed = (int) (r1_collapsed.origin.y + r1_collapsed.size.height / 2);
  for (int x = GUTTER; x < WIDTH; x++)
    g_assert_cmphex (pixel (collapsed, x, y_collapsed), ==, pixel (expanded, x, y_expanded));
  g_assert_cmphex (pixel_in (collapsed, &r1_collapsed), ==, fill_of (fixture, "r1"));
  g_assert_cmphex (pixel_in (collapsed, &r2), ==, fill_of (fixture, "r2"));
  g_assert_cmpuint (hit (fixture, 560, y_collapsed), ==, SLICE ("r2"));
  tooltip = _sps_timeline_dup_tooltip_markup (self, 560, y_collapsed);
  g_assert_nonnull (strstr (tooltip, "r2"));

  sps_session_set_selected_slice (fixture->session, SLICE ("leaf"));
  flows = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pins-representative-flows");
  g_assert_cmphex (pixel (flows, 302, y_collapsed), ==, accent);
  g_assert_cmphex (pixel (flows, 347, y_collapsed), ==, accent);
}

/* The pixel column of a flag at @time is the flag's colour */
static gboolean
flag_drawn (Fixture *fixture,
            int      x)
{
  g_autoptr(GdkTexture) texture = render (fixture);

  return pixel (texture, x, HEIGHT - 10) == sps_test_rgb_of (_sps_timeline_flag_color ());
}

/* The ruler's menu, opened for x = 350 (3000 ns): "Add Flag Here" flags
 * 3000 ns (a line at x = 350); opened again there, "Remove This Flag"
 * shows and removes it; "Clear All Flags" removes every flag; "Copy
 * Time" puts sps_time_format (3000) on the clipboard; "Zoom to Selected
 * Range" shows the range, "Zoom Out Fully" the whole trace (0–12 µs). A
 * right click on the ruler opens the menu, a right drag there selects
 * no range; the Menu key's action opens it too. */
static void
test_ruler_menu (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GListModel *flags = sps_session_get_flags (fixture->session);
  GtkWidget *menu;
  GdkContentProvider *content;
  g_auto(GValue) value = G_VALUE_INIT;
  g_autofree char *expected = sps_time_format (3000);
  g_autoptr(SpsFlag) flag = NULL;
  SpsTime start, end;

  menu = _sps_timeline_popup_ruler_menu (self, 350);
  g_assert_nonnull (menu);
  g_assert_true (gtk_widget_get_visible (menu));
  g_assert_cmpint (self->menu_time, ==, 3000);
  if (g_getenv ("SPS_TEST_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("SPS_TEST_SCREENSHOT_DIR"), "pins-menu.png", NULL);

      gtk_test_widget_wait_for_draw (menu);
      g_object_unref (sps_test_save_screenshot (menu, path));
    }

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-add-flag", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 1);
  flag = g_list_model_get_item (flags, 0);
  g_assert_cmpint (sps_flag_get_time (flag), ==, 3000);
  g_assert_true (flag_drawn (fixture, 350));
  gtk_popover_popdown (GTK_POPOVER (menu));

  /* Next to the flag: the menu can remove it */
  _sps_timeline_popup_ruler_menu (self, 352);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-remove-flag", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 0);
  g_assert_false (flag_drawn (fixture, 350));

  sps_session_add_flag (fixture->session, 1000, NULL);
  sps_session_add_flag (fixture->session, 2000, NULL);
  _sps_timeline_popup_ruler_menu (self, 350);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-clear-flags", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 0);

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-copy-time", NULL));
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (fixture->timeline));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_assert_cmpstr (g_value_get_string (&value), ==, expected);
  g_assert_cmpstr (expected, ==, "3 µs");

  sps_session_set_range (fixture->session, 2000, 4000);
  _sps_timeline_popup_ruler_menu (self, 350);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-zoom-range", NULL));
  g_assert_cmpint (sps_session_get_visible_start (fixture->session), ==, 2000);
  g_assert_cmpint (sps_session_get_visible_end (fixture->session), ==, 4000);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-zoom-all", NULL));
  g_assert_cmpint (sps_session_get_visible_start (fixture->session), ==, 0);
  g_assert_cmpint (sps_session_get_visible_end (fixture->session), ==, 12000);
  gtk_popover_popdown (GTK_POPOVER (menu));
  g_assert_false (gtk_widget_get_visible (menu));

  /* A right press on the ruler opens it; a right drag there keeps the range */
  g_signal_emit_by_name (sps_test_find_controller (fixture->timeline, GTK_TYPE_GESTURE_CLICK, GDK_BUTTON_SECONDARY),
                         "pressed", 1, 400.0, 5.0);
  g_assert_true (gtk_widget_get_visible (menu));
  g_assert_false (_sps_timeline_drag_begin (self, 400, 5, GDK_BUTTON_SECONDARY, 0));
  g_assert_true (sps_session_get_range (fixture->session, &start, &end));
  gtk_popover_popdown (GTK_POPOVER (menu));

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.ruler-menu", NULL));
  g_assert_true (gtk_widget_get_visible (menu));
  gtk_popover_popdown (GTK_POPOVER (menu));
}

/* The label of the first item of @menu's model */
static char *
dup_first_label (GtkWidget *menu)
{
  GMenuModel *model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu));
  char *label = NULL;

  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  return label;
}

/* A right click on a thread's label opens its menu: "Pin to Top" on
 * worker's label (its lane, in the middle of target's rectangle) pins
 * it; on its label in the band the menu says "Unpin", which unpins it.
 * The process headers and the rows of no thread have no such menu. */
static void
test_label_menu (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GtkEventController *click = sps_test_find_controller (fixture->timeline, GTK_TYPE_GESTURE_CLICK,
                                                        GDK_BUTTON_SECONDARY);
  g_autofree char *pin = NULL;
  g_autofree char *unpin = NULL;
  g_autoptr(GdkTexture) pinned = NULL;
  g_autoptr(GdkTexture) unpinned = NULL;
  graphene_rect_t target;
  GtkWidget *menu;

  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("target"), &target));
  g_signal_emit_by_name (click, "pressed", 1, 50.0, (double) target.origin.y + 5);
  menu = self->label_menu;
  g_assert_nonnull (menu);
  g_assert_true (gtk_widget_get_visible (menu));
  pin = dup_first_label (menu);
  g_assert_cmpstr (pin, ==, "Pin to Top");
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.toggle-pin", "u", fixture->thread_worker));
  g_assert_true (sps_session_get_thread_pinned (fixture->session, fixture->thread_worker));
  gtk_popover_popdown (GTK_POPOVER (menu));

  pinned = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, SLICE ("target"), &target));
  g_assert_cmpfloat (target.origin.y, ==, self->ruler_height + 1);
  g_assert_true (_sps_timeline_popup_label_menu (self, 0, target.origin.y + 5) == menu);
  unpin = dup_first_label (menu);
  g_assert_cmpstr (unpin, ==, "Unpin");
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.toggle-pin", "u", fixture->thread_worker));
  g_assert_false (sps_session_get_thread_pinned (fixture->session, fixture->thread_worker));
  gtk_popover_popdown (GTK_POPOVER (menu));

  /* Row 0 is now pid 1's header */
  unpinned = render (fixture);
  g_assert_null (_sps_timeline_popup_label_menu (self, 0, self->ruler_height + 5));
}

/* Real traces (the shared catapult and Kineto fixtures; skipped without
 * them): the thread of the last slice lane pinned, its rows come first,
 * in the band, as many as it had, starting right under the ruler; then
 * the first other process of two threads or more collapsed: under its
 * header comes the lane that was its first one, depth 0 of its first
 * thread's first track. The pictures (with the ruler's menu) are saved
 * when SPS_TEST_SCREENSHOT_DIR is set. */
static void
test_real_fixtures (void)
{
  const char *names[] = { "catapult__webview.json.gz", "hta__kineto-rocm-mi250-minitoy.json.gz" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = sps_test_shared_fixture_path ("chrome", names[k]);
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsSession) session = NULL;
      g_autofree char *shot = NULL;
      GtkWidget *window;
      GtkWidget *timeline;
      SpsTimeline *self;
      SpsTimelineLayout *layout;
      const SpsTimelineRow *row;
      guint32 thread = SPS_NO_INDEX;
      guint32 process = SPS_NO_INDEX;
      guint n_thread_rows = 0;
      int thread_height = 0;
      SpsTimelineRow first = { 0, };

      /* (the helper marks the test skipped when they are missing) */
      if (path == NULL)
        return;
      g_test_message ("%s", names[k]);
      trace = sps_test_load_path (path);
      session = sps_session_new (trace);
      window = sps_test_present_timeline (session, 1200, 700, &timeline);
      self = SPS_TIMELINE (timeline);
      layout = _sps_timeline_get_layout (self);

      for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
        {
          row = _sps_timeline_layout_get_row (layout, i);
          if (row->kind == SPS_TIMELINE_ROW_SLICES && row->thread != SPS_NO_INDEX)
            thread = row->thread;
        }
      g_assert_cmpuint (thread, !=, SPS_NO_INDEX);
      for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
        {
          row = _sps_timeline_layout_get_row (layout, i);
          n_thread_rows += row->thread == thread;
          thread_height += row->thread == thread ? row->height : 0;
        }

      sps_session_set_thread_pinned (session, thread, TRUE);
      gtk_test_widget_wait_for_draw (window);
      g_assert_cmpuint (_sps_timeline_layout_get_n_pinned_rows (layout), ==, n_thread_rows);
      g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, thread_height);
      row = _sps_timeline_layout_get_row (layout, 0);
      g_assert_cmpuint (row->thread, ==, thread);
      g_assert_true (row->flags & SPS_TIMELINE_ROW_PINNED);

      /* The first process of two threads or more, other than the pinned one's */
      for (guint i = 0; i + 1 < _sps_timeline_layout_get_n_rows (layout) && process == SPS_NO_INDEX; i++)
        {
          guint32 first_thread;

          row = _sps_timeline_layout_get_row (layout, i);
          if (row->kind != SPS_TIMELINE_ROW_PROCESS || row->process == sps_trace_get_threads (trace)->process[thread])
            continue;
          first = *_sps_timeline_layout_get_row (layout, i + 1);
          first_thread = first.thread;
          for (guint j = i + 1; j < _sps_timeline_layout_get_n_rows (layout); j++)
            {
              const SpsTimelineRow *next = _sps_timeline_layout_get_row (layout, j);

              if (next->kind == SPS_TIMELINE_ROW_PROCESS)
                break;
              if (first_thread != SPS_NO_INDEX && next->thread != SPS_NO_INDEX && next->thread != first_thread)
                {
                  process = row->process;
                  break;
                }
            }
        }
      if (process != SPS_NO_INDEX)
        {
          guint header;

          sps_session_set_process_collapsed (session, process, TRUE);
          gtk_test_widget_wait_for_draw (window);
          header = _sps_timeline_layout_find_process_row (layout, process);
          row = _sps_timeline_layout_get_row (layout, header + 1);
          g_assert_cmpuint (row->track, ==, first.track);
          g_assert_cmpuint (row->depth, ==, 0);
          g_assert_cmpuint (row->thread, ==, first.thread);
          g_assert_true (header + 2 == _sps_timeline_layout_get_n_rows (layout) ||
                         _sps_timeline_layout_get_row (layout, header + 2)->kind == SPS_TIMELINE_ROW_PROCESS);
        }

      shot = g_strdup_printf ("pins-%.*s", (int) strcspn (names[k], "_"), names[k]);
      sps_test_maybe_screenshot (window, shot);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

#define TEST(path, func) \
  g_test_add ("/ui/timeline-pins/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  TEST ("band", test_band);
  TEST ("band-capped", test_band_capped);
  TEST ("pinned-folded-process", test_pinned_folded_process);
  TEST ("collapsed-representative", test_collapsed_representative);
  TEST ("ruler-menu", test_ruler_menu);
  TEST ("label-menu", test_label_menu);
  g_test_add_func ("/ui/timeline-pins/real-fixtures", test_real_fixtures);

  return g_test_run ();
}
