/* sps-application-options.c: SpsApplication's command line
 *
 * The options of `spanscope` (time units, --screenshot and its size and
 * range), read before GApplication decides whether a running instance
 * gets the files, and the headless --screenshot run they ask for.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-application"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-application-private.h"
#include "sps-window.h"

static const GOptionEntry option_entries[] = {
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Render the window showing FILE to a PNG image and quit"), N_("OUT.png") },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Size of the screenshot (default 1280x800)"), N_("WIDTHxHEIGHT") },
  { "range", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Time range of the screenshot, from the start of the trace (e.g. 10ms..20ms)"), N_("START..END") },
  { "ns", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Read timestamps and durations as nanoseconds instead of microseconds (also -ns)"), NULL },
  { "us", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Read timestamps and durations as microseconds, the default (also -us)"), NULL },
  { "ms", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Read timestamps and durations as milliseconds instead of microseconds"), NULL },
  { "s", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Read timestamps and durations as seconds instead of microseconds"), NULL },
  /* Handled in main() before GTK starts (sps-broadway.c); listed here for
   * --help */
  { "broadway", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Serve the window to a web browser at http://127.0.0.1:PORT/ (--broadway alone: port 8080)"), N_("PORT") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the version and quit"), NULL },
  { NULL }
};

void
_sps_application_add_options (SpsApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
}

/* --screenshot */

static void
on_screenshot_finished (SpsApplication   *self,
                        int               status,
                        SpsScreenshotJob *job)
{
  self->exit_status = status;
  g_application_quit (G_APPLICATION (self));
}

void
_sps_application_screenshot (SpsApplication *self,
                             GFile          *file)
{
  g_autoptr(SpsScreenshotJob) job = sps_screenshot_job_new (self->screenshot_path,
                                                            self->screenshot_width,
                                                            self->screenshot_height);
  g_autoptr(GVariant) options = sps_application_dup_import_options (self, self->import_options);

  if (self->screenshot_has_range)
    sps_screenshot_job_set_range (job, self->screenshot_range_start, self->screenshot_range_end);
  g_signal_connect_object (job, "finished", G_CALLBACK (on_screenshot_finished), self, G_CONNECT_SWAPPED);
  g_set_object (&self->screenshot_job, job);
  sps_screenshot_job_run (job, sps_window_new (self), file, options);
}

static gboolean
parse_size (const char  *text,
            int         *width,
            int         *height,
            GError     **error)
{
  guint64 w;
  guint64 h;
  g_auto(GStrv) parts = g_strsplit (text, "x", 0);

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 16, 16384, &w, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 16, 16384, &h, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not a size like 1280x800 (16 to 16384 pixels each way)"), text);
      return FALSE;
    }

  *width = (int) w;
  *height = (int) h;

  return TRUE;
}

static gboolean
parse_range (const char  *text,
             SpsTime     *start,
             SpsTime     *end,
             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *first = NULL;
  const char *dots;

  if (!(dots = strstr (text, "..")))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not a range like 10ms..20ms"), text);
      return FALSE;
    }

  first = g_strndup (text, dots - text);

  if (!sps_time_parse (first, start, &local_error) ||
      !sps_time_parse (dots + 2, end, &local_error))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not a range like 10ms..20ms: %s"), text, local_error->message);
      return FALSE;
    }

  if (*end <= *start)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("The range “%s” ends before it starts"), text);
      return FALSE;
    }

  return TRUE;
}

/* GApplication's command line */

void
_sps_application_rewrite_arguments (char **argv)
{
  /* -ns and -us, the spellings other trace tools take for --ns and --us:
   * GOption would read them as groups of one-letter options. */
  for (int i = 1; argv[i] != NULL && strcmp (argv[i], "--") != 0; i++)
    {
      if (strcmp (argv[i], "-ns") == 0 || strcmp (argv[i], "-us") == 0)
        {
          char *longer = g_strconcat ("-", argv[i], NULL);

          g_free (argv[i]);
          argv[i] = longer;
        }
    }
}

/* Returns: the exit status when the process is to end here, or -1 to go on */
int
_sps_application_read_options (SpsApplication *self,
                               GVariantDict   *options)
{
  GApplication *app = G_APPLICATION (self);
  /* The options that say the Chrome JSON time unit, named by its symbol */
  static const char * const time_units[] = { "ns", "us", "ms", "s" };
  g_autoptr(GError) error = NULL;
  const char *size = NULL;
  const char *range = NULL;
  const char *unit = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("spanscope %s\n", PACKAGE_VERSION);
      return 0;
    }

  g_variant_dict_lookup (options, "screenshot", "^&ay", &self->screenshot_path);
  self->screenshot_path = g_strdup (self->screenshot_path);

  if (g_variant_dict_lookup (options, "size", "&s", &size) &&
      !parse_size (size, &self->screenshot_width, &self->screenshot_height, &error))
    goto failed;

  if (g_variant_dict_lookup (options, "range", "&s", &range))
    {
      if (!parse_range (range, &self->screenshot_range_start, &self->screenshot_range_end, &error))
        goto failed;
      self->screenshot_has_range = TRUE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (time_units); i++)
    {
      if (!g_variant_dict_contains (options, time_units[i]))
        continue;
      if (unit != NULL)
        {
          g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       /* Translators: two of --ns, --us, --ms and --s */
                       _("--%s and --%s cannot be used together"), unit, time_units[i]);
          goto failed;
        }
      unit = time_units[i];
    }

  if (unit != NULL)
    {
      GVariantDict dict;

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);
      self->import_options = g_variant_ref_sink (g_variant_dict_end (&dict));
      /* The unit applies to the files of this command line: a running
       * instance would open them with its own. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }

  if ((size != NULL || range != NULL) && self->screenshot_path == NULL)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("--size and --range only apply to --screenshot"));
      goto failed;
    }

  /* A screenshot is a one-off process: never hand the file to a running
   * instance, which would open a window there instead. */
  if (self->screenshot_path != NULL)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;

failed:
  g_printerr ("spanscope: %s\n", error->message);
  return 2;
}
