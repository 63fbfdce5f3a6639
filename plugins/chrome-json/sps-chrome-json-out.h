/* sps-chrome-json-out.h: JSON text written by the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <spanscope-core.h>

G_BEGIN_DECLS

/* Text helpers. GString's own append goes through g_string_insert_len();
 * the exporter appends many short pieces, so it copies in place when
 * they fit, as g_string_append_c() does. */

static inline void
sps_chrome_out_len (GString    *out,
                    const char *text,
                    gsize       len)
{
  if G_LIKELY (out->len + len < out->allocated_len)
    {
      memcpy (out->str + out->len, text, len);
      out->len += len;
      out->str[out->len] = '\0';
    }
  else
    {
      g_string_append_len (out, text, len);
    }
}

#define sps_chrome_out_literal(out, literal) sps_chrome_out_len ((out), "" literal "", sizeof (literal) - 1)

void sps_chrome_out_double  (GString    *out,
                             double      value);
void sps_chrome_out_string  (GString    *out,
                             const char *str,
                             gsize       len);
void sps_chrome_out_value   (GString    *out,
                             const char *text,
                             gsize       len);

G_END_DECLS
