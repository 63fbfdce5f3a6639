/* sps-chrome-interner.h: interns strings read from the input, with a cache
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-scanner.h"

G_BEGIN_DECLS

/* Facts about an interned string, computed once per distinct raw text. */
typedef enum
{
  SPS_CHROME_STRING_NONE         = 0,
  SPS_CHROME_STRING_SAMPLE_EVENT = 1 << 0,  /* a category list with the token sampleEvent */
  SPS_CHROME_STRING_REPLACED     = 1 << 1,  /* invalid UTF-8 or \u0000 became U+FFFD */
} SpsChromeStringFlags;

typedef struct _SpsChromeInterner SpsChromeInterner;

SpsChromeInterner *sps_chrome_interner_new        (SpsStringPool        *pool);
void               sps_chrome_interner_free       (SpsChromeInterner    *self);
guint32            sps_chrome_interner_intern_raw (SpsChromeInterner    *self,
                                                   const char           *raw,
                                                   gsize                 len,
                                                   gboolean              escaped,
                                                   guint                *flags);
guint32            sps_chrome_interner_intern_hashed (SpsChromeInterner *self,
                                                   const char           *raw,
                                                   gsize                 len,
                                                   gboolean              escaped,
                                                   guint32               hash,
                                                   guint                *flags);
guint32            sps_chrome_interner_intern     (SpsChromeInterner    *self,
                                                   const SpsChromeValue *value,
                                                   guint                *flags);
gboolean           sps_chrome_has_token           (const char           *list,
                                                   gsize                 len,
                                                   const char           *token);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeInterner, sps_chrome_interner_free)

G_END_DECLS
