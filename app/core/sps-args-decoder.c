/* sps-args-decoder.c: args whose text is made when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-args-decoder.h"

G_DEFINE_INTERFACE (SpsArgsDecoder, sps_args_decoder, G_TYPE_OBJECT)

static void
sps_args_decoder_default_init (SpsArgsDecoderInterface *iface)
{
}

/**
 * sps_args_decoder_decode:
 * @self: a #SpsArgsDecoder
 * @cookie: what the importer put in a deferred #SpsArgsRef
 * @json: where the JSON text is appended
 * @error: return location for a #GError
 *
 * Appends the JSON text of the args @cookie stands for to @json. On
 * failure @json is left as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_args_decoder_decode (SpsArgsDecoder *self,
                         guint64         cookie,
                         GString        *json,
                         GError        **error)
{
  gsize len;

  g_return_val_if_fail (SPS_IS_ARGS_DECODER (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  len = json->len;
  if (SPS_ARGS_DECODER_GET_IFACE (self)->decode (self, cookie, json, error))
    return TRUE;
  g_string_truncate (json, len);
  return FALSE;
}
