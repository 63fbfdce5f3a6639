/* spanscope-cli.c: the command-line tool (core only, no GTK)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

/* One line per command; each command lives in sps-cli-NAME.c. The
 * synopsis follows “spanscope-cli NAME ” in the usage text. */
static const struct
{
  const char        *name;
  const char        *synopsis;
  const char        *summary;
  SpsCliCommandFunc  func;
} commands[] = {
  /* Translators: the arguments of a command in the usage text: keep the
   * option names (--json…); FILE, FORMAT, OUT may be translated. */
  { "info", N_("[--json] [--ns|--us|--ms|--s] FILE"), N_("Print what a trace holds"), sps_cli_info },
  { "convert", N_("FILE --format FORMAT [-o OUT] [--ns|--us|--ms|--s] [--first-span PATTERN] [--span-filter PATTERN] "
                  "[--keep-unrecoverable] [--no-repair]"), N_("Write a trace in another format"), sps_cli_convert },
  { "save", N_("FILE -o OUT.spprofile [--ns|--us|--ms|--s]"), N_("Save a trace as a profile that reopens without the capture"), sps_cli_save },
  { "flame", N_("FILE [--thread TID] [--tree measured|samples|sampled] --format folded|speedscope -o OUT"), N_("Write a flame graph as folded stacks or speedscope JSON"), sps_cli_flame },
  { "capture", N_("DEVICE [--baud N] [--duration 10s] -o OUT | --list"), N_("Record a device's trace stream"), sps_cli_capture },
  { "query", N_("FILE SQL [--format table|csv|tsv|json] [--ns|--us|--ms|--s]"), N_("Run SQL over a trace"), sps_cli_query },
  { "plugins", N_("[--json]"), N_("List the plugins, what they provide, and why any failed"), sps_cli_plugins },
};

/**
 * sps_cli_get_usage:
 *
 * Returns: the translated usage text, built from the command table
 */
const char *
sps_cli_get_usage (void)
{
  static char *usage;
  GString *text;
  int width = 0;

  if (usage != NULL)
    return usage;

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    width = MAX (width, (int) strlen (commands[i].name));

  text = g_string_new (_("Usage:"));
  g_string_append_c (text, '\n');
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "  spanscope-cli %s %s\n", commands[i].name, _(commands[i].synopsis));
  g_string_append (text, "  spanscope-cli --version\n");
  /* Translators: keep the option name; OUT.json and COMMAND may be translated */
  g_string_append_printf (text, "  spanscope-cli --trace %s\n\n", _("OUT.json COMMAND …"));
  g_string_append (text, _("Commands:"));
  g_string_append_c (text, '\n');
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "  %-*s  %s\n", width, commands[i].name, _(commands[i].summary));
  g_string_append_c (text, '\n');
  /* Translators: COMMAND may be translated; keep the program and option names */
  g_string_append (text, _("Run “spanscope-cli COMMAND --help” for the options of a command."));
  g_string_append_c (text, '\n');

  usage = g_string_free (text, FALSE);

  return usage;
}

int
main (int    argc,
      char **argv)
{
  const char *localedir;
  const char *command;
  const char *trace_path = NULL;

  /* Before any thread: large blocks in mappings of their own */
  sps_setup_allocator ();
  setlocale (LC_ALL, "");

  /* An uninstalled build (and the test suite) points this at build/po. */
  localedir = g_getenv ("SPANSCOPE_LOCALEDIR");
  if (localedir == NULL || localedir[0] == '\0')
    localedir = LOCALEDIR;

  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_prgname ("spanscope-cli");
  /* No views: they would map GTK into a command-line program */
  sps_plugin_engine_set_default_kinds (SPS_PLUGIN_KIND_IMPORTER | SPS_PLUGIN_KIND_EXPORTER |
                                       SPS_PLUGIN_KIND_ANALYSIS);

  if (argc < 2)
    {
      /* Translators: COMMAND as in the usage text */
      sps_cli_print_usage_error (NULL, "%s", _("missing COMMAND"));
      return SPS_CLI_EXIT_USAGE;
    }

  /* --trace OUT.json before the command: a Chrome JSON trace of this
   * run, written when the command is done */
  if (g_str_equal (argv[1], "--trace"))
    {
      if (argc < 4)
        {
          sps_cli_print_usage_error (NULL, "%s", _("--trace needs a file name and a COMMAND"));
          return SPS_CLI_EXIT_USAGE;
        }
      trace_path = argv[2];
      sps_self_trace_enable ();
      argv += 2;
      argc -= 2;
    }

  command = argv[1];

  if (g_str_equal (command, "--version") || g_str_equal (command, "-V"))
    {
      printf ("spanscope-cli %s\n", PACKAGE_VERSION);
      return SPS_CLI_EXIT_OK;
    }

  if (g_str_equal (command, "--help") || g_str_equal (command, "-h") ||
      g_str_equal (command, "help"))
    {
      fputs (sps_cli_get_usage (), stdout);
      return SPS_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (g_str_equal (command, commands[i].name))
        {
          int status = commands[i].func (argv + 1);
          g_autoptr(GError) error = NULL;

          if (trace_path != NULL && !sps_self_trace_write (trace_path, &error))
            {
              g_printerr ("spanscope-cli: %s\n", error->message);
              status = status != SPS_CLI_EXIT_OK ? status : SPS_CLI_EXIT_BAD_INPUT;
            }
          return status;
        }
    }

  sps_cli_print_usage_error (NULL, _("unknown command “%s”"), command);
  return SPS_CLI_EXIT_USAGE;
}
