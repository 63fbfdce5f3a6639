/* sps-cli-save.c: `spanscope-cli save`, a trace as a saved profile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

int
sps_cli_save (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GVariant) import_options = NULL;
  g_autoptr(GVariant) write_options = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *source = NULL;
  g_autofree char *scratch = NULL;
  g_auto(GStrv) args = NULL;
  GVariantDict dict;
  SpsCliTimeUnit time_unit = { { FALSE } };
  const char *unit;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The profile to write (required, usually NAME.spprofile); replaced only once complete"),
      N_("OUT") },
    { NULL }
  };

  context = sps_cli_new_file_command ("save",
                                      N_("Save a trace as a profile that reopens without the capture or its symbols."),
                                      entries);

  sps_cli_add_time_unit_options (context, &time_unit);

  if (!(args = sps_cli_parse_file_command (context, argv)) ||
      !sps_cli_get_time_unit (context, &time_unit, &unit))
    return SPS_CLI_EXIT_USAGE;

  if (output == NULL)
    {
      /* Translators: OUT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing -o OUT"));
      return SPS_CLI_EXIT_USAGE;
    }
  /* SQLite writes pages where it needs them, never in one stream */
  if (g_strcmp0 (output, "-") == 0)
    {
      sps_cli_print_usage_error (context, "%s",
                                 _("a profile is a database and cannot be written to standard output; give -o FILE"));
      return SPS_CLI_EXIT_USAGE;
    }

  if (!(exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (),
                                                      "spanscope-profile")))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), _("the saved profile plugin is not available"));
      sps_cli_print_plugin_notes (sps_plugin_engine_get_default ());
      return SPS_CLI_EXIT_USAGE;
    }

  g_variant_dict_init (&dict, NULL);
  if (unit != NULL)
    g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);
  import_options = g_variant_ref_sink (g_variant_dict_end (&dict));

  if (!(trace = sps_cli_load_trace (args[1], unit, SPS_LOAD_FLAGS_NONE, &error)))
    return sps_cli_report_load_error (error);

  /* The database is built beside the output, on the same disk */
  source = g_canonicalize_filename (args[1], NULL);
  scratch = g_path_get_dirname (output);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "source-file", "s", source);
  g_variant_dict_insert_value (&dict, "import-options", import_options);
  g_variant_dict_insert (&dict, "scratch-directory", "s", scratch);
  write_options = g_variant_ref_sink (g_variant_dict_end (&dict));

  if (!sps_cli_write_file (exporter, trace, write_options, output, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }
  return SPS_CLI_EXIT_OK;
}
