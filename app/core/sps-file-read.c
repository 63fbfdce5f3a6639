/* sps-file-read.c: reading a whole trace file, safely
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Importers read their file with read(2) into memory rather than mapping
 * it: a mapping outlives the file's size, so a trace that its producer
 * truncates or rewrites while Spanscope reads it (a normal thing: traces
 * are opened while they are still being written) would kill the program
 * with SIGBUS on the first page past the new end, even long after the
 * import, since the trace model points into the text. A read copy is a
 * snapshot: it stays valid whatever happens to the file, and a change is
 * noticed (the size or the modification time differ before and after) and
 * reported as a warning while everything read is kept.
 */

#define G_LOG_DOMAIN "sps-file-read"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-file-read.h"
#include "sps-importer.h"

/* Read per call, so that progress and cancellation are looked at often. */
#define CHUNK (((gsize) 8) * 1024 * 1024)

static const char *
describe_type (mode_t mode)
{
  if (S_ISFIFO (mode))
    return _("a FIFO");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  if (S_ISDIR (mode))
    return _("a folder");
  return _("not a file");
}

static gboolean
set_not_regular (GError     **error,
                 const char  *name,
                 mode_t       mode)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
               /* Translators: a file name, then what it is ("a FIFO",
                * "a character device"…) */
               _("%s: not a regular file (%s); traces are read from files"),
               name, describe_type (mode));
  return FALSE;
}

/**
 * sps_file_check_regular:
 * @file: a file
 * @error: a #GError
 *
 * Fails with %G_IO_ERROR_NOT_REGULAR_FILE, naming the file and what it is,
 * when @file is a FIFO, a device, a socket or a folder (symbolic links are
 * followed). Opening such a thing to read it could block for ever (a FIFO
 * without a writer) or never end (a device). A file without a local path
 * passes.
 *
 * Returns: %TRUE when @file can be read as a trace file
 */
gboolean
sps_file_check_regular (GFile   *file,
                        GError **error)
{
  g_autofree char *name = NULL;
  const char *path;
  GStatBuf st;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!(path = g_file_peek_path (file)))
    return TRUE;
  name = g_file_get_parse_name (file);
  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", name, g_strerror (saved_errno));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    return set_not_regular (error, name, st.st_mode);
  return TRUE;
}

static gboolean
same_file_state (const struct stat *a,
                 const struct stat *b)
{
  return a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
         a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/**
 * sps_file_read:
 * @file: the file to read
 * @builder: (nullable): where the file-changed warning is counted
 * @progress: (nullable): the READING fraction, and cancellation
 * @error: a #GError
 *
 * Reads the whole of @file into memory with read(2), not a mapping, so
 * that the bytes stay valid whatever happens to the file (see the top of
 * this file). A FIFO, a device or a socket is refused with
 * %G_IO_ERROR_NOT_REGULAR_FILE without blocking. When the file shrinks,
 * grows or is rewritten while it is read, what was read (up to the size
 * the file had when it was opened) is returned and the warning
 * %SPS_FILE_CHANGED_WARNING is counted on @builder. Every error names the
 * file. The bytes are followed by a NUL that is not part of their length.
 *
 * Returns: (transfer full): the contents, or %NULL on error
 */
GBytes *
sps_file_read (GFile            *file,
               SpsTraceBuilder  *builder,
               SpsProgress      *progress,
               GError          **error)
{
  g_autofree char *name = NULL;
  g_autofree char *data = NULL;
  struct stat before, after;
  const char *path;
  gboolean changed = FALSE;
  gsize size;
  gsize done = 0;
  int fd;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (builder == NULL || SPS_IS_TRACE_BUILDER (builder), NULL);

  if (!(path = g_file_peek_path (file)))
    {
      char *contents = NULL;
      gsize len = 0;

      if (!g_file_load_contents (file, progress != NULL ? sps_progress_get_cancellable (progress) : NULL,
                                 &contents, &len, NULL, error))
        return NULL;
      return g_bytes_new_take (contents, len);
    }

  name = g_file_get_parse_name (file);

  /* O_NONBLOCK: opening a FIFO without a writer must not wait for one. */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0 || fstat (fd, &before) != 0)
    {
      int saved_errno = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", name, g_strerror (saved_errno));
      return NULL;
    }
  if (!S_ISREG (before.st_mode))
    {
      close (fd);
      set_not_regular (error, name, before.st_mode);
      return NULL;
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);

  if ((guint64) before.st_size >= G_MAXSIZE ||
      !(data = g_try_malloc ((gsize) before.st_size + 1)))
    {
      g_autofree char *size_text = g_format_size_full ((guint64) before.st_size, G_FORMAT_SIZE_IEC_UNITS);

      close (fd);
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE,
                   /* Translators: a file name, then its size ("3.2 GiB") */
                   _("%s: the file (%s) does not fit in memory"), name, size_text);
      return NULL;
    }
  size = (gsize) before.st_size;

  while (done < size)
    {
      ssize_t n;

      /* Between chunks: a small file is read whole, and what a cancelled
       * import keeps is decided by the importer's parser */
      if (progress != NULL && done > 0)
        {
          if (sps_progress_is_cancelled (progress))
            {
              close (fd);
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
              return NULL;
            }
          sps_progress_set_fraction (progress, (double) done / (double) size);
        }

      n = read (fd, data + done, MIN (size - done, CHUNK));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       /* Translators: a file name, a byte offset, then an error message */
                       _("%s (byte %zu): %s"), name, done, g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        {
          /* Shorter than when it was opened: cut while being read */
          changed = TRUE;
          break;
        }
      done += (gsize) n;
    }

  /* Grown, or rewritten in place, while it was read */
  if (!changed)
    {
      char extra;

      changed = read (fd, &extra, 1) > 0 ||
                fstat (fd, &after) != 0 || !same_file_state (&before, &after);
    }
  close (fd);

  if (changed && builder != NULL)
    sps_trace_builder_warn (builder, SPS_FILE_CHANGED_WARNING,
                            /* Translators: a file name, then the size that was read */
                            N_("%s: the file changed while it was read; the %zu bytes read are kept"),
                            name, done);

  data[done] = '\0';
  if (done < size)
    data = g_realloc (data, done + 1);
  return g_bytes_new_take (g_steal_pointer (&data), done);
}
