/* sps-frame-glob.c: the --first-span / --span-filter patterns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Unix wildcards (`*`, `?`) matched case-insensitively against a frame's
 * whole name without its `module!` prefix, as the stack repair of
 * .nettrace captures and the filtered sample view both apply them.
 */

#define G_LOG_DOMAIN "sps-frame-glob"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-analysis.h"
#include "sps-frame-glob-private.h"

/* Compiles @pattern, the value of option @option; an empty pattern is an
 * error (it would match nothing, which is never what was meant). */
GPatternSpec *
_sps_frame_glob_new (const char  *pattern,
                     const char  *option,
                     GError     **error)
{
  g_autofree char *folded = NULL;

  g_return_val_if_fail (pattern != NULL, NULL);

  if (pattern[0] == '\0')
    {
      g_set_error (error, SPS_ANALYSIS_ERROR, SPS_ANALYSIS_ERROR_INVALID_OPTION,
                   /* Translators: %s is an option name such as first-span */
                   _("The pattern of “%s” is empty"), option);
      return NULL;
    }

  folded = g_utf8_casefold (pattern, -1);

  return g_pattern_spec_new (folded);
}

/* Whether the frame @name of @module (nullable) matches @glob. */
gboolean
_sps_frame_glob_match (GPatternSpec *glob,
                       const char   *name,
                       const char   *module)
{
  g_autofree char *folded = NULL;
  gsize module_len;

  if (name == NULL)
    name = "";

  if (module != NULL && (module_len = strlen (module)) > 0 &&
      strncmp (name, module, module_len) == 0 && name[module_len] == '!')
    name += module_len + 1;

  folded = g_utf8_casefold (name, -1);

  return g_pattern_spec_match_string (glob, folded);
}
