/* sps-label-tooltip-private.h: a list cell's whole text as its tooltip,
 * when the cell cuts it short
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A list binds its cells again for every row scrolled into view, and
 * gtk_widget_set_tooltip_text() at each bind asks the display server
 * where the pointer is (66 µs a call under Xvfb, against 0.3 µs for the
 * label's text). The cell instead says once that it has a tooltip and
 * gives the text when one is asked for: only when the label is
 * ellipsized, as a tooltip repeating what is shown says nothing.
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* (transfer full) (nullable): @label's text when it is cut short */
static inline char *
_sps_label_dup_cut_text (GtkLabel *label)
{
  const char *text = gtk_label_get_text (label);

  if (text == NULL || text[0] == '\0' || !pango_layout_is_ellipsized (gtk_label_get_layout (label)))
    return NULL;

  return g_strdup (text);
}

static inline gboolean
_sps_label_query_tooltip (GtkWidget  *widget,
                          int         x,
                          int         y,
                          gboolean    keyboard_mode,
                          GtkTooltip *tooltip,
                          gpointer    user_data)
{
  g_autofree char *text = _sps_label_dup_cut_text (GTK_LABEL (widget));

  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Once, when the cell is made */
static inline void
_sps_label_show_cut_text (GtkWidget *label)
{
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (_sps_label_query_tooltip), NULL);
}

G_END_DECLS
