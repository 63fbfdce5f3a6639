/* sps-args-merge.c: merging the args of an end event into its slice's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The args of the events a slice is made of (B and E, b and e, S and F)
 * all belong to the slice. They are JSON text referenced in place, so a
 * merge writes a new object into the builder's arena, splicing the
 * members' text as written (numbers keep their digits).
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-args-merge-private.h"

static inline gboolean
is_ws (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline gsize
skip_ws (const char *text,
         gsize       i,
         gsize       size)
{
  while (i < size && is_ws (text[i]))
    i++;
  return i;
}

/* Length of the JSON value at @text (at most @size bytes), aware of
 * strings and escapes, leading whitespace included; 0 if it does not end
 * within @size. */
gsize
_sps_json_value_length (const char *text,
                        gsize       size)
{
  gsize i = skip_ws (text, 0, size);

  if (i == size)
    return 0;

  if (text[i] == '{' || text[i] == '[' || text[i] == '"')
    {
      gboolean in_string = FALSE;
      gsize depth = 0;

      for (; i < size; i++)
        {
          char c = text[i];

          if (in_string)
            {
              if (c == '\\')
                i++;
              else if (c == '"')
                {
                  in_string = FALSE;
                  if (depth == 0)
                    return i + 1;
                }
            }
          else if (c == '"')
            in_string = TRUE;
          else if (c == '{' || c == '[')
            depth++;
          else if (c == '}' || c == ']')
            {
              if (depth == 0)
                return 0;
              if (--depth == 0)
                return i + 1;
            }
        }

      return 0;
    }

  /* A number, true, false or null: up to the next delimiter. */
  while (i < size &&
         text[i] != ',' && text[i] != '}' && text[i] != ']' && !is_ws (text[i]))
    i++;

  return i;
}

/* Copies @len bytes of JSON text into the arena (during finish too). */
SpsArgsRef
_sps_trace_builder_arena_add (SpsTraceBuilder *self,
                              const char      *json,
                              gsize            len)
{
  guint64 offset = self->arena->len;

  if (len == 0)
    return SPS_ARGS_REF_NONE;

  if (offset > SPS_ARGS_REF_OFFSET_MASK || len > G_MAXUINT - offset)
    {
      _sps_trace_builder_warn_count (self, "args_arena_full", 1,
                                     _("The args arena is full; further args are dropped"));
      return SPS_ARGS_REF_NONE;
    }

  g_byte_array_append (self->arena, (const guint8 *) json, (guint) len);

  return sps_args_ref_new (TRUE, offset, len);
}

/**
 * _sps_args_ref_text:
 * @data: the store @ref points into (the arena or the source)
 * @size: its size
 * @ref: a reference
 * @len: (out): the text's length
 *
 * Returns: the text @ref points at, or %NULL when it lies outside @data
 *   or is empty; an unknown length is scanned for
 */
const char *
_sps_args_ref_text (const char *data,
                    gsize       size,
                    SpsArgsRef  ref,
                    gsize      *len)
{
  guint64 offset = ref & SPS_ARGS_REF_OFFSET_MASK;
  guint64 length = (ref >> SPS_ARGS_REF_OFFSET_BITS) & SPS_ARGS_REF_LENGTH_UNKNOWN;

  if (data == NULL || offset >= size)
    return NULL;
  if (length == SPS_ARGS_REF_LENGTH_UNKNOWN)
    length = _sps_json_value_length (data + offset, size - offset);
  else if (length > size - offset)
    return NULL;
  if (length == 0)
    return NULL;

  *len = length;
  return data + offset;
}

/* The text a reference of the builder points at, or NULL; deferred args
 * are decoded into *@decoded */
static const char *
builder_args_text (SpsTraceBuilder *self,
                   SpsArgsRef       ref,
                   gsize           *len,
                   GString        **decoded)
{
  const char *data;
  gsize size;

  if (sps_args_ref_is_deferred (ref))
    {
      *decoded = g_string_new (NULL);
      if (!_sps_args_decode (self->decoders, ref, *decoded, NULL))
        return NULL;
      *len = (*decoded)->len;
      return (*decoded)->str;
    }
  if ((ref & SPS_ARGS_REF_ARENA_BIT) != 0)
    {
      data = (const char *) self->arena->data;
      size = self->arena->len;
    }
  else if (self->source != NULL)
    data = g_bytes_get_data (self->source, &size);
  else
    return NULL;

  return _sps_args_ref_text (data, size, ref, len);
}

typedef struct
{
  const char *key;
  gsize       key_len;
  const char *value;
  gsize       value_len;
} Member;

/* Splits the members of an object's text; FALSE if it is not an object. */
static gboolean
split_members (const char *text,
               gsize       len,
               GArray     *members)
{
  gsize i = skip_ws (text, 0, len);

  if (i >= len || text[i] != '{')
    return FALSE;
  i++;

  for (;;)
    {
      Member m;
      gsize n;

      i = skip_ws (text, i, len);
      if (i >= len)
        return FALSE;
      if (text[i] == '}')
        return TRUE;
      if (text[i] != '"' || (n = _sps_json_value_length (text + i, len - i)) == 0)
        return FALSE;
      m.key = text + i;
      m.key_len = n;
      i = skip_ws (text, i + n, len);
      if (i >= len || text[i] != ':')
        return FALSE;
      i = skip_ws (text, i + 1, len);
      if ((n = _sps_json_value_length (text + i, len - i)) == 0)
        return FALSE;
      m.value = text + i;
      m.value_len = n;
      g_array_append_val (members, m);
      i = skip_ws (text, i + n, len);
      if (i < len && text[i] == ',')
        i++;
      else if (i >= len || text[i] != '}')
        return FALSE;
    }
}

static const Member *
find_member (GArray       *members,
             const Member *like)
{
  for (guint i = 0; i < members->len; i++)
    {
      const Member *m = &g_array_index (members, Member, i);

      if (m->key_len == like->key_len && memcmp (m->key, like->key, m->key_len) == 0)
        return m;
    }
  return NULL;
}

static void
append_member (GString      *out,
               const Member *key,
               const Member *value)
{
  if (out->len > 1)
    g_string_append_c (out, ',');
  g_string_append_len (out, key->key, (gssize) key->key_len);
  g_string_append_c (out, ':');
  g_string_append_len (out, value->value, (gssize) value->value_len);
}

/**
 * _sps_args_merge:
 * @self: a builder
 * @into: the args of the event that opened a slice
 * @from: the args of the event that closed it
 * @n_overwritten: (out): how many keys both had
 *
 * The members of @into in their order, then those only @from has; on a
 * key both have, @from's value wins. Keys compare as written.
 *
 * Returns: the merged args; @into or @from themselves when the other is
 *   empty, and @into when either is not an object
 */
SpsArgsRef
_sps_args_merge (SpsTraceBuilder *self,
                 SpsArgsRef       into,
                 SpsArgsRef       from,
                 guint           *n_overwritten)
{
  g_autoptr(GString) decoded_a = NULL;
  g_autoptr(GString) decoded_b = NULL;
  GArray *a;
  GArray *b;
  GString *out;
  const char *text_a;
  const char *text_b;
  gsize len_a = 0;
  gsize len_b = 0;

  *n_overwritten = 0;

  if (from == SPS_ARGS_REF_NONE)
    return into;
  if (into == SPS_ARGS_REF_NONE)
    return from;

  text_a = builder_args_text (self, into, &len_a, &decoded_a);
  text_b = builder_args_text (self, from, &len_b, &decoded_b);
  if (text_a == NULL || text_b == NULL)
    return text_a != NULL ? into : from;

  /* Scratch kept by the builder: a merge per B/E pair must not cost
   * allocations */
  for (guint i = 0; i < 2; i++)
    {
      if (self->merge_members[i] == NULL)
        self->merge_members[i] = g_array_new (FALSE, FALSE, sizeof (Member));
      g_array_set_size (self->merge_members[i], 0);
    }
  if (self->merge_text == NULL)
    self->merge_text = g_string_new (NULL);
  a = self->merge_members[0];
  b = self->merge_members[1];
  out = self->merge_text;
  g_string_truncate (out, 0);

  if (!split_members (text_a, len_a, a) || !split_members (text_b, len_b, b))
    return into;
  if (b->len == 0)
    return into;
  if (a->len == 0)
    return from;

  g_string_append_c (out, '{');
  for (guint i = 0; i < a->len; i++)
    {
      const Member *m = &g_array_index (a, Member, i);
      const Member *later = find_member (b, m);

      if (later != NULL)
        (*n_overwritten)++;
      append_member (out, m, later != NULL ? later : m);
    }
  for (guint i = 0; i < b->len; i++)
    {
      const Member *m = &g_array_index (b, Member, i);

      if (find_member (a, m) == NULL)
        append_member (out, m, m);
    }
  g_string_append_c (out, '}');

  /* The arena moves as it grows: nothing above may be used after this. */
  return _sps_trace_builder_arena_add (self, out->str, out->len);
}
