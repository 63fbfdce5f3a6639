/* sps-source-rules-editor.h: the source viewer's list of path rules, two entries a row, in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SOURCE_RULES_EDITOR (sps_source_rules_editor_get_type ())

G_DECLARE_FINAL_TYPE (SpsSourceRulesEditor, sps_source_rules_editor, SPS, SOURCE_RULES_EDITOR, GtkWidget)

GtkWidget *sps_source_rules_editor_new       (void);
void       sps_source_rules_editor_set_rules (SpsSourceRulesEditor *self,
                                              GPtrArray            *rules);
GPtrArray *sps_source_rules_editor_dup_rules (SpsSourceRulesEditor *self);
void       sps_source_rules_editor_add_rule  (SpsSourceRulesEditor *self,
                                              int                   position,
                                              const char           *from,
                                              const char           *to);
void       sps_source_rules_editor_move_rule (SpsSourceRulesEditor *self,
                                              guint                 index,
                                              int                   delta);
void       sps_source_rules_editor_remove_rule (SpsSourceRulesEditor *self,
                                                guint                 index);

G_END_DECLS
