/* test-ui-filter-controls.c: the timeline's controls on the view filter
 * (thread collapse, minimum duration, flows to hidden ends), checked on
 * the pixels drawn, under a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-filter-bar.h"
#include "sps-trace-settings.h"
#include "sps-palette-private.h"
#include "sps-timeline-private.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  800
#define HEIGHT 400

/*
 * process pid 1: thread tid 1  outer [0, 10000]
 *                                mid   [1000, 5000]    (4000 ns)
 *                                  leaf [1500, 2000]   (500 ns, flow leaf → target)
 *                                short [6000, 6100]    (100 ns)
 *                thread tid 2  target [7000, 9000]
 *
 * tid 1 has 3 lanes; tid 2 one.
 */
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
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (b, process, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (b, process, 2);
  guint32 leaf;
  guint32 target;
  SpsTimeline *self;

  sps_test_add_complete (b, t1, 0, 10000, "outer", "cat", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t1, 1000, 4000, "mid", "cat", NULL, SPS_SLICE_NONE);
  leaf = sps_trace_builder_add_complete (b, t1, 1500, 500, sps_trace_builder_intern (b, "leaf", -1),
                                         sps_trace_builder_intern (b, "cat", -1), SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  sps_test_add_complete (b, t1, 6000, 100, "short", "cat", NULL, SPS_SLICE_NONE);
  target = sps_trace_builder_add_complete (b, t2, 7000, 2000, sps_trace_builder_intern (b, "target", -1),
                                           sps_trace_builder_intern (b, "cat", -1), SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  sps_trace_builder_add_flow_point (b, 1, SPS_FLOW_START, SPS_FLOW_BIND_SLICE, t1, 1800, leaf, 0, 0);
  sps_trace_builder_add_flow_point (b, 1, SPS_FLOW_END, SPS_FLOW_BIND_SLICE, t2, 7000, target, 0, 0);
  fixture->trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_flows (fixture->trace)->n_rows, ==, 1);

  fixture->session = sps_session_new (fixture->trace);
  fixture->window = sps_test_present_timeline (fixture->session, WIDTH, HEIGHT, &fixture->timeline);
  self = SPS_TIMELINE (fixture->timeline);
  sps_timeline_set_gutter_auto (self, FALSE);
  sps_timeline_set_gutter_width (self, 200);
  /* 600 px for 12 µs: 20 ns a pixel */
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

static guint
slice (Fixture    *fixture,
       const char *name)
{
  return sps_test_find_slice (fixture->trace, name, 0);
}

/* The fill colour of @name's slices */
static guint32
fill_of (Fixture    *fixture,
         const char *name)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);

  return sps_test_rgb_of (&self->style.fill[_sps_palette_index_for_name (name, -1)]);
}

/* The pixel at the middle of @name's rectangle, right of its label */
static guint32
pixel_in (Fixture          *fixture,
          GdkTexture       *texture,
          graphene_rect_t  *area)
{
  int x = (int) (area->origin.x + area->size.width * 3 / 4);
  int y = (int) (area->origin.y + area->size.height / 2);

  return sps_test_pixel_at (texture, x, y) & 0xffffff;
}

/* The thread's row that holds its label (its first row) */
static guint
label_row (Fixture *fixture,
           guint    thread_slice)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  guint track = sps_trace_get_slices (fixture->trace)->track[thread_slice];

  return _sps_timeline_layout_find_track_row (self->layout, track, 0);
}

/* A click on tid 1's label folds it to its representative lane: outer
 * stays where it was, drawn in its colour; mid, leaf and short are no
 * longer drawn, and tid 2's target moves up by the two lanes tid 1 lost.
 * A second click brings them back. */
static void
test_thread_collapse (Fixture       *fixture,
                      gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  graphene_rect_t outer, mid, target, outer_after, target_after;
  int lane;

  before = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "outer"), &outer));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "mid"), &mid));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "target"), &target));
  g_assert_cmphex (pixel_in (fixture, before, &mid), ==, fill_of (fixture, "mid"));
  lane = (int) (mid.origin.y - outer.origin.y);
  g_assert_cmpint (lane, >, 0);

  g_assert_true (_sps_timeline_gutter_toggle_thread (self, label_row (fixture, slice (fixture, "outer"))));
  g_assert_true (sps_session_get_thread_collapsed (fixture->session,
                                                   sps_trace_get_tracks (fixture->trace)->thread[
                                                     sps_trace_get_slices (fixture->trace)->track[slice (fixture, "outer")]]));
  after = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "thread-collapsed");

  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "outer"), &outer_after));
  g_assert_cmpfloat (outer_after.origin.y, ==, outer.origin.y);
  g_assert_cmphex (pixel_in (fixture, after, &outer_after), ==, fill_of (fixture, "outer"));
  g_assert_false (sps_timeline_get_slice_area (self, slice (fixture, "mid"), &mid));
  g_assert_false (sps_timeline_get_slice_area (self, slice (fixture, "short"), &mid));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "target"), &target_after));
  g_assert_cmpfloat (target_after.origin.y, ==, target.origin.y - 2 * lane);
  g_assert_cmphex (pixel_in (fixture, after, &target_after), ==, fill_of (fixture, "target"));

  /* A label row that is no thread's first does nothing */
  g_assert_false (_sps_timeline_gutter_toggle_thread (self, 0));
  g_assert_true (_sps_timeline_gutter_toggle_thread (self, label_row (fixture, slice (fixture, "outer"))));
  g_clear_object (&after);
  after = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "mid"), &mid));
  g_assert_cmphex (pixel_in (fixture, after, &mid), ==, fill_of (fixture, "mid"));
}

/* The filter bar's slider hides exactly the shorter slices: the longest
 * slice is outer (10 µs), so the slider's position 750 of 1000 is
 * 10000^0.75 = 1000 ns: short (100 ns) and leaf (500 ns) go, mid
 * (4000 ns) and outer stay. Typing "50ns" in the entry brings them back;
 * "0.2us" hides short only. */
static void
test_min_duration_slider (Fixture       *fixture,
                          gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GtkWidget *bar = sps_filter_bar_new ();
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  g_autoptr(GdkTexture) typed = NULL;
  GtkWidget *scale;
  GtkWidget *entry;
  graphene_rect_t shrt, leaf, mid;

  g_object_ref_sink (bar);
  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), fixture->session);
  scale = sps_test_find_named (bar, "min-duration-scale");
  entry = sps_test_find_named (bar, "min-duration-entry");
  g_assert_nonnull (scale);
  g_assert_nonnull (entry);

  before = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "short"), &shrt));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "leaf"), &leaf));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "mid"), &mid));
  g_assert_cmphex (pixel_in (fixture, before, &shrt), ==, fill_of (fixture, "short"));
  g_assert_cmphex (pixel_in (fixture, before, &leaf), ==, fill_of (fixture, "leaf"));

  g_assert_cmpfloat_with_epsilon (sps_filter_bar_value_for_duration (SPS_FILTER_BAR (bar), 1000), 750.0, 1e-9);
  gtk_range_set_value (GTK_RANGE (scale), 750);
  g_assert_cmpint (sps_session_get_min_duration (fixture->session), ==, 1000);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "1 µs");
  after = render (fixture);
  g_assert_cmphex (pixel_in (fixture, after, &shrt), !=, fill_of (fixture, "short"));
  g_assert_cmphex (pixel_in (fixture, after, &leaf), !=, fill_of (fixture, "leaf"));
  g_assert_cmphex (pixel_in (fixture, after, &mid), ==, fill_of (fixture, "mid"));
  g_assert_false (sps_session_is_slice_visible (fixture->session, slice (fixture, "short")));
  g_assert_false (sps_session_is_slice_visible (fixture->session, slice (fixture, "leaf")));
  g_assert_true (sps_session_is_slice_visible (fixture->session, slice (fixture, "mid")));
  g_assert_true (sps_session_is_slice_visible (fixture->session, slice (fixture, "target")));

  gtk_editable_set_text (GTK_EDITABLE (entry), "0.2us");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpint (sps_session_get_min_duration (fixture->session), ==, 200);
  typed = render (fixture);
  g_assert_cmphex (pixel_in (fixture, typed, &shrt), !=, fill_of (fixture, "short"));
  g_assert_cmphex (pixel_in (fixture, typed, &leaf), ==, fill_of (fixture, "leaf"));

  /* Not a time: the entry says so and nothing changes */
  gtk_editable_set_text (GTK_EDITABLE (entry), "soon");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_cmpint (sps_session_get_min_duration (fixture->session), ==, 200);

  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpint (sps_session_get_min_duration (fixture->session), ==, 0);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (scale)), ==, 0);

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), NULL);
  g_object_unref (bar);
}

/* The bar's "+" makes a class of the user's and its chip: "shorts" on
 * names "sh*" holds short only; its chip's first click shows only short
 * (outer, mid, leaf, target go), the second hides it, the third shows
 * all again. */
static void
test_new_class_chip (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *bar = g_object_ref_sink (sps_filter_bar_new ());
  GtkWidget *name;
  GtkWidget *pattern;
  GtkWidget *chip;
  const char *all[] = { "outer", "mid", "leaf", "short", "target" };
  const gboolean only[] = { FALSE, FALSE, FALSE, TRUE, FALSE };

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), fixture->session);
  name = sps_test_find_named (bar, "new-class-name");
  pattern = sps_test_find_named (bar, "new-class-pattern");
  g_assert_nonnull (name);
  g_assert_nonnull (pattern);
  g_assert_null (sps_test_find_named (bar, "class-chip-shorts"));

  gtk_editable_set_text (GTK_EDITABLE (name), "shorts");
  gtk_editable_set_text (GTK_EDITABLE (pattern), "sh*");
  g_signal_emit_by_name (pattern, "activate");
  chip = sps_test_find_named (bar, "class-chip-shorts");
  g_assert_nonnull (chip);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "shorts");

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpint (sps_session_get_class_state (fixture->session, "shorts"), ==, SPS_CLASS_REQUIRED);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "Only shorts");
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    g_assert_cmpint (sps_session_is_slice_visible (fixture->session, slice (fixture, all[i])), ==, only[i]);

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "Hide shorts");
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    g_assert_cmpint (sps_session_is_slice_visible (fixture->session, slice (fixture, all[i])), ==, !only[i]);

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpint (sps_session_get_class_state (fixture->session, "shorts"), ==, SPS_CLASS_ANY);
  g_assert_false (sps_session_has_filters (fixture->session));

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), NULL);
  g_object_unref (bar);
}

/* The bar's category chips: a (gpu), b (io), c ("gpu, benchmark"). The
 * gpu chip's first click shows only a and c, the second hides both
 * (c has gpu among its tokens: an excluded class hides it, unlike the
 * Filters panel's check box), the third shows all; its class is
 * "category:gpu" and gets a chip of its own after the first click. */
static void
test_token_chips (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);
  GtkWidget *bar = g_object_ref_sink (sps_filter_bar_new ());
  GtkWidget *chip;
  guint s[3];

  sps_test_add_complete (b, thread, 0, 10, "a", "gpu", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, thread, 20, 10, "b", "io", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, thread, 40, 10, "c", "gpu, benchmark", NULL, SPS_SLICE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  session = sps_session_new (trace);
  for (guint i = 0; i < 3; i++)
    s[i] = sps_test_find_slice (trace, (const char *[]) { "a", "b", "c" }[i], 0);

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), session);
  g_assert_nonnull (sps_test_find_named (bar, "token-chip-benchmark"));
  g_assert_nonnull (sps_test_find_named (bar, "token-chip-io"));
  chip = sps_test_find_named (bar, "token-chip-gpu");
  g_assert_nonnull (chip);

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpint (sps_session_get_class_state (session, "category:gpu"), ==, SPS_CLASS_REQUIRED);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "Only gpu");
  g_assert_nonnull (sps_test_find_named (bar, "class-chip-category:gpu"));
  g_assert_true (sps_session_is_slice_visible (session, s[0]));
  g_assert_false (sps_session_is_slice_visible (session, s[1]));
  g_assert_true (sps_session_is_slice_visible (session, s[2]));

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "Hide gpu");
  g_assert_false (sps_session_is_slice_visible (session, s[0]));
  g_assert_true (sps_session_is_slice_visible (session, s[1]));
  g_assert_false (sps_session_is_slice_visible (session, s[2]));

  g_signal_emit_by_name (chip, "clicked");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (chip)), ==, "gpu");
  g_assert_false (sps_session_has_filters (session));

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), NULL);
  g_object_unref (bar);
}

/* A flow from a hidden slice is drawn from its nearest visible ancestor.
 * The flow leaves leaf at 2000 ns (its end, before target starts) for
 * target at 7000 ns; selected, it is drawn in the accent colour, 2 px
 * wide, and leaves horizontally. Collapsing tid 1 hides leaf: the flow
 * then starts on outer's lane (its ancestor there), so the pixels just
 * right of 2000 ns on outer's middle line turn from outer's colour to
 * the accent; on leaf's old line they were the accent before. */
static void
test_flow_to_collapsed_ancestor (Fixture       *fixture,
                                 gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  guint32 accent = sps_test_rgb_of (&self->style.accent);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  graphene_rect_t outer, leaf;
  int x, y_outer, y_leaf;

  sps_session_set_selected_slice (fixture->session, slice (fixture, "target"));
  before = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "outer"), &outer));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "leaf"), &leaf));
  /* 3 px right of leaf's end (2000 ns): clear of the arrow's start */
  x = (int) (leaf.origin.x + leaf.size.width) + 3;
  /* Row middles: the rectangles leave 1 px above and below */
  y_outer = (int) (outer.origin.y - 1 + (outer.size.height + 2) / 2);
  y_leaf = (int) (leaf.origin.y - 1 + (leaf.size.height + 2) / 2);
  g_test_message ("x %d, outer's line %d, leaf's line %d", x, y_outer, y_leaf);

  g_assert_cmphex (sps_test_pixel_at (before, x, y_leaf) & 0xffffff, ==, accent);
  g_assert_cmphex (sps_test_pixel_at (before, x, y_outer) & 0xffffff, ==, fill_of (fixture, "outer"));

  sps_session_set_thread_collapsed (fixture->session,
                                    sps_trace_get_tracks (fixture->trace)->thread[
                                      sps_trace_get_slices (fixture->trace)->track[slice (fixture, "leaf")]],
                                    TRUE);
  after = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "flow-to-collapsed");
  g_assert_false (sps_timeline_get_slice_area (self, slice (fixture, "leaf"), &leaf));
  g_assert_cmphex (sps_test_pixel_at (after, x, y_outer) & 0xffffff, ==, accent);
}

static guint32
add_slice (SpsTraceBuilder *b,
           guint32          thread,
           SpsTime          ts,
           SpsTime          dur,
           const char      *name)
{
  return sps_trace_builder_add_complete (b, thread, ts, dur, sps_trace_builder_intern (b, name, -1),
                                         sps_trace_builder_intern (b, "cat", -1), SPS_ARGS_REF_NONE,
                                         SPS_SLICE_NONE);
}

/* The flows of @selected, as flow indices in increasing order */
static char *
selected_flows (SpsTimeline *self)
{
  GString *out = g_string_new (NULL);
  g_autofree guint *sorted = g_memdup2 (self->selected_flows->data, sizeof (guint) * self->selected_flows->len);

  for (guint i = 0; i < self->selected_flows->len; i++)
    for (guint j = i + 1; j < self->selected_flows->len; j++)
      if (sorted[j] < sorted[i])
        {
          guint t = sorted[i];

          sorted[i] = sorted[j];
          sorted[j] = t;
        }
  for (guint i = 0; i < self->selected_flows->len; i++)
    g_string_append_printf (out, "%s%u", i > 0 ? " " : "", sorted[i]);
  return g_string_free (out, FALSE);
}

/* The selection's flows follow chains both ways, as Perfetto's: flows
 * 0: a → b, 1: b → c, 2: d → c, 3: c → e. Selecting b draws into b: 0
 * (nothing goes into a) and out of b: 1, then out of c: 3 — not 2,
 * which enters c from elsewhere. Selecting d: 2, then 3. Selecting c:
 * into c: 1 and 2, into b: 0; out of c: 3 — all four. A slice without
 * flows draws none. (By hand from the four edges.) */
static void
test_flow_chains (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autofree char *flows = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (b, process, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (b, process, 2);
  struct { guint32 thread; SpsTime ts; guint32 handle; } s[5] = {
    { t1, 0, 0 }, { t2, 200, 0 }, { t1, 400, 0 }, { t2, 300, 0 }, { t2, 700, 0 },
  };
  const char *names[] = { "a", "b", "c", "d", "e" };
  const guint ends[][2] = { { 0, 1 }, { 1, 2 }, { 3, 2 }, { 2, 4 } };
  const char *expected[] = { "0 1 3", "0 1 3", "0 1 2 3", "2 3", "0 1 2 3" };
  GtkWidget *timeline = NULL;
  GtkWidget *window;
  SpsTimeline *self;

  for (guint i = 0; i < G_N_ELEMENTS (s); i++)
    s[i].handle = add_slice (b, s[i].thread, s[i].ts, 50, names[i]);
  add_slice (b, t2, 900, 10, "lone");
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      const guint from = ends[i][0];
      const guint to = ends[i][1];

      sps_trace_builder_add_flow_point (b, i + 1, SPS_FLOW_START, SPS_FLOW_BIND_SLICE, s[from].thread, s[from].ts + 10,
                                        s[from].handle, 0, 0);
      sps_trace_builder_add_flow_point (b, i + 1, SPS_FLOW_END, SPS_FLOW_BIND_SLICE, s[to].thread, s[to].ts,
                                        s[to].handle, 0, 0);
    }
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 4);
  /* The flow table keeps the order of the keys */
  for (guint i = 0; i < 4; i++)
    g_assert_cmpuint (sps_trace_get_flows (trace)->from_slice[i], ==, sps_test_find_slice (trace, names[ends[i][0]], 0));

  session = sps_session_new (trace);
  window = sps_test_present_timeline (session, WIDTH, HEIGHT, &timeline);
  self = SPS_TIMELINE (timeline);

  /* a: out 0, out of b 1, out of c 3; e: in 3, into c 1 and 2, into b 0 */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      sps_session_set_selected_slice (session, sps_test_find_slice (trace, names[i], 0));
      flows = selected_flows (self);
      g_test_message ("%s: %s", names[i], flows);
      g_assert_cmpstr (flows, ==, expected[i]);
      g_clear_pointer (&flows, g_free);
    }

  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "lone", 0));
  flows = selected_flows (self);
  g_assert_cmpstr (flows, ==, "");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pinning tid 2 moves its row above everything, into the pinned band:
 * target's rectangle then starts right under the ruler (its row's top,
 * plus the 1 px gap), in its colour; thread 1's outer moves down by one
 * lane and the band's separator. */
static void
test_pinned_at_top (Fixture       *fixture,
                    gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  g_autoptr(GdkTexture) after = NULL;
  graphene_rect_t outer, target, outer_after, target_after;
  guint thread = sps_trace_get_tracks (fixture->trace)->thread[
                   sps_trace_get_slices (fixture->trace)->track[slice (fixture, "target")]];

  g_clear_object (&after);
  after = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "outer"), &outer));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "target"), &target));
  g_assert_cmpfloat (target.origin.y, >, outer.origin.y);

  sps_session_set_thread_pinned (fixture->session, thread, TRUE);
  g_clear_object (&after);
  after = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "pinned");
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "target"), &target_after));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "outer"), &outer_after));
  g_assert_cmpfloat (target_after.origin.y, ==, self->ruler_height + 1);
  g_assert_cmpfloat (outer_after.origin.y, ==, outer.origin.y + target.size.height + 2 + SPS_TIMELINE_PIN_SEPARATOR);
  g_assert_cmphex (pixel_in (fixture, after, &target_after), ==, fill_of (fixture, "target"));
}

/* A flag is a line of its colour at its time over the tracks: with the
 * view on 0–9000 ns, 3000 ns is x = 200 + 3000 / 15 = 400 (200 px of
 * gutter, 600 px for 9000 ns: 15 ns a pixel); the columns beside it are
 * not. The add-flag action (M) with the pointer away flags the middle of
 * the view: 4500 ns. */
static void
test_flag_drawn (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  guint32 color = sps_test_rgb_of (_sps_timeline_flag_color ());
  g_autoptr(GdkTexture) texture = NULL;
  GListModel *flags = sps_session_get_flags (fixture->session);
  g_autoptr(SpsFlag) added = NULL;
  int y = HEIGHT - 10;

  sps_session_set_visible (fixture->session, 0, 9000);
  g_assert_cmpint (sps_session_get_visible_start (fixture->session), ==, 0);
  g_assert_cmpint (sps_session_get_visible_end (fixture->session), ==, 9000);
  g_assert_cmpint (sps_timeline_get_gutter_width (self), ==, 200);
  sps_session_add_flag (fixture->session, 3000, "here");
  texture = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "flag");
  g_assert_cmphex (sps_test_pixel_at (texture, 400, y) & 0xffffff, ==, color);
  g_assert_cmphex (sps_test_pixel_at (texture, 399, y) & 0xffffff, !=, color);
  g_assert_cmphex (sps_test_pixel_at (texture, 401, y) & 0xffffff, !=, color);
  /* and its label's flag in the ruler */
  g_assert_cmphex (sps_test_pixel_at (texture, 402, 1) & 0xffffff, ==, color);

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.add-flag", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 2);
  added = g_list_model_get_item (flags, 1);
  g_assert_cmpint (sps_flag_get_time (added), ==, 4500);
  g_assert_cmpstr (sps_flag_get_name (added), ==, "Flag 1");
}

/* Pins, flags and the user's classes go to the trace's settings and come
 * back on another session of the same trace; the session's own classes
 * (categories, error, instrumentation) are not saved. */
static void
test_settings_roundtrip (Fixture       *fixture,
                         gconstpointer  data)
{
  guint thread = sps_trace_get_tracks (fixture->trace)->thread[
                   sps_trace_get_slices (fixture->trace)->track[slice (fixture, "target")]];
  g_autoptr(SpsSession) again = sps_session_new (fixture->trace);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(SpsFlag) flag = NULL;
  g_autoptr(GFile) file = g_file_new_for_path ("/traces/x.json");
  g_autofree char *path = sps_trace_settings_path (file);
  const guint32 *pinned;
  guint n;

  sps_session_set_thread_pinned (fixture->session, thread, TRUE);
  sps_session_add_flag (fixture->session, 3000, "here");
  /* Go to Time's flag is not kept */
  sps_session_mark_go_to_time (fixture->session, 5000);
  g_assert_true (sps_session_add_class_rule (fixture->session, "shorts", SPS_CLASS_RULE_NAME, "sh*", NULL, &error));
  sps_session_set_class_state (fixture->session, "error", SPS_CLASS_EXCLUDED);
  json = sps_trace_settings_to_json (fixture->session, NULL);
  g_test_message ("%s", json);
  g_assert_nonnull (strstr (json, "\"tid\" : 2"));
  g_assert_nonnull (strstr (json, "\"time\" : 3000"));
  g_assert_nonnull (strstr (json, "\"shorts\""));
  g_assert_null (strstr (json, "\"error\""));
  g_assert_null (strstr (json, "5000"));

  g_assert_true (sps_trace_settings_apply (again, json, &error));
  g_assert_no_error (error);
  pinned = sps_session_get_pinned_threads (again, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (pinned[0], ==, thread);
  g_assert_cmpuint (g_list_model_get_n_items (sps_session_get_flags (again)), ==, 1);
  flag = g_list_model_get_item (sps_session_get_flags (again), 0);
  g_assert_cmpint (sps_flag_get_time (flag), ==, 3000);
  g_assert_cmpstr (sps_flag_get_name (flag), ==, "here");
  names = sps_session_dup_class_names (again);
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[2], ==, "shorts");
  json_again = sps_trace_settings_to_json (again, NULL);
  g_assert_cmpstr (json_again, ==, json);

  g_assert_false (sps_trace_settings_apply (again, "[1, 2]", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (sps_trace_settings_apply (again, "{ \"pinned\": ", &error));
  g_clear_error (&error);

  /* Members of the wrong type in the user's file are skipped, without a
   * json-glib critical (the test aborts on one): only the flag at 7000 is
   * well formed. */
  {
    g_autoptr(SpsSession) odd = sps_session_new (fixture->trace);
    g_autoptr(SpsFlag) kept = NULL;

    g_assert_true (sps_trace_settings_apply (odd,
                                             "{ \"pinned\": 3, \"classes\": { \"a\": 1 },"
                                             " \"flags\": [ 1, { \"time\": \"x\" }, { \"time\": {} },"
                                             " { \"time\": 7000, \"name\": \"ok\" } ] }", &error));
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (sps_session_get_flags (odd)), ==, 1);
    kept = g_list_model_get_item (sps_session_get_flags (odd), 0);
    g_assert_cmpint (sps_flag_get_time (kept), ==, 7000);
    sps_session_get_pinned_threads (odd, &n);
    g_assert_cmpuint (n, ==, 0);
  }

  /* One file per trace, under the user's configuration */
  g_assert_true (g_str_has_prefix (path, g_get_user_config_dir ()));
  g_assert_true (g_str_has_suffix (path, ".json"));
}

/* The names of the slices @fixture's session shows, in slice order,
 * joined with spaces */
static char *
shown_slices (Fixture *fixture)
{
  const SpsSliceTable *slices = sps_trace_get_slices (fixture->trace);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < slices->n_rows; i++)
    if (sps_session_is_slice_visible (fixture->session, i))
      {
        if (names->len > 0)
          g_string_append_c (names, ' ');
        g_string_append (names, sps_trace_get_string (fixture->trace, slices->name[i]));
      }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* Focus on leaf (the fixture above, by hand): over its flow alone, leaf
 * and target (2 slices). With "Nesting" on, a hop also goes up
 * to the parent and down to the children: depth 1 adds mid (3), depth 2
 * outer (4), depth 3 outer's other child, short (all 5). Only outgoing:
 * leaf has no children, so target alone joins it again. */
static void
test_focus_parent_child (Fixture       *fixture,
                         gconstpointer  data)
{
  SpsTimeline *self = SPS_TIMELINE (fixture->timeline);
  GtkWidget *bar = g_object_ref_sink (sps_filter_bar_new ());
  g_autoptr(GdkTexture) flows_only = NULL;
  g_autoptr(GdkTexture) nested = NULL;
  GtkWidget *check;
  GtkWidget *depth;
  graphene_rect_t mid;
  char *shown;

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), fixture->session);
  check = sps_test_find_named (bar, "focus-parent-child");
  depth = sps_test_find_named (bar, "focus-depth");
  g_assert_nonnull (check);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_true (sps_timeline_get_slice_area (self, slice (fixture, "mid"), &mid));

  sps_session_set_selected_slice (fixture->session, slice (fixture, "leaf"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (sps_test_find_named (bar, "focus-toggle")), TRUE);
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "leaf target");
  g_free (shown);
  flows_only = render (fixture);
  g_assert_cmphex (pixel_in (fixture, flows_only, &mid), !=, fill_of (fixture, "mid"));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_assert_true (sps_session_get_focus_parent_child (fixture->session));
  g_assert_true (sps_view_filter_get_focus_parent_child (sps_session_get_view_filter (fixture->session)));
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "mid leaf target");
  g_free (shown);
  nested = render (fixture);
  sps_test_maybe_screenshot (fixture->window, "focus-parent-child");
  g_assert_cmphex (pixel_in (fixture, nested, &mid), ==, fill_of (fixture, "mid"));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (depth), 2);
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "outer mid leaf target");
  g_free (shown);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (depth), 3);
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "outer mid leaf short target");
  g_free (shown);

  sps_session_set_focus_direction (fixture->session, SPS_FOCUS_OUTGOING);
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "leaf target");
  g_free (shown);

  /* Off again: flows only, whatever the depth; the bar mirrors the
   * session when the session changes */
  sps_session_set_focus_direction (fixture->session, SPS_FOCUS_BOTH);
  sps_session_set_focus_parent_child (fixture->session, FALSE);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_cmpstr ((shown = shown_slices (fixture)), ==, "leaf target");
  g_free (shown);

  sps_filter_bar_set_session (SPS_FILTER_BAR (bar), NULL);
  g_object_unref (bar);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/ui/filter-controls/thread-collapse", Fixture, NULL,
              fixture_set_up, test_thread_collapse, fixture_tear_down);
  g_test_add ("/ui/filter-controls/min-duration-slider", Fixture, NULL,
              fixture_set_up, test_min_duration_slider, fixture_tear_down);
  g_test_add ("/ui/filter-controls/focus-parent-child", Fixture, NULL,
              fixture_set_up, test_focus_parent_child, fixture_tear_down);
  g_test_add ("/ui/filter-controls/new-class-chip", Fixture, NULL,
              fixture_set_up, test_new_class_chip, fixture_tear_down);
  g_test_add ("/ui/filter-controls/flow-to-collapsed-ancestor", Fixture, NULL,
              fixture_set_up, test_flow_to_collapsed_ancestor, fixture_tear_down);
  g_test_add_func ("/ui/filter-controls/flow-chains", test_flow_chains);
  g_test_add_func ("/ui/filter-controls/token-chips", test_token_chips);
  g_test_add ("/ui/filter-controls/pinned-at-top", Fixture, NULL,
              fixture_set_up, test_pinned_at_top, fixture_tear_down);
  g_test_add ("/ui/filter-controls/flag-drawn", Fixture, NULL,
              fixture_set_up, test_flag_drawn, fixture_tear_down);
  g_test_add ("/ui/filter-controls/settings-roundtrip", Fixture, NULL,
              fixture_set_up, test_settings_roundtrip, fixture_tear_down);

  return g_test_run ();
}
