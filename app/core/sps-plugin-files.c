/* sps-plugin-files.c: reading plugin folders and what libpeas says about them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Helpers of SpsPluginEngine that need none of its state: checking a
 * .plugin file, listing a folder in a stable order, and capturing the
 * warnings libpeas prints for broken plugins.
 */

#define G_LOG_DOMAIN "sps-plugin-engine"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-plugin-engine.h"
#include "sps-plugin-files-private.h"

#define PEAS_LOG_DOMAIN "libpeas"

/* Capturing libpeas's warnings.
 *
 * libpeas 1.x reports every broken plugin with g_warning() in its own log
 * domain. A handler for that domain turns them into problems. The handler
 * alone is not enough in programs that made warnings fatal (every GTest
 * program does): GLib aborts after the handler returns. So for the short
 * time we call into libpeas, warnings and criticals are taken out of the
 * always-fatal mask. That mask is process-wide state, hence one global lock
 * around every capture. */

static GMutex capture_lock;

static void
capture_log_func (const char     *log_domain,
                  GLogLevelFlags  log_level,
                  const char     *message,
                  gpointer        user_data)
{
  GPtrArray *messages = user_data;

  const char *traceback;

  g_assert (messages != NULL);
  g_assert (message != NULL);

  /* The Python loader prints a whole traceback: its first line says which
   * plugin, its last line what was raised; the frames are noise here. */
  if ((traceback = strstr (message, "\nTraceback (most recent call last):")))
    {
      g_autofree char *head = g_strndup (message, traceback - message);
      g_auto(GStrv) lines = g_strsplit (g_strchomp (g_strdup (traceback)), "\n", -1);
      guint n = g_strv_length (lines);

      g_ptr_array_add (messages, g_strdup_printf ("%s %s", g_strchomp (head),
                                                  n > 0 ? g_strstrip (lines[n - 1]) : ""));
      return;
    }

  g_ptr_array_add (messages, g_strdup (message));
}

void
_sps_plugin_log_capture_begin (SpsPluginLogCapture *capture)
{
  g_assert (capture != NULL);

  g_mutex_lock (&capture_lock);

  capture->messages = g_ptr_array_new_with_free_func (g_free);
  /* Setting the mask is the only way to read it. */
  capture->old_always_fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
  g_log_set_always_fatal (capture->old_always_fatal &
                          ~(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE));
  capture->handler_id = g_log_set_handler (PEAS_LOG_DOMAIN,
                                           (G_LOG_LEVEL_CRITICAL |
                                            G_LOG_LEVEL_WARNING |
                                            G_LOG_LEVEL_MESSAGE |
                                            G_LOG_FLAG_FATAL |
                                            G_LOG_FLAG_RECURSION),
                                           capture_log_func,
                                           capture->messages);
  /* Loaders for other languages log without a domain. */
  capture->default_handler_id = g_log_set_handler (NULL,
                                                   (G_LOG_LEVEL_CRITICAL |
                                                    G_LOG_LEVEL_WARNING |
                                                    G_LOG_FLAG_FATAL |
                                                    G_LOG_FLAG_RECURSION),
                                                   capture_log_func,
                                                   capture->messages);
}

/* Returns the captured messages. */
GPtrArray *
_sps_plugin_log_capture_end (SpsPluginLogCapture *capture)
{
  g_assert (capture != NULL);

  g_log_remove_handler (PEAS_LOG_DOMAIN, capture->handler_id);
  g_log_remove_handler (NULL, capture->default_handler_id);
  g_log_set_always_fatal (capture->old_always_fatal);

  g_mutex_unlock (&capture_lock);

  return g_steal_pointer (&capture->messages);
}

/* The SpsPluginKind of a kind's id in X-Spanscope-Kind, 0 when unknown */
guint
_sps_plugin_kind_from_id (const char *id)
{
  static const struct { const char *id; SpsPluginKind kind; } kinds[] = {
    { "importer", SPS_PLUGIN_KIND_IMPORTER }, { "exporter", SPS_PLUGIN_KIND_EXPORTER },
    { "analysis", SPS_PLUGIN_KIND_ANALYSIS }, { "view", SPS_PLUGIN_KIND_VIEW },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (id, kinds[i].id))
      return kinds[i].kind;
  return 0;
}

/* The plugin API and kinds a .plugin file declares; FALSE with @reason */
static gboolean
check_declarations (GKeyFile  *keyfile,
                    guint     *kinds_out,
                    char     **reason)
{
  g_autofree char *api = g_key_file_get_string (keyfile, "Plugin", "X-Spanscope-API", NULL);
  g_auto(GStrv) kinds = g_key_file_get_string_list (keyfile, "Plugin", "X-Spanscope-Kind", NULL, NULL);
  g_autofree char *ours = g_strdup_printf ("%d", SPS_PLUGIN_API_VERSION);

  if (api == NULL)
    {
      /* Translators: X-Spanscope-API is a key of the file; keep it. %d is a number. */
      *reason = g_strdup_printf (_("the plugin file does not say which plugin API it is written for "
                                   "(X-Spanscope-API); this Spanscope offers API %d"),
                                 SPS_PLUGIN_API_VERSION);
      return FALSE;
    }
  if (!g_str_equal (g_strstrip (api), ours))
    {
      /* Translators: the first %s is a version the plugin gives; %d is ours */
      *reason = g_strdup_printf (_("the plugin is written for plugin API %s; this Spanscope offers API %d"),
                                 api, SPS_PLUGIN_API_VERSION);
      return FALSE;
    }

  *kinds_out = 0;
  for (guint i = 0; kinds != NULL && kinds[i] != NULL; i++)
    {
      guint kind = _sps_plugin_kind_from_id (g_strstrip (kinds[i]));

      if (kind == 0)
        {
          /* Translators: %s is what the file says; keep the list of kinds untranslated */
          *reason = g_strdup_printf (_("the plugin file declares an unknown kind “%s” (X-Spanscope-Kind: "
                                       "importer, exporter, analysis or view)"),
                                     kinds[i]);
          return FALSE;
        }
      *kinds_out |= kind;
    }
  if (*kinds_out == 0)
    {
      /* Translators: keep the key and the list of kinds untranslated */
      *reason = g_strdup (_("the plugin file does not declare what the plugin provides (X-Spanscope-Kind: "
                            "importer, exporter, analysis or view)"));
      return FALSE;
    }
  return TRUE;
}

/* Checks what libpeas needs from a .plugin file, and the API and kinds
 * it declares, so a broken one is reported with its own path and a
 * precise reason. Returns the module name and sets @name, @kinds_out and
 * @formats_out (X-Trace-Formats, the names of the formats its importers
 * and exporters handle; NULL when it lists none), or NULL with @reason
 * set. */
char *
_sps_plugin_file_check (const char  *path,
                        char       **name_out,
                        guint       *kinds_out,
                        GStrv       *formats_out,
                        char       **reason)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *module_name = NULL;
  g_autofree char *name = NULL;

  g_assert (path != NULL);
  g_assert (name_out != NULL && *name_out == NULL);
  g_assert (reason != NULL && *reason == NULL);

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, &error))
    {
      /* Translators: %s says what is wrong */
      *reason = g_strdup_printf (_("not a valid plugin file: %s"), error->message);
      return NULL;
    }

  if (!g_key_file_has_group (keyfile, "Plugin"))
    {
      /* Translators: [Plugin] is a group of the file; keep it */
      *reason = g_strdup (_("not a valid plugin file: no [Plugin] group"));
      return NULL;
    }

  module_name = g_key_file_get_string (keyfile, "Plugin", "Module", NULL);
  if (module_name == NULL || module_name[0] == '\0')
    {
      /* Translators: Module and [Plugin] are a key and group of the file; keep them */
      *reason = g_strdup (_("not a valid plugin file: no Module key in [Plugin]"));
      return NULL;
    }

  name = g_key_file_get_locale_string (keyfile, "Plugin", "Name", NULL, NULL);
  if (name == NULL)
    {
      /* Translators: Name and [Plugin] are a key and group of the file; keep them */
      *reason = g_strdup (_("not a valid plugin file: no Name key in [Plugin]"));
      return NULL;
    }

  if (!check_declarations (keyfile, kinds_out, reason))
    return NULL;
  *formats_out = g_key_file_get_string_list (keyfile, "Plugin", "X-Trace-Formats", NULL, NULL);

  *name_out = g_steal_pointer (&name);
  return g_steal_pointer (&module_name);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  const char * const *sa = a;
  const char * const *sb = b;

  return strcmp (*sa, *sb);
}

/* The names in @dir, sorted so that scanning is reproducible. */
GPtrArray *
_sps_plugin_list_dir_sorted (const char  *dir,
                 GError     **error)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  g_assert (dir != NULL);

  if (!(d = g_dir_open (dir, 0, error)))
    return NULL;

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);

  return g_steal_pointer (&names);
}

/* Whether @message names one of the files in @paths. */
gboolean
_sps_plugin_message_mentions_any (const char *message,
                      GPtrArray  *paths)
{
  g_assert (message != NULL);
  g_assert (paths != NULL);

  for (guint i = 0; i < paths->len; i++)
    {
      if (strstr (message, g_ptr_array_index (paths, i)) != NULL)
        return TRUE;
    }

  return FALSE;
}
