/* sps-folded-exporter.c: writes a flame tree as folded stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The flamegraph.pl / speedscope input format: one line per stack
 * position with a non-zero own value, `outer;…;leaf value`, root first.
 * The value is the number of samples that end there (samples tree, never
 * their weights) or the self time in nanoseconds (measured and sampled
 * span trees). Threads are merged unless the "thread" option picks one.
 *
 * Lines come in depth-first pre-order of the tree with siblings in byte
 * order of their names, so a position's own line comes before its
 * children's and the output does not depend on the input order. A `;` in
 * a name would split the frame, so it is written as `:`; line breaks and
 * tabs become spaces.
 */

#define G_LOG_DOMAIN "sps-flame-export"

#include "config.h"

#include "sps-flame-export-util.h"
#include "sps-folded-exporter.h"

struct _SpsFoldedExporter
{
  GObject parent_instance;
};

static void sps_folded_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsFoldedExporter, sps_folded_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER,
                                                      sps_folded_exporter_iface_init))

static void
append_frame (GString    *out,
              const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    {
      switch (*p)
        {
        case ';': g_string_append_c (out, ':'); break;
        case '\n':
        case '\r':
        case '\t': g_string_append_c (out, ' '); break;
        default: g_string_append_c (out, *p);
        }
    }
}

static gboolean
write_tree (SpsFlameTree   *tree,
            GOutputStream  *stream,
            SpsProgress    *progress,
            GError        **error)
{
  SpsTrace *trace = sps_flame_tree_get_trace (tree);
  g_autoptr(GString) buf = g_string_sized_new (SPS_FLAME_EXPORT_CHUNK + 4096);
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* Length of `path` before each depth's frame */
  g_autoptr(GArray) prefix = g_array_new (FALSE, TRUE, sizeof (gsize));
  const SpsFlameNode *nodes;
  guint n_nodes;
  guint done = 0;

  nodes = sps_flame_tree_get_nodes (tree, &n_nodes);

  /* Pre-order: push children in reverse so the first is popped first */
  {
    g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (guint32));

    for (guint32 c = nodes[0].first_child; c != SPS_NO_INDEX; c = nodes[c].next_sibling)
      g_array_append_val (children, c);
    for (guint i = children->len; i-- > 0;)
      g_array_append_val (stack, g_array_index (children, guint32, i));

    while (stack->len > 0)
      {
        guint32 id = g_array_index (stack, guint32, stack->len - 1);
        const SpsFlameNode *n = &nodes[id];
        gsize keep;

        g_array_set_size (stack, stack->len - 1);

        if (prefix->len < n->depth + 1)
          g_array_set_size (prefix, n->depth + 1);
        keep = n->depth == 1 ? 0 : g_array_index (prefix, gsize, n->depth - 1);
        g_string_truncate (path, keep);
        if (n->depth > 1)
          g_string_append_c (path, ';');
        append_frame (path, sps_trace_get_string (trace, n->name));
        /* What the children of this node start from */
        g_array_index (prefix, gsize, n->depth) = path->len;

        if (n->exclusive > 0)
          {
            g_string_append_len (buf, path->str, path->len);
            g_string_append_printf (buf, " %" G_GINT64_FORMAT "\n", n->exclusive);
            if (!sps_flame_export_flush (stream, buf, FALSE, progress, error))
              return FALSE;
          }

        g_array_set_size (children, 0);
        for (guint32 c = n->first_child; c != SPS_NO_INDEX; c = nodes[c].next_sibling)
          g_array_append_val (children, c);
        for (guint i = children->len; i-- > 0;)
          g_array_append_val (stack, g_array_index (children, guint32, i));

        if (progress != NULL && (++done % 4096) == 0)
          sps_progress_set_fraction (progress, 0.5 + 0.5 * done / (double) n_nodes);
      }
  }

  return sps_flame_export_flush (stream, buf, TRUE, progress, error);
}

/* SpsExporter */

static const char *
sps_folded_exporter_get_name (SpsExporter *exporter)
{
  return "folded";
}

static const char *
sps_folded_exporter_get_suffix (SpsExporter *exporter)
{
  return ".folded";
}

static gboolean
sps_folded_exporter_write (SpsExporter    *exporter,
                           SpsTrace       *trace,
                           GVariant       *options,
                           GOutputStream  *stream,
                           SpsProgress    *progress,
                           GError        **error)
{
  g_autoptr(SpsFlameTree) tree = NULL;
  SpsFlameExportScope scope;
  SpsFlameTreeParams params;

  g_assert (SPS_IS_FOLDED_EXPORTER (exporter));
  g_assert (SPS_IS_TRACE (trace));
  g_assert (G_IS_OUTPUT_STREAM (stream));
  g_assert (progress == NULL || SPS_IS_PROGRESS (progress));

  if (!sps_flame_export_parse_options (trace, options, &scope, error))
    return FALSE;

  sps_flame_tree_params_init (&params, scope.kind);
  if (scope.has_tid)
    {
      params.slice_visible = sps_flame_export_slice_in_scope;
      params.sample_visible = sps_flame_export_sample_in_scope;
      params.user_data = &scope;
    }

  if (!(tree = sps_flame_tree_build (trace, &params, progress, error)))
    return FALSE;
  if (progress != NULL)
    sps_progress_set_fraction (progress, 0.5);

  if (!write_tree (tree, stream, progress, error))
    return FALSE;
  if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  return TRUE;
}

static void
sps_folded_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_folded_exporter_get_name;
  iface->get_suffix = sps_folded_exporter_get_suffix;
  iface->write = sps_folded_exporter_write;
}

static void
sps_folded_exporter_class_init (SpsFoldedExporterClass *klass)
{
}

static void
sps_folded_exporter_init (SpsFoldedExporter *self)
{
}
