/* sps-cli-convert.c: `spanscope-cli convert`, a trace in another format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

static char *
list_exporter_names (SpsPluginEngine *engine)
{
  g_autoptr(GPtrArray) exporters = sps_plugin_engine_create_exporters (engine);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < exporters->len; i++)
    {
      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, sps_exporter_get_name (g_ptr_array_index (exporters, i)));
    }

  if (names->len == 0)
    /* Translators: the list of formats that can be written, when it is empty */
    g_string_append (names, C_("formats", "none"));

  return g_string_free (g_steal_pointer (&names), FALSE);
}

int
sps_cli_convert (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GFile) output_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) args = NULL;
  SpsPluginEngine *engine;
  gboolean ns = FALSE;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_("The format to write (required), e.g. chrome-json"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The file to write (required); replaced only once complete"), N_("OUT") },
    { "ns", 0, 0, G_OPTION_ARG_NONE, &ns,
      N_("Read timestamps and durations as nanoseconds instead of microseconds"), NULL },
    { NULL }
  };

  context = sps_cli_new_file_command ("convert", N_("Write a trace in another format."), entries);

  if (!(args = sps_cli_parse_file_command (context, argv)))
    return SPS_CLI_EXIT_USAGE;

  if (format == NULL)
    {
      /* Translators: FORMAT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing --format FORMAT"));
      return SPS_CLI_EXIT_USAGE;
    }

  if (output == NULL)
    {
      /* Translators: OUT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing -o OUT"));
      return SPS_CLI_EXIT_USAGE;
    }

  engine = sps_plugin_engine_get_default ();

  if (!(exporter = sps_plugin_engine_create_exporter (engine, format)))
    {
      g_autofree char *names = list_exporter_names (engine);

      /* Translators: a format name, then a list of them */
      sps_cli_print_usage_error (context, _("unknown format “%s” (available: %s)"), format, names);
      sps_cli_print_plugin_notes (engine);
      return SPS_CLI_EXIT_USAGE;
    }

  if (!(trace = sps_cli_load_trace (args[1], ns, SPS_LOAD_FLAGS_NONE, &error)))
    return sps_cli_report_load_error (error);

  output_file = g_file_new_for_commandline_arg (output);

  if (!sps_cli_write_file (exporter, trace, NULL, output_file, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  return SPS_CLI_EXIT_OK;
}
