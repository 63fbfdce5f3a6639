/* main.c: the spanscope executable
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope"

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "sps-application.h"
#include "sps-broadway.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SpsBroadway) broadway = NULL;
  g_autoptr(SpsApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  const char *localedir;
  int ret;

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
  ret = g_application_run (G_APPLICATION (app), argc, argv);

  if (ret == 0)
    ret = sps_application_get_exit_status (app);

  return ret;
}
