/* test-session.c: SpsSession without a display: viewport rules, selection,
 * W/A/S/D navigation, range and collapse state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-session"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-gtk.h>

#include "sps-test-util.h"

#define NO SPS_NO_INDEX

/* The hand-built trace (times in ns):
 *
 *   thread 10:  A [0,100)                         H [120,150)  I [200,1000)
 *                 B [10,40)   E [50,60)  F [70,90)                J [200,300)
 *                   C [15,20)              G [75,80)
 *                   D [25,30)
 *   thread 11:  K [0,50)
 *                 L [10,20)
 *
 * Slices are sorted by (track, ts), longer first at equal ts (I before J),
 * so the table is A B C D E F G H I J on the first track, K L on the
 * second. */
enum { A, B, C, D, E, F, G, H, I, J, K, L, N_SLICES };

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GHashTable *notifies;   /* property name → count */
  guint       layout_changed;
} Fixture;

static void
add_x (SpsTraceBuilder *builder,
       guint32          thread,
       SpsTime          ts,
       SpsTime          dur,
       const char      *name)
{
  sps_test_add_complete (builder, thread, ts, dur, name, "cat", NULL, 0);
}

static SpsTrace *
build_nested_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 t10 = sps_trace_builder_ensure_thread (builder, process, 10);
  guint32 t11 = sps_trace_builder_ensure_thread (builder, process, 11);

  /* Out of order on purpose: finish() sorts. */
  add_x (builder, t10, 200, 100, "J");
  add_x (builder, t10, 0, 100, "A");
  add_x (builder, t10, 10, 30, "B");
  add_x (builder, t10, 15, 5, "C");
  add_x (builder, t10, 25, 5, "D");
  add_x (builder, t10, 50, 10, "E");
  add_x (builder, t10, 70, 20, "F");
  add_x (builder, t10, 75, 5, "G");
  add_x (builder, t10, 120, 30, "H");
  add_x (builder, t10, 200, 800, "I");
  add_x (builder, t11, 0, 50, "K");
  add_x (builder, t11, 10, 10, "L");

  return sps_test_finish (builder);
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Fixture    *fixture)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (fixture->notifies, pspec->name));

  g_hash_table_insert (fixture->notifies, (gpointer) pspec->name, GUINT_TO_POINTER (n + 1));
}

static void
on_layout_changed (SpsSession *session,
                   Fixture    *fixture)
{
  fixture->layout_changed++;
}

static guint
notifies (Fixture    *fixture,
          const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fixture->notifies, name));
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->trace = build_nested_trace ();
  fixture->session = sps_session_new (fixture->trace);
  fixture->notifies = g_hash_table_new (g_str_hash, g_str_equal);
  g_signal_connect (fixture->session, "notify", G_CALLBACK (on_notify), fixture);
  g_signal_connect (fixture->session, "layout-changed", G_CALLBACK (on_layout_changed), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_object_add_weak_pointer (G_OBJECT (fixture->session), (gpointer *) &fixture->session);
  g_object_unref (fixture->session);
  g_assert_null (fixture->session);
  g_clear_object (&fixture->trace);
  g_clear_pointer (&fixture->notifies, g_hash_table_unref);
}

static void
assert_visible (SpsSession *session,
                SpsTime     start,
                SpsTime     end)
{
  g_assert_cmpint (sps_session_get_visible_start (session), ==, start);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, end);
}

static void
test_table_layout (Fixture       *fixture,
                   gconstpointer  data)
{
  static const char *names[] = { "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L" };
  static const guint parents[] = { NO, A, B, B, A, A, F, NO, NO, I, NO, K };
  const SpsSliceTable *slices = sps_trace_get_slices (fixture->trace);

  /* The navigation tests below rely on this order. */
  g_assert_cmpuint (slices->n_rows, ==, N_SLICES);
  for (guint i = 0; i < N_SLICES; i++)
    {
      g_assert_cmpstr (sps_trace_get_string (fixture->trace, slices->name[i]), ==, names[i]);
      g_assert_cmpuint (slices->parent[i], ==, parents[i]);
    }
  g_assert_cmpuint (slices->track[A], ==, slices->track[J]);
  g_assert_cmpuint (slices->track[A], !=, slices->track[K]);
}

static void
test_defaults (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  SpsTime start = 1, end = 1;
  guint selected = 0;
  gboolean show_flows = FALSE;

  g_assert_true (sps_session_get_trace (fixture->session) == fixture->trace);
  g_object_get (fixture->session,
                "trace", &trace,
                "selected-slice", &selected,
                "show-flows", &show_flows,
                NULL);
  g_assert_true (trace == fixture->trace);
  g_assert_cmpuint (selected, ==, NO);
  g_assert_true (show_flows);

  /* It opens on the whole trace. */
  assert_visible (fixture->session, 0, 1000);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, NO);
  g_assert_cmpuint (sps_session_get_hovered_slice (fixture->session), ==, NO);
  g_assert_false (sps_session_get_range (fixture->session, &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, 0);
  g_assert_true (sps_session_get_show_flows (fixture->session));
  g_assert_false (sps_session_get_process_collapsed (fixture->session, 0));
}

static void
test_notify_only_on_change (Fixture       *fixture,
                            gconstpointer  data)
{
  SpsTime start = 0, end = 0;

  sps_session_set_selected_slice (fixture->session, C);
  sps_session_set_selected_slice (fixture->session, C);
  g_assert_cmpuint (notifies (fixture, "selected-slice"), ==, 1);
  g_object_set (fixture->session, "selected-slice", D, NULL);
  g_object_set (fixture->session, "selected-slice", D, NULL);
  g_assert_cmpuint (notifies (fixture, "selected-slice"), ==, 2);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, D);

  sps_session_set_hovered_slice (fixture->session, E);
  sps_session_set_hovered_slice (fixture->session, E);
  sps_session_set_hovered_slice (fixture->session, NO);
  g_assert_cmpuint (notifies (fixture, "hovered-slice"), ==, 2);

  sps_session_set_show_flows (fixture->session, FALSE);
  sps_session_set_show_flows (fixture->session, FALSE);
  g_assert_cmpuint (notifies (fixture, "show-flows"), ==, 1);
  g_assert_false (sps_session_get_show_flows (fixture->session));

  sps_session_set_visible (fixture->session, 100, 200);
  g_assert_cmpuint (notifies (fixture, "visible-start"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "visible-end"), ==, 1);
  sps_session_set_visible (fixture->session, 100, 300);
  g_assert_cmpuint (notifies (fixture, "visible-start"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "visible-end"), ==, 2);
  sps_session_set_visible (fixture->session, 100, 300);
  g_assert_cmpuint (notifies (fixture, "visible-end"), ==, 2);
  g_object_get (fixture->session, "visible-start", &start, "visible-end", &end, NULL);
  g_assert_cmpint (start, ==, 100);
  g_assert_cmpint (end, ==, 300);

  /* Nothing else was touched. */
  g_assert_cmpuint (notifies (fixture, "has-range"), ==, 0);
  g_assert_cmpuint (notifies (fixture, "range-start"), ==, 0);
  g_assert_cmpuint (notifies (fixture, "trace"), ==, 0);
}

static void
test_clamping (Fixture       *fixture,
               gconstpointer  data)
{
  /* Bounds: [0 - 5 % of 1000, 1000 + 5 %] = [-50, 1050]. */
  sps_session_set_visible (fixture->session, -500, 500);
  assert_visible (fixture->session, -50, 950);
  sps_session_set_visible (fixture->session, 900, 2000);
  assert_visible (fixture->session, -50, 1050);
  sps_session_set_visible (fixture->session, -10000, 10000);
  assert_visible (fixture->session, -50, 1050);
  sps_session_set_visible (fixture->session, 2000, 2100);
  assert_visible (fixture->session, 950, 1050);

  /* At least 10 ns, grown around the centre (500 + 3 / 2 = 501). */
  sps_session_set_visible (fixture->session, 500, 503);
  assert_visible (fixture->session, 496, 506);
  sps_session_set_visible (fixture->session, 1045, 1048);
  assert_visible (fixture->session, 1040, 1050);
  sps_session_set_visible (fixture->session, G_MININT64, G_MININT64 + 1);
  assert_visible (fixture->session, -50, -40);
  sps_session_set_visible (fixture->session, G_MININT64, G_MAXINT64);
  assert_visible (fixture->session, -50, 1050);
}

static void
test_zoom_anchor (Fixture       *fixture,
                  gconstpointer  data)
{
  /* Anchor 250 is at 1/4 of [0,1000] and stays there. */
  sps_session_zoom (fixture->session, 2.0, 250);
  assert_visible (fixture->session, 125, 625);
  sps_session_zoom (fixture->session, 0.5, 250);
  assert_visible (fixture->session, 0, 1000);

  /* At the right edge. */
  sps_session_zoom (fixture->session, 4.0, 1000);
  assert_visible (fixture->session, 750, 1000);

  /* Span 1000 / 1.5 = 666.67 → 667; 333 × 0.667 = 222.1 → 222. */
  sps_session_set_visible (fixture->session, 0, 1000);
  sps_session_zoom (fixture->session, 1.5, 333);
  assert_visible (fixture->session, 111, 778);
}

static void
test_zoom_limits (Fixture       *fixture,
                  gconstpointer  data)
{
  sps_session_set_visible (fixture->session, 750, 1000);

  /* Zoom in stops at 10 ns: (800 - 750) × 10 / 250 = 2. */
  sps_session_zoom (fixture->session, 1e9, 800);
  assert_visible (fixture->session, 798, 808);
  sps_session_zoom (fixture->session, 2.0, 800);
  assert_visible (fixture->session, 798, 808);

  /* Zoom out stops at the bounds. */
  sps_session_zoom (fixture->session, 1e-9, 800);
  assert_visible (fixture->session, -50, 1050);

  /* An anchor outside the window still scales its distance. */
  sps_session_set_visible (fixture->session, 400, 500);
  sps_session_zoom (fixture->session, 2.0, 600);
  assert_visible (fixture->session, 500, 550);
}

static void
test_pan (Fixture       *fixture,
          gconstpointer  data)
{
  sps_session_pan (fixture->session, 30);
  assert_visible (fixture->session, 30, 1030);
  sps_session_pan (fixture->session, 100);
  assert_visible (fixture->session, 50, 1050);
  sps_session_pan (fixture->session, -500);
  assert_visible (fixture->session, -50, 950);
  sps_session_pan (fixture->session, G_MAXINT64);
  assert_visible (fixture->session, 50, 1050);
  sps_session_pan (fixture->session, G_MININT64);
  assert_visible (fixture->session, -50, 950);

  sps_session_set_visible (fixture->session, 100, 200);
  sps_session_pan (fixture->session, -25);
  assert_visible (fixture->session, 75, 175);
}

static void
test_fit (Fixture       *fixture,
          gconstpointer  data)
{
  sps_session_set_visible (fixture->session, 400, 500);

  /* Nothing selected, no range: the whole trace. */
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 0, 1000);

  /* A range (given right to left) is fitted exactly. */
  sps_session_set_range (fixture->session, 300, 200);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 200, 300);

  /* A selected slice wins over the range: B [10,40) ± 10 % of 30. */
  sps_session_set_selected_slice (fixture->session, B);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 7, 43);

  /* C [15,20) is narrower than 10 ns: centred on 17. */
  sps_session_set_selected_slice (fixture->session, C);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 12, 22);

  /* I [200,1000) ± 80 sticks out at the end and is shifted back. */
  sps_session_set_selected_slice (fixture->session, I);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 90, 1050);

  sps_session_set_selected_slice (fixture->session, NO);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 200, 300);

  sps_session_clear_range (fixture->session);
  sps_session_fit (fixture->session);
  assert_visible (fixture->session, 0, 1000);

  sps_session_set_visible (fixture->session, 5, 15);
  sps_session_fit_trace (fixture->session);
  assert_visible (fixture->session, 0, 1000);
}

static void
test_go_to_time (Fixture       *fixture,
                 gconstpointer  data)
{
  sps_session_set_visible (fixture->session, 0, 100);
  sps_session_go_to_time (fixture->session, 500);
  assert_visible (fixture->session, 450, 550);
  sps_session_go_to_time (fixture->session, 1040);
  assert_visible (fixture->session, 950, 1050);
  sps_session_go_to_time (fixture->session, -1000);
  assert_visible (fixture->session, -50, 50);
  sps_session_go_to_time (fixture->session, G_MAXINT64);
  assert_visible (fixture->session, 950, 1050);
}

typedef gboolean (*NavFunc) (SpsSession *session);

static gboolean
nav_prev (SpsSession *session)
{
  return sps_session_select_sibling (session, -1);
}

static gboolean
nav_next (SpsSession *session)
{
  return sps_session_select_sibling (session, 1);
}

static void
assert_nav (SpsSession *session,
            char        key,
            guint       expected)
{
  guint before = sps_session_get_selected_slice (session);
  NavFunc func = NULL;
  gboolean moved;

  switch (key)
    {
    case 'W': func = sps_session_select_parent; break;
    case 'S': func = sps_session_select_first_child; break;
    case 'A': func = nav_prev; break;
    case 'D': func = nav_next; break;
    default: g_assert_not_reached ();
    }

  moved = func (session);
  if (expected == NO)
    {
      g_assert_false (moved);
      g_assert_cmpuint (sps_session_get_selected_slice (session), ==, before);
    }
  else
    {
      g_assert_true (moved);
      g_assert_cmpuint (sps_session_get_selected_slice (session), ==, expected);
    }
}

static void
test_navigation_without_selection (Fixture       *fixture,
                                   gconstpointer  data)
{
  assert_nav (fixture->session, 'W', NO);
  assert_nav (fixture->session, 'S', NO);
  assert_nav (fixture->session, 'A', NO);
  assert_nav (fixture->session, 'D', NO);
  g_assert_cmpuint (notifies (fixture, "selected-slice"), ==, 0);
}

static void
test_navigation_wasd (Fixture       *fixture,
                      gconstpointer  data)
{
  SpsSession *session = fixture->session;

  sps_session_set_selected_slice (session, A);
  assert_nav (session, 'S', B);
  assert_nav (session, 'S', C);
  assert_nav (session, 'S', NO);
  assert_nav (session, 'D', D);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'A', C);
  assert_nav (session, 'A', NO);
  assert_nav (session, 'W', B);
  assert_nav (session, 'D', E);
  assert_nav (session, 'S', NO);
  assert_nav (session, 'D', F);
  assert_nav (session, 'S', G);
  assert_nav (session, 'A', NO);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'W', F);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'A', E);
  assert_nav (session, 'A', B);
  assert_nav (session, 'W', A);
  assert_nav (session, 'W', NO);
  assert_nav (session, 'A', NO);

  /* Roots of a track are siblings. */
  assert_nav (session, 'D', H);
  assert_nav (session, 'D', I);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'S', J);
  assert_nav (session, 'A', NO);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'W', I);
  assert_nav (session, 'A', H);
  assert_nav (session, 'A', A);

  /* Another thread is another track: no siblings across it. */
  sps_session_set_selected_slice (session, K);
  assert_nav (session, 'A', NO);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'S', L);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'W', K);
}

static void
test_navigation_reveals (Fixture       *fixture,
                         gconstpointer  data)
{
  SpsSession *session = fixture->session;

  sps_session_set_visible (session, 0, 100);
  sps_session_set_selected_slice (session, A);

  /* H [120,150) fits in 100 ns: centred on 135 at the same zoom. */
  assert_nav (session, 'D', H);
  assert_visible (session, 85, 185);

  /* I [200,1000) does not fit and is out of view: fitted. */
  assert_nav (session, 'D', I);
  assert_visible (session, 90, 1050);

  /* J is in view: nothing moves. */
  assert_nav (session, 'S', J);
  assert_visible (session, 90, 1050);

  /* A wide parent that shows in part keeps the zoom. */
  sps_session_set_visible (session, 210, 250);
  assert_nav (session, 'W', I);
  assert_visible (session, 210, 250);

  /* Selecting directly never moves the window. */
  sps_session_set_selected_slice (session, C);
  assert_visible (session, 210, 250);
}

static void
test_range (Fixture       *fixture,
            gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTime start = 0, end = 0;
  gboolean has_range = FALSE;

  sps_session_set_range (session, 10, 20);
  g_assert_cmpuint (notifies (fixture, "has-range"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "range-start"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "range-end"), ==, 1);
  g_assert_true (sps_session_get_range (session, &start, &end));
  g_assert_cmpint (start, ==, 10);
  g_assert_cmpint (end, ==, 20);

  /* The same range, either way round: no notification. */
  sps_session_set_range (session, 20, 10);
  sps_session_set_range (session, 10, 20);
  g_assert_cmpuint (notifies (fixture, "has-range"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "range-start"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "range-end"), ==, 1);

  sps_session_set_range (session, 10, 30);
  g_assert_cmpuint (notifies (fixture, "range-start"), ==, 1);
  g_assert_cmpuint (notifies (fixture, "range-end"), ==, 2);
  g_object_get (session, "has-range", &has_range, "range-start", &start, "range-end", &end, NULL);
  g_assert_true (has_range);
  g_assert_cmpint (start, ==, 10);
  g_assert_cmpint (end, ==, 30);

  sps_session_clear_range (session);
  sps_session_clear_range (session);
  g_assert_cmpuint (notifies (fixture, "has-range"), ==, 2);
  g_assert_false (sps_session_get_range (session, &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, 0);
  g_assert_false (sps_session_get_range (session, NULL, NULL));

  /* A zero-length range is a range. */
  sps_session_set_range (session, 5, 5);
  g_assert_true (sps_session_get_range (session, &start, &end));
  g_assert_cmpint (start, ==, 5);
  g_assert_cmpint (end, ==, 5);
}

static void
test_clear (Fixture       *fixture,
            gconstpointer  data)
{
  SpsSession *session = fixture->session;

  sps_session_set_visible (session, 100, 200);
  sps_session_set_selected_slice (session, B);
  sps_session_set_hovered_slice (session, C);
  sps_session_set_range (session, 1, 2);
  sps_session_clear (session);

  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, NO);
  g_assert_false (sps_session_get_range (session, NULL, NULL));
  /* Hover and the window stay. */
  g_assert_cmpuint (sps_session_get_hovered_slice (session), ==, C);
  assert_visible (session, 100, 200);
  g_assert_cmpuint (notifies (fixture, "selected-slice"), ==, 2);
  g_assert_cmpuint (notifies (fixture, "has-range"), ==, 2);
}

static void
test_collapse (Fixture       *fixture,
               gconstpointer  data)
{
  SpsSession *session = fixture->session;

  sps_session_set_process_collapsed (session, 0, TRUE);
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  g_assert_true (sps_session_get_process_collapsed (session, 0));
  sps_session_set_process_collapsed (session, 0, TRUE);
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  sps_session_set_process_collapsed (session, 0, FALSE);
  g_assert_cmpuint (fixture->layout_changed, ==, 2);
  g_assert_false (sps_session_get_process_collapsed (session, 0));
}

static void
test_tiny_and_empty_traces (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTraceBuilder) empty_builder = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTrace) empty = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(SpsSession) empty_session = NULL;

  /* A 3 ns trace gets a 10 ns window around its centre (5 + 1). */
  add_x (builder, thread, 5, 3, "tiny");
  trace = sps_test_finish (builder);
  session = sps_session_new (trace);
  assert_visible (session, 1, 11);
  sps_session_zoom (session, 0.1, 6);
  assert_visible (session, 1, 11);
  sps_session_pan (session, 100);
  assert_visible (session, 1, 11);

  empty = sps_test_finish (empty_builder);
  empty_session = sps_session_new (empty);
  assert_visible (empty_session, -5, 5);
  sps_session_fit (empty_session);
  assert_visible (empty_session, -5, 5);
}

static void
test_navigation_async (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 cat = sps_trace_builder_intern (builder, "net", -1);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  const SpsSliceTable *slices;

#define ASYNC(phase, key, ts, name) \
  sps_trace_builder_add_async (builder, phase, process, key, ts, \
                               sps_trace_builder_intern (builder, name, -1), cat, SPS_ARGS_REF_NONE)

  /* One tree: R [0,100) with X [10,20) and Y [30,40); then a second
   * tree S [200,300) on the same lane. */
  ASYNC (SPS_ASYNC_BEGIN, 1, 0, "R");
  ASYNC (SPS_ASYNC_BEGIN, 1, 10, "X");
  ASYNC (SPS_ASYNC_END, 1, 20, "X");
  ASYNC (SPS_ASYNC_BEGIN, 1, 30, "Y");
  ASYNC (SPS_ASYNC_END, 1, 40, "Y");
  ASYNC (SPS_ASYNC_END, 1, 100, "R");
  ASYNC (SPS_ASYNC_BEGIN, 2, 200, "S");
  ASYNC (SPS_ASYNC_END, 2, 300, "S");
#undef ASYNC

  trace = sps_test_finish (builder);
  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (slices->n_rows, ==, 4);
  g_assert_cmpuint (slices->track[0], ==, slices->track[3]);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[0]), ==, "R");
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[1]), ==, "X");
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[2]), ==, "Y");
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[3]), ==, "S");

  session = sps_session_new (trace);
  sps_session_set_selected_slice (session, 0);
  assert_nav (session, 'S', 1);
  assert_nav (session, 'S', NO);
  assert_nav (session, 'D', 2);
  assert_nav (session, 'D', NO);
  assert_nav (session, 'A', 1);
  assert_nav (session, 'A', NO);
  assert_nav (session, 'W', 0);
  assert_nav (session, 'D', 3);
  assert_nav (session, 'S', NO);
  assert_nav (session, 'A', 0);
}

/* A root with a huge subtree: D and A jump over it instead of walking
 * it, so many key presses take no time. A linear walk would need 10^10
 * steps here and hit the test timeout. */
static void
test_navigation_is_bounded (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  const guint n_children = 100000;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(GTimer) timer = NULL;
  guint last_child;

  add_x (builder, thread, 0, 10 * (SpsTime) n_children, "root");
  for (guint i = 0; i < n_children; i++)
    add_x (builder, thread, 10 * (SpsTime) i, 5, "child");
  add_x (builder, thread, 10 * (SpsTime) n_children, 10, "next-root");
  trace = sps_test_finish (builder);
  session = sps_session_new (trace);
  last_child = n_children;

  timer = g_timer_new ();
  for (guint i = 0; i < 100000; i++)
    {
      sps_session_set_selected_slice (session, 0);
      assert_nav (session, 'D', n_children + 1);
      assert_nav (session, 'A', 0);
      sps_session_set_selected_slice (session, last_child);
      assert_nav (session, 'A', last_child - 1);
      assert_nav (session, 'W', 0);
      assert_nav (session, 'S', 1);
    }
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 10.0);
}

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

/* What the importer asked for (sps_trace_builder_set_process_display())
 * is how the session starts: process 2 collapsed, process 3 hidden with
 * its sample; the user can change both */
static void
test_default_display (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint32 p1 = sps_trace_builder_ensure_process (builder, 1);
  guint32 p2 = sps_trace_builder_ensure_process (builder, 2);
  guint32 p3 = sps_trace_builder_ensure_process (builder, 3);
  guint32 cpu = sps_trace_builder_intern (builder, "cpu", -1);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;

  sps_trace_builder_add_sample (builder, sps_trace_builder_ensure_thread (builder, p1, 10), 5, cpu,
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, 0);
  sps_trace_builder_add_sample (builder, sps_trace_builder_ensure_thread (builder, p3, 30), 6, cpu,
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, 0);
  sps_trace_builder_set_process_display (builder, p2, SPS_PROCESS_DISPLAY_COLLAPSED);
  sps_trace_builder_set_process_display (builder, p3, SPS_PROCESS_DISPLAY_HIDDEN);
  trace = sps_test_finish (builder);
  g_assert_cmpuint (sps_trace_get_processes (trace)->display[p1], ==, SPS_PROCESS_DISPLAY_DEFAULT);
  session = sps_session_new (trace);

  g_assert_false (sps_session_get_process_collapsed (session, p1));
  g_assert_true (sps_session_get_process_collapsed (session, p2));
  g_assert_false (sps_session_get_process_collapsed (session, p3));
  g_assert_false (sps_session_get_process_hidden (session, p1));
  g_assert_false (sps_session_get_process_hidden (session, p2));
  g_assert_true (sps_session_get_process_hidden (session, p3));
  g_assert_true (sps_session_has_filters (session));
  /* Samples are sorted by time: p1's at 5, p3's at 6 */
  g_assert_true (sps_session_is_sample_visible (session, 0));
  g_assert_false (sps_session_is_sample_visible (session, 1));

  sps_session_set_process_hidden (session, p3, FALSE);
  g_assert_true (sps_session_is_sample_visible (session, 1));
  g_assert_false (sps_session_has_filters (session));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  TEST ("/gtk/session/table-layout", test_table_layout);
  TEST ("/gtk/session/properties/defaults", test_defaults);
  TEST ("/gtk/session/properties/notify-only-on-change", test_notify_only_on_change);
  TEST ("/gtk/session/viewport/clamping", test_clamping);
  TEST ("/gtk/session/viewport/zoom-anchor", test_zoom_anchor);
  TEST ("/gtk/session/viewport/zoom-limits", test_zoom_limits);
  TEST ("/gtk/session/viewport/pan", test_pan);
  TEST ("/gtk/session/viewport/fit", test_fit);
  TEST ("/gtk/session/viewport/go-to-time", test_go_to_time);
  TEST ("/gtk/session/navigation/without-selection", test_navigation_without_selection);
  TEST ("/gtk/session/navigation/wasd", test_navigation_wasd);
  TEST ("/gtk/session/navigation/reveals", test_navigation_reveals);
  TEST ("/gtk/session/range", test_range);
  TEST ("/gtk/session/clear", test_clear);
  TEST ("/gtk/session/collapse", test_collapse);
  g_test_add_func ("/gtk/session/viewport/tiny-and-empty-traces", test_tiny_and_empty_traces);
  g_test_add_func ("/gtk/session/navigation/async", test_navigation_async);
  g_test_add_func ("/gtk/session/navigation/bounded", test_navigation_is_bounded);
  g_test_add_func ("/gtk/session/default-display", test_default_display);

  return g_test_run ();
}
