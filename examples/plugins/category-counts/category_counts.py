# category_counts.py: an analysis plugin in Python.
#
# The load pipeline runs it on every trace once the importer is done (on
# its worker thread, before a window shows the trace). It reads the
# finished trace row by row and counts the slices of each category:
#
# * a counter track per process and category, "Slices" with the category
#   as its series (the timeline titles it "Slices CATEGORY"): at the start
#   of each slice of that category on that process, the number of them
#   started so far; slices without a category count as "(none)";
# * the totals over the whole trace in the info section
#   "category-counts", a JSON object {CATEGORY: COUNT}, which
#   `spanscope-cli info` prints.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json

import gi

gi.require_version('Spanscope', '1')
from gi.repository import Gio, GLib, GObject, Spanscope  # noqa: E402

# SPS_NO_INDEX: "none" in index columns (a C macro, not in the typelib)
NO_INDEX = 0xFFFFFFFF

NO_CATEGORY = '(none)'


class CategoryCounts(GObject.Object, Spanscope.Analysis):
    __gtype_name__ = 'CategoryCountsAnalysis'

    def do_get_name(self):
        return 'category-counts'

    def do_analyze(self, trace, results, progress):
        totals = {}
        # (process, category) -> the start times of its slices
        starts = {}
        processes = {}
        n = trace.get_n_slices()

        for i in range(n):
            if i % 4096 == 0:
                if progress.is_cancelled():
                    raise GLib.Error.new_literal(Gio.io_error_quark(), 'cancelled', Gio.IOErrorEnum.CANCELLED)
                progress.set_fraction(i / n)

            ok, track, ts, dur, depth, name, category = trace.get_slice(i)
            category = category or NO_CATEGORY
            totals[category] = totals.get(category, 0) + 1

            if track not in processes:
                processes[track] = trace.get_track(track)[2]
            if processes[track] != NO_INDEX:
                starts.setdefault((processes[track], category), []).append(ts)

        # @results shares the trace's strings and holds its processes and
        # threads at the same indices: a process index read from the trace
        # is the same process here
        name = results.intern('Slices', -1)
        for (process, category), times in sorted(starts.items()):
            counter = results.ensure_counter_track(process, name, results.intern(category, -1))
            times.sort()
            for k, ts in enumerate(times):
                # One value per instant: slices starting together count
                # at once
                if k + 1 == len(times) or times[k + 1] != ts:
                    results.add_counter_value(counter, ts, k + 1)

        results.set_info_section('category-counts', json.dumps(totals, sort_keys=True))
        return True
