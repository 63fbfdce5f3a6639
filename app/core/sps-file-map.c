/* sps-file-map.c: a trace file mapped, yet a snapshot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A read copy of a trace file (sps-file-read.c) costs its size in
 * anonymous memory for as long as the trace is open, since the trace points
 * into the text (args are kept as text). A mapping costs nothing but page
 * cache the kernel can drop, but it outlives the file's size: a producer
 * that truncates or rewrites the file would make every later read of the
 * mapping fault with SIGBUS, or show other bytes than were imported.
 *
 * A read lease (fcntl F_SETLEASE, F_RDLCK) closes that gap. While it is
 * held, whoever opens the file for writing or truncates it is made to wait
 * (up to /proc/sys/fs/lease-break-time, 45 s by default) and this process
 * is told with a signal. The handler only wakes a thread, which copies the
 * mapping into anonymous memory, moves the copy over the mapping's
 * addresses with mremap() (so every pointer into the text stays valid and
 * sees the same bytes), and only then releases the lease: the writer goes
 * on, the trace keeps what it imported. The copy is paid only by files that
 * really change.
 *
 * A lease is refused while someone has the file open for writing (a trace
 * still being written), and it only protects against writers on this
 * machine: such files, files on other file systems than the local ones
 * listed below, and small files are read as before.
 *
 * Should a mapped file change all the same (the kernel breaks a lease on
 * its own after lease-break-time, if this process was stopped that long,
 * or there was no memory for the copy), a SIGBUS handler is the last line
 * of defence: a fault inside a mapping puts zero pages from the faulting
 * page to the mapping's end, so the text reads as cut there (the parsers
 * stop at a NUL) instead of killing the program.
 */

/* F_SETLEASE, F_SETSIG, F_SETOWN_EX, mremap(), gettid(): Linux */
#define _GNU_SOURCE

#define G_LOG_DOMAIN "sps-file-map"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sps-file-map-private.h"

/* Below this, a read copy costs little and needs no lease */
#define MIN_MAPPED_SIZE (((gsize) 1) << 20)

typedef struct
{
  int    fd;        /* holds the lease; -1 once the text is a copy */
  char  *addr;
  gsize  size;      /* the file's bytes */
  gsize  length;    /* mapped: whole pages, at least one byte more */
} FileMap;

static GMutex     maps_lock;
static GPtrArray *maps;            /* FileMap *, under maps_lock */
static int        wake_fds[2] = { -1, -1 };
static int        lease_signal;
static pid_t      lease_tid;
static guint      snapshot_count;  /* under maps_lock */
static gsize      min_mapped_size = MIN_MAPPED_SIZE;
static gboolean   copy_on_change = TRUE;

/* The mappings as the SIGBUS handler sees them, without a lock: a slot is
 * free while its start is 0 */
#define MAX_GUARDED 256
static gsize            guarded_start[MAX_GUARDED];
static gsize            guarded_end[MAX_GUARDED];
static gsize            page_size;
static guint            fault_count;
static struct sigaction previous_sigbus;

static void
on_sigbus (int        sig,
           siginfo_t *info,
           void      *context)
{
  gsize addr = (gsize) info->si_addr;

  for (guint i = 0; i < MAX_GUARDED; i++)
    {
      gsize start = __atomic_load_n (&guarded_start[i], __ATOMIC_ACQUIRE);
      gsize end = __atomic_load_n (&guarded_end[i], __ATOMIC_ACQUIRE);
      gsize page = addr & ~(page_size - 1);

      if (start == 0 || addr < start || addr >= end)
        continue;
      if (mmap ((void *) page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
        {
          __atomic_add_fetch (&fault_count, 1, __ATOMIC_RELAXED);
          return;
        }
      break;
    }

  /* Not ours: as if this handler were not there */
  if (previous_sigbus.sa_flags & SA_SIGINFO)
    previous_sigbus.sa_sigaction (sig, info, context);
  else if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != SIG_IGN)
    previous_sigbus.sa_handler (sig);
  else
    signal (SIGBUS, SIG_DFL);  /* the fault happens again, and kills */
}

static gboolean
guard (gsize start,
       gsize end)
{
  for (guint i = 0; i < MAX_GUARDED; i++)
    {
      gsize free_slot = 0;

      if (__atomic_load_n (&guarded_start[i], __ATOMIC_ACQUIRE) != 0)
        continue;
      __atomic_store_n (&guarded_end[i], end, __ATOMIC_RELEASE);
      if (__atomic_compare_exchange_n (&guarded_start[i], &free_slot, start, FALSE,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return TRUE;
    }
  return FALSE;
}

static void
unguard (gsize start)
{
  for (guint i = 0; i < MAX_GUARDED; i++)
    if (__atomic_load_n (&guarded_start[i], __ATOMIC_ACQUIRE) == start)
      {
        __atomic_store_n (&guarded_start[i], 0, __ATOMIC_RELEASE);
        return;
      }
}

static void
on_lease_break (int        sig,
                siginfo_t *info,
                void      *context)
{
  int saved_errno = errno;
  char byte = 0;

  /* Only a wake-up: the thread looks at every lease, so a lost byte (a
   * full pipe) loses nothing */
  if (write (wake_fds[1], &byte, 1) < 0)
    {
      /* nothing to do in a signal handler */
    }
  errno = saved_errno;
}

/* Replaces @map's pages by an anonymous copy of the same bytes at the same
 * addresses, then lets the writer go on. Called with maps_lock held. */
static void
snapshot (FileMap *map)
{
  void *copy = MAP_FAILED;

  if (copy_on_change)
    copy = mmap (NULL, map->length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy != MAP_FAILED)
    {
      memcpy (copy, map->addr, map->size);
      if (mprotect (copy, map->length, PROT_READ) != 0 ||
          mremap (copy, map->length, map->length, MREMAP_MAYMOVE | MREMAP_FIXED, map->addr) == MAP_FAILED)
        munmap (copy, map->length);
      else
        snapshot_count++;
    }
  /* Without memory for the copy the file cannot be kept from changing:
   * the writer would only wait for the kernel's timeout */
  fcntl (map->fd, F_SETLEASE, F_UNLCK);
  close (map->fd);
  map->fd = -1;
}

/* The lease thread's id, set once it runs (under start_lock) */
static GMutex start_lock;
static GCond  start_cond;

static gpointer
lease_thread (gpointer data)
{
  g_mutex_lock (&start_lock);
  lease_tid = gettid ();
  g_cond_signal (&start_cond);
  g_mutex_unlock (&start_lock);

  for (;;)
    {
      char bytes[64];
      ssize_t n = read (wake_fds[0], bytes, sizeof bytes);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;

      g_mutex_lock (&maps_lock);
      for (guint i = 0; i < maps->len; i++)
        {
          FileMap *map = g_ptr_array_index (maps, i);

          /* A lease being broken already reads as what it will become */
          if (map->fd >= 0 && fcntl (map->fd, F_GETLEASE) != F_RDLCK)
            snapshot (map);
        }
      g_mutex_unlock (&maps_lock);
    }
  return NULL;
}

static gpointer
start (gpointer data)
{
  struct sigaction action = { 0 };

  if (pipe2 (wake_fds, O_CLOEXEC) != 0)
    return GINT_TO_POINTER (FALSE);
  fcntl (wake_fds[1], F_SETFL, O_NONBLOCK);

  /* A real-time signal queues; no library of ours uses this one */
  lease_signal = SIGRTMAX - 4;
  action.sa_sigaction = on_lease_break;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset (&action.sa_mask);
  if (sigaction (lease_signal, &action, NULL) != 0)
    return GINT_TO_POINTER (FALSE);

  page_size = (gsize) sysconf (_SC_PAGESIZE);
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  if (sigaction (SIGBUS, &action, &previous_sigbus) != 0)
    return GINT_TO_POINTER (FALSE);

  maps = g_ptr_array_new ();
  g_thread_unref (g_thread_new ("sps-file-lease", lease_thread, NULL));
  /* Leases name the thread their signal goes to: wait for its id */
  g_mutex_lock (&start_lock);
  while (lease_tid == 0)
    g_cond_wait (&start_cond, &start_lock);
  g_mutex_unlock (&start_lock);
  return GINT_TO_POINTER (TRUE);
}

/* Local file systems whose leases see every writer (all on this machine) */
static gboolean
is_local (int fd)
{
  struct statfs fs;

  if (fstatfs (fd, &fs) != 0)
    return FALSE;
  switch ((guint32) fs.f_type)
    {
    case 0xEF53:      /* ext2, ext3, ext4 */
    case 0x58465342:  /* XFS */
    case 0x9123683E:  /* Btrfs */
    case 0xF2F52010:  /* F2FS */
    case 0x01021994:  /* tmpfs */
      return TRUE;
    default:
      return FALSE;
    }
}

static void
unmap (gpointer data)
{
  FileMap *map = data;

  g_mutex_lock (&maps_lock);
  g_ptr_array_remove_fast (maps, map);
  g_mutex_unlock (&maps_lock);

  unguard ((gsize) map->addr);
  munmap (map->addr, map->length);
  if (map->fd >= 0)
    close (map->fd);
  g_free (map);
}

/**
 * _sps_file_map:
 * @fd: a regular file open for reading
 * @st: what fstat() said of @fd when it was opened
 *
 * Maps the file under a read lease (see the top of this file), followed by
 * a NUL that is not part of its length. %NULL when the file is small, on
 * a file system that is not known to be local, open for writing anywhere,
 * or changed since @st: then the caller reads it.
 *
 * Returns: (transfer full) (nullable): the mapped contents
 */
GBytes *
_sps_file_map (int                fd,
               const struct stat *st)
{
  static GOnce once = G_ONCE_INIT;
  struct f_owner_ex owner;
  struct stat now;
  gsize page;
  gsize size, length;
  FileMap *map;
  void *addr;
  int lease_fd;

  if (st->st_size <= 0 || (guint64) st->st_size < min_mapped_size || !is_local (fd))
    return NULL;
  if (!GPOINTER_TO_INT (g_once (&once, start, NULL)))
    return NULL;
  page = page_size;
  if ((guint64) st->st_size >= G_MAXSIZE - 2 * page)
    return NULL;

  size = (gsize) st->st_size;
  length = (size + 1 + page - 1) / page * page;

  if ((lease_fd = fcntl (fd, F_DUPFD_CLOEXEC, 3)) < 0)
    return NULL;
  owner.type = F_OWNER_TID;
  owner.pid = lease_tid;
  if (fcntl (lease_fd, F_SETSIG, lease_signal) != 0 ||
      fcntl (lease_fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl (lease_fd, F_SETLEASE, F_RDLCK) != 0)
    {
      close (lease_fd);
      return NULL;
    }

  /* Under the lease the file can no longer change unnoticed; it must
   * still be what was opened */
  if (fstat (lease_fd, &now) != 0 || now.st_size != st->st_size ||
      now.st_mtim.tv_sec != st->st_mtim.tv_sec || now.st_mtim.tv_nsec != st->st_mtim.tv_nsec)
    {
      close (lease_fd);
      return NULL;
    }

  /* Anonymous zero pages first, then the file over them: the page after
   * the file's last byte is a zero (the NUL) even when the size is a
   * multiple of the page size */
  addr = mmap (NULL, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (addr == MAP_FAILED)
    {
      close (lease_fd);
      return NULL;
    }
  if (!guard ((gsize) addr, (gsize) addr + length))
    {
      munmap (addr, length);
      close (lease_fd);
      return NULL;
    }
  if (mmap (addr, (size + page - 1) / page * page, PROT_READ, MAP_PRIVATE | MAP_FIXED, lease_fd, 0) == MAP_FAILED)
    {
      unguard ((gsize) addr);
      munmap (addr, length);
      close (lease_fd);
      return NULL;
    }

  map = g_new0 (FileMap, 1);
  map->fd = lease_fd;
  map->addr = addr;
  map->size = size;
  map->length = length;
  g_mutex_lock (&maps_lock);
  g_ptr_array_add (maps, map);
  g_mutex_unlock (&maps_lock);

  return g_bytes_new_with_free_func (addr, size, unmap, map);
}

/* For tests: how many mapped files were copied because they were going
 * to change, how many faults the SIGBUS handler turned into zeros; the
 * smallest file mapped (the default when 0); whether a file about to
 * change is copied (when not, only the SIGBUS handler is left) */
guint
_sps_file_map_get_snapshot_count (void)
{
  guint count;

  g_mutex_lock (&maps_lock);
  count = snapshot_count;
  g_mutex_unlock (&maps_lock);
  return count;
}

void
_sps_file_map_set_min_size (gsize size)
{
  min_mapped_size = size > 0 ? size : MIN_MAPPED_SIZE;
}

guint
_sps_file_map_get_fault_count (void)
{
  return __atomic_load_n (&fault_count, __ATOMIC_RELAXED);
}

void
_sps_file_map_set_copy_on_change (gboolean copy)
{
  g_mutex_lock (&maps_lock);
  copy_on_change = copy;
  g_mutex_unlock (&maps_lock);
}
