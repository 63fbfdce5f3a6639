/* sps-source-scheme.c: the source views' colour scheme follows the
 * application's light or dark theme
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The views that show text in a GtkSourceView (the SQL editor, the
 * source viewer) pick the Adwaita scheme of the theme that Preferences ▸
 * Colour scheme sets (the GtkSettings property
 * gtk-application-prefer-dark-theme). GtkSourceView is their
 * dependency, not this library's, so the helper hands them the scheme's
 * id and they set it.
 */

#define G_LOG_DOMAIN "sps-source-scheme"

#include "config.h"

#include "sps-source-scheme.h"

typedef struct
{
  SpsSourceSchemeFunc func;
  gpointer            user_data;
  GDestroyNotify      destroy;
} Follower;

static void
follower_free (gpointer  data,
               GClosure *closure)
{
  Follower *follower = data;

  if (follower->destroy != NULL)
    follower->destroy (follower->user_data);
  g_free (follower);
}

static void
apply (GtkSettings *settings,
       GParamSpec  *pspec,
       Follower    *follower)
{
  gboolean dark = FALSE;

  g_assert (GTK_IS_SETTINGS (settings));
  g_assert (follower != NULL);

  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  follower->func (dark ? "Adwaita-dark" : "Adwaita", follower->user_data);
}

/**
 * sps_source_scheme_follow:
 * @widget: the widget that shows the text
 * @func: (scope notified) (closure user_data) (destroy destroy): sets the
 *   scheme
 * @user_data: data for @func, such as the view's buffer
 * @destroy: (nullable): frees @user_data when @widget is finalized
 *
 * Calls @func with the id of the style scheme of the application's theme
 * ("Adwaita" or "Adwaita-dark"), now and whenever the theme switches
 * between light and dark, until @widget is finalized.
 */
void
sps_source_scheme_follow (GtkWidget           *widget,
                          SpsSourceSchemeFunc  func,
                          gpointer             user_data,
                          GDestroyNotify       destroy)
{
  GtkSettings *settings;
  Follower *follower;
  GClosure *closure;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (func != NULL);

  follower = g_new0 (Follower, 1);
  follower->func = func;
  follower->user_data = user_data;
  follower->destroy = destroy;

  settings = gtk_widget_get_settings (widget);
  closure = g_cclosure_new (G_CALLBACK (apply), follower, follower_free);
  /* Disconnected when the widget goes */
  g_object_watch_closure (G_OBJECT (widget), closure);
  g_signal_connect_closure (settings, "notify::gtk-application-prefer-dark-theme", closure, FALSE);
  apply (settings, NULL, follower);
}
