/* sps-chrome-read-context.h: what the readers of a Chrome JSON file share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-interner.h"
#include "sps-chrome-scanner.h"

G_BEGIN_DECLS

/* Reports a warning @name at byte @offset; @message is untranslated
 * (marked with N_()). */
typedef void (*SpsChromeWarnFunc) (const char *name,
                                   gsize       offset,
                                   const char *message,
                                   gpointer    user_data);

/* What the readers of a file share: the builder, the importer's string
 * cache, the input values point into, the time unit and where warnings go */
typedef struct
{
  SpsTraceBuilder   *builder;
  SpsChromeInterner *interner;
  const char        *base;
  guint              time_exp;  /* the file's time unit × 10^time_exp = ns */
  SpsChromeWarnFunc  warn;
  gpointer           user_data;
} SpsChromeReadContext;

void                    sps_chrome_read_context_warn         (const SpsChromeReadContext *ctx,
                                                              const char           *name,
                                                              gsize                 offset,
                                                              const char           *message);
guint32                 sps_chrome_read_context_intern       (const SpsChromeReadContext *ctx,
                                                              const SpsChromeValue *value);
gsize                   sps_chrome_read_context_offset       (const SpsChromeReadContext *ctx,
                                                              const SpsChromeValue *value);

/* Small readers of validated JSON values */
gboolean                sps_chrome_value_to_int64            (const SpsChromeValue *value,
                                                              gint64               *out);
guint32                 sps_chrome_value_to_one_based        (const SpsChromeValue *value);
void                    sps_chrome_get_members               (const char           *base,
                                                              const SpsChromeValue *object,
                                                              const char * const   *names,
                                                              SpsChromeValue       *values,
                                                              guint                 n);

G_END_DECLS
