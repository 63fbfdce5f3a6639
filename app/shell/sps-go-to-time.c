/* sps-go-to-time.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-go-to-time"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-go-to-time.h"

/**
 * SpsGoToTime:
 *
 * The popover behind "Go to Time" (G): one entry that takes a time from
 * the start of the trace in the syntax of sps_time_parse() ("12.5ms",
 * "300us", "4s", "1500ns"). A parse error is shown under the entry and
 * the popover stays open; a valid time centres the session's view on it
 * and closes the popover.
 */

struct _SpsGoToTime
{
  GtkPopover  parent_instance;

  SpsSession *session;

  GtkEntry   *entry;
  GtkButton  *go_button;
  GtkLabel   *error_label;
};

G_DEFINE_FINAL_TYPE (SpsGoToTime, sps_go_to_time, GTK_TYPE_POPOVER)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sps_go_to_time_show_error (SpsGoToTime *self,
                           const char  *message)
{
  g_assert (SPS_IS_GO_TO_TIME (self));

  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);

  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
}

static void
sps_go_to_time_activate (SpsGoToTime *self)
{
  g_autoptr(GError) error = NULL;

  g_assert (SPS_IS_GO_TO_TIME (self));

  if (!sps_go_to_time_submit (self, gtk_editable_get_text (GTK_EDITABLE (self->entry)), &error))
    sps_go_to_time_show_error (self, error->message);
}

static void
on_entry_changed (SpsGoToTime *self,
                  GtkEditable *editable)
{
  g_assert (SPS_IS_GO_TO_TIME (self));

  /* A stale error next to a corrected entry would be misleading. */
  sps_go_to_time_show_error (self, NULL);
}

static void
sps_go_to_time_show (GtkWidget *widget)
{
  SpsGoToTime *self = SPS_GO_TO_TIME (widget);

  GTK_WIDGET_CLASS (sps_go_to_time_parent_class)->show (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

static void
sps_go_to_time_dispose (GObject *object)
{
  SpsGoToTime *self = SPS_GO_TO_TIME (object);

  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), SPS_TYPE_GO_TO_TIME);

  G_OBJECT_CLASS (sps_go_to_time_parent_class)->dispose (object);
}

static void
sps_go_to_time_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SpsGoToTime *self = SPS_GO_TO_TIME (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_go_to_time_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SpsGoToTime *self = SPS_GO_TO_TIME (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sps_go_to_time_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_go_to_time_class_init (SpsGoToTimeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_go_to_time_dispose;
  object_class->get_property = sps_go_to_time_get_property;
  object_class->set_property = sps_go_to_time_set_property;

  widget_class->show = sps_go_to_time_show;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         SPS_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/spanscope/Spanscope/sps-go-to-time.ui");
  gtk_widget_class_bind_template_child (widget_class, SpsGoToTime, entry);
  gtk_widget_class_bind_template_child (widget_class, SpsGoToTime, go_button);
  gtk_widget_class_bind_template_child (widget_class, SpsGoToTime, error_label);
}

static void
sps_go_to_time_init (SpsGoToTime *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect_object (self->entry, "activate",
                           G_CALLBACK (sps_go_to_time_activate),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->go_button, "clicked",
                           G_CALLBACK (sps_go_to_time_activate),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "changed",
                           G_CALLBACK (on_entry_changed),
                           self, G_CONNECT_SWAPPED);
}

GtkWidget *
sps_go_to_time_new (void)
{
  return g_object_new (SPS_TYPE_GO_TO_TIME, NULL);
}

/**
 * sps_go_to_time_get_session:
 * @self: a #SpsGoToTime
 *
 * Returns: (transfer none) (nullable): the session it moves
 */
SpsSession *
sps_go_to_time_get_session (SpsGoToTime *self)
{
  g_return_val_if_fail (SPS_IS_GO_TO_TIME (self), NULL);

  return self->session;
}

/**
 * sps_go_to_time_set_session:
 * @self: a #SpsGoToTime
 * @session: (nullable): the session to move, or %NULL when no trace is
 *   shown
 */
void
sps_go_to_time_set_session (SpsGoToTime *self,
                            SpsSession  *session)
{
  g_return_if_fail (SPS_IS_GO_TO_TIME (self));
  g_return_if_fail (session == NULL || SPS_IS_SESSION (session));

  if (g_set_object (&self->session, session))
    {
      sps_go_to_time_show_error (self, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
    }
}

/**
 * sps_go_to_time_submit:
 * @self: a #SpsGoToTime
 * @text: what the user typed
 * @error: return location for a #GError
 *
 * Parses @text as a time from the start of the trace and moves the view
 * there, as pressing Enter in the entry does. On success the popover
 * closes.
 *
 * Returns: %TRUE if the view moved; %FALSE with @error set when @text is
 *   not a time or there is no trace
 */
gboolean
sps_go_to_time_submit (SpsGoToTime  *self,
                       const char   *text,
                       GError      **error)
{
  SpsTime offset = 0;
  SpsTime start;

  g_return_val_if_fail (SPS_IS_GO_TO_TIME (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->session == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("No trace is open"));
      return FALSE;
    }

  if (!sps_time_parse (text, &offset, error))
    return FALSE;

  start = sps_trace_get_start_time (sps_session_get_trace (self->session));

  /* The sum must stay a valid time whatever was typed. */
  if ((offset > 0 && start > G_MAXINT64 - offset) ||
      (offset < 0 && start < G_MININT64 - offset))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is too far from the start of the trace"), text);
      return FALSE;
    }

  sps_session_go_to_time (self->session, start + offset);
  /* The target stays marked */
  sps_session_mark_go_to_time (self->session, start + offset);

  sps_go_to_time_show_error (self, NULL);
  gtk_popover_popdown (GTK_POPOVER (self));

  return TRUE;
}
