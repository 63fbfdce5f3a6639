/* sps-source-rules-editor.c: the source viewer's list of path rules, two entries a row, in order
 *
 * Each row is "prefix in the trace → prefix here" with buttons to move it
 * up or down and to remove it; "Add Rule" appends an empty row. The order
 * is the order the rules are tried in, which the hint under the list says.
 * Every edit emits "changed"; the panel saves and looks again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source-rules-editor"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-source-remap.h"
#include "sps-source-rules-editor.h"

struct _SpsSourceRulesEditor
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkWidget *list;
};

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpsSourceRulesEditor, sps_source_rules_editor, GTK_TYPE_WIDGET)

static void
emit_changed (SpsSourceRulesEditor *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static GtkWidget *
row_entry (GtkWidget *row,
           const char *name)
{
  GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

  for (GtkWidget *child = gtk_widget_get_first_child (box); child; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_name (child), name) == 0)
      return child;

  g_return_val_if_reached (NULL);
}

static guint
n_rows (SpsSourceRulesEditor *self)
{
  guint n = 0;

  while (gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), n) != NULL)
    n++;
  return n;
}

static void
entry_changed_cb (SpsSourceRulesEditor *self)
{
  g_assert (SPS_IS_SOURCE_RULES_EDITOR (self));

  emit_changed (self);
}

static void
button_clicked_cb (GtkButton            *button,
                   SpsSourceRulesEditor *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);
  int delta = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "sps-delta"));
  guint index;

  g_assert (SPS_IS_SOURCE_RULES_EDITOR (self));
  g_assert (row != NULL);

  index = (guint) gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row));
  if (delta == 0)
    sps_source_rules_editor_remove_rule (self, index);
  else
    sps_source_rules_editor_move_rule (self, index, delta);
}

static GtkWidget *
row_button (SpsSourceRulesEditor *self,
            const char           *icon_name,
            const char           *tooltip,
            int                   delta)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "sps-delta", GINT_TO_POINTER (delta));
  g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), self);

  return button;
}

static GtkWidget *
new_row (SpsSourceRulesEditor *self,
         const char           *from,
         const char           *to)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *from_entry = gtk_entry_new ();
  GtkWidget *to_entry = gtk_entry_new ();

  gtk_widget_set_name (from_entry, "from");
  gtk_widget_set_name (to_entry, "to");
  gtk_widget_set_hexpand (from_entry, TRUE);
  gtk_widget_set_hexpand (to_entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (from_entry), _("Prefix in the trace"));
  gtk_entry_set_placeholder_text (GTK_ENTRY (to_entry), _("Prefix on this computer"));
  gtk_editable_set_text (GTK_EDITABLE (from_entry), from);
  gtk_editable_set_text (GTK_EDITABLE (to_entry), to);
  g_signal_connect_swapped (from_entry, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect_swapped (to_entry, "changed", G_CALLBACK (entry_changed_cb), self);

  gtk_box_append (GTK_BOX (box), from_entry);
  gtk_box_append (GTK_BOX (box), gtk_label_new ("→"));
  gtk_box_append (GTK_BOX (box), to_entry);
  gtk_box_append (GTK_BOX (box), row_button (self, "go-up-symbolic", _("Move Up"), -1));
  gtk_box_append (GTK_BOX (box), row_button (self, "go-down-symbolic", _("Move Down"), 1));
  gtk_box_append (GTK_BOX (box), row_button (self, "list-remove-symbolic", _("Remove Rule"), 0));

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);

  return row;
}

static void
clear_rows (SpsSourceRulesEditor *self)
{
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), 0)))
    gtk_list_box_remove (GTK_LIST_BOX (self->list), GTK_WIDGET (row));
}

/* Replaces the rows with @rules without emitting "changed": loading is
 * not an edit. */
void
sps_source_rules_editor_set_rules (SpsSourceRulesEditor *self,
                                   GPtrArray            *rules)
{
  g_return_if_fail (SPS_IS_SOURCE_RULES_EDITOR (self));

  clear_rows (self);
  for (guint i = 0; rules != NULL && i < rules->len; i++)
    {
      SpsSourceRule *rule = g_ptr_array_index (rules, i);

      gtk_list_box_append (GTK_LIST_BOX (self->list), new_row (self, rule->from, rule->to));
    }
}

/* The rules as the rows hold them, in order (empty rows too: the remap
 * skips a rule without a prefix, and the row stays for editing). */
GPtrArray *
sps_source_rules_editor_dup_rules (SpsSourceRulesEditor *self)
{
  GPtrArray *rules = sps_source_rules_new ();
  GtkListBoxRow *row;

  g_return_val_if_fail (SPS_IS_SOURCE_RULES_EDITOR (self), rules);

  for (guint i = 0; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), i)); i++)
    g_ptr_array_add (rules,
                     sps_source_rule_new (gtk_editable_get_text (GTK_EDITABLE (row_entry (GTK_WIDGET (row), "from"))),
                                          gtk_editable_get_text (GTK_EDITABLE (row_entry (GTK_WIDGET (row), "to")))));

  return rules;
}

/* Inserts a row at @position (-1: last) and puts the focus where the
 * user types next: the local prefix when the trace's prefix is given. */
void
sps_source_rules_editor_add_rule (SpsSourceRulesEditor *self,
                                  int                   position,
                                  const char           *from,
                                  const char           *to)
{
  GtkWidget *row;

  g_return_if_fail (SPS_IS_SOURCE_RULES_EDITOR (self));

  row = new_row (self, from != NULL ? from : "", to != NULL ? to : "");
  gtk_list_box_insert (GTK_LIST_BOX (self->list), row, position);
  gtk_widget_grab_focus (row_entry (row, from != NULL && from[0] != '\0' ? "to" : "from"));
  emit_changed (self);
}

void
sps_source_rules_editor_move_rule (SpsSourceRulesEditor *self,
                                   guint                 index,
                                   int                   delta)
{
  GtkListBoxRow *row;
  gint64 target = (gint64) index + delta;

  g_return_if_fail (SPS_IS_SOURCE_RULES_EDITOR (self));

  if (!(row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), index)) ||
      target < 0 || target >= n_rows (self) || delta == 0)
    return;

  g_object_ref (row);
  gtk_list_box_remove (GTK_LIST_BOX (self->list), GTK_WIDGET (row));
  gtk_list_box_insert (GTK_LIST_BOX (self->list), GTK_WIDGET (row), (int) target);
  g_object_unref (row);
  emit_changed (self);
}

void
sps_source_rules_editor_remove_rule (SpsSourceRulesEditor *self,
                                     guint                 index)
{
  GtkListBoxRow *row;

  g_return_if_fail (SPS_IS_SOURCE_RULES_EDITOR (self));

  if (!(row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), index)))
    return;

  gtk_list_box_remove (GTK_LIST_BOX (self->list), GTK_WIDGET (row));
  emit_changed (self);
}

static void
add_clicked_cb (SpsSourceRulesEditor *self)
{
  sps_source_rules_editor_add_rule (self, -1, NULL, NULL);
}

GtkWidget *
sps_source_rules_editor_new (void)
{
  return g_object_new (SPS_TYPE_SOURCE_RULES_EDITOR, NULL);
}

static void
sps_source_rules_editor_dispose (GObject *object)
{
  SpsSourceRulesEditor *self = SPS_SOURCE_RULES_EDITOR (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sps_source_rules_editor_parent_class)->dispose (object);
}

static void
sps_source_rules_editor_class_init (SpsSourceRulesEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_source_rules_editor_dispose;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "spssourcerules");
}

static void
sps_source_rules_editor_init (SpsSourceRulesEditor *self)
{
  GtkWidget *hint;
  GtkWidget *buttons;
  GtkWidget *add;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_start (self->box, 6);
  gtk_widget_set_margin_end (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);

  hint = gtk_label_new (_("Rules rewrite the start of the file names the trace writes. They are tried "
                          "from the top: the first whose prefix matches wins. They are kept for the traces of this folder."));
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_box_append (GTK_BOX (self->box), hint);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  gtk_box_append (GTK_BOX (self->box), self->list);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  add = gtk_button_new_with_mnemonic (_("_Add Rule"));
  gtk_widget_set_name (add, "add-rule");
  g_signal_connect_swapped (add, "clicked", G_CALLBACK (add_clicked_cb), self);
  gtk_box_append (GTK_BOX (buttons), add);
  gtk_box_append (GTK_BOX (self->box), buttons);
}
