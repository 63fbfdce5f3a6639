/* test-timeline-painters.c: the timeline's pixel canvas and painters,
 * without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

#include "sps-timeline-private.h"

#include "sps-test-util.h"

/* Pixels of the canvas equal to @pixel */
static guint
count_pixels (const SpsTimelineCanvas *canvas,
              guint32                  pixel)
{
  guint n = 0;

  for (int i = 0; i < canvas->width * canvas->height; i++)
    n += canvas->pixels[i] == pixel;
  return n;
}

/* A rectangle in logical pixels goes to the device pixels whose centres
 * it covers: [2.4, 5.6) rounds to columns 2..5, rows [0, 2) to 0..1. */
static void
test_canvas_fill (void)
{
  SpsTimelineCanvas canvas;
  const guint32 p = 0xff102030;

  _sps_timeline_canvas_init (&canvas, 10, 3, 1);
  g_assert_cmpint (canvas.width, ==, 10);
  g_assert_cmpint (canvas.height, ==, 3);
  g_assert_cmpuint (count_pixels (&canvas, 0), ==, 30);

  _sps_timeline_canvas_fill (&canvas, 2.4, 5.6, 0, 2, p);
  g_assert_cmpuint (count_pixels (&canvas, p), ==, 8);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 10; x++)
      g_assert_cmphex (canvas.pixels[y * 10 + x], ==, (y < 2 && x >= 2 && x <= 5) ? p : 0);

  /* Clipped to the canvas: the whole last row */
  _sps_timeline_canvas_fill (&canvas, -3, 100, 2, 9, 0xff000001);
  g_assert_cmpuint (count_pixels (&canvas, 0xff000001), ==, 10);
  g_assert_cmpuint (count_pixels (&canvas, p), ==, 8);

  _sps_timeline_canvas_clear (&canvas);
  g_assert_null (canvas.pixels);
}

/* At 2 device pixels a pixel, [1, 2.5) × [0, 1) is device columns
 * floor(2 + .5) = 2 to floor(5 + .5) = 5 (2, 3, 4) of both rows. */
static void
test_canvas_fill_scaled (void)
{
  SpsTimelineCanvas canvas;

  _sps_timeline_canvas_init (&canvas, 4, 1, 2);
  g_assert_cmpint (canvas.width, ==, 8);
  g_assert_cmpint (canvas.height, ==, 2);
  _sps_timeline_canvas_fill (&canvas, 1, 2.5, 0, 1, 7);
  g_assert_cmpuint (count_pixels (&canvas, 7), ==, 6);
  for (int x = 0; x < 8; x++)
    {
      g_assert_cmphex (canvas.pixels[x], ==, x >= 2 && x <= 4 ? 7 : 0);
      g_assert_cmphex (canvas.pixels[8 + x], ==, x >= 2 && x <= 4 ? 7 : 0);
    }
  _sps_timeline_canvas_clear (&canvas);
}

/* A strip's columns are written eight at a time into its slack: runs
 * shorter than that must leave the pixels after them, and the slack, as
 * they were. */
static void
test_canvas_strip (void)
{
  SpsTimelineCanvas strip;

  _sps_timeline_canvas_init_strip (&strip, 20, 1);
  g_assert_cmpint (strip.width, ==, 20);
  g_assert_cmpint (strip.height, ==, 1);

  _sps_timeline_canvas_fill_columns (&strip, 6, 7, 9);
  _sps_timeline_canvas_fill_columns (&strip, 3, 5, 5);
  _sps_timeline_canvas_fill_columns (&strip, 18, 30, 4);
  _sps_timeline_canvas_fill_columns (&strip, 8, 18, 3);
  for (int x = 0; x < 20 + SPS_TIMELINE_STRIP_SLACK; x++)
    {
      guint32 expected = 0;

      if (x == 3 || x == 4)
        expected = 5;
      else if (x == 6)
        expected = 9;
      else if (x >= 8 && x < 18)
        expected = 3;
      else if (x == 18 || x == 19)
        expected = 4;
      g_assert_cmphex (strip.pixels[x], ==, expected);
    }
  _sps_timeline_canvas_clear (&strip);

  /* Logical columns [3, 5) are device columns [6, 10) at scale 2 */
  _sps_timeline_canvas_init_strip (&strip, 10, 2);
  g_assert_cmpint (strip.width, ==, 20);
  _sps_timeline_canvas_fill_columns (&strip, 3, 5, 1);
  for (int x = 0; x < 20 + SPS_TIMELINE_STRIP_SLACK; x++)
    g_assert_cmphex (strip.pixels[x], ==, x >= 6 && x < 10 ? 1 : 0);
  _sps_timeline_canvas_clear (&strip);
}

/* A mark's square cut at either edge of the canvas */
static void
test_canvas_square (void)
{
  SpsTimelineCanvas canvas;
  const guint32 square[4] = { 1, 2, 3, 4 };

  _sps_timeline_canvas_init (&canvas, 6, 2, 1);
  _sps_timeline_canvas_put_square (&canvas, -1, square, 2);
  _sps_timeline_canvas_put_square (&canvas, 5, square, 2);
  _sps_timeline_canvas_put_square (&canvas, 2, square, 2);
  _sps_timeline_canvas_put_square (&canvas, 7, square, 2);

  {
    const guint32 expected[12] = { 2, 0, 1, 2, 0, 1,
                                   4, 0, 3, 4, 0, 3 };

    for (int i = 0; i < 12; i++)
      g_assert_cmphex (canvas.pixels[i], ==, expected[i]);
  }
  _sps_timeline_canvas_clear (&canvas);
}

/* Premultiplied 0xAARRGGBB: half-transparent red is alpha 0.5 × 255 + .5
 * = 128, red 1 × 0.5 × 255 + .5 = 128. */
static void
test_canvas_pixel (void)
{
  g_assert_cmphex (_sps_timeline_canvas_pixel (&(GdkRGBA) { 1.f, 0.f, 0.f, 0.5f }), ==, 0x80800000);
  g_assert_cmphex (_sps_timeline_canvas_pixel (&(GdkRGBA) { 0.f, 1.f, 1.f, 1.f }), ==, 0xff00ffff);
  /* Out of range components are clamped */
  g_assert_cmphex (_sps_timeline_canvas_pixel (&(GdkRGBA) { 2.f, -1.f, 0.f, 3.f }), ==, 0xffff0000);
}

/* The canvas becomes a texture of its device pixels over the bounds */
static void
test_canvas_node (void)
{
  SpsTimelineCanvas canvas;
  g_autoptr(GskRenderNode) node = NULL;
  graphene_rect_t bounds;
  GdkTexture *texture;

  /* Asking for a node type registers them all; gtk_init(), which needs
   * a display, does it otherwise. */
  g_type_ensure (GSK_TYPE_TEXTURE_NODE);
  _sps_timeline_canvas_init (&canvas, 3, 2, 2);
  node = _sps_timeline_canvas_free_to_node (&canvas, &GRAPHENE_RECT_INIT (10, 20, 3, 2));
  g_assert_null (canvas.pixels);
  g_assert_cmpint (gsk_render_node_get_node_type (node), ==, GSK_TEXTURE_NODE);
  gsk_render_node_get_bounds (node, &bounds);
  g_assert_cmpfloat (bounds.origin.x, ==, 10);
  g_assert_cmpfloat (bounds.origin.y, ==, 20);
  g_assert_cmpfloat (bounds.size.width, ==, 3);
  g_assert_cmpfloat (bounds.size.height, ==, 2);
  texture = gsk_texture_node_get_texture (node);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 6);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 4);
}

/* The pixel rounding the painters share */
static void
test_pixel_math (void)
{
  g_assert_cmpint (_sps_timeline_floor_px (-0.5), ==, -1);
  g_assert_cmpint (_sps_timeline_floor_px (2.99), ==, 2);
  g_assert_cmpint (_sps_timeline_round_px (-2.5), ==, -2);
  g_assert_cmpint (_sps_timeline_round_px (2.5), ==, 3);
  g_assert_cmpint (_sps_timeline_round_any (-7.6), ==, -8);
  g_assert_cmpint (_sps_timeline_round_any (1e12), ==, 1073741824);
  /* 4 px or more after rounding both ends keeps a pixel of space */
  g_assert_true (_sps_timeline_slice_keeps_gap (0, 3.6));
  g_assert_false (_sps_timeline_slice_keeps_gap (0.4, 3.4));
  g_assert_cmpint (_sps_timeline_floor_div (-1, 256), ==, -1);
  g_assert_cmpint (_sps_timeline_floor_div (-256, 256), ==, -1);
  g_assert_cmpint (_sps_timeline_floor_div (-257, 256), ==, -2);
  g_assert_cmpint (_sps_timeline_floor_div (256, 256), ==, 1);
}

typedef struct
{
  SpsTrace          *trace;
  SpsSession        *session;
  SpsTimelineLod    *lod;
  SpsTimelineLayout *layout;
  SpsTimelineSource  source;
  /* 100 px of gutter, then 10 ns a pixel from the trace's time 0:
   * x = 100 + t / 10 */
  SpsTimelineGeometry g;
  guint32            a, b, c;
} SliceFixture;

/* One thread: A [1000, 2000) and C [3000, 3010) at depth 0, B [1200,
 * 1300) inside A at depth 1. */
static void
slice_fixture_set_up (SliceFixture  *f,
                      gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);

  sps_test_add_complete (builder, thread, 1000, 1000, "A", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (builder, thread, 1200, 100, "B", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (builder, thread, 3000, 10, "C", "cat", NULL, SPS_SLICE_NONE);
  f->trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  f->session = sps_session_new (f->trace);
  f->lod = _sps_timeline_lod_new (f->trace);
  f->layout = _sps_timeline_layout_new (f->trace, NULL);
  _sps_timeline_layout_set_heights (f->layout, 20, 26);
  f->source = (SpsTimelineSource) { f->trace, f->session, f->lod };
  f->g = (SpsTimelineGeometry) {
    .width = 1100, .height = 400, .gutter = 100, .track_width = 1000, .ruler_height = 20,
    .scale = 1, .start = 0, .end = 10000, .ns_per_px = 10.0,
  };
  f->a = sps_test_find_slice (f->trace, "A", 0);
  f->b = sps_test_find_slice (f->trace, "B", 0);
  f->c = sps_test_find_slice (f->trace, "C", 0);
}

static void
slice_fixture_tear_down (SliceFixture  *f,
                         gconstpointer  data)
{
  g_clear_pointer (&f->layout, _sps_timeline_layout_free);
  g_clear_pointer (&f->lod, _sps_timeline_lod_free);
  g_clear_object (&f->session);
  g_clear_object (&f->trace);
}

static const SpsTimelineRow *
slice_row (SliceFixture *f,
           guint32       slice)
{
  guint index = _sps_timeline_layout_find_slice_row (f->layout, slice);

  g_assert_cmpuint (index, !=, SPS_NO_INDEX);
  return _sps_timeline_layout_get_row (f->layout, index);
}

static guint
hit (SliceFixture         *f,
     const SpsTimelineRow *row,
     SpsTime               t)
{
  /* y is not read: the row is the painter's */
  return _sps_timeline_painter_hit_test (&_sps_timeline_slice_painter, &f->source, &f->g, row,
                                         100 + t / 10.0, 0);
}

/* The slice painter's hit test: a slice contains the pointer's time, or
 * is the nearest within 2 px (20 ns here) */
static void
test_slice_hit_test (SliceFixture  *f,
                     gconstpointer  data)
{
  const SpsTimelineRow *top = slice_row (f, f->a);
  const SpsTimelineRow *nested = slice_row (f, f->b);

  g_assert_true (_sps_timeline_painter_for_row (top) == &_sps_timeline_slice_painter);
  g_assert_cmpuint (top->depth, ==, 0);
  g_assert_cmpuint (nested->depth, ==, 1);
  g_assert_true (slice_row (f, f->c) == top);

  g_assert_cmpuint (hit (f, top, 1500), ==, f->a);
  g_assert_cmpuint (hit (f, top, 1000), ==, f->a);
  g_assert_cmpuint (hit (f, nested, 1250), ==, f->b);
  g_assert_cmpuint (hit (f, top, 3005), ==, f->c);
  /* 15 ns after A's end, within the 20 ns of slack */
  g_assert_cmpuint (hit (f, top, 2015), ==, f->a);
  /* 10 ns before C: C is nearer than A's end, 990 ns away */
  g_assert_cmpuint (hit (f, top, 2990), ==, f->c);
  /* 500 ns from both A and C */
  g_assert_cmpuint (hit (f, top, 2500), ==, SPS_NO_INDEX);
  /* Nothing of depth 1 outside A */
  g_assert_cmpuint (hit (f, nested, 3005), ==, SPS_NO_INDEX);
  g_assert_cmpuint (hit (f, nested, 1100), ==, SPS_NO_INDEX);

  /* Zoomed out to 1000 ns a pixel, the slack is 2000 ns: C from 3 µs
   * past A's end */
  f->g.ns_per_px = 1000;
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_slice_painter, &f->source, &f->g, top,
                                                    100 + 4.0, 0), ==, f->c);

  /* A hidden thread's slices are not hit */
  f->g.ns_per_px = 10;
  sps_session_set_thread_hidden (f->session, 0, TRUE);
  g_assert_cmpuint (hit (f, top, 1500), ==, SPS_NO_INDEX);
  sps_session_set_thread_hidden (f->session, 0, FALSE);
  g_assert_cmpuint (hit (f, top, 1500), ==, f->a);
}

/* Painters without a hit test, and no painter, hit nothing */
static void
test_no_hit_test (SliceFixture  *f,
                  gconstpointer  data)
{
  const SpsTimelineRow *top = slice_row (f, f->a);

  g_assert_null (_sps_timeline_counter_painter.hit_test);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_counter_painter, &f->source, &f->g, top,
                                                    250, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (NULL, &f->source, &f->g, top, 250, 0), ==, SPS_NO_INDEX);
  g_assert_null (_sps_timeline_painter_tooltip (NULL, &f->source, &f->g, top, 250, 0));
}

/* The tooltip names the slice hit, with its duration and self time:
 * A lasts 1000 ns, 900 ns of them outside B. */
static void
test_slice_tooltip (SliceFixture  *f,
                    gconstpointer  data)
{
  const SpsTimelineRow *top = slice_row (f, f->a);
  g_autofree char *markup = _sps_timeline_painter_tooltip (&_sps_timeline_slice_painter, &f->source, &f->g,
                                                           top, 250, 0);
  g_autofree char *none = _sps_timeline_painter_tooltip (&_sps_timeline_slice_painter, &f->source, &f->g,
                                                         top, 350, 0);

  g_assert_cmpstr (markup, ==, "<b>A</b>\nDuration: 1 µs\nSelf time: 900 ns");
  g_assert_null (none);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gtk/timeline/canvas/fill", test_canvas_fill);
  g_test_add_func ("/gtk/timeline/canvas/fill-scaled", test_canvas_fill_scaled);
  g_test_add_func ("/gtk/timeline/canvas/strip", test_canvas_strip);
  g_test_add_func ("/gtk/timeline/canvas/square", test_canvas_square);
  g_test_add_func ("/gtk/timeline/canvas/pixel", test_canvas_pixel);
  g_test_add_func ("/gtk/timeline/canvas/node", test_canvas_node);
  g_test_add_func ("/gtk/timeline/canvas/pixel-math", test_pixel_math);
  g_test_add ("/gtk/timeline/slice-painter/hit-test", SliceFixture, NULL,
              slice_fixture_set_up, test_slice_hit_test, slice_fixture_tear_down);
  g_test_add ("/gtk/timeline/slice-painter/no-hit-test", SliceFixture, NULL,
              slice_fixture_set_up, test_no_hit_test, slice_fixture_tear_down);
  g_test_add ("/gtk/timeline/slice-painter/tooltip", SliceFixture, NULL,
              slice_fixture_set_up, test_slice_tooltip, slice_fixture_tear_down);

  return g_test_run ();
}
