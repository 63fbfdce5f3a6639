/* sps-source-panel.c: the source file of the selected item, its line marked
 *
 * When the selection changes, the panel finds the item's source location
 * (sps-source-location.c), turns its file name into local candidates with
 * the path rules of the trace's folder (sps-source-remap.c) and reads the
 * first candidate that is a regular file, on GIO's worker threads, into a
 * read-only GtkSourceView: highlighting from the file name, line numbers,
 * the location's line marked, under the cursor and scrolled to. When no
 * candidate exists, it lists every path it tried, in order, and offers a
 * rule for the file's folder.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-source-location.h"
#include "sps-source-panel.h"
#include "sps-source-remap.h"
#include "sps-source-rules-editor.h"

#define SETTINGS_SCHEMA "io.github.spanscope.Spanscope.source"
/* Sources are text a person reads; anything bigger is not one */
#define MAX_SOURCE_SIZE (16 * 1024 * 1024)
#define RELOAD_DELAY_MS 250

typedef struct
{
  SpsSourcePanel    *self;
  GCancellable      *cancellable;
  SpsSourceLocation *location;
  GPtrArray         *candidates;
  guint              next;
} Load;

struct _SpsSourcePanel
{
  GtkWidget          parent_instance;

  SpsSession        *session;
  GSettings         *settings;
  char              *folder;
  GCancellable      *cancellable;
  Load              *load;
  guint              reload_source;

  char              *path;
  guint              line;
  GPtrArray         *tried;
  char              *unmatched_prefix;

  GtkWidget         *box;
  GtkWidget         *location_label;
  GtkWidget         *rules_button;
  GtkWidget         *revealer;
  GtkWidget         *editor;
  GtkWidget         *stack;
  GtkWidget         *view;
  GtkWidget         *message_title;
  GtkWidget         *message_body;
  GtkWidget         *add_rule_button;
};

G_DEFINE_FINAL_TYPE (SpsSourcePanel, sps_source_panel, GTK_TYPE_WIDGET)

static void look_up (SpsSourcePanel *self);

static void
load_free (Load *load)
{
  g_clear_object (&load->self);
  g_clear_object (&load->cancellable);
  g_clear_pointer (&load->location, sps_source_location_free);
  g_clear_pointer (&load->candidates, g_ptr_array_unref);
  g_free (load);
}

static void
show_message (SpsSourcePanel *self,
              const char     *title,
              const char     *body,
              gboolean        offer_rule)
{
  gtk_label_set_text (GTK_LABEL (self->message_title), title);
  gtk_label_set_text (GTK_LABEL (self->message_body), body);
  gtk_widget_set_visible (self->add_rule_button, offer_rule);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "message");
}

static void
show_missing (SpsSourcePanel          *self,
              const SpsSourceLocation *location,
              GPtrArray               *tried)
{
  g_autoptr(GString) body = g_string_new (NULL);

  g_clear_pointer (&self->tried, g_ptr_array_unref);
  self->tried = g_ptr_array_ref (tried);
  g_free (self->unmatched_prefix);
  self->unmatched_prefix = sps_source_remap_unmatched_prefix (location->file);

  if (tried->len == 0)
    g_string_append_printf (body, _("No path rule maps “%s” to a file on this computer."), location->file);
  else
    {
      g_string_append (body, _("Tried, in order:"));
      for (guint i = 0; i < tried->len; i++)
        g_string_append_printf (body, "\n%s", (const char *) g_ptr_array_index (tried, i));
    }

  show_message (self, _("Source File Not Found"), body->str, TRUE);
}

static void
mark_line (SpsSourcePanel *self,
           guint           line,
           guint           column)
{
  GtkSourceBuffer *buffer = sps_source_panel_get_buffer (self);
  GtkTextIter iter;

  if (line == 0 || !gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &iter, (int) line - 1))
    {
      gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &iter);
      gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &iter);
      return;
    }

  gtk_source_buffer_create_source_mark (buffer, NULL, SPS_SOURCE_PANEL_LINE_MARK, &iter);
  /* The column is a character offset in the line when it is one */
  if (column > 1 && (int) column - 1 < gtk_text_iter_get_chars_in_line (&iter))
    gtk_text_iter_set_line_offset (&iter, (int) column - 1);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &iter);
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (buffer)),
                                0.0, TRUE, 0.0, 0.3);
}

static void
show_text (SpsSourcePanel          *self,
           const char              *path,
           const char              *contents,
           gsize                    length,
           const SpsSourceLocation *location)
{
  GtkSourceBuffer *buffer = sps_source_panel_get_buffer (self);
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  g_autofree char *valid = NULL;
  g_autofree char *basename = g_path_get_basename (path);

  /* A source with stray bytes still shows, with U+FFFD where they were */
  if (!g_utf8_validate_len (contents, length, NULL))
    contents = valid = g_utf8_make_valid (contents, (gssize) length);

  gtk_source_buffer_set_language (buffer, gtk_source_language_manager_guess_language (languages, basename, NULL));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), contents, valid != NULL ? -1 : (int) length);

  g_free (self->path);
  self->path = g_strdup (path);
  self->line = location->line;
  gtk_widget_set_tooltip_text (self->location_label, path);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "source");

  mark_line (self, location->line, location->column);
}

static void try_next (Load *load);

/* The candidate is not there (or not readable): the next one */
static void
try_other (Load *load)
{
  load->next++;
  try_next (load);
}

static gboolean
load_cancelled (Load   *load,
                GError *error)
{
  if (error == NULL || !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  load_free (load);
  return TRUE;
}

static void
load_done (Load *load)
{
  if (load->self->load == load)
    load->self->load = NULL;
  load_free (load);
}

static void
contents_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      if (load_cancelled (load, error))
        return;
      g_debug ("Cannot read %s: %s", (const char *) g_ptr_array_index (load->candidates, load->next), error->message);
      try_other (load);
      return;
    }

  show_text (load->self, g_ptr_array_index (load->candidates, load->next), contents, length, load->location);
  load_done (load);
}

static void
info_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInfo) info = g_file_query_info_finish (G_FILE (object), result, &error);

  if (load_cancelled (load, error))
    return;

  if (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      try_other (load);
      return;
    }

  if (g_file_info_get_size (info) > MAX_SOURCE_SIZE)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      g_autofree char *body = g_strdup_printf (_("%s is %s: too big to be a source file."),
                                               (const char *) g_ptr_array_index (load->candidates, load->next), size);

      show_message (load->self, _("Source File Too Big"), body, FALSE);
      load_done (load);
      return;
    }

  g_file_load_contents_async (G_FILE (object), load->cancellable, contents_cb, load);
}

static void
try_next (Load *load)
{
  g_autoptr(GFile) file = NULL;

  if (load->next >= load->candidates->len)
    {
      show_missing (load->self, load->location, load->candidates);
      load_done (load);
      return;
    }

  file = g_file_new_for_path (g_ptr_array_index (load->candidates, load->next));
  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                           G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, load->cancellable, info_cb, load);
}

static void
clear_shown (SpsSourcePanel *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (sps_source_panel_get_buffer (self));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_source_buffer_remove_source_marks (GTK_SOURCE_BUFFER (buffer), &start, &end, SPS_SOURCE_PANEL_LINE_MARK);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->tried, g_ptr_array_unref);
  g_clear_pointer (&self->unmatched_prefix, g_free);
  self->line = 0;
  gtk_widget_set_tooltip_text (self->location_label, NULL);
}

static void
look_up (SpsSourcePanel *self)
{
  const SpsSelection *selection = sps_session_get_selection (self->session);
  g_autoptr(SpsSourceLocation) location = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  g_autofree char *where = NULL;
  Load *load;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->load = NULL;
  clear_shown (self);

  if (selection->kind == SPS_SELECTION_NONE)
    {
      gtk_label_set_text (GTK_LABEL (self->location_label), "");
      show_message (self, _("No Selection"), _("Select a slice, a sample or a stack frame to see its source."), FALSE);
      return;
    }

  if (!(location = sps_source_location_find (sps_session_get_trace (self->session), selection)))
    {
      gtk_label_set_text (GTK_LABEL (self->location_label), "");
      show_message (self, _("No Source Location"), _("The selected item names no source file."), FALSE);
      return;
    }

  where = sps_source_location_to_string (location);
  if (location->function != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s — %s", location->function, where);

      gtk_label_set_text (GTK_LABEL (self->location_label), text);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->location_label), where);

  rules = sps_source_rules_editor_dup_rules (SPS_SOURCE_RULES_EDITOR (self->editor));
  load = g_new0 (Load, 1);
  load->self = g_object_ref (self);
  load->cancellable = g_cancellable_new ();
  load->candidates = sps_source_remap (location->file, rules, self->folder[0] != '\0' ? self->folder : NULL, NULL);
  load->location = g_steal_pointer (&location);
  self->cancellable = g_object_ref (load->cancellable);
  self->load = load;
  try_next (load);
}

static gboolean
reload_cb (gpointer user_data)
{
  SpsSourcePanel *self = user_data;

  self->reload_source = 0;
  look_up (self);
  return G_SOURCE_REMOVE;
}

static void
rules_changed_cb (SpsSourcePanel *self)
{
  g_autoptr(GPtrArray) rules = sps_source_rules_editor_dup_rules (SPS_SOURCE_RULES_EDITOR (self->editor));

  g_assert (SPS_IS_SOURCE_PANEL (self));

  if (self->settings != NULL)
    sps_source_rules_save (self->settings, self->folder, rules);

  /* Typing a prefix looks again once the typing pauses */
  g_clear_handle_id (&self->reload_source, g_source_remove);
  self->reload_source = g_timeout_add (RELOAD_DELAY_MS, reload_cb, self);
}

static void
add_rule_clicked_cb (SpsSourcePanel *self)
{
  g_assert (SPS_IS_SOURCE_PANEL (self));

  /* On top: the first match wins, and a rule for this file's folder is
   * more specific than any rule that matched it in vain */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->rules_button), TRUE);
  sps_source_rules_editor_add_rule (SPS_SOURCE_RULES_EDITOR (self->editor), 0,
                                    self->unmatched_prefix != NULL ? self->unmatched_prefix : "", "");
}

static void
selection_changed_cb (SpsSourcePanel *self)
{
  g_assert (SPS_IS_SOURCE_PANEL (self));

  look_up (self);
}

static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  /* An uninstalled plugin may run without the app's compiled schemas:
   * the rules then last as long as the panel. */
  if (source == NULL || !(schema = g_settings_schema_source_lookup (source, SETTINGS_SCHEMA, TRUE)))
    return NULL;

  return g_settings_new (SETTINGS_SCHEMA);
}

/* The folder whose rules apply: the trace file's; "" for a trace built in
 * memory (its rules are shared by all such traces). */
static char *
trace_folder (SpsTrace *trace)
{
  GFile *file = sps_trace_get_file (trace);
  g_autoptr(GFile) parent = file != NULL ? g_file_get_parent (file) : NULL;
  char *path = parent != NULL ? g_file_get_path (parent) : NULL;

  return path != NULL ? path : g_strdup ("");
}

GtkWidget *
sps_source_panel_new (SpsSession *session)
{
  SpsSourcePanel *self;
  g_autoptr(GPtrArray) rules = NULL;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_SOURCE_PANEL, NULL);
  self->session = g_object_ref (session);
  self->settings = new_settings ();
  self->folder = trace_folder (sps_session_get_trace (session));

  if (self->settings != NULL)
    {
      rules = sps_source_rules_load (self->settings, self->folder);
      sps_source_rules_editor_set_rules (SPS_SOURCE_RULES_EDITOR (self->editor), rules);
    }
  g_signal_connect_object (self->editor, "changed", G_CALLBACK (rules_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-changed", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  look_up (self);

  return GTK_WIDGET (self);
}

GtkSourceBuffer *
sps_source_panel_get_buffer (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), NULL);

  return GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
}

GtkSourceView *
sps_source_panel_get_view (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), NULL);

  return GTK_SOURCE_VIEW (self->view);
}

/* The local file shown, or NULL */
const char *
sps_source_panel_get_path (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), NULL);

  return self->path;
}

/* The marked line (1-based), 0 when none */
guint
sps_source_panel_get_line (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), 0);

  return self->path != NULL ? self->line : 0;
}

/* Whether a file is still being looked for or read */
gboolean
sps_source_panel_is_busy (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), FALSE);

  return self->load != NULL || self->reload_source != 0;
}

/* The paths tried in vain for the last location, in order, or NULL */
GPtrArray *
sps_source_panel_get_tried (SpsSourcePanel *self)
{
  g_return_val_if_fail (SPS_IS_SOURCE_PANEL (self), NULL);

  return self->tried;
}

static void
sps_source_panel_dispose (GObject *object)
{
  SpsSourcePanel *self = SPS_SOURCE_PANEL (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->load = NULL;
  g_clear_handle_id (&self->reload_source, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sps_source_panel_parent_class)->dispose (object);
}

static void
sps_source_panel_finalize (GObject *object)
{
  SpsSourcePanel *self = SPS_SOURCE_PANEL (object);

  g_free (self->folder);
  g_free (self->path);
  g_free (self->unmatched_prefix);
  g_clear_pointer (&self->tried, g_ptr_array_unref);

  G_OBJECT_CLASS (sps_source_panel_parent_class)->finalize (object);
}

static void
sps_source_panel_class_init (SpsSourcePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_source_panel_dispose;
  object_class->finalize = sps_source_panel_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "spssourcepanel");
}

/* The scheme of the app's light or dark theme (NULL, GtkSourceView's
 * default, where it is not installed) */
static void
set_scheme (const char *scheme_id,
            gpointer    buffer)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();

  gtk_source_buffer_set_style_scheme (buffer, gtk_source_style_scheme_manager_get_scheme (schemes, scheme_id));
}

static GtkWidget *
new_view (void)
{
  GtkWidget *view = gtk_source_view_new ();
  g_autoptr(GtkSourceMarkAttributes) attributes = gtk_source_mark_attributes_new ();
  GdkRGBA background = { 0.96, 0.76, 0.07, 0.30 };
  GtkSourceBuffer *buffer;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (view), TRUE);
  gtk_source_view_set_show_line_marks (GTK_SOURCE_VIEW (view), TRUE);
  gtk_source_view_set_highlight_current_line (GTK_SOURCE_VIEW (view), TRUE);

  gtk_source_mark_attributes_set_background (attributes, &background);
  gtk_source_mark_attributes_set_icon_name (attributes, "go-next-symbolic");
  gtk_source_view_set_mark_attributes (GTK_SOURCE_VIEW (view), SPS_SOURCE_PANEL_LINE_MARK, attributes, 0);

  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  /* The buffer lives as long as the view */
  sps_source_scheme_follow (view, set_scheme, buffer, NULL);

  return view;
}

static GtkWidget *
new_message_page (SpsSourcePanel *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  gtk_widget_set_valign (page, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (page, 18);
  gtk_widget_set_margin_end (page, 18);

  self->message_title = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->message_title, "title-4");
  gtk_box_append (GTK_BOX (page), self->message_title);

  self->message_body = gtk_label_new (NULL);
  gtk_widget_set_name (self->message_body, "source-message");
  gtk_label_set_selectable (GTK_LABEL (self->message_body), TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->message_body), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->message_body), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_justify (GTK_LABEL (self->message_body), GTK_JUSTIFY_CENTER);
  gtk_box_append (GTK_BOX (page), self->message_body);

  self->add_rule_button = gtk_button_new_with_mnemonic (_("_Add Rule…"));
  gtk_widget_set_name (self->add_rule_button, "add-rule-for-file");
  gtk_widget_set_tooltip_text (self->add_rule_button, _("Map this file’s folder to a folder on this computer"));
  gtk_widget_set_halign (self->add_rule_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->add_rule_button, "pill");
  g_signal_connect_swapped (self->add_rule_button, "clicked", G_CALLBACK (add_rule_clicked_cb), self);
  gtk_box_append (GTK_BOX (page), self->add_rule_button);

  return page;
}

static void
sps_source_panel_init (SpsSourcePanel *self)
{
  GtkWidget *header;
  GtkWidget *scroller;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (header, 6);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 3);
  gtk_widget_set_margin_bottom (header, 3);
  self->location_label = gtk_label_new (NULL);
  gtk_widget_set_name (self->location_label, "source-location");
  gtk_label_set_selectable (GTK_LABEL (self->location_label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (self->location_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (self->location_label), 0);
  gtk_widget_set_hexpand (self->location_label, TRUE);
  gtk_box_append (GTK_BOX (header), self->location_label);

  self->rules_button = gtk_toggle_button_new_with_mnemonic (_("_Path Rules"));
  gtk_widget_set_name (self->rules_button, "path-rules");
  gtk_widget_set_tooltip_text (self->rules_button, _("Edit the rules that map the trace’s file names to files on this computer"));
  gtk_box_append (GTK_BOX (header), self->rules_button);
  gtk_box_append (GTK_BOX (self->box), header);

  self->editor = sps_source_rules_editor_new ();
  self->revealer = gtk_revealer_new ();
  gtk_revealer_set_child (GTK_REVEALER (self->revealer), self->editor);
  g_object_bind_property (self->rules_button, "active", self->revealer, "reveal-child", G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (self->box), self->revealer);

  self->view = new_view ();
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->view);

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "source");
  gtk_stack_add_named (GTK_STACK (self->stack), new_message_page (self), "message");
  gtk_box_append (GTK_BOX (self->box), self->stack);
}
