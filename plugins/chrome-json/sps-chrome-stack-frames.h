/* sps-chrome-stack-frames.h: the `stackFrames` dictionary and its resolver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

typedef struct _SpsChromeStackFrames SpsChromeStackFrames;

SpsChromeStackFrames *sps_chrome_stack_frames_new     (void);
void                  sps_chrome_stack_frames_free    (SpsChromeStackFrames *self);
/* Where a frame's code is: string id of its URL or path, 1-based line and
 * column (0 unknown) */
typedef struct
{
  guint32 file;
  guint32 line;
  guint32 column;
} SpsChromeSourceLocation;

void                  sps_chrome_stack_frames_define  (SpsChromeStackFrames          *self,
                                                       guint32                        id,
                                                       gboolean                       valid,
                                                       guint32                        name,
                                                       guint32                        category,
                                                       const SpsChromeSourceLocation *location,
                                                       gboolean                       has_parent,
                                                       guint32                        parent);
guint32               sps_chrome_stack_frames_resolve (SpsChromeStackFrames *self,
                                                       SpsTraceBuilder      *builder,
                                                       guint32               id);

guint32               sps_chrome_single_frame_callsite (SpsTraceBuilder *builder,
                                                        guint32          name);

void                  sps_chrome_stack_frames_defer_slice (SpsChromeStackFrames *self,
                                                           guint32               handle,
                                                           guint32               sf,
                                                           guint32               esf,
                                                           guint32               stack);
guint                 sps_chrome_stack_frames_resolve_slices (SpsChromeStackFrames *self,
                                                              SpsTraceBuilder      *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeStackFrames, sps_chrome_stack_frames_free)

G_END_DECLS
