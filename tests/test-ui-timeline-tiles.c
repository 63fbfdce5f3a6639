/* test-ui-timeline-tiles.c: the timeline's tiles, which panning reuses,
 * and the tiles and flows of a pan drawn exactly as a fresh drawing of
 * the window, under a display (test-ui-timeline.c has the rest)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-timeline-private.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  800
#define HEIGHT 400

/* A window for the renderer of the tests' timelines, removed when done */
static GtkWidget *
present_host (void)
{
  GtkWidget *host = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (host), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (host));
  gtk_test_widget_wait_for_draw (host);

  return host;
}

/* The pixels of @node, WIDTH × HEIGHT, as @renderer draws them at @scale
 * device pixels per pixel (GDK_SCALE) */
static guint32 *
render_pixels (GskRenderer   *renderer,
               GskRenderNode *node,
               int            scale)
{
  /* NULL at scale 1: the identity */
  g_autoptr(GskTransform) transform = gsk_transform_scale (NULL, scale, scale);
  g_autoptr(GskRenderNode) scaled = transform != NULL ? gsk_transform_node_new (node, transform)
                                                      : gsk_render_node_ref (node);
  g_autoptr(GdkTexture) texture = gsk_renderer_render_texture (renderer, scaled,
                                                               &GRAPHENE_RECT_INIT (0, 0, WIDTH * scale,
                                                                                    HEIGHT * scale));
  guint32 *pixels = g_new (guint32, (gsize) WIDTH * HEIGHT * scale * scale);

  gdk_texture_download (texture, (guchar *) pixels, WIDTH * scale * sizeof (guint32));

  return pixels;
}

/* Runs what the main loop has to do now, as between two frames */
static void
run_idle (void)
{
  for (guint i = 0; i < 10000 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

/* Pans a timeline of @trace back and forth over a fifth of it; after each
 * step, checks that it shows exactly the pixels of a timeline drawing
 * that window afresh, without tiles.
 * Returns how many pixels of the last picture are not the background,
 * so that callers know something was compared. */
static gsize
assert_pan_matches_fresh (GtkWidget *host,
                          SpsTrace  *trace,
                          gboolean   idle_between)
{
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (host));
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *panned = sps_timeline_new (session);
  GtkWidget *fresh = sps_timeline_new (session);
  /* In windows, for the theme's colours (flows are drawn in the text
   * colour, faded) */
  GtkWidget *windows[2] = { gtk_window_new (), gtk_window_new () };
  SpsTime start, span;
  double ns_per_px;
  int track_width;
  int scale;
  gsize colored = 0;

  gtk_window_set_child (GTK_WINDOW (windows[0]), panned);
  gtk_window_set_child (GTK_WINDOW (windows[1]), fresh);
  _sps_timeline_set_tiles_enabled (SPS_TIMELINE (fresh), FALSE);
  track_width = WIDTH - sps_timeline_get_gutter_width (SPS_TIMELINE (panned));
  /* Compared in device pixels: 2 with GDK_SCALE=2 (the ui-timeline-hidpi
   * test), where tiles meet in the middle of no pixel either */
  scale = gtk_widget_get_scale_factor (panned);
  g_assert_cmpint (scale, ==, gtk_widget_get_scale_factor (fresh));

  /* A fifth of the trace, so that there is room to pan both ways */
  span = (sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace)) / 5;
  start = sps_trace_get_start_time (trace) + span;
  ns_per_px = (double) span / track_width;

  /* 37 px steps right, then 5 steps of 53 px back: tiles come into view
   * on both sides and some are reused from several frames before. */
  for (int i = 0; i <= 12; i++)
    {
      SpsTime offset = (SpsTime) ((i <= 7 ? i * 37 : 7 * 37 - (i - 7) * 53) * ns_per_px);
      g_autoptr(GskRenderNode) node_a = NULL;
      g_autoptr(GskRenderNode) node_b = NULL;
      g_autofree guint32 *a = NULL;
      g_autofree guint32 *b = NULL;
      gsize differ = 0;

      sps_session_set_visible (session, start + offset, start + offset + span);
      node_a = sps_timeline_build_node (SPS_TIMELINE (panned), WIDTH, HEIGHT);
      node_b = sps_timeline_build_node (SPS_TIMELINE (fresh), WIDTH, HEIGHT);
      /* The main loop's idle time between frames, where the tiles coming
       * into view next are built */
      if (idle_between)
        run_idle ();
      a = render_pixels (renderer, node_a, scale);
      b = render_pixels (renderer, node_b, scale);

      colored = 0;
      for (gsize k = 0; k < (gsize) WIDTH * HEIGHT * scale * scale; k++)
        {
          differ += a[k] != b[k];
          colored += (a[k] & 0xffffff) != (a[0] & 0xffffff);
        }
      g_assert_cmpuint (differ, ==, 0);
    }

  gtk_window_destroy (GTK_WINDOW (windows[0]));
  gtk_window_destroy (GTK_WINDOW (windows[1]));

  return colored;
}

static SpsTrace *
load_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);

  g_assert_no_error (error);

  return trace;
}

/* Slice lanes are drawn in tiles that panning reuses: after a series of
 * pans the picture must be exactly what a timeline drawing the window
 * afresh, without tiles, shows. */
static void
test_pan_tiles (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  GtkWidget *host = present_host ();

  /* The picture is not empty: slices were drawn (the demo's first fifth
   * is busy), so the comparison compared something. */
  g_assert_cmpuint (assert_pan_matches_fresh (host, trace, FALSE), >, (gsize) WIDTH * HEIGHT / 20);
  /* And with the tiles coming into view built between frames */
  g_assert_cmpuint (assert_pan_matches_fresh (host, trace, TRUE), >, (gsize) WIDTH * HEIGHT / 20);
  gtk_window_destroy (GTK_WINDOW (host));
}

/* Counts the tiles frames build while panning the demo right by @step px
 * a frame over 600 px, after a frame at the start */
static gboolean
set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for @ms, as while the user looks at the picture */
static void
run_main_loop_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static guint
count_pan_tile_builds (SpsTrace *trace,
                       int       step,
                       gboolean  idle_between,
                       guint     pause_ms)
{
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *timeline = sps_timeline_new (session);
  SpsTime span = (sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace)) / 5;
  SpsTime start = sps_trace_get_start_time (trace) + span;
  double ns_per_px;
  guint built;

  gtk_window_set_child (GTK_WINDOW (window), timeline);
  ns_per_px = (double) span / (WIDTH - sps_timeline_get_gutter_width (SPS_TIMELINE (timeline)));

  /* A frame at the scale (drawn without tiles, as the frames of a zoom
   * are), a pause of @pause_ms, then a frame 3 px further, which draws
   * the window's tiles unless they were built during the pause */
  for (int f = 0; f < 2; f++)
    {
      SpsTime offset = (SpsTime) (f * 3 * ns_per_px);

      sps_session_set_visible (session, start + offset, start + offset + span);
      gsk_render_node_unref (sps_timeline_build_node (SPS_TIMELINE (timeline), WIDTH, HEIGHT));
      if (f == 0 && pause_ms > 0)
        {
          run_main_loop_for (pause_ms);
          /* And what the pause started, however slow the machine */
          run_idle ();
        }
    }
  run_idle ();
  built = _sps_timeline_get_frame_tile_builds (SPS_TIMELINE (timeline));
  if (pause_ms >= 300)
    g_assert_cmpuint (built, ==, 0);
  else
    g_assert_cmpuint (built, >, 0);

  for (int x = 3 + step; x <= 600; x += step)
    {
      SpsTime offset = (SpsTime) (x * ns_per_px);

      sps_session_set_visible (session, start + offset, start + offset + span);
      gsk_render_node_unref (sps_timeline_build_node (SPS_TIMELINE (timeline), WIDTH, HEIGHT));
      if (idle_between)
        run_idle ();
    }

  built = _sps_timeline_get_frame_tile_builds (SPS_TIMELINE (timeline)) - built;
  gtk_window_destroy (GTK_WINDOW (window));

  return built;
}

/* Between the frames of a pan, the tile coming into view next is built
 * for every row: the frames themselves build none, while frames with no
 * time between them build the tiles as they come. After a zoom, the tiles
 * under the window are built once the scale has stayed the same for a
 * while. */
static void
test_pan_prefetch (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();

  g_assert_cmpuint (count_pan_tile_builds (trace, 8, TRUE, 0), ==, 0);
  /* Steps under a tile's width (256 px): one tile ahead is enough */
  g_assert_cmpuint (count_pan_tile_builds (trace, 200, TRUE, 0), ==, 0);
  g_assert_cmpuint (count_pan_tile_builds (trace, 8, FALSE, 0), >, 0);
  /* A pause after a zoom (150 ms of the same scale) builds the tiles
   * under the window: the first frame of the pan then builds none either */
  g_assert_cmpuint (count_pan_tile_builds (trace, 8, TRUE, 400), ==, 0);
}

/* Two threads of 15 slices each, 100 µs apart (about 200 px in the
 * test's view): 100 px ones on the first, whose labels are cut short
 * with an ellipsis at a width that depends on how much of them is
 * visible, and a flow from each to a short one on the second. A short
 * slice at 0 puts the others @delay late: as it varies, the windows of
 * the test cut slices at different places of their tiles, some wholly
 * inside one, whose label the tile cannot give. */
static SpsTrace *
build_flow_trace (SpsTime delay)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 threads[2] = {
    sps_trace_builder_ensure_thread (builder, process, 1),
    sps_trace_builder_ensure_thread (builder, process, 2),
  };
  SpsTrace *trace;

  for (guint i = 0; i < 15; i++)
    {
      g_autofree char *name = g_strdup_printf ("a long name of work item %u", i % 7);
      guint32 id = sps_trace_builder_intern (builder, name, -1);
      SpsTime ts = (SpsTime) i * 100000 + delay;

      sps_trace_builder_add_complete (builder, threads[0], ts, 50000, id, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
      sps_trace_builder_add_complete (builder, threads[1], ts + 60000, 12000, id, 0, SPS_ARGS_REF_NONE,
                                      SPS_SLICE_NONE);
      sps_trace_builder_add_flow_point (builder, i, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, threads[0],
                                        ts + 45000, 0, 0, 0);
      sps_trace_builder_add_flow_point (builder, i, SPS_FLOW_END, SPS_FLOW_BIND_NEXT, threads[1],
                                        ts + 59000, 0, 0, 0);
    }

  sps_trace_builder_add_complete (builder, threads[1], 0, 1000, sps_trace_builder_intern (builder, "start", -1), 0,
                                  SPS_ARGS_REF_NONE, SPS_SLICE_NONE);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 15);

  return trace;
}

/* Flows are drawn for more than the window and moved while panning;
 * labels of slices wholly inside a tile come with the tile. Both must
 * land where a fresh drawing puts them. */
static void
test_pan_flows (void)
{
  GtkWidget *host = present_host ();

  for (SpsTime delay = 10000; delay <= 90000; delay += 20000)
    {
      g_autoptr(SpsTrace) trace = build_flow_trace (delay);

      g_assert_cmpuint (assert_pan_matches_fresh (host, trace, TRUE), >, (gsize) WIDTH * HEIGHT / 50);
    }
  gtk_window_destroy (GTK_WINDOW (host));
}

/* Gives @widget WIDTH × HEIGHT without showing its window, as a frame of
 * that size would */
static void
allocate (GtkWidget *widget)
{
  int min, natural;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, &natural, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, WIDTH, &min, &natural, NULL, NULL);
  gtk_widget_size_allocate (widget, &(GtkAllocation) { 0, 0, WIDTH, HEIGHT }, -1);
}

static void
count_notify (gpointer  object,
              gpointer  pspec,
              guint    *count)
{
  (*count)++;
}

/* A timeline whose summaries are built ahead on worker threads (as a
 * large trace's are; the threshold lowered for the demo): a frame drawn
 * before they are ready draws no rows, and the pointer finds nothing;
 * once they are, every zoom shows exactly the pixels of a new timeline
 * that builds its summaries on demand. */
static void
test_prepared_summaries (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  GtkWidget *host = present_host ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (host));
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *on_demand = sps_timeline_new (session);
  GtkWidget *prepared;
  GtkWidget *windows[2] = { gtk_window_new (), gtk_window_new () };
  SpsTimelineStats stats;
  SpsTime start = sps_trace_get_start_time (trace);
  SpsTime span = sps_trace_get_end_time (trace) - start;
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint longest = SPS_NO_INDEX;
  g_autofree char *tooltip = NULL;
  SpsSelection selection;
  graphene_rect_t area;
  double x, y;
  guint notified = 0;
  gsize colored;

  g_assert_false (sps_timeline_get_preparing (SPS_TIMELINE (on_demand)));
  g_assert_nonnull (_sps_timeline_get_lod (SPS_TIMELINE (on_demand)));

  _sps_timeline_set_prepare_threshold (0);
  prepared = sps_timeline_new (session);
  /* Unless told not to, as the live window does */
  {
    GtkWidget *live = g_object_ref_sink (g_object_new (SPS_TYPE_TIMELINE, "session", session,
                                                       "prepare-ahead", FALSE, NULL));
    gboolean prepare_ahead = TRUE;

    g_object_get (live, "prepare-ahead", &prepare_ahead, NULL);
    g_assert_false (prepare_ahead);
    g_assert_false (sps_timeline_get_preparing (SPS_TIMELINE (live)));
    g_assert_nonnull (_sps_timeline_get_lod (SPS_TIMELINE (live)));
    g_object_unref (live);
  }
  _sps_timeline_set_prepare_threshold (SPS_TIMELINE_PREPARE_THRESHOLD);
  g_signal_connect (prepared, "notify::preparing", G_CALLBACK (count_notify), &notified);
  gtk_window_set_child (GTK_WINDOW (windows[0]), on_demand);
  gtk_window_set_child (GTK_WINDOW (windows[1]), prepared);

  /* The summaries come to the timeline through the main loop, which has
   * not run since: this frame is drawn before they are ready. */
  g_assert_true (sps_timeline_get_preparing (SPS_TIMELINE (prepared)));
  g_assert_null (_sps_timeline_get_lod (SPS_TIMELINE (prepared)));
  sps_session_fit_trace (session);
  {
    g_autoptr(GskRenderNode) node_a = sps_timeline_build_node (SPS_TIMELINE (on_demand), WIDTH, HEIGHT);
    g_autoptr(GskRenderNode) node_b = sps_timeline_build_node (SPS_TIMELINE (prepared), WIDTH, HEIGHT);
    g_autofree guint32 *a = render_pixels (renderer, node_a, 1);
    g_autofree guint32 *b = render_pixels (renderer, node_b, 1);
    gsize differ = 0;

    sps_timeline_get_stats (SPS_TIMELINE (prepared), &stats);
    g_assert_cmpuint (stats.frames, ==, 1);
    g_assert_cmpuint (stats.items_drawn, ==, 0);
    g_assert_cmpuint (stats.tiles_built, ==, 0);
    /* Nor flows: their index comes with the summaries, not from the
     * main thread */
    g_assert_null (SPS_TIMELINE (prepared)->flow_index.by_min);
    for (gsize k = 0; k < (gsize) WIDTH * HEIGHT; k++)
      differ += a[k] != b[k];
    /* The rows are missing, not drawn otherwise */
    g_assert_cmpuint (differ, >, (gsize) WIDTH * HEIGHT / 20);
  }

  /* Nor is anything under the pointer, where the longest slice will be */
  allocate (prepared);
  for (guint i = 0; i < slices->n_rows; i++)
    if (longest == SPS_NO_INDEX || slices->dur[i] > slices->dur[longest])
      longest = i;
  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (prepared), longest, &area));
  x = area.origin.x + area.size.width / 2;
  y = area.origin.y + area.size.height / 2;
  _sps_timeline_hit_item (SPS_TIMELINE (prepared), x, y, &selection);
  g_assert_cmpint (selection.kind, ==, SPS_SELECTION_NONE);
  g_assert_null (_sps_timeline_dup_tooltip_markup (SPS_TIMELINE (prepared), x, y));

  while (sps_timeline_get_preparing (SPS_TIMELINE (prepared)))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_nonnull (_sps_timeline_get_lod (SPS_TIMELINE (prepared)));
  g_assert_nonnull (SPS_TIMELINE (prepared)->flow_index.by_min);
  g_assert_cmpuint (SPS_TIMELINE (prepared)->flow_index.n, ==, sps_trace_get_flows (trace)->n_rows);

  /* Once ready, it is hit and named */
  _sps_timeline_hit_item (SPS_TIMELINE (prepared), x, y, &selection);
  g_assert_cmpint (selection.kind, ==, SPS_SELECTION_SLICE);
  g_assert_cmpuint (selection.index, ==, longest);
  tooltip = _sps_timeline_dup_tooltip_markup (SPS_TIMELINE (prepared), x, y);
  g_assert_nonnull (tooltip);

  /* The whole trace, a fifth, a fiftieth and a thousandth of it */
  colored = 0;
  for (guint z = 0; z < 4; z++)
    {
      static const int parts[] = { 1, 5, 50, 1000 };
      SpsTime part = span / parts[z];
      g_autoptr(GskRenderNode) node_a = NULL;
      g_autoptr(GskRenderNode) node_b = NULL;
      g_autofree guint32 *a = NULL;
      g_autofree guint32 *b = NULL;
      gsize differ = 0;

      sps_session_set_visible (session, start + part / 3, start + part / 3 + part);
      /* Drawn afresh by both: the prepared timeline has drawn no tile
       * at this scale either */
      gtk_window_destroy (GTK_WINDOW (windows[0]));
      windows[0] = gtk_window_new ();
      on_demand = sps_timeline_new (session);
      gtk_window_set_child (GTK_WINDOW (windows[0]), on_demand);
      allocate (on_demand);
      node_a = sps_timeline_build_node (SPS_TIMELINE (on_demand), WIDTH, HEIGHT);
      node_b = sps_timeline_build_node (SPS_TIMELINE (prepared), WIDTH, HEIGHT);
      a = render_pixels (renderer, node_a, 1);
      b = render_pixels (renderer, node_b, 1);
      for (gsize k = 0; k < (gsize) WIDTH * HEIGHT; k++)
        {
          differ += a[k] != b[k];
          colored += (a[k] & 0xffffff) != (a[0] & 0xffffff);
        }
      g_assert_cmpuint (differ, ==, 0);
    }
  /* Something was compared */
  g_assert_cmpuint (colored, >, (gsize) WIDTH * HEIGHT / 10);

  gtk_window_destroy (GTK_WINDOW (windows[0]));
  gtk_window_destroy (GTK_WINDOW (windows[1]));
  gtk_window_destroy (GTK_WINDOW (host));
}

/* A timeline that goes away while its summaries are prepared stops the
 * preparation and frees what it built (the leak checkers of the
 * sanitizer build see the rest) */
static void
test_prepared_summaries_dropped (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *timeline;

  _sps_timeline_set_prepare_threshold (0);
  timeline = g_object_ref_sink (sps_timeline_new (session));
  _sps_timeline_set_prepare_threshold (SPS_TIMELINE_PREPARE_THRESHOLD);
  g_assert_true (sps_timeline_get_preparing (SPS_TIMELINE (timeline)));
  g_object_run_dispose (G_OBJECT (timeline));
  g_object_unref (timeline);
  /* The task's callback runs and drops the summaries */
  run_idle ();
  for (guint i = 0; i < 200; i++)
    {
      g_usleep (1000);
      run_idle ();
    }
}

/* A pan from the whole trace: the window moves by ninths of the trace
 * at the scale of fitting it, so that tiles of the first frame are
 * reused beside new ones; the picture must be a fresh drawing's. (Two
 * seams were found so: a stack chart box cut by a tile's end lost the
 * tile's last column to the pixel of space it keeps at its own end, and
 * the hatching of sampled slices was out of phase in tiles whose grid
 * position is not a multiple of its period.) */
static void
test_pan_from_fit (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  GtkWidget *host = present_host ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (host));
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *panned = sps_timeline_new (session);
  GtkWidget *fresh = sps_timeline_new (session);
  GtkWidget *windows[2] = { gtk_window_new (), gtk_window_new () };
  SpsTime span = sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace);
  int scale;
  gsize colored = 0;

  gtk_window_set_child (GTK_WINDOW (windows[0]), panned);
  gtk_window_set_child (GTK_WINDOW (windows[1]), fresh);
  _sps_timeline_set_tiles_enabled (SPS_TIMELINE (fresh), FALSE);
  allocate (panned);
  allocate (fresh);
  scale = gtk_widget_get_scale_factor (panned);

  sps_session_fit_trace (session);
  gsk_render_node_unref (sps_timeline_build_node (SPS_TIMELINE (panned), WIDTH, HEIGHT));
  run_idle ();
  for (guint step = 1; step <= 3; step++)
    {
      g_autoptr(GskRenderNode) node_a = NULL;
      g_autoptr(GskRenderNode) node_b = NULL;
      g_autofree guint32 *a = NULL;
      g_autofree guint32 *b = NULL;
      gsize differ = 0;
      SpsTime from, to;

      from = sps_session_get_visible_start (session);
      to = sps_session_get_visible_end (session);
      sps_session_set_visible (session, from + span / 9, to + span / 9);
      node_a = sps_timeline_build_node (SPS_TIMELINE (panned), WIDTH, HEIGHT);
      node_b = sps_timeline_build_node (SPS_TIMELINE (fresh), WIDTH, HEIGHT);
      a = render_pixels (renderer, node_a, scale);
      b = render_pixels (renderer, node_b, scale);
      for (gsize k = 0; k < (gsize) WIDTH * HEIGHT * scale * scale; k++)
        {
          differ += a[k] != b[k];
          colored += (a[k] & 0xffffff) != (a[0] & 0xffffff);
        }
      g_assert_cmpuint (differ, ==, 0);
      run_idle ();
    }
  /* Something was compared */
  g_assert_cmpuint (colored, >, (gsize) WIDTH * HEIGHT / 10);

  gtk_window_destroy (GTK_WINDOW (windows[0]));
  gtk_window_destroy (GTK_WINDOW (windows[1]));
  gtk_window_destroy (GTK_WINDOW (host));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/timeline/pan-tiles", test_pan_tiles);
  g_test_add_func ("/ui/timeline/pan-flows", test_pan_flows);
  g_test_add_func ("/ui/timeline/pan-prefetch", test_pan_prefetch);
  g_test_add_func ("/ui/timeline/pan-from-fit", test_pan_from_fit);
  g_test_add_func ("/ui/timeline/prepared-summaries", test_prepared_summaries);
  g_test_add_func ("/ui/timeline/prepared-summaries-dropped", test_prepared_summaries_dropped);

  return g_test_run ();
}
