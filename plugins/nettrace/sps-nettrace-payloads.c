/* sps-nettrace-payloads.c: the .nettrace events that name things
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Metadata events say which provider and event id each metadata id
 * stands for; method, module and process events give the names that the
 * stacks and the process get. Payloads are read with every length checked
 * against the event's end: a short or cut payload is skipped, as the
 * runtime's own readers skip what they do not understand.
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include "sps-nettrace-loader-private.h"

/* Reads a UTF-16Z string at *@pos (unaligned) into UTF-8; advances past
 * the terminator. */
static char *
read_utf16z (const guint8 **pos,
             const guint8  *end)
{
  const guint8 *p = *pos;
  const guint8 *q = p;
  g_autofree gunichar2 *units = NULL;
  gsize n;

  while (q + 1 < end && (q[0] != 0 || q[1] != 0))
    q += 2;
  if (q + 1 >= end)
    return NULL;

  n = (gsize) (q - p) / 2;
  units = g_new (gunichar2, n + 1);
  for (gsize i = 0; i < n; i++)
    units[i] = read_u16 (p + 2 * i);
  units[n] = 0;
  *pos = q + 2;

  return g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
}

static void
set_kind (Loader   *self,
          guint32   metadata_id,
          EventKind kind)
{
  if (metadata_id >= self->kinds->len)
    g_array_set_size (self->kinds, metadata_id + 1);
  g_array_index (self->kinds, guint8, metadata_id) = kind;
}

static EventKind
classify (const char *provider,
          gint32      event_id)
{
  if (g_strcmp0 (provider, PROVIDER_SAMPLER) == 0 && event_id == 0)
    return EVENT_SAMPLE;

  if (g_strcmp0 (provider, PROVIDER_PIPE) == 0 && event_id == 1)
    return EVENT_PROCESS_INFO;

  if (g_strcmp0 (provider, PROVIDER_RUNTIME) == 0)
    {
      if (event_id == 143 || event_id == 144)
        return EVENT_METHOD;
      if (event_id == 152)
        return EVENT_MODULE;
      if (event_id == 151)
        return EVENT_DOMAIN_MODULE;
    }

  if (g_strcmp0 (provider, PROVIDER_RUNDOWN) == 0)
    {
      /* The same ids mean other events than in the runtime provider */
      if (event_id == 143 || event_id == 144)
        return EVENT_METHOD;
      if (event_id == 153 || event_id == 154)
        return EVENT_MODULE;
      if (event_id == 151 || event_id == 152)
        return EVENT_DOMAIN_MODULE;
      if (event_id == 187)
        return EVENT_RUNTIME_INFO;
    }

  return EVENT_OTHER;
}

void
sps_nettrace_parse_metadata (Loader       *self,
                const guint8 *p,
                const guint8 *end)
{
  g_autofree char *provider = NULL;
  guint32 metadata_id;
  gint32 event_id;

  if (end - p < 4)
    return;
  metadata_id = read_u32 (p);
  p += 4;
  if (!(provider = read_utf16z (&p, end)) || end - p < 4)
    return;
  event_id = (gint32) read_u32 (p);
  p += 4;

  self->metadata_events++;
  /* Ids are dense from 1, and each metadata event takes far more than a
   * byte of the file: a larger id would only size the kind map */
  if (metadata_id == 0 || metadata_id > MIN (1u << 24, self->len))
    return;
  set_kind (self, metadata_id, classify (provider, event_id));
}

void
sps_nettrace_parse_method (Loader       *self,
              const guint8 *p,
              const guint8 *end)
{
  g_autofree char *ns = NULL;
  g_autofree char *name = NULL;
  g_autofree char *signature = NULL;
  g_autoptr(GString) full = NULL;
  const char *params;
  Method method;

  if (end - p < 36)
    return;

  method.module_id = read_u64 (p + 8);
  method.start = read_u64 (p + 16);
  method.size = read_u32 (p + 24);
  p += 36;
  if (!(ns = read_utf16z (&p, end)) || !(name = read_utf16z (&p, end)) ||
      !(signature = read_utf16z (&p, end)))
    return;

  full = g_string_new (ns);
  if (full->len > 0)
    g_string_append_c (full, '.');
  g_string_append (full, name);
  /* The signature as TraceEvent shows it: from its parameter list on */
  if ((params = strchr (signature, '(')) != NULL)
    g_string_append (full, params);

  method.name = sps_trace_builder_intern (self->builder, full->str, (gssize) full->len);
  g_array_append_val (self->methods, method);
}

void
sps_nettrace_parse_module (Loader       *self,
              const guint8 *p,
              const guint8 *end,
              gboolean      domain)
{
  g_autofree char *il_path = NULL;
  g_autofree char *native_path = NULL;
  g_autofree char *base = NULL;
  const char *path;
  guint64 module_id;
  char *dot;
  gsize skip = domain ? 32 : 24;

  if ((gsize) (end - p) < skip)
    return;
  module_id = read_u64 (p);
  p += skip;
  if (!(il_path = read_utf16z (&p, end)))
    return;
  native_path = read_utf16z (&p, end);

  path = il_path[0] != '\0' ? il_path : native_path;
  if (path == NULL || path[0] == '\0')
    return;

  /* Windows paths in traces from Windows use backslashes */
  base = g_strdup (MAX (strrchr (path, '/'), strrchr (path, '\\')) != NULL ?
                   MAX (strrchr (path, '/'), strrchr (path, '\\')) + 1 : path);
  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';

  g_hash_table_insert (self->modules, sps_nettrace_new_u64 (module_id),
                       GUINT_TO_POINTER (sps_trace_builder_intern (self->builder, base, -1)));
}

void
sps_nettrace_parse_command_line (Loader       *self,
                    const guint8 *p,
                    const guint8 *end,
                    gboolean      process_info)
{
  char *line;

  if (self->command_line_from_process_info && !process_info)
    return;
  if (!process_info)
    {
      /* ClrInstanceID, Sku, 4 + 4 version numbers, StartupFlags, StartupMode */
      if (end - p < 25)
        return;
      p += 25;
    }
  if (!(line = read_utf16z (&p, end)) || line[0] == '\0')
    {
      g_free (line);
      return;
    }
  g_free (self->command_line);
  self->command_line = line;
  self->command_line_from_process_info = process_info;
}

/* The process's name: its command line with every path reduced to its
 * last component ("dotnet RobotCleaner.dll"); the whole line goes to the
 * trace's metadata */
void
sps_nettrace_name_process (Loader *self)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);
  g_auto(GStrv) tokens = NULL;

  if (self->command_line == NULL || !g_utf8_validate (self->command_line, -1, NULL))
    return;

  sps_json_append_string (json, self->command_line, -1);
  sps_trace_builder_add_metadata (self->builder, "command-line",
                                  sps_trace_builder_add_args_text (self->builder, json->str, (gssize) json->len));

  tokens = g_strsplit (self->command_line, " ", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      char *token = g_strstrip (g_strdelimit (tokens[i], "\"", ' '));
      const char *slash = MAX (strrchr (token, '/'), strrchr (token, '\\'));

      if (token[0] == '\0')
        continue;
      if (name->len > 0)
        g_string_append_c (name, ' ');
      g_string_append (name, slash != NULL && slash[1] != '\0' ? slash + 1 : token);
    }
  if (name->len == 0 || name->len > 200)
    return;

  sps_trace_builder_set_process_name (self->builder, self->process,
                                      sps_trace_builder_intern (self->builder, name->str, (gssize) name->len));
}
