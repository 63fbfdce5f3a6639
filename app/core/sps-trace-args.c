/* sps-trace-args.c: reading the args of a trace's events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Args are JSON text in the input or the builder's arena, referenced in
 * place, or deferred: kept as the file has them and made into text by
 * the importer's decoder when they are read (see #SpsArgsRef).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-args-merge-private.h"
#include "sps-trace.h"
#include "sps-trace-private.h"

/**
 * sps_trace_get_args_json:
 * @self: a #SpsTrace
 * @ref: an args reference from one of the tables
 * @len: (out): the length of the text in bytes
 *
 * Finds the JSON text of some args without copying it, when the trace
 * keeps it as text. The text is not NUL-terminated. Deferred args
 * (sps_args_ref_is_deferred()) have no text until they are decoded: read
 * them with sps_trace_append_args_json() or sps_trace_dup_args_json(),
 * which take every kind of reference.
 *
 * Returns: (nullable) (transfer none): the text, or %NULL for
 *   %SPS_ARGS_REF_NONE, deferred args or a reference outside its store
 */
const char *
sps_trace_get_args_json (SpsTrace   *self,
                         SpsArgsRef  ref,
                         gsize      *len)
{
  GBytes *store;
  const char *data;
  gsize size = 0;

  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);
  g_return_val_if_fail (len != NULL, NULL);

  *len = 0;

  if (ref == SPS_ARGS_REF_NONE || sps_args_ref_is_deferred (ref))
    return NULL;

  store = (ref & SPS_ARGS_REF_ARENA_BIT) != 0 ? self->arena : self->source;
  if (store == NULL)
    return NULL;

  data = g_bytes_get_data (store, &size);

  return _sps_args_ref_text (data, size, ref, len);
}

/**
 * _sps_args_decode:
 * @decoders: (element-type SpsArgsDecoder): a builder's or a trace's
 * @ref: a deferred reference
 * @out: where the text is appended
 * @error: return location for a #GError
 *
 * Returns: %TRUE when @ref's decoder appended its text
 */
gboolean
_sps_args_decode (GPtrArray   *decoders,
                  SpsArgsRef   ref,
                  GString     *out,
                  GError     **error)
{
  guint decoder = (ref >> SPS_ARGS_REF_DECODER_SHIFT) & 0xf;

  if (decoder == 0 || decoders == NULL || decoder > decoders->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The args’ decoder is missing"));
      return FALSE;
    }
  return sps_args_decoder_decode (g_ptr_array_index (decoders, decoder - 1),
                                  ref & SPS_ARGS_REF_COOKIE_MASK, out, error);
}

/**
 * sps_trace_append_args_json:
 * @self: a #SpsTrace
 * @ref: an args reference from one of the tables
 * @out: where the JSON text is appended
 * @error: return location for a #GError
 *
 * Appends the JSON text of some args, whatever keeps them: text in place
 * is copied, deferred args are decoded. Nothing is appended for
 * %SPS_ARGS_REF_NONE. Safe to call from several threads at once.
 *
 * Returns: %TRUE on success, %FALSE with @error set when the args are
 *   outside the trace's data or cannot be decoded (@out unchanged)
 */
gboolean
sps_trace_append_args_json (SpsTrace    *self,
                            SpsArgsRef   ref,
                            GString     *out,
                            GError     **error)
{
  const char *text;
  gsize len;

  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (ref == SPS_ARGS_REF_NONE)
    return TRUE;
  if (sps_args_ref_is_deferred (ref))
    return _sps_args_decode (self->decoders, ref, out, error);

  text = sps_trace_get_args_json (self, ref, &len);
  if (text == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The args text is outside the trace’s data"));
      return FALSE;
    }
  g_string_append_len (out, text, (gssize) len);
  return TRUE;
}

/**
 * sps_trace_dup_args_json:
 * @self: a #SpsTrace
 * @ref: an args reference from one of the tables
 * @len: (out) (optional): the length of the text in bytes
 *
 * Like sps_trace_append_args_json(), into a new string.
 *
 * Returns: (transfer full) (nullable): the NUL-terminated text, or %NULL
 *   for %SPS_ARGS_REF_NONE and args that cannot be read
 */
char *
sps_trace_dup_args_json (SpsTrace   *self,
                         SpsArgsRef  ref,
                         gsize      *len)
{
  g_autoptr(GString) text = NULL;

  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  if (len != NULL)
    *len = 0;
  if (ref == SPS_ARGS_REF_NONE)
    return NULL;

  text = g_string_new (NULL);
  if (!sps_trace_append_args_json (self, ref, text, NULL) || text->len == 0)
    return NULL;
  if (len != NULL)
    *len = text->len;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * sps_trace_parse_args:
 * @self: a #SpsTrace
 * @ref: an args reference from one of the tables
 * @error: return location for a #GError
 *
 * Parses args with json-glib, on demand (the trace keeps only the text,
 * or what its decoder makes text of).
 *
 * Returns: (transfer full) (nullable): the parsed value; %NULL without an
 *   error for %SPS_ARGS_REF_NONE, %NULL with @error set if the text is
 *   missing or not valid JSON
 */
JsonNode *
sps_trace_parse_args (SpsTrace    *self,
                      SpsArgsRef   ref,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GString) decoded = NULL;
  const char *text;
  JsonNode *root;
  gsize len;

  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (ref == SPS_ARGS_REF_NONE)
    return NULL;

  if (sps_args_ref_is_deferred (ref))
    {
      decoded = g_string_new (NULL);
      if (!_sps_args_decode (self->decoders, ref, decoded, error))
        return NULL;
      text = decoded->str;
      len = decoded->len;
    }
  else if ((text = sps_trace_get_args_json (self, ref, &len)) == NULL || len > G_MAXSSIZE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The args text is outside the trace’s data"));
      return NULL;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, (gssize) len, error))
    return NULL;

  root = json_parser_steal_root (parser);
  if (root == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("The args text is empty"));

  return root;
}
