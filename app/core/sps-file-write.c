/* sps-file-write.c: writing a file the user chose, safely
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Saving goes through g_file_replace(): a temporary file in the same
 * folder, renamed over the target when the stream is closed, so that a
 * save that fails midway leaves what was there. What GIO does not refuse
 * is a target that is not a file: opening a FIFO to replace it blocks
 * until something reads it (a save that never ends), and a device or a
 * symbolic link to one fails with an unrelated message ("Error truncating
 * file"). Such a target is refused first, naming it and what it is.
 */

#define G_LOG_DOMAIN "sps-file-write"

#include "config.h"

#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-file-read.h"
#include "sps-file-read-private.h"
#include "sps-file-write.h"

/* Symbolic links are followed: a link to a device is a device here */
static gboolean
check_replaceable (GFile   *file,
                   GError **error)
{
  const char *path = g_file_peek_path (file);
  g_autofree char *name = NULL;
  GStatBuf st;

  if (path == NULL || g_stat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE;

  name = sps_file_dup_display_name (file);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
               /* Translators: a file name, then what it is ("a FIFO",
                * "a character device"…) */
               _("%s: not a regular file (%s); it is not replaced"),
               name, _sps_file_describe_type (st.st_mode));
  return FALSE;
}

/**
 * sps_file_replace:
 * @file: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: a #GError
 *
 * Opens @file to be replaced, as g_file_replace() does (no backup, the
 * old file's permissions kept): what is written goes to a temporary file
 * that becomes @file when the stream is closed. Fails with
 * %G_IO_ERROR_NOT_REGULAR_FILE, naming @file and what it is, when @file
 * is a FIFO, a device, a socket or a folder, or a symbolic link to one.
 * A write that fails should end with sps_file_replace_abandon(), which
 * keeps what @file held.
 *
 * Returns: (transfer full) (nullable): the stream, or %NULL with @error set
 */
GFileOutputStream *
sps_file_replace (GFile         *file,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_replaceable (file, error))
    return NULL;

  return g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
}

/**
 * sps_file_replace_abandon:
 * @stream: (transfer none): a stream from sps_file_replace(), or one that
 *   writes into it
 *
 * Closes @stream without replacing the file: the temporary file is
 * removed and the file keeps what it held.
 */
void
sps_file_replace_abandon (GOutputStream *stream)
{
  g_autoptr(GCancellable) abandon = g_cancellable_new ();

  g_return_if_fail (G_IS_OUTPUT_STREAM (stream));

  /* GIO's replacing stream drops its temporary file when its close is
   * cancelled */
  g_cancellable_cancel (abandon);
  g_output_stream_close (stream, abandon, NULL);
}

/**
 * sps_file_replace_contents:
 * @file: where to write
 * @contents: what to write
 * @cancellable: (nullable): a #GCancellable
 * @error: a #GError
 *
 * Replaces @file with @contents through sps_file_replace(): @file keeps
 * what it held unless everything was written.
 *
 * Returns: %TRUE when @file holds @contents
 */
gboolean
sps_file_replace_contents (GFile         *file,
                           GBytes        *contents,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(GFileOutputStream) out = NULL;
  gsize len;
  gconstpointer data;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (!(out = sps_file_replace (file, cancellable, error)))
    return FALSE;

  data = g_bytes_get_data (contents, &len);
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), data, len, NULL, cancellable, error))
    {
      sps_file_replace_abandon (G_OUTPUT_STREAM (out));
      return FALSE;
    }

  return g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error);
}
