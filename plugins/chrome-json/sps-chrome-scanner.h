/* sps-chrome-scanner.h: a streaming scanner for Chrome trace JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <spanscope-core.h>

G_BEGIN_DECLS

/* Safety limits for hostile input. */
#define SPS_CHROME_MAX_DEPTH   1000
#define SPS_CHROME_MAX_STRING  (((gsize) 256) * 1024 * 1024)
/* Time units are powers of ten of a nanosecond: ns 0, µs 3, ms 6, s 9 */
#define SPS_CHROME_MAX_TIME_EXP 9

extern const guint64 sps_chrome_pow10[SPS_CHROME_MAX_TIME_EXP + 1];

typedef enum
{
  SPS_CHROME_SCAN_OK,
  SPS_CHROME_SCAN_END,    /* the enclosing array or object closed */
  SPS_CHROME_SCAN_EOF,    /* the input ended before the value was complete */
  SPS_CHROME_SCAN_ERROR,  /* malformed or too large; see error_* fields */
  SPS_CHROME_SCAN_LIMIT,  /* the next element starts at or after limit */
  SPS_CHROME_SCAN_STOPPED, /* the caller asked to stop */
} SpsChromeScanResult;

typedef enum
{
  SPS_CHROME_VALUE_NONE,
  SPS_CHROME_VALUE_STRING,  /* ptr/len: the raw text between the quotes */
  SPS_CHROME_VALUE_NUMBER,  /* ptr/len: the number as written */
  SPS_CHROME_VALUE_TRUE,
  SPS_CHROME_VALUE_FALSE,
  SPS_CHROME_VALUE_NULL,
  SPS_CHROME_VALUE_OBJECT,  /* ptr/len: the whole `{...}` */
  SPS_CHROME_VALUE_ARRAY,   /* ptr/len: the whole `[...]` */
} SpsChromeValueType;

/* A value of the input, by reference: nothing is copied. Values longer
 * than 4 GiB are refused by the scanner, so 32 bits hold any length. */
typedef struct
{
  const char *ptr;
  guint32     len;
  guint8      type;      /* SpsChromeValueType */
  guint8      escaped;   /* a string containing a backslash escape, or a
                          * container with a comma before a closing bracket */
  guint8      too_deep;  /* an object or array nested deeper than
                          * SPS_CHROME_MAX_DEPTH: only its brackets
                          * were matched, its grammar is not checked */
} SpsChromeValue;

typedef enum
{
  SPS_CHROME_TIME_NONE,     /* absent */
  SPS_CHROME_TIME_OK,
  SPS_CHROME_TIME_INVALID,  /* present but neither a number nor a string */
  SPS_CHROME_TIME_BAD_NUMBER, /* a string that does not hold a number */
  SPS_CHROME_TIME_OUT_OF_RANGE, /* a number whose ns do not fit 63 bits */
} SpsChromeTimeState;

/* Fields of SpsChromeEvent.fields: which of the values were present. */
enum
{
  SPS_CHROME_FIELD_NAME       = 1 << 0,
  SPS_CHROME_FIELD_CAT        = 1 << 1,
  SPS_CHROME_FIELD_PID        = 1 << 2,
  SPS_CHROME_FIELD_TID        = 1 << 3,
  SPS_CHROME_FIELD_ID         = 1 << 4,
  SPS_CHROME_FIELD_ID2        = 1 << 5,
  SPS_CHROME_FIELD_SCOPE      = 1 << 6,
  SPS_CHROME_FIELD_S          = 1 << 7,
  SPS_CHROME_FIELD_BP         = 1 << 8,
  SPS_CHROME_FIELD_BIND_ID    = 1 << 9,
  SPS_CHROME_FIELD_SF         = 1 << 10,
  SPS_CHROME_FIELD_STACK      = 1 << 11,
  SPS_CHROME_FIELD_WEIGHT     = 1 << 12,
  SPS_CHROME_FIELD_WEIGHT_UNIT = 1 << 13,
  SPS_CHROME_FIELD_ARGS       = 1 << 14,
  SPS_CHROME_FIELD_PH         = 1 << 15,
  SPS_CHROME_FIELD_FLOW_IN    = 1 << 16,
  SPS_CHROME_FIELD_FLOW_OUT   = 1 << 17,
  SPS_CHROME_FIELD_ESF        = 1 << 18,
};

/* One event object, as read. Only the values whose bit is set in @fields
 * are meaningful; the scanner does not clear the others (that would cost
 * more than the scan of a small event). @pid_value/@tid_value are set
 * when the id is an integer (a number, or a string holding one). */
typedef struct
{
  gsize          offset;        /* of the event's `{` */
  guint32        n_members;     /* keys read, known or not */
  guint32        fields;
  char           ph;            /* first byte of "ph", 0 when absent */
  guint8         is_object;     /* FALSE: an array element that is not an object */
  guint8         ts_state;      /* SpsChromeTimeState */
  guint8         dur_state;
  guint8         pid_is_int;
  guint8         tid_is_int;
  /* sps_chrome_quick_hash() of name and cat, computed by the scanning
   * thread so that the thread feeding the builder only looks them up */
  guint32        name_hash;
  guint32        cat_hash;
  SpsTime        ts;
  SpsTime        dur;
  gint64         pid_value;
  gint64         tid_value;
  SpsChromeValue name;
  SpsChromeValue cat;
  SpsChromeValue pid;
  SpsChromeValue tid;
  SpsChromeValue id;
  SpsChromeValue id2;
  SpsChromeValue scope;
  SpsChromeValue s;
  SpsChromeValue bp;
  SpsChromeValue bind_id;
  SpsChromeValue sf;
  SpsChromeValue stack;
  SpsChromeValue weight;
  SpsChromeValue weight_unit;
  SpsChromeValue args;
  SpsChromeValue esf;
} SpsChromeEvent;

/* The scanner walks a buffer that stays alive (and unmodified) for as long
 * as the values it returns are used. It never reads outside [base, end). */
typedef struct
{
  const char *base;
  const char *p;
  const char *end;
  gsize       limit;          /* offset where next_element() stops */
  guint       depth;          /* open containers around the cursor */
  guint       time_exp;       /* ts/dur × 10^time_exp are ns */
  gboolean    eof_inside;     /* last EOF happened inside a value */
  SpsChromeScanResult failure; /* why the last helper returned NULL */
  guint64     after_value;    /* bit d: container at depth d has a value */
  gboolean    trailing_comma; /* the last skipped container had one */
  gboolean    too_deep;       /* the last container skipped was too deep */

  /* Set on SPS_CHROME_SCAN_ERROR */
  SpsImportError error_code;
  gsize          error_offset;
  char          *error_message;
} SpsChromeScanner;

void                sps_chrome_scanner_init           (SpsChromeScanner     *self,
                                                       const char           *base,
                                                       gsize                 len,
                                                       guint                 time_exp);
void                sps_chrome_scanner_init_range     (SpsChromeScanner     *self,
                                                       const char           *base,
                                                       const char           *start,
                                                       const char           *end,
                                                       guint                 depth);
void                sps_chrome_scanner_clear          (SpsChromeScanner     *self);
gsize               sps_chrome_scanner_get_offset     (const SpsChromeScanner *self);
char                sps_chrome_scanner_peek           (SpsChromeScanner     *self);
SpsChromeScanResult sps_chrome_scanner_begin_document (SpsChromeScanner     *self,
                                                       char                 *open_char);
SpsChromeScanResult sps_chrome_scanner_enter          (SpsChromeScanner     *self,
                                                       char                  open_char);
SpsChromeScanResult sps_chrome_scanner_next_member    (SpsChromeScanner     *self,
                                                       SpsChromeValue       *key);
SpsChromeScanResult sps_chrome_scanner_next_element   (SpsChromeScanner     *self);
void                sps_chrome_scanner_seek_element   (SpsChromeScanner     *self,
                                                       const char           *element);
SpsChromeScanResult sps_chrome_scanner_read_value     (SpsChromeScanner     *self,
                                                       SpsChromeValue       *value);
SpsChromeScanResult sps_chrome_scanner_next_event     (SpsChromeScanner     *self,
                                                       SpsChromeEvent       *event);
SpsChromeScanResult sps_chrome_scanner_finish_document (SpsChromeScanner    *self);

typedef enum
{
  SPS_CHROME_NUMBER_OK,
  SPS_CHROME_NUMBER_INVALID,
  SPS_CHROME_NUMBER_OVERFLOW,
} SpsChromeNumberResult;

SpsChromeNumberResult sps_chrome_parse_time    (const char  *text,
                                                gsize        len,
                                                guint        time_exp,
                                                SpsTime     *out);
gboolean              sps_chrome_time_unit_exponent (const char *unit,
                                                     guint      *time_exp);
SpsChromeNumberResult sps_chrome_parse_int64   (const char  *text,
                                                gsize        len,
                                                gint64      *out);
SpsChromeNumberResult sps_chrome_parse_double  (const char  *text,
                                                gsize        len,
                                                double      *out);
gboolean              sps_chrome_value_to_double (const SpsChromeValue *value,
                                                  double               *out);
gboolean              sps_chrome_value_equals  (const SpsChromeValue *value,
                                                const char           *literal);

gboolean              sps_chrome_decode_string (const char  *raw,
                                                gsize        len,
                                                GString     *out);

/* A fast 64-bit hash of raw bytes (not for hostile-collision resistance:
 * only caches and identity keys built from it). Reads with memcpy, so any
 * alignment is fine. */
static inline guint64
sps_chrome_hash_bytes (guint64     seed,
                       const char *p,
                       gsize       len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint64 h = (seed ^ len) * k;

  while (len >= 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      h = (h ^ w) * k;
      h ^= h >> 29;
      p += 8;
      len -= 8;
    }
  if (len > 0)
    {
      guint64 w = 0;

      memcpy (&w, p, len);
      h = (h ^ w) * k;
      h ^= h >> 29;
    }
  h *= k;
  return h ^ (h >> 32);
}

/* Which of the 8 bytes at @p (8 bytes must be readable) are not ASCII
 * digits: the high bit of each such byte, in memory order from the low
 * byte. A byte is flagged when it is below '0' (its difference wraps) or
 * above '9' (adding 0x76 reaches 0x80); a borrow only disturbs the bytes
 * after the first flagged one, so the lowest flag is exact. @digits
 * receives the bytes minus '0', for a caller that reads their value. */
static inline guint64
sps_chrome_non_digits (const char *p,
                       guint64    *digits)
{
  guint64 w;
  guint64 d;

  memcpy (&w, p, 8);
  w = GUINT64_FROM_LE (w);
  d = w - G_GUINT64_CONSTANT (0x3030303030303030);
  *digits = d;
  return ((d + G_GUINT64_CONSTANT (0x7676767676767676)) | d) & G_GUINT64_CONSTANT (0x8080808080808080);
}

/* Hashes the length and at most the first and last 8 bytes: enough to
 * spread names over a cache, and O(1) however long they are. Whoever
 * uses it must compare the whole string on a hit. */
static inline guint32
sps_chrome_quick_hash (const char *raw,
                       gsize       len)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  guint64 a = 0;
  guint64 b = 0;
  guint64 h;

  if (len >= 8)
    {
      memcpy (&a, raw, 8);
      memcpy (&b, raw + len - 8, 8);
    }
  else if (len > 0)
    memcpy (&a, raw, len);

  h = (a ^ (len * k)) * k;
  h = (h ^ (h >> 29) ^ b) * k;
  return (guint32) (h >> 32);
}

G_END_DECLS
