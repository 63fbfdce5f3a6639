/* sps-view-filter-classes.c: classification bits of SpsViewFilter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view-filter"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sps-view-filter-private.h"

/*
 * A class is a bit; rules set it on slices by category token, by name or by
 * an argument. Rules change rarely (they are the trace's settings), so
 * adding one classifies every slice again; toggling a class in the masks
 * is the frequent control and reads no slice. Category and name rules are
 * evaluated once per distinct string id; only argument rules read slices'
 * args, and only those whose JSON text mentions the key.
 *
 * Each slice stores the id of its distinct bit set (its pattern): traces
 * have a handful, so the visible count per (track, depth, pattern) stays
 * small and a mask change re-evaluates patterns, not slices.
 */

void
_sps_class_rule_free (gpointer data)
{
  SpsClassRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->value);
  g_clear_pointer (&rule->spec, g_pattern_spec_free);
  g_free (rule);
}

void
_sps_view_filter_clear_classes (SpsViewFilter *self)
{
  g_assert (SPS_IS_VIEW_FILTER (self));

  if (self->rules != NULL)
    g_ptr_array_set_size (self->rules, 0);
  if (self->class_names != NULL)
    g_ptr_array_set_size (self->class_names, 0);
}

void
_sps_view_filter_update_patterns (SpsViewFilter *self)
{
  g_assert (SPS_IS_VIEW_FILTER (self));

  g_free (self->pattern_ok);
  self->pattern_ok = g_new (guint8, MAX (self->patterns->len, 1));
  for (guint p = 0; p < self->patterns->len; p++)
    {
      guint32 bits = g_array_index (self->patterns, guint32, p);

      self->pattern_ok[p] = (bits & self->require_mask) == self->require_mask &&
                            (bits & self->exclude_mask) == 0;
    }
}

static gboolean
match_category (SpsViewFilter *self,
                SpsClassRule  *rule,
                guint32        category)
{
  gsize len;
  const char *str = sps_string_pool_get (sps_trace_get_strings (self->trace), category, &len);
  gsize pos = 0;

  /* Tokens split at commas and trimmed, as the session's category
   * filters split them; an empty category is one empty token. */
  while (pos <= len)
    {
      const char *comma = memchr (str + pos, ',', len - pos);
      gsize end = comma != NULL ? (gsize) (comma - str) : len;
      gsize a = pos;
      gsize b = end;
      g_autofree char *token = NULL;

      while (a < b && g_ascii_isspace (str[a]))
        a++;
      while (b > a && g_ascii_isspace (str[b - 1]))
        b--;
      token = g_strndup (str + a, b - a);
      if ((b > a || (comma == NULL && pos == 0)) &&
          g_pattern_spec_match_string (rule->spec, token))
        return TRUE;
      if (comma == NULL)
        break;
      pos = end + 1;
    }
  return FALSE;
}

/* The bits that category and name rules give one string id, computed on
 * first use. */
typedef struct
{
  guint32 *bits;
  guint8  *done;
} StringBits;

static guint32
string_bits (SpsViewFilter    *self,
             StringBits       *memo,
             SpsClassRuleKind  kind,
             guint32           id)
{
  guint32 bits = 0;

  if (memo->done[id])
    return memo->bits[id];

  for (guint r = 0; r < self->rules->len; r++)
    {
      SpsClassRule *rule = g_ptr_array_index (self->rules, r);

      if (rule->kind != kind || (bits & (1u << rule->bit)))
        continue;
      if (kind == SPS_CLASS_RULE_CATEGORY ? match_category (self, rule, id)
                                          : g_pattern_spec_match_string (rule->spec,
                                                                         sps_trace_get_string (self->trace, id)))
        bits |= 1u << rule->bit;
    }
  memo->bits[id] = bits;
  memo->done[id] = TRUE;
  return bits;
}

static gboolean
node_equals (JsonNode   *node,
             const char *value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *text = NULL;

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strcmp0 (value, "null") == 0;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strcmp0 (json_node_get_string (node), value) == 0;
    case G_TYPE_INT64:
      text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
      return g_strcmp0 (text, value) == 0;
    case G_TYPE_DOUBLE:
      return g_strcmp0 (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (node)), value) == 0;
    case G_TYPE_BOOLEAN:
      return g_strcmp0 (json_node_get_boolean (node) ? "true" : "false", value) == 0;
    default:
      return FALSE;
    }
}

/* Arg rules of one slice: its args read through the trace (deferred args
 * are decoded there), parsed only when the text can hold a key. */
static guint32
arg_bits (SpsViewFilter *self,
          JsonParser    *parser,
          GString       *text,
          guint32        slice)
{
  SpsArgsRef ref = self->slices->args[slice];
  JsonNode *root;
  JsonObject *object;
  gboolean escapes;
  gboolean any = FALSE;
  guint32 bits = 0;

  if (ref == SPS_ARGS_REF_NONE)
    return 0;

  g_string_truncate (text, 0);
  if (!sps_trace_append_args_json (self->trace, ref, text, NULL))
    return 0;

  /* A key written with escapes does not show as itself in the text */
  escapes = strchr (text->str, '\\') != NULL;
  for (guint r = 0; r < self->rules->len && !any; r++)
    {
      SpsClassRule *rule = g_ptr_array_index (self->rules, r);

      any = rule->kind == SPS_CLASS_RULE_ARG && (escapes || strstr (text->str, rule->pattern) != NULL);
    }
  if (!any || !json_parser_load_from_data (parser, text->str, text->len, NULL))
    return 0;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  object = json_node_get_object (root);

  for (guint r = 0; r < self->rules->len; r++)
    {
      SpsClassRule *rule = g_ptr_array_index (self->rules, r);
      JsonNode *member;

      if (rule->kind != SPS_CLASS_RULE_ARG)
        continue;
      member = json_object_get_member (object, rule->pattern);
      if (member != NULL && (rule->value == NULL || node_equals (member, rule->value)))
        bits |= 1u << rule->bit;
    }
  return bits;
}

/* Every slice's pattern from the rules, then the counts. */
void
_sps_view_filter_classify (SpsViewFilter *self)
{
  guint n_strings = sps_string_pool_get_size (sps_trace_get_strings (self->trace));
  g_autoptr(GHashTable) ids = g_hash_table_new (NULL, NULL);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GString) text = NULL;
  StringBits names = { NULL, NULL };
  StringBits categories = { NULL, NULL };
  gboolean by_string = FALSE;
  gboolean by_args = FALSE;
  guint32 last_bits = 0;
  guint16 last_id = 0;
  guint32 none = 0;

  g_assert (SPS_IS_VIEW_FILTER (self));

  g_array_set_size (self->patterns, 0);
  g_array_append_val (self->patterns, none);
  g_hash_table_insert (ids, GUINT_TO_POINTER (0), GUINT_TO_POINTER (0));

  for (guint r = 0; r < self->rules->len; r++)
    {
      SpsClassRule *rule = g_ptr_array_index (self->rules, r);

      by_args |= rule->kind == SPS_CLASS_RULE_ARG;
      by_string |= rule->kind != SPS_CLASS_RULE_ARG;
    }

  if (!by_string && !by_args)
    {
      memset (self->slice_pattern, 0, sizeof (guint16) * MAX (self->slices->n_rows, 1));
      _sps_view_filter_update_patterns (self);
      return;
    }

  names.bits = g_new (guint32, MAX (n_strings, 1));
  names.done = g_new0 (guint8, MAX (n_strings, 1));
  categories.bits = g_new (guint32, MAX (n_strings, 1));
  categories.done = g_new0 (guint8, MAX (n_strings, 1));
  if (by_args)
    {
      parser = json_parser_new_immutable ();
      text = g_string_new (NULL);
    }

  for (guint s = 0; s < self->slices->n_rows; s++)
    {
      guint32 bits = 0;
      gpointer value;

      if (by_string)
        bits = string_bits (self, &names, SPS_CLASS_RULE_NAME, self->slices->name[s]) |
               string_bits (self, &categories, SPS_CLASS_RULE_CATEGORY, self->slices->category[s]);
      if (by_args)
        bits |= arg_bits (self, parser, text, s);

      if (bits != last_bits)
        {
          if (!g_hash_table_lookup_extended (ids, GUINT_TO_POINTER (bits), NULL, &value))
            {
              /* 16 class bits: at most 65536 patterns, which fit */
              value = GUINT_TO_POINTER (self->patterns->len);
              g_array_append_val (self->patterns, bits);
              g_hash_table_insert (ids, GUINT_TO_POINTER (bits), value);
            }
          last_bits = bits;
          last_id = GPOINTER_TO_UINT (value);
        }
      self->slice_pattern[s] = last_id;
    }

  g_free (names.bits);
  g_free (names.done);
  g_free (categories.bits);
  g_free (categories.done);
  _sps_view_filter_update_patterns (self);
}

/**
 * sps_view_filter_add_class:
 * @self: a #SpsViewFilter
 * @name: the class's name ("error", "instrumentation", a user's own)
 * @error: return location for a #GError
 *
 * Adds a class, or finds it when it exists. Its bit is the return value;
 * no slice has it until a rule sets it.
 *
 * Returns: the class's bit (0–15), or -1 with @error set when the filter
 *   holds %SPS_VIEW_FILTER_MAX_CLASSES already
 */
int
sps_view_filter_add_class (SpsViewFilter  *self,
                           const char     *name,
                           GError        **error)
{
  int bit;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  bit = sps_view_filter_lookup_class (self, name);
  if (bit >= 0)
    return bit;
  if (self->class_names->len >= SPS_VIEW_FILTER_MAX_CLASSES)
    {
      g_set_error (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_TOO_MANY_CLASSES,
                   /* Translators: %s is a class name, %d the most classes a filter holds */
                   _("Cannot add the class “%s”: a filter holds at most %d classes"),
                   name, SPS_VIEW_FILTER_MAX_CLASSES);
      return -1;
    }
  g_ptr_array_add (self->class_names, g_strdup (name));
  return self->class_names->len - 1;
}

/**
 * sps_view_filter_lookup_class:
 * @self: a #SpsViewFilter
 * @name: a class name
 *
 * Returns: the class's bit, or -1 when there is no such class
 */
int
sps_view_filter_lookup_class (SpsViewFilter *self,
                              const char    *name)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < self->class_names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->class_names, i), name) == 0)
      return i;
  return -1;
}

/**
 * sps_view_filter_get_n_classes:
 * @self: a #SpsViewFilter
 *
 * Returns: how many classes there are (their bits are 0 to n − 1)
 */
guint
sps_view_filter_get_n_classes (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->class_names->len;
}

/**
 * sps_view_filter_get_class_name:
 * @self: a #SpsViewFilter
 * @bit: a class bit
 *
 * Returns: (nullable): the name of the class with @bit
 */
const char *
sps_view_filter_get_class_name (SpsViewFilter *self,
                                guint          bit)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);

  if (bit >= self->class_names->len)
    return NULL;
  return g_ptr_array_index (self->class_names, bit);
}

/* A rule without classifying again: the serialised filter adds all of its
 * rules, then classifies once. */
gboolean
_sps_view_filter_append_rule (SpsViewFilter     *self,
                              const char        *class_name,
                              SpsClassRuleKind   kind,
                              const char        *pattern,
                              const char        *value,
                              GError           **error)
{
  SpsClassRule *rule;
  int bit;

  g_assert (SPS_IS_VIEW_FILTER (self));

  bit = sps_view_filter_add_class (self, class_name, error);
  if (bit < 0)
    return FALSE;

  rule = g_new0 (SpsClassRule, 1);
  rule->kind = kind;
  rule->bit = bit;
  rule->pattern = g_strdup (pattern);
  rule->value = kind == SPS_CLASS_RULE_ARG ? g_strdup (value) : NULL;
  if (kind != SPS_CLASS_RULE_ARG)
    rule->spec = g_pattern_spec_new (pattern);
  g_ptr_array_add (self->rules, rule);
  return TRUE;
}

/**
 * sps_view_filter_add_rule:
 * @self: a #SpsViewFilter
 * @class_name: the class the rule sets (added when missing)
 * @kind: what the rule looks at
 * @pattern: a glob (`*`, `?`) for category tokens and names; the member
 *   name for an argument rule
 * @value: (nullable): for an argument rule, the value the member must have
 *   (strings as they are, numbers and booleans as JSON writes them); %NULL
 *   when any value will do
 * @error: return location for a #GError
 *
 * Adds a classification rule and classifies every slice again (one pass;
 * argument rules read the args of the slices whose text mentions the key).
 *
 * Returns: %FALSE with @error set when the class cannot be added
 */
gboolean
sps_view_filter_add_rule (SpsViewFilter     *self,
                          const char        *class_name,
                          SpsClassRuleKind   kind,
                          const char        *pattern,
                          const char        *value,
                          GError           **error)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (class_name != NULL, FALSE);
  g_return_val_if_fail (kind <= SPS_CLASS_RULE_ARG, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);

  if (!_sps_view_filter_append_rule (self, class_name, kind, pattern, value, error))
    return FALSE;

  _sps_view_filter_classify (self);
  _sps_view_filter_rebuild_counts (self);
  _sps_view_filter_changed (self);
  return TRUE;
}

/**
 * sps_view_filter_replace_rules:
 * @self: a #SpsViewFilter
 * @class_name: the class whose rules change (added when missing)
 * @kind: what the new rules look at (%SPS_CLASS_RULE_CATEGORY or
 *   %SPS_CLASS_RULE_NAME)
 * @patterns: (array zero-terminated=1): a glob per new rule; may be empty
 * @error: return location for a #GError
 *
 * Replaces every rule of a class by one rule per pattern, and classifies
 * every slice once (a view that derives a class from many toggles, such
 * as the categories a session shows, pays one pass per change instead of
 * one per rule).
 *
 * Returns: %FALSE with @error set when the class cannot be added
 */
gboolean
sps_view_filter_replace_rules (SpsViewFilter      *self,
                               const char         *class_name,
                               SpsClassRuleKind    kind,
                               const char * const *patterns,
                               GError            **error)
{
  int bit;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (class_name != NULL, FALSE);
  g_return_val_if_fail (kind == SPS_CLASS_RULE_CATEGORY || kind == SPS_CLASS_RULE_NAME, FALSE);
  g_return_val_if_fail (patterns != NULL, FALSE);

  bit = sps_view_filter_add_class (self, class_name, error);
  if (bit < 0)
    return FALSE;

  for (guint r = self->rules->len; r > 0; r--)
    {
      SpsClassRule *rule = g_ptr_array_index (self->rules, r - 1);

      if (rule->bit == (guint) bit)
        g_ptr_array_remove_index (self->rules, r - 1);
    }
  for (guint i = 0; patterns[i] != NULL; i++)
    if (!_sps_view_filter_append_rule (self, class_name, kind, patterns[i], NULL, error))
      g_assert_not_reached ();   /* the class exists */

  _sps_view_filter_classify (self);
  _sps_view_filter_rebuild_counts (self);
  _sps_view_filter_changed (self);
  return TRUE;
}

/**
 * sps_view_filter_get_slice_classes:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Returns: the class bits of @slice
 */
guint32
sps_view_filter_get_slice_classes (SpsViewFilter *self,
                                   guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (slice < self->slices->n_rows, 0);

  return g_array_index (self->patterns, guint32, self->slice_pattern[slice]);
}

/**
 * sps_view_filter_set_class_masks:
 * @self: a #SpsViewFilter
 * @require_all: class bits a slice must all have
 * @exclude_any: class bits a slice must have none of
 *
 * Bits of classes that do not exist are ignored (so that the masks are
 * always what the serialised filter says). Costs the distinct class
 * patterns, and the (track, depth, pattern) counts; no slice is read.
 */
void
sps_view_filter_set_class_masks (SpsViewFilter *self,
                                 guint32        require_all,
                                 guint32        exclude_any)
{
  guint32 defined;

  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  defined = (guint32) ((G_GUINT64_CONSTANT (1) << self->class_names->len) - 1);
  require_all &= defined;
  exclude_any &= defined;

  if (require_all == self->require_mask && exclude_any == self->exclude_mask)
    return;
  self->require_mask = require_all;
  self->exclude_mask = exclude_any;
  _sps_view_filter_update_patterns (self);
  _sps_view_filter_recount_all (self);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_get_require_mask:
 * @self: a #SpsViewFilter
 *
 * Returns: the bits a visible slice has all of
 */
guint32
sps_view_filter_get_require_mask (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->require_mask;
}

/**
 * sps_view_filter_get_exclude_mask:
 * @self: a #SpsViewFilter
 *
 * Returns: the bits a visible slice has none of
 */
guint32
sps_view_filter_get_exclude_mask (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->exclude_mask;
}
