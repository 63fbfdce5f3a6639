/* test-ui-screenshots.c: `spanscope --screenshot` on every trace we have
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The window must survive every file: each fixture of our own (the
 * degenerate time spans among them), every file of ../shared/fixtures
 * (and the .nettrace files inside its zips) is rendered by the program
 * with --screenshot, and each run must exit 0 (loaded) or 1 (refused,
 * the image then shows the error page) with a PNG of exactly the size
 * asked for. The runs go two (or as many as there are cores) at a time.
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "sps-test-util.h"
#include "sps-time-ruler-private.h"

typedef enum
{
  EXPECT_EITHER,   /* loads or is refused; no crash either way */
  EXPECT_LOADS,
  EXPECT_REFUSED,
} Expect;

typedef struct
{
  char   *path;
  Expect  expect;
  char   *png;
  int     status;   /* exit status, or -1 for a signal */
  char   *err;
} Shot;

static void
shot_free (gpointer data)
{
  Shot *shot = data;

  if (shot->png != NULL)
    g_unlink (shot->png);
  g_free (shot->path);
  g_free (shot->png);
  g_free (shot->err);
  g_free (shot);
}

typedef struct
{
  GPtrArray  *shots;
  guint       next;
  guint       running;
  const char *size;
  const char *dir;
  GMainLoop  *loop;
} Batch;

static void batch_start_next (Batch *batch);

/* Reads the size of the PNG at @path from its IHDR chunk; FALSE when the
 * file is no PNG. */
static gboolean
png_size (const char *path,
          guint32    *width,
          guint32    *height)
{
  static const guchar signature[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL) || len < 24 ||
      memcmp (data, signature, sizeof signature) != 0 || memcmp (data + 12, "IHDR", 4) != 0)
    return FALSE;

  *width = GUINT32_FROM_BE (*(guint32 *) (data + 16));
  *height = GUINT32_FROM_BE (*(guint32 *) (data + 20));

  return TRUE;
}

static void
on_shot_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GSubprocess *process = G_SUBPROCESS (object);
  Batch *batch = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  Shot *shot = g_object_get_data (object, "shot");

  g_subprocess_communicate_utf8_finish (process, result, NULL, &err, &error);
  g_assert_no_error (error);

  shot->err = g_steal_pointer (&err);
  shot->status = g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
  g_object_unref (process);

  batch->running--;
  batch_start_next (batch);
  if (batch->running == 0 && batch->next == batch->shots->len)
    g_main_loop_quit (batch->loop);
}

static void
batch_start_next (Batch *batch)
{
  guint parallel = MAX (g_get_num_processors (), 2);

  while (batch->running < parallel && batch->next < batch->shots->len)
    {
      Shot *shot = g_ptr_array_index (batch->shots, batch->next);
      g_autofree char *name = g_strdup_printf ("shot-%u.png", batch->next);
      g_autoptr(GError) error = NULL;
      GSubprocess *process;

      shot->png = g_build_filename (batch->dir, name, NULL);
      process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                  g_getenv ("SPANSCOPE_EXE"), "--screenshot", shot->png,
                                  "--size", batch->size, shot->path, NULL);
      g_assert_no_error (error);
      g_object_set_data (G_OBJECT (process), "shot", shot);
      g_subprocess_communicate_utf8_async (process, NULL, NULL, on_shot_done, batch);
      batch->next++;
      batch->running++;
    }
}

/* Runs every shot of @shots at @size and checks what each gave. */
static void
run_shots (GPtrArray  *shots,
           const char *size)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-shots-XXXXXX", NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Batch batch = { shots, 0, 0, size, dir, loop };
  guint64 want_width = 0;
  guint64 want_height = 0;
  guint loaded = 0;
  guint refused = 0;
  g_auto(GStrv) parts = g_strsplit (size, "x", 2);

  g_assert_true (g_ascii_string_to_unsigned (parts[0], 10, 1, 100000, &want_width, NULL));
  g_assert_true (g_ascii_string_to_unsigned (parts[1], 10, 1, 100000, &want_height, NULL));
  g_assert_cmpuint (shots->len, >, 0);

  batch_start_next (&batch);
  g_main_loop_run (loop);

  for (guint i = 0; i < shots->len; i++)
    {
      Shot *shot = g_ptr_array_index (shots, i);
      guint32 width = 0;
      guint32 height = 0;

      g_test_message ("%s: exit %d", shot->path, shot->status);
      if (shot->status != 0 && shot->status != 1)
        g_test_message ("stderr: %s", shot->err);

      /* Never a crash, an abort or a usage error */
      g_assert_cmpint (shot->status, >=, 0);
      g_assert_cmpint (shot->status, <=, 1);
      g_assert_null (strstr (shot->err, "CRITICAL"));
      if (shot->expect == EXPECT_LOADS)
        g_assert_cmpint (shot->status, ==, 0);
      else if (shot->expect == EXPECT_REFUSED)
        g_assert_cmpint (shot->status, ==, 1);

      /* A refused file still gives the image of its error page */
      g_assert_true (png_size (shot->png, &width, &height));
      g_assert_cmpuint (width, ==, want_width);
      g_assert_cmpuint (height, ==, want_height);

      if (shot->status == 0)
        loaded++;
      else
        refused++;
    }

  g_test_message ("%u files loaded, %u refused", loaded, refused);
  sps_test_remove_tree (dir);
}

static void
add_shot (GPtrArray  *shots,
          const char *path,
          Expect      expect)
{
  Shot *shot = g_new0 (Shot, 1);

  shot->path = g_strdup (path);
  shot->expect = expect;
  g_ptr_array_add (shots, shot);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The files of @dir, sorted, with their full paths */
static GPtrArray *
list_dir (const char *dir)
{
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  handle = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (handle)))
    g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, compare_paths);

  return names;
}

/* Our own fixtures: the degenerate spans must load, the malformed files
 * may be refused. */
static void
test_own_fixtures (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autoptr(GPtrArray) files = list_dir (dir);
  g_autoptr(GPtrArray) shots = g_ptr_array_new_with_free_func (shot_free);
  guint n_spans = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autofree char *base = g_path_get_basename (path);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      if (g_str_has_prefix (base, "span-"))
        n_spans++;
      add_shot (shots, path, g_str_has_prefix (base, "span-") ? EXPECT_LOADS : EXPECT_EITHER);
    }

  /* zero span, one zero slice, one event (truncated), one timestamp,
   * negative times, the ends of gint64, metadata only, counters only */
  g_assert_cmpuint (n_spans, ==, 8);

  run_shots (shots, "900x560");
}

/* The image is written as every save is: a FIFO in its place is refused
 * (opening it would wait for a reader), with its name, and left alone */
static void
test_output_fifo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-shots-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              g_getenv ("SPANSCOPE_EXE"), "--screenshot", fifo, demo, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);

  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  expected = g_strdup_printf ("spanscope: %s: not a regular file (a FIFO); it is not replaced\n", fifo);
  g_assert_true (g_str_has_suffix (err, expected));
  g_assert_cmpint (g_stat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  sps_test_remove_tree (dir);
}

/* Where its name says what it holds: a trace format we read must load
 * (ETW traces too, bare or in PerfView's zips), a format we do not read
 * (text, NetPerf, other zips as they are, a counters resource alone) must
 * be refused; anything else may go either way. */
static Expect
expect_for_shared (const char *path)
{
  if (g_str_has_suffix (path, ".nettrace") || g_str_has_suffix (path, ".etl") ||
      g_str_has_suffix (path, ".etl.zip") || g_str_has_suffix (path, ".etls.zip") ||
      (strstr (path, G_DIR_SEPARATOR_S "chrome" G_DIR_SEPARATOR_S) != NULL &&
       (g_str_has_suffix (path, ".json") || g_str_has_suffix (path, ".json.gz"))))
    return EXPECT_LOADS;

  if (g_str_has_suffix (path, ".md") || g_str_has_suffix (path, ".txt") ||
      g_str_has_suffix (path, ".zip") ||
      g_str_has_suffix (path, ".netperf") || g_str_has_suffix (path, ".counters"))
    return EXPECT_REFUSED;

  return EXPECT_EITHER;
}

static void
add_shared_dir (GPtrArray  *shots,
                const char *dir,
                const char *unzip_dir)
{
  g_autoptr(GPtrArray) files = list_dir (dir);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          add_shared_dir (shots, path, unzip_dir);
          continue;
        }

      add_shot (shots, path, expect_for_shared (path));

      /* The EventPipe captures inside zips (the ETW zips are read as
       * they are). */
      if (g_str_has_suffix (path, ".zip") &&
          (strstr (path, ".nettrace") != NULL || strstr (path, ".netperf") != NULL))
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *into = g_build_filename (unzip_dir, base, NULL);
          const char *argv[] = { "unzip", "-q", "-o", path, "-d", into, NULL };
          g_autoptr(GError) error = NULL;
          int status = 0;

          g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                        NULL, NULL, &status, &error);
          g_assert_no_error (error);
          g_assert_true (g_spawn_check_wait_status (status, NULL));
          add_shared_dir (shots, into, unzip_dir);
        }
    }
}

static void
test_shared_fixtures (void)
{
  const char *root = g_getenv ("SPANSCOPE_SHARED_FIXTURES");
  g_autoptr(GPtrArray) shots = g_ptr_array_new_with_free_func (shot_free);
  g_autofree char *unzip_dir = NULL;
  g_autofree char *unzip = g_find_program_in_path ("unzip");

  if (root == NULL || !g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SPANSCOPE_SHARED_FIXTURES is not set or missing");
      return;
    }
#if defined (__SANITIZE_ADDRESS__)
  /* About 100 window processes take over half an hour under
   * AddressSanitizer. The plain build opens every file here; the
   * importers read each of them under the sanitizers in the fixture
   * tests, and the fuzzers start from them. */
  g_test_skip ("the shared corpus is opened in the window by the plain build only");
  return;
#endif
  /* build-aux/dev installs it for the tests */
  g_assert_nonnull (unzip);

  unzip_dir = g_dir_make_tmp ("spanscope-unzip-XXXXXX", NULL);
  add_shared_dir (shots, root, unzip_dir);
  run_shots (shots, "900x560");

  sps_test_remove_tree (unzip_dir);
}

/* Larger than the 1280×1024 screen of the test's display: rendered
 * offscreen at exactly that size, not clamped to the monitor. */
static void
test_larger_than_screen (void)
{
  g_autoptr(GPtrArray) shots = g_ptr_array_new_with_free_func (shot_free);
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autofree char *garbage = g_test_build_filename (G_TEST_DIST, "fixtures", "chrome-garbage.json", NULL);

  add_shot (shots, demo, EXPECT_LOADS);
  add_shot (shots, garbage, EXPECT_REFUSED);
  run_shots (shots, "4000x3000");
}

/* Smaller than the window can be (its header bar and panels need more):
 * still an image of exactly that size, the window's top-left part */
static void
test_smaller_than_window (void)
{
  g_autoptr(GPtrArray) shots = g_ptr_array_new_with_free_func (shot_free);
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);

  add_shot (shots, demo, EXPECT_LOADS);
  run_shots (shots, "200x150");
  g_assert_nonnull (strstr (((Shot *) g_ptr_array_index (shots, 0))->err, "top-left part"));
}

/* A trace that takes seconds to load: the image waits for it. Under
 * AddressSanitizer a fifth of it takes as long. */
#if defined (__SANITIZE_ADDRESS__)
# define LARGE_TRACE_EVENTS "200000"
#else
# define LARGE_TRACE_EVENTS "1000000"
#endif

static void
test_large_trace (void)
{
  g_autoptr(GPtrArray) shots = g_ptr_array_new_with_free_func (shot_free);
  g_autofree char *dir = g_dir_make_tmp ("spanscope-large-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "large.json", NULL);
  const char *argv[] = { g_getenv ("SPANSCOPE_GEN_TRACE"), LARGE_TRACE_EVENTS, path, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  add_shot (shots, path, EXPECT_LOADS);
  run_shots (shots, "1400x900");

  g_unlink (path);
  g_rmdir (dir);
}

/* The ruler of a degenerate window: a scale for every span, ticks with a
 * positive step, and labels, also at the ends of gint64. */
static void
test_ruler_degenerate (void)
{
  static const struct {
    SpsTime origin;
    SpsTime start;
    SpsTime end;
  } cases[] = {
    { 0, 0, 0 },                                  /* zero span */
    { 1500000, 1500000, 1500000 },
    { 100, 100, 50 },                             /* reversed */
    { -5000000, -5000000, -1000000 },             /* negative */
    { G_MAXINT64, G_MAXINT64, G_MAXINT64 },       /* at the largest time */
    { G_MININT64, G_MININT64, G_MININT64 },
    { G_MININT64, G_MININT64, G_MAXINT64 },       /* everything */
    { G_MININT64, G_MAXINT64 - 10, G_MAXINT64 },  /* far from the origin */
    { G_MAXINT64, G_MININT64, G_MININT64 + 10 },
  };
  GtkWidget *label = gtk_label_new (NULL);
  g_autoptr(PangoLayout) layout = NULL;
  SpsTimeRulerCache *cache = _sps_time_ruler_cache_new ();

  g_object_ref_sink (label);
  layout = gtk_widget_create_pango_layout (label, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SpsTimeRulerScale scale;
      g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      SpsTimeRulerColors colors = { { 1, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 } };
      SpsTime first;

      _sps_time_ruler_scale_init (&scale, cache, layout, cases[i].origin, cases[i].start, cases[i].end, 800);
      g_assert_cmpint (scale.step, >, 0);
      g_assert_cmpint (scale.end, >, scale.start);
      g_assert_cmpfloat (scale.ns_per_pixel, >, 0);
      g_assert_cmpuint (scale.step % scale.n_minor, ==, 0);

      first = _sps_time_ruler_first_tick (&scale);
      /* At or after the start, and within one step of it unless there
       * is no tick before the end of time */
      g_assert_cmpint (first, >=, scale.start);
      if (first != G_MAXINT64)
        g_assert_cmpuint ((guint64) first - (guint64) scale.start, <, (guint64) scale.step);

      /* Drawing walks every tick: this is where a zero minor step
       * divided by zero. */
      _sps_time_ruler_snapshot (snapshot, cache, layout, &scale, &colors, 24, 0, -1);
      _sps_time_ruler_snapshot_grid (snapshot, &scale, &colors.tick, 100);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      g_assert_nonnull (node);
    }

  /* A zero span at 1.5 ms shows 1 ns steps around it, labelled from the
   * origin: the tick at the start reads 0 ns. */
  {
    SpsTimeRulerScale scale;
    g_autofree char *text = NULL;

    _sps_time_ruler_scale_init (&scale, cache, layout, 1500000, 1500000, 1500000, 800);
    g_assert_cmpint (scale.start, ==, 1500000);
    g_assert_cmpint (scale.end, ==, 1500001);
    g_assert_cmpint (scale.step, ==, 1);
    g_assert_cmpint (scale.n_minor, ==, 1);
    g_assert_cmpint (_sps_time_ruler_first_tick (&scale), ==, 1500000);
    text = _sps_time_ruler_format_tick (&scale, 1500000);
    g_assert_cmpstr (text, ==, "0 ns");
  }

  /* Labels of ticks further from the origin than a gint64 holds: whole
   * seconds, not a saturated or wrapped value. */
  {
    SpsTimeRulerScale scale;
    g_autofree char *text = NULL;

    _sps_time_ruler_scale_init (&scale, cache, layout, G_MININT64, G_MININT64, G_MAXINT64, 800);
    text = _sps_time_ruler_format_tick (&scale, G_MAXINT64 - 1);
    g_assert_cmpstr (text, ==, "18446744073 s");
  }

  _sps_time_ruler_cache_free (cache);
  g_object_unref (label);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/screenshots/ruler-degenerate", test_ruler_degenerate);
  g_test_add_func ("/ui/screenshots/own-fixtures", test_own_fixtures);
  g_test_add_func ("/ui/screenshots/shared-fixtures", test_shared_fixtures);
  g_test_add_func ("/ui/screenshots/larger-than-screen", test_larger_than_screen);
  g_test_add_func ("/ui/screenshots/smaller-than-window", test_smaller_than_window);
  g_test_add_func ("/ui/screenshots/large-trace", test_large_trace);
  g_test_add_func ("/ui/screenshots/output-fifo", test_output_fifo);

  return g_test_run ();
}
