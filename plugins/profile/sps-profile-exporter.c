/* sps-profile-exporter.c: saves a trace as a profile (.spprofile)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A SQLite database is written to a file, not a stream: it is built in a
 * scratch file (in the "scratch-directory" option's folder, else the
 * temporary folder) and copied to the output stream, which callers write
 * to a temporary name and rename (spanscope-cli's outputs, GIO's
 * g_file_replace()).
 */

#define G_LOG_DOMAIN "sps-profile-plugin"

#include "config.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-profile-exporter.h"

struct _SpsProfileExporter
{
  GObject parent_instance;
};

static void sps_profile_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsProfileExporter, sps_profile_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER,
                                                      sps_profile_exporter_iface_init))

static const char *
sps_profile_exporter_get_name (SpsExporter *exporter)
{
  return "spanscope-profile";
}

static const char *
sps_profile_exporter_get_suffix (SpsExporter *exporter)
{
  return ".spprofile";
}

static gboolean
copy_to_stream (const char     *path,
                GOutputStream  *stream,
                GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = NULL;

  if (!(in = g_file_read (file, NULL, error)))
    return FALSE;
  return g_output_stream_splice (stream, G_INPUT_STREAM (in),
                                 G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, error) >= 0;
}

static gboolean
sps_profile_exporter_write (SpsExporter    *exporter,
                            SpsTrace       *trace,
                            GVariant       *options,
                            GOutputStream  *stream,
                            SpsProgress    *progress,
                            GError        **error)
{
  g_autoptr(GVariant) dir_value = g_variant_lookup_value (options, "scratch-directory", NULL);
  g_autofree char *scratch = NULL;
  const char *dir = NULL;
  gboolean ok;
  int fd;

  if (dir_value != NULL && !g_variant_is_of_type (dir_value, G_VARIANT_TYPE_STRING))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The option “scratch-directory” must be a string"));
      return FALSE;
    }
  if (dir_value != NULL)
    dir = g_variant_get_string (dir_value, NULL);

  if (dir != NULL)
    {
      scratch = g_build_filename (dir, ".spanscope-profile-XXXXXX", NULL);
      fd = g_mkstemp (scratch);
      if (fd < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "%s: %s", dir, g_strerror (saved_errno));
          return FALSE;
        }
    }
  else if ((fd = g_file_open_tmp ("spanscope-profile-XXXXXX", &scratch, error)) < 0)
    return FALSE;
  g_close (fd, NULL);

  ok = sps_trace_save_profile (trace, scratch, options, progress, error) &&
       copy_to_stream (scratch, stream, error);
  g_unlink (scratch);
  return ok;
}

static void
sps_profile_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_profile_exporter_get_name;
  iface->get_suffix = sps_profile_exporter_get_suffix;
  iface->write = sps_profile_exporter_write;
}

static void
sps_profile_exporter_class_init (SpsProfileExporterClass *klass)
{
}

static void
sps_profile_exporter_init (SpsProfileExporter *self)
{
}
