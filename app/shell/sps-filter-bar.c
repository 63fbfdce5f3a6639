/* sps-filter-bar.c: the timeline's controls above it: minimum duration,
 * focus mode, classification chips
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-filter-bar"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-filter-bar.h"

/**
 * SpsFilterBar:
 *
 * A bar above the timeline, where Perfetto keeps its track filters: a
 * minimum duration (an entry taking any unit, as sps_time_parse() reads
 * it, and a slider on a logarithmic scale from 0 to the longest slice),
 * focus mode ("Focus": only what leads to and from the selected slice,
 * with a depth of 1 to 5 flow hops, a direction and, when asked, parent
 * and child hops too) and a chip per
 * classification class, which a click turns from "any" to "only" to
 * "hide" and back. The state lives in the #SpsSession (which forwards it
 * to its view filter); the bar mirrors it.
 *
 * Widgets that tests look up carry names: "min-duration-entry",
 * "min-duration-scale", "focus-toggle", "focus-depth",
 * "focus-direction", "focus-parent-child", "class-chip-NAME" for each chip, "new-class-name",
 * "new-class-kind", "new-class-pattern", "flags-button" and "flag-list".
 * A "+" after the chips makes a class of the user's: a name and a rule
 * (a glob on names or on category tokens, or an argument's name).
 * "Categories" lists a chip per category token ("token-chip-TOKEN"): its
 * first click makes the token a class, "category:TOKEN", required; then
 * excluded (a slice with that token among others goes too, unlike the
 * Filters panel's check boxes, which hide a slice once all its tokens
 * are hidden), then neither. A "Flags" button lists the session's flags (time markers:
 * M, or a double click on the ruler, adds one) with their names to edit,
 * a button to go to each and one to delete it.
 */
struct _SpsFilterBar
{
  GtkBox          parent_instance;

  SpsSession     *session;
  SpsTime         longest;       /* the slider's right end */
  gboolean        syncing;

  GtkEntry       *min_entry;
  GtkScale       *min_scale;
  GtkToggleButton *focus_toggle;
  GtkSpinButton  *focus_depth;
  GtkDropDown    *focus_direction;
  GtkCheckButton *focus_parent_child;
  GtkBox         *chips;
  GtkMenuButton  *flags_button;
  GtkListBox     *flag_list;
  GtkMenuButton  *new_class_button;
  GtkMenuButton  *tokens_button;
  GtkFlowBox     *tokens;
  GtkEntry       *class_name;
  GtkDropDown    *class_kind;
  GtkEntry       *class_pattern;
};

G_DEFINE_FINAL_TYPE (SpsFilterBar, sps_filter_bar, GTK_TYPE_BOX)

/* The slider's range: 0 … SCALE_STEPS, 0 being "no minimum" */
#define SCALE_STEPS 1000.0

static const SpsFocusDirection directions[] = {
  SPS_FOCUS_BOTH, SPS_FOCUS_INCOMING, SPS_FOCUS_OUTGOING,
};

/* A slider position to a duration: 1 ns at the first step up to the
 * longest slice at the end, evenly in log scale */
static SpsTime
duration_for_value (SpsFilterBar *self,
                    double        value)
{
  double ln_max;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (value <= 0 || self->longest <= 1)
    return 0;
  ln_max = log ((double) self->longest);
  return (SpsTime) llround (exp (ln_max * MIN (value, SCALE_STEPS) / SCALE_STEPS));
}

/**
 * sps_filter_bar_value_for_duration:
 * @self: a #SpsFilterBar
 * @duration: ns
 *
 * Returns: the slider's position for @duration (0 for none)
 */
double
sps_filter_bar_value_for_duration (SpsFilterBar *self,
                                   SpsTime       duration)
{
  g_return_val_if_fail (SPS_IS_FILTER_BAR (self), 0);

  if (duration <= 0 || self->longest <= 1)
    return 0;
  return CLAMP (SCALE_STEPS * log ((double) duration) / log ((double) self->longest), 0, SCALE_STEPS);
}

/* The class of a category token's chip: data, so not translated (the
 * trace's settings keep it) */
static char *
token_class (const char *token)
{
  return g_strconcat ("category:", token, NULL);
}

static void
update_chip (GtkButton     *chip,
             const char    *name,
             SpsClassState  state)
{
  g_autofree char *label = NULL;

  gtk_widget_remove_css_class (GTK_WIDGET (chip), "suggested-action");
  gtk_widget_remove_css_class (GTK_WIDGET (chip), "destructive-action");
  switch (state)
    {
    case SPS_CLASS_REQUIRED:
      /* Translators: a classification chip that shows only its class */
      label = g_strdup_printf (_("Only %s"), name);
      gtk_widget_add_css_class (GTK_WIDGET (chip), "suggested-action");
      break;
    case SPS_CLASS_EXCLUDED:
      /* Translators: a classification chip that hides its class */
      label = g_strdup_printf (_("Hide %s"), name);
      gtk_widget_add_css_class (GTK_WIDGET (chip), "destructive-action");
      break;
    case SPS_CLASS_ANY:
    default:
      label = g_strdup (name);
      break;
    }
  gtk_button_set_label (chip, label);
}

/* The bar from the session's state */
static void
sync_from_session (SpsFilterBar *self)
{
  SpsTime min;
  GtkWidget *child;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL)
    return;

  self->syncing = TRUE;

  min = sps_session_get_min_duration (self->session);
  if (min == 0)
    gtk_editable_set_text (GTK_EDITABLE (self->min_entry), "");
  else
    {
      g_autofree char *text = sps_time_format (min);

      gtk_editable_set_text (GTK_EDITABLE (self->min_entry), text);
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->min_entry), "error");
  /* The slider keeps its own position when it is the one that moved */
  if (duration_for_value (self, gtk_range_get_value (GTK_RANGE (self->min_scale))) != min)
    gtk_range_set_value (GTK_RANGE (self->min_scale), sps_filter_bar_value_for_duration (self, min));

  gtk_toggle_button_set_active (self->focus_toggle, sps_session_get_focus (self->session));
  gtk_spin_button_set_value (self->focus_depth, sps_session_get_focus_depth (self->session));
  for (guint i = 0; i < G_N_ELEMENTS (directions); i++)
    if (directions[i] == sps_session_get_focus_direction (self->session))
      gtk_drop_down_set_selected (self->focus_direction, i);
  gtk_check_button_set_active (self->focus_parent_child, sps_session_get_focus_parent_child (self->session));

  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->chips));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *name = g_object_get_data (G_OBJECT (child), "class-name");

      update_chip (GTK_BUTTON (child), name, sps_session_get_class_state (self->session, name));
    }

  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->tokens));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *chip = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));
      const char *token = g_object_get_data (G_OBJECT (chip), "token");
      g_autofree char *name = token_class (token);

      update_chip (GTK_BUTTON (chip), token, sps_session_get_class_state (self->session, name));
    }

  self->syncing = FALSE;
}

static void
min_entry_activate_cb (SpsFilterBar *self,
                       GtkEntry     *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autoptr(GError) error = NULL;
  SpsTime min = 0;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL)
    return;

  /* Empty shows every slice */
  if (*text != '\0' && !sps_time_parse (text, &min, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
      return;
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), _("Hide slices shorter than this (e.g. 1ms, 250us)"));
  gtk_range_set_value (GTK_RANGE (self->min_scale), sps_filter_bar_value_for_duration (self, min));
  sps_session_set_min_duration (self->session, MAX (min, 0));
  sync_from_session (self);
}

static void
min_scale_changed_cb (SpsFilterBar *self,
                      GtkRange     *range)
{
  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->syncing || self->session == NULL)
    return;

  sps_session_set_min_duration (self->session, duration_for_value (self, gtk_range_get_value (range)));
  sync_from_session (self);
}

static char *
format_scale_value_cb (GtkScale *scale,
                       double    value,
                       gpointer  user_data)
{
  SpsFilterBar *self = user_data;
  SpsTime min = duration_for_value (self, value);

  /* Translators: the minimum duration slider at its left end */
  return min == 0 ? g_strdup (C_("min-duration", "all")) : sps_time_format (min);
}

static void
focus_toggled_cb (SpsFilterBar    *self,
                  GtkToggleButton *toggle)
{
  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->syncing || self->session == NULL)
    return;

  sps_session_set_focus (self->session, gtk_toggle_button_get_active (toggle));
}

static void
focus_depth_changed_cb (SpsFilterBar  *self,
                        GtkSpinButton *spin)
{
  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->syncing || self->session == NULL)
    return;

  sps_session_set_focus_depth (self->session, gtk_spin_button_get_value_as_int (spin));
}

static void
focus_direction_changed_cb (SpsFilterBar *self,
                            GParamSpec   *pspec,
                            GtkDropDown  *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->syncing || self->session == NULL || selected >= G_N_ELEMENTS (directions))
    return;

  sps_session_set_focus_direction (self->session, directions[selected]);
}

static void
focus_parent_child_toggled_cb (SpsFilterBar   *self,
                               GtkCheckButton *check)
{
  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->syncing || self->session == NULL)
    return;

  sps_session_set_focus_parent_child (self->session, gtk_check_button_get_active (check));
}

static void
chip_clicked_cb (SpsFilterBar *self,
                 GtkButton    *chip)
{
  const char *name = g_object_get_data (G_OBJECT (chip), "class-name");
  SpsClassState state;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL)
    return;

  /* any → only → hide → any */
  state = sps_session_get_class_state (self->session, name);
  sps_session_set_class_state (self->session, name, (state + 1) % (SPS_CLASS_EXCLUDED + 1));
}

static void
rebuild_chips (SpsFilterBar *self)
{
  g_auto(GStrv) names = NULL;
  GtkWidget *child;

  g_assert (SPS_IS_FILTER_BAR (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chips))) != NULL)
    gtk_box_remove (self->chips, child);

  if (self->session == NULL)
    return;

  names = sps_session_dup_class_names (self->session);
  for (guint i = 0; names[i] != NULL; i++)
    {
      GtkWidget *chip = gtk_button_new_with_label (names[i]);
      g_autofree char *widget_name = g_strdup_printf ("class-chip-%s", names[i]);

      gtk_widget_set_name (chip, widget_name);
      gtk_widget_add_css_class (chip, "sps-chip");
      gtk_widget_set_tooltip_text (chip, _("Click to show only this class, again to hide it, again to show all"));
      g_object_set_data_full (G_OBJECT (chip), "class-name", g_strdup (names[i]), g_free);
      g_signal_connect_object (chip, "clicked", G_CALLBACK (chip_clicked_cb), self, G_CONNECT_SWAPPED);
      gtk_box_append (self->chips, chip);
    }
}

static const SpsClassRuleKind rule_kinds[] = {
  SPS_CLASS_RULE_NAME, SPS_CLASS_RULE_CATEGORY, SPS_CLASS_RULE_ARG,
};

/* "+": a class of the user's from its name and one rule; more rules for
 * the same name add to it */
static void
new_class_cb (SpsFilterBar *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->class_name));
  const char *pattern = gtk_editable_get_text (GTK_EDITABLE (self->class_pattern));
  guint kind = gtk_drop_down_get_selected (self->class_kind);
  g_autoptr(GError) error = NULL;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL || *name == '\0' || *pattern == '\0' || kind >= G_N_ELEMENTS (rule_kinds) ||
      g_str_equal (name, "categories-shown"))
    return;

  if (!sps_session_add_class_rule (self->session, name, rule_kinds[kind], pattern, NULL, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->class_name), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->class_name), error->message);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->class_name), "error");
  gtk_editable_set_text (GTK_EDITABLE (self->class_pattern), "");
  rebuild_chips (self);
  sync_from_session (self);
  gtk_menu_button_popdown (self->new_class_button);
}

/* A category token's chip: its class is made on the first click */
static void
token_chip_clicked_cb (SpsFilterBar *self,
                       GtkButton    *chip)
{
  const char *token = g_object_get_data (G_OBJECT (chip), "token");
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;
  SpsClassState state;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL)
    return;

  name = token_class (token);
  if (sps_view_filter_lookup_class (sps_session_get_view_filter (self->session), name) < 0 &&
      !sps_session_add_class_rule (self->session, name, SPS_CLASS_RULE_CATEGORY, token, NULL, &error))
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (chip), error->message);
      return;
    }
  state = sps_session_get_class_state (self->session, name);
  sps_session_set_class_state (self->session, name, (state + 1) % (SPS_CLASS_EXCLUDED + 1));
  update_chip (chip, token, sps_session_get_class_state (self->session, name));
  rebuild_chips (self);
  sync_from_session (self);
}

static void
rebuild_tokens (SpsFilterBar *self)
{
  const guint32 *tokens;
  GtkWidget *child;
  guint n = 0;

  g_assert (SPS_IS_FILTER_BAR (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->tokens))) != NULL)
    gtk_flow_box_remove (self->tokens, child);
  if (self->session == NULL)
    return;

  tokens = sps_session_get_categories (self->session, &n);
  for (guint i = 0; i < n; i++)
    {
      const char *token = sps_trace_get_string (sps_session_get_trace (self->session), tokens[i]);
      g_autofree char *trimmed = g_strstrip (g_strdup (token != NULL ? token : ""));
      g_autofree char *widget_name = g_strdup_printf ("token-chip-%s", trimmed);
      GtkWidget *chip;

      /* An empty category cannot be a glob of its own */
      if (*trimmed == '\0')
        continue;
      chip = gtk_button_new_with_label (trimmed);
      gtk_widget_set_name (chip, widget_name);
      gtk_widget_add_css_class (chip, "sps-chip");
      g_object_set_data_full (G_OBJECT (chip), "token", g_steal_pointer (&trimmed), g_free);
      g_signal_connect_object (chip, "clicked", G_CALLBACK (token_chip_clicked_cb), self, G_CONNECT_SWAPPED);
      gtk_flow_box_append (self->tokens, chip);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->tokens_button), n > 0);
}

static SpsTime
longest_slice (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  SpsTime longest = 0;

  for (guint i = 0; i < slices->n_rows; i++)
    longest = MAX (longest, slices->dur[i]);
  return longest;
}

/* Flags */

static void
flag_name_changed_cb (GtkEditable *entry,
                      SpsFlag     *flag)
{
  sps_flag_set_name (flag, gtk_editable_get_text (entry));
}

static void
flag_go_cb (SpsFilterBar *self,
            GtkButton    *button)
{
  SpsFlag *flag = g_object_get_data (G_OBJECT (button), "sps-flag");

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session != NULL && flag != NULL)
    sps_session_go_to_time (self->session, sps_flag_get_time (flag));
}

static void
flag_delete_cb (SpsFilterBar *self,
                GtkButton    *button)
{
  SpsFlag *flag = g_object_get_data (G_OBJECT (button), "sps-flag");

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session != NULL && flag != NULL)
    sps_session_remove_flag (self->session, flag);
}

static void
add_flag_cb (SpsFilterBar *self)
{
  SpsTime start;
  SpsTime end;

  g_assert (SPS_IS_FILTER_BAR (self));

  if (self->session == NULL)
    return;
  start = sps_session_get_visible_start (self->session);
  end = sps_session_get_visible_end (self->session);
  sps_session_add_flag (self->session, start + (end - start) / 2, NULL);
}

static GtkWidget *
make_flag_row (SpsFilterBar *self,
               SpsFlag      *flag)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_entry_new ();
  GtkWidget *when;
  GtkWidget *go;
  GtkWidget *delete;
  SpsTime start = sps_trace_get_start_time (sps_session_get_trace (self->session));
  g_autofree char *time_text = sps_time_format (sps_flag_get_time (flag) - start);

  gtk_editable_set_text (GTK_EDITABLE (name), sps_flag_get_name (flag));
  gtk_widget_set_hexpand (name, TRUE);
  g_signal_connect_object (name, "changed", G_CALLBACK (flag_name_changed_cb), flag, 0);
  when = gtk_label_new (time_text);
  gtk_widget_add_css_class (when, "dim-label");
  gtk_widget_add_css_class (when, "numeric");
  go = gtk_button_new_from_icon_name ("find-location-symbolic");
  gtk_widget_set_tooltip_text (go, _("Go to this flag"));
  delete = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_tooltip_text (delete, _("Delete this flag"));
  gtk_widget_add_css_class (go, "flat");
  gtk_widget_add_css_class (delete, "flat");
  g_object_set_data_full (G_OBJECT (go), "sps-flag", g_object_ref (flag), g_object_unref);
  g_object_set_data_full (G_OBJECT (delete), "sps-flag", g_object_ref (flag), g_object_unref);
  g_signal_connect_object (go, "clicked", G_CALLBACK (flag_go_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (delete, "clicked", G_CALLBACK (flag_delete_cb), self, G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (row), name);
  gtk_box_append (GTK_BOX (row), when);
  gtk_box_append (GTK_BOX (row), go);
  gtk_box_append (GTK_BOX (row), delete);
  return row;
}

static void
rebuild_flags (SpsFilterBar *self)
{
  GListModel *flags;
  GtkWidget *child;
  guint n;
  g_autofree char *label = NULL;

  g_assert (SPS_IS_FILTER_BAR (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->flag_list))) != NULL)
    gtk_list_box_remove (self->flag_list, child);

  if (self->session == NULL)
    return;

  flags = sps_session_get_flags (self->session);
  n = g_list_model_get_n_items (flags);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);

      gtk_list_box_append (self->flag_list, make_flag_row (self, flag));
    }
  /* Translators: the button that lists the flags (time markers), with how many */
  label = n > 0 ? g_strdup_printf (_("Flags (%u)"), n) : g_strdup (_("Flags"));
  gtk_menu_button_set_label (self->flags_button, label);
}

static void
flags_changed_cb (SpsFilterBar *self)
{
  rebuild_flags (self);
}

static void
sps_filter_bar_dispose (GObject *object)
{
  SpsFilterBar *self = SPS_FILTER_BAR (object);

  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_filter_bar_parent_class)->dispose (object);
}

static void
sps_filter_bar_class_init (SpsFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_filter_bar_dispose;
}

static GtkWidget *
add_label (SpsFilterBar *self,
           const char   *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (self), label);
  return label;
}

static void
sps_filter_bar_init (SpsFilterBar *self)
{
  const char *direction_names[] = {
    /* Translators: focus mode follows flows in both directions */
    N_("Both ways"),
    /* Translators: focus mode follows flows into the selected slice */
    N_("Incoming"),
    /* Translators: focus mode follows flows out of the selected slice */
    N_("Outgoing"),
    NULL,
  };
  g_autoptr(GtkStringList) direction_list = gtk_string_list_new (NULL);
  GtkWidget *separator;
  GtkWidget *flags_box;
  GtkWidget *hint;
  GtkWidget *add;
  GtkWidget *popover;
  GtkWidget *class_box;
  GtkWidget *spacer;
  GtkWidget *tokens_scroller;
  GtkWidget *chips_scroller;
  GtkStringList *kinds;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self), "toolbar");

  /* Translators: the minimum duration of the slices shown */
  add_label (self, _("Min duration"));
  self->min_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->min_entry), "min-duration-entry");
  gtk_editable_set_width_chars (GTK_EDITABLE (self->min_entry), 9);
  /* Translators: the minimum duration entry when no minimum is set */
  gtk_entry_set_placeholder_text (self->min_entry, C_("min-duration", "none"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->min_entry), _("Hide slices shorter than this (e.g. 1ms, 250us)"));
  g_signal_connect_object (self->min_entry, "activate", G_CALLBACK (min_entry_activate_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->min_entry));

  self->min_scale = GTK_SCALE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, SCALE_STEPS, 1));
  gtk_widget_set_name (GTK_WIDGET (self->min_scale), "min-duration-scale");
  gtk_widget_set_size_request (GTK_WIDGET (self->min_scale), 110, -1);
  gtk_scale_set_draw_value (self->min_scale, FALSE);
  gtk_scale_set_format_value_func (self->min_scale, format_scale_value_cb, self, NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->min_scale), _("Hide the shorter slices"));
  g_signal_connect_object (self->min_scale, "value-changed", G_CALLBACK (min_scale_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->min_scale));

  separator = gtk_separator_new (GTK_ORIENTATION_VERTICAL);
  gtk_box_append (GTK_BOX (self), separator);

  /* Translators: a toggle that shows only the slices linked to the selection */
  self->focus_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Focus")));
  gtk_widget_set_name (GTK_WIDGET (self->focus_toggle), "focus-toggle");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->focus_toggle),
                               _("Show only what leads to and from the selected slice"));
  g_signal_connect_object (self->focus_toggle, "toggled", G_CALLBACK (focus_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->focus_toggle));

  self->focus_depth = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, SPS_SESSION_MAX_FOCUS_DEPTH, 1));
  gtk_widget_set_name (GTK_WIDGET (self->focus_depth), "focus-depth");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->focus_depth), _("How many flow hops focus follows"));
  g_signal_connect_object (self->focus_depth, "value-changed", G_CALLBACK (focus_depth_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->focus_depth));

  for (guint i = 0; direction_names[i] != NULL; i++)
    gtk_string_list_append (direction_list, _(direction_names[i]));
  self->focus_direction = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&direction_list)), NULL));
  gtk_widget_set_name (GTK_WIDGET (self->focus_direction), "focus-direction");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->focus_direction), _("Which flows focus follows"));
  g_signal_connect_object (self->focus_direction, "notify::selected", G_CALLBACK (focus_direction_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->focus_direction));

  /* Translators: focus mode also follows nesting, not only flows */
  self->focus_parent_child = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (_("Nesting")));
  gtk_widget_set_name (GTK_WIDGET (self->focus_parent_child), "focus-parent-child");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->focus_parent_child),
                               _("Each hop of focus also goes to the enclosing slice (incoming) and the nested ones (outgoing)"));
  g_signal_connect_object (self->focus_parent_child, "toggled", G_CALLBACK (focus_parent_child_toggled_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->focus_parent_child));

  separator = gtk_separator_new (GTK_ORIENTATION_VERTICAL);
  gtk_box_append (GTK_BOX (self), separator);

  /* Translators: the classification chips follow */
  add_label (self, _("Classes"));
  self->chips = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4));
  /* The chips are the part of the bar that grows with the trace and the
   * translation: they scroll sideways when the window is too narrow for
   * all of them, so the controls after them (Flags) are never cut off */
  chips_scroller = gtk_scrolled_window_new ();
  gtk_widget_set_name (chips_scroller, "chips-scroller");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (chips_scroller), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (chips_scroller), TRUE);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (chips_scroller), 48);
  gtk_widget_set_hexpand (chips_scroller, FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (chips_scroller), GTK_WIDGET (self->chips));
  gtk_box_append (GTK_BOX (self), chips_scroller);

  /* Translators: the kinds of rule of a new class: what the glob matches */
  kinds = gtk_string_list_new ((const char *[]) { _("Name"), _("Category"), _("Argument"), NULL });
  class_box = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (class_box), 6);
  gtk_grid_set_column_spacing (GTK_GRID (class_box), 6);
  self->class_name = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->class_name), "new-class-name");
  /* Translators: placeholder of the name of a new classification class */
  gtk_entry_set_placeholder_text (self->class_name, _("Class name"));
  self->class_kind = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (kinds), NULL));
  gtk_widget_set_name (GTK_WIDGET (self->class_kind), "new-class-kind");
  self->class_pattern = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->class_pattern), "new-class-pattern");
  /* Translators: placeholder of the rule of a new class: a glob such as *Paint* */
  gtk_entry_set_placeholder_text (self->class_pattern, _("Pattern, e.g. *Paint*"));
  g_signal_connect_object (self->class_pattern, "activate", G_CALLBACK (new_class_cb), self, G_CONNECT_SWAPPED);
  add = gtk_button_new_with_label (_("Add Class"));
  g_signal_connect_object (add, "clicked", G_CALLBACK (new_class_cb), self, G_CONNECT_SWAPPED);
  gtk_grid_attach (GTK_GRID (class_box), GTK_WIDGET (self->class_name), 0, 0, 2, 1);
  gtk_grid_attach (GTK_GRID (class_box), GTK_WIDGET (self->class_kind), 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (class_box), GTK_WIDGET (self->class_pattern), 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (class_box), add, 0, 2, 2, 1);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), class_box);
  self->new_class_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_icon_name (self->new_class_button, "list-add-symbolic");
  gtk_menu_button_set_popover (self->new_class_button, popover);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->new_class_button), _("A class of your own: slices whose name, category or arguments match"));
  gtk_box_insert_child_after (GTK_BOX (self), GTK_WIDGET (self->new_class_button), chips_scroller);

  self->tokens = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->tokens, GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (self->tokens, 6);
  tokens_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (tokens_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (tokens_scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (tokens_scroller), 300);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (tokens_scroller), GTK_WIDGET (self->tokens));
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), tokens_scroller);
  self->tokens_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_widget_set_name (GTK_WIDGET (self->tokens_button), "tokens-button");
  /* Translators: opens a chip per category token */
  gtk_menu_button_set_label (self->tokens_button, _("Categories"));
  gtk_menu_button_set_popover (self->tokens_button, popover);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->tokens_button),
                               _("A chip per category: show only its slices, or hide them"));
  gtk_box_insert_child_after (GTK_BOX (self), GTK_WIDGET (self->tokens_button), GTK_WIDGET (self->new_class_button));
  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (self), spacer);

  flags_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  hint = gtk_label_new (_("M, or a double click on the ruler, adds a flag"));
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_box_append (GTK_BOX (flags_box), hint);
  self->flag_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_set_name (GTK_WIDGET (self->flag_list), "flag-list");
  gtk_list_box_set_selection_mode (self->flag_list, GTK_SELECTION_NONE);
  gtk_box_append (GTK_BOX (flags_box), GTK_WIDGET (self->flag_list));
  /* Translators: adds a flag in the middle of the view */
  add = gtk_button_new_with_label (_("Add a Flag"));
  g_signal_connect_object (add, "clicked", G_CALLBACK (add_flag_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (flags_box), add);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), flags_box);
  self->flags_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_widget_set_name (GTK_WIDGET (self->flags_button), "flags-button");
  gtk_menu_button_set_label (self->flags_button, _("Flags"));
  gtk_menu_button_set_popover (self->flags_button, popover);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->flags_button), _("Time markers: list, go to, rename, delete"));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->flags_button));
}

/**
 * sps_filter_bar_new:
 *
 * Returns: (transfer floating): a bar without a session
 */
GtkWidget *
sps_filter_bar_new (void)
{
  return g_object_new (SPS_TYPE_FILTER_BAR, NULL);
}

/**
 * sps_filter_bar_get_session:
 * @self: a #SpsFilterBar
 *
 * Returns: (transfer none) (nullable): the session
 */
SpsSession *
sps_filter_bar_get_session (SpsFilterBar *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_BAR (self), NULL);

  return self->session;
}

/**
 * sps_filter_bar_set_session:
 * @self: a #SpsFilterBar
 * @session: (nullable): the session whose controls the bar shows
 */
void
sps_filter_bar_set_session (SpsFilterBar *self,
                            SpsSession   *session)
{
  g_return_if_fail (SPS_IS_FILTER_BAR (self));
  g_return_if_fail (session == NULL || SPS_IS_SESSION (session));

  if (self->session == session)
    return;

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_signal_handlers_disconnect_by_data (sps_session_get_flags (self->session), self);
    }
  g_set_object (&self->session, session);
  self->longest = session != NULL ? longest_slice (sps_session_get_trace (session)) : 0;

  rebuild_chips (self);
  rebuild_tokens (self);
  rebuild_flags (self);
  if (session != NULL)
    {
      g_signal_connect_object (session, "filters-changed", G_CALLBACK (sync_from_session), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (sps_session_get_flags (session), "items-changed", G_CALLBACK (flags_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  sync_from_session (self);
}
