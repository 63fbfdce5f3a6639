/* sps-cli-plugins.c: spanscope-cli plugins, what was loaded and what failed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sps-cli.h"

static const char *
state_id (SpsPluginStatus *status)
{
  switch (sps_plugin_status_get_state (status))
    {
    case SPS_PLUGIN_STATE_LOADED:
      return "loaded";
    case SPS_PLUGIN_STATE_NOT_NEEDED:
      return "not-needed";
    case SPS_PLUGIN_STATE_DISABLED:
      return "disabled";
    case SPS_PLUGIN_STATE_FAILED:
    default:
      return "failed";
    }
}

static void
add_nullable_member (JsonBuilder *builder,
                     const char  *name,
                     const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
print_json (GListModel *list)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);
      const char * const *kinds = sps_plugin_status_get_kinds (status);
      g_autofree char *folder = g_path_get_dirname (sps_plugin_status_get_plugin_file (status));

      json_builder_begin_object (builder);
      add_nullable_member (builder, "module", sps_plugin_status_get_module_name (status));
      add_nullable_member (builder, "name", sps_plugin_status_get_name (status));
      add_nullable_member (builder, "description", sps_plugin_status_get_description (status));
      add_nullable_member (builder, "version", sps_plugin_status_get_version (status));
      add_nullable_member (builder, "website", sps_plugin_status_get_website (status));
      json_builder_set_member_name (builder, "authors");
      json_builder_begin_array (builder);
      for (const char * const *a = sps_plugin_status_get_authors (status); *a != NULL; a++)
        json_builder_add_string_value (builder, *a);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "kinds");
      json_builder_begin_array (builder);
      for (guint k = 0; kinds[k] != NULL; k++)
        json_builder_add_string_value (builder, kinds[k]);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "folder");
      json_builder_add_string_value (builder, folder);
      json_builder_set_member_name (builder, "plugin_file");
      json_builder_add_string_value (builder, sps_plugin_status_get_plugin_file (status));
      json_builder_set_member_name (builder, "state");
      json_builder_add_string_value (builder, state_id (status));
      add_nullable_member (builder, "error", sps_plugin_status_get_error (status));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

/* The kinds of a plugin, translated, "importer, exporter". */
static char *
format_kinds (SpsPluginStatus *status)
{
  const char * const *kinds = sps_plugin_status_get_kinds (status);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint k = 0; kinds[k] != NULL; k++)
    {
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, sps_plugin_kind_get_label (kinds[k]));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "    label value", when there is a value */
static void
print_field (const char *label,
             const char *value)
{
  if (value != NULL)
    printf ("    %s %s\n", label, value);
}

static void
print_text (GListModel *list)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);
      const char *module = sps_plugin_status_get_module_name (status);
      const char *name = sps_plugin_status_get_name (status);
      g_autofree char *kinds = format_kinds (status);
      g_autofree char *authors = NULL;
      g_autofree char *folder = g_path_get_dirname (sps_plugin_status_get_plugin_file (status));
      SpsPluginState state = sps_plugin_status_get_state (status);
      const char *state_text = state == SPS_PLUGIN_STATE_LOADED ? _("loaded") :
                               /* Translators: a plugin of a kind this command does not load (a view) */
                               state == SPS_PLUGIN_STATE_NOT_NEEDED ? _("not loaded by spanscope-cli") :
                               /* Translators: a plugin the user turned off */
                               state == SPS_PLUGIN_STATE_DISABLED ? _("disabled") :
                               _("failed");

      if (sps_plugin_status_get_authors (status)[0] != NULL)
        authors = g_strjoinv (", ", (char **) sps_plugin_status_get_authors (status));

      /* The module name is what users configure; the file stands in when
       * the .plugin file could not be read. */
      printf ("%s  %s", module != NULL ? module : sps_plugin_status_get_plugin_file (status), state_text);
      if (kinds[0] != '\0')
        printf ("  %s", kinds);
      printf ("\n");
      if (name != NULL)
        /* Translators: the display name of a plugin */
        printf ("    %s %s\n", _("name:"), name);
      print_field (_("description:"), sps_plugin_status_get_description (status));
      print_field (_("version:"), sps_plugin_status_get_version (status));
      if (authors != NULL)
        print_field (_("authors:"), authors);
      print_field (_("website:"), sps_plugin_status_get_website (status));
      /* Translators: the folder a plugin was found in */
      printf ("    %s %s\n", _("folder:"), folder);
      if (state == SPS_PLUGIN_STATE_FAILED)
        /* Translators: why a plugin failed */
        printf ("    %s %s\n", _("error:"), sps_plugin_status_get_error (status));
    }
}

int
sps_cli_plugins (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GListModel) list = NULL;
  g_auto(GStrv) args = g_strdupv (argv);
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { NULL }
  };

  g_set_prgname ("spanscope-cli plugins");
  context = g_option_context_new (NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("List the plugins found, what they provide, and why any failed or is turned off."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      sps_cli_print_usage_error (context, "%s", error->message);
      return SPS_CLI_EXIT_USAGE;
    }

  if (g_strv_length (args) != 1)
    {
      sps_cli_print_usage_error (context, "%s", _("plugins takes no arguments"));
      return SPS_CLI_EXIT_USAGE;
    }

  list = sps_plugin_engine_list_status (sps_plugin_engine_get_default ());

  if (json)
    print_json (list);
  else
    print_text (list);

  return 0;
}
