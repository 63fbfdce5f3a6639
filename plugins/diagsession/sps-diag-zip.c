/* sps-diag-zip.c: libzip, opened the first time a package is read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libzip links OpenSSL's libcrypto (for encrypted archives, which the
 * importer never reads). Loaded with the plugin, the two cost 10 – 20 ms
 * at every start of the application and the command line tool, whatever
 * file they open: ten times all the other plugins together. The plugin
 * is therefore not linked to libzip; the package reader asks here for its
 * functions, and libzip is opened once, by the file name the build found
 * the dynamic linker gives it (SPS_LIBZIP_SONAME). A build that could not
 * find it (cross builds) links libzip as usual, and these are its
 * functions.
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <gmodule.h>
#include <spanscope-core.h>

#include "sps-diag-zip.h"

#ifdef SPS_LIBZIP_SONAME

typedef struct
{
  SpsDiagZip  api;
  char       *error;        /* why libzip could not be opened; NULL */
} Loaded;

static Loaded *
load (void)
{
  Loaded *loaded = g_new0 (Loaded, 1);
  GModule *module = g_module_open (SPS_LIBZIP_SONAME, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);

  if (module == NULL)
    {
      loaded->error = g_strdup (g_module_error ());
      return loaded;
    }
#define SPS_DIAG_ZIP_LOAD(name) \
  if (loaded->error == NULL && !g_module_symbol (module, #name, (gpointer *) &loaded->api.name)) \
    loaded->error = g_strdup (g_module_error ());
  SPS_DIAG_ZIP_FUNCTIONS (SPS_DIAG_ZIP_LOAD)
#undef SPS_DIAG_ZIP_LOAD
  /* Kept for the process's life: the plugin is never unloaded either */
  g_module_make_resident (module);
  return loaded;
}

/**
 * sps_diag_zip_get:
 * @error: return location for a #GError
 *
 * Returns: (nullable): libzip's functions, or %NULL with @error set when
 *   libzip cannot be opened
 */
const SpsDiagZip *
sps_diag_zip_get (GError **error)
{
  static Loaded *loaded;

  if (g_once_init_enter (&loaded))
    g_once_init_leave (&loaded, load ());
  if (loaded->error != NULL)
    {
      /* Translators: the library's file name, then the system's reason */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED,
                   _("ZIP packages cannot be read: %s cannot be loaded (%s)"), SPS_LIBZIP_SONAME, loaded->error);
      return NULL;
    }
  return &loaded->api;
}

#else /* !SPS_LIBZIP_SONAME */

#define SPS_DIAG_ZIP_DIRECT(name) name,

const SpsDiagZip *
sps_diag_zip_get (GError **error G_GNUC_UNUSED)
{
  static const SpsDiagZip direct = { SPS_DIAG_ZIP_FUNCTIONS (SPS_DIAG_ZIP_DIRECT) };

  return &direct;
}

#endif
