/* sps-chrome-scanner-event.c: reading one trace event at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sps_chrome_scanner_next_event() and what it needs alone: the table of
 * the keys the importer knows and their 8-byte matcher, the fast paths of
 * integers and microsecond times, and the phase. It is the loop every
 * event of a trace goes through, so its lexing helpers come inline from
 * sps-chrome-scanner-private.h rather than as calls.
 */

#define G_LOG_DOMAIN "sps-chrome-scanner"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-scanner-private.h"

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

/* The usual time value: up to 15 integer digits (fewer in ms and s, so
 * that the product fits) and no more decimals than the unit has below a
 * nanosecond (3 for µs), read in one pass. Anything else (signs,
 * exponents, more digits, ns input with decimals, the end of the input)
 * is left to the exact general path. */
G_ALWAYS_INLINE static inline const char *
fast_time (const char *p,
           const char *end,
           guint       time_exp,
           SpsTime    *out)
{
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
  if (q - p > 15 || (guint) (q - p) + time_exp > 18 || q >= limit)
    return NULL;
  if (*q == '.')
    {
      const char *f = ++q;
      guint64 frac = 0;

      if (time_exp == 0)
        return NULL;
      while (q < limit && IS_DIGIT (*q) && (guint) (q - f) < time_exp)
        frac = frac * 10 + (guint64) (*q++ - '0');
      if (q == f || q >= limit)
        return NULL;
      v = v * sps_chrome_pow10[time_exp] + frac * sps_chrome_pow10[time_exp - (guint) (q - f)];
    }
  else
    v *= sps_chrome_pow10[time_exp];
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

  if G_LIKELY (IS_DIGIT (*p) && (after = fast_time (p, self->end, self->time_exp, out)) != NULL)
    {
      *state = SPS_CHROME_TIME_OK;
      return after;
    }

  if ((after = _sps_lex_value (self, p, depth, &value)) == NULL)
    return NULL;

  /* A string must hold a number as a whole; anything else drops the
   * event rather than reading as zero. */
  *state = value.type == SPS_CHROME_VALUE_STRING ? SPS_CHROME_TIME_BAD_NUMBER
                                                 : SPS_CHROME_TIME_INVALID;
  if (value.type == SPS_CHROME_VALUE_NUMBER ||
      (value.type == SPS_CHROME_VALUE_STRING && !value.escaped))
    {
      switch (sps_chrome_parse_time (value.ptr, value.len, self->time_exp, out))
        {
        case SPS_CHROME_NUMBER_OK:
          *state = SPS_CHROME_TIME_OK;
          break;

        case SPS_CHROME_NUMBER_OVERFLOW:
          /* The event's error, not the file's: it is dropped with a
           * warning and the events after it are read */
          *state = SPS_CHROME_TIME_OUT_OF_RANGE;
          break;

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

  if ((after = _sps_lex_value (self, p, depth, value)) == NULL)
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
      if ((after = _sps_lex_value (self, p, self->depth, &ignored)) == NULL)
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
              p = _sps_lex_value (self, p, depth, &ph);
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

            if ((p = _sps_lex_value (self, p, depth, &flag)) == NULL)
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

            if ((p = _sps_lex_value (self, p, depth, &ignored)) == NULL)
              goto fail;
          }
          break;
        }

      if (slot != NULL)
        {
          if (*p == '"')
            p = lex_string (self, p, slot);
          else
            p = _sps_lex_value (self, p, depth, slot);
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
              _sps_fail_separator (self, p, '}');
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
