/* decoy-plugin.c: an importer that recognises any file starting with "SPS"
 * with a low score and always fails to load, so tests can check that the
 * best score wins and that an importer's error reaches the caller.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-decoy"

#include "config.h"

#include <string.h>

#include <libpeas/peas.h>
#include <spanscope-core.h>

#define DECOY_SCORE 10

#define SPS_TEST_TYPE_DECOY_IMPORTER (sps_test_decoy_importer_get_type ())
G_DECLARE_FINAL_TYPE (SpsTestDecoyImporter, sps_test_decoy_importer, SPS_TEST, DECOY_IMPORTER, GObject)

struct _SpsTestDecoyImporter
{
  GObject parent_instance;
};

static void sps_test_decoy_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (SpsTestDecoyImporter, sps_test_decoy_importer, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_IMPORTER,
                                                               sps_test_decoy_importer_iface_init))

static const char *
sps_test_decoy_importer_get_name (SpsImporter *importer)
{
  return "decoy";
}

static guint
sps_test_decoy_importer_probe (SpsImporter *importer,
                               GFile       *file,
                               GBytes      *head)
{
  gsize size;
  const char *data = g_bytes_get_data (head, &size);

  return size >= 3 && memcmp (data, "SPS", 3) == 0 ? DECOY_SCORE : 0;
}

static gboolean
sps_test_decoy_importer_load (SpsImporter      *importer,
                              GFile            *file,
                              GVariant         *options,
                              SpsTraceBuilder  *builder,
                              SpsProgress      *progress,
                              GError          **error)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED,
               "%s (byte 0): the decoy importer reads nothing", name);
  return FALSE;
}

static void
sps_test_decoy_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_test_decoy_importer_get_name;
  iface->probe = sps_test_decoy_importer_probe;
  iface->load = sps_test_decoy_importer_load;
}

static void
sps_test_decoy_importer_class_init (SpsTestDecoyImporterClass *klass)
{
}

static void
sps_test_decoy_importer_class_finalize (SpsTestDecoyImporterClass *klass)
{
}

static void
sps_test_decoy_importer_init (SpsTestDecoyImporter *self)
{
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  sps_test_decoy_importer_register_type (G_TYPE_MODULE (module));
  peas_object_module_register_extension_type (module, SPS_TYPE_IMPORTER, SPS_TEST_TYPE_DECOY_IMPORTER);
}
