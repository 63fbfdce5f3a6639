/* sps-source-remap.c: turning a trace's source file name into local paths through prefix rules
 *
 * A trace names its sources as the machine that ran the program saw them:
 * a CI checkout (/builds/ci/src/…), a Windows tree (C:\src\…), a web
 * server (http://localhost:8080/app.js), or a path relative to the build
 * folder (../../base/task.cc). Rules "prefix A → prefix B" rewrite them
 * into files of this machine; the first rule whose prefix matches wins, so
 * a specific rule goes above a general one. Separators compare equal in
 * prefixes ('/' matches '\'), and what follows the prefix gets '/'
 * separators, so one rule maps a whole Windows tree.
 *
 * The rules are kept per trace folder in the plugin's GSettings schema
 * (io.github.spanscope.Spanscope.source, key path-rules: folder → rules):
 * traces of one project usually sit together and share their rules.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source-remap"

#include "config.h"

#include <string.h>

#include "sps-source-remap.h"

#define RULES_KEY "path-rules"

SpsSourceRule *
sps_source_rule_new (const char *from,
                     const char *to)
{
  SpsSourceRule *self = g_new0 (SpsSourceRule, 1);

  self->from = g_strdup (from != NULL ? from : "");
  self->to = g_strdup (to != NULL ? to : "");

  return self;
}

void
sps_source_rule_free (SpsSourceRule *self)
{
  if (self == NULL)
    return;

  g_free (self->from);
  g_free (self->to);
  g_free (self);
}

GPtrArray *
sps_source_rules_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) sps_source_rule_free);
}

GPtrArray *
sps_source_rules_copy (GPtrArray *rules)
{
  GPtrArray *copy = sps_source_rules_new ();

  for (guint i = 0; rules != NULL && i < rules->len; i++)
    {
      SpsSourceRule *rule = g_ptr_array_index (rules, i);

      g_ptr_array_add (copy, sps_source_rule_new (rule->from, rule->to));
    }

  return copy;
}

static gboolean
is_separator (char c)
{
  return c == '/' || c == '\\';
}

/* "http://…", "https://…": a scheme of letters, then "://" */
static gboolean
is_url (const char *text)
{
  const char *p = text;

  while (g_ascii_isalpha (*p))
    p++;
  return p > text + 1 && g_str_has_prefix (p, "://");
}

/* C:\…, C:/… or \\server\…: cannot name a file here without a rule */
static gboolean
is_windows_absolute (const char *path)
{
  return (g_ascii_isalpha (path[0]) && path[1] == ':' && is_separator (path[2])) ||
         (path[0] == '\\' && path[1] == '\\');
}

/* file:// URLs become paths; http(s) URLs lose their query and fragment,
 * which name no file. */
static char *
normalize (const char *file)
{
  if (g_ascii_strncasecmp (file, "file://", 7) == 0)
    {
      char *path = g_filename_from_uri (file, NULL, NULL);

      if (path != NULL)
        return path;
      /* file://host/… or a malformed escape: keep what it names */
      return g_uri_unescape_string (file + 7, NULL);
    }
  if (is_url (file))
    return g_strndup (file, strcspn (file, "?#"));

  return g_strdup (file);
}

/* How many bytes of @file @prefix matches (separators match each other),
 * or 0 */
static gsize
match_prefix (const char *file,
              const char *prefix)
{
  gsize i;

  for (i = 0; prefix[i] != '\0'; i++)
    {
      if (file[i] == '\0')
        return 0;
      if (is_separator (file[i]) && is_separator (prefix[i]))
        continue;
      if (file[i] != prefix[i])
        return 0;
    }

  return i;
}

static void
convert_separators (char *path)
{
  for (char *p = path; *p != '\0'; p++)
    if (*p == '\\')
      *p = '/';
}

/* @to followed by @rest, with one separator between them when either
 * prefix ends with one (a rule "C:\src\" → "/home/me/src" means the folder);
 * a leading "~/" is the home folder. */
static char *
join_prefix (const char *to,
             const char *rest,
             gboolean    from_is_folder)
{
  g_autofree char *expanded = NULL;
  gsize len;

  if (g_str_has_prefix (to, "~/") || strcmp (to, "~") == 0)
    to = expanded = g_strconcat (g_get_home_dir (), to + 1, NULL);

  len = strlen (to);
  if (len > 0 && is_separator (to[len - 1]) && is_separator (rest[0]))
    rest++;
  else if (len > 0 && !is_separator (to[len - 1]) && !is_separator (rest[0]) && rest[0] != '\0' && from_is_folder)
    return g_strconcat (to, "/", rest, NULL);

  return g_strconcat (to, rest, NULL);
}

/* A relative path is relative to the trace's folder (where a build's
 * trace usually sits next to the tree it names). */
static char *
resolve (const char *path,
         const char *trace_dir)
{
  if (g_path_is_absolute (path) || trace_dir == NULL)
    return g_canonicalize_filename (path, NULL);

  return g_canonicalize_filename (path, trace_dir);
}

static void
add_candidate (GPtrArray *candidates,
               char      *path)
{
  if (g_ptr_array_find_with_equal_func (candidates, path, g_str_equal, NULL))
    g_free (path);
  else
    g_ptr_array_add (candidates, path);
}

/**
 * sps_source_remap:
 * @file: a source file as the trace names it: a path or a URL
 * @rules: (element-type SpsSourceRule) (nullable): the rules, in order
 * @trace_dir: (nullable): the trace's folder, which relative paths are
 *   relative to
 * @matched_rule: (out) (optional): the index of the rule that matched, or
 *   %G_MAXUINT
 *
 * The local paths where @file may be, in the order to try them: what the
 * first matching rule makes of it, then @file itself when it can name a
 * file here (not a Windows path, not an http(s) URL). A rule with either
 * prefix empty is a row being edited and matches nothing.
 *
 * Returns: (transfer full) (element-type utf8): the candidates; empty for
 *   an http(s) URL or a Windows path that no rule maps
 */
GPtrArray *
sps_source_remap (const char *file,
                  GPtrArray  *rules,
                  const char *trace_dir,
                  guint      *matched_rule)
{
  g_autofree char *normal = NULL;
  GPtrArray *candidates;
  guint matched = G_MAXUINT;

  g_return_val_if_fail (file != NULL, NULL);

  candidates = g_ptr_array_new_with_free_func (g_free);
  normal = normalize (file);

  for (guint i = 0; rules != NULL && i < rules->len; i++)
    {
      SpsSourceRule *rule = g_ptr_array_index (rules, i);
      g_autofree char *rest = NULL;
      g_autofree char *mapped = NULL;
      gsize n;

      if (rule->from[0] == '\0' || rule->to[0] == '\0' || (n = match_prefix (normal, rule->from)) == 0)
        continue;

      /* A URL's path is %-escaped; the file's name is not */
      rest = is_url (normal) ? g_uri_unescape_string (normal + n, NULL) : NULL;
      if (rest == NULL)
        rest = g_strdup (normal + n);
      convert_separators (rest);

      mapped = join_prefix (rule->to, rest, is_separator (rule->from[n - 1]));
      add_candidate (candidates, resolve (mapped, trace_dir));
      matched = i;
      break;
    }

  if (!is_url (normal) && !is_windows_absolute (normal))
    {
      convert_separators (normal);
      add_candidate (candidates, resolve (normal, trace_dir));
    }

  if (matched_rule != NULL)
    *matched_rule = matched;

  return candidates;
}

/**
 * sps_source_remap_unmatched_prefix:
 * @file: a source file as the trace names it
 *
 * What a new rule for @file most likely maps: its folder as the trace
 * names it, with the trailing separator ("C:\src\app\", "http://host/js/").
 *
 * Returns: (transfer full): the prefix; empty when @file has no folder
 */
char *
sps_source_remap_unmatched_prefix (const char *file)
{
  g_autofree char *normal = NULL;
  const char *start;
  const char *last = NULL;

  g_return_val_if_fail (file != NULL, NULL);

  normal = normalize (file);
  /* A URL's host is not a folder */
  start = is_url (normal) ? strstr (normal, "://") + 3 : normal;
  for (const char *p = start; *p != '\0'; p++)
    if (is_separator (*p))
      last = p;

  if (last == NULL)
    return g_strdup ("");

  return g_strndup (normal, last + 1 - normal);
}

/**
 * sps_source_rules_load:
 * @settings: the plugin's settings
 * @folder: a trace's folder
 *
 * Returns: (transfer full) (element-type SpsSourceRule): the rules kept
 *   for traces in @folder, in order (none when there are none)
 */
GPtrArray *
sps_source_rules_load (GSettings  *settings,
                       const char *folder)
{
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) list = NULL;
  GPtrArray *rules = sps_source_rules_new ();
  GVariantIter iter;
  const char *from;
  const char *to;

  g_return_val_if_fail (G_IS_SETTINGS (settings), rules);
  g_return_val_if_fail (folder != NULL, rules);

  all = g_settings_get_value (settings, RULES_KEY);
  if (!(list = g_variant_lookup_value (all, folder, G_VARIANT_TYPE ("a(ss)"))))
    return rules;

  g_variant_iter_init (&iter, list);
  while (g_variant_iter_next (&iter, "(&s&s)", &from, &to))
    g_ptr_array_add (rules, sps_source_rule_new (from, to));

  return rules;
}

/**
 * sps_source_rules_save:
 * @settings: the plugin's settings
 * @folder: a trace's folder
 * @rules: (element-type SpsSourceRule): its rules, in order; empty forgets
 *   the folder
 *
 * Keeps @rules for @folder, leaving the other folders' rules as they are.
 */
void
sps_source_rules_save (GSettings  *settings,
                       const char *folder,
                       GPtrArray  *rules)
{
  g_autoptr(GVariant) all = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key;
  GVariant *value;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (folder != NULL);
  g_return_if_fail (rules != NULL);

  all = g_settings_get_value (settings, RULES_KEY);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sa(ss)}"));

  g_variant_iter_init (&iter, all);
  while (g_variant_iter_next (&iter, "{&s@a(ss)}", &key, &value))
    {
      if (strcmp (key, folder) != 0)
        g_variant_builder_add (&builder, "{s@a(ss)}", key, value);
      g_variant_unref (value);
    }

  if (rules->len > 0)
    {
      g_variant_builder_open (&builder, G_VARIANT_TYPE ("{sa(ss)}"));
      g_variant_builder_add (&builder, "s", folder);
      g_variant_builder_open (&builder, G_VARIANT_TYPE ("a(ss)"));
      for (guint i = 0; i < rules->len; i++)
        {
          SpsSourceRule *rule = g_ptr_array_index (rules, i);

          g_variant_builder_add (&builder, "(ss)", rule->from, rule->to);
        }
      g_variant_builder_close (&builder);
      g_variant_builder_close (&builder);
    }

  g_settings_set_value (settings, RULES_KEY, g_variant_builder_end (&builder));
}
