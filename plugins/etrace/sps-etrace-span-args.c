/* sps-etrace-span-args.c: the args of spans and markers, made into text
 * when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A span's args (type, priority, deadline, whether it was missed and by
 * how much) follow from its name, start and end, and a marker's from its
 * value, so the analysis hands out deferred references (#SpsArgsRef)
 * instead of writing their text into every trace: a marker's cookie is
 * its value, a span's its place in an append-only store of (start, end,
 * name). A live capture keeps the store with its pairing, so an update
 * adds only the spans that were not handed out before; its generations
 * share the store, each reading the spans it had through its own copy of
 * the chunk directory (chunks never move, and rows past a generation's
 * count are written only by later builds), with the names as they were
 * when it was built.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-etrace-span-args.h"

/* Chunks never move, so the store grows by adding them: the first holds
 * FIRST_ROWS spans and each next one as many as all before it, up to
 * CHUNK_ROWS, then every chunk holds CHUNK_ROWS. A capture of a few spans
 * takes a few KiB instead of a whole CHUNK_ROWS chunk (1.5 MiB), and a
 * large one still wastes at most one chunk. */
#define FIRST_SHIFT 8
#define FIRST_ROWS  (1u << FIRST_SHIFT)
#define CHUNK_SHIFT 16
#define CHUNK_ROWS  (1u << CHUNK_SHIFT)
/* The chunks that double: 256, 256, 512, … 32768 rows (65536 in all) */
#define N_GROWING   (CHUNK_SHIFT - FIRST_SHIFT + 1)

/* Cookies: a marker's value (32 bits on the wire) with this bit, a
 * span's place in the store without */
#define MARKER_BIT  (G_GUINT64_CONSTANT (1) << 57)

typedef struct
{
  gint64  start;
  gint64  end;
  guint32 name;
} StoredSpan;

struct _SpsEtraceSpanStore
{
  GPtrArray *chunks;        /* StoredSpan[CHUNK_ROWS] */
  guint32    n;
};

struct _SpsEtraceSpanArgs
{
  GObject             parent_instance;

  SpsEtraceSpanStore *store;
  StoredSpan        **chunks;   /* the store's directory when sealed */
  guint32             n;        /* spans readable: those added before seal */
  SpsEtraceNameArgs  *names;
  guint               n_names;
};

static gpointer sps_etrace_span_args_parent_class;

static void sps_etrace_span_args_class_init   (SpsEtraceSpanArgsClass  *klass);
static void sps_etrace_span_args_init         (SpsEtraceSpanArgs       *self);
static void sps_etrace_span_args_decoder_init (SpsArgsDecoderInterface *iface);

/* The plugin and a program that links the decoder library as well (the
 * tests and benchmarks, which load captures through the plugin too) each
 * hold a copy of this code, built from the same object: the first copy
 * to run registers the type and the other uses it. */
GType
sps_etrace_span_args_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      const GInterfaceInfo decoder_info = { (GInterfaceInitFunc) (void (*) (void)) sps_etrace_span_args_decoder_init,
                                            NULL, NULL };
      GType type = g_type_from_name ("SpsEtraceSpanArgs");

      if (type == 0)
        {
          type = g_type_register_static_simple (G_TYPE_OBJECT, g_intern_static_string ("SpsEtraceSpanArgs"),
                                                sizeof (SpsEtraceSpanArgsClass),
                                                (GClassInitFunc) (void (*) (void)) sps_etrace_span_args_class_init,
                                                sizeof (SpsEtraceSpanArgs),
                                                (GInstanceInitFunc) (void (*) (void)) sps_etrace_span_args_init,
                                                G_TYPE_FLAG_FINAL);
          g_type_add_interface_static (type, SPS_TYPE_ARGS_DECODER, &decoder_info);
        }
      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* Where span @id is: its chunk and its row in that chunk */
static inline guint
chunk_of (guint32  id,
          guint32 *row)
{
  guint bits;

  if (id < FIRST_ROWS)
    {
      *row = id;
      return 0;
    }
  if (id >= CHUNK_ROWS)
    {
      *row = id & (CHUNK_ROWS - 1);
      return N_GROWING + (id >> CHUNK_SHIFT) - 1;
    }
  /* Chunk k of the growing ones (1 ≤ k < N_GROWING) starts at
   * FIRST_ROWS << (k - 1): the place of the highest bit of @id */
  bits = g_bit_storage (id);
  *row = id - (1u << (bits - 1));
  return bits - FIRST_SHIFT;
}

static inline guint32
chunk_rows (guint chunk)
{
  if (chunk == 0)
    return FIRST_ROWS;
  return chunk < N_GROWING ? FIRST_ROWS << (chunk - 1) : CHUNK_ROWS;
}

static void
store_clear (gpointer data)
{
  SpsEtraceSpanStore *self = data;

  g_ptr_array_unref (self->chunks);
}

SpsEtraceSpanStore *
sps_etrace_span_store_new (void)
{
  SpsEtraceSpanStore *self = g_atomic_rc_box_new0 (SpsEtraceSpanStore);

  self->chunks = g_ptr_array_new_with_free_func (g_free);

  return self;
}

SpsEtraceSpanStore *
sps_etrace_span_store_ref (SpsEtraceSpanStore *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
sps_etrace_span_store_unref (SpsEtraceSpanStore *self)
{
  g_atomic_rc_box_release_full (self, store_clear);
}

/* Returns: the span's place, or %SPS_ETRACE_NO_ARGS when the store is
 * full (its args are then written as text). The caller serialises adds
 * (a live capture's builds run under the lock of their pairing). */
guint32
sps_etrace_span_store_add (SpsEtraceSpanStore *self,
                           gint64              start,
                           gint64              end,
                           guint32             name)
{
  StoredSpan *chunk;
  guint32 id = self->n;
  guint32 row;
  guint k;

  if (id == SPS_ETRACE_NO_ARGS)
    return SPS_ETRACE_NO_ARGS;
  k = chunk_of (id, &row);
  if (row == 0)
    g_ptr_array_add (self->chunks, g_new (StoredSpan, chunk_rows (k)));
  chunk = g_ptr_array_index (self->chunks, k);
  chunk[row] = (StoredSpan) { start, end, name };
  self->n++;

  return id;
}

/* Spans stored so far: the places below it are taken */
guint32
sps_etrace_span_store_get_count (SpsEtraceSpanStore *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n;
}

/* The deadline, saturated (a span near the end of time has none after
 * it), and whether @end overran it */
gboolean
sps_etrace_span_missed (const SpsEtraceNameArgs *name,
                        gint64                   start,
                        gint64                   end,
                        gint64                  *deadline)
{
  if (!name->has_deadline)
    return FALSE;
  if (__builtin_add_overflow (start, name->deadline_ns, deadline))
    *deadline = G_MAXINT64;

  return end > *deadline;
}

void
sps_etrace_append_span_args (GString                 *args,
                             const SpsEtraceNameArgs *name,
                             gint64                   start,
                             gint64                   end)
{
  gint64 deadline = 0;
  gboolean missed = sps_etrace_span_missed (name, start, end, &deadline);

  g_string_append_len (args, name->prefix, (gssize) name->len);
  if (name->has_deadline)
    {
      sps_json_append_time_us (args, deadline);
      g_string_append (args, missed ? ",\"deadline_missed\":true" : ",\"deadline_missed\":false");
      if (missed)
        {
          /* end > deadline >= start: no overflow below the span's own */
          g_string_append (args, ",\"lateness_us\":");
          sps_json_append_time_us (args, (gint64) ((guint64) end - (guint64) deadline));
        }
    }
  g_string_append_c (args, '}');
}

static gboolean
sps_etrace_span_args_decode (SpsArgsDecoder  *decoder,
                             guint64          cookie,
                             GString         *json,
                             GError         **error)
{
  SpsEtraceSpanArgs *self = SPS_ETRACE_SPAN_ARGS (decoder);
  const StoredSpan *span = NULL;

  if (cookie & MARKER_BIT)
    {
      g_string_append (json, "{\"value\":");
      sps_json_append_uint64 (json, cookie & (MARKER_BIT - 1));
      g_string_append_c (json, '}');
      return TRUE;
    }

  if (cookie < self->n)
    {
      guint32 row;
      guint k = chunk_of ((guint32) cookie, &row);

      span = &self->chunks[k][row];
    }
  /* A stored span's name is known to every later build (names are only
   * added); checked all the same, as a reference is only a number */
  if (span == NULL || span->name >= self->n_names)
    {
      char number[32];

      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, cookie);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: %s is a number (the args of a span
                    * are read from the spans the capture kept) */
                   _("The capture has no span %s"), number);
      return FALSE;
    }

  sps_etrace_append_span_args (json, &self->names[span->name], span->start, span->end);

  return TRUE;
}

static void
sps_etrace_span_args_decoder_init (SpsArgsDecoderInterface *iface)
{
  iface->decode = sps_etrace_span_args_decode;
}

static void
sps_etrace_span_args_finalize (GObject *object)
{
  SpsEtraceSpanArgs *self = SPS_ETRACE_SPAN_ARGS (object);

  for (guint i = 0; i < self->n_names; i++)
    g_free (self->names[i].prefix);
  g_free (self->names);
  g_free (self->chunks);
  g_clear_pointer (&self->store, sps_etrace_span_store_unref);

  G_OBJECT_CLASS (sps_etrace_span_args_parent_class)->finalize (object);
}

static void
sps_etrace_span_args_class_init (SpsEtraceSpanArgsClass *klass)
{
  sps_etrace_span_args_parent_class = g_type_class_peek_parent (klass);
  G_OBJECT_CLASS (klass)->finalize = sps_etrace_span_args_finalize;
}

static void
sps_etrace_span_args_init (SpsEtraceSpanArgs *self)
{
}

static void
name_args_init (SpsEtraceNameArgs   *args,
                const SpsEtraceName *name)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_printf (text, "{\"type\":\"%s\",\"priority\":%u",
                   name->source == SPS_ETRACE_SOURCE_ISR ? "isr" : "task", name->priority);
  args->has_deadline = name->has_deadline;
  if (name->has_deadline)
    {
      g_string_append_printf (text, ",\"deadline_ms\":%s,\"deadline_us\":",
                              g_ascii_formatd (number, sizeof number, "%.9g", name->deadline_ms));
      args->deadline_ns = (gint64) llround ((double) name->deadline_ms * 1e6);
    }
  args->len = text->len;
  args->prefix = g_string_free (g_steal_pointer (&text), FALSE);
}

/* The args of one build: @store's spans with @names as they are now
 * (SpsEtraceName), readable once sealed */
SpsEtraceSpanArgs *
sps_etrace_span_args_new (SpsEtraceSpanStore *store,
                          GPtrArray          *names)
{
  SpsEtraceSpanArgs *self = g_object_new (SPS_TYPE_ETRACE_SPAN_ARGS, NULL);

  self->store = sps_etrace_span_store_ref (store);
  self->n_names = names->len;
  self->names = g_new0 (SpsEtraceNameArgs, MAX (names->len, 1));
  for (guint i = 0; i < names->len; i++)
    name_args_init (&self->names[i], g_ptr_array_index (names, i));

  return self;
}

const SpsEtraceNameArgs *
sps_etrace_span_args_get_name (SpsEtraceSpanArgs *self,
                               guint32            name)
{
  g_return_val_if_fail (name < self->n_names, NULL);

  return &self->names[name];
}

/* @decoder: what sps_trace_builder_add_args_decoder() gave @self */
SpsArgsRef
sps_etrace_span_args_span (SpsEtraceSpanArgs *self,
                           guint              decoder,
                           guint32            id)
{
  g_return_val_if_fail (id < self->store->n, SPS_ARGS_REF_NONE);

  return sps_args_ref_new_deferred (decoder, id);
}

/* A marker's value needs no store: it is the cookie */
SpsArgsRef
sps_etrace_span_args_marker (guint   decoder,
                             guint32 value)
{
  return sps_args_ref_new_deferred (decoder, MARKER_BIT | value);
}

/* The spans added so far are those this build hands out */
void
sps_etrace_span_args_seal (SpsEtraceSpanArgs *self)
{
  g_return_if_fail (self->chunks == NULL);

  self->n = self->store->n;
  self->chunks = (StoredSpan **) g_memdup2 (self->store->chunks->pdata,
                                            MAX (self->store->chunks->len, 1) * sizeof (gpointer));
}
