/* test-time-ruler.c: where the ruler puts its tick labels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-time-ruler"

#include "config.h"

#include <math.h>

#include <spanscope-gtk.h>

#include "sps-time-ruler-private.h"

/* A tick's label goes right of the tick, left of it where it would cross
 * the end of the ruler, and nowhere where it would overlap the label
 * before (4 px of padding each side). */
static void
test_ruler_label_x (void)
{
  g_assert_cmpfloat (_sps_time_ruler_label_x (100, 50, 800, 0), ==, 104);
  /* 760 + 4 + 50 > 800: left of the tick, ending 4 px before it */
  g_assert_cmpfloat (_sps_time_ruler_label_x (760, 50, 800, 0), ==, 706);
  /* Just fits at the right: 746 + 4 + 50 = 800 */
  g_assert_cmpfloat (_sps_time_ruler_label_x (746, 50, 800, 0), ==, 750);
  /* The label before ends at 720: on the left it would start at 706 */
  g_assert_true (isnan (_sps_time_ruler_label_x (760, 50, 800, 720)));
  g_assert_cmpfloat (_sps_time_ruler_label_x (300, 50, 800, 304), ==, 304);
  g_assert_true (isnan (_sps_time_ruler_label_x (300, 50, 800, 305)));
  /* A label wider than the ruler has no place */
  g_assert_true (isnan (_sps_time_ruler_label_x (10, 50, 40, 0)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gtk/time-ruler/label-x", test_ruler_label_x);

  return g_test_run ();
}
