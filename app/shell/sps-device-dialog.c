/* sps-device-dialog.c: choose a serial device to capture from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Lists the USB serial devices (SpsDeviceMonitor: updated when a board is
 * plugged in or out), with a path entry for any other port, and the line
 * speed. "Start" emits ::device-chosen with the path and the speed and
 * closes the dialog.
 */

#define G_LOG_DOMAIN "sps-device-dialog"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-device-dialog.h"
#include "sps-device-monitor.h"

struct _SpsDeviceDialog
{
  GtkWindow         parent_instance;

  SpsDeviceMonitor *monitor;
  GtkListBox       *list;
  GtkEntry         *path_entry;
  GtkDropDown      *baud_dropdown;
  GtkButton        *start_button;
  GtkLabel         *empty_label;
};

G_DEFINE_FINAL_TYPE (SpsDeviceDialog, sps_device_dialog, GTK_TYPE_WINDOW)

enum {
  DEVICE_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const bauds[] = {
  "9600", "19200", "38400", "57600", "115200", "230400", "460800", "921600",
  "1000000", "2000000", "3000000", "4000000", NULL,
};
#define DEFAULT_BAUD 4   /* 115200 */

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  SpsSerialDevice *device = item;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *label = sps_serial_device_dup_label (device);
  GtkWidget *title = gtk_label_new (label);
  GtkWidget *path = gtk_label_new (sps_serial_device_get_path (device));

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (path), 0);
  gtk_widget_add_css_class (path, "dim-label");
  gtk_widget_add_css_class (path, "caption");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), path);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);

  return box;
}

static void
update (SpsDeviceDialog *self)
{
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  gtk_widget_set_sensitive (GTK_WIDGET (self->start_button), path != NULL && path[0] != '\0');
}

static void
on_row_selected (SpsDeviceDialog *self,
                 GtkListBoxRow   *row)
{
  g_autoptr(SpsSerialDevice) device = NULL;

  if (row == NULL)
    return;

  device = g_list_model_get_item (G_LIST_MODEL (self->monitor), gtk_list_box_row_get_index (row));
  if (device != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->path_entry), sps_serial_device_get_path (device));
}

/**
 * sps_device_dialog_start:
 * @self: a #SpsDeviceDialog
 *
 * What "Start" does: emits ::device-chosen with the entered path and the
 * speed, then closes the dialog. Nothing happens without a path.
 */
void
sps_device_dialog_start (SpsDeviceDialog *self)
{
  const char *path;

  g_return_if_fail (SPS_IS_DEVICE_DIALOG (self));

  path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  if (path == NULL || path[0] == '\0')
    return;

  g_signal_emit (self, signals[DEVICE_CHOSEN], 0, path, sps_device_dialog_get_baud (self));
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
sps_device_dialog_dispose (GObject *object)
{
  SpsDeviceDialog *self = SPS_DEVICE_DIALOG (object);

  g_clear_object (&self->monitor);

  G_OBJECT_CLASS (sps_device_dialog_parent_class)->dispose (object);
}

static void
sps_device_dialog_class_init (SpsDeviceDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_device_dialog_dispose;

  /**
   * SpsDeviceDialog::device-chosen:
   * @self: the dialog
   * @path: the device path
   * @baud: the line speed
   */
  signals[DEVICE_CHOSEN] =
    g_signal_new ("device-chosen",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_UINT);
}

static void
sps_device_dialog_init (SpsDeviceDialog *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *path_label = gtk_label_new_with_mnemonic (_("_Device"));
  GtkWidget *baud_label = gtk_label_new_with_mnemonic (_("_Baud rate"));
  GtkWidget *heading = gtk_label_new (_("USB serial devices"));

  self->monitor = sps_device_monitor_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Open Device"));
  gtk_window_set_default_size (GTK_WINDOW (self), 460, 420);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);

  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), self);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  self->start_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Start")));
  gtk_widget_add_css_class (GTK_WIDGET (self->start_button), "suggested-action");
  g_signal_connect_swapped (self->start_button, "clicked", G_CALLBACK (sps_device_dialog_start), self);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), GTK_WIDGET (self->start_button));
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (box), heading);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (self->monitor), create_row, NULL, NULL);
  /* Shown by the list while it is empty; a build without libgudev cannot
   * see devices at all, which is not the same as none being plugged in */
  if (sps_device_monitor_is_available ())
    self->empty_label = GTK_LABEL (gtk_label_new (_("No USB serial device is plugged in. Connect a board, or type the path of a port below.")));
  else
    self->empty_label = GTK_LABEL (gtk_label_new (_("This build of Spanscope cannot discover devices (it was built without libgudev). Type the path of a port below.")));
  gtk_label_set_wrap (self->empty_label, TRUE);
  gtk_label_set_justify (self->empty_label, GTK_JUSTIFY_CENTER);
  gtk_widget_set_margin_start (GTK_WIDGET (self->empty_label), 24);
  gtk_widget_set_margin_end (GTK_WIDGET (self->empty_label), 24);
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "dim-label");
  gtk_list_box_set_placeholder (self->list, GTK_WIDGET (self->empty_label));
  g_signal_connect_swapped (self->list, "row-selected", G_CALLBACK (on_row_selected), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), scroller);


  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_label_set_xalign (GTK_LABEL (path_label), 1);
  gtk_label_set_xalign (GTK_LABEL (baud_label), 1);
  self->path_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->path_entry, "/dev/ttyACM0");
  gtk_widget_set_hexpand (GTK_WIDGET (self->path_entry), TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (path_label), GTK_WIDGET (self->path_entry));
  g_signal_connect_swapped (self->path_entry, "changed", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->path_entry, "activate", G_CALLBACK (sps_device_dialog_start), self);
  self->baud_dropdown = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char * const *) bauds));
  gtk_drop_down_set_selected (self->baud_dropdown, DEFAULT_BAUD);
  gtk_label_set_mnemonic_widget (GTK_LABEL (baud_label), GTK_WIDGET (self->baud_dropdown));
  gtk_grid_attach (GTK_GRID (grid), path_label, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->path_entry), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), baud_label, 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->baud_dropdown), 1, 1, 1, 1);
  gtk_box_append (GTK_BOX (box), grid);

  gtk_window_set_child (GTK_WINDOW (self), box);

  update (self);
}

SpsDeviceDialog *
sps_device_dialog_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (SPS_TYPE_DEVICE_DIALOG, "transient-for", parent, NULL);
}

const char *
sps_device_dialog_get_path (SpsDeviceDialog *self)
{
  g_return_val_if_fail (SPS_IS_DEVICE_DIALOG (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
}

void
sps_device_dialog_set_path (SpsDeviceDialog *self,
                            const char      *path)
{
  g_return_if_fail (SPS_IS_DEVICE_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path != NULL ? path : "");
}

guint
sps_device_dialog_get_baud (SpsDeviceDialog *self)
{
  guint selected;

  g_return_val_if_fail (SPS_IS_DEVICE_DIALOG (self), 0);

  selected = gtk_drop_down_get_selected (self->baud_dropdown);
  if (selected >= G_N_ELEMENTS (bauds) - 1)
    selected = DEFAULT_BAUD;

  return (guint) g_ascii_strtoull (bauds[selected], NULL, 10);
}

/* (transfer none): the USB serial devices listed */
GListModel *
sps_device_dialog_get_devices (SpsDeviceDialog *self)
{
  g_return_val_if_fail (SPS_IS_DEVICE_DIALOG (self), NULL);

  return G_LIST_MODEL (self->monitor);
}
