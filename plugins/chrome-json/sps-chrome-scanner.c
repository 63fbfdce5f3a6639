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
 *
 * This file holds the lexer's errors, the value reader and validator
 * (numbers, literals, containers skipped whole) and the driver the
 * importer walks documents with. Reading whole events is in
 * sps-chrome-scanner-event.c, converting numbers and decoding strings in
 * sps-chrome-scanner-values.c; the helpers of the hot paths are inline in
 * sps-chrome-scanner-private.h.
 */

#define G_LOG_DOMAIN "sps-chrome-scanner"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-scanner-private.h"

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

const char *
_sps_fail_separator (SpsChromeScanner *self,
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
          return _sps_fail_separator (self, p, close);
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
const char *
_sps_lex_value (SpsChromeScanner *self,
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
                         guint             time_exp)
{
  g_assert (self != NULL);
  g_assert (base != NULL || len == 0);

  memset (self, 0, sizeof *self);
  self->base = base;
  self->p = base;
  self->end = base + len;
  self->limit = G_MAXSIZE;
  g_assert (time_exp <= SPS_CHROME_MAX_TIME_EXP);

  self->time_exp = time_exp;
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
          _sps_fail_separator (self, p, close);
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
  if ((after = _sps_lex_value (self, p, self->depth, value)) == NULL)
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
