/* sps-import-warnings.h: what an import warned about, in words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/**
 * SpsImportWarning:
 * @name: the counter's name, as `spanscope-cli info` prints it
 * @count: how often it was counted
 * @summary: (transfer full): "342 async begins without an end", or for a
 *   counter a file has once "no CPU samples in the capture"
 * @title: (transfer full): @summary with a capital first letter
 * @meaning: (transfer full): what it means for the data shown
 * @example: (nullable): the message of its first occurrence
 *
 * One warning counter of a loaded trace, or a line of the stack repair's
 * report (named "stack_repair.deleted", "stack_repair.kept_truncated"
 * and "stack_repair.repaired").
 */
typedef struct
{
  char    *name;
  guint64  count;
  char    *summary;
  char    *title;
  char    *meaning;
  char    *example;
} SpsImportWarning;

GPtrArray *sps_import_warnings_collect        (SpsTrace  *trace);
char      *sps_import_warnings_format_summary (GPtrArray *warnings,
                                               guint      max_items);

G_END_DECLS
