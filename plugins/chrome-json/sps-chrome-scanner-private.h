/* sps-chrome-scanner-private.h: the lexer shared by the scanner's files
 *
 * The scanner is spread over sps-chrome-scanner.c (values, validator,
 * driver), -event.c (whole events) and -values.c (numbers, strings).
 * This header holds the lexing helpers every event goes through
 * (whitespace, string ends, strings) and the failures they report, inline
 * so that they stay inlined where they are called as they were in one
 * file (and the compiler still sees that a failure returns NULL), and the
 * separator error and value reader that sps-chrome-scanner.c provides to
 * the others.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#ifdef __SSE2__
# include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-chrome-scanner.h"

G_BEGIN_DECLS

const char *_sps_fail_separator (SpsChromeScanner *self,
                                 const char       *at,
                                 char              close);
const char *_sps_lex_value      (SpsChromeScanner *self,
                                 const char       *p,
                                 guint             depth,
                                 SpsChromeValue   *value);

static const guint8 ws_class[256] = {
  [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

#define IS_DIGIT(c) ((guint) ((guchar) (c) - '0') < 10)

G_ALWAYS_INLINE static inline const char *
skip_ws (const char *p,
         const char *end)
{
  while (p < end && (guchar) *p <= ' ' && ws_class[(guchar) *p])
    p++;
  return p;
}

/* Finds the closing quote of a string whose text starts at @p, looking no
 * further than @limit. Returns NULL when @limit comes first. Sets
 * *@escaped when a backslash escape is seen. */
G_ALWAYS_INLINE static inline const char *
find_quote (const char *p,
            const char *limit,
            gboolean   *escaped)
{
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8 ('"');
  const __m128i backslash = _mm_set1_epi8 ('\\');
#endif

  for (;;)
    {
#ifdef __SSE2__
      while (limit - p >= 16)
        {
          __m128i chunk = _mm_loadu_si128 ((const __m128i *) (const void *) p);
          guint mask = (guint) _mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (chunk, quote),
                                                                _mm_cmpeq_epi8 (chunk, backslash)));
          if (mask != 0)
            {
              p += __builtin_ctz (mask);
              goto found;
            }
          p += 16;
        }
#endif
      while (p < limit && *p != '"' && *p != '\\')
        p++;
      if (p >= limit)
        return NULL;
#ifdef __SSE2__
    found:
#endif
      if (*p == '"')
        return p;
      *escaped = TRUE;
      if (limit - p < 2)
        return NULL;
      p += 2;
    }
}

static inline const char *
fail_error (SpsChromeScanner *self,
            SpsImportError    code,
            const char       *at,
            const char       *message)
{
  g_assert (self->error_message == NULL);

  self->error_code = code;
  self->error_offset = (gsize) (at - self->base);
  self->error_message = g_strdup (message);
  self->failure = SPS_CHROME_SCAN_ERROR;
  return NULL;
}

static inline const char *
fail_eof (SpsChromeScanner *self)
{
  self->eof_inside = TRUE;
  self->failure = SPS_CHROME_SCAN_EOF;
  return NULL;
}

static inline const char *
fail_depth (SpsChromeScanner *self,
            const char       *at)
{
  return fail_error (self, SPS_IMPORT_ERROR_TOO_LARGE, at, _("nesting deeper than 1000 levels"));
}

/* Reads a string whose opening quote is at @p. Returns the position after
 * the closing quote. */
G_ALWAYS_INLINE static inline const char *
lex_string (SpsChromeScanner *self,
            const char       *p,
            SpsChromeValue   *value)
{
  const char *start = p + 1;
  const char *limit = self->end;
  const char *q;
  gboolean escaped = FALSE;

  if G_UNLIKELY ((gsize) (limit - start) > SPS_CHROME_MAX_STRING)
    limit = start + SPS_CHROME_MAX_STRING + 1;

  q = find_quote (start, limit, &escaped);
  if G_UNLIKELY (q == NULL)
    {
      if (limit < self->end)
        return fail_error (self, SPS_IMPORT_ERROR_TOO_LARGE, p, _("string longer than 256 MiB"));
      return fail_eof (self);
    }
  if G_UNLIKELY ((gsize) (q - start) > SPS_CHROME_MAX_STRING)
    return fail_error (self, SPS_IMPORT_ERROR_TOO_LARGE, p, _("string longer than 256 MiB"));

  value->ptr = start;
  value->len = (guint32) (q - start);
  value->type = SPS_CHROME_VALUE_STRING;
  value->escaped = escaped;
  return q + 1;
}

static inline SpsChromeScanResult
result_of_failure (SpsChromeScanner *self,
                   const char       *at)
{
  g_assert (self->failure == SPS_CHROME_SCAN_EOF || self->failure == SPS_CHROME_SCAN_ERROR);

  self->p = at;
  return self->failure;
}

G_END_DECLS
