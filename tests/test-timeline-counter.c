/* test-timeline-counter.c: the counter rows' axis, units, values and
 * tooltip, without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

#include "sps-timeline-private.h"

#include "sps-test-util.h"

typedef struct
{
  SpsTrace       *trace;
  SpsTimelineLod *lod;
  SpsSession     *session;
  guint32         heap;      /* “heap” / “used_bytes”: 1 KiB, 3 MiB, 512 B */
  guint32         fps;       /* “fps”: 30, 59.94 */
  guint32         temp;      /* “Temperature (°C)”: −5, −2 */
  guint32         flat;      /* “idle”: 0, 0 */
  guint32         instance;  /* “ctr[7]”: 1 */
} CounterFixture;

static guint32
add_counter (SpsTraceBuilder *b,
             guint32          process,
             const char      *name,
             const char      *series)
{
  return sps_trace_builder_ensure_counter_track (b, process, sps_trace_builder_intern (b, name, -1),
                                                 series != NULL ? sps_trace_builder_intern (b, series, -1) : 0);
}

static void
counter_fixture_set_up (CounterFixture *f,
                        gconstpointer   data)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);

  f->heap = add_counter (b, process, "heap", "used_bytes");
  f->fps = add_counter (b, process, "fps", NULL);
  f->temp = add_counter (b, process, "Temperature (°C)", NULL);
  f->flat = add_counter (b, process, "idle", NULL);
  f->instance = add_counter (b, process, "ctr[7]", NULL);
  sps_trace_builder_add_counter_value (b, f->instance, 0, 1);
  sps_trace_builder_add_counter_value (b, f->heap, 0, 1024);
  sps_trace_builder_add_counter_value (b, f->heap, 1000, 3 * 1024 * 1024);
  sps_trace_builder_add_counter_value (b, f->heap, 2000, 512);
  sps_trace_builder_add_counter_value (b, f->fps, 0, 30);
  sps_trace_builder_add_counter_value (b, f->fps, 1000, 59.94);
  sps_trace_builder_add_counter_value (b, f->temp, 0, -5);
  sps_trace_builder_add_counter_value (b, f->temp, 1000, -2);
  sps_trace_builder_add_counter_value (b, f->flat, 0, 0);
  sps_trace_builder_add_counter_value (b, f->flat, 3000, 0);
  f->trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);

  /* The builder keeps the ids it handed out */
  g_assert_cmpuint (sps_trace_get_tracks (f->trace)->kind[f->heap], ==, SPS_TRACK_COUNTER);
  g_assert_cmpuint (sps_trace_get_tracks (f->trace)->kind[f->flat], ==, SPS_TRACK_COUNTER);

  f->lod = _sps_timeline_lod_new (f->trace);
  f->session = sps_session_new (f->trace);
}

static void
counter_fixture_tear_down (CounterFixture *f,
                           gconstpointer   data)
{
  g_clear_pointer (&f->lod, _sps_timeline_lod_free);
  g_clear_object (&f->session);
  g_clear_object (&f->trace);
}

/* The axis spans the series' range stretched to 0, and one unit when the
 * series is flat (values above) */
static void
test_axis (CounterFixture *f,
           gconstpointer   data)
{
  double lo = -1, hi = -1;

  g_assert_true (_sps_timeline_counter_axis (f->lod, f->heap, &lo, &hi));
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 3 * 1024 * 1024);
  g_assert_true (_sps_timeline_counter_axis (f->lod, f->temp, &lo, &hi));
  g_assert_cmpfloat (lo, ==, -5);
  g_assert_cmpfloat (hi, ==, 0);
  g_assert_true (_sps_timeline_counter_axis (f->lod, f->flat, &lo, &hi));
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 1);
}

/* Units come from the series' name, else the counter's name: a last
 * word after '_', '.' or ' ', or a short text in brackets after a space
 * at the end */
static void
test_unit (CounterFixture *f,
           gconstpointer   data)
{
  g_autofree char *heap = _sps_timeline_counter_dup_unit (f->trace, f->heap);
  g_autofree char *fps = _sps_timeline_counter_dup_unit (f->trace, f->fps);
  g_autofree char *temp = _sps_timeline_counter_dup_unit (f->trace, f->temp);
  g_autofree char *instance = _sps_timeline_counter_dup_unit (f->trace, f->instance);
  g_autofree char *heap_title = _sps_timeline_counter_dup_title (f->trace, f->heap);
  g_autofree char *fps_title = _sps_timeline_counter_dup_title (f->trace, f->fps);

  g_assert_cmpstr (heap, ==, "B");
  g_assert_null (fps);
  g_assert_cmpstr (temp, ==, "°C");
  /* Brackets right after the name number an instance (Chrome's ids) */
  g_assert_null (instance);
  g_assert_cmpstr (heap_title, ==, "heap used_bytes");
  g_assert_cmpstr (fps_title, ==, "fps");
}

static void
assert_value (double      value,
              const char *unit,
              const char *expected)
{
  g_autofree char *text = _sps_timeline_counter_format_value (value, unit);

  g_assert_cmpstr (text, ==, expected);
}

/* Whole numbers exactly, others with 4 significant digits, bytes in
 * binary multiples, '.' whatever the locale */
static void
test_format_value (void)
{
  assert_value (3 * 1024 * 1024, "B", "3 MiB");
  assert_value (1536, "B", "1.5 KiB");
  assert_value (512, "B", "512 B");
  assert_value (-2048, "B", "-2 KiB");
  assert_value (59.94, NULL, "59.94");
  assert_value (1.0 / 3, "ms", "0.3333 ms");
  assert_value (12345678, NULL, "12345678");
  assert_value (1e20, NULL, "1e+20");
  assert_value (-0.0, NULL, "0");
  assert_value (-5, "°C", "-5 °C");
}

/* The tooltip: the series' name, the value at the pointer and its time
 * from the start of the trace. At 10 ns a pixel after a 100 px gutter,
 * x = 250 is 1500 ns, where the heap holds 3 MiB (set at 1000 ns). */
static void
test_tooltip (CounterFixture *f,
              gconstpointer   data)
{
  SpsTimelineSource source = { f->trace, f->session, f->lod };
  SpsTimelineGeometry g = {
    .width = 1100, .height = 400, .gutter = 100, .track_width = 1000, .ruler_height = 20,
    .scale = 1, .start = 0, .end = 10000, .ns_per_px = 10.0,
  };
  SpsTimelineRow heap = { .kind = SPS_TIMELINE_ROW_COUNTER, .track = f->heap, .height = 40 };
  SpsTimelineRow fps = { .kind = SPS_TIMELINE_ROW_COUNTER, .track = f->fps, .height = 40 };
  g_autofree char *heap_text = _sps_timeline_painter_tooltip (&_sps_timeline_counter_painter, &source, &g,
                                                              &heap, 250, 0);
  g_autofree char *fps_text = _sps_timeline_painter_tooltip (&_sps_timeline_counter_painter, &source, &g,
                                                             &fps, 210, 0);

  g_assert_cmpstr (heap_text, ==, "<b>heap used_bytes</b>\n3 MiB at 1.5 µs");
  g_assert_cmpstr (fps_text, ==, "<b>fps</b>\n59.94 at 1.1 µs");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/gtk/timeline/counter/axis", CounterFixture, NULL,
              counter_fixture_set_up, test_axis, counter_fixture_tear_down);
  g_test_add ("/gtk/timeline/counter/unit", CounterFixture, NULL,
              counter_fixture_set_up, test_unit, counter_fixture_tear_down);
  g_test_add_func ("/gtk/timeline/counter/format-value", test_format_value);
  g_test_add ("/gtk/timeline/counter/tooltip", CounterFixture, NULL,
              counter_fixture_set_up, test_tooltip, counter_fixture_tear_down);

  return g_test_run ();
}
