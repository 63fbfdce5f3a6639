# long_slices.py: an analysis plugin in Python.
#
# The load pipeline runs it on every trace once the importer is done (on
# its worker thread, before a window shows the trace). It reads the
# finished trace row by row and adds, for every slice of THRESHOLD_NS or
# longer, an async slice "long: NAME" (category "long-slices") over it on
# the slice's process, a counter "Long slices" per process that counts
# them, and one warning "long_slice" per slice.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi

gi.require_version('Spanscope', '1')
from gi.repository import Gio, GLib, GObject, Spanscope  # noqa: E402

THRESHOLD_NS = 1_000_000  # 1 ms

# SPS_NO_INDEX: "none" in index columns (a C macro, not in the typelib)
NO_INDEX = 0xFFFFFFFF

# Async slices of one lane need keys of their own
KEY_BASE = 0x4c6f6e67 << 32


class LongSlices(GObject.Object, Spanscope.Analysis):
    __gtype_name__ = 'LongSlicesAnalysis'

    def do_get_name(self):
        return 'long-slices'

    def do_analyze(self, trace, results, progress):
        # @results shares the trace's strings and holds its processes and
        # threads at the same indices
        category = results.intern('long-slices', -1)
        counter_name = results.intern('Long slices', -1)
        counts = {}
        n = trace.get_n_slices()

        for i in range(n):
            if i % 4096 == 0:
                if progress.is_cancelled():
                    raise GLib.Error.new_literal(Gio.io_error_quark(), 'cancelled', Gio.IOErrorEnum.CANCELLED)
                progress.set_fraction(i / n)

            ok, track, ts, dur, depth, name, cat = trace.get_slice(i)
            if dur < THRESHOLD_NS:
                continue
            ok, kind, process, thread, track_name = trace.get_track(track)
            if process == NO_INDEX:
                continue

            label = results.intern('long: ' + name, -1)
            results.add_async(Spanscope.AsyncPhase.BEGIN, process, KEY_BASE + i, ts, label, category, 0)
            results.add_async(Spanscope.AsyncPhase.END, process, KEY_BASE + i, ts + dur, label, category, 0)

            counts[process] = counts.get(process, 0) + 1
            counter = results.ensure_counter_track(process, counter_name, 0)
            results.add_counter_value(counter, ts, counts[process])

            results.add_warning('long_slice', 'Slices of 1 ms or longer (marked on the “Long slices” lanes)')

        return True
