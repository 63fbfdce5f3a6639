/* sps-cli.c: what the commands of spanscope-cli share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

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

/* The unit of Chrome JSON timestamps, as `spanscope` takes it: one flag
 * per unit, named by its symbol (the importer's "timestamp-unit") */
static const char * const time_unit_names[] = { "ns", "us", "ms", "s" };

void
sps_cli_add_time_unit_options (GOptionContext *context,
                               SpsCliTimeUnit *time_unit)
{
  const GOptionEntry entries[] = {
    { time_unit_names[0], 0, 0, G_OPTION_ARG_NONE, &time_unit->given[0],
      N_("Read timestamps and durations as nanoseconds instead of microseconds"), NULL },
    { time_unit_names[1], 0, 0, G_OPTION_ARG_NONE, &time_unit->given[1],
      N_("Read timestamps and durations as microseconds (the default)"), NULL },
    { time_unit_names[2], 0, 0, G_OPTION_ARG_NONE, &time_unit->given[2],
      N_("Read timestamps and durations as milliseconds instead of microseconds"), NULL },
    { time_unit_names[3], 0, 0, G_OPTION_ARG_NONE, &time_unit->given[3],
      N_("Read timestamps and durations as seconds instead of microseconds"), NULL },
    { NULL }
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (time_unit_names) == G_N_ELEMENTS (time_unit->given));

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

/* The unit the flags give (NULL: none, the importer's default), or FALSE
 * after printing a usage error when more than one was given */
gboolean
sps_cli_get_time_unit (GOptionContext       *context,
                       const SpsCliTimeUnit *time_unit,
                       const char          **unit)
{
  *unit = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (time_unit_names); i++)
    {
      if (!time_unit->given[i])
        continue;
      if (*unit != NULL)
        {
          /* Translators: two of --ns, --us, --ms and --s */
          sps_cli_print_usage_error (context, _("--%s and --%s cannot be used together"),
                                     *unit, time_unit_names[i]);
          return FALSE;
        }
      *unit = time_unit_names[i];
    }

  return TRUE;
}

SpsTrace *
sps_cli_load_trace (const char    *path,
                    const char    *unit,
                    SpsLoadFlags   flags,
                    GError       **error)
{
  return sps_cli_load_trace_full (path, unit, NULL, flags, error);
}

/* sps_cli_load_trace() with more importer options: @extra (an a{sv}
 * dictionary, may be NULL; a floating reference is sunk) */
SpsTrace *
sps_cli_load_trace_full (const char    *path,
                         const char    *unit,
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
  if (unit != NULL)
    g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);
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

/* Refuses to write over something that is not a regular file (a device,
 * a FIFO, a socket, a folder; a symbolic link to one): renaming over it
 * would replace a device node with a file, and writing into it could
 * block for ever. */
static gboolean
check_replaceable (const char  *path,
                   GError     **error)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
               /* Translators: a file name */
               _("%s: not a regular file; it is not replaced (use -o - to write to standard output)"),
               path);
  return FALSE;
}

/* Writes something to @out: an export, or bytes */
typedef gboolean (*WriteFunc) (GOutputStream *out,
                               gpointer       user_data,
                               GError       **error);

/* Writes to a temporary file in the folder of @output, renamed over it
 * only once everything was written: a failed write never leaves a
 * half-written output, nor removes what was there. The new file gets the
 * mode of the one it replaces (or 0666 less the umask). `-` is standard
 * output. */
static gboolean
write_output (const char  *output,
              WriteFunc    func,
              gpointer     user_data,
              GError     **error)
{
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  GStatBuf st;
  mode_t mode;
  int fd;

  if (g_strcmp0 (output, "-") == 0)
    {
      out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      buffered = g_buffered_output_stream_new_sized (out, 1 << 20);
      return func (buffered, user_data, error) && g_output_stream_close (buffered, NULL, error);
    }

  if (!check_replaceable (output, error))
    return FALSE;

  if (g_stat (output, &st) == 0)
    mode = st.st_mode & 07777;
  else
    {
      mode_t mask = umask (0);

      umask (mask);
      mode = 0666 & ~mask;
    }

  dir = g_path_get_dirname (output);
  base = g_path_get_basename (output);
  tmp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  if ((fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600)) < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", output, g_strerror (saved_errno));
      return FALSE;
    }
  fchmod (fd, mode);

  out = g_unix_output_stream_new (fd, TRUE);
  buffered = g_buffered_output_stream_new_sized (out, 1 << 20);
  if (!func (buffered, user_data, error) || !g_output_stream_close (buffered, NULL, error))
    {
      g_output_stream_close (buffered, NULL, NULL);
      g_unlink (tmp);
      return FALSE;
    }

  if (g_rename (tmp, output) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmp);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", output, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  SpsExporter *exporter;
  SpsTrace    *trace;
  GVariant    *options;
} Export;

static gboolean
write_export (GOutputStream  *out,
              gpointer        user_data,
              GError        **error)
{
  Export *e = user_data;

  return sps_exporter_write (e->exporter, e->trace, e->options, out, NULL, error);
}

/**
 * sps_cli_write_file:
 * @output: a file name, or `-` for standard output
 *
 * Exports @trace to @output (see write_output()).
 */
gboolean
sps_cli_write_file (SpsExporter  *exporter,
                    SpsTrace     *trace,
                    GVariant     *options,
                    const char   *output,
                    GError      **error)
{
  Export e = { exporter, trace, options };

  return write_output (output, write_export, &e, error);
}

static gboolean
write_bytes (GOutputStream  *out,
             gpointer        user_data,
             GError        **error)
{
  GBytes *bytes = user_data;

  return g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                    NULL, NULL, error);
}

/**
 * sps_cli_write_bytes:
 * @output: a file name, or `-` for standard output
 *
 * Writes @bytes to @output, the way sps_cli_write_file() does.
 */
gboolean
sps_cli_write_bytes (const char  *output,
                     GBytes      *bytes,
                     GError     **error)
{
  return write_output (output, write_bytes, bytes, error);
}
