/* test-string-pool.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

static void
test_empty_string (void)
{
  g_autoptr(SpsStringPool) pool = sps_string_pool_new ();
  const char *str;
  gsize len = 99;

  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, 1);

  str = sps_string_pool_get (pool, 0, &len);
  g_assert_cmpstr (str, ==, "");
  g_assert_cmpuint (len, ==, 0);

  g_assert_cmpuint (sps_string_pool_intern (pool, "", -1), ==, 0);
  g_assert_cmpuint (sps_string_pool_intern (pool, "abc", 0), ==, 0);
  g_assert_cmpuint (sps_string_pool_intern (pool, NULL, 0), ==, 0);
  g_assert_cmpuint (sps_string_pool_lookup (pool, "", 0), ==, 0);
  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, 1);
}

static void
test_dedup (void)
{
  g_autoptr(SpsStringPool) pool = sps_string_pool_new ();
  guint32 foo = sps_string_pool_intern (pool, "foo", -1);
  guint32 bar = sps_string_pool_intern (pool, "bar", 3);
  gsize len;

  g_assert_cmpuint (foo, ==, 1);
  g_assert_cmpuint (bar, ==, 2);
  g_assert_cmpuint (sps_string_pool_intern (pool, "foo", 3), ==, foo);
  g_assert_cmpuint (sps_string_pool_intern (pool, "foobar", 3), ==, foo);
  g_assert_cmpuint (sps_string_pool_intern (pool, "fo", -1), ==, 3);
  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, 4);

  g_assert_cmpuint (sps_string_pool_lookup (pool, "bar", -1), ==, bar);
  g_assert_cmpuint (sps_string_pool_lookup (pool, "baz", -1), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, 4);

  g_assert_cmpstr (sps_string_pool_get (pool, foo, &len), ==, "foo");
  g_assert_cmpuint (len, ==, 3);
  g_assert_cmpstr (sps_string_pool_get (pool, 3, NULL), ==, "fo");
}

static void
test_nul_inside (void)
{
  g_autoptr(SpsStringPool) pool = sps_string_pool_new ();
  static const char with_nul[] = { 'a', '\0', 'b' };
  guint32 a = sps_string_pool_intern (pool, "a", -1);
  guint32 anb = sps_string_pool_intern (pool, with_nul, 3);
  guint32 a_nul = sps_string_pool_intern (pool, with_nul, 2);
  const char *str;
  gsize len;

  g_assert_cmpuint (a, !=, anb);
  g_assert_cmpuint (a_nul, !=, a);
  g_assert_cmpuint (a_nul, !=, anb);
  g_assert_cmpuint (sps_string_pool_intern (pool, with_nul, 3), ==, anb);
  g_assert_cmpuint (sps_string_pool_lookup (pool, with_nul, 2), ==, a_nul);

  str = sps_string_pool_get (pool, anb, &len);
  g_assert_cmpuint (len, ==, 3);
  g_assert_cmpmem (str, len, with_nul, 3);
  /* Every stored string is NUL-terminated too. */
  g_assert_cmpint (str[3], ==, '\0');

  str = sps_string_pool_get (pool, a_nul, &len);
  g_assert_cmpuint (len, ==, 2);
  g_assert_cmpint (str[0], ==, 'a');
  g_assert_cmpint (str[1], ==, '\0');
  g_assert_cmpint (str[2], ==, '\0');
}

static void
test_many_and_stable (void)
{
  g_autoptr(SpsStringPool) pool = sps_string_pool_new ();
  const guint n = 200000;
  const char *first;
  const char *big;
  g_autofree char *big_text = g_strnfill (3 * 1024 * 1024, 'x');
  gsize before;
  gsize len;

  first = sps_string_pool_get (pool, sps_string_pool_intern (pool, "s0", -1), NULL);
  before = sps_string_pool_get_memory_size (pool);

  for (guint i = 0; i < n; i++)
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "s%u", i);
      g_assert_cmpuint (sps_string_pool_intern (pool, buf, -1), ==, i + 1);
    }

  /* A string bigger than a chunk, between small ones */
  big = sps_string_pool_get (pool, sps_string_pool_intern (pool, big_text, -1), &len);
  g_assert_cmpuint (len, ==, 3 * 1024 * 1024);
  g_assert_cmpuint (sps_string_pool_intern (pool, "after-big", -1), ==, n + 2);

  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, n + 3);
  g_assert_cmpuint (sps_string_pool_get_memory_size (pool), >, before + 3 * 1024 * 1024);

  /* Pointers handed out earlier did not move. */
  g_assert_true (sps_string_pool_get (pool, 1, NULL) == first);
  g_assert_cmpstr (first, ==, "s0");
  g_assert_true (sps_string_pool_get (pool, n + 1, NULL) == big);

  for (guint i = 0; i < n; i += 997)
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "s%u", i);
      g_assert_cmpstr (sps_string_pool_get (pool, i + 1, NULL), ==, buf);
      g_assert_cmpuint (sps_string_pool_lookup (pool, buf, -1), ==, i + 1);
    }
}

static void
test_refcount (void)
{
  SpsStringPool *pool = sps_string_pool_new ();
  SpsStringPool *copy;

  g_assert_true (G_TYPE_IS_BOXED (SPS_TYPE_STRING_POOL));

  copy = g_boxed_copy (SPS_TYPE_STRING_POOL, pool);
  g_assert_true (copy == pool);
  g_assert_true (sps_string_pool_ref (pool) == pool);

  sps_string_pool_intern (pool, "kept", -1);
  g_boxed_free (SPS_TYPE_STRING_POOL, copy);
  sps_string_pool_unref (pool);
  g_assert_cmpstr (sps_string_pool_get (pool, 1, NULL), ==, "kept");
  sps_string_pool_unref (pool);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/string-pool/empty", test_empty_string);
  g_test_add_func ("/core/string-pool/dedup", test_dedup);
  g_test_add_func ("/core/string-pool/nul-inside", test_nul_inside);
  g_test_add_func ("/core/string-pool/many-and-stable", test_many_and_stable);
  g_test_add_func ("/core/string-pool/refcount", test_refcount);

  return g_test_run ();
}
