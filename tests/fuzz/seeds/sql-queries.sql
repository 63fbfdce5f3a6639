-- Seeds of the sql harness (build-aux/fuzz): each query, a NUL, then a
-- small fixture; one query a line. Without them every seed is a trace
-- alone, which the harness reads table by table (SELECT * of each): the
-- query planner of the trace tables (constraints on ts, end_ts, track_id,
-- thread_id, name and kind), the views, slice_visible() and the refusals
-- of writes were reached only when a mutation put a NUL in a trace.
SELECT name, count(*), sum(dur), max(self_time) FROM slices GROUP BY name ORDER BY 3 DESC
SELECT * FROM slices WHERE ts >= 100 AND ts < 200 AND track_id = 1 ORDER BY ts
SELECT * FROM slices WHERE end_ts > 120 AND thread_id IN (SELECT id FROM threads) AND name = 'outer'
SELECT s.name, t.name, p.name FROM slices s JOIN threads t ON s.thread_id = t.id JOIN processes p ON t.process_id = p.id WHERE s.depth > 0
SELECT * FROM events WHERE kind = 'slice' AND name LIKE 'a%' LIMIT 5 OFFSET 1
SELECT id, ts, dur FROM visible_slices WHERE dur > 0 AND slice_visible(id)
SELECT json_extract(args, '$.a'), args FROM slices WHERE args IS NOT NULL
SELECT * FROM instants WHERE kind = 'instant' AND ts BETWEEN 0 AND 1000000 ORDER BY ts DESC
SELECT track_id, name, min(value), max(value), avg(value) FROM counters GROUP BY track_id
WITH RECURSIVE d(id, depth) AS (SELECT id, 0 FROM callsites WHERE parent_id IS NULL UNION ALL SELECT c.id, d.depth + 1 FROM callsites c JOIN d ON c.parent_id = d.id) SELECT * FROM d
SELECT f.*, a.name, b.name FROM flows f LEFT JOIN slices a ON f.from_slice_id = a.id LEFT JOIN slices b ON f.to_slice_id = b.id
SELECT s.*, f.module FROM samples s JOIN callsites c ON s.callsite_id = c.id JOIN frames f ON c.frame_id = f.id WHERE s.thread_id = 1
SELECT phase, name, args FROM objects WHERE phase = 'snapshot' ORDER BY ts
SELECT kind, count(*), sum(row_count), max(max_depth) FROM tracks GROUP BY kind
SELECT ts, lag(ts) OVER (PARTITION BY track_id ORDER BY ts), row_number() OVER () FROM slices
SELECT * FROM events_raw WHERE provider IS NOT NULL
CREATE TEMP TABLE t AS SELECT * FROM slices WHERE dur > 10; SELECT count(*) FROM t
UPDATE slices SET name = 'x'
DROP TABLE slices
PRAGMA writable_schema = 1
ATTACH ':memory:' AS other
