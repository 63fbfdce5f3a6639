/* sps-test-util.c: helpers shared by the test programs (no display needed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-util"

#include "config.h"

#include <unistd.h>

#include <glib/gstdio.h>

#include "sps-test-util.h"

void
sps_test_run_clear (SpsTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* Runs spanscope-cli (the path in SPANSCOPE_CLI) with the NULL-terminated
 * @args, and fills @run with its exit status and output.
 */
void
sps_test_run_cli (SpsTestRun         *run,
                  const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("SPANSCOPE_CLI");

  g_assert_nonnull (cli);

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);

  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);

  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);

  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", run->status, run->out, run->err);
}

/* The same, with the arguments as a NULL-terminated list. */
void
sps_test_run_cli_va (SpsTestRun *run,
                     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  va_start (ap, run);
  for (arg = va_arg (ap, const char *); arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  sps_test_run_cli (run, (const char * const *) args->pdata);
}

/* A file in tests/fixtures. */
char *
sps_test_fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", name, NULL);
}

/* Loads @path through the plugin engine; it must load. */
SpsTrace *
sps_test_load_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);

  return trace;
}

/* Finishes @builder, which must succeed. */
SpsTrace *
sps_test_finish (SpsTraceBuilder *builder)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_builder_finish (builder, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);

  return trace;
}

/* Runs @sql, which must succeed (the message names the statement). */
SpsSqlResult *
sps_test_sql_query (SpsSqlEngine *engine,
                    const char   *sql)
{
  g_autoptr(GError) error = NULL;
  SpsSqlResult *result = sps_sql_engine_query (engine, sql, NULL, NULL, &error);

  if (error != NULL)
    g_error ("%s: %s", sql, error->message);
  g_assert_nonnull (result);
  return result;
}

/* Every cell of @result as text, rows as lines, cells split by "|", NULL
 * as "∅" */
char *
sps_test_sql_dump (SpsSqlResult *result)
{
  GString *out = g_string_new (NULL);

  for (guint row = 0; row < sps_sql_result_get_n_rows (result); row++)
    {
      for (guint col = 0; col < sps_sql_result_get_n_columns (result); col++)
        {
          g_autofree char *text = sps_sql_result_dup_display_text (result, row, col);

          g_string_append (out, col > 0 ? "|" : "");
          g_string_append (out, text != NULL ? text : "∅");
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* The args of the earliest event of events_raw named @name; there must
 * be one. */
char *
sps_test_first_event_args (SpsSqlEngine *engine,
                           const char   *name)
{
  g_autofree char *sql = g_strdup_printf ("SELECT args FROM events_raw WHERE name = '%s' ORDER BY ts LIMIT 1",
                                          name);
  g_autoptr(SpsSqlResult) result = sps_test_sql_query (engine, sql);

  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  return g_strdup (sps_sql_result_get_text (result, 0, 0));
}

/* Loads a file of tests/fixtures; it must load. */
SpsTrace *
sps_test_load_fixture (const char *name)
{
  g_autofree char *path = sps_test_fixture_path (name);

  return sps_test_load_path (path);
}

/* $SPANSCOPE_SHARED_FIXTURES/@subdir/@name, or NULL after g_test_skip()
 * when the variable is unset or the file is missing.
 */
char *
sps_test_shared_fixture_path (const char *subdir,
                              const char *name)
{
  const char *root = g_getenv ("SPANSCOPE_SHARED_FIXTURES");
  g_autofree char *path = NULL;

  if (root == NULL || root[0] == '\0')
    {
      g_test_skip ("SPANSCOPE_SHARED_FIXTURES is not set");
      return NULL;
    }

  path = g_build_filename (root, subdir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip_printf ("%s is missing", path);
      return NULL;
    }

  return g_steal_pointer (&path);
}

/* Writes @contents to @dir/@relative (making the folders on the way) and
 * returns the path.
 */
char *
sps_test_write_file (const char *dir,
                     const char *relative,
                     const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

/* Writes @len bytes to @name in a new temporary folder named after
 * @dir_template (g_dir_make_tmp()) and returns the path.
 */
char *
sps_test_write_temp (const char *dir_template,
                     const char *name,
                     const void *data,
                     gsize       len)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp (dir_template, &error);
  char *path;

  g_assert_no_error (error);
  path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);

  return path;
}

/* A new temporary folder holding one folder per plugin of @names, each
 * with links to the plugin's NAME.plugin file and its module libMODULE.so
 * (MODULE is NAME with "_" for "-") built in the tests' folder
 * @built_dir. An engine given one of those folders finds that plugin
 * alone. Made once per test program: libpeas's C loader is shared by the
 * engines of a process and keeps a module by its path, so every engine
 * must find a module where the others did. Returns the folder.
 */
char *
sps_test_link_plugin_folders (const char         *built_dir,
                              const char * const *names)
{
  g_autoptr(GError) error = NULL;
  char *root = g_dir_make_tmp ("sps-plugins-XXXXXX", &error);

  g_assert_no_error (error);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *module = g_strdelimit (g_strdup (names[i]), "-", '_');
      g_autofree char *so = g_strdup_printf ("lib%s.so", module);
      g_autofree char *info = g_strdup_printf ("%s.plugin", names[i]);
      g_autofree char *folder = g_build_filename (root, names[i], NULL);
      const char *files[] = { so, info };

      g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
      for (guint j = 0; j < G_N_ELEMENTS (files); j++)
        {
          g_autofree char *target = g_test_build_filename (G_TEST_BUILT, built_dir, files[j], NULL);
          g_autofree char *link = g_build_filename (folder, files[j], NULL);

          g_assert_cmpint (symlink (target, link), ==, 0);
        }
    }

  return root;
}

/* Removes @path and, for a folder, everything in it; symbolic links are
 * removed, never followed.
 */
void
sps_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK)
      && (dir = g_dir_open (path, 0, NULL)) != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          sps_test_remove_tree (child);
        }
    }

  g_remove (path);
}

/* The index of the slice named @name, the @nth (from 0) in table order;
 * fails the test when there is none. */
guint
sps_test_find_slice (SpsTrace   *trace,
                     const char *name,
                     guint       nth)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < slices->n_rows; i++)
    {
      if (g_strcmp0 (sps_trace_get_string (trace, slices->name[i]), name) == 0 && nth-- == 0)
        return i;
    }

  g_error ("no slice named “%s”", name);
  return SPS_NO_INDEX;
}

/* Adds a complete slice with interned @name and @category, and @args (JSON
 * object text) unless NULL; returns the builder's handle of the slice
 * (for flows). */
guint32
sps_test_add_complete (SpsTraceBuilder *builder,
                       guint32          thread,
                       SpsTime          ts,
                       SpsTime          dur,
                       const char      *name,
                       const char      *category,
                       const char      *args,
                       SpsSliceFlags    flags)
{
  return sps_trace_builder_add_complete (builder, thread, ts, dur,
                                         sps_trace_builder_intern (builder, name, -1),
                                         sps_trace_builder_intern (builder, category, -1),
                                         args != NULL ? sps_trace_builder_add_args_text (builder, args, -1)
                                                      : SPS_ARGS_REF_NONE,
                                         flags);
}

/* A flow of @key from slice handle @from (on @from_thread at @from_ts) to
 * @to, both bound to their slices. */
void
sps_test_add_flow (SpsTraceBuilder *builder,
                   guint64          key,
                   guint32          from_thread,
                   SpsTime          from_ts,
                   guint32          from,
                   guint32          to_thread,
                   SpsTime          to_ts,
                   guint32          to)
{
  sps_trace_builder_add_flow_point (builder, key, SPS_FLOW_START, SPS_FLOW_BIND_SLICE, from_thread, from_ts, from, 0, 0);
  sps_trace_builder_add_flow_point (builder, key, SPS_FLOW_END, SPS_FLOW_BIND_SLICE, to_thread, to_ts, to, 0, 0);
}

/* The status of the plugin whose module is @module_name, or NULL. */
SpsPluginStatus *
sps_test_find_plugin_status (SpsPluginEngine *engine,
                             const char      *module_name)
{
  g_autoptr(GListModel) list = sps_plugin_engine_list_status (engine);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);

      if (g_strcmp0 (sps_plugin_status_get_module_name (status), module_name) == 0)
        return g_steal_pointer (&status);
    }

  return NULL;
}

/* @data compressed as one gzip member at @level (1 to 9) */
GBytes *
sps_test_gzip (const void *data,
               gsize       len,
               int         level)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, level);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      guint8 buffer[65536];
      gsize bytes_read = 0, bytes_written = 0;
      GConverterResult res;

      res = g_converter_convert (G_CONVERTER (compressor), (const guint8 *) data + in_pos, len - in_pos,
                                 buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                 &bytes_read, &bytes_written, NULL);
      g_assert_cmpint (res, !=, G_CONVERTER_ERROR);
      in_pos += bytes_read;
      g_byte_array_append (out, buffer, bytes_written);
      if (res == G_CONVERTER_FINISHED)
        return g_byte_array_free_to_bytes (g_steal_pointer (&out));
    }
}

/* The decoder of deferred args of sps-test-util.h */

struct _SpsTestDecoder
{
  GObject parent_instance;
  guint   n_calls;
};

static gboolean
sps_test_decoder_decode (SpsArgsDecoder *decoder,
                         guint64         cookie,
                         GString        *json,
                         GError        **error)
{
  SpsTestDecoder *self = SPS_TEST_DECODER (decoder);

  self->n_calls++;
  /* Something appended before the failure: the caller must drop it */
  g_string_append (json, "{\"n\":");
  if (cookie == 99)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "cookie 99");
      return FALSE;
    }
  g_string_append_printf (json, "%" G_GUINT64_FORMAT "}", cookie);
  return TRUE;
}

static void
sps_test_decoder_iface_init (SpsArgsDecoderInterface *iface)
{
  iface->decode = sps_test_decoder_decode;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsTestDecoder, sps_test_decoder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_ARGS_DECODER, sps_test_decoder_iface_init))

static void
sps_test_decoder_class_init (SpsTestDecoderClass *klass)
{
}

static void
sps_test_decoder_init (SpsTestDecoder *self)
{
}

/* A new decoder of that kind, to give a builder */
SpsTestDecoder *
sps_test_decoder_new (void)
{
  return g_object_new (SPS_TYPE_TEST_DECODER, NULL);
}

/* How many times it decoded (or tried to) */
guint
sps_test_decoder_get_n_calls (SpsTestDecoder *self)
{
  return self->n_calls;
}
