/* sps-nettrace-payloads.c: the .nettrace events that say what other events are, and name the process
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Metadata events say which provider and event id each metadata id
 * stands for; the process events give the process its name and command
 * line. (Method and module events go to SpsClrSymbols.) Payloads are read
 * with every length checked against the event's end: a short or cut
 * payload is skipped, as the runtime's own readers skip what they do not
 * understand.
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include "sps-nettrace-loader-private.h"

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

  if (g_strcmp0 (provider, PROVIDER_RUNTIME) == 0 || g_strcmp0 (provider, PROVIDER_RUNDOWN) == 0)
    {
      switch (sps_clr_event_kind (g_strcmp0 (provider, PROVIDER_RUNTIME) == 0 ?
                                  SPS_CLR_PROVIDER_RUNTIME : SPS_CLR_PROVIDER_RUNDOWN, (guint) event_id))
        {
        case SPS_CLR_EVENT_METHOD: return EVENT_METHOD;
        case SPS_CLR_EVENT_MODULE: return EVENT_MODULE;
        case SPS_CLR_EVENT_DOMAIN_MODULE: return EVENT_DOMAIN_MODULE;
        case SPS_CLR_EVENT_RUNTIME_INFO: return EVENT_RUNTIME_INFO;
        case SPS_CLR_EVENT_OTHER:
        default: break;
        }
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
  metadata_id = sps_ms_read_u32 (p);
  p += 4;
  if (!(provider = sps_clr_read_utf16z (&p, end)) || end - p < 4)
    return;
  event_id = (gint32) sps_ms_read_u32 (p);
  p += 4;

  self->metadata_events++;
  /* Ids are dense from 1, and each metadata event takes far more than a
   * byte of the file: a larger id would only size the kind map */
  if (metadata_id == 0 || metadata_id > MIN (1u << 24, self->len))
    return;
  set_kind (self, metadata_id, classify (provider, event_id));
  if (metadata_id >= self->event_types->len)
    g_ptr_array_set_size (self->event_types, (gint) metadata_id + 1);
  sps_nettrace_event_type_free (g_ptr_array_index (self->event_types, metadata_id));
  g_ptr_array_index (self->event_types, metadata_id) =
    sps_nettrace_parse_event_type (self, provider, event_id, p, end);
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
  if (!(line = sps_clr_read_utf16z (&p, end)) || line[0] == '\0')
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
