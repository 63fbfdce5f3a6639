/* sps-clr-symbols.c: the names of .NET methods from the runtime's events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * MethodLoadVerbose, MethodUnloadVerbose and the rundown's
 * MethodDCStart/EndVerbose (every version: later ones only add fields at
 * the end) give a method's code range and its namespace, name and
 * signature; ModuleLoad and DomainModuleLoad give the module it belongs
 * to. A frame is named "module!Namespace.Type.Method(params)", the
 * signature from its parameter list on, as TraceEvent shows it. Methods
 * are looked up by IP once every event was read (most come in the rundown
 * at the end of the trace).
 */

#define G_LOG_DOMAIN "sps-clr"

#include "config.h"

#include <string.h>

#include "sps-clr-symbols.h"
#include "sps-ms-events.h"
#include "sps-mstrace-bytes.h"

typedef struct
{
  guint64 start;
  guint64 module_id;
  guint32 size;
  guint32 name;           /* "Namespace.Method(params)" */
} Method;

struct _SpsClrSymbols
{
  SpsTraceBuilder *builder;
  GArray          *methods;    /* Method; sorted once sealed */
  GHashTable      *modules;    /* module id (guint64 *) → string id */
  GHashTable      *last_at;    /* start (guint64 *) → LastAt: the method
                                * added last at that address */
  guint32         *frames;     /* method index → frame, once sealed */
  GString         *name;       /* scratch: the name being built */
};

/* The method added last at an address, with the bytes of its three
 * strings as the event gave them: the same bytes again need no name
 * built (a rundown repeats what MethodLoad said) */
typedef struct
{
  guint  index;
  gsize  len;
  guint8 strings[];
} LastAt;

/**
 * sps_clr_read_utf16z:
 * @pos: (inout): where the string starts (unaligned); advanced past its
 *   terminator
 * @end: the end of the payload
 *
 * Returns: (transfer full) (nullable): the string as UTF-8, %NULL when it
 *   has no terminator before @end
 */
char *
sps_clr_read_utf16z (const guint8 **pos,
                     const guint8  *end)
{
  const guint8 *p = *pos;
  const guint8 *q = p;

  while (q + 1 < end && (q[0] != 0 || q[1] != 0))
    q += 2;
  if (q + 1 >= end)
    return NULL;

  *pos = q + 2;
  return sps_ms_dup_utf16 (p, (gsize) (q - p) / 2);
}

/* Appends the UTF-16LE string at *@pos (up to its terminator) to @out as
 * UTF-8 and advances *@pos past the terminator; FALSE when there is no
 * terminator before @end. Method names are ASCII but for rare
 * exceptions: those are copied unit by unit, without the conversion's
 * allocations (a rundown holds tens of thousands of names). */
static gboolean
append_utf16z (GString       *out,
               const guint8 **pos,
               const guint8  *end)
{
  const guint8 *p = *pos;
  const guint8 *q = p;
  gsize start = out->len;
  guint16 unit = 0;
  gsize n;
  char *dst;

  /* The ASCII units up to the terminator, measured first and then
   * written in one piece (a rundown builds the same names again and
   * again: one append per character was 7 % of an ETL import) */
  while (q + 1 < end && (unit = sps_ms_read_u16 (q)) != 0 && unit < 0x80)
    q += 2;
  if (q + 1 >= end)
    return FALSE;
  if (unit != 0)
    {
      g_autofree char *text = NULL;

      if ((text = sps_clr_read_utf16z (pos, end)) == NULL)
        return FALSE;
      g_string_append (out, text);
      return TRUE;
    }
  n = (gsize) (q - p) / 2;
  g_string_set_size (out, start + n);
  dst = out->str + start;
  for (gsize i = 0; i < n; i++)
    dst[i] = (char) p[2 * i];
  *pos = q + 2;
  return TRUE;
}

/**
 * sps_clr_event_kind:
 * @provider: which of the runtime's providers wrote the event
 * @id: the event's id
 *
 * Returns: what the event is, of those that name code
 */
SpsClrEvent
sps_clr_event_kind (SpsClrProvider provider,
                    guint          id)
{
  if (id == 143 || id == 144)
    return SPS_CLR_EVENT_METHOD;

  if (provider == SPS_CLR_PROVIDER_RUNTIME)
    {
      if (id == 152)
        return SPS_CLR_EVENT_MODULE;
      if (id == 151)
        return SPS_CLR_EVENT_DOMAIN_MODULE;
      return SPS_CLR_EVENT_OTHER;
    }

  if (id == 153 || id == 154)
    return SPS_CLR_EVENT_MODULE;
  if (id == 151 || id == 152)
    return SPS_CLR_EVENT_DOMAIN_MODULE;
  if (id == 187)
    return SPS_CLR_EVENT_RUNTIME_INFO;
  return SPS_CLR_EVENT_OTHER;
}

SpsClrSymbols *
sps_clr_symbols_new (SpsTraceBuilder *builder)
{
  SpsClrSymbols *self = g_new0 (SpsClrSymbols, 1);

  self->builder = g_object_ref (builder);
  self->methods = g_array_new (FALSE, FALSE, sizeof (Method));
  self->modules = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->last_at = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->name = g_string_new (NULL);
  return self;
}

void
sps_clr_symbols_free (SpsClrSymbols *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->builder);
  g_array_unref (self->methods);
  g_hash_table_unref (self->modules);
  g_clear_pointer (&self->last_at, g_hash_table_unref);
  g_free (self->frames);
  g_string_free (self->name, TRUE);
  g_free (self);
}

/**
 * sps_clr_symbols_add_method:
 * @self: the symbols of one process
 * @payload: (array length=len): a Method*Verbose event's payload
 * @len: its size
 *
 * Returns: %TRUE when the payload held a method
 */
gboolean
sps_clr_symbols_add_method (SpsClrSymbols *self,
                            const guint8  *payload,
                            gsize          len)
{
  const guint8 *p = payload;
  const guint8 *end = payload + len;
  GString *full = self->name;
  const char *params;
  gsize signature_at;
  const guint8 *strings;
  gsize raw_len;
  LastAt *last;
  Method method;

  g_return_val_if_fail (self->frames == NULL, FALSE);

  /* MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken,
   * MethodFlags, then the three strings */
  if (len < 36)
    return FALSE;
  method.module_id = sps_ms_read_u64 (p + 8);
  method.start = sps_ms_read_u64 (p + 16);
  method.size = sps_ms_read_u32 (p + 24);
  p += 36;

  /* The same bytes as the method listed last at this address: the same
   * method, listed again (MethodLoad, then the rundown's DCStart and
   * DCEnd; a trace grown by repeating its buffers, once per repetition).
   * Not kept again: a lookup finds the last method of a start and size,
   * which would be the same one. */
  strings = p;
  last = g_hash_table_lookup (self->last_at, &method.start);
  /* The kept bytes end with the third terminator: the same bytes here are
   * the same three strings, whatever follows */
  if (last != NULL && last->len <= (gsize) (end - p) && memcmp (last->strings, p, last->len) == 0)
    {
      const Method *m = &g_array_index (self->methods, Method, last->index);

      if (m->size == method.size && m->module_id == method.module_id)
        return TRUE;
    }

  /* "Namespace.Name", then the signature as TraceEvent shows it: from
   * its parameter list on */
  g_string_truncate (full, 0);
  if (!append_utf16z (full, &p, end))
    return FALSE;
  if (full->len > 0)
    g_string_append_c (full, '.');
  if (!append_utf16z (full, &p, end))
    return FALSE;
  signature_at = full->len;
  if (!append_utf16z (full, &p, end))
    return FALSE;
  if ((params = strchr (full->str + signature_at, '(')) != NULL)
    g_string_erase (full, (gssize) signature_at, params - (full->str + signature_at));
  else
    g_string_truncate (full, signature_at);
  method.name = sps_trace_builder_intern (self->builder, full->str, (gssize) full->len);

  /* Other bytes, the same name (a return type the name leaves out) */
  if (last != NULL)
    {
      const Method *m = &g_array_index (self->methods, Method, last->index);

      if (m->size == method.size && m->module_id == method.module_id && m->name == method.name)
        return TRUE;
    }

  g_array_append_val (self->methods, method);
  raw_len = (gsize) (p - strings);
  last = g_malloc (sizeof (LastAt) + raw_len);
  last->index = self->methods->len - 1;
  last->len = raw_len;
  memcpy (last->strings, strings, raw_len);
  g_hash_table_insert (self->last_at, g_memdup2 (&method.start, sizeof method.start), last);
  return TRUE;
}

/**
 * sps_clr_symbols_add_module:
 * @self: the symbols of one process
 * @payload: (array length=len): a ModuleLoad or ModuleDCStart/End payload,
 *   or with @domain a DomainModuleLoad one (an AppDomainID more)
 * @len: its size
 * @domain: whether it is a DomainModule event
 *
 * Returns: %TRUE when the payload held a module with a path
 */
gboolean
sps_clr_symbols_add_module (SpsClrSymbols *self,
                            const guint8  *payload,
                            gsize          len,
                            gboolean       domain)
{
  const guint8 *p = payload;
  const guint8 *end = payload + len;
  g_autofree char *il_path = NULL;
  g_autofree char *native_path = NULL;
  g_autofree char *base = NULL;
  const char *path;
  const char *slash;
  guint64 *module_id;
  char *dot;
  gsize skip = domain ? 32 : 24;

  if (len < skip)
    return FALSE;
  module_id = g_new (guint64, 1);
  *module_id = sps_ms_read_u64 (p);
  p += skip;
  if (!(il_path = sps_clr_read_utf16z (&p, end)))
    {
      g_free (module_id);
      return FALSE;
    }
  native_path = sps_clr_read_utf16z (&p, end);

  path = il_path[0] != '\0' ? il_path : native_path;
  if (path == NULL || path[0] == '\0')
    {
      g_free (module_id);
      return FALSE;
    }

  /* Windows paths in traces from Windows use backslashes */
  slash = MAX (strrchr (path, '/'), strrchr (path, '\\'));
  base = g_strdup (slash != NULL ? slash + 1 : path);
  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';

  g_hash_table_insert (self->modules, module_id,
                       GUINT_TO_POINTER (sps_trace_builder_intern (self->builder, base, -1)));
  return TRUE;
}

/**
 * sps_clr_symbols_add_event:
 * @self: the symbols of one process
 * @provider: which of the runtime's providers wrote the event
 * @id: the event's id
 * @payload: (array length=len): its payload
 * @len: its size
 *
 * Returns: %TRUE when the event named a method or a module
 */
gboolean
sps_clr_symbols_add_event (SpsClrSymbols  *self,
                           SpsClrProvider  provider,
                           guint           id,
                           const guint8   *payload,
                           gsize           len)
{
  switch (sps_clr_event_kind (provider, id))
    {
    case SPS_CLR_EVENT_METHOD:
      return sps_clr_symbols_add_method (self, payload, len);
    case SPS_CLR_EVENT_MODULE:
      return sps_clr_symbols_add_module (self, payload, len, FALSE);
    case SPS_CLR_EVENT_DOMAIN_MODULE:
      return sps_clr_symbols_add_module (self, payload, len, TRUE);
    case SPS_CLR_EVENT_OTHER:
    case SPS_CLR_EVENT_RUNTIME_INFO:
    default:
      return FALSE;
    }
}

guint
sps_clr_symbols_get_n_methods (SpsClrSymbols *self)
{
  return self->methods->len;
}

static int
compare_methods (gconstpointer a,
                 gconstpointer b)
{
  const Method *ma = a;
  const Method *mb = b;

  if (ma->start != mb->start)
    return ma->start < mb->start ? -1 : 1;
  return ma->size < mb->size ? -1 : (ma->size > mb->size);
}

/**
 * sps_clr_symbols_seal:
 * @self: the symbols of one process, every method added
 *
 * Sorts the methods by code range for sps_clr_symbols_frame().
 */
void
sps_clr_symbols_seal (SpsClrSymbols *self)
{
  if (self->frames != NULL)
    return;
  g_clear_pointer (&self->last_at, g_hash_table_unref);
  g_array_sort (self->methods, compare_methods);
  self->frames = g_new (guint32, MAX (self->methods->len, 1));
  for (guint i = 0; i < self->methods->len; i++)
    self->frames[i] = SPS_NO_INDEX;
}

/* The method whose code holds @ip, or -1 */
static gint
find_method (SpsClrSymbols *self,
             guint64        ip)
{
  const Method *m = (const Method *) (gpointer) self->methods->data;
  guint lo = 0;
  guint hi = self->methods->len;

  /* The last method that starts at or before ip */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (m[mid].start <= ip)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return -1;

  /* Equal starts are sorted by size: walk back to one that holds ip */
  for (guint i = lo; i > 0 && m[i - 1].start == m[lo - 1].start; i--)
    if (ip - m[i - 1].start < m[i - 1].size)
      return (gint) (i - 1);

  return -1;
}

/**
 * sps_clr_symbols_frame:
 * @self: sealed symbols
 * @ip: an instruction pointer of the process
 *
 * Returns: the builder's frame of the managed method whose code holds
 *   @ip, %SPS_NO_INDEX when none does
 */
guint32
sps_clr_symbols_frame (SpsClrSymbols *self,
                       guint64        ip)
{
  SpsStringPool *strings;
  g_autofree char *name = NULL;
  const Method *m;
  guint32 module = 0;
  gpointer value;
  gint index;

  g_return_val_if_fail (self->frames != NULL, SPS_NO_INDEX);

  index = find_method (self, ip);
  if (index < 0)
    return SPS_NO_INDEX;
  if (self->frames[index] != SPS_NO_INDEX)
    return self->frames[index];

  m = &g_array_index (self->methods, Method, index);
  if ((value = g_hash_table_lookup (self->modules, &m->module_id)) != NULL)
    module = GPOINTER_TO_UINT (value);

  strings = sps_trace_builder_get_strings (self->builder);
  name = g_strdup_printf ("%s!%s", module != 0 ? sps_string_pool_get (strings, module, NULL) : "?",
                          sps_string_pool_get (strings, m->name, NULL));
  self->frames[index] = sps_trace_builder_intern_frame (self->builder,
                                                        sps_trace_builder_intern (self->builder, name, -1),
                                                        0, module, m->start);
  return self->frames[index];
}
