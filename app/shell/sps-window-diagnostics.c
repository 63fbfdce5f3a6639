/* sps-window-diagnostics.c: the memory label and the diagnostics panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The header bar shows Spanscope's resident memory ("412 MB"), read from
 * /proc/self/statm once a second while the window is mapped (a window
 * that is not shown has no timer). "win.diagnostics" (View ▸
 * Diagnostics in the main menu) docks or removes the diagnostics panel,
 * which is not there until asked for, so that it costs nothing.
 */

#define G_LOG_DOMAIN "sps-window"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-diagnostics-panel.h"
#include "sps-window-private.h"

#define PANEL_ID "diagnostics"

/**
 * _sps_window_update_memory:
 * @self: a window
 *
 * Reads the process's memory into the header bar's label now.
 */
void
_sps_window_update_memory (SpsWindow *self)
{
  g_autofree char *text = sps_diagnostics_format_rss (sps_diagnostics_read_rss ());

  g_return_if_fail (SPS_IS_WINDOW (self));

  gtk_label_set_text (self->memory_label, text);
}

static gboolean
on_memory_tick (gpointer user_data)
{
  _sps_window_update_memory (user_data);
  return G_SOURCE_CONTINUE;
}

static void
on_map (SpsWindow *self)
{
  _sps_window_update_memory (self);
  if (self->memory_tick_id == 0)
    self->memory_tick_id = g_timeout_add_seconds (1, on_memory_tick, self);
}

static void
on_unmap (SpsWindow *self)
{
  g_clear_handle_id (&self->memory_tick_id, g_source_remove);
}

/* Docks the panel when the action is on and a trace is shown */
void
_sps_window_show_diagnostics (SpsWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "diagnostics");
  g_autoptr(GVariant) state = g_action_get_state (action);

  if (self->timeline == NULL || !g_variant_get_boolean (state) ||
      _sps_window_find_panel (self, PANEL_ID) != NULL)
    return;

  _sps_window_add_panel (self, PANEL_ID, sps_diagnostics_panel_new (SPS_TIMELINE (self->timeline)),
                         _("Diagnostics"), "utilities-system-monitor-symbolic", TRUE);
}

static void
action_diagnostics (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  SpsWindow *self = user_data;

  g_simple_action_set_state (action, state);
  if (g_variant_get_boolean (state))
    _sps_window_show_diagnostics (self);
  else
    _sps_window_remove_panel (self, PANEL_ID);
}

static const GActionEntry diagnostics_actions[] = {
  { "diagnostics", NULL, NULL, "false", action_diagnostics },
};

void
_sps_window_init_diagnostics (SpsWindow *self)
{
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), diagnostics_actions,
                                   G_N_ELEMENTS (diagnostics_actions), self);

  self->memory_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->memory_label), "memory-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->memory_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->memory_label), "numeric");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->memory_label), _("Memory Spanscope uses (resident)"));
  if (GTK_IS_HEADER_BAR (titlebar))
    gtk_header_bar_pack_end (GTK_HEADER_BAR (titlebar), GTK_WIDGET (self->memory_label));

  g_signal_connect_swapped (self, "map", G_CALLBACK (on_map), self);
  g_signal_connect_swapped (self, "unmap", G_CALLBACK (on_unmap), self);
}
