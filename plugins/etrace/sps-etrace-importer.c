/* sps-etrace-importer.c: imports embedded execution trace streams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Recognised by content: a stream has no magic number, so the probe
 * decodes its first frames (sps_etrace_probe()). Damage in the stream is
 * counted and shown, never fatal: everything decodable is kept.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-etrace-analysis.h"
#include "sps-etrace-decoder.h"
#include "sps-etrace-importer.h"
#include "sps-etrace-live-decoder.h"

/* Bytes decoded between two progress updates and cancellation checks */
#define CHUNK_SIZE (1024 * 1024)

struct _SpsEtraceImporter
{
  GObject parent_instance;
};

static void sps_etrace_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsEtraceImporter, sps_etrace_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_etrace_importer_iface_init))

static const char *
sps_etrace_importer_get_name (SpsImporter *importer)
{
  return "etrace";
}

static guint
sps_etrace_importer_probe (SpsImporter *importer,
                           GFile       *file,
                           GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);

  g_assert (SPS_IS_ETRACE_IMPORTER (importer));

  if (data == NULL || len == 0)
    return 0;

  return sps_etrace_probe (data, len);
}

static gboolean
sps_etrace_importer_load (SpsImporter      *importer,
                          GFile            *file,
                          GVariant         *options,
                          SpsTraceBuilder  *builder,
                          SpsProgress      *progress,
                          GError          **error)
{
  g_autoptr(SpsEtraceDecoder) decoder = NULL;
  g_autoptr(GBytes) mapped = NULL;
  g_autofree char *name = NULL;
  const guint8 *data;
  gsize len;

  g_assert (SPS_IS_ETRACE_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));

  if (!(mapped = sps_file_read (file, builder, progress, error)))
    return FALSE;
  data = g_bytes_get_data (mapped, &len);

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Decoding frames"));

  decoder = sps_etrace_decoder_new ();
  name = g_file_get_parse_name (file);
  sps_etrace_decoder_set_source (decoder, name);
  sps_etrace_decoder_reserve (decoder, len);
  for (gsize pos = 0; pos < len; pos += CHUNK_SIZE)
    {
      if (progress != NULL)
        {
          if (sps_progress_is_cancelled (progress))
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
              return FALSE;
            }
          sps_progress_set_fraction (progress, (double) pos / (double) len);
        }
      sps_etrace_decoder_feed (decoder, data + pos, MIN (CHUNK_SIZE, len - pos));
    }
  if (!sps_etrace_build_stream (decoder, builder, progress, error))
    return FALSE;

  if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  return TRUE;
}

static SpsLiveDecoder *
sps_etrace_importer_new_live_decoder (SpsImporter *importer,
                                      const char  *source)
{
  g_assert (SPS_IS_ETRACE_IMPORTER (importer));

  return sps_etrace_live_decoder_new (source);
}

static void
sps_etrace_importer_iface_init (SpsImporterInterface *iface)
{
  iface->new_live_decoder = sps_etrace_importer_new_live_decoder;
  iface->get_name = sps_etrace_importer_get_name;
  iface->probe = sps_etrace_importer_probe;
  iface->load = sps_etrace_importer_load;
}

static void
sps_etrace_importer_class_init (SpsEtraceImporterClass *klass)
{
}

static void
sps_etrace_importer_init (SpsEtraceImporter *self)
{
}
