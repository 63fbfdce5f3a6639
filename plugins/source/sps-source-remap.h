/* sps-source-remap.h: turning a trace's source file name into local paths through prefix rules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* "A file name starting with @from starts with @to here" */
typedef struct
{
  char *from;
  char *to;
} SpsSourceRule;

SpsSourceRule *sps_source_rule_new               (const char  *from,
                                                  const char  *to);
void           sps_source_rule_free              (SpsSourceRule *self);
GPtrArray     *sps_source_rules_new              (void);
GPtrArray     *sps_source_rules_copy             (GPtrArray   *rules);

GPtrArray     *sps_source_remap                  (const char  *file,
                                                  GPtrArray   *rules,
                                                  const char  *trace_dir,
                                                  guint       *matched_rule);
char          *sps_source_remap_unmatched_prefix (const char  *file);

GPtrArray     *sps_source_rules_load             (GSettings   *settings,
                                                  const char  *folder);
void           sps_source_rules_save             (GSettings   *settings,
                                                  const char  *folder,
                                                  GPtrArray   *rules);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsSourceRule, sps_source_rule_free)

G_END_DECLS
