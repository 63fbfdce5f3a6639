/* main.c: the spanscope executable
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope"

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include <spanscope-core.h>

#include "sps-application.h"
#include "sps-broadway.h"

/* --trace OUT.json: a Chrome JSON trace of this run, written at exit */
static char *trace_path;

static int
on_handle_local_options (GApplication *app,
                         GVariantDict *options,
                         gpointer      user_data)
{
  if (g_variant_dict_lookup (options, "trace", "^ay", &trace_path))
    {
      sps_self_trace_enable ();
      /* The trace is this process's: never hand the work to a running
       * instance */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }

  /* Go on with the application's own options */
  return -1;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SpsBroadway) broadway = NULL;
  g_autoptr(SpsApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  const char *localedir;
  int ret;

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

  g_set_application_name (_("Spanscope"));

  /* --broadway[=PORT] picks GTK's backend: before GTK starts */
  if (!sps_broadway_start (&argc, argv, &broadway, &error))
    {
      g_printerr ("spanscope: %s\n", error->message);
      return 1;
    }

  /* The UI resource needs no call: it is linked whole into the program
   * and registers itself from a constructor (data/ui). */
  app = sps_application_new ();
  sps_broadway_prepare_app (broadway, G_APPLICATION (app));
  g_application_add_main_option (G_APPLICATION (app), "trace", 0, 0, G_OPTION_ARG_FILENAME,
                                 _("Write a trace of Spanscope’s own work (Chrome JSON) at exit"),
                                 /* Translators: the argument of --trace */
                                 _("OUT.json"));
  g_signal_connect (app, "handle-local-options", G_CALLBACK (on_handle_local_options), NULL);
  ret = g_application_run (G_APPLICATION (app), argc, argv);

  if (ret == 0)
    ret = sps_application_get_exit_status (app);

  if (trace_path != NULL)
    {
      g_autoptr(GError) write_error = NULL;

      if (!sps_self_trace_write (trace_path, &write_error))
        {
          g_printerr ("spanscope: %s\n", write_error->message);
          ret = ret != 0 ? ret : 1;
        }
      g_clear_pointer (&trace_path, g_free);
    }

  return ret;
}
