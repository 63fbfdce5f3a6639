/* sps-ms-profiler.c: the payloads of Visual Studio's .NET Object
 * Allocation provider (DhCorProfilerProvider), read once for the
 * allocations and for the events' args
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The provider's EventPipe metadata describes its events, but not as it
 * writes them: ObjectAllocation's Types and DeadObjects' ObjectIds are
 * "arrays" whose count is the field before (TypesSize bytes, Count ids),
 * not the u16 count an EventPipe array has; TypeDefinition's IsValueType
 * takes one byte, not a 4-byte Boolean. A generic reader of the metadata
 * (TraceEvent's, or ours) therefore misreads them: these readers are the
 * one reading that the allocations and the events' args share.
 *
 * ObjectAllocation's type descriptor is a list of types, the allocated
 * one first: each is a module id (u64), a type token (u32), an array flag
 * (u32), the number of array levels beyond the first (u32), a rank per
 * level (u32 each), an element code (u32, arrays only), then the indices
 * in the list of its generic arguments, one byte each, ending with a 0.
 * (Read off allocTrace's 717 descriptors: a Dictionary`2 of two types is
 * 77 bytes, 24 + "01 02 00" + two types of 25.)
 */

#define G_LOG_DOMAIN "sps-mstrace"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>

#include "sps-clr-symbols.h"
#include "sps-ms-profiler.h"
#include "sps-ms-type-name.h"
#include "sps-mstrace-bytes.h"

/* Array levels and generic nesting a descriptor may claim; more is not
 * a real type */
#define MAX_ARRAY_LEVELS 32
#define MAX_NESTING      32

/**
 * sps_ms_read_object_allocation:
 * @payload: an ObjectAllocation v3 payload
 * @len: its size
 * @out: (out): its fields
 * @problem: (out): what is wrong, when it does not fit
 *
 * ObjectID u64, Size u32, TypesSize u32, then TypesSize bytes of type
 * descriptor (at least the module and token).
 *
 * Returns: whether the fields fit the payload
 */
gboolean
sps_ms_read_object_allocation (const guint8          *payload,
                               gsize                  len,
                               SpsMsObjectAllocation *out,
                               const char           **problem)
{
  if (len < 16)
    {
      *problem = _("an ObjectAllocation event is shorter than its fixed fields");
      return FALSE;
    }
  out->object_id = sps_ms_read_u64 (payload);
  out->size = sps_ms_read_u32 (payload + 8);
  out->types_size = sps_ms_read_u32 (payload + 12);
  out->types = payload + 16;
  if (out->types_size > len - 16 || out->types_size < 12)
    {
      *problem = _("an ObjectAllocation event's type record does not fit its payload");
      return FALSE;
    }
  return TRUE;
}

/**
 * sps_ms_read_dead_objects:
 * @payload: a DeadObjects v1 payload
 * @len: its size
 * @out: (out): its fields
 * @problem: (out): what is wrong, when it does not fit
 *
 * Reserve i32, Count u32, then Count object ids (u64).
 *
 * Returns: whether the fields fit the payload
 */
gboolean
sps_ms_read_dead_objects (const guint8      *payload,
                          gsize              len,
                          SpsMsDeadObjects  *out,
                          const char       **problem)
{
  if (len < 8)
    {
      *problem = _("a DeadObjects event is shorter than its fixed fields");
      return FALSE;
    }
  out->reserve = (gint32) sps_ms_read_u32 (payload);
  out->count = sps_ms_read_u32 (payload + 4);
  out->ids = payload + 8;
  if (out->count > (len - 8) / 8)
    {
      *problem = _("a DeadObjects event lists more object ids than its payload holds");
      return FALSE;
    }
  return TRUE;
}

/**
 * sps_ms_read_type_definition:
 * @payload: a TypeDefinition v1 payload
 * @len: its size
 * @out: (out): its fields; free @out->name
 * @problem: (out): what is wrong, when it does not fit
 *
 * ModuleId u64, TypeId u32, TypeName (UTF-16, NUL-terminated), then
 * ParentTypeId u32, NumGenericParams u32 and IsValueType (one byte);
 * without those three, the name alone is read.
 *
 * Returns: whether the name fits the payload
 */
gboolean
sps_ms_read_type_definition (const guint8         *payload,
                             gsize                 len,
                             SpsMsTypeDefinition  *out,
                             const char          **problem)
{
  const guint8 *pos = payload + 12;
  const guint8 *end = payload + len;

  memset (out, 0, sizeof *out);
  if (len < 14 || !(out->name = sps_clr_read_utf16z (&pos, end)))
    {
      *problem = _("a TypeDefinition event's name does not fit its payload");
      return FALSE;
    }
  out->module = sps_ms_read_u64 (payload);
  out->token = sps_ms_read_u32 (payload + 8);
  if (end - pos >= 9)
    {
      out->parent_token = sps_ms_read_u32 (pos);
      out->n_generic_params = sps_ms_read_u32 (pos + 4);
      out->is_value_type = pos[8] != 0;
      out->has_tail = TRUE;
    }
  return TRUE;
}

static void
append_hex (GString      *out,
            const guint8 *p,
            gsize         n)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "%02x", p[i]);
  g_string_append_c (out, '"');
}

/**
 * sps_ms_profiler_append_args:
 * @out: where the JSON object is appended
 * @event: the event, as sps_ms_memory_classify() says
 * @version: its version
 * @payload: its payload
 * @len: the payload's size
 *
 * Appends the args of an ObjectAllocation (v3), DeadObjects or
 * TypeDefinition event as these readers read them: the metadata's field
 * names, the object ids as an array, the type descriptor as hex.
 *
 * Returns: %FALSE (appending nothing) when the event is none of these or
 *   does not fit its payload
 */
gboolean
sps_ms_profiler_append_args (GString          *out,
                             SpsMsMemoryEvent  event,
                             guint             version,
                             const guint8     *payload,
                             gsize             len)
{
  const char *problem = NULL;

  g_return_val_if_fail (out != NULL, FALSE);

  switch (event)
    {
    case SPS_MS_MEMORY_OBJECT_ALLOCATION:
      {
        SpsMsObjectAllocation a;

        if (version != 3 || !sps_ms_read_object_allocation (payload, len, &a, &problem))
          return FALSE;
        g_string_append (out, "{\"ObjectID\":");
        sps_json_append_uint64 (out, a.object_id);
        g_string_append (out, ",\"Size\":");
        sps_json_append_uint64 (out, a.size);
        g_string_append (out, ",\"TypesSize\":");
        sps_json_append_uint64 (out, a.types_size);
        g_string_append (out, ",\"Types\":");
        append_hex (out, a.types, a.types_size);
        g_string_append_c (out, '}');
        return TRUE;
      }

    case SPS_MS_MEMORY_DEAD_OBJECTS:
      {
        SpsMsDeadObjects d;

        if (!sps_ms_read_dead_objects (payload, len, &d, &problem))
          return FALSE;
        g_string_append (out, "{\"Reserve\":");
        sps_json_append_int64 (out, d.reserve);
        g_string_append (out, ",\"Count\":");
        sps_json_append_uint64 (out, d.count);
        g_string_append (out, ",\"ObjectIds\":[");
        for (guint32 i = 0; i < d.count; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            sps_json_append_uint64 (out, sps_ms_dead_object_id (&d, i));
          }
        g_string_append (out, "]}");
        return TRUE;
      }

    case SPS_MS_MEMORY_TYPE_DEFINITION:
      {
        SpsMsTypeDefinition t;

        if (!sps_ms_read_type_definition (payload, len, &t, &problem))
          return FALSE;
        g_string_append (out, "{\"ModuleId\":");
        sps_json_append_uint64 (out, t.module);
        g_string_append (out, ",\"TypeId\":");
        sps_json_append_uint64 (out, t.token);
        g_string_append (out, ",\"TypeName\":");
        sps_json_append_string (out, t.name, -1);
        if (t.has_tail)
          {
            g_string_append (out, ",\"ParentTypeId\":");
            sps_json_append_uint64 (out, t.parent_token);
            g_string_append (out, ",\"NumGenericParams\":");
            sps_json_append_uint64 (out, t.n_generic_params);
            g_string_append (out, t.is_value_type ? ",\"IsValueType\":true" : ",\"IsValueType\":false");
          }
        g_string_append_c (out, '}');
        g_free (t.name);
        return TRUE;
      }

    case SPS_MS_MEMORY_NONE:
    case SPS_MS_MEMORY_LIVE_OBJECTS_COUNT:
    case SPS_MS_MEMORY_ALLOCATION_TICK:
    case SPS_MS_MEMORY_GC_START:
    case SPS_MS_MEMORY_GC_END:
    case SPS_MS_MEMORY_GC_MARK:
    case SPS_MS_MEMORY_GC_SUSPEND:
    case SPS_MS_MEMORY_GC_RESTART:
    case SPS_MS_MEMORY_GC_HEAP_STATS:
    default:
      return FALSE;
    }
}

/* Type descriptors */

typedef struct
{
  guint64       module;
  guint32       token;
  gboolean      is_array;
  guint32       n_levels;
  const guint8 *ranks;        /* n_levels u32 */
  const guint8 *children;     /* indices, one byte each, up to a 0 */
  guint         n_children;
} TypeNode;

/* The descriptor's types in order; FALSE when it is malformed */
static gboolean
parse_nodes (const guint8 *p,
             gsize         len,
             GArray       *nodes)
{
  const guint8 *end = p + len;

  while (p < end)
    {
      TypeNode node = { 0, };
      guint32 extra;

      if (end - p < 20 || nodes->len >= 255)
        return FALSE;
      node.module = sps_ms_read_u64 (p);
      node.token = sps_ms_read_u32 (p + 8);
      node.is_array = sps_ms_read_u32 (p + 12) != 0;
      extra = sps_ms_read_u32 (p + 16);
      if (extra >= MAX_ARRAY_LEVELS)
        return FALSE;
      node.n_levels = extra + 1;
      p += 20;
      if ((gsize) (end - p) < 4 * (gsize) node.n_levels + (node.is_array ? 4 : 0) + 1)
        return FALSE;
      node.ranks = p;
      p += 4 * (gsize) node.n_levels + (node.is_array ? 4 : 0);
      node.children = p;
      while (p < end && *p != 0)
        p++;
      if (p == end)
        return FALSE;
      node.n_children = (guint) (p - node.children);
      p++;
      g_array_append_val (nodes, node);
    }
  return nodes->len > 0;
}

/* Types nested deeper than this in their declaring types are not real */
#define MAX_DECLARING 16

typedef struct
{
  const char *name;
  guint32     n_generic;    /* its own and its declaring types' parameters */
} Level;

/* The type's name as C# writes it, with @args (the list indices of its
 * generic arguments, @n_args of them): its declaring types first (a
 * nested type's ParentTypeId), each with the arguments of the parameters
 * it adds: Dictionary`2's nested Entry (2 parameters) of String and
 * CultureData is "System.Collections.Generic.Dictionary<System.String,
 * System.Globalization.CultureData>.Entry". Arguments that do not match
 * the parameter counts all go to the innermost type. */
static gboolean
append_type (GString             *out,
             GArray              *nodes,
             const TypeNode      *node,
             guint                index,
             guint                depth,
             SpsMsTypeNameLookup  lookup,
             gpointer             user_data);

static gboolean
append_arguments (GString             *out,
                  GArray              *nodes,
                  const TypeNode      *node,
                  guint                index,
                  guint                from,
                  guint                to,
                  guint                depth,
                  SpsMsTypeNameLookup  lookup,
                  gpointer             user_data)
{
  g_string_append_c (out, '<');
  for (guint i = from; i < to; i++)
    {
      guint child = node->children[i];
      const TypeNode *arg;

      /* Arguments come after their type: no cycles */
      if (child <= index || child >= nodes->len)
        return FALSE;
      if (i > from)
        g_string_append (out, ", ");
      arg = &g_array_index (nodes, TypeNode, child);
      if (!append_type (out, nodes, arg, child, depth + 1, lookup, user_data))
        return FALSE;
    }
  g_string_append_c (out, '>');
  return TRUE;
}

static gboolean
append_type (GString             *out,
             GArray              *nodes,
             const TypeNode      *node,
             guint                index,
             guint                depth,
             SpsMsTypeNameLookup  lookup,
             gpointer             user_data)
{
  Level levels[MAX_DECLARING];
  guint n_levels = 0;
  guint32 token = node->token;
  guint used = 0;
  gboolean split;

  if (depth > MAX_NESTING)
    return FALSE;

  /* The type, then its declaring types, outward */
  while (n_levels < MAX_DECLARING)
    {
      guint32 parent = 0;

      if (!lookup (node->module, token, &levels[n_levels].name, &parent, &levels[n_levels].n_generic, user_data))
        break;
      n_levels++;
      if (parent == 0 || parent == token)
        break;
      token = parent;
    }
  if (n_levels == 0)
    {
      g_string_append_printf (out, "type 0x%08x of module 0x%" G_GINT64_MODIFIER "x", node->token, node->module);
      if (node->n_children > 0 && !append_arguments (out, nodes, node, index, 0, node->n_children, depth,
                                                     lookup, user_data))
        return FALSE;
    }
  else
    {
      /* Each level's own parameters: its count less its declaring type's */
      split = levels[0].n_generic == node->n_children;
      for (guint l = n_levels; l > 1; l--)
        split = split && levels[l - 1].n_generic <= levels[l - 2].n_generic;

      for (guint l = n_levels; l > 0; l--)
        {
          g_autofree char *display = sps_ms_type_display_name (levels[l - 1].name);
          guint end = split ? levels[l - 1].n_generic : (l == 1 ? node->n_children : 0);

          if (l < n_levels)
            g_string_append_c (out, '.');
          g_string_append (out, display);
          if (end > used)
            {
              if (!append_arguments (out, nodes, node, index, used, end, depth, lookup, user_data))
                return FALSE;
              used = end;
            }
        }
    }

  if (node->is_array)
    for (guint level = 0; level < node->n_levels; level++)
      {
        guint32 rank = sps_ms_read_u32 (node->ranks + 4 * level);

        g_string_append_c (out, '[');
        for (guint32 r = 1; r < MIN (rank, 32); r++)
          g_string_append_c (out, ',');
        g_string_append_c (out, ']');
      }
  return TRUE;
}

/**
 * sps_ms_type_descriptor_name:
 * @types: an ObjectAllocation's type descriptor
 * @len: its size
 * @lookup: (scope call): what a TypeDefinition said of (module, token)
 * @user_data: for @lookup
 *
 * Names the allocated type as C# writes it, generic arguments, declaring
 * types and array levels included: "System.Collections.Generic.Dictionary<
 * System.String, System.Object>", "…Dictionary<…>.Entry[]",
 * "System.String[][]". A type no definition named is "type 0x… of module
 * 0x…".
 *
 * Returns: (transfer full) (nullable): the name, or %NULL when the
 *   descriptor is malformed
 */
char *
sps_ms_type_descriptor_name (const guint8        *types,
                             gsize                len,
                             SpsMsTypeNameLookup  lookup,
                             gpointer             user_data)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (TypeNode));
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (lookup != NULL, NULL);

  if (!parse_nodes (types, len, nodes) ||
      !append_type (out, nodes, &g_array_index (nodes, TypeNode, 0), 0, 0, lookup, user_data))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}
