/* sps-screenshot-job.h: `spanscope --screenshot`, one window to one image
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-window.h"

G_BEGIN_DECLS

#define SPS_TYPE_SCREENSHOT_JOB (sps_screenshot_job_get_type ())

G_DECLARE_FINAL_TYPE (SpsScreenshotJob, sps_screenshot_job, SPS, SCREENSHOT_JOB, GObject)

SpsScreenshotJob *sps_screenshot_job_new       (const char       *path,
                                                int               width,
                                                int               height);
void              sps_screenshot_job_set_range (SpsScreenshotJob *self,
                                                SpsTime           start,
                                                SpsTime           end);
void              sps_screenshot_job_run       (SpsScreenshotJob *self,
                                                SpsWindow        *window,
                                                GFile            *file,
                                                GVariant         *options);

G_END_DECLS
