/* sps-cli.c: what the commands of spanscope-cli share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

void
sps_cli_print_usage_error (GOptionContext *context,
                           const char     *format,
                           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "%s: %s\n\n", g_get_prgname (), message);

  if (context != NULL)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      fputs (help, stderr);
    }
  else
    {
      fputs (sps_cli_get_usage (), stderr);
    }
}

void
sps_cli_print_plugin_notes (SpsPluginEngine *engine)
{
  const GPtrArray *problems = sps_plugin_engine_get_problems (engine);
  g_auto(GStrv) plugins = sps_plugin_engine_list_plugins (engine);

  if (plugins[0] == NULL)
    {
      /* Translators: %s is a folder; SPANSCOPE_PLUGIN_PATH is an
       * environment variable */
      g_autofree char *note = g_strdup_printf (_("note: no plugins were found (installed in %s, or in "
                                                 "SPANSCOPE_PLUGIN_PATH)"),
                                               SPS_PLUGIN_DIR);

      fprintf (stderr, "%s: %s\n", g_get_prgname (), note);
    }

  for (guint i = 0; i < problems->len; i++)
    {
      /* Translators: %s is a problem with a plugin, “PATH: what” */
      g_autofree char *note = g_strdup_printf (_("note: plugin problem: %s"),
                                               (const char *)g_ptr_array_index (problems, i));

      fprintf (stderr, "%s: %s\n", g_get_prgname (), note);
    }
}

SpsTrace *
sps_cli_load_trace (const char    *path,
                    gboolean       ns,
                    SpsLoadFlags   flags,
                    GError       **error)
{
  return sps_cli_load_trace_full (path, ns, NULL, flags, error);
}

/* sps_cli_load_trace() with more importer options: @extra (an a{sv}
 * dictionary, may be NULL; a floating reference is sunk) */
SpsTrace *
sps_cli_load_trace_full (const char    *path,
                         gboolean       ns,
                         GVariant      *extra,
                         SpsLoadFlags   flags,
                         GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GVariant) options = NULL;
  GVariantDict dict;

  g_variant_dict_init (&dict, extra);
  if (extra != NULL)
    g_variant_unref (g_variant_ref_sink (extra));
  if (ns)
    g_variant_dict_insert (&dict, "timestamp-unit", "s", "ns");
  options = g_variant_ref_sink (g_variant_dict_end (&dict));

  return sps_trace_load (file, sps_plugin_engine_get_default (), options, flags,
                         NULL, NULL, error);
}

int
sps_cli_report_load_error (const GError *error)
{
  fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);

  if (g_error_matches (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT))
    sps_cli_print_plugin_notes (sps_plugin_engine_get_default ());

  return SPS_CLI_EXIT_BAD_INPUT;
}

/* The option context of the command @name, which takes one FILE. */
GOptionContext *
sps_cli_new_file_command (const char         *name,
                          const char         *summary,
                          const GOptionEntry *entries)
{
  g_autofree char *prgname = g_strconcat ("spanscope-cli ", name, NULL);
  GOptionContext *context;

  /* The parameter string, the summary and the entries' texts are
   * translated by the context when it prints them. */
  g_set_prgname (prgname);
  context = g_option_context_new (N_("FILE"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  return context;
}

/* Parses the options of a command that takes one FILE. Returns the
 * remaining arguments (the command, then FILE), or NULL after printing a
 * usage error. */
char **
sps_cli_parse_file_command (GOptionContext  *context,
                            char           **argv)
{
  g_auto(GStrv) args = g_strdupv (argv);
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      sps_cli_print_usage_error (context, "%s", error->message);
      return NULL;
    }

  if (g_strv_length (args) != 2)
    {
      sps_cli_print_usage_error (context, "%s", args[1] == NULL ? _("missing FILE") : _("expected one FILE"));
      return NULL;
    }

  return g_steal_pointer (&args);
}

/* Writes to a temporary file renamed over @file only once everything was
 * written, so a failed conversion never leaves a half-written output. */
gboolean
sps_cli_write_file (SpsExporter  *exporter,
                    SpsTrace     *trace,
                    GVariant     *options,
                    GFile        *file,
                    GError      **error)
{
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;

  if (!(out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error)))
    return FALSE;

  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (out), 1 << 20);

  if (!sps_exporter_write (exporter, trace, options, buffered, NULL, error))
    {
      g_autoptr(GCancellable) cancelled = g_cancellable_new ();

      /* Closing with a cancelled cancellable drops the temporary file. */
      g_cancellable_cancel (cancelled);
      g_output_stream_close (buffered, cancelled, NULL);
      return FALSE;
    }

  return g_output_stream_close (buffered, NULL, error);
}
