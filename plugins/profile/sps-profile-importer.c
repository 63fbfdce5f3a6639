/* sps-profile-importer.c: reopens a saved profile (.spprofile)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Recognised by its header (SQLite's magic and our application id), read
 * by the core's fast path, which hands finish() the tables as they were
 * saved.
 */

#define G_LOG_DOMAIN "sps-profile-plugin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-profile-importer.h"

struct _SpsProfileImporter
{
  GObject parent_instance;
};

static void sps_profile_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsProfileImporter, sps_profile_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER,
                                                      sps_profile_importer_iface_init))

static const char *
sps_profile_importer_get_name (SpsImporter *importer)
{
  return "spanscope-profile";
}

static guint
sps_profile_importer_probe (SpsImporter *importer,
                            GFile       *file,
                            GBytes      *head)
{
  return sps_profile_probe (head);
}

static gboolean
sps_profile_importer_load (SpsImporter      *importer,
                           GFile            *file,
                           GVariant         *options,
                           SpsTraceBuilder  *builder,
                           SpsProgress      *progress,
                           GError          **error)
{
  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the profile"));
  return sps_trace_builder_load_profile (builder, file, progress, error);
}

static void
sps_profile_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_profile_importer_get_name;
  iface->probe = sps_profile_importer_probe;
  iface->load = sps_profile_importer_load;
}

static void
sps_profile_importer_class_init (SpsProfileImporterClass *klass)
{
}

static void
sps_profile_importer_init (SpsProfileImporter *self)
{
}
