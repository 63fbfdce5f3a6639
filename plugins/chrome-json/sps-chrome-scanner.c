/* sps-chrome-scanner.c: a streaming scanner for Chrome trace JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The scanner reads the mapped file in place. It never builds a tree:
 * events are read one at a time into a fixed SpsChromeEvent whose values
 * point into the input, and everything the importer does not look at
 * (args, unknown keys) is skipped by an iterative, depth-limited validator.
 *
 * Speed comes from a few habits: the lexing helpers take the cursor by
 * value and return the new one (NULL on failure, the reason in
 * self->failure), so it stays in a register; string ends are found 16
 * bytes at a time with SSE2; the keys the importer knows are recognised
 * with one 8-byte load and a mask instead of being scanned and compared;
 * and the usual integers and microsecond times are converted in the same
 * pass that finds their end.
 */

#define G_LOG_DOMAIN "sps-chrome-scanner"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#ifdef __SSE2__
# include <emmintrin.h>
#endif

#include "sps-chrome-scanner.h"

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

static const char *
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

static const char *
fail_eof (SpsChromeScanner *self)
{
  self->eof_inside = TRUE;
  self->failure = SPS_CHROME_SCAN_EOF;
  return NULL;
}

static const char *
fail_unexpected (SpsChromeScanner *self,
                 const char       *at)
{
  g_autofree char *message = NULL;

  if (g_ascii_isprint (*at))
    message = g_strdup_printf (_("unexpected character '%c'"), *at);
  else
    message = g_strdup_printf (_("unexpected byte 0x%02x"), (guchar) *at);
  return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, at, message);
}

static const char *
fail_separator (SpsChromeScanner *self,
                const char       *at,
                char              close)
{
  g_autofree char *message = NULL;

  if (g_ascii_isprint (*at))
    /* Translators: the first %c is ] or }, the second the character found */
    message = g_strdup_printf (_("expected ',' or '%c' but found '%c'"), close, *at);
  else
    /* Translators: %c is ] or } */
    message = g_strdup_printf (_("expected ',' or '%c' but found byte 0x%02x"), close, (guchar) *at);
  return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, at, message);
}

static const char *
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

/* Reads the extent of a number starting at @p (a '-' or a digit) and
 * checks its grammar. */
static const char *
lex_number (SpsChromeScanner *self,
            const char       *p,
            SpsChromeValue   *value)
{
  const char *end = self->end;
  const char *q = p;

  if (*q == '-')
    q++;
  if (q >= end)
    return fail_eof (self);
  if G_UNLIKELY (!IS_DIGIT (*q))
    {
      if (*q == 'I')
        return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("-Infinity is not a valid JSON number"));
      return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("invalid number"));
    }
  while (q < end && IS_DIGIT (*q))
    q++;
  if (q < end && *q == '.')
    {
      q++;
      if (q >= end)
        return fail_eof (self);
      if G_UNLIKELY (!IS_DIGIT (*q))
        return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, q, _("invalid number: expected a digit after '.'"));
      while (q < end && IS_DIGIT (*q))
        q++;
    }
  if (q < end && (*q == 'e' || *q == 'E'))
    {
      q++;
      if (q < end && (*q == '+' || *q == '-'))
        q++;
      if (q >= end)
        return fail_eof (self);
      if G_UNLIKELY (!IS_DIGIT (*q))
        return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, q, _("invalid number: expected a digit in the exponent"));
      while (q < end && IS_DIGIT (*q))
        q++;
    }
  if G_UNLIKELY (q - p > 4096)
    return fail_error (self, SPS_IMPORT_ERROR_TOO_LARGE, p, _("number longer than 4096 characters"));

  value->ptr = p;
  value->len = (guint32) (q - p);
  value->type = SPS_CHROME_VALUE_NUMBER;
  value->escaped = FALSE;
  return q;
}

static const char *
lex_literal (SpsChromeScanner *self,
             const char       *p,
             SpsChromeValue   *value)
{
  static const struct {
    const char *text;
    guint8      len;
    guint8      type;
  } literals[] = {
    { "true", 4, SPS_CHROME_VALUE_TRUE },
    { "false", 5, SPS_CHROME_VALUE_FALSE },
    { "null", 4, SPS_CHROME_VALUE_NULL },
  };
  gsize avail = (gsize) (self->end - p);

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      gsize n = literals[i].len;

      if (*p != literals[i].text[0])
        continue;
      if (memcmp (p, literals[i].text, MIN (n, avail)) == 0)
        {
          if (avail < n)
            return fail_eof (self);
          value->ptr = p;
          value->len = (guint32) n;
          value->type = literals[i].type;
          value->escaped = FALSE;
          return p + n;
        }
    }

  if (*p == 'N')
    return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("NaN is not a valid JSON value"));
  if (*p == 'I')
    return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("Infinity is not a valid JSON value"));
  return fail_unexpected (self, p);
}

/* The number of ASCII digits at @p, before @end. */
G_ALWAYS_INLINE static inline gsize
digit_run (const char *p,
           const char *end)
{
  const char *q = p;

  if G_LIKELY (end - p >= 8)
    {
      guint64 d;
      guint64 non_digit = sps_chrome_non_digits (p, &d);

      if (non_digit != 0)
        return (gsize) __builtin_ctzll (non_digit) / 8;
      q += 8;
    }
  while (q < end && IS_DIGIT (*q))
    q++;
  return (gsize) (q - p);
}

/* Skips the run of plain integers that starts at @p inside an array,
 * each followed by a ',' and another number, as in V8's samples and
 * timeDeltas: millions of them per trace, so they do not go through
 * lex_number() one by one. Returns the start of the first number that
 * is not such a plain one (the last of the run, a float, an exponent,
 * anything malformed), which the caller lexes as usual: what is
 * skipped here is exactly what lex_number() accepts, so errors and
 * their offsets do not change. */
static const char *
skip_int_run (const char *p,
              const char *end)
{
  for (;;)
    {
      const char *q = p + (*p == '-');
      gsize n = digit_run (q, end);

      q += n;
      if (n == 0 || q - p > 4096 || end - q < 2 || *q != ',' || !(IS_DIGIT (q[1]) || q[1] == '-'))
        return p;
      p = q + 1;
    }
}

/* Skips to the end of @open containers, the innermost opening at @p,
 * matching brackets only (strings are read, so brackets in them do not
 * count): past SPS_CHROME_MAX_DEPTH a value is kept as text, not
 * checked, so depth costs neither stack nor an error. */
static const char *
skip_too_deep (SpsChromeScanner *self,
               const char       *p,
               guint64           open)
{
  const char *end = self->end;
  SpsChromeValue scratch;

  self->too_deep = TRUE;
  for (p++; p < end; )
    {
      char c = *p;

      if (c == '"')
        {
          if ((p = lex_string (self, p, &scratch)) == NULL)
            return NULL;
          continue;
        }
      p++;
      if (c == '{' || c == '[')
        open++;
      else if ((c == '}' || c == ']') && --open == 0)
        return p;
    }
  return fail_eof (self);
}

/* Skips the object or array that opens at @p, checking its grammar
 * without recursion. @depth is the number of containers already open
 * around it. Trailing commas are accepted, as real producers write them. */
static const char *
skip_container (SpsChromeScanner *self,
                const char       *p,
                guint             depth)
{
  guint8 closers[SPS_CHROME_MAX_DEPTH + 1];
  const char *end = self->end;
  guint base_depth = depth;
  guint level = 0;
  SpsChromeValue scratch;

  g_assert (*p == '{' || *p == '[');

  /* Each iteration starts at the first byte of a value. */
  for (;;)
    {
      char c = *p;

      if (c == '"')
        {
          if ((p = lex_string (self, p, &scratch)) == NULL)
            return NULL;
        }
      else if (c == '{' || c == '[')
        {
          char close = c == '{' ? '}' : ']';

          if G_UNLIKELY (base_depth + level + 1 > SPS_CHROME_MAX_DEPTH)
            return skip_too_deep (self, p, (guint64) level + 1);
          closers[level++] = (guint8) close;
          p = skip_ws (p + 1, end);
          if (p >= end)
            return fail_eof (self);
          if (*p == close)
            {
              level--;
              p++;
            }
          else if (close == '}')
            goto member_key;
          else
            continue;
        }
      else if (c == '-' || IS_DIGIT (c))
        {
          if (level > 0 && closers[level - 1] == ']')
            p = skip_int_run (p, end);
          if ((p = lex_number (self, p, &scratch)) == NULL)
            return NULL;
        }
      else
        {
          if ((p = lex_literal (self, p, &scratch)) == NULL)
            return NULL;
        }

    after_value:
      if (level == 0)
        return p;
      p = skip_ws (p, end);
      if (p >= end)
        return fail_eof (self);
      {
        char close = (char) closers[level - 1];

        if (*p == close)
          {
            level--;
            p++;
            goto after_value;
          }
        if G_UNLIKELY (*p != ',')
          return fail_separator (self, p, close);
        p = skip_ws (p + 1, end);
        if (p >= end)
          return fail_eof (self);
        if (*p == close)
          {
            self->trailing_comma = TRUE;
            level--;
            p++;
            goto after_value;
          }
        if (close == ']')
          continue;
      }

    member_key:
      if G_UNLIKELY (*p != '"')
        return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected a string key"));
      if ((p = lex_string (self, p, &scratch)) == NULL)
        return NULL;
      p = skip_ws (p, end);
      if (p >= end)
        return fail_eof (self);
      if G_UNLIKELY (*p != ':')
        return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected ':' after a key"));
      p = skip_ws (p + 1, end);
      if (p >= end)
        return fail_eof (self);
    }
}

/* Reads any value starting at @p (not whitespace, not end). */
static const char *
lex_value (SpsChromeScanner *self,
           const char       *p,
           guint             depth,
           SpsChromeValue   *value)
{
  const char *after;

  switch (*p)
    {
    case '"':
      return lex_string (self, p, value);

    case '{':
    case '[':
      self->trailing_comma = FALSE;
      self->too_deep = FALSE;
      if ((after = skip_container (self, p, depth)) == NULL)
        return NULL;
      value->too_deep = self->too_deep;
      if G_UNLIKELY (after - p > G_MAXUINT32)
        return fail_error (self, SPS_IMPORT_ERROR_TOO_LARGE, p, _("value larger than 4 GiB"));
      value->ptr = p;
      value->len = (guint32) (after - p);
      value->type = *p == '{' ? SPS_CHROME_VALUE_OBJECT : SPS_CHROME_VALUE_ARRAY;
      value->escaped = self->trailing_comma;
      return after;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      return lex_number (self, p, value);

    default:
      return lex_literal (self, p, value);
    }
}

void
sps_chrome_scanner_init (SpsChromeScanner *self,
                         const char       *base,
                         gsize             len,
                         gboolean          ns_timestamps)
{
  g_assert (self != NULL);
  g_assert (base != NULL || len == 0);

  memset (self, 0, sizeof *self);
  self->base = base;
  self->p = base;
  self->end = base + len;
  self->limit = G_MAXSIZE;
  self->ns_timestamps = ns_timestamps;
}

/* A scanner over a part of a buffer that was already scanned (the args of
 * an event…): offsets in errors stay relative to @base. */
void
sps_chrome_scanner_init_range (SpsChromeScanner *self,
                               const char       *base,
                               const char       *start,
                               const char       *end,
                               guint             depth)
{
  g_assert (self != NULL);
  g_assert (start >= base && end >= start);

  memset (self, 0, sizeof *self);
  self->base = base;
  self->p = start;
  self->end = end;
  self->limit = G_MAXSIZE;
  self->depth = depth;
}

void
sps_chrome_scanner_clear (SpsChromeScanner *self)
{
  g_clear_pointer (&self->error_message, g_free);
}

gsize
sps_chrome_scanner_get_offset (const SpsChromeScanner *self)
{
  return (gsize) (self->p - self->base);
}

/* Returns the next byte that is not whitespace (without consuming it), or
 * 0 at the end of the input. */
char
sps_chrome_scanner_peek (SpsChromeScanner *self)
{
  self->p = skip_ws (self->p, self->end);
  return self->p < self->end ? *self->p : 0;
}

static SpsChromeScanResult
result_of_failure (SpsChromeScanner *self,
                   const char       *at)
{
  g_assert (self->failure == SPS_CHROME_SCAN_EOF || self->failure == SPS_CHROME_SCAN_ERROR);

  self->p = at;
  return self->failure;
}

/* Tracks, per open container the driver entered, whether a value was
 * already read (so the next one needs a comma). Only the few levels the
 * importer walks itself use this; deeper values are skipped whole. */
#define AFTER_VALUE_BIT(depth) (G_GUINT64_CONSTANT (1) << ((depth) & 63))

SpsChromeScanResult
sps_chrome_scanner_begin_document (SpsChromeScanner *self,
                                   char             *open_char)
{
  /* A UTF-8 byte order mark is not JSON but editors write it. */
  if (self->end - self->p >= 3 && memcmp (self->p, "\xef\xbb\xbf", 3) == 0)
    self->p += 3;

  *open_char = sps_chrome_scanner_peek (self);
  if (*open_char == 0)
    {
      self->eof_inside = FALSE;
      return SPS_CHROME_SCAN_EOF;
    }
  if (*open_char != '[' && *open_char != '{')
    {
      fail_error (self, SPS_IMPORT_ERROR_MALFORMED, self->p,
                  _("expected '[' or '{' at the start of a trace"));
      return SPS_CHROME_SCAN_ERROR;
    }
  return sps_chrome_scanner_enter (self, *open_char);
}

/* Consumes @open_char ('[' or '{') at the cursor: the driver walks the
 * container's elements or members itself. */
SpsChromeScanResult
sps_chrome_scanner_enter (SpsChromeScanner *self,
                          char              open_char)
{
  if (sps_chrome_scanner_peek (self) != open_char)
    {
      if (self->p >= self->end)
        {
          self->eof_inside = TRUE;
          return SPS_CHROME_SCAN_EOF;
        }
      fail_error (self, SPS_IMPORT_ERROR_MALFORMED, self->p,
                  open_char == '[' ? _("expected an array") : _("expected an object"));
      return SPS_CHROME_SCAN_ERROR;
    }
  if (self->depth + 1 > SPS_CHROME_MAX_DEPTH)
    {
      fail_depth (self, self->p);
      return SPS_CHROME_SCAN_ERROR;
    }
  g_assert (self->depth < 63);

  self->depth++;
  self->after_value &= ~AFTER_VALUE_BIT (self->depth);
  self->p++;
  return SPS_CHROME_SCAN_OK;
}

/* Moves past the separator before the next element or member of the
 * container at the cursor, which @close closes: on OK, *@at is the first
 * byte of that element or member (the cursor has not moved); END
 * consumes @close. */
G_ALWAYS_INLINE static inline SpsChromeScanResult
to_next_item (SpsChromeScanner  *self,
              char               close,
              const char       **at)
{
  const char *end = self->end;
  const char *p = skip_ws (self->p, end);

  if (p >= end)
    goto eof;
  if (self->after_value & AFTER_VALUE_BIT (self->depth))
    {
      if G_LIKELY (*p == ',')
        {
          p = skip_ws (p + 1, end);
          if (p >= end)
            goto eof;
        }
      else if (*p != close)
        {
          self->p = p;
          fail_separator (self, p, close);
          return SPS_CHROME_SCAN_ERROR;
        }
    }
  if G_UNLIKELY (*p == close)
    {
      self->p = p + 1;
      self->depth--;
      return SPS_CHROME_SCAN_END;
    }
  *at = p;
  return SPS_CHROME_SCAN_OK;

eof:
  self->p = p;
  self->eof_inside = FALSE;
  return SPS_CHROME_SCAN_EOF;
}

/* Moves to the next element of the array the cursor is in: on OK the
 * cursor is at the first byte of the element, which the caller must
 * consume (read_value, next_event…). END consumes the ']'. */
SpsChromeScanResult
sps_chrome_scanner_next_element (SpsChromeScanner *self)
{
  const char *p = NULL;
  SpsChromeScanResult r;

  if ((r = to_next_item (self, ']', &p)) != SPS_CHROME_SCAN_OK)
    return r;
  if G_UNLIKELY ((gsize) (p - self->base) >= self->limit)
    {
      self->p = p;
      return SPS_CHROME_SCAN_LIMIT;
    }
  self->after_value |= AFTER_VALUE_BIT (self->depth);
  self->p = p;
  return SPS_CHROME_SCAN_OK;
}

/* Puts the cursor at @element, the first byte of an element of the array
 * the cursor is in (the separator before it already consumed). */
void
sps_chrome_scanner_seek_element (SpsChromeScanner *self,
                                 const char       *element)
{
  g_assert (element >= self->base && element <= self->end);

  self->p = element;
  self->after_value &= ~AFTER_VALUE_BIT (self->depth);
  self->eof_inside = FALSE;
}

/* Moves to the next member of the object the cursor is in: on OK, @key is
 * the member's key and the cursor is at the first byte of its value, which
 * the caller must consume. END consumes the '}'. */
SpsChromeScanResult
sps_chrome_scanner_next_member (SpsChromeScanner *self,
                                SpsChromeValue   *key)
{
  const char *end = self->end;
  const char *p = NULL;
  const char *q;
  SpsChromeScanResult r;

  if ((r = to_next_item (self, '}', &p)) != SPS_CHROME_SCAN_OK)
    return r;
  if (*p != '"')
    {
      self->p = p;
      fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected a string key"));
      return SPS_CHROME_SCAN_ERROR;
    }
  if ((q = lex_string (self, p, key)) == NULL)
    return result_of_failure (self, p);
  p = skip_ws (q, end);
  if (p >= end)
    {
      fail_eof (self);
      return result_of_failure (self, p);
    }
  if (*p != ':')
    {
      self->p = p;
      fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected ':' after a key"));
      return SPS_CHROME_SCAN_ERROR;
    }
  p = skip_ws (p + 1, end);
  if (p >= end)
    {
      fail_eof (self);
      return result_of_failure (self, p);
    }
  self->after_value |= AFTER_VALUE_BIT (self->depth);
  self->p = p;
  return SPS_CHROME_SCAN_OK;
}

/* Reads (or skips, for objects and arrays) the value at the cursor. */
SpsChromeScanResult
sps_chrome_scanner_read_value (SpsChromeScanner *self,
                               SpsChromeValue   *value)
{
  const char *p = skip_ws (self->p, self->end);
  const char *after;

  if (p >= self->end)
    {
      self->p = p;
      self->eof_inside = TRUE;
      return SPS_CHROME_SCAN_EOF;
    }
  if ((after = lex_value (self, p, self->depth, value)) == NULL)
    return result_of_failure (self, p);
  self->p = after;
  return SPS_CHROME_SCAN_OK;
}

/* After the top-level container closed: only whitespace may follow (and
 * NUL bytes, which preallocated files that were never filled end with). */
SpsChromeScanResult
sps_chrome_scanner_finish_document (SpsChromeScanner *self)
{
  const char *p = self->p;

  while (p < self->end && (ws_class[(guchar) *p] || *p == '\0'))
    p++;
  self->p = p;
  if (p < self->end)
    {
      fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("unexpected data after the end of the trace"));
      return SPS_CHROME_SCAN_ERROR;
    }
  return SPS_CHROME_SCAN_OK;
}

/* Event fields */

/* A byte that may follow a number: anything that cannot continue it. */
G_ALWAYS_INLINE static inline gboolean
ends_number (char c)
{
  return !IS_DIGIT (c) && c != '.' && c != 'e' && c != 'E';
}

/* Reads the 8 ASCII digits at @p as one number, with a few multiplies
 * instead of a chain of 8; FALSE if one of the bytes is not a digit. */
G_ALWAYS_INLINE static inline gboolean
eight_digits (const char *p,
              guint64    *out)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  const guint64 high_nibbles = G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0);
  const guint64 zeros = G_GUINT64_CONSTANT (0x3030303030303030);
  guint64 v;

  memcpy (&v, p, 8);
  /* Every byte is 0x30..0x39: high nibble 3, and adding 6 keeps it 3 */
  if ((v & high_nibbles) != zeros ||
      ((v + G_GUINT64_CONSTANT (0x0606060606060606)) & high_nibbles) != zeros)
    return FALSE;
  v -= zeros;
  /* The first digit is the lowest byte. Pairs first: bytes 0, 2, 4 and 6
   * become two-digit values; then those are weighted and summed in the
   * upper half of two products. */
  v = v * 10 + (v >> 8);
  v = (((v & G_GUINT64_CONSTANT (0x000000FF000000FF)) * (100 + (G_GUINT64_CONSTANT (1000000) << 32))) +
       (((v >> 16) & G_GUINT64_CONSTANT (0x000000FF000000FF)) * (1 + (G_GUINT64_CONSTANT (10000) << 32)))) >> 32;
  *out = v;
  return TRUE;
#else
  return FALSE;
#endif
}

/* The usual time value: up to 15 integer digits and up to 3 decimals of
 * a microsecond value, read in one pass. Anything else (signs, exponents,
 * more digits, ns input with decimals, the end of the input) is left to
 * the exact general path. */
G_ALWAYS_INLINE static inline const char *
fast_time (const char *p,
           const char *end,
           gboolean    ns,
           SpsTime    *out)
{
  static const guint scale[] = { 1000, 100, 10, 1 };
  const char *q = p;
  const char *limit = end - p > 24 ? p + 24 : end;
  guint64 v = 0;
  guint64 chunk;

  /* Wraps around past 19 digits, but then q - p > 15 refuses it */
  while (limit - q >= 8 && eight_digits (q, &chunk))
    {
      v = v * 100000000 + chunk;
      q += 8;
    }
  while (q < limit && IS_DIGIT (*q))
    v = v * 10 + (guint64) (*q++ - '0');
  if (q - p > 15 || q >= limit)
    return NULL;
  if (*q == '.')
    {
      const char *f = ++q;
      guint64 frac = 0;

      if (ns)
        return NULL;
      while (q < limit && IS_DIGIT (*q) && q - f < 3)
        frac = frac * 10 + (guint64) (*q++ - '0');
      if (q == f || q >= limit)
        return NULL;
      v = v * 1000 + frac * scale[q - f];
    }
  else if (!ns)
    v *= 1000;
  if (!ends_number (*q))
    return NULL;
  *out = (SpsTime) v;
  return q;
}

/* Reads the value of a time field (ts, dur) into ns. */
G_ALWAYS_INLINE static inline const char *
lex_time (SpsChromeScanner *self,
          const char       *p,
          guint             depth,
          SpsTime          *out,
          guint8           *state)
{
  SpsChromeValue value;
  const char *after;

  if G_LIKELY (IS_DIGIT (*p) && (after = fast_time (p, self->end, self->ns_timestamps, out)) != NULL)
    {
      *state = SPS_CHROME_TIME_OK;
      return after;
    }

  if ((after = lex_value (self, p, depth, &value)) == NULL)
    return NULL;

  /* A string must hold a number as a whole; anything else drops the
   * event rather than reading as zero. */
  *state = value.type == SPS_CHROME_VALUE_STRING ? SPS_CHROME_TIME_BAD_NUMBER
                                                 : SPS_CHROME_TIME_INVALID;
  if (value.type == SPS_CHROME_VALUE_NUMBER ||
      (value.type == SPS_CHROME_VALUE_STRING && !value.escaped))
    {
      switch (sps_chrome_parse_time (value.ptr, value.len, self->ns_timestamps, out))
        {
        case SPS_CHROME_NUMBER_OK:
          *state = SPS_CHROME_TIME_OK;
          break;

        case SPS_CHROME_NUMBER_OVERFLOW:
          return fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p,
                             _("time value out of range (does not fit 64-bit nanoseconds)"));

        case SPS_CHROME_NUMBER_INVALID:
        default:
          break;
        }
    }
  return after;
}

/* Reads pid or tid: an integer, a string holding an integer, or any other
 * string (a name the importer maps to a synthetic id). */
G_ALWAYS_INLINE static inline const char *
lex_id_field (SpsChromeScanner *self,
              const char       *p,
              guint             depth,
              SpsChromeValue   *value,
              gint64           *int_value,
              guint8           *is_int)
{
  const char *after;

  /* The usual case: a non-negative integer of up to 18 digits */
  if G_LIKELY (IS_DIGIT (*p))
    {
      const char *limit = self->end - p > 24 ? p + 24 : self->end;
      const char *q = p;
      guint64 v = 0;

      while (q < limit && IS_DIGIT (*q))
        v = v * 10 + (guint64) (*q++ - '0');
      if G_LIKELY (q < limit && q - p <= 18 && ends_number (*q))
        {
          value->ptr = p;
          value->len = (guint32) (q - p);
          value->type = SPS_CHROME_VALUE_NUMBER;
          value->escaped = FALSE;
          *int_value = (gint64) v;
          *is_int = TRUE;
          return q;
        }
    }

  if ((after = lex_value (self, p, depth, value)) == NULL)
    return NULL;
  *is_int = ((value->type == SPS_CHROME_VALUE_NUMBER ||
              (value->type == SPS_CHROME_VALUE_STRING && !value->escaped)) &&
             sps_chrome_parse_int64 (value->ptr, value->len, int_value) == SPS_CHROME_NUMBER_OK);
  return after;
}

/* Keys of an event that the importer reads */
typedef enum
{
  KEY_OTHER,
  KEY_PH,
  KEY_TS,
  KEY_DUR,
  KEY_PID,
  KEY_TID,
  KEY_NAME,
  KEY_CAT,
  KEY_ARGS,
  KEY_ID,
  KEY_ID2,
  KEY_S,
  KEY_SF,
  KEY_BP,
  KEY_SCOPE,
  KEY_STACK,
  KEY_WEIGHT,
  KEY_WEIGHT_UNIT,
  KEY_BIND_ID,
  KEY_FLOW_IN,
  KEY_FLOW_OUT,
  KEY_ESF,
} EventKey;

static const struct {
  const char *name;
  EventKey    key;
} event_keys[] = {
  { "ph", KEY_PH }, { "ts", KEY_TS }, { "dur", KEY_DUR }, { "pid", KEY_PID },
  { "tid", KEY_TID }, { "name", KEY_NAME }, { "cat", KEY_CAT }, { "args", KEY_ARGS },
  { "id", KEY_ID }, { "id2", KEY_ID2 }, { "s", KEY_S }, { "sf", KEY_SF },
  { "bp", KEY_BP }, { "scope", KEY_SCOPE }, { "stack", KEY_STACK },
  { "weight", KEY_WEIGHT }, { "weightUnit", KEY_WEIGHT_UNIT },
  { "bind_id", KEY_BIND_ID }, { "flow_in", KEY_FLOW_IN }, { "flow_out", KEY_FLOW_OUT },
  { "esf", KEY_ESF },
};

/* Little-endian packing of a short byte string, as an 8-byte load of it
 * reads. The keys below include their closing quote. */
#define PACK2(a, b)          ((guint64) (guchar) (a) | ((guint64) (guchar) (b) << 8))
#define PACK3(a, b, c)       (PACK2 (a, b) | ((guint64) (guchar) (c) << 16))
#define PACK4(a, b, c, d)    (PACK3 (a, b, c) | ((guint64) (guchar) (d) << 24))
#define PACK5(a, b, c, d, e) (PACK4 (a, b, c, d) | ((guint64) (guchar) (e) << 32))
#define PACK6(a, b, c, d, e, f) (PACK5 (a, b, c, d, e) | ((guint64) (guchar) (f) << 40))
#define PACK7(a, b, c, d, e, f, g) (PACK6 (a, b, c, d, e, f) | ((guint64) (guchar) (g) << 48))
#define PACK8(a, b, c, d, e, f, g, h) (PACK7 (a, b, c, d, e, f, g) | ((guint64) (guchar) (h) << 56))
#define MASK(n)              ((G_GUINT64_CONSTANT (1) << (8 * (n))) - 1)

/* Recognises a known key (and its closing quote) at @p, the first byte
 * after the opening quote; at least 16 bytes must be readable there.
 * Returns the position after the closing quote, or NULL for any other key
 * (which the caller then reads as a string). */
G_ALWAYS_INLINE static inline const char *
match_key (const char *p,
           EventKey   *key)
{
  guint64 w;

  memcpy (&w, p, 8);
  w = GUINT64_FROM_LE (w);

#define TRY(n, packed, k) \
  if ((w & MASK (n)) == (packed)) { *key = (k); return p + (n); }

  switch (p[0])
    {
    case 'p':
      TRY (3, PACK3 ('p', 'h', '"'), KEY_PH);
      TRY (4, PACK4 ('p', 'i', 'd', '"'), KEY_PID);
      break;
    case 't':
      TRY (3, PACK3 ('t', 's', '"'), KEY_TS);
      TRY (4, PACK4 ('t', 'i', 'd', '"'), KEY_TID);
      break;
    case 'd':
      TRY (4, PACK4 ('d', 'u', 'r', '"'), KEY_DUR);
      break;
    case 'e':
      TRY (4, PACK4 ('e', 's', 'f', '"'), KEY_ESF);
      break;
    case 'n':
      TRY (5, PACK5 ('n', 'a', 'm', 'e', '"'), KEY_NAME);
      break;
    case 'c':
      TRY (4, PACK4 ('c', 'a', 't', '"'), KEY_CAT);
      break;
    case 'a':
      TRY (5, PACK5 ('a', 'r', 'g', 's', '"'), KEY_ARGS);
      break;
    case 'i':
      TRY (3, PACK3 ('i', 'd', '"'), KEY_ID);
      TRY (4, PACK4 ('i', 'd', '2', '"'), KEY_ID2);
      break;
    case 's':
      TRY (2, PACK2 ('s', '"'), KEY_S);
      TRY (3, PACK3 ('s', 'f', '"'), KEY_SF);
      TRY (6, PACK6 ('s', 'c', 'o', 'p', 'e', '"'), KEY_SCOPE);
      TRY (6, PACK6 ('s', 't', 'a', 'c', 'k', '"'), KEY_STACK);
      break;
    case 'b':
      TRY (3, PACK3 ('b', 'p', '"'), KEY_BP);
      if (w == PACK8 ('b', 'i', 'n', 'd', '_', 'i', 'd', '"'))
        {
          *key = KEY_BIND_ID;
          return p + 8;
        }
      break;
    case 'f':
      if (w == PACK8 ('f', 'l', 'o', 'w', '_', 'i', 'n', '"'))
        {
          *key = KEY_FLOW_IN;
          return p + 8;
        }
      if (w == PACK8 ('f', 'l', 'o', 'w', '_', 'o', 'u', 't') && p[8] == '"')
        {
          *key = KEY_FLOW_OUT;
          return p + 9;
        }
      break;
    case 'w':
      TRY (7, PACK7 ('w', 'e', 'i', 'g', 'h', 't', '"'), KEY_WEIGHT);
      if (w == PACK8 ('w', 'e', 'i', 'g', 'h', 't', 'U', 'n') && memcmp (p + 8, "it\"", 3) == 0)
        {
          *key = KEY_WEIGHT_UNIT;
          return p + 11;
        }
      break;
    default:
      break;
    }
#undef TRY

  *key = KEY_OTHER;
  return NULL;
}

/* The slow path of keys: any key read as a string, escapes decoded. */
static EventKey
lookup_key (const SpsChromeValue *key)
{
  g_autoptr(GString) decoded = NULL;
  const char *text = key->ptr;
  gsize len = key->len;

  if (key->escaped)
    {
      decoded = g_string_new (NULL);
      sps_chrome_decode_string (key->ptr, key->len, decoded);
      text = decoded->str;
      len = decoded->len;
    }
  for (guint i = 0; i < G_N_ELEMENTS (event_keys); i++)
    {
      if (strlen (event_keys[i].name) == len && memcmp (event_keys[i].name, text, len) == 0)
        return event_keys[i].key;
    }
  return KEY_OTHER;
}

static char
phase_of (const SpsChromeValue *ph)
{
  if (ph->type != SPS_CHROME_VALUE_STRING || ph->len == 0)
    return 0;
  if G_LIKELY (!ph->escaped)
    return ph->ptr[0];
  else
    {
      g_autoptr(GString) decoded = g_string_new (NULL);

      sps_chrome_decode_string (ph->ptr, ph->len, decoded);
      return decoded->str[0];
    }
}

/* Moves to the next element of the event array and reads it. On OK,
 * @event holds the event; an element that is not an object is skipped and
 * comes back with is_object = FALSE. */
SpsChromeScanResult
sps_chrome_scanner_next_event (SpsChromeScanner *self,
                               SpsChromeEvent   *event)
{
  const char *end = self->end;
  const char *p;
  guint depth;
  SpsChromeScanResult r;

  if ((r = sps_chrome_scanner_next_element (self)) != SPS_CHROME_SCAN_OK)
    return r;

  p = self->p;
  event->offset = (gsize) (p - self->base);
  event->fields = 0;
  event->n_members = 0;
  event->ph = 0;
  event->ts_state = SPS_CHROME_TIME_NONE;
  event->dur_state = SPS_CHROME_TIME_NONE;

  if G_UNLIKELY (*p != '{')
    {
      SpsChromeValue ignored;
      const char *after;

      event->is_object = FALSE;
      if ((after = lex_value (self, p, self->depth, &ignored)) == NULL)
        return result_of_failure (self, p);
      self->p = after;
      return SPS_CHROME_SCAN_OK;
    }
  event->is_object = TRUE;

  if G_UNLIKELY (self->depth + 1 > SPS_CHROME_MAX_DEPTH)
    {
      fail_depth (self, p);
      return result_of_failure (self, p);
    }
  depth = self->depth + 1;

  p = skip_ws (p + 1, end);
  if G_UNLIKELY (p >= end)
    goto eof;
  if (*p == '}')
    {
      self->p = p + 1;
      return SPS_CHROME_SCAN_OK;
    }

  for (;;)
    {
      SpsChromeValue *slot = NULL;
      guint32 bit = 0;
      EventKey key;
      const char *q;

      if G_UNLIKELY (*p != '"')
        {
          fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected a string key"));
          goto fail;
        }
      event->n_members++;

      if G_LIKELY (end - p >= 17)
        {
          if ((q = match_key (p + 1, &key)) != NULL)
            p = q;
          else
            {
              /* Not a key we read, unless written with escapes */
              SpsChromeValue text;

              if ((p = lex_string (self, p, &text)) == NULL)
                goto fail;
              if G_UNLIKELY (text.escaped)
                key = lookup_key (&text);
            }
        }
      else
        {
          SpsChromeValue text;

          if ((p = lex_string (self, p, &text)) == NULL)
            goto fail;
          key = lookup_key (&text);
        }

      if G_LIKELY (p < end && *p == ':')
        p++;
      else
        {
          p = skip_ws (p, end);
          if (p >= end)
            goto eof;
          if G_UNLIKELY (*p != ':')
            {
              fail_error (self, SPS_IMPORT_ERROR_MALFORMED, p, _("expected ':' after a key"));
              goto fail;
            }
          p++;
        }
      p = skip_ws (p, end);
      if G_UNLIKELY (p >= end)
        goto eof;

      switch (key)
        {
        case KEY_PH:
          {
            SpsChromeValue ph;

            if (*p == '"')
              p = lex_string (self, p, &ph);
            else
              p = lex_value (self, p, depth, &ph);
            if (p == NULL)
              goto fail;
            event->fields |= SPS_CHROME_FIELD_PH;
            event->ph = phase_of (&ph);
          }
          break;

        case KEY_TS:
          if ((p = lex_time (self, p, depth, &event->ts, &event->ts_state)) == NULL)
            goto fail;
          break;

        case KEY_DUR:
          if ((p = lex_time (self, p, depth, &event->dur, &event->dur_state)) == NULL)
            goto fail;
          break;

        case KEY_PID:
          if ((p = lex_id_field (self, p, depth, &event->pid, &event->pid_value,
                                 &event->pid_is_int)) == NULL)
            goto fail;
          event->fields |= SPS_CHROME_FIELD_PID;
          break;

        case KEY_TID:
          if ((p = lex_id_field (self, p, depth, &event->tid, &event->tid_value,
                                 &event->tid_is_int)) == NULL)
            goto fail;
          event->fields |= SPS_CHROME_FIELD_TID;
          break;

        case KEY_FLOW_IN:
        case KEY_FLOW_OUT:
          {
            SpsChromeValue flag;
            guint32 flag_bit = key == KEY_FLOW_IN ? SPS_CHROME_FIELD_FLOW_IN : SPS_CHROME_FIELD_FLOW_OUT;

            if ((p = lex_value (self, p, depth, &flag)) == NULL)
              goto fail;
            if (flag.type == SPS_CHROME_VALUE_TRUE)
              event->fields |= flag_bit;
            else
              event->fields &= ~flag_bit;
          }
          break;

        case KEY_NAME:        slot = &event->name;        bit = SPS_CHROME_FIELD_NAME;        break;
        case KEY_CAT:         slot = &event->cat;         bit = SPS_CHROME_FIELD_CAT;         break;
        case KEY_ARGS:        slot = &event->args;        bit = SPS_CHROME_FIELD_ARGS;        break;
        case KEY_ID:          slot = &event->id;          bit = SPS_CHROME_FIELD_ID;          break;
        case KEY_ID2:         slot = &event->id2;         bit = SPS_CHROME_FIELD_ID2;         break;
        case KEY_S:           slot = &event->s;           bit = SPS_CHROME_FIELD_S;           break;
        case KEY_SF:          slot = &event->sf;          bit = SPS_CHROME_FIELD_SF;          break;
        case KEY_BP:          slot = &event->bp;          bit = SPS_CHROME_FIELD_BP;          break;
        case KEY_SCOPE:       slot = &event->scope;       bit = SPS_CHROME_FIELD_SCOPE;       break;
        case KEY_STACK:       slot = &event->stack;       bit = SPS_CHROME_FIELD_STACK;       break;
        case KEY_ESF:         slot = &event->esf;         bit = SPS_CHROME_FIELD_ESF;         break;
        case KEY_WEIGHT:      slot = &event->weight;      bit = SPS_CHROME_FIELD_WEIGHT;      break;
        case KEY_WEIGHT_UNIT: slot = &event->weight_unit; bit = SPS_CHROME_FIELD_WEIGHT_UNIT; break;
        case KEY_BIND_ID:     slot = &event->bind_id;     bit = SPS_CHROME_FIELD_BIND_ID;     break;

        case KEY_OTHER:
        default:
          {
            SpsChromeValue ignored;

            if ((p = lex_value (self, p, depth, &ignored)) == NULL)
              goto fail;
          }
          break;
        }

      if (slot != NULL)
        {
          if (*p == '"')
            p = lex_string (self, p, slot);
          else
            p = lex_value (self, p, depth, slot);
          if (p == NULL)
            goto fail;
          event->fields |= bit;
          if (key == KEY_NAME)
            event->name_hash = sps_chrome_quick_hash (slot->ptr, slot->len);
          else if (key == KEY_CAT)
            event->cat_hash = sps_chrome_quick_hash (slot->ptr, slot->len);
        }

      if G_LIKELY (p < end && *p == ',')
        p++;
      else
        {
          p = skip_ws (p, end);
          if (p >= end)
            goto eof;
          if G_LIKELY (*p == '}')
            break;
          if G_UNLIKELY (*p != ',')
            {
              fail_separator (self, p, '}');
              goto fail;
            }
          p++;
        }
      p = skip_ws (p, end);
      if G_UNLIKELY (p >= end)
        goto eof;
      if G_UNLIKELY (*p == '}')
        break;
    }

  self->p = p + 1;
  return SPS_CHROME_SCAN_OK;

eof:
  fail_eof (self);
fail:
  /* The error or eof_inside is set; the cursor stays at the event */
  return result_of_failure (self, self->base + event->offset);
}

/* Numbers */

typedef struct
{
  gboolean    negative;
  const char *int_digits;
  gsize       n_int;
  const char *frac_digits;
  gsize       n_frac;
  gint64      exponent;
} NumberParts;

static gboolean
split_number (const char  *text,
              gsize        len,
              NumberParts *parts)
{
  const char *p = text;
  const char *end = text + len;

  parts->negative = FALSE;
  parts->n_frac = 0;
  parts->frac_digits = NULL;
  parts->exponent = 0;

  /* The lexer has already held number tokens to the JSON grammar, so
   * this only widens what a string may hold: the decimal forms strtod
   * reads as a whole (a '+' sign, ".75", "246.", leading zeros). */
  if (p < end && (*p == '-' || *p == '+'))
    {
      parts->negative = *p == '-';
      p++;
    }
  parts->int_digits = p;
  while (p < end && IS_DIGIT (*p))
    p++;
  parts->n_int = (gsize) (p - parts->int_digits);
  if (p < end && *p == '.')
    {
      p++;
      parts->frac_digits = p;
      while (p < end && IS_DIGIT (*p))
        p++;
      parts->n_frac = (gsize) (p - parts->frac_digits);
    }
  if (parts->n_int + parts->n_frac == 0)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      const char *exp_start;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        {
          exp_negative = *p == '-';
          p++;
        }
      exp_start = p;
      while (p < end && IS_DIGIT (*p))
        {
          /* Saturate: beyond this the result is 0 or an overflow anyway */
          if (parts->exponent < 100000)
            parts->exponent = parts->exponent * 10 + (*p - '0');
          p++;
        }
      if (p == exp_start)
        return FALSE;
      if (exp_negative)
        parts->exponent = -parts->exponent;
    }
  return p == end;
}

static inline int
nth_digit (const NumberParts *parts,
           gsize              i)
{
  if (i < parts->n_int)
    return parts->int_digits[i] - '0';
  return parts->frac_digits[i - parts->n_int] - '0';
}

/**
 * sps_chrome_parse_time:
 * @text: the number as written (JSON number grammar, no surrounding space)
 * @len: its length
 * @ns: %TRUE when the value is already nanoseconds, %FALSE for microseconds
 * @out: (out): the value in nanoseconds
 *
 * Converts exactly, from the decimal text, without going through double:
 * digits below one nanosecond are rounded half away from zero.
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_time (const char *text,
                       gsize       len,
                       gboolean    ns,
                       SpsTime    *out)
{
  NumberParts parts;
  gsize total;
  gint64 shift;
  gint64 keep;
  guint64 acc = 0;
  const guint64 limit = G_MAXINT64;

  /* The common case: a plain integer of at most 15 digits */
  if (len > 0 && len <= 15)
    {
      gsize i = 0;
      guint64 v = 0;

      for (; i < len && IS_DIGIT (text[i]); i++)
        v = v * 10 + (guint64) (text[i] - '0');
      if (i == len)
        {
          *out = (SpsTime) (ns ? v : v * 1000);
          return SPS_CHROME_NUMBER_OK;
        }
    }

  if (!split_number (text, len, &parts))
    return SPS_CHROME_NUMBER_INVALID;

  total = parts.n_int + parts.n_frac;
  shift = parts.exponent + (ns ? 0 : 3) - (gint64) parts.n_frac;
  keep = (gint64) total + MIN (shift, 0);

  for (gint64 i = 0; i < keep; i++)
    {
      guint d = (guint) nth_digit (&parts, (gsize) i);

      if (acc > (limit - d) / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc = acc * 10 + d;
    }
  if (keep >= 0 && (guint64) keep < total && nth_digit (&parts, (gsize) keep) >= 5)
    {
      if (acc == limit)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc++;
    }
  for (gint64 i = 0; i < shift && acc != 0; i++)
    {
      if (acc > limit / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc *= 10;
    }

  *out = parts.negative ? -(gint64) acc : (gint64) acc;
  return SPS_CHROME_NUMBER_OK;
}

/**
 * sps_chrome_parse_int64:
 * @text: an optional '-' and decimal digits, nothing else
 * @len: its length
 * @out: (out): the value
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_int64 (const char *text,
                        gsize       len,
                        gint64     *out)
{
  const char *p = text;
  const char *end = text + len;
  gboolean negative = FALSE;
  guint64 acc = 0;
  guint64 limit;

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (p == end)
    return SPS_CHROME_NUMBER_INVALID;
  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  for (; p < end; p++)
    {
      guint d;

      if (!IS_DIGIT (*p))
        return SPS_CHROME_NUMBER_INVALID;
      d = (guint) (*p - '0');
      if (acc > (limit - d) / 10)
        return SPS_CHROME_NUMBER_OVERFLOW;
      acc = acc * 10 + d;
    }
  if (negative)
    *out = acc == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) acc;
  else
    *out = (gint64) acc;
  return SPS_CHROME_NUMBER_OK;
}

/**
 * sps_chrome_parse_double:
 * @text: a number in JSON grammar, nothing else
 * @len: its length
 * @out: (out): the value, correctly rounded
 *
 * Returns: the outcome; @out is set on %SPS_CHROME_NUMBER_OK only
 */
SpsChromeNumberResult
sps_chrome_parse_double (const char *text,
                         gsize       len,
                         double     *out)
{
  static const double powers[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };
  NumberParts parts;
  gsize total;
  gint64 exp10;

  if (!split_number (text, len, &parts))
    return SPS_CHROME_NUMBER_INVALID;

  /* Exact fast path: a mantissa below 2^53 scaled by an exactly
   * representable power of ten is rounded once, correctly. */
  total = parts.n_int + parts.n_frac;
  exp10 = parts.exponent - (gint64) parts.n_frac;
  if (total <= 15 && exp10 >= -22 && exp10 <= 22)
    {
      guint64 mantissa = 0;
      double v;

      for (gsize i = 0; i < total; i++)
        mantissa = mantissa * 10 + (guint64) nth_digit (&parts, i);
      v = (double) mantissa;
      v = exp10 < 0 ? v / powers[-exp10] : v * powers[exp10];
      *out = parts.negative ? -v : v;
      return SPS_CHROME_NUMBER_OK;
    }
  else
    {
      char stack_buf[128];
      g_autofree char *heap_buf = NULL;
      char *buf = stack_buf;

      if (len >= sizeof stack_buf)
        buf = heap_buf = g_malloc (len + 1);
      memcpy (buf, text, len);
      buf[len] = '\0';
      *out = g_ascii_strtod (buf, NULL);
      return SPS_CHROME_NUMBER_OK;
    }
}

/* A number, or a string holding exactly a number (Bazel writes counter
 * values that way). */
gboolean
sps_chrome_value_to_double (const SpsChromeValue *value,
                            double               *out)
{
  if (value->type == SPS_CHROME_VALUE_NUMBER ||
      (value->type == SPS_CHROME_VALUE_STRING && !value->escaped))
    return sps_chrome_parse_double (value->ptr, value->len, out) == SPS_CHROME_NUMBER_OK;
  return FALSE;
}

/* Compares a string value with @literal (ASCII, no escapes). */
gboolean
sps_chrome_value_equals (const SpsChromeValue *value,
                         const char           *literal)
{
  gsize len = strlen (literal);

  if (value->type != SPS_CHROME_VALUE_STRING)
    return FALSE;
  if (!value->escaped)
    return value->len == len && memcmp (value->ptr, literal, len) == 0;
  else
    {
      g_autoptr(GString) decoded = g_string_new (NULL);

      sps_chrome_decode_string (value->ptr, value->len, decoded);
      return decoded->len == len && memcmp (decoded->str, literal, len) == 0;
    }
}

/* Strings */

static inline int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (const char *p,
           const char *end,
           gunichar   *out)
{
  gunichar v = 0;

  if (end - p < 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);

      if (h < 0)
        return FALSE;
      v = (v << 4) | (gunichar) h;
    }
  *out = v;
  return TRUE;
}

#define REPLACEMENT "\xef\xbf\xbd"

/* Appends @len bytes of raw (unescaped) text, replacing invalid UTF-8 and
 * NUL bytes with U+FFFD. Returns TRUE if something was replaced. */
static gboolean
append_valid_utf8 (GString    *out,
                   const char *p,
                   gsize       len)
{
  gboolean replaced = FALSE;

  while (len > 0)
    {
      const char *valid_end;
      gsize n;

      if (g_utf8_validate_len (p, len, &valid_end))
        {
          g_string_append_len (out, p, (gssize) len);
          break;
        }
      n = (gsize) (valid_end - p);
      g_string_append_len (out, p, (gssize) n);
      g_string_append (out, REPLACEMENT);
      replaced = TRUE;
      /* Skip the bad byte and any continuation bytes that follow it, so
       * one broken sequence gives one replacement character. */
      p = valid_end + 1;
      len -= n + 1;
      while (len > 0 && ((guchar) *p & 0xC0) == 0x80)
        {
          p++;
          len--;
        }
    }

  return replaced;
}

/**
 * sps_chrome_decode_string:
 * @raw: the text between the quotes of a JSON string
 * @len: its length
 * @out: where the decoded UTF-8 text is appended
 *
 * Decodes escapes. `\u0000`, lone surrogates, bad escapes and invalid
 * UTF-8 become U+FFFD, so the result is valid UTF-8 without NUL bytes.
 *
 * Returns: %TRUE if something had to be replaced
 */
gboolean
sps_chrome_decode_string (const char *raw,
                          gsize       len,
                          GString    *out)
{
  const char *p = raw;
  const char *end = raw + len;
  gboolean replaced = FALSE;

  while (p < end)
    {
      const char *bs = memchr (p, '\\', (gsize) (end - p));
      gunichar c;

      if (bs == NULL)
        bs = end;
      if (bs > p)
        replaced |= append_valid_utf8 (out, p, (gsize) (bs - p));
      if (bs == end)
        break;

      p = bs + 1;
      if (p >= end)
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          break;
        }
      switch (*p)
        {
        case '"':  g_string_append_c (out, '"'); p++; continue;
        case '\\': g_string_append_c (out, '\\'); p++; continue;
        case '/':  g_string_append_c (out, '/'); p++; continue;
        case 'b':  g_string_append_c (out, '\b'); p++; continue;
        case 'f':  g_string_append_c (out, '\f'); p++; continue;
        case 'n':  g_string_append_c (out, '\n'); p++; continue;
        case 'r':  g_string_append_c (out, '\r'); p++; continue;
        case 't':  g_string_append_c (out, '\t'); p++; continue;
        case 'u':
          break;
        default:
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          p++;
          continue;
        }

      /* \uXXXX, possibly a surrogate pair */
      p++;
      if (!read_hex4 (p, end, &c))
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
          continue;
        }
      p += 4;
      if (c >= 0xD800 && c <= 0xDBFF)
        {
          gunichar low;

          if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
              read_hex4 (p + 2, end, &low) && low >= 0xDC00 && low <= 0xDFFF)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
              p += 6;
            }
          else
            c = 0;
        }
      else if (c >= 0xDC00 && c <= 0xDFFF)
        c = 0;

      if (c == 0)
        {
          g_string_append (out, REPLACEMENT);
          replaced = TRUE;
        }
      else
        g_string_append_unichar (out, c);
    }

  return replaced;
}
