/*
 * schema — the store's schema as its list of migrations (store.h): entry
 * i brings a store from version i to i + 1 (PRAGMA user_version);
 * hq_store_open() runs those a store lacks.
 */
#include <stddef.h>

#include "hq/store.h"

/* SQL: the local ISO 8601 time of UTC seconds t, with its offset
 * ("2024-12-01T08:00:00-08:00"), in the zone of the program reading the
 * store (SQLite's 'localtime': $TZ, else the system's). */
#define LOCAL_ISO(t) \
	"strftime('%Y-%m-%dT%H:%M:%S', " t ", 'unixepoch', 'localtime') ||" \
	" printf('%+03d:%02d', (CAST(strftime('%s', " t ", 'unixepoch', 'localtime')" \
	" AS INTEGER) - " t ") / 3600, abs(CAST(strftime('%s', " t ", 'unixepoch'," \
	" 'localtime') AS INTEGER) - " t ") / 60 % 60)"

/*
 * hq-query search's indexes brought up to what the store holds (run by
 * hq_store_search_refresh after migration 13 and at every import): the
 * rows past search_mark's ids added (each kind's rowids are id * 8 +
 * kind, so "has it" is a rowid lookup), to search_text and to its sort
 * keys (search_text_key) through a temporary table; superseded lab
 * results removed; the marks moved on (the routes' boxes and their mark
 * are the import writer's, ingest_other.c, and search_index.c's).
 * Workouts, routes and records are never deleted, and an import reads
 * only the ids it added: its cost does not grow with the store (make
 * bench). Workouts: their type, sub-sport and the metadata that are
 * words (indoor or outdoor, brand, name, notes), the device and the app;
 * labs: the test, its name as written, LOINC, text, flag (high or low:
 * the lab's, else from the reference range), the lab; records: the FHIR
 * resource's display strings, texts, notes and names (hq_fhir_words,
 * search_index.c), dated by the resource's own date (a date alone: its
 * noon UTC, the same local date from UTC-12 to UTC+11), else when Apple
 * received it.
 */
/* search_text's sort keys, and the clinical records indexed before their
 * FHIR resource came (migration 16) */
#define SEARCH_KEY \
	"CREATE TABLE IF NOT EXISTS search_text_key (" \
	"  id INTEGER PRIMARY KEY," \
	"  time INTEGER," \
	"  title TEXT" \
	");" \
	"CREATE TABLE IF NOT EXISTS search_text_bare (" \
	"  id INTEGER PRIMARY KEY" \
	");"

#define SEARCH_FILL \
	"CREATE TEMP TABLE IF NOT EXISTS search_new(id INTEGER PRIMARY KEY," \
	"  title, body, kind, ref, time);" \
	"DELETE FROM temp.search_new;" \
	"DELETE FROM search_text WHERE rowid IN (SELECT id * 8 + 2 FROM" \
	"  lab_result WHERE superseded_by IS NOT NULL);" \
	"DELETE FROM search_text_key WHERE id IN (SELECT id * 8 + 2 FROM" \
	"  lab_result WHERE superseded_by IS NOT NULL);" \
	"CREATE TEMP TABLE IF NOT EXISTS search_again(id INTEGER PRIMARY KEY);" \
	"DELETE FROM temp.search_again;" \
	"INSERT INTO temp.search_again SELECT b.id FROM search_text_bare AS b" \
	"  JOIN clinical_record AS r ON r.id = b.id WHERE r.resource IS NOT NULL;" \
	"DELETE FROM search_text WHERE rowid IN (SELECT id * 8 + 3 FROM" \
	"  temp.search_again);" \
	"DELETE FROM search_text_key WHERE id IN (SELECT id * 8 + 3 FROM" \
	"  temp.search_again);" \
	"DELETE FROM search_text_bare WHERE id IN (SELECT id FROM" \
	"  temp.search_again);" \
	"INSERT INTO temp.search_new(id, title, body, kind, ref, time)" \
	"  SELECT w.id * 8 + 1, replace(coalesce(c.name, w.activity_type), '_', ' ')" \
	"  || coalesce(' ' || (SELECT value FROM workout_meta WHERE" \
	"  workout_id = w.id AND key = 'HQSubSport' LIMIT 1), ''), coalesce((SELECT" \
	"  group_concat(CASE WHEN m.key = 'HKIndoorWorkout' THEN CASE m.value" \
	"  WHEN '1' THEN 'indoor' ELSE 'outdoor' END WHEN m.value GLOB" \
	"  '[0-9+.-]*' THEN NULL ELSE m.value END, ' ') FROM workout_meta AS m" \
	"  WHERE m.workout_id = w.id AND m.key <> 'HKTimeZone'), '') || ' ' ||" \
	"  coalesce(d.descr, '') ||" \
	"  ' ' || coalesce(src.name, ''), 'workout', w.id, w.start" \
	"  FROM workout AS w LEFT JOIN catalog AS c ON c.identifier =" \
	"  w.activity_type LEFT JOIN device AS d ON d.id = w.device_id" \
	"  LEFT JOIN source AS src ON src.id = w.source_id" \
	"  WHERE w.id > (SELECT last FROM search_mark WHERE kind = 'workout')" \
	"  AND NOT EXISTS (SELECT 1 FROM search_text WHERE rowid = w.id * 8 + 1);" \
	"INSERT INTO temp.search_new(id, title, body, kind, ref, time)" \
	"  SELECT l.id * 8 + 2, replace(l.test, '_', ' '), l.name || ' ' ||" \
	"  l.loinc || ' ' || l.text || ' ' || CASE WHEN l.lab_flag IN ('H', 'HH')" \
	"  OR (l.lab_flag = '' AND l.value > l.ref_high) THEN 'high' WHEN" \
	"  l.lab_flag IN ('L', 'LL') OR (l.lab_flag = '' AND l.value < l.ref_low)" \
	"  THEN 'low' ELSE l.lab_flag END || ' ' || l.status ||" \
	"  ' ' || r.source," \
	"  'lab', l.id, l.time FROM lab_result AS l JOIN report AS r ON r.id =" \
	"  l.report_id WHERE l.id > (SELECT last FROM search_mark WHERE kind =" \
	"  'lab') AND l.superseded_by IS NULL AND NOT EXISTS (SELECT 1" \
	"  FROM search_text WHERE rowid = l.id * 8 + 2);" \
	"INSERT INTO temp.search_new(id, title, body, kind, ref, time)" \
	"  SELECT r.id * 8 + 3, coalesce(CASE WHEN json_valid(r.resource) THEN" \
	"  coalesce(json_extract(r.resource, '$.code.text')," \
	"  json_extract(r.resource, '$.code.coding[0].display')," \
	"  json_extract(r.resource, '$.resourceType')) END, r.type)," \
	"  coalesce(hq_fhir_words(r.resource), '') || ' ' ||" \
	"  coalesce(src.name, ''), 'record'," \
	"  r.id," \
	"  coalesce((SELECT CAST(strftime('%s', d) AS INTEGER) + (length(d) =" \
	"  10) * 43200 FROM (SELECT CASE WHEN json_valid(r.resource) THEN" \
	"  coalesce(json_extract(r.resource, '$.effectiveDateTime')," \
	"  json_extract(r.resource, '$.issued'), json_extract(r.resource," \
	"  '$.date'), json_extract(r.resource, '$.recordedDate')," \
	"  json_extract(r.resource, '$.onsetDateTime')," \
	"  json_extract(r.resource, '$.authoredOn')," \
	"  json_extract(r.resource, '$.performedDateTime')," \
	"  json_extract(r.resource, '$.effectivePeriod.start')," \
	"  json_extract(r.resource, '$.period.start')) END AS d)), r.received)" \
	"  FROM clinical_record AS r LEFT JOIN source AS src ON src.id =" \
	"  r.source_id WHERE (r.id > (SELECT last FROM search_mark WHERE kind =" \
	"  'record') OR r.id IN temp.search_again) AND NOT EXISTS (SELECT 1" \
	"  FROM search_text WHERE rowid = r.id * 8 + 3);" \
	"INSERT OR IGNORE INTO search_text_bare SELECT r.id FROM" \
	"  clinical_record AS r JOIN temp.search_new AS n ON n.id = r.id * 8 + 3" \
	"  WHERE r.resource IS NULL;" \
	"INSERT INTO search_text(rowid, title, body, kind, ref, time) SELECT" \
	"  id, title, body, kind, ref, time FROM temp.search_new;" \
	"INSERT OR REPLACE INTO search_text_key(id, time, title) SELECT id," \
	"  time, title FROM temp.search_new;" \
	"DELETE FROM temp.search_new;" \
	"UPDATE search_mark SET last = CASE kind" \
	"  WHEN 'workout' THEN (SELECT coalesce(max(id), 0) FROM workout)" \
	"  WHEN 'lab' THEN (SELECT coalesce(max(id), 0) FROM lab_result)" \
	"  WHEN 'record' THEN (SELECT coalesce(max(id), 0) FROM clinical_record)" \
	"  ELSE last END;"

const char *
hq_store_search_key(void)
{
	return SEARCH_KEY;
}

const char *
hq_store_search_fill(void)
{
	return SEARCH_FILL;
}

/*
 * The schema, one migration per entry; entry i brings the store to version
 * i + 1. Append only: a landed migration is never edited.
 */
static const char *const migrations[] = {
	/* 1: samples and everything an Apple Health export holds */
	"CREATE TABLE metric ("
	"  id INTEGER PRIMARY KEY,"
	"  identifier TEXT NOT NULL UNIQUE"
	");"
	"CREATE TABLE source ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE"
	");"
	"CREATE TABLE device ("
	"  id INTEGER PRIMARY KEY,"
	"  descr TEXT NOT NULL UNIQUE"
	");"
	"CREATE TABLE import ("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL,"
	"  format TEXT NOT NULL,"
	"  size INTEGER,"
	"  export_date INTEGER,"
	"  export_version TEXT,"
	"  locale TEXT,"
	"  started INTEGER NOT NULL,"
	"  finished INTEGER,"
	"  records INTEGER NOT NULL DEFAULT 0,"
	"  inserted INTEGER NOT NULL DEFAULT 0,"
	"  duplicates INTEGER NOT NULL DEFAULT 0,"
	"  skipped INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE TABLE sample ("
	"  id INTEGER PRIMARY KEY,"
	"  metric_id INTEGER NOT NULL REFERENCES metric(id),"
	"  source_id INTEGER NOT NULL REFERENCES source(id),"
	"  start INTEGER NOT NULL,"
	"  end INTEGER NOT NULL,"
	"  value REAL NOT NULL,"
	"  text TEXT NOT NULL DEFAULT '',"
	"  unit TEXT,"
	"  device_id INTEGER REFERENCES device(id),"
	"  source_version TEXT,"
	"  created INTEGER,"
	"  offset_min INTEGER,"
	"  import_id INTEGER REFERENCES import(id)"
	");"
	/* The natural key, and the index queries by metric and time use. */
	"CREATE UNIQUE INDEX sample_key"
	"  ON sample(metric_id, start, source_id, end, value, text);"
	"CREATE TABLE sample_meta ("
	"  sample_id INTEGER NOT NULL REFERENCES sample(id),"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL"
	");"
	"CREATE INDEX sample_meta_sample ON sample_meta(sample_id);"
	/* HRV beat lists: beat time is the local time of day written by the
	 * phone, in seconds since local midnight. */
	"CREATE TABLE hrv_beat ("
	"  sample_id INTEGER NOT NULL REFERENCES sample(id),"
	"  seq INTEGER NOT NULL,"
	"  bpm REAL NOT NULL,"
	"  time_of_day REAL,"
	"  PRIMARY KEY (sample_id, seq)"
	") WITHOUT ROWID;"
	"CREATE TABLE correlation ("
	"  id INTEGER PRIMARY KEY,"
	"  metric_id INTEGER NOT NULL REFERENCES metric(id),"
	"  source_id INTEGER NOT NULL REFERENCES source(id),"
	"  start INTEGER NOT NULL,"
	"  end INTEGER NOT NULL,"
	"  created INTEGER,"
	"  import_id INTEGER REFERENCES import(id),"
	"  UNIQUE (metric_id, source_id, start, end)"
	");"
	"CREATE TABLE correlation_member ("
	"  correlation_id INTEGER NOT NULL REFERENCES correlation(id),"
	"  sample_id INTEGER NOT NULL REFERENCES sample(id),"
	"  PRIMARY KEY (correlation_id, sample_id)"
	") WITHOUT ROWID;"
	"CREATE TABLE workout ("
	"  id INTEGER PRIMARY KEY,"
	"  activity_type TEXT NOT NULL,"
	"  source_id INTEGER NOT NULL REFERENCES source(id),"
	"  start INTEGER NOT NULL,"
	"  end INTEGER NOT NULL,"
	"  duration REAL,"        /* seconds, pauses excluded */
	"  distance REAL,"        /* metres */
	"  energy REAL,"          /* kcal */
	"  device_id INTEGER REFERENCES device(id),"
	"  source_version TEXT,"
	"  created INTEGER,"
	"  offset_min INTEGER,"
	"  import_id INTEGER REFERENCES import(id),"
	"  UNIQUE (activity_type, source_id, start, end)"
	");"
	"CREATE INDEX workout_start ON workout(start);"
	"CREATE TABLE workout_meta ("
	"  workout_id INTEGER NOT NULL REFERENCES workout(id),"
	"  activity_uuid TEXT,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL"
	");"
	"CREATE INDEX workout_meta_workout ON workout_meta(workout_id);"
	"CREATE TABLE workout_activity ("
	"  workout_id INTEGER NOT NULL REFERENCES workout(id),"
	"  uuid TEXT NOT NULL,"
	"  activity_type TEXT,"
	"  start INTEGER NOT NULL,"
	"  end INTEGER,"
	"  duration REAL,"
	"  PRIMARY KEY (workout_id, uuid)"
	") WITHOUT ROWID;"
	/* activity_uuid NULL: the workout's own statistics; otherwise those
	 * of one WorkoutActivity (never add the two levels). Values are in
	 * the canonical unit of metric_id. */
	"CREATE TABLE workout_stat ("
	"  workout_id INTEGER NOT NULL REFERENCES workout(id),"
	"  activity_uuid TEXT,"
	"  metric_id INTEGER NOT NULL REFERENCES metric(id),"
	"  start INTEGER,"
	"  end INTEGER,"
	"  sum REAL, average REAL, minimum REAL, maximum REAL,"
	"  unit TEXT"
	");"
	"CREATE INDEX workout_stat_workout ON workout_stat(workout_id);"
	"CREATE TABLE workout_event ("
	"  workout_id INTEGER NOT NULL REFERENCES workout(id),"
	"  activity_uuid TEXT,"
	"  type TEXT NOT NULL,"
	"  date INTEGER NOT NULL,"
	"  duration REAL"
	");"
	"CREATE INDEX workout_event_workout ON workout_event(workout_id);"
	"CREATE TABLE route ("
	"  id INTEGER PRIMARY KEY,"
	"  workout_id INTEGER NOT NULL REFERENCES workout(id),"
	"  source_id INTEGER REFERENCES source(id),"
	"  start INTEGER,"
	"  end INTEGER,"
	"  file TEXT"
	");"
	"CREATE INDEX route_workout ON route(workout_id);"
	"CREATE TABLE route_point ("
	"  route_id INTEGER NOT NULL REFERENCES route(id),"
	"  seq INTEGER NOT NULL,"
	"  time INTEGER,"
	"  lat REAL NOT NULL, lon REAL NOT NULL, ele REAL,"
	"  h_acc REAL, v_acc REAL, course REAL, speed REAL,"
	"  PRIMARY KEY (route_id, seq)"
	") WITHOUT ROWID;"
	"CREATE TABLE activity_summary ("
	"  date TEXT PRIMARY KEY,"
	"  active_energy REAL, active_energy_goal REAL, active_energy_unit TEXT,"
	"  move_time REAL, move_time_goal REAL,"
	"  exercise_time REAL, exercise_time_goal REAL,"
	"  stand_hours REAL, stand_hours_goal REAL,"
	"  import_id INTEGER REFERENCES import(id)"
	");"
	"CREATE TABLE clinical_record ("
	"  id INTEGER PRIMARY KEY,"
	"  type TEXT NOT NULL,"
	"  identifier TEXT NOT NULL,"
	"  source_id INTEGER REFERENCES source(id),"
	"  source_url TEXT,"
	"  fhir_version TEXT,"
	"  received INTEGER,"
	"  resource_path TEXT,"
	"  resource TEXT,"          /* the FHIR JSON, when the zip had it */
	"  import_id INTEGER REFERENCES import(id),"
	"  UNIQUE (type, identifier)"
	");"
	"CREATE TABLE me ("
	"  key TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL"
	");",
	/* 2: rollups of quantity samples per 15-minute UTC slot (rollup.h),
	 * built here from the samples already stored; hq_rollup_refresh()
	 * keeps them up to date at every import. */
	"CREATE TABLE rollup ("
	"  metric_id INTEGER NOT NULL,"
	"  slot INTEGER NOT NULL,"
	"  source_id INTEGER NOT NULL,"
	"  n INTEGER NOT NULL DEFAULT 0,"
	"  sum REAL NOT NULL DEFAULT 0,"
	"  sumsq REAL NOT NULL DEFAULT 0,"
	"  min REAL, max REAL,"
	"  psum REAL NOT NULL DEFAULT 0,"
	"  pn INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (metric_id, slot, source_id)"
	") WITHOUT ROWID;"
	"INSERT INTO rollup(metric_id, slot, source_id, n, sum, sumsq, min, max)"
	"  SELECT metric_id, start - ((start % 900) + 900) % 900, source_id,"
	"    count(*), sum(value), sum(value * value), min(value), max(value)"
	"  FROM sample WHERE text = '' GROUP BY 1, 2, 3;"
	"WITH RECURSIVE part(metric_id, source_id, start, end, value, slot) AS ("
	"  SELECT metric_id, source_id, start, max(end, start), value,"
	"    start - ((start % 900) + 900) % 900 FROM sample WHERE text = ''"
	"  UNION ALL"
	"  SELECT metric_id, source_id, start, end, value, slot + 900 FROM part"
	"  WHERE slot + 900 < end)"
	"INSERT INTO rollup(metric_id, slot, source_id, psum, pn)"
	"  SELECT metric_id, slot, source_id,"
	"    sum(CASE WHEN end > start THEN value * (min(end, slot + 900) -"
	"      max(start, slot)) / (end - start) ELSE value END), count(*)"
	"  FROM part WHERE true GROUP BY 1, 2, 3"
	"  ON CONFLICT(metric_id, slot, source_id) DO UPDATE SET"
	"    psum = psum + excluded.psum, pn = pn + excluded.pn;"
	/* Cumulative metrics merged across sources by the default priority
	 * (merge.h), per slot; rollup_merged_metric lists the metrics whose
	 * merged rollups are complete (hq_rollup_refresh builds the rest). */
	"CREATE TABLE rollup_merged ("
	"  metric_id INTEGER NOT NULL,"
	"  slot INTEGER NOT NULL,"
	"  sum REAL NOT NULL,"
	"  n INTEGER NOT NULL,"
	"  PRIMARY KEY (metric_id, slot)"
	") WITHOUT ROWID;"
	"CREATE TABLE rollup_merged_metric ("
	"  metric_id INTEGER PRIMARY KEY"
	");"
	/* The samples the rollups cover: every id up to last_sample_id.
	 * Queries use the rollups only when that is every sample. */
	"CREATE TABLE rollup_state ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  last_sample_id INTEGER NOT NULL"
	");"
	"INSERT INTO rollup_state VALUES (1, (SELECT coalesce(max(id), 0) FROM sample));",
	/* 3: hq-agent's log of runs, and conversations for --session.
	 * Never API keys (hq-agent(1), tests/cli/3006-agent-log.t). */
	"CREATE TABLE agent_run ("
	"  id INTEGER PRIMARY KEY,"
	"  started INTEGER NOT NULL,"      /* UTC seconds */
	"  session TEXT,"
	"  question TEXT NOT NULL,"
	"  provider TEXT NOT NULL,"
	"  model TEXT NOT NULL,"
	"  base_url TEXT NOT NULL,"
	"  tool_mode TEXT NOT NULL,"
	"  steps INTEGER NOT NULL DEFAULT 0,"
	"  outcome TEXT,"                  /* answered step_limit timeout failed */
	"  error TEXT,"
	"  answer TEXT,"
	"  input_tokens INTEGER NOT NULL DEFAULT 0,"
	"  output_tokens INTEGER NOT NULL DEFAULT 0,"
	"  seconds REAL,"
	"  tool_seconds REAL"
	");"
	"CREATE INDEX agent_run_session ON agent_run(session, id);"
	"CREATE TABLE agent_request ("     /* one round trip to the model */
	"  run_id INTEGER NOT NULL REFERENCES agent_run(id),"
	"  step INTEGER NOT NULL,"
	"  seconds REAL NOT NULL,"
	"  input_tokens INTEGER NOT NULL,"
	"  output_tokens INTEGER NOT NULL,"
	"  tool_calls INTEGER NOT NULL,"
	"  cut_calls INTEGER NOT NULL,"
	"  retries INTEGER NOT NULL,"
	"  stop_reason TEXT,"
	"  text_bytes INTEGER NOT NULL,"
	"  PRIMARY KEY (run_id, step)"
	");"
	"CREATE TABLE agent_tool_call ("
	"  run_id INTEGER NOT NULL REFERENCES agent_run(id),"
	"  step INTEGER NOT NULL,"
	"  call_id TEXT NOT NULL,"
	"  tool TEXT NOT NULL,"
	"  arguments TEXT NOT NULL,"
	"  exit_status INTEGER,"           /* NULL: not run */
	"  is_error INTEGER NOT NULL,"
	"  seconds REAL,"
	"  rows INTEGER,"
	"  rows_cut INTEGER,"
	"  output_bytes INTEGER,"
	"  result_bytes INTEGER NOT NULL"  /* what the model was given */
	");"
	"CREATE INDEX agent_tool_call_run ON agent_tool_call(run_id);"
	"CREATE TABLE agent_message ("     /* the conversation, neutral JSON */
	"  run_id INTEGER NOT NULL REFERENCES agent_run(id),"
	"  seq INTEGER NOT NULL,"
	"  message TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, seq)"
	");",
	/* 4 (labs and DEXA): clinical records keyed by where they came from
	 * (UNIQUE(type, identifier) kept one of two records with the same
	 * resource id from two health systems), reports_done marking those
	 * whose FHIR resource has been read into lab rows (report.h: the next
	 * import reads the rest); reports, one row per (report, test or
	 * field). Times UTC seconds; dates local. */
	"CREATE TABLE clinical_record_v2 ("
	"  id INTEGER PRIMARY KEY,"
	"  type TEXT NOT NULL,"
	"  identifier TEXT NOT NULL,"
	"  source_id INTEGER REFERENCES source(id),"
	"  source_url TEXT,"
	"  fhir_version TEXT,"
	"  received INTEGER,"
	"  resource_path TEXT,"
	"  resource TEXT,"
	"  import_id INTEGER REFERENCES import(id),"
	"  reports_done INTEGER NOT NULL DEFAULT 0"
	");"
	"INSERT INTO clinical_record_v2(id, type, identifier, source_id,"
	"  source_url, fhir_version, received, resource_path, resource, import_id)"
	"  SELECT id, type, identifier, source_id, source_url, fhir_version,"
	"  received, resource_path, resource, import_id FROM clinical_record;"
	"DROP TABLE clinical_record;"
	"ALTER TABLE clinical_record_v2 RENAME TO clinical_record;"
	"CREATE UNIQUE INDEX clinical_record_key ON clinical_record(type,"
	"  identifier, coalesce(source_id, 0), coalesce(source_url, ''));"
	"CREATE INDEX clinical_record_path ON clinical_record(resource_path);"
	"CREATE TABLE report ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL,"              /* labs, dexa */
	"  date TEXT NOT NULL,"              /* local date: collection, scan */
	"  source TEXT NOT NULL,"            /* the lab, the scanner; may be '' */
	"  time INTEGER,"                    /* dexa: the scan's instant */
	"  import_id INTEGER REFERENCES import(id),"
	"  UNIQUE (kind, date, source)"
	");"
	"CREATE TABLE lab_result ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES report(id),"
	"  test TEXT NOT NULL,"              /* catalog name or snake_case name */
	"  name TEXT NOT NULL,"              /* as the file wrote it */
	"  loinc TEXT NOT NULL DEFAULT '',"
	"  time INTEGER NOT NULL,"           /* collection instant */
	"  has_time INTEGER NOT NULL,"       /* 0: a date only (local midnight) */
	"  date TEXT NOT NULL,"
	"  value REAL,"                      /* NULL: text only */
	"  comparator TEXT NOT NULL DEFAULT '',"
	"  text TEXT NOT NULL DEFAULT '',"
	"  unit TEXT NOT NULL DEFAULT '',"   /* normalised, as written */
	"  ref_low REAL, ref_high REAL,"
	"  ref_text TEXT NOT NULL DEFAULT '',"
	"  lab_flag TEXT NOT NULL DEFAULT '',"
	"  resource_id TEXT NOT NULL DEFAULT '',"
	"  status TEXT NOT NULL DEFAULT '',"
	"  superseded_by INTEGER,"           /* a newer result; -1 taken back */
	"  clinical_record_id INTEGER REFERENCES clinical_record(id),"
	"  import_id INTEGER REFERENCES import(id)"
	");"
	"CREATE INDEX lab_result_test ON lab_result(test, date);"
	"CREATE INDEX lab_result_time ON lab_result(test, time);"
	"CREATE INDEX lab_result_report ON lab_result(report_id);"
	"CREATE TABLE dexa_value ("
	"  report_id INTEGER NOT NULL REFERENCES report(id),"
	"  field TEXT NOT NULL,"             /* canonical: trunk_fat_mass */
	"  value REAL NOT NULL,"             /* in unit, the field's canonical */
	"  unit TEXT NOT NULL,"
	"  import_id INTEGER REFERENCES import(id),"
	"  PRIMARY KEY (report_id, field)"
	") WITHOUT ROWID;",
	/* 5: read-only views for people who open the store in sqlite3 or
	 * Datasette (hq(7), VIEWS): names for ids, local ISO times, values
	 * with the unit they are stored in (sample.unit is the file's). Each
	 * import describes every metric and workout type in table catalog
	 * from hq's own catalog (lib/store/ingest.c); until the next import the
	 * rows made here name them by their identifiers. */
	"CREATE TABLE catalog ("
	"  identifier TEXT PRIMARY KEY,"   /* metric.identifier or workout.activity_type */
	"  name TEXT NOT NULL,"            /* hq's name: step_count, running */
	"  kind TEXT NOT NULL,"            /* cumulative discrete category workout */
	"  unit TEXT"                      /* sample values are in it; NULL: as in the file */
	");"
	"INSERT INTO catalog SELECT identifier, identifier, 'unknown', NULL FROM metric;"
	"INSERT OR IGNORE INTO catalog SELECT DISTINCT activity_type, activity_type,"
	"  'workout', NULL FROM workout;"
	"CREATE VIEW samples AS SELECT s.id AS id, c.name AS metric,"
	"  " LOCAL_ISO("s.start") " AS start, " LOCAL_ISO("s.end") " AS end,"
	"  CASE WHEN s.text = '' THEN s.value END AS value,"
	"  CASE WHEN s.text = '' THEN coalesce(c.unit, s.unit) END AS unit,"
	"  nullif(s.text, '') AS category,"
	"  src.name AS source, d.descr AS device, s.unit AS file_unit,"
	"  s.start AS start_utc, s.end AS end_utc"
	"  FROM sample s JOIN metric m ON m.id = s.metric_id"
	"  JOIN catalog c ON c.identifier = m.identifier"
	"  JOIN source src ON src.id = s.source_id"
	"  LEFT JOIN device d ON d.id = s.device_id;"
	/* Days from the rollups: cumulative metrics merged across devices
	 * (value: the day's total), the others over every source (value:
	 * the day's average). A WHERE on metric reaches the rollups' key. */
	"CREATE VIEW daily AS"
	"  SELECT c.name AS metric, date(r.slot, 'unixepoch', 'localtime') AS day,"
	"    sum(r.sum) AS value, sum(r.sum) AS sum, NULL AS avg, NULL AS min, NULL AS max,"
	"    sum(r.n) AS n, c.unit AS unit"
	"  FROM rollup_merged r JOIN metric m ON m.id = r.metric_id"
	"  JOIN catalog c ON c.identifier = m.identifier"
	"  WHERE r.metric_id IN (SELECT metric_id FROM rollup_merged_metric)"
	"  GROUP BY 1, 2"
	"  UNION ALL"
	"  SELECT c.name AS metric, date(r.slot, 'unixepoch', 'localtime') AS day,"
	"    sum(r.sum) / sum(r.n) AS value, sum(r.sum) AS sum, sum(r.sum) / sum(r.n) AS avg,"
	"    min(r.min) AS min, max(r.max) AS max, sum(r.n) AS n, c.unit AS unit"
	"  FROM rollup r JOIN metric m ON m.id = r.metric_id"
	"  JOIN catalog c ON c.identifier = m.identifier"
	"  WHERE r.metric_id NOT IN (SELECT metric_id FROM rollup_merged_metric)"
	"  GROUP BY 1, 2 HAVING sum(r.n) > 0;"
	/* Heart rate as hq-query workouts has it: the workout's statistic,
	 * else the heart-rate samples during it. */
	"CREATE VIEW workouts AS SELECT w.id AS id, c.name AS type,"
	"  " LOCAL_ISO("w.start") " AS start, " LOCAL_ISO("w.end") " AS end,"
	"  date(w.start, 'unixepoch', 'localtime') AS date,"
	"  w.duration / 60.0 AS duration_min, w.distance / 1000.0 AS distance_km,"
	"  w.energy AS energy_kcal,"
	"  coalesce((SELECT ws.average FROM workout_stat ws JOIN metric hm ON hm.id = ws.metric_id"
	"    WHERE ws.workout_id = w.id AND ws.activity_uuid IS NULL"
	"    AND hm.identifier = 'HKQuantityTypeIdentifierHeartRate'),"
	"    (SELECT avg(hs.value) FROM sample hs WHERE hs.metric_id = (SELECT id FROM metric"
	"    WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')"
	"    AND hs.start >= w.start AND hs.start <= w.end)) AS avg_hr,"
	"  coalesce((SELECT ws.maximum FROM workout_stat ws JOIN metric hm ON hm.id = ws.metric_id"
	"    WHERE ws.workout_id = w.id AND ws.activity_uuid IS NULL"
	"    AND hm.identifier = 'HKQuantityTypeIdentifierHeartRate'),"
	"    (SELECT max(hs.value) FROM sample hs WHERE hs.metric_id = (SELECT id FROM metric"
	"    WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')"
	"    AND hs.start >= w.start AND hs.start <= w.end)) AS max_hr,"
	"  src.name AS source,"
	"  EXISTS (SELECT 1 FROM route r WHERE r.workout_id = w.id) AS has_route,"
	"  w.start AS start_utc, w.end AS end_utc"
	"  FROM workout w JOIN catalog c ON c.identifier = w.activity_type"
	"  JOIN source src ON src.id = w.source_id;",
	/* 6: the time zones the data records (HKTimeZone metadata of samples
	 * and workouts), kept up to date by every import: with no zone given,
	 * local days are those of the most recent one (zone.h). first and
	 * last are the starts of the earliest and latest sample or workout
	 * that names it; n how many do. */
	"CREATE TABLE IF NOT EXISTS time_zone ("
	"  zone TEXT PRIMARY KEY,"
	"  first INTEGER NOT NULL,"
	"  last INTEGER NOT NULL,"
	"  n INTEGER NOT NULL"
	");"
	"INSERT OR IGNORE INTO time_zone(zone, first, last, n)"
	"  SELECT value, min(start), max(start), count(*) FROM ("
	"    SELECT m.value, s.start FROM sample_meta m"
	"      JOIN sample s ON s.id = m.sample_id WHERE m.key = 'HKTimeZone'"
	"    UNION ALL"
	"    SELECT m.value, w.start FROM workout_meta m"
	"      JOIN workout w ON w.id = m.workout_id WHERE m.key = 'HKTimeZone')"
	"  WHERE length(value) BETWEEN 1 AND 64 GROUP BY value;",
	/* 7 (issue 13), appended after main's 6; the lead renumbers at
	 * merge if another lands first.
	 * Safe to run again over its own tables (IF NOT EXISTS).
	 * The values of discrete metrics per 15-minute slot and source
	 * (rollup.h), for exact medians and percentiles without reading every
	 * sample. Empty here: rollup_vals_state says they cover no sample
	 * yet, queries read raw samples until the next import's refresh
	 * folds every stored sample in... */
	"CREATE TABLE IF NOT EXISTS rollup_vals ("
	"  metric_id INTEGER NOT NULL,"
	"  slot INTEGER NOT NULL,"
	"  source_id INTEGER NOT NULL,"
	"  vals BLOB NOT NULL,"
	"  PRIMARY KEY (metric_id, slot, source_id)"
	") WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS rollup_vals_state ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  last_sample_id INTEGER NOT NULL"
	");"
	"INSERT OR IGNORE INTO rollup_vals_state VALUES (1, 0);"
	/* ...and cumulative metrics merged by the default priority per
	 * 15-minute slot, beside rollup_merged's hours, for zones whose days
	 * start on the half or quarter hour. rollup_merged_q_metric lists
	 * the metrics merged into it: none yet, so until the next import's
	 * refresh merges each again (into both), quarter-hour zones read raw
	 * samples, while rollup_merged's hours stay as they were. */
	"CREATE TABLE IF NOT EXISTS rollup_merged_q ("
	"  metric_id INTEGER NOT NULL,"
	"  slot INTEGER NOT NULL,"
	"  sum REAL NOT NULL,"
	"  n INTEGER NOT NULL,"
	"  PRIMARY KEY (metric_id, slot)"
	") WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS rollup_merged_q_metric ("
	"  metric_id INTEGER PRIMARY KEY"
	");",
	/* 8 (issue 22), appended; the lead renumbers at merge if another
	 * lands first. The same activity recorded twice (an Apple workout
	 * and its device file): workout_id is the recording that yields to
	 * same_as (hq_ingest_same_refresh(), kept by every import; empty
	 * here until the next one). */
	"CREATE TABLE IF NOT EXISTS workout_same ("
	"  workout_id INTEGER PRIMARY KEY,"
	"  same_as INTEGER NOT NULL"
	");",
	/* 9 (issue 21), appended; the lead renumbers at merge if another
	 * lands first. What the athlete's figures need of each workout,
	 * whatever the settings (hq_athlete_summary, athlete_cache.h): the
	 * seconds held at each heart rate (bins, native doubles and
	 * integers), NP, the gains. Filled on first use; a row counts only
	 * while stamp is the store's latest import id, so any import makes
	 * every row stale. Empty here. */
	"CREATE TABLE IF NOT EXISTS workout_figures ("
	"  workout_id INTEGER PRIMARY KEY,"
	"  stamp INTEGER NOT NULL,"
	"  paused_s INTEGER NOT NULL,"
	"  hr_source INTEGER NOT NULL,"
	"  power_source INTEGER NOT NULL,"
	"  nhr INTEGER NOT NULL,"
	"  hr_max REAL,"
	"  hr_sample_max REAL,"
	"  np REAL,"
	"  power_s REAL NOT NULL,"
	"  route_gain_m REAL,"
	"  ascended_m REAL,"
	"  bins BLOB"
	");"
	/* Whether every workout has a good row, and max_hr's default, without
	 * reading the rows. */
	"CREATE INDEX IF NOT EXISTS workout_figures_stamp"
	"  ON workout_figures(stamp, hr_sample_max);",
	/* 10 (issue 21), appended; the lead renumbers at merge if another
	 * lands first. A kept row is good until an import drops it, and an
	 * import drops only the rows it could change (lib/store/figures.c);
	 * stamp is now the import id the row was read at. The rows of an
	 * older stamp were stale by 9's rule: gone. max_hr's default and
	 * "is every workout kept?" from an index on hr_sample_max alone. */
	"DELETE FROM workout_figures WHERE stamp IS NOT"
	"  (SELECT coalesce(max(id), 0) FROM import);"
	"DROP INDEX IF EXISTS workout_figures_stamp;"
	"CREATE INDEX IF NOT EXISTS workout_figures_hr"
	"  ON workout_figures(hr_sample_max);",
	/* 11 (issues 28 and 29), appended; the lead renumbers at merge if
	 * another lands first. The same activity by hq-ingest(1)'s rule
	 * (lib/store/same.c): what a counted recording takes from one that
	 * yields to it (field distance, energy, ascent, route or power, from
	 * from_id); the recordings that yield to one, by it; and the
	 * workouts the next import settles again, all of them here (the rule
	 * changed: until then workout_same is the old rule's). */
	"CREATE TABLE IF NOT EXISTS workout_fill ("
	"  workout_id INTEGER NOT NULL,"
	"  field TEXT NOT NULL,"
	"  from_id INTEGER NOT NULL,"
	"  PRIMARY KEY (workout_id, field)"
	") WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS workout_same_as ON workout_same(same_as);"
	"CREATE TABLE IF NOT EXISTS workout_same_todo ("
	"  workout_id INTEGER PRIMARY KEY"
	");"
	"INSERT OR IGNORE INTO workout_same_todo SELECT id FROM workout;",
	/* 12 (issue 34), appended; the lead renumbers at merge if another
	 * lands first. What hq-agent withheld from a model elsewhere in a
	 * run's last request: a JSON object of counts ({"positions":N,
	 * "names":N,"serials":N}), never the values nor the placeholders'
	 * names; no row when nothing was filtered. A table of its own, not a
	 * column: a migration must run again over its own tables. */
	"CREATE TABLE IF NOT EXISTS agent_withheld ("
	"  run_id INTEGER PRIMARY KEY REFERENCES agent_run(id),"
	"  counts TEXT NOT NULL"
	");",
	/* 13 (issue 31). hq-query search's indexes, derived from the rows:
	 * search_text, SQLite's FTS5 over the words of each workout, lab
	 * result and clinical record (rowid = id * 8 + kind: 1 workout, 2
	 * lab, 3 record; case and accents folded, English stems); route_box,
	 * an R*Tree of each route's segments of 64 points (id = route id *
	 * 2^20 + segment), their bounding boxes in degrees; search_mark, the
	 * last id of each table indexed (rows are never deleted, so an import
	 * indexes the ids past it). Built here from
	 * what the store holds, kept by every import (SEARCH_FILL), left out
	 * of the archive and built again at a restore (HACKING.md). */
	"CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(title,"
	"  body, kind UNINDEXED, ref UNINDEXED, time UNINDEXED,"
	"  tokenize = 'porter unicode61 remove_diacritics 2');"
	"CREATE VIRTUAL TABLE IF NOT EXISTS route_box USING rtree(id,"
	"  lat_lo, lat_hi, lon_lo, lon_hi, +route_id, +seq_lo, +seq_hi);"
	"CREATE TABLE IF NOT EXISTS search_mark ("
	"  kind TEXT PRIMARY KEY,"
	"  last INTEGER NOT NULL"
	");"
	"INSERT OR IGNORE INTO search_mark VALUES ('workout', 0), ('lab', 0),"
	"  ('record', 0), ('route', 0);",
	/* 14 (issue 32). A training plan (plan.h): one planned workout a local day
	 * (YYYY-MM-DD), its type (a HealthKit identifier), minutes, load
	 * and, when the plan gave an intensity factor instead, that. */
	"CREATE TABLE IF NOT EXISTS plan ("
	"  date TEXT PRIMARY KEY,"
	"  type TEXT NOT NULL,"
	"  duration_min REAL NOT NULL,"
	"  load REAL NOT NULL,"
	"  if_ REAL,"
	"  title TEXT"
	") WITHOUT ROWID;",
	/* 15 (issue 31: the food log). Safe to run again (IF NOT EXISTS). A
	 * correlation's own MetadataEntry pairs (a Food correlation's
	 * HKFoodType: the food's name), one value per key; empty here until
	 * the next import, which fills them for the correlations stored
	 * before it too. */
	"CREATE TABLE IF NOT EXISTS correlation_meta ("
	"  correlation_id INTEGER NOT NULL REFERENCES correlation(id),"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (correlation_id, key)"
	") WITHOUT ROWID;"
	/* The merge's rule for instants changed with it (merge.h: an instant
	 * at a higher-ranked instant's time is covered: a meal two apps
	 * logged counts once), so the dietary metrics' merged rollups, made
	 * by the old rule, are no longer complete: queries read their samples
	 * until the next import merges each whole again. */
	"DELETE FROM rollup_merged_metric WHERE metric_id IN (SELECT id FROM"
	"  metric WHERE identifier LIKE 'HKQuantityTypeIdentifierDietary%');"
	"DELETE FROM rollup_merged_q_metric WHERE metric_id IN (SELECT id FROM"
	"  metric WHERE identifier LIKE 'HKQuantityTypeIdentifierDietary%');",
	/* 16 (issue 31: search's speed). Each row of search_text's time and
	 * title, by its rowid: what a search sorts on, read by a join rather
	 * than from the FTS5 table's content (a nested statement per match:
	 * 2/3 of a search of 3,000 matches, make bench); and the clinical
	 * records indexed without their FHIR resource (it comes with a later
	 * import: then indexed again). Derived like search_text, so named
	 * under it (no archive segment holds them); hq_store_search_refresh
	 * creates them too, for a store it fills before this migration. */
	SEARCH_KEY
	"INSERT OR IGNORE INTO search_text_key(id, time, title) SELECT rowid,"
	"  time, title FROM search_text;"
	"INSERT OR IGNORE INTO search_text_bare SELECT r.id FROM clinical_record"
	"  AS r WHERE r.resource IS NULL AND r.id <= (SELECT last FROM"
	"  search_mark WHERE kind = 'record');",
};

#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

int
hq_store_latest_version(void)
{
	return NMIGRATIONS;
}

const char *
hq_store_migration(int version)
{
	return version >= 0 && version < NMIGRATIONS ? migrations[version] : NULL;
}
