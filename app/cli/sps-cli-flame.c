/* sps-cli-flame.c: `spanscope-cli flame`, a flame graph as folded stacks
 * or speedscope JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

int
sps_cli_flame (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autofree char *format = NULL;
  g_autofree char *output = NULL;
  g_autofree char *tree = NULL;
  g_autofree char *thread = NULL;
  g_auto(GStrv) args = NULL;
  GVariantDict dict;
  SpsFlameTreeKind kind;
  gint64 tid = 0;
  SpsCliTimeUnit time_unit = { { FALSE } };
  const char *unit;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      /* Translators: keep “folded” and “speedscope” untranslated */
      N_("folded or speedscope (required)"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The file to write (required); replaced only once complete"), N_("OUT") },
    { "tree", 't', 0, G_OPTION_ARG_STRING, &tree,
      /* Translators: keep the three tree names untranslated */
      N_("measured, samples or sampled (default: samples when the trace has some, else measured)"),
      N_("TREE") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread,
      N_("Only the thread with this id (default: all threads merged)"), N_("TID") },
    { NULL }
  };

  context = sps_cli_new_file_command ("flame", N_("Write the flame graph of a trace as folded stacks or speedscope JSON."), entries);

  sps_cli_add_time_unit_options (context, &time_unit);

  if (!(args = sps_cli_parse_file_command (context, argv)) ||
      !sps_cli_get_time_unit (context, &time_unit, &unit))
    return SPS_CLI_EXIT_USAGE;

  if (format == NULL)
    {
      /* Translators: FORMAT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing --format FORMAT"));
      return SPS_CLI_EXIT_USAGE;
    }
  if (!g_str_equal (format, "folded") && !g_str_equal (format, "speedscope"))
    {
      /* Translators: keep “folded” and “speedscope” untranslated */
      sps_cli_print_usage_error (context, _("unknown format “%s” (use folded or speedscope)"), format);
      return SPS_CLI_EXIT_USAGE;
    }
  if (output == NULL)
    {
      /* Translators: OUT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing -o OUT"));
      return SPS_CLI_EXIT_USAGE;
    }
  if (tree != NULL && !sps_flame_tree_kind_from_string (tree, &kind))
    {
      /* Translators: keep the three tree names untranslated */
      sps_cli_print_usage_error (context, _("unknown tree “%s” (use measured, samples or sampled)"), tree);
      return SPS_CLI_EXIT_USAGE;
    }
  if (thread != NULL && !g_ascii_string_to_signed (thread, 10, G_MININT64, G_MAXINT64, &tid, NULL))
    {
      /* Translators: TID as in the help of the command */
      sps_cli_print_usage_error (context, _("--thread needs a thread id (a number), not “%s”"), thread);
      return SPS_CLI_EXIT_USAGE;
    }

  if (!(exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), format)))
    {
      /* Translators: a format name; the plugin that writes it is missing */
      sps_cli_print_usage_error (context, _("no plugin writes the format “%s”"), format);
      sps_cli_print_plugin_notes (sps_plugin_engine_get_default ());
      return SPS_CLI_EXIT_USAGE;
    }

  if (!(trace = sps_cli_load_trace (args[1], unit, SPS_LOAD_FLAGS_NONE, &error)))
    return sps_cli_report_load_error (error);

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "tree", "s",
                         tree != NULL ? tree : sps_flame_tree_kind_to_string (sps_flame_tree_get_default_kind (trace)));
  if (thread != NULL)
    g_variant_dict_insert (&dict, "thread", "x", tid);
  options = g_variant_ref_sink (g_variant_dict_end (&dict));

  if (!sps_cli_write_file (exporter, trace, options, output, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  return SPS_CLI_EXIT_OK;
}
