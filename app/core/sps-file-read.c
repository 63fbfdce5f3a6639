/* sps-file-read.c: reading a whole trace file, safely
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A bare mapping outlives the file's size, so a trace that its producer
 * truncates or rewrites while Spanscope reads it (a normal thing: traces
 * are opened while they are still being written) would kill the program
 * with SIGBUS on the first page past the new end, even long after the
 * import, since the trace model points into the text. A large local file
 * no one writes to is mapped under a read lease that makes the mapping a
 * copy before the file may change (sps-file-map.c); everything else is
 * read with read(2) into memory. A read copy is a snapshot: it stays valid
 * whatever happens to the file, and a change is noticed (the size or the
 * modification time differ before and after) and reported as a warning
 * while everything read is kept.
 */

#define G_LOG_DOMAIN "sps-file-read"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-file-map-private.h"
#include "sps-file-read.h"
#include "sps-file-read-private.h"
#include "sps-importer.h"
#include "sps-self-trace.h"

/* Read per call, so that progress and cancellation are looked at often. */
#define CHUNK (((gsize) 8) * 1024 * 1024)
/* The most a FIFO may send, whatever the machine */
#define STREAM_MAX_SIZE (G_GUINT64_CONSTANT (16) << 30)
/* How long to wait for a FIFO's writer between looks at cancellation */
#define POLL_MS 100

typedef struct
{
  GBytes   *bytes;
  gboolean  limited;    /* cut at sps_file_get_expanded_limit() */
} Spooled;

static GQuark
spooled_quark (void)
{
  return g_quark_from_static_string ("sps-file-spooled");
}

static void
spooled_free (gpointer data)
{
  Spooled *spooled = data;

  g_bytes_unref (spooled->bytes);
  g_free (spooled);
}

static Spooled *
get_spooled (GFile *file)
{
  return g_object_get_qdata (G_OBJECT (file), spooled_quark ());
}

/**
 * sps_file_get_expanded_limit:
 *
 * The most bytes an importer holds of what it reads as a stream or
 * expands from a compressed member: the smaller of 16 GiB and half the
 * machine's physical memory, so that the trace built from them fits too.
 *
 * Returns: the limit in bytes
 */
guint64
sps_file_get_expanded_limit (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  if (pages <= 0 || page_size <= 0)
    return STREAM_MAX_SIZE;
  return MIN (STREAM_MAX_SIZE, (guint64) pages * (guint64) page_size / 2);
}

/* What a file that is not a regular one is, for messages */
const char *
_sps_file_describe_type (mode_t mode)
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
               name, _sps_file_describe_type (mode));
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

  if (!(path = g_file_peek_path (file)) || get_spooled (file) != NULL)
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
 * Reads the whole of @file into memory with read(2), or maps it under a
 * read lease that turns the mapping into a copy before anyone may change
 * the file, so that the bytes stay valid whatever happens to the file (see
 * the top of this file). A device or a socket is refused with
 * %G_IO_ERROR_NOT_REGULAR_FILE without blocking, and so is a FIFO, except
 * while sps_trace_load() reads one: then this returns what the FIFO sent
 * (read whole before the format was detected). When the file shrinks,
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
  Spooled *spooled;
  GBytes *mapped;
  gboolean changed = FALSE;
  gsize size;
  gsize done = 0;
  int fd;
  SPS_SELF_TRACE_SCOPE ("read-file");

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (builder == NULL || SPS_IS_TRACE_BUILDER (builder), NULL);

  if ((spooled = get_spooled (file)))
    {
      if (spooled->limited && builder != NULL)
        {
          g_autofree char *limit = g_format_size_full (sps_file_get_expanded_limit (), G_FORMAT_SIZE_IEC_UNITS);

          name = g_file_get_parse_name (file);
          sps_trace_builder_warn (builder, SPS_STREAM_SIZE_LIMIT_WARNING,
                                  /* Translators: a file name, then a size ("8.0 GiB") */
                                  N_("%s: the stream is larger than the limit of %s; what came before it is read"),
                                  name, limit);
        }
      return g_bytes_ref (spooled->bytes);
    }

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

  /* A large local file no one writes to is mapped instead, under a lease
   * that turns it into a copy before anyone may change it
   * (sps-file-map.c) */
  if ((mapped = _sps_file_map (fd, &before)))
    {
      close (fd);
      return mapped;
    }

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

static void
set_stream_error (GError     **error,
                  const char  *name,
                  gsize        offset,
                  int          saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               /* Translators: a file name, a byte offset, then an error message */
               _("%s (byte %zu): %s"), name, offset, g_strerror (saved_errno));
}

/* Makes room for more of a stream: twice as much, up to @limit + 1 (one
 * byte over says it is over the limit), and one byte for the NUL. */
static gboolean
grow_stream (char       **data,
             gsize       *allocated,
             guint64      limit,
             const char  *name,
             GError     **error)
{
  gsize grown = *allocated == 0 ? 64 * 1024 : (gsize) MIN ((guint64) *allocated * 2, limit + 1);
  char *bigger = g_try_realloc (*data, grown + 1);

  if (bigger == NULL)
    {
      g_autofree char *size_text = g_format_size_full (grown, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE,
                   /* Translators: a file name, then a size ("3.2 GiB") */
                   _("%s: %s of the stream do not fit in memory"), name, size_text);
      return FALSE;
    }
  *data = bigger;
  *allocated = grown;
  return TRUE;
}

/* Reads @fd, a FIFO, to its end (every writer gone) or to @limit bytes;
 * waits for a writer in slices of POLL_MS, watching @progress. */
static GBytes *
read_stream (int           fd,
             const char   *name,
             guint64       limit,
             SpsProgress  *progress,
             gboolean     *limited,
             GError      **error)
{
  g_autofree char *data = NULL;
  gsize size = 0;
  gsize allocated = 0;
  gsize reported = 0;

  *limited = FALSE;

  for (;;)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      ssize_t n;
      int ready;

      if (progress != NULL && sps_progress_is_cancelled (progress))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
          return NULL;
        }

      /* Until a writer opens the FIFO, poll() reports nothing */
      ready = poll (&pfd, 1, POLL_MS);
      if (ready < 0 && errno != EINTR)
        {
          set_stream_error (error, name, size, errno);
          return NULL;
        }
      if (ready <= 0)
        continue;

      if (size == allocated && !grow_stream (&data, &allocated, limit, name, error))
        return NULL;

      n = read (fd, data + size, MIN (allocated - size, CHUNK));
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          set_stream_error (error, name, size, errno);
          return NULL;
        }
      if (n == 0)
        break;   /* every writer closed it */
      size += (gsize) n;

      if (size > limit)
        {
          size = (gsize) limit;
          *limited = TRUE;
          break;
        }
      if (progress != NULL && size - reported >= 1024 * 1024)
        {
          g_autofree char *size_text = g_format_size (size);
          /* Translators: a file name, then how much it sent so far ("12.3 MB") */
          g_autofree char *message = g_strdup_printf (_("Reading %s: %s"), name, size_text);

          sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, message);
          reported = size;
        }
    }

  if (data == NULL)
    data = g_malloc (1);
  data[size] = '\0';

  return g_bytes_new_take (g_steal_pointer (&data), size);
}

/* Whether @file is a local FIFO (named pipe, or a pipe as /dev/stdin) */
gboolean
_sps_file_is_fifo (GFile *file)
{
  const char *path = g_file_peek_path (file);
  GStatBuf st;

  return path != NULL && g_stat (path, &st) == 0 && S_ISFIFO (st.st_mode);
}

/* If @file is a FIFO, reads everything it sends (up to sps_file_get_expanded_limit())
 * and keeps it on @file for sps_file_read() and the format detection,
 * until _sps_file_unspool(): a FIFO can be read only once, and a stream
 * from `producer | spanscope-cli info /dev/stdin` has no size to read up
 * to. Anything else is left to the ordinary checks. Waits for a writer,
 * cancellably. */
gboolean
_sps_file_spool (GFile        *file,
                 SpsProgress  *progress,
                 GError      **error)
{
  g_autofree char *name = NULL;
  g_autofree char *message = NULL;
  Spooled *spooled;
  const char *path;
  GStatBuf st;
  GBytes *bytes;
  gboolean limited;
  int fd;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!_sps_file_is_fifo (file))
    return TRUE;
  path = g_file_peek_path (file);

  name = g_file_get_parse_name (file);

  /* O_NONBLOCK: the open returns at once, writer or not */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", name, g_strerror (saved_errno));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISFIFO (st.st_mode))
    {
      /* Replaced meanwhile: the ordinary checks say what it is now */
      close (fd);
      return TRUE;
    }

  /* Translators: %s is a file name (a FIFO) */
  message = g_strdup_printf (_("Reading %s"), name);
  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, message);

  bytes = read_stream (fd, name, sps_file_get_expanded_limit (), progress, &limited, error);
  close (fd);
  if (bytes == NULL)
    return FALSE;

  spooled = g_new0 (Spooled, 1);
  spooled->bytes = bytes;
  spooled->limited = limited;
  g_object_set_qdata_full (G_OBJECT (file), spooled_quark (), spooled, spooled_free);

  return TRUE;
}

/* The bytes _sps_file_spool() kept for @file, or NULL (transfer none) */
GBytes *
_sps_file_get_spooled (GFile *file)
{
  Spooled *spooled = get_spooled (file);

  return spooled != NULL ? spooled->bytes : NULL;
}

/* Lets go of what _sps_file_spool() kept; a trace that points into the
 * bytes holds its own reference. */
void
_sps_file_unspool (GFile *file)
{
  g_object_set_qdata (G_OBJECT (file), spooled_quark (), NULL);
}

/**
 * sps_file_dup_display_name:
 * @file: a file being imported
 *
 * The name importers put in front of their messages: the path in the
 * user's encoding, or the URI for a file without a local path.
 *
 * Returns: (transfer full): the name
 */
char *
sps_file_dup_display_name (GFile *file)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  return path != NULL ? g_filename_display_name (path) : g_file_get_uri (file);
}
