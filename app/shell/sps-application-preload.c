/* sps-application-preload.c: the trace named on the command line, loading
 * while GTK starts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: the first few tenths of a second of the process go to GTK's
 * start-up (the display, fonts, styles) and the window, before a window
 * can start loading the file it was opened with. A trace named on the
 * command line starts loading first, on the import's worker threads, and
 * the window that opens it takes over the running load: its progress,
 * its cancellable and its result. A window that opens it with other
 * importer options, or another file, loads as before, and a load no
 * window took over is cancelled when the application ends.
 */

#define G_LOG_DOMAIN "spanscope"

#include "config.h"

#include <string.h>

#include "sps-application-private.h"

struct _SpsPreload
{
  GFile              *file;
  GVariant           *options;
  GCancellable       *cancellable;
  SpsProgress        *progress;
  /* Once loaded, until a window takes it */
  GObject            *source;
  GAsyncResult       *result;
  /* The window's, once it took the load over */
  GAsyncReadyCallback callback;
  gpointer            user_data;
  gboolean            dropped;
};

static void
preload_free (SpsPreload *preload)
{
  g_clear_object (&preload->file);
  g_clear_pointer (&preload->options, g_variant_unref);
  g_clear_object (&preload->cancellable);
  g_clear_object (&preload->progress);
  g_clear_object (&preload->source);
  g_clear_object (&preload->result);
  g_free (preload);
}

/* The options that take a value in the next argument when written
 * without "=" (main.c adds --trace) */
static const char * const valued_options[] = { "screenshot", "size", "range", "broadway", NULL };
/* Options that change how the trace loads, or that the load must be
 * seen by (--trace records it): no preload */
static const char * const loading_options[] = { "ns", "us", "ms", "s", "trace", NULL };

/**
 * _sps_application_preload_path:
 * @argv: (array zero-terminated=1): the command line, as
 *   _sps_application_rewrite_arguments() leaves it
 *
 * Returns: (transfer full) (nullable): the one trace file the command line
 *   names, when it names exactly one and no option that changes how it
 *   loads; %NULL otherwise (nothing is preloaded then)
 */
char *
_sps_application_preload_path (char **argv)
{
  const char *found = NULL;
  gboolean files_only = FALSE;

  for (int i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (!files_only && strcmp (arg, "--") == 0)
        {
          files_only = TRUE;
          continue;
        }
      if (!files_only && arg[0] == '-' && arg[1] == '-')
        {
          g_autofree char *name = g_strndup (arg + 2, strcspn (arg + 2, "="));

          if (g_strv_contains (loading_options, name))
            return NULL;
          if (!g_strv_contains (valued_options, name))
            {
              /* An option of no value (--version) or one we do not know:
               * only the first is safe to pass over */
              if (strcmp (name, "version") != 0)
                return NULL;
              continue;
            }
          if (strchr (arg, '=') == NULL && argv[i + 1] != NULL)
            i++;
          continue;
        }
      if (!files_only && arg[0] == '-' && arg[1] != '\0')
        return NULL;
      if (found != NULL)
        return NULL;
      found = arg;
    }

  if (found == NULL || !g_file_test (found, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return g_strdup (found);
}

static void
preload_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SpsPreload *preload = user_data;

  if (preload->callback != NULL)
    {
      preload->callback (source, result, preload->user_data);
      preload_free (preload);
      return;
    }
  if (preload->dropped)
    {
      preload_free (preload);
      return;
    }
  /* Nobody took it yet: kept for the window that will */
  g_set_object (&preload->source, source);
  g_set_object (&preload->result, result);
}

/**
 * _sps_application_preload:
 * @self: the application, before it runs
 * @file: the trace named on its command line
 *
 * Starts loading @file with the importer options a window would use for
 * it (the timestamp unit of the settings).
 */
void
_sps_application_preload (SpsApplication *self,
                          GFile          *file)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *unit = g_settings_get_string (settings, "timestamp-unit");
  SpsPreload *preload;

  g_return_if_fail (SPS_IS_APPLICATION (self));
  g_return_if_fail (self->preload == NULL);

  preload = g_new0 (SpsPreload, 1);
  preload->file = g_object_ref (file);
  /* As sps_application_dup_import_options() makes them */
  preload->options = _sps_application_unit_options (unit);
  preload->cancellable = g_cancellable_new ();
  preload->progress = sps_progress_new (preload->cancellable);
  self->preload = preload;

  sps_trace_load_async (file, NULL, preload->options, SPS_LOAD_FLAGS_NONE,
                        preload->progress, preload->cancellable, preload_cb, preload);
}

static gboolean
deliver_idle (gpointer user_data)
{
  SpsPreload *preload = user_data;

  preload->callback (preload->source, preload->result, preload->user_data);
  preload_free (preload);
  return G_SOURCE_REMOVE;
}

/**
 * _sps_application_take_preload:
 * @self: the application
 * @file: the trace a window is about to load
 * @options: (nullable): the importer options it loads with
 * @progress: (out) (transfer full): the load's progress
 * @cancellable: (out) (transfer full): the load's cancellable
 * @callback: what to call with the load's result, as
 *   sps_trace_load_async() would
 * @user_data: for @callback
 *
 * Takes over the load of @file started before the application ran, when
 * it is that file with those options. Any other request drops it: a
 * preload is for the first window only.
 *
 * Returns: %TRUE when the window took the load over
 */
gboolean
_sps_application_take_preload (SpsApplication      *self,
                               GFile               *file,
                               GVariant            *options,
                               SpsProgress        **progress,
                               GCancellable       **cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  SpsPreload *preload = g_steal_pointer (&self->preload);

  if (preload == NULL)
    return FALSE;

  if (!g_file_equal (file, preload->file) ||
      (options == NULL || preload->options == NULL ? options != preload->options
                                                   : !g_variant_equal (options, preload->options)))
    {
      _sps_preload_drop (preload);
      return FALSE;
    }

  *progress = g_object_ref (preload->progress);
  *cancellable = g_object_ref (preload->cancellable);
  preload->callback = callback;
  preload->user_data = user_data;
  if (preload->result != NULL)
    g_idle_add (deliver_idle, preload);
  return TRUE;
}

/**
 * _sps_application_preload_finished:
 * @self: the application
 *
 * Returns: whether a load started before the application ran has its
 *   result, waiting for a window to take it
 */
gboolean
_sps_application_preload_finished (SpsApplication *self)
{
  g_return_val_if_fail (SPS_IS_APPLICATION (self), FALSE);

  return self->preload != NULL && self->preload->result != NULL;
}

/**
 * _sps_application_get_preload_progress:
 * @self: the application
 *
 * Returns: (transfer none) (nullable): the progress of the load started
 *   before the application ran, while no window has taken it
 */
SpsProgress *
_sps_application_get_preload_progress (SpsApplication *self)
{
  g_return_val_if_fail (SPS_IS_APPLICATION (self), NULL);

  return self->preload != NULL ? self->preload->progress : NULL;
}

/**
 * _sps_preload_drop:
 * @preload: a load no window took over
 *
 * Cancels it; its memory goes when it has stopped.
 */
void
_sps_preload_drop (SpsPreload *preload)
{
  if (preload == NULL)
    return;
  g_cancellable_cancel (preload->cancellable);
  if (preload->result != NULL)
    preload_free (preload);
  else
    preload->dropped = TRUE;
}
