# tinytrace.py: an importer plugin in Python, for a tiny text format.
#
# A tiny trace starts with the line "tinytrace 1"; then, one record a
# line (times in microseconds, integers; "#" starts a comment):
#
#   process PID NAME
#   thread PID TID NAME
#   span TID START DURATION NAME
#   mark TID TIME NAME
#
# A span or mark names a thread declared before it. The importer probes
# by content (the first line), reads the file on the load's worker
# thread, reports progress, stops when the load is cancelled, and
# refuses a bad line with "FILE:LINE: what".
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi

gi.require_version('Spanscope', '1')
from gi.repository import Gio, GLib, GObject, Spanscope  # noqa: E402

HEADER = b'tinytrace 1'
US = 1000  # ns

# SPS_NO_INDEX: "none" in index columns (a C macro, not in the typelib)
NO_INDEX = 0xFFFFFFFF


def import_error(path, line, what):
    return GLib.Error.new_literal(Spanscope.import_error_quark(), '%s:%d: %s' % (path, line, what),
                                  Spanscope.ImportError.MALFORMED)


class TinyTraceImporter(GObject.Object, Spanscope.Importer):
    __gtype_name__ = 'TinyTraceImporter'

    def do_get_name(self):
        return 'tinytrace'

    def do_probe(self, file, head):
        data = head.get_data() or b''
        first = data.split(b'\n', 1)[0].rstrip(b'\r')
        return 100 if first == HEADER else 0

    def do_load(self, file, options, builder, progress):
        path = file.get_parse_name()
        ok, contents, etag = file.load_contents(None)
        lines = contents.decode('utf-8', errors='replace').splitlines()
        processes = {}
        threads = {}

        progress.set_phase(Spanscope.ProgressPhase.PARSING, 'Reading ' + path)
        for number, line in enumerate(lines, start=1):
            if number % 1000 == 0:
                if progress.is_cancelled():
                    raise GLib.Error.new_literal(Gio.io_error_quark(), 'cancelled', Gio.IOErrorEnum.CANCELLED)
                progress.set_fraction(number / len(lines))

            words = line.split(None, 4)
            if number == 1:
                if line.strip() != HEADER.decode():
                    raise import_error(path, number, 'not a tiny trace (no "tinytrace 1" line)')
                continue
            if not words or words[0].startswith('#'):
                continue

            try:
                if words[0] == 'process' and len(words) >= 3:
                    pid = int(words[1])
                    processes[pid] = builder.ensure_process(pid)
                    builder.set_process_name(processes[pid], builder.intern(' '.join(words[2:]), -1))
                elif words[0] == 'thread' and len(words) >= 4:
                    pid, tid = int(words[1]), int(words[2])
                    if pid not in processes:
                        raise import_error(path, number, 'process %d is not declared' % pid)
                    threads[tid] = builder.ensure_thread(processes[pid], tid)
                    builder.set_thread_name(threads[tid], builder.intern(' '.join(words[3:]), -1))
                elif words[0] == 'span' and len(words) == 5:
                    thread = self.thread(threads, path, number, words[1])
                    start, duration = int(words[2]) * US, int(words[3]) * US
                    if duration < 0:
                        raise import_error(path, number, 'a span cannot last less than nothing')
                    builder.add_complete(thread, start, duration, builder.intern(words[4], -1), 0, 0, 0)
                elif words[0] == 'mark' and len(words) >= 4:
                    thread = self.thread(threads, path, number, words[1])
                    builder.add_instant(Spanscope.InstantKind.MARK, Spanscope.InstantScope.THREAD,
                                        NO_INDEX, thread, int(words[2]) * US,
                                        builder.intern(' '.join(words[3:]), -1), 0, 0)
                else:
                    raise import_error(path, number, 'unknown record “%s”' % words[0])
            except ValueError:
                raise import_error(path, number, 'times and ids must be integers')
            builder.add_events_read(1)

        return True

    @staticmethod
    def thread(threads, path, number, word):
        tid = int(word)
        if tid not in threads:
            raise import_error(path, number, 'thread %d is not declared' % tid)
        return threads[tid]
