/* faulty-plugin.c: plugins that break their contract, one per build flag
 * (see meson.build):
 *
 *   FAULTY_NOTHING   registers no extension at all
 *   FAULTY_IMPORTER  an importer that claims spslines files as surely as
 *                    the real one and fails to load them without a reason
 *   FAULTY_PROBE     an importer whose probe answers G_MAXUINT for
 *                    spslines files (a binding's -1), out of the 0–100
 *                    range of scores
 *   FAULTY_EXPORTER  an exporter "faulty" whose write sets an error and
 *                    returns success
 *   FAULTY_ANALYSIS  an analysis "faulty" whose run fails without a reason
 *   FAULTY_VIEW      a view whose create_panel makes no panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-faulty"

#include "config.h"

#include <string.h>

#include <libpeas/peas.h>
#include <spanscope-core.h>
#ifdef FAULTY_VIEW
# include <spanscope-gtk.h>
#endif

#ifndef FAULTY_NOTHING

#if defined (FAULTY_IMPORTER) || defined (FAULTY_PROBE)

static guint
sps_test_faulty_probe (SpsImporter *importer,
                       GFile       *file,
                       GBytes      *head)
{
  gsize size;
  const char *data = g_bytes_get_data (head, &size);
  gboolean lines = size >= 8 && memcmp (data, "SPSLINES", 8) == 0;

#ifdef FAULTY_PROBE
  return lines ? G_MAXUINT : 0;
#else
  return lines ? 100 : 0;
#endif
}

static gboolean
sps_test_faulty_load (SpsImporter      *importer,
                      GFile            *file,
                      GVariant         *options,
                      SpsTraceBuilder  *builder,
                      SpsProgress      *progress,
                      GError          **error)
{
  return FALSE;
}

static const char *
sps_test_faulty_importer_get_name (SpsImporter *importer)
{
#ifdef FAULTY_PROBE
  return "faultyprobe";
#else
  return "faulty";
#endif
}

static void
sps_test_faulty_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_test_faulty_importer_get_name;
  iface->probe = sps_test_faulty_probe;
  iface->load = sps_test_faulty_load;
}

#define FAULTY_IFACE_TYPE SPS_TYPE_IMPORTER
#ifdef FAULTY_PROBE
# define FAULTY_TYPE_NAME "SpsTestFaultyProbeImporter"
#else
# define FAULTY_TYPE_NAME "SpsTestFaultyImporter"
#endif

#elif defined (FAULTY_ANALYSIS)

static gboolean
sps_test_faulty_run (SpsAnalysis      *analysis,
                     SpsTraceBuilder  *builder,
                     GVariant         *options,
                     SpsProgress      *progress,
                     GError          **error)
{
  return FALSE;
}

static const char *
sps_test_faulty_analysis_get_name (SpsAnalysis *analysis)
{
  return "faulty";
}

static void
sps_test_faulty_iface_init (SpsAnalysisInterface *iface)
{
  iface->get_name = sps_test_faulty_analysis_get_name;
  iface->run = sps_test_faulty_run;
}

#define FAULTY_IFACE_TYPE SPS_TYPE_ANALYSIS
#define FAULTY_TYPE_NAME "SpsTestFaultyAnalysis"

#elif defined (FAULTY_VIEW)

static const char *
sps_test_faulty_get_title (SpsView *view)
{
  return "Faulty";
}

static GtkWidget *
sps_test_faulty_create_panel (SpsView    *view,
                              SpsSession *session)
{
  return NULL;
}

static void
sps_test_faulty_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_test_faulty_get_title;
  iface->create_panel = sps_test_faulty_create_panel;
}

#define FAULTY_IFACE_TYPE SPS_TYPE_VIEW
#define FAULTY_TYPE_NAME "SpsTestFaultyView"

#else

static gboolean
sps_test_faulty_write (SpsExporter    *exporter,
                       SpsTrace       *trace,
                       GVariant       *options,
                       GOutputStream  *stream,
                       SpsProgress    *progress,
                       GError        **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the faulty exporter gives up");
  return TRUE;
}

static const char *
sps_test_faulty_exporter_get_name (SpsExporter *exporter)
{
  return "faulty";
}

static void
sps_test_faulty_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_test_faulty_exporter_get_name;
  iface->write = sps_test_faulty_write;
}

#define FAULTY_IFACE_TYPE SPS_TYPE_EXPORTER
#define FAULTY_TYPE_NAME "SpsTestFaultyExporter"

#endif

#endif

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
#ifndef FAULTY_NOTHING
  /* Registered by hand so that each build has its own type name. */
  const GTypeInfo info = { sizeof (GObjectClass), NULL, NULL, NULL, NULL, NULL, sizeof (GObject), 0, NULL, NULL };
  const GInterfaceInfo iface_info = { (GInterfaceInitFunc) sps_test_faulty_iface_init, NULL, NULL };
  GType type;

  type = g_type_module_register_type (G_TYPE_MODULE (module), G_TYPE_OBJECT, FAULTY_TYPE_NAME, &info, 0);
  g_type_module_add_interface (G_TYPE_MODULE (module), type, FAULTY_IFACE_TYPE, &iface_info);
  peas_object_module_register_extension_type (module, FAULTY_IFACE_TYPE, type);
#endif
}
