/* search_schema.h - the SQL of the full-text search index (schema version 5),
 * kept apart from migrate.c's table so the row there stays one line.
 *
 * Only src/storage/ includes this. The index is three things:
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

#endif
