/* test-etl-expander.c: compressed ETL buffers expanded ahead on a thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hand-made files of buffers whose "compression" is a test function (each
 * output byte a function of the input and its position, so that a buffer
 * taken out of order or from the wrong slot shows), read with the thread
 * and without it: the same bytes and errors in the same order.
 */

#include "config.h"

#include <string.h>

#include "sps-etl-buffer-private.h"
#include "sps-etl-expander.h"

#define FAIL_MARK 0xEE

/* Calls of fake_expand so far (the thread's included) */
static gint n_expanded;

static gssize
fake_expand (guint32        compression,
             const guint8  *in,
             gsize          in_len,
             guint8        *out,
             gsize          out_len,
             GError       **error)
{
  g_atomic_int_inc (&n_expanded);
  g_assert_cmpuint (compression, ==, 3);
  g_assert_cmpuint (in_len, >, 0);
  if (in[0] == FAIL_MARK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "bad data in a %zu-byte buffer", in_len);
      return -1;
    }
  for (gsize i = 0; i < out_len; i++)
    out[i] = in[i % in_len] ^ (guint8) i;
  /* A buffer may expand to less than its header says */
  return in[0] == 0x11 ? (gssize) out_len / 2 : (gssize) out_len;
}

typedef enum { PLAIN, COMPRESSED, BAD_EXPANDED, FAILING } Kind;

/* Appends a buffer of @size bytes (header included) whose payload is
 * @fill; a compressed one claims @expanded bytes of records */
static void
add_buffer (GByteArray *file,
            Kind        kind,
            guint32     size,
            guint32     expanded,
            guint8      fill)
{
  gsize at = file->len;
  guint32 saved = kind == BAD_EXPANDED ? 8 : SPS_ETL_BUFFER_HEADER_SIZE + expanded;
  guint16 flags = kind == PLAIN ? 0 : SPS_ETL_BUFFER_FLAG_COMPRESSED;
  guint32 le;

  g_byte_array_set_size (file, at + size);
  memset (file->data + at, 0, SPS_ETL_BUFFER_HEADER_SIZE);
  memset (file->data + at + SPS_ETL_BUFFER_HEADER_SIZE, fill, size - SPS_ETL_BUFFER_HEADER_SIZE);
  if (kind == FAILING)
    file->data[at + SPS_ETL_BUFFER_HEADER_SIZE] = FAIL_MARK;
  le = GUINT32_TO_LE (size);
  memcpy (file->data + at, &le, 4);
  le = GUINT32_TO_LE (saved);
  memcpy (file->data + at + 4, &le, 4);
  flags = GUINT16_TO_LE (flags);
  memcpy (file->data + at + 52, &flags, 2);
}

/* What the reader would take: every buffer the classifier calls
 * compressed, in file order */
typedef struct
{
  GPtrArray *bytes;      /* GBytes of each expansion, NULL for an error */
  GPtrArray *errors;     /* the error's message, or "" */
} Taken;

static void
taken_clear (Taken *t)
{
  g_clear_pointer (&t->bytes, g_ptr_array_unref);
  g_clear_pointer (&t->errors, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Taken, taken_clear)

/* Takes up to @max buffers, once the thread has expanded @first of them
 * (for a threaded expander); after each, checks that no more than
 * @max_ahead buffers were expanded ahead of the reader. Returns how many
 * of those taken the thread expanded (the reader expands the others, when
 * it would otherwise wait, or when there is no thread). */
static guint64
take_all (GByteArray *file,
          gboolean    threaded,
          guint       max,
          gint        first,
          gint        max_ahead,
          Taken      *taken)
{
  g_autoptr(SpsEtlExpander) expander = NULL;
  gsize offset = 0;
  guint64 n_ahead;

  taken->bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  taken->errors = g_ptr_array_new_with_free_func (g_free);
  g_atomic_int_set (&n_expanded, 0);
  expander = sps_etl_expander_new (file->data, file->len, 0, 3, fake_expand, threaded);
  while (g_atomic_int_get (&n_expanded) < first)
    g_usleep (1000);

  while (file->len - offset >= SPS_ETL_BUFFER_HEADER_SIZE && taken->bytes->len < max)
    {
      guint32 size;
      gsize out_len;
      SpsEtlBufferKind kind = sps_etl_buffer_classify (file->data + offset, file->len - offset, TRUE,
                                                       &size, &out_len);

      if (kind == SPS_ETL_BUFFER_BAD_SIZE || kind == SPS_ETL_BUFFER_CUT)
        break;
      if (kind == SPS_ETL_BUFFER_COMPRESSED)
        {
          g_autoptr(GError) error = NULL;
          const guint8 *out;
          gssize got = sps_etl_expander_take (expander, offset, &out, &error);

          if (got < 0)
            {
              g_assert_nonnull (error);
              g_ptr_array_add (taken->bytes, NULL);
              g_ptr_array_add (taken->errors, g_strdup (error->message));
            }
          else
            {
              g_assert_no_error (error);
              g_assert_cmpint (got, <=, (gssize) out_len);
              g_ptr_array_add (taken->bytes, g_bytes_new (out, got));
              g_ptr_array_add (taken->errors, g_strdup (""));
            }
          if (max_ahead >= 0)
            g_assert_cmpint (g_atomic_int_get (&n_expanded), <=, (gint) taken->bytes->len + max_ahead);
        }
      if (size > file->len - offset)
        break;
      offset += size;
    }

  n_ahead = sps_etl_expander_get_n_ahead (expander);
  return n_ahead;
}

static void
assert_same (Taken *a,
             Taken *b)
{
  g_assert_cmpuint (a->bytes->len, ==, b->bytes->len);
  for (guint i = 0; i < a->bytes->len; i++)
    {
      GBytes *x = g_ptr_array_index (a->bytes, i);
      GBytes *y = g_ptr_array_index (b->bytes, i);

      g_assert_cmpstr (g_ptr_array_index (a->errors, i), ==, g_ptr_array_index (b->errors, i));
      g_assert_true ((x == NULL) == (y == NULL));
      if (x != NULL)
        g_assert_true (g_bytes_equal (x, y));
    }
}

static void
test_in_order (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_auto(Taken) threaded = { 0, };
  g_auto(Taken) alone = { 0, };
  GBytes *third;

  g_test_summary ("42 compressed buffers among plain ones, one with an invalid expanded size "
                  "(not taken) and one whose data fails to expand: with the thread (which "
                  "expands the first 8 before the reader starts, and the reader the ones it "
                  "would otherwise wait for) the reader gets the same bytes and errors, in "
                  "file order, as when it expands every one itself");
  for (guint i = 0; i < 42; i++)
    {
      Kind kind = i == 7 ? FAILING : i == 20 ? BAD_EXPANDED : COMPRESSED;

      if (i % 9 == 4)
        add_buffer (file, PLAIN, 200, 0, 0x40);
      add_buffer (file, kind, 100 + i, 1000 + 37 * i, (guint8) i);
    }
  /* 42 compressed buffers, one not expandable: 41 taken, one failing;
   * the first 8 expanded by the thread before the reader starts */
  g_assert_cmpuint (take_all (file, TRUE, G_MAXUINT, 8, 8, &threaded), >=, 8);
  g_assert_cmpuint (take_all (file, FALSE, G_MAXUINT, 0, 0, &alone), ==, 0);
  assert_same (&threaded, &alone);
  g_assert_cmpuint (threaded.bytes->len, ==, 41);
  g_assert_null (g_ptr_array_index (threaded.bytes, 7));
  g_assert_cmpstr (g_ptr_array_index (threaded.errors, 7), ==, "bad data in a 35-byte buffer");

  /* The third buffer (fill 2, 30 bytes of payload): 1,074 bytes of
   * fill XOR position */
  third = g_ptr_array_index (threaded.bytes, 2);
  g_assert_cmpuint (g_bytes_get_size (third), ==, 1074);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (third, NULL))[0], ==, 2);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (third, NULL))[1073], ==, (guint8) (2 ^ 1073));
}

static void
test_short_expansion (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_auto(Taken) threaded = { 0, };

  g_test_summary ("A buffer that expands to less than its header says gives only what was "
                  "expanded, and a cut compressed buffer ends the walk");
  add_buffer (file, COMPRESSED, 90, 400, 0x11);
  add_buffer (file, COMPRESSED, 90, 400, 0x12);
  add_buffer (file, COMPRESSED, 90, 400, 0x13);
  /* The last buffer is cut: its size runs past the file */
  g_byte_array_set_size (file, file->len - 5);
  g_assert_cmpuint (take_all (file, TRUE, G_MAXUINT, 2, 8, &threaded), ==, 2);
  g_assert_cmpuint (threaded.bytes->len, ==, 2);
  g_assert_cmpuint (g_bytes_get_size (g_ptr_array_index (threaded.bytes, 0)), ==, 200);
  g_assert_cmpuint (g_bytes_get_size (g_ptr_array_index (threaded.bytes, 1)), ==, 400);
}

static void
test_large_claims (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_auto(Taken) threaded = { 0, };
  g_auto(Taken) alone = { 0, };

  g_test_summary ("Buffers that each claim 9 MiB once expanded (more than the 8 MiB the thread "
                  "may hold ahead): one is expanded only when the reader holds none, so that "
                  "none is expanded ahead of the reader, and the bytes are the same as without "
                  "the thread");
  for (guint i = 0; i < 3; i++)
    add_buffer (file, COMPRESSED, 80, 9 << 20, (guint8) (0x20 + i));
  g_assert_cmpuint (take_all (file, TRUE, G_MAXUINT, 1, 0, &threaded), >=, 1);
  take_all (file, FALSE, G_MAXUINT, 0, 0, &alone);
  assert_same (&threaded, &alone);
}

static void
test_stop_early (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_auto(Taken) threaded = { 0, };

  g_test_summary ("A reader that stops after 2 of 500 buffers (cancelled) frees the expander "
                  "while its thread runs ahead: the thread stops after the buffer it is "
                  "expanding, at most 8 ahead");
  for (guint i = 0; i < 500; i++)
    add_buffer (file, COMPRESSED, 120, 65536, (guint8) i);
  g_assert_cmpuint (take_all (file, TRUE, 2, 8, 8, &threaded), ==, 2);
  g_assert_cmpint (g_atomic_int_get (&n_expanded), <=, 2 + 8 + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/expander/in-order", test_in_order);
  g_test_add_func ("/etl/expander/short-expansion", test_short_expansion);
  g_test_add_func ("/etl/expander/large-claims", test_large_claims);
  g_test_add_func ("/etl/expander/stop-early", test_stop_early);

  return g_test_run ();
}
