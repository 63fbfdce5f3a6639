/* sps-chrome-read-context.c: what the readers of a Chrome JSON file share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The context of the readers beside the importer (V8 CPU profiles, the
 * top-level samples): where warnings go, the string cache, the input; and
 * small readers of validated JSON values.
 */

#define G_LOG_DOMAIN "sps-chrome-cpu-profile"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-read-context.h"

/**
 * sps_chrome_read_context_offset:
 * @ctx: a reader's context
 * @value: a value of the input
 *
 * Returns: where @value starts in the input
 */
gsize
sps_chrome_read_context_offset (const SpsChromeReadContext *ctx,
                                const SpsChromeValue       *value)
{
  return (gsize) (value->ptr - ctx->base);
}

/* Counts warning @name at @offset; @message is marked with N_() */
void
sps_chrome_read_context_warn (const SpsChromeReadContext *ctx,
                              const char                 *name,
                              gsize                       offset,
                              const char                 *message)
{
  ctx->warn (name, offset, message, ctx->user_data);
}

/* Interns a string of the input; a repaired string is counted where it is */
guint32
sps_chrome_read_context_intern (const SpsChromeReadContext *ctx,
                                const SpsChromeValue       *value)
{
  guint flags = 0;
  guint32 id = sps_chrome_interner_intern (ctx->interner, value, &flags);

  if (flags & SPS_CHROME_STRING_REPLACED)
    sps_chrome_read_context_warn (ctx, "invalid_utf8", sps_chrome_read_context_offset (ctx, value),
                                  N_("a string holds invalid UTF-8 or \\u0000; replaced with U+FFFD"));
  return id;
}

/* An integer as V8 and perf write them: a number or a numeric string, 12.0
 * included. */
gboolean
sps_chrome_value_to_int64 (const SpsChromeValue *value,
                           gint64               *out)
{
  double d;

  if (value->type != SPS_CHROME_VALUE_NUMBER &&
      (value->type != SPS_CHROME_VALUE_STRING || value->escaped))
    return FALSE;
  if (sps_chrome_parse_int64 (value->ptr, value->len, out) == SPS_CHROME_NUMBER_OK)
    return TRUE;
  /* 12.0 is an integer written as a float */
  if (sps_chrome_value_to_double (value, &d) && d == floor (d) && fabs (d) < 9.0e18)
    {
      *out = (gint64) d;
      return TRUE;
    }
  return FALSE;
}

/* A 0-based V8 line or column as a 1-based one, 0 when unknown (-1). */
guint32
sps_chrome_value_to_one_based (const SpsChromeValue *value)
{
  gint64 v;

  if (value->type == SPS_CHROME_VALUE_NONE || !sps_chrome_value_to_int64 (value, &v) ||
      v < 0 || v >= G_MAXUINT32)
    return 0;
  return (guint32) v + 1;
}

/* Fills values[i] with member names[i] of @object (the last one when it
 * repeats; type NONE when absent), in one pass. */
void
sps_chrome_get_members (const char           *base,
                        const SpsChromeValue *object,
                        const char * const   *names,
                        SpsChromeValue       *values,
                        guint                 n)
{
  SpsChromeScanner scanner;
  SpsChromeValue key;
  SpsChromeValue value;

  for (guint i = 0; i < n; i++)
    values[i].type = SPS_CHROME_VALUE_NONE;
  if (object->type != SPS_CHROME_VALUE_OBJECT)
    return;

  /* The event scanner validated the object, so walking it cannot fail */
  sps_chrome_scanner_init_range (&scanner, base, object->ptr, object->ptr + object->len, 0);
  if (sps_chrome_scanner_enter (&scanner, '{') == SPS_CHROME_SCAN_OK)
    while (sps_chrome_scanner_next_member (&scanner, &key) == SPS_CHROME_SCAN_OK &&
           sps_chrome_scanner_read_value (&scanner, &value) == SPS_CHROME_SCAN_OK)
      for (guint i = 0; i < n; i++)
        if (sps_chrome_value_equals (&key, names[i]))
          values[i] = value;
  sps_chrome_scanner_clear (&scanner);
}
