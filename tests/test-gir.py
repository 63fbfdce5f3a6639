#!/usr/bin/env python3
# test-gir.py: the GObject-Introspection data is usable from Python, as a
# plugin in Python uses it: a trace built through the builder, a trace file
# loaded through the plugin engine, and SQL over it.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import gi

gi.require_version('Spanscope', '1')
gi.require_version('Gio', '2.0')
from gi.repository import Gio, Spanscope  # noqa: E402


def check(what, got, expected):
    if got != expected:
        print('not ok: %s: %r, expected %r' % (what, got, expected))
        sys.exit(1)
    print('ok: %s' % what)


# A builder: one thread, two nested slices, args as JSON text
builder = Spanscope.TraceBuilder.new()
process = builder.ensure_process(7)
thread = builder.ensure_thread(process, 8)
outer = builder.intern('outer', -1)
inner = builder.intern('inner', -1)
args = builder.add_args_text('{"n":3}', -1)
builder.add_complete(thread, 0, 1000, outer, 0, args, 0)
builder.add_complete(thread, 100, 200, inner, 0, 0, 0)
trace = builder.finish(None)
check('slices built', trace.count_slices(Spanscope.TrackKind.THREAD_SLICES), 2)
check('args parsed', trace.parse_args(args).get_object().get_int_member('n'), 3)
check('start', trace.get_start_time(), 0)
check('end', trace.get_end_time(), 1000)

# A file through the plugin engine (SPANSCOPE_PLUGIN_PATH), then SQL
# The fixture's 5 complete (X) events
path = os.path.join(os.environ['G_TEST_SRCDIR'], 'fixtures', 'chrome-phase-x.json')
loaded = Spanscope.Trace.load(Gio.File.new_for_path(path), Spanscope.PluginEngine.get_default(),
                              None, Spanscope.LoadFlags.NONE, None, None)
engine = Spanscope.SqlEngine.new(loaded)
result = engine.query('SELECT count(*) FROM slices', None, None)
check('file loaded, its slices counted by SQL', result.get_int64(0, 0), 5)
