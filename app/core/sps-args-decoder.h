/* sps-args-decoder.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-types.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

#define SPS_TYPE_ARGS_DECODER (sps_args_decoder_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsArgsDecoder, sps_args_decoder, SPS, ARGS_DECODER, GObject)

/**
 * SpsArgsDecoderInterface:
 * @decode: appends to @json the args, as one JSON value, that @cookie
 *   stands for (the cookie the importer gave sps_args_ref_new_deferred());
 *   %FALSE with @error set when they cannot be read. Called on any
 *   thread, several at once: an implementation guards what it shares.
 *
 * What turns deferred args into JSON text when a view, a query or an
 * exporter reads them. An importer whose format stores args compactly
 * (binary payloads) keeps a reference to where they are instead of
 * writing their text during the import, and gives the builder the
 * decoder that reads them there (sps_trace_builder_add_args_decoder());
 * the trace keeps the decoder as long as it lives.
 */
struct _SpsArgsDecoderInterface
{
  GTypeInterface parent_iface;

  gboolean (*decode) (SpsArgsDecoder *self,
                      guint64         cookie,
                      GString        *json,
                      GError        **error);
};

SPS_AVAILABLE_IN_ALL
gboolean sps_args_decoder_decode (SpsArgsDecoder *self,
                                  guint64         cookie,
                                  GString        *json,
                                  GError        **error);

G_END_DECLS
