/* sps-chrome-cpu-profile.c: V8 CPU profiles inside Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * DevTools recordings carry JavaScript samples as V8 CPU profiles, in two
 * forms: streamed ("Profile" gives the start time, then "ProfileChunk"
 * events with the same pid and id add nodes and samples) and whole (one
 * "CpuProfile" event). A node is a call tree node: a call frame and its
 * parent node; a sample names a node and comes with the time since the
 * previous sample. Each sample becomes one row of the sample table on the
 * thread of the profile, its stack the node's path from the root (the
 * "(root)" node itself is not a frame).
 *
 * Nodes may be defined in a later chunk than a sample that uses them, so
 * a sample whose node (or an ancestor) is not known yet is resolved when
 * the whole file was read.
 *
 * Nothing is sized from a count the file states: arrays are walked, so
 * memory grows with the bytes read.
 */

#define G_LOG_DOMAIN "sps-chrome-cpu-profile"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-stack-frames.h"

/* Node ids below this index a direct array, larger ones a hash table */
#define DENSE_ID_LIMIT (1u << 22)

typedef enum
{
  NODE_UNKNOWN,
  NODE_VISITING,
  NODE_RESOLVED,
  NODE_FAILED,
} NodeState;

typedef struct
{
  gint64  parent;
  guint32 frame;          /* SPS_NO_INDEX: the (root) node, not a frame */
  guint32 callsite;       /* once resolved; SPS_NO_INDEX: the empty stack */
  guint8  state;          /* NodeState */
  guint8  has_parent;
} Node;

typedef struct
{
  guint32 sample;         /* builder sample index */
  gint64  node;
  gsize   offset;         /* of the event, for warnings */
} PendingSample;

typedef struct
{
  guint32     thread;     /* SPS_NO_INDEX until the first event says */
  guint32     event_name;
  gboolean    has_start;
  SpsTime     time;       /* of the last sample, or the start */
  GArray     *nodes;      /* Node */
  guint32    *dense;      /* node id → index + 1, for ids < n_dense */
  guint       n_dense;
  GHashTable *sparse;     /* gint64 node id → index + 1 */
  GArray     *pending;    /* PendingSample */
} Profile;


/* The numbers of one array member of an event (samples, timeDeltas,
 * lines); times in ns */
typedef struct
{
  GArray  *values;        /* gint64 */
  gboolean present;       /* the member was there */
  gboolean array;         /* as an array */
  gboolean valid;         /* of numbers only */
  gboolean overflow;      /* a time that does not fit ends it */
  gsize    offset;        /* of the first bad element, for warnings */
} IntArray;

struct _SpsChromeCpuProfiles
{
  SpsChromeReadContext ctx;
  SpsStringPool     *strings;
  guint32            anonymous;   /* "(anonymous)" */
  GHashTable        *profiles;    /* "pid/id" → Profile */
  GArray            *chain;       /* scratch of profile_resolve() */
  GArray            *times;       /* scratch: one event's samples, for the builder */
  GArray            *callsites;
  GArray            *lines_out;
  GArray            *later;       /* PendingSample, sample indexes into the above */
  IntArray           samples;     /* scratch: the arrays of one event */
  IntArray           deltas;
  IntArray           lines;
};

typedef struct
{
  SpsChromeScanner scanner;
  gboolean         ok;
} ArrayIter;

/* FALSE (and nothing to clear) when @array is absent or not an array. */
static gboolean
array_iter_init (ArrayIter            *iter,
                 SpsChromeCpuProfiles *self,
                 const SpsChromeValue *array)
{
  iter->ok = FALSE;
  if (array->type != SPS_CHROME_VALUE_ARRAY)
    return FALSE;
  sps_chrome_scanner_init_range (&iter->scanner, self->ctx.base, array->ptr, array->ptr + array->len, 0);
  iter->ok = sps_chrome_scanner_enter (&iter->scanner, '[') == SPS_CHROME_SCAN_OK;
  return TRUE;
}

static gboolean
array_iter_next (ArrayIter      *iter,
                 SpsChromeValue *value)
{
  if (!iter->ok)
    return FALSE;
  if (sps_chrome_scanner_next_element (&iter->scanner) != SPS_CHROME_SCAN_OK ||
      sps_chrome_scanner_read_value (&iter->scanner, value) != SPS_CHROME_SCAN_OK)
    {
      iter->ok = FALSE;
      return FALSE;
    }
  return TRUE;
}

static void
array_iter_clear (ArrayIter *iter)
{
  sps_chrome_scanner_clear (&iter->scanner);
}

/* Profiles */

static Profile *
profile_new (void)
{
  Profile *p = g_new0 (Profile, 1);

  p->thread = SPS_NO_INDEX;
  p->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  p->sparse = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  p->pending = g_array_new (FALSE, FALSE, sizeof (PendingSample));
  return p;
}

static void
profile_free (Profile *p)
{
  g_array_unref (p->nodes);
  g_free (p->dense);
  g_hash_table_unref (p->sparse);
  g_array_unref (p->pending);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Profile, profile_free)

/* The index of node @id, or SPS_NO_INDEX */
static inline guint32
profile_lookup (Profile *p,
                gint64   id)
{
  if (id >= 0 && (guint64) id < p->n_dense)
    return p->dense[id] - 1;
  return GPOINTER_TO_UINT (g_hash_table_lookup (p->sparse, &id)) - 1;
}

/* Adds node @id; FALSE when it was defined already (the first one stays). */
static gboolean
profile_define (Profile    *p,
                gint64      id,
                const Node *node)
{
  guint32 index = p->nodes->len;

  if (profile_lookup (p, id) != SPS_NO_INDEX)
    return FALSE;

  if (id >= 0 && id < DENSE_ID_LIMIT)
    {
      /* Grown with the nodes read, never to an id the file just states */
      if ((guint64) id >= p->n_dense && (guint64) id < 4 * (guint64) p->nodes->len + 4096)
        {
          guint n = MAX ((guint) id + 1, 2 * p->n_dense);

          n = MIN (n, DENSE_ID_LIMIT);
          p->dense = g_renew (guint32, p->dense, n);
          memset (p->dense + p->n_dense, 0, (n - p->n_dense) * sizeof (guint32));
          p->n_dense = n;
        }
    }
  if (id >= 0 && (guint64) id < p->n_dense)
    p->dense[id] = index + 1;
  else
    {
      gint64 *key = g_new (gint64, 1);

      *key = id;
      g_hash_table_insert (p->sparse, key, GUINT_TO_POINTER (index + 1));
    }
  g_array_append_val (p->nodes, *node);
  return TRUE;
}

typedef enum
{
  RESOLVE_OK,
  RESOLVE_LATER,    /* a node on the way up is not defined yet */
  RESOLVE_FAILED,   /* a missing node (at the end) or a cycle */
} ResolveResult;

/* The callsite of node @id: its frames from the root down. Walks up
 * iteratively (chains can be as long as the file allows), then interns
 * the callsites from the top of the chain down. */
static ResolveResult
profile_resolve (SpsChromeCpuProfiles *self,
                 Profile              *p,
                 gint64                id,
                 gboolean              final,
                 GArray               *chain,
                 guint32              *callsite)
{
  ResolveResult result = RESOLVE_OK;
  guint32 base = SPS_NO_INDEX;
  guint32 index = profile_lookup (p, id);

  g_array_set_size (chain, 0);
  while (TRUE)
    {
      Node *node;

      if (index == SPS_NO_INDEX)
        {
          result = final ? RESOLVE_FAILED : RESOLVE_LATER;
          break;
        }
      node = &g_array_index (p->nodes, Node, index);
      if (node->state == NODE_RESOLVED)
        {
          base = node->callsite;
          break;
        }
      if (node->state == NODE_FAILED || node->state == NODE_VISITING)
        {
          result = RESOLVE_FAILED;
          break;
        }
      node->state = NODE_VISITING;
      g_array_append_val (chain, index);
      if (!node->has_parent)
        break;
      index = profile_lookup (p, node->parent);
    }

  for (guint i = chain->len; i > 0; i--)
    {
      Node *node = &g_array_index (p->nodes, Node, g_array_index (chain, guint32, i - 1));

      if (result == RESOLVE_LATER)
        node->state = NODE_UNKNOWN;
      else if (result == RESOLVE_FAILED)
        node->state = NODE_FAILED;
      else
        {
          if (node->frame != SPS_NO_INDEX)
            base = sps_trace_builder_intern_callsite (self->ctx.builder, base, node->frame);
          node->callsite = base;
          node->state = NODE_RESOLVED;
        }
    }

  *callsite = base;
  return result;
}

/* A node object: {id, parent, callFrame: {functionName, url, lineNumber,
 * columnNumber, …}, children}; the oldest profiles put the call frame's
 * members on the node itself. */
static void
profile_read_node (SpsChromeCpuProfiles *self,
                   Profile              *p,
                   const SpsChromeValue *object,
                   GArray               *children)
{
  static const char * const node_members[] = {
    "id", "parent", "callFrame", "children", "functionName", "url", "lineNumber", "columnNumber",
  };
  static const char * const frame_members[] = {
    "functionName", "url", "lineNumber", "columnNumber",
  };
  enum { ID, PARENT, CALL_FRAME, CHILDREN, N_NODE_MEMBERS = 8 };
  enum { FUNCTION_NAME, URL, LINE, COLUMN };
  SpsChromeValue m[N_NODE_MEMBERS];
  SpsChromeValue f[G_N_ELEMENTS (frame_members)];
  Node node = { 0, SPS_NO_INDEX, SPS_NO_INDEX, NODE_UNKNOWN, FALSE };
  guint32 name;
  guint32 url = 0;
  gint64 id;

  if (object->type != SPS_CHROME_VALUE_OBJECT)
    {
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_node", sps_chrome_read_context_offset (&self->ctx, object),
            N_("a node of a CPU profile is not an object; skipped"));
      return;
    }
  sps_chrome_get_members (self->ctx.base, object, node_members, m, N_NODE_MEMBERS);
  if (!sps_chrome_value_to_int64 (&m[ID], &id))
    {
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_node", sps_chrome_read_context_offset (&self->ctx, object),
            N_("a node of a CPU profile has no integer id; skipped"));
      return;
    }
  if (m[PARENT].type != SPS_CHROME_VALUE_NONE && m[PARENT].type != SPS_CHROME_VALUE_NULL)
    {
      node.has_parent = sps_chrome_value_to_int64 (&m[PARENT], &node.parent);
      if (!node.has_parent)
        sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_node", sps_chrome_read_context_offset (&self->ctx, object),
              N_("the parent of a CPU profile node is not an integer; the node is a root"));
    }

  if (m[CALL_FRAME].type == SPS_CHROME_VALUE_OBJECT)
    sps_chrome_get_members (self->ctx.base, &m[CALL_FRAME], frame_members, f, G_N_ELEMENTS (f));
  else
    memcpy (f, m + 4, sizeof f);

  if (f[FUNCTION_NAME].type == SPS_CHROME_VALUE_STRING && f[FUNCTION_NAME].len > 0)
    name = sps_chrome_read_context_intern (&self->ctx, &f[FUNCTION_NAME]);
  else
    name = self->anonymous;
  if (f[URL].type == SPS_CHROME_VALUE_STRING && f[URL].len > 0)
    url = sps_chrome_read_context_intern (&self->ctx, &f[URL]);

  /* The call tree's root is where stacks start, not a frame of them */
  if (!node.has_parent && sps_chrome_value_equals (&f[FUNCTION_NAME], "(root)"))
    node.frame = SPS_NO_INDEX;
  else
    node.frame = sps_trace_builder_intern_source_frame (self->ctx.builder, name, 0, 0, 0, url,
                                                        sps_chrome_value_to_one_based (&f[LINE]),
                                                        sps_chrome_value_to_one_based (&f[COLUMN]));

  if (!profile_define (p, id, &node))
    {
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_duplicate_node", sps_chrome_read_context_offset (&self->ctx, object),
            N_("a CPU profile defines a node id twice; the first definition is kept"));
      return;
    }

  if (children != NULL && m[CHILDREN].type == SPS_CHROME_VALUE_ARRAY)
    {
      ArrayIter iter;
      SpsChromeValue v;
      gint64 pair[2] = { id, 0 };

      array_iter_init (&iter, self, &m[CHILDREN]);
      while (array_iter_next (&iter, &v))
        if (sps_chrome_value_to_int64 (&v, &pair[1]))
          g_array_append_vals (children, pair, 2);
      array_iter_clear (&iter);
    }
}

static void
profile_read_nodes (SpsChromeCpuProfiles *self,
                    Profile              *p,
                    const SpsChromeValue *nodes,
                    gboolean              legacy)
{
  g_autoptr(GArray) children = legacy ? g_array_new (FALSE, FALSE, sizeof (gint64)) : NULL;
  ArrayIter iter;
  SpsChromeValue v;

  if (!array_iter_init (&iter, self, nodes))
    return;
  while (array_iter_next (&iter, &v))
    profile_read_node (self, p, &v, children);
  array_iter_clear (&iter);

  /* The whole form links nodes by their children lists */
  for (guint i = 0; children != NULL && i + 1 < children->len; i += 2)
    {
      gint64 parent = g_array_index (children, gint64, i);
      guint32 child = profile_lookup (p, g_array_index (children, gint64, i + 1));
      Node *node;

      if (child == SPS_NO_INDEX)
        continue;
      node = &g_array_index (p->nodes, Node, child);
      if (node->has_parent && node->parent != parent)
        {
          sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_node", sps_chrome_read_context_offset (&self->ctx, nodes),
                N_("a CPU profile node is the child of two nodes; the first parent is kept"));
          continue;
        }
      node->has_parent = TRUE;
      node->parent = parent;
    }
}

/* The callsite of a sample of node @node, or SPS_NO_INDEX with *@later
 * set when it can only be resolved at the end. */
static inline guint32
profile_sample_callsite (SpsChromeCpuProfiles *self,
                         Profile              *p,
                         gint64                node,
                         gboolean              final,
                         gboolean             *later)
{
  guint32 callsite = SPS_NO_INDEX;
  guint32 index = profile_lookup (p, node);

  /* The common case: the node was resolved by an earlier sample */
  if G_LIKELY (index != SPS_NO_INDEX &&
               g_array_index (p->nodes, Node, index).state == NODE_RESOLVED)
    {
      *later = FALSE;
      return g_array_index (p->nodes, Node, index).callsite;
    }
  *later = profile_resolve (self, p, node, final, self->chain, &callsite) != RESOLVE_OK;
  return *later ? SPS_NO_INDEX : callsite;
}

/* Reads plain integers (what V8 writes) from the '[' at @p directly;
 * FALSE for anything else, which the scanner then reads. The event
 * scanner validated the JSON already. */

static gboolean
parse_plain_ints (const char  *p,
                  const char  *end,
                  guint        exp,
                  GArray      *out,
                  const char **after)
{
  /* 10^exp × (at most max_digits digits) fits 63 bits */
  const gint64 scale = (gint64) sps_chrome_pow10[exp];
  const long max_digits = MIN (15, 18 - (long) exp);
  /* Written in place: the array keeps its allocation from chunk to chunk */
  guint n = out->len;
  guint capacity = n;
  gboolean done = FALSE;

  g_assert (*p == '[');

  /* The array was validated, so its ']' comes before @end: the loops
   * below stop at it at the latest */
  for (p++; p < end; )
    {
      guint64 v = 0;
      gboolean negative;
      const char *digits;
      gint64 value;

      while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
      if (*p == ']')
        {
          *after = p + 1;
          done = TRUE;
          break;
        }
      negative = *p == '-';
      p += negative;
      digits = p;
      if G_LIKELY (end - p >= 8)
        {
          /* Up to 8 digits at once: which bytes are digits, then their
           * value, without a multiply chain per digit */
          guint64 d;
          guint64 non_digit = sps_chrome_non_digits (p, &d);

          if (non_digit != 0)
            {
              guint k = (guint) __builtin_ctzll (non_digit) / 8;

              if (k > 0)
                {
                  guint64 x = d << (8 * (8 - k));

                  x = (x * 10 + (x >> 8)) & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF);
                  x = (x * 100 + (x >> 16)) & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF);
                  x = (x * 10000 + (x >> 32)) & G_GUINT64_CONSTANT (0x00000000FFFFFFFF);
                  v = x;
                  p += k;
                }
            }
        }
      while ((guint) (*p - '0') < 10)
        v = v * 10 + (guint64) (*p++ - '0');
      /* Floats, exponents, long numbers, anything else: the slow path */
      if (p == digits || p - digits > max_digits ||
          !(*p == ',' || *p == ']' || *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        break;
      value = (gint64) v * scale;
      if G_UNLIKELY (n == capacity)
        {
          g_array_set_size (out, MAX (256, 2 * capacity));
          capacity = out->len;
        }
      ((gint64 *) (gpointer) out->data)[n++] = negative ? -value : value;
    }
  g_array_set_size (out, n);
  return done;
}

/* The integers of the array at the cursor, into @array; with @is_time,
 * numbers are times (µs, or the importer's time unit) converted to
 * ns. An element that is not such a number ends the array there. */
static void
read_int_array (SpsChromeCpuProfiles *self,
                SpsChromeScanner     *scanner,
                gboolean              is_time,
                IntArray             *array)
{
  SpsChromeValue value;
  ArrayIter iter;
  SpsChromeValue v;
  const char *after;
  const char *p = scanner->p;

  while (p < scanner->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  array->present = TRUE;
  array->array = FALSE;
  array->valid = FALSE;
  array->overflow = FALSE;
  g_array_set_size (array->values, 0);
  if (p < scanner->end && *p == '[' &&
      parse_plain_ints (p, scanner->end, is_time ? self->ctx.time_exp : 0, array->values, &after))
    {
      /* As if read_value() had consumed the array */
      scanner->p = after;
      array->array = array->valid = TRUE;
      return;
    }

  g_array_set_size (array->values, 0);
  if (sps_chrome_scanner_read_value (scanner, &value) != SPS_CHROME_SCAN_OK)
    return;
  array->offset = sps_chrome_read_context_offset (&self->ctx, &value);
  if (!array_iter_init (&iter, self, &value))
    return;
  array->array = array->valid = TRUE;
  while (array_iter_next (&iter, &v))
    {
      SpsChromeNumberResult parsed = SPS_CHROME_NUMBER_INVALID;
      gint64 n;
      SpsTime t;

      if (is_time && v.type == SPS_CHROME_VALUE_NUMBER)
        parsed = sps_chrome_parse_time (v.ptr, v.len, self->ctx.time_exp, &t);
      if (is_time ? parsed != SPS_CHROME_NUMBER_OK : !sps_chrome_value_to_int64 (&v, &n))
        {
          array->valid = FALSE;
          array->overflow = parsed == SPS_CHROME_NUMBER_OVERFLOW;
          array->offset = sps_chrome_read_context_offset (&self->ctx, &v);
          break;
        }
      n = is_time ? t : n;
      g_array_append_val (array->values, n);
    }
  array_iter_clear (&iter);
}

/* Samples with their time deltas (and lines) of a chunk or a whole
 * profile, at the profile's running time. */
static void
profile_add_samples (SpsChromeCpuProfiles *self,
                     Profile              *p,
                     const IntArray       *samples,
                     const IntArray       *deltas,
                     const IntArray       *lines,
                     gboolean              final,
                     gsize                 offset)
{
  guint32 first;
  guint n;
  guint i;

  if (!samples->present && !deltas->present)
    return;
  if (!samples->array || !deltas->array)
    {
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_samples", offset,
            N_("a CPU profile's samples or timeDeltas are missing or not arrays; its samples are skipped"));
      return;
    }
  if (!samples->valid)
    sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_sample", samples->offset,
          N_("a sample of a CPU profile is not a node id; the rest of its samples are skipped"));
  if (!deltas->valid && deltas->overflow)
    sps_chrome_read_context_warn (&self->ctx, "cpu_profile_time_overflow", deltas->offset,
          N_("the time deltas of a CPU profile run past the end of the time range; "
             "the rest of its samples are skipped"));
  else if (!deltas->valid)
    sps_chrome_read_context_warn (&self->ctx, "cpu_profile_invalid_sample", deltas->offset,
          N_("a time delta of a CPU profile is not a number; the rest of its samples are skipped"));

  n = MIN (samples->values->len, deltas->values->len);
  g_array_set_size (self->times, n);
  g_array_set_size (self->callsites, n);
  g_array_set_size (self->lines_out, n);
  g_array_set_size (self->later, 0);
  for (i = 0; i < n; i++)
    {
      SpsTime delta = g_array_index (deltas->values, gint64, i);
      gint64 line = lines->valid && i < lines->values->len ? g_array_index (lines->values, gint64, i) : 0;
      gint64 node = g_array_index (samples->values, gint64, i);
      gboolean later;

      if ((delta > 0 && p->time > G_MAXINT64 - delta) ||
          (delta < 0 && p->time < G_MININT64 - delta))
        {
          sps_chrome_read_context_warn (&self->ctx, "cpu_profile_time_overflow", offset,
                N_("the time deltas of a CPU profile run past the end of the time range; "
                   "the rest of its samples are skipped"));
          break;
        }
      /* Negative deltas are real (the profiler reorders samples); the
       * sample table is sorted by time, as DevTools sorts them */
      p->time += delta;
      g_array_index (self->times, SpsTime, i) = p->time;
      g_array_index (self->callsites, guint32, i) = profile_sample_callsite (self, p, node, final, &later);
      g_array_index (self->lines_out, guint32, i) = line > 0 && line < G_MAXUINT32 ? (guint32) line : 0;
      if G_UNLIKELY (later)
        {
          PendingSample pending = { i, node, offset };

          g_array_append_val (self->later, pending);
        }
    }

  first = sps_trace_builder_add_samples (self->ctx.builder, p->thread, i,
                                         (const SpsTime *) (gpointer) self->times->data,
                                         p->event_name,
                                         (const guint32 *) (gpointer) self->callsites->data,
                                         (const guint32 *) (gpointer) self->lines_out->data);
  for (guint k = 0; k < self->later->len; k++)
    {
      PendingSample pending = g_array_index (self->later, PendingSample, k);

      pending.sample += first;
      g_array_append_val (p->pending, pending);
    }

  if (samples->valid && deltas->valid && samples->values->len != deltas->values->len)
    sps_chrome_read_context_warn (&self->ctx, "cpu_profile_length_mismatch", offset,
          N_("a CPU profile has more samples than time deltas or the other way round; "
             "samples without a time delta are skipped"));
}

/* Gives every sample whose node was not known when it was read its stack,
 * or the single frame named after the event when it has none. */
static void
profile_settle (SpsChromeCpuProfiles *self,
                Profile              *p)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 unresolved = SPS_NO_INDEX;

  for (guint i = 0; i < p->pending->len; i++)
    {
      PendingSample *pending = &g_array_index (p->pending, PendingSample, i);
      guint32 callsite;

      if (profile_resolve (self, p, pending->node, TRUE, chain, &callsite) == RESOLVE_OK)
        {
          sps_trace_builder_set_sample_callsite (self->ctx.builder, pending->sample, callsite,
                                                 SPS_SAMPLE_NONE);
          continue;
        }
      if (unresolved == SPS_NO_INDEX)
        unresolved = sps_chrome_single_frame_callsite (self->ctx.builder, p->event_name);
      sps_trace_builder_set_sample_callsite (self->ctx.builder, pending->sample, unresolved,
                                             SPS_SAMPLE_UNRESOLVED);
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_unresolved_node", pending->offset,
            N_("a sample of a CPU profile names a node that is not defined, or whose "
               "ancestors are missing or form a cycle; its stack is unresolved"));
    }
  g_array_set_size (p->pending, 0);
}

/* Events */

/**
 * sps_chrome_cpu_profile_kind:
 * @ev: an event as read
 *
 * Returns: which part of a V8 CPU profile @ev is, if any
 */
SpsChromeCpuProfileKind
sps_chrome_cpu_profile_kind (const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_NAME) == 0 || ev->name.type != SPS_CHROME_VALUE_STRING)
    return SPS_CHROME_CPU_PROFILE_NONE;
  /* V8 never gives its events a stack: one with `sf` or `stack` is a plain
   * sample of that name (as a converted profile writes its samples) */
  if (ev->fields & (SPS_CHROME_FIELD_SF | SPS_CHROME_FIELD_STACK))
    return SPS_CHROME_CPU_PROFILE_NONE;
  /* V8 gives every event of a streamed profile its id */
  if (ev->ph == 'P' && (ev->fields & SPS_CHROME_FIELD_ID))
    {
      if (sps_chrome_value_equals (&ev->name, "ProfileChunk"))
        return SPS_CHROME_CPU_PROFILE_CHUNK;
      if (sps_chrome_value_equals (&ev->name, "Profile"))
        return SPS_CHROME_CPU_PROFILE_START;
    }
  if (ev->ph != 'M' && sps_chrome_value_equals (&ev->name, "CpuProfile"))
    return SPS_CHROME_CPU_PROFILE_LEGACY;
  return SPS_CHROME_CPU_PROFILE_NONE;
}

/* The streamed profile of (@pid, id) */
static Profile *
lookup_profile (SpsChromeCpuProfiles *self,
                const SpsChromeEvent *ev,
                gint64                pid)
{
  g_autoptr(GString) key = g_string_new (NULL);
  Profile *p;

  g_string_printf (key, "%" G_GINT64_FORMAT "/", pid);
  if ((ev->fields & SPS_CHROME_FIELD_ID) &&
      (ev->id.type == SPS_CHROME_VALUE_STRING || ev->id.type == SPS_CHROME_VALUE_NUMBER))
    g_string_append_len (key, ev->id.ptr, ev->id.len);

  p = g_hash_table_lookup (self->profiles, key->str);
  if (p == NULL)
    {
      p = profile_new ();
      g_hash_table_insert (self->profiles, g_string_free (g_steal_pointer (&key), FALSE), p);
    }
  return p;
}

static gboolean
read_start_time (SpsChromeCpuProfiles *self,
                 const SpsChromeValue *value,
                 SpsTime              *out)
{
  return value->type == SPS_CHROME_VALUE_NUMBER &&
         sps_chrome_parse_time (value->ptr, value->len, self->ctx.time_exp, out) == SPS_CHROME_NUMBER_OK;
}

/* What a Profile, ProfileChunk or CpuProfile event holds; the arrays of
 * samples, deltas and lines go to the reader's scratch arrays */
typedef struct
{
  SpsChromeValue nodes;
  SpsChromeValue start_time;
} ChunkParts;

/* Walks `args.data` and its `cpuProfile` once: the big arrays are read
 * where they are, never lexed twice. Deltas and lines sit beside the
 * profile in chunks, inside it in the whole form; either is read. */
static void
read_object (SpsChromeCpuProfiles *self,
             SpsChromeScanner     *scanner,
             guint                 level,
             ChunkParts           *parts)
{
  SpsChromeValue key;
  SpsChromeValue value;

  if (sps_chrome_scanner_enter (scanner, '{') != SPS_CHROME_SCAN_OK)
    return;
  /* A scanner that failed inside a member (a nested object, an array)
   * must not be asked for more: its first error is the one to keep */
  while (scanner->error_message == NULL &&
         sps_chrome_scanner_next_member (scanner, &key) == SPS_CHROME_SCAN_OK)
    {
      gboolean object_next = sps_chrome_scanner_peek (scanner) == '{';

      if (level == 0 && object_next && sps_chrome_value_equals (&key, "data"))
        read_object (self, scanner, 1, parts);
      else if (level == 1 && object_next && sps_chrome_value_equals (&key, "cpuProfile"))
        read_object (self, scanner, 2, parts);
      else if (level == 2 && sps_chrome_value_equals (&key, "samples"))
        read_int_array (self, scanner, FALSE, &self->samples);
      else if (level >= 1 && sps_chrome_value_equals (&key, "timeDeltas"))
        read_int_array (self, scanner, TRUE, &self->deltas);
      else if (level >= 1 && sps_chrome_value_equals (&key, "lines"))
        read_int_array (self, scanner, FALSE, &self->lines);
      else
        {
          if (sps_chrome_scanner_read_value (scanner, &value) != SPS_CHROME_SCAN_OK)
            return;
          if (level == 2 && sps_chrome_value_equals (&key, "nodes"))
            parts->nodes = value;
          else if (level >= 1 && sps_chrome_value_equals (&key, "startTime"))
            parts->start_time = value;
        }
    }
}

static void
read_parts (SpsChromeCpuProfiles *self,
            const SpsChromeEvent *ev,
            ChunkParts           *parts)
{
  SpsChromeScanner scanner;

  self->samples.present = self->deltas.present = self->lines.present = FALSE;
  self->samples.valid = self->deltas.valid = self->lines.valid = FALSE;
  g_array_set_size (self->samples.values, 0);
  g_array_set_size (self->deltas.values, 0);
  g_array_set_size (self->lines.values, 0);
  if ((ev->fields & SPS_CHROME_FIELD_ARGS) == 0 || ev->args.type != SPS_CHROME_VALUE_OBJECT)
    return;

  sps_chrome_scanner_init_range (&scanner, self->ctx.base, ev->args.ptr,
                                 ev->args.ptr + ev->args.len, 0);
  read_object (self, &scanner, 0, parts);
  sps_chrome_scanner_clear (&scanner);
}

/**
 * sps_chrome_cpu_profiles_add_event:
 * @self: the profiles of a file
 * @kind: what sps_chrome_cpu_profile_kind() said of @ev
 * @ev: the event
 * @pid: the event's pid as the importer reads it
 * @thread: the event's thread in the builder
 *
 * Reads a Profile, ProfileChunk or CpuProfile event. A streamed profile's
 * samples belong to the thread of its Profile event (the thread that ran
 * the JavaScript; the chunks come from the profiler's thread).
 */
void
sps_chrome_cpu_profiles_add_event (SpsChromeCpuProfiles    *self,
                                   SpsChromeCpuProfileKind  kind,
                                   const SpsChromeEvent    *ev,
                                   gint64                   pid,
                                   guint32                  thread)
{
  ChunkParts parts = { 0, };
  Profile *p;
  g_autoptr(Profile) whole = NULL;
  SpsTime start;

  read_parts (self, ev, &parts);

  if (kind == SPS_CHROME_CPU_PROFILE_LEGACY)
    {
      whole = profile_new ();
      p = whole;
      p->thread = thread;
    }
  else
    p = lookup_profile (self, ev, pid);

  if (kind != SPS_CHROME_CPU_PROFILE_CHUNK)
    {
      /* The Profile event (or the whole profile) says where the samples
       * start and, for a stream, which thread was sampled */
      p->thread = thread;
      if (read_start_time (self, &parts.start_time, &start))
        p->time = start;
      else
        {
          sps_chrome_read_context_warn (&self->ctx, "cpu_profile_without_start", ev->offset,
                N_("a CPU profile has no startTime; its samples count from the event's ts"));
          p->time = ev->ts;
        }
      p->has_start = TRUE;
      if (kind == SPS_CHROME_CPU_PROFILE_START)
        return;
    }

  /* Samples carry the name of the event they came in */
  p->event_name = sps_chrome_read_context_intern (&self->ctx, &ev->name);
  if (p->thread == SPS_NO_INDEX)
    p->thread = thread;
  if (!p->has_start)
    {
      sps_chrome_read_context_warn (&self->ctx, "cpu_profile_without_start", ev->offset,
            N_("a CPU profile chunk comes without a Profile event before it; "
               "its samples count from the chunk's ts"));
      p->time = ev->ts;
      p->has_start = TRUE;
    }

  profile_read_nodes (self, p, &parts.nodes, kind == SPS_CHROME_CPU_PROFILE_LEGACY);
  profile_add_samples (self, p, &self->samples, &self->deltas, &self->lines,
                       kind == SPS_CHROME_CPU_PROFILE_LEGACY, ev->offset);

  if (whole != NULL)
    profile_settle (self, whole);
}

/**
 * sps_chrome_cpu_profiles_finish:
 * @self: the profiles of a file
 *
 * Resolves the samples whose nodes were defined after them; call once the
 * whole file was read.
 */
void
sps_chrome_cpu_profiles_finish (SpsChromeCpuProfiles *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->profiles);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    profile_settle (self, value);
}

/* Life cycle */

/**
 * sps_chrome_cpu_profiles_new:
 * @ctx: the builder, strings, input and warnings of the file
 *
 * Returns: (transfer full): the CPU profiles of one file
 */
SpsChromeCpuProfiles *
sps_chrome_cpu_profiles_new (const SpsChromeReadContext *ctx)
{
  SpsChromeCpuProfiles *self = g_new0 (SpsChromeCpuProfiles, 1);

  self->ctx = *ctx;
  self->strings = sps_trace_builder_get_strings (ctx->builder);
  /* Trace data, never translated */
  self->anonymous = sps_string_pool_intern (self->strings, "(anonymous)", -1);
  self->profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) profile_free);
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->times = g_array_new (FALSE, FALSE, sizeof (SpsTime));
  self->callsites = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->lines_out = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->later = g_array_new (FALSE, FALSE, sizeof (PendingSample));
  self->samples.values = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->deltas.values = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->lines.values = g_array_new (FALSE, FALSE, sizeof (gint64));
  return self;
}

void
sps_chrome_cpu_profiles_free (SpsChromeCpuProfiles *self)
{
  g_hash_table_unref (self->profiles);
  g_array_unref (self->chain);
  g_array_unref (self->times);
  g_array_unref (self->callsites);
  g_array_unref (self->lines_out);
  g_array_unref (self->later);
  g_array_unref (self->samples.values);
  g_array_unref (self->deltas.values);
  g_array_unref (self->lines.values);
  g_free (self);
}
