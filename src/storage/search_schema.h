/* search_schema.h - the SQL of the full-text search index (schema versions 5
 * and 8), kept apart from migrate.c's table so the rows there stay one line.
 *
 * Only src/storage/ and nothing else includes this. Version 8 (at the end) is
 * what amc uses now; version 5 stays because migrations are never edited.
 * Version 5's index was three things:
 *  - search_doc: one row per searchable text of a task or step (its field:
 *    goal (a flow's name when it has no goal), summary, task_error on step 0; description, error, reasoning, screen,
 *    after_screen on steps), with the text itself (body). Its id is the order
 *    of writing, so "newest first" is id descending and needs no sort.
 *  - search_fts: an FTS5 index over search_doc.body (external content, so the
 *    text is stored once; columnsize=0 because nothing ranks by length).
 *  - triggers: rows of tasks and timeline write and remove their documents in
 *    the statement (so the transaction) that writes or removes the row, and
 *    search_doc keeps search_fts in step. Retention, which deletes tasks and
 *    timeline rows, removes their documents with them.
 *
 * What a step's "screen" is: timeline.screen_text, the visible text of the
 * observation the step acted on (UI-tree text, content descriptions and hints,
 * OCR words; masked like everything the runner stores), which the runner
 * writes. A row without it (an older amc's, or a writer that does not fill
 * it) gets the texts of its scene, OCR words and stored UI tree instead,
 * extracted here in SQL. "after_screen" is timeline.after_text, the screen the
 * step left behind: it is indexed only for the newest step of a task (the
 * next step's "screen" is the same observation), so a task's final screen is
 * found too without indexing every screen twice.
 *
 * The migration's last statement backfills what an older amc recorded, in the
 * order it was written: each task's goal, its steps' texts, then its summary
 * and error. The last step's after-screen of an older record is only in a tree
 * artifact, which SQL cannot read: it stays out of the index. */
#ifndef AMC_SEARCH_SCHEMA_H
#define AMC_SEARCH_SCHEMA_H

/* The texts of a row's scene, OCR words and stored UI tree, one per line, for
 * rows that carry no screen_text; P is the row's prefix ("new." or "t."). A
 * value that is not valid JSON gives no text rather than failing the write. */
#define AMC_SEARCH_JSON_TEXT(P)                                                              \
	"(SELECT group_concat(v, char(10)) FROM ("                                               \
	" SELECT j.value AS v FROM json_tree(CASE WHEN json_valid(" P "scene) THEN " P "scene"   \
	"  ELSE 'null' END) j WHERE j.key = 'text' AND j.type = 'text' AND j.value != ''"        \
	" UNION ALL SELECT j.value FROM json_tree(CASE WHEN json_valid(" P "ocr) THEN " P "ocr"  \
	"  ELSE 'null' END) j WHERE j.key = 'text' AND j.type = 'text' AND j.value != ''"        \
	" UNION ALL SELECT j.value FROM json_tree(CASE WHEN json_valid(" P "ui_tree) THEN "      \
	P "ui_tree ELSE 'null' END) j WHERE j.key IN ('text', 'content_desc', 'hint')"           \
	"  AND j.type = 'text' AND j.value != ''))"

/* The screen text of a step row. COALESCE stops at the first non-NULL, so the
 * JSON is read only for rows without screen_text. */
#define AMC_SEARCH_SCREEN(P) "COALESCE(" P "screen_text, " AMC_SEARCH_JSON_TEXT(P) ")"

#define AMC_SEARCH_MIGRATION_SQL                                                                 \
	"ALTER TABLE timeline ADD COLUMN screen_text TEXT;"                                          \
	"ALTER TABLE timeline ADD COLUMN after_text TEXT;"                                           \
	"CREATE TABLE search_doc ("                                                                  \
	" id INTEGER PRIMARY KEY,"                                                                   \
	" task_id TEXT NOT NULL,"                                                                    \
	" step INTEGER NOT NULL,"                                                                    \
	" field TEXT NOT NULL,"                                                                      \
	" created_ms INTEGER,"                                                                       \
	" body TEXT NOT NULL);"                                                                      \
	"CREATE INDEX search_doc_step_idx ON search_doc(task_id, step, field);"                      \
	"CREATE VIRTUAL TABLE search_fts USING fts5(body, content = 'search_doc',"                   \
	" content_rowid = 'id', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2');"        \
	"CREATE TRIGGER search_doc_ai AFTER INSERT ON search_doc BEGIN"                              \
	" INSERT INTO search_fts (rowid, body) VALUES (new.id, new.body); END;"                      \
	"CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN"                              \
	" INSERT INTO search_fts (search_fts, rowid, body) VALUES ('delete', old.id, old.body); END;" \
	"CREATE TRIGGER search_tasks_ai AFTER INSERT ON tasks"                                       \
	" WHEN COALESCE(new.goal, new.flow_name, '') != '' BEGIN"                                    \
	" INSERT INTO search_doc (task_id, step, field, created_ms, body)"                           \
	"  VALUES (new.id, 0, 'goal', new.created_ms, COALESCE(new.goal, new.flow_name)); END;"      \
	"CREATE TRIGGER search_tasks_au AFTER UPDATE OF summary, error ON tasks"                     \
	" WHEN old.summary IS NOT new.summary OR old.error IS NOT new.error BEGIN"                   \
	" DELETE FROM search_doc WHERE task_id = new.id AND step = 0"                                \
	"  AND field IN ('summary', 'task_error');"                                                  \
	" INSERT INTO search_doc (task_id, step, field, created_ms, body)"                           \
	"  SELECT new.id, 0, f, COALESCE(new.finished_ms, new.created_ms), b FROM"                   \
	"  (SELECT 'summary' AS f, new.summary AS b UNION ALL SELECT 'task_error', new.error)"       \
	"  WHERE b IS NOT NULL AND b != ''; END;"                                                    \
	"CREATE TRIGGER search_tasks_ad AFTER DELETE ON tasks BEGIN"                                 \
	" DELETE FROM search_doc WHERE task_id = old.id; END;"                                       \
	"CREATE TRIGGER search_timeline_ai AFTER INSERT ON timeline BEGIN"                           \
	" DELETE FROM search_doc WHERE task_id = new.task_id AND step = new.step - 1"                \
	"  AND field = 'after_screen';"                                                              \
	" INSERT INTO search_doc (task_id, step, field, created_ms, body)"                           \
	"  SELECT new.task_id, new.step, f, new.created_ms, b FROM"                                  \
	"  (SELECT 1 AS o, 'description' AS f, new.description AS b"                                 \
	"   UNION ALL SELECT 2, 'error', new.error"                                                  \
	"   UNION ALL SELECT 3, 'reasoning', new.reasoning"                                          \
	"   UNION ALL SELECT 4, 'screen', " AMC_SEARCH_SCREEN("new.")                                \
	"   UNION ALL SELECT 5, 'after_screen', new.after_text)"                                     \
	"  WHERE b IS NOT NULL AND b != '' ORDER BY o; END;"                                         \
	"CREATE TRIGGER search_timeline_ad AFTER DELETE ON timeline BEGIN"                           \
	" DELETE FROM search_doc WHERE task_id = old.task_id AND step = old.step; END;"              \
	"INSERT INTO search_doc (task_id, step, field, created_ms, body)"                            \
	" SELECT task_id, step, f, created_ms, b FROM ("                                             \
	"  SELECT k.created_ms AS kc, k.id AS task_id, 0 AS ph, 0 AS step, 0 AS o, 'goal' AS f,"     \
	"   k.created_ms AS created_ms, COALESCE(k.goal, k.flow_name) AS b FROM tasks k"             \
	"  UNION ALL SELECT k.created_ms, k.id, 1, t.step, x.o, x.f, t.created_ms,"                  \
	"   CASE x.o WHEN 1 THEN t.description WHEN 2 THEN t.error WHEN 3 THEN t.reasoning"          \
	"   ELSE " AMC_SEARCH_SCREEN("t.") " END"                                                    \
	"   FROM tasks k JOIN timeline t ON t.task_id = k.id CROSS JOIN"                             \
	"   (SELECT 1 AS o, 'description' AS f UNION ALL SELECT 2, 'error'"                          \
	"    UNION ALL SELECT 3, 'reasoning' UNION ALL SELECT 4, 'screen') x"                        \
	"  UNION ALL SELECT k.created_ms, k.id, 2, 0, 1, 'summary',"                                 \
	"   COALESCE(k.finished_ms, k.created_ms), k.summary FROM tasks k"                           \
	"  UNION ALL SELECT k.created_ms, k.id, 2, 0, 2, 'task_error',"                              \
	"   COALESCE(k.finished_ms, k.created_ms), k.error FROM tasks k)"                            \
	" WHERE b IS NOT NULL AND b != '' ORDER BY kc, task_id, ph, step, o;"

/* ---- schema version 8: no second copy of the texts -----------------------
 *
 * Version 5 kept every text twice: once in its record, once in search_doc
 * (half the database at 1M steps). Version 8 keeps only which text a document
 * is: search_map (id, the task's search_key, step, field as a small number),
 * and search_doc becomes a view that reads the text from the record (tasks or
 * timeline). The FTS5 table, its tokenizer and its detail=full index stay as
 * they were (content = 'search_doc' names the view now), so FTS5 stays the one
 * parser of the query language, and hits, their ids, their order and their
 * snippets are the same as version 5's.
 *
 * Field numbers: 1 goal, 2 summary, 3 task_error, 4 description, 5 error,
 * 6 reasoning, 7 screen, 8 after_screen.
 *
 * tasks.search_key is a small integer per task (a column, not the rowid,
 * which VACUUM may renumber), numbered in order of creation; search_map refers
 * to it instead of the 16-byte id.
 *
 * External content needs the old text to remove a document, so every removal
 * runs in a BEFORE trigger, while the record still holds the text the view
 * reads: a task's delete removes all its documents (a cascade that deletes
 * its steps afterwards then finds none), a step's delete its own, a change of
 * summary or error the task's end documents. Timeline rows are written once:
 * nothing updates their texts (only the insert trigger fills screen_text of a
 * row written without it, before the row is indexed), and nothing updates a
 * task's goal or flow name; a writer that did would have to remove and add
 * the documents as the summary's triggers do (the tests compare the index
 * with the records token for token, so such a change would show).
 *
 * The migration keeps every document's id (so hits keep their order), fills
 * screen_text where an older record had only JSON (FTS5 reads its content
 * through the view, and a view calling json_tree cannot be read inside FTS5's
 * own statement), and rebuilds the FTS5 index from the view, so the index is
 * exactly what the view holds.
 *
 * Removing the previous step's after-screen document is a trigger of its
 * own, with a WHEN that finds the document first: a statement that writes to
 * FTS5 costs even when it changes nothing (measured: twice the write time of
 * a step in bench_search, which sets no after_text). */
#define AMC_SEARCH_FIELD_NAME(F)                                                                  \
	"CASE " F " WHEN 1 THEN 'goal' WHEN 2 THEN 'summary' WHEN 3 THEN 'task_error'"             \
	" WHEN 4 THEN 'description' WHEN 5 THEN 'error' WHEN 6 THEN 'reasoning' WHEN 7 THEN 'screen'" \
	" ELSE 'after_screen' END"
#define AMC_SEARCH_FIELD_NUM(F)                                                                   \
	"CASE " F " WHEN 'goal' THEN 1 WHEN 'summary' THEN 2 WHEN 'task_error' THEN 3"             \
	" WHEN 'description' THEN 4 WHEN 'error' THEN 5 WHEN 'reasoning' THEN 6 WHEN 'screen' THEN 7" \
	" ELSE 8 END"
/* When document M (a search_map row) was written, from its task K and step T. */
#define AMC_SEARCH_CREATED(M, K, T)                                                               \
	"CASE WHEN " M ".field = 1 THEN " K ".created_ms WHEN " M ".field < 4"                       \
	" THEN COALESCE(" K ".finished_ms, " K ".created_ms) ELSE " T ".created_ms END"
/* The task key of task id T (NULL when there is no such task). */
#define AMC_SEARCH_TKEY(T) "(SELECT search_key FROM tasks WHERE id = " T ")"
/* Index the documents of search_map rows matching COND (on m), just written.
 * In the source row's own trigger, not in a trigger on search_map: a write to
 * a table with triggers runs in a statement savepoint, and FTS5 flushes its
 * pending terms to a new segment at every savepoint (measured: ten times
 * slower writes). */
#define AMC_SEARCH_INDEX(COND)                                                                    \
	" INSERT INTO search_fts (rowid, body) SELECT d.id, d.body"                                \
	"  FROM search_map JOIN search_doc d ON d.id = search_map.id WHERE " COND ";"
/* Remove from the index the documents of search_map rows matching COND (on m). */
#define AMC_SEARCH_UNINDEX(COND)                                                                  \
	" INSERT INTO search_fts (search_fts, rowid, body) SELECT 'delete', d.id, d.body"          \
	"  FROM search_map JOIN search_doc d ON d.id = search_map.id WHERE " COND ";"             \
	" DELETE FROM search_map WHERE " COND ";"

#define AMC_SEARCH_V8_SQL                                                                          \
	"DROP TRIGGER search_tasks_ai; DROP TRIGGER search_tasks_au; DROP TRIGGER search_tasks_ad;"  \
	"DROP TRIGGER search_timeline_ai; DROP TRIGGER search_timeline_ad;"                         \
	"ALTER TABLE tasks ADD COLUMN search_key INTEGER;"                                          \
	"UPDATE tasks SET search_key = r.n FROM (SELECT rowid AS rid,"                              \
	" row_number() OVER (ORDER BY created_ms, rowid) AS n FROM tasks) r"                        \
	" WHERE tasks.rowid = r.rid;"                                                                \
	"CREATE UNIQUE INDEX tasks_search_key_idx ON tasks(search_key);"                            \
	"UPDATE timeline SET screen_text = " AMC_SEARCH_JSON_TEXT("timeline.")                      \
	" WHERE screen_text IS NULL;"                                                                \
	"CREATE TABLE search_map ("                                                                  \
	" id INTEGER PRIMARY KEY,"                                                                   \
	" tkey INTEGER NOT NULL,"                                                                    \
	" step INTEGER NOT NULL,"                                                                    \
	" field INTEGER NOT NULL);"                                                                  \
	"INSERT INTO search_map (id, tkey, step, field) SELECT d.id, k.search_key, d.step, "        \
	AMC_SEARCH_FIELD_NUM("d.field") " FROM search_doc d JOIN tasks k ON k.id = d.task_id"       \
	" ORDER BY d.id;"                                                                            \
	"DROP TABLE search_doc;"                                                                     \
	"CREATE INDEX search_map_step_idx ON search_map(tkey, step);"                               \
	"CREATE VIEW search_doc (id, task_id, step, field, created_ms, body) AS"                    \
	" SELECT m.id, k.id, m.step, " AMC_SEARCH_FIELD_NAME("m.field") ","                         \
	" " AMC_SEARCH_CREATED("m", "k", "t") ","                                                    \
	" CASE m.field WHEN 1 THEN COALESCE(k.goal, k.flow_name) WHEN 2 THEN k.summary"             \
	"  WHEN 3 THEN k.error WHEN 4 THEN t.description WHEN 5 THEN t.error"                        \
	"  WHEN 6 THEN t.reasoning WHEN 7 THEN t.screen_text ELSE t.after_text END"                  \
	" FROM search_map m JOIN tasks k ON k.search_key = m.tkey"                                   \
	" LEFT JOIN timeline t ON m.field >= 4 AND t.task_id = k.id AND t.step = m.step;"           \
	"INSERT INTO search_fts (search_fts) VALUES ('rebuild');"                                   \
	"CREATE TRIGGER search_tasks_ai AFTER INSERT ON tasks BEGIN"                                 \
	" UPDATE tasks SET search_key = (SELECT COALESCE(max(search_key), 0) + 1 FROM tasks)"       \
	"  WHERE rowid = new.rowid AND search_key IS NULL;"                                          \
	" INSERT INTO search_map (tkey, step, field) SELECT search_key, 0, 1 FROM tasks"            \
	"  WHERE rowid = new.rowid AND COALESCE(goal, flow_name, '') != '';"                         \
	AMC_SEARCH_INDEX("search_map.tkey = " AMC_SEARCH_TKEY("new.id") " AND search_map.step = 0 AND search_map.field = 1")   \
	" END;"                                                                                      \
	"CREATE TRIGGER search_tasks_bu BEFORE UPDATE OF summary, error ON tasks"                    \
	" WHEN old.summary IS NOT new.summary OR old.error IS NOT new.error BEGIN"                   \
	AMC_SEARCH_UNINDEX("search_map.tkey = old.search_key AND search_map.step = 0 AND search_map.field IN (2, 3)") " END;"  \
	"CREATE TRIGGER search_tasks_au AFTER UPDATE OF summary, error ON tasks"                     \
	" WHEN old.summary IS NOT new.summary OR old.error IS NOT new.error BEGIN"                   \
	" INSERT INTO search_map (tkey, step, field) SELECT new.search_key, 0, f FROM"              \
	"  (SELECT 2 AS f, new.summary AS b UNION ALL SELECT 3, new.error)"                          \
	"  WHERE new.search_key IS NOT NULL AND b IS NOT NULL AND b != '' ORDER BY f;"               \
	AMC_SEARCH_INDEX("search_map.tkey = new.search_key AND search_map.step = 0 AND search_map.field IN (2, 3)") " END;"   \
	"CREATE TRIGGER search_tasks_bd BEFORE DELETE ON tasks BEGIN"                                \
	AMC_SEARCH_UNINDEX("search_map.tkey = old.search_key") " END;"                                       \
	"CREATE TRIGGER search_timeline_ai AFTER INSERT ON timeline BEGIN"                           \
	" UPDATE timeline SET screen_text = " AMC_SEARCH_JSON_TEXT("new.")                          \
	"  WHERE new.screen_text IS NULL AND rowid = new.rowid;"                                     \
	" INSERT INTO search_map (tkey, step, field) SELECT k.search_key, new.step, x.f"            \
	"  FROM tasks k, (SELECT 4 AS f, new.description AS b UNION ALL SELECT 5, new.error"        \
	"   UNION ALL SELECT 6, new.reasoning"                                                       \
	"   UNION ALL SELECT 7, (SELECT screen_text FROM timeline WHERE rowid = new.rowid)"          \
	"   UNION ALL SELECT 8, new.after_text) x"                                                   \
	"  WHERE k.id = new.task_id AND x.b IS NOT NULL AND x.b != '' ORDER BY x.f;"                \
	AMC_SEARCH_INDEX("search_map.tkey = " AMC_SEARCH_TKEY("new.task_id")                                 \
			 " AND search_map.step = new.step AND search_map.field >= 4") " END;"                               \
	"CREATE TRIGGER search_timeline_prev AFTER INSERT ON timeline"                               \
	" WHEN EXISTS (SELECT 1 FROM timeline p WHERE p.task_id = new.task_id"                       \
	"  AND p.step = new.step - 1 AND p.after_text != '') BEGIN"                                  \
	AMC_SEARCH_UNINDEX("search_map.tkey = " AMC_SEARCH_TKEY("new.task_id")                      \
			   " AND search_map.step = new.step - 1 AND search_map.field = 8") " END;"       \
	"CREATE TRIGGER search_timeline_bd BEFORE DELETE ON timeline BEGIN"                          \
	AMC_SEARCH_UNINDEX("search_map.tkey = " AMC_SEARCH_TKEY("old.task_id")                               \
			   " AND search_map.step = old.step AND search_map.field >= 4") " END;"

#endif
