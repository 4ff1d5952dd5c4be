/* schema.c - the fleet schema's migrations (see schema.h). Each entry is one
 * version; init applies those newer than the database's in one transaction
 * under an advisory lock. Never edit an applied entry: append one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/pq.h"
#include "fleet/schema.h"

/* Version 1: the whole model. */
static const char v1[] =
	/* The group role of host roles. Roles are per cluster: made once. */
	"DO $$ BEGIN\n"
	"  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'amc_fleet_host') THEN\n"
	"    CREATE ROLE amc_fleet_host NOLOGIN NOSUPERUSER NOBYPASSRLS;\n"
	"  END IF;\n"
	"EXCEPTION WHEN insufficient_privilege THEN\n"
	"  RAISE NOTICE 'cannot create role amc_fleet_host (needs CREATEROLE): create it by hand';\n"
	"END $$;\n"
	"CREATE SEQUENCE amc_fleet.token;\n"
	"CREATE TABLE amc_fleet.host (\n"
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  role name NOT NULL DEFAULT current_user,\n"
	"  label text NOT NULL,\n"
	"  hostname text NOT NULL DEFAULT '',\n"
	"  pid int NOT NULL DEFAULT 0,\n"
	"  started_at timestamptz NOT NULL DEFAULT now(),\n"
	"  last_seen timestamptz NOT NULL DEFAULT now(),\n"
	"  stopped_at timestamptz);\n"
	"CREATE TABLE amc_fleet.device (\n"
	"  host_id bigint NOT NULL REFERENCES amc_fleet.host(id) ON DELETE CASCADE,\n"
	"  role name NOT NULL DEFAULT current_user,\n"
	"  device text NOT NULL,\n"
	"  kind text NOT NULL,\n"
	"  PRIMARY KEY (host_id, device));\n"
	"CREATE TABLE amc_fleet.assignment (\n"
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  state text NOT NULL DEFAULT 'queued'\n"
	"    CHECK (state IN ('queued','leased','succeeded','failed','cancelled')),\n"
	"  kind text NOT NULL CHECK (kind IN ('flow','goal')),\n"
	"  title text NOT NULL,\n"
	"  device_kind text NOT NULL DEFAULT 'sim' CHECK (device_kind IN ('sim','adb','appium')),\n"
	"  want_host text,\n"
	"  priority int NOT NULL DEFAULT 0,\n"
	"  max_attempts int NOT NULL DEFAULT 3 CHECK (max_attempts BETWEEN 1 AND 100),\n"
	"  max_steps int,\n"
	"  payload text NOT NULL,\n"
	"  next_attempt int NOT NULL DEFAULT 1,\n"
	"  cancel_requested boolean NOT NULL DEFAULT false,\n"
	"  submitted_by name NOT NULL DEFAULT current_user,\n"
	"  created_at timestamptz NOT NULL DEFAULT now(),\n"
	"  updated_at timestamptz NOT NULL DEFAULT now(),\n"
	"  finished_at timestamptz,\n"
	"  error text);\n"
	"CREATE INDEX assignment_queue ON amc_fleet.assignment (device_kind, priority DESC, id)\n"
	"  WHERE state = 'queued';\n"
	"CREATE TABLE amc_fleet.attempt (\n"
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  assignment_id bigint NOT NULL REFERENCES amc_fleet.assignment(id) ON DELETE CASCADE,\n"
	"  n int NOT NULL,\n"
	"  host_id bigint REFERENCES amc_fleet.host(id) ON DELETE SET NULL,\n"
	"  host_role name NOT NULL DEFAULT current_user,\n"
	"  host_label text NOT NULL,\n"
	"  device text NOT NULL,\n"
	"  token bigint NOT NULL DEFAULT nextval('amc_fleet.token'),\n"
	"  state text NOT NULL DEFAULT 'running'\n"
	"    CHECK (state IN ('running','succeeded','failed','lost','released','cancelled')),\n"
	"  started_at timestamptz NOT NULL DEFAULT now(),\n"
	"  lease_until timestamptz NOT NULL,\n"
	"  renewed_at timestamptz,\n"
	"  renewals int NOT NULL DEFAULT 0,\n"
	"  finished_at timestamptz,\n"
	"  local_task_id text,\n"
	"  progress_step int,\n"
	"  progress_status text,\n"
	"  progress_summary text,\n"
	"  progress_at timestamptz,\n"
	"  error text,\n"
	"  UNIQUE (assignment_id, n));\n"
	/* The invariant behind "never on two devices at once". */
	"CREATE UNIQUE INDEX attempt_one_running ON amc_fleet.attempt (assignment_id) WHERE state = 'running';\n"
	"CREATE INDEX attempt_expiry ON amc_fleet.attempt (lease_until) WHERE state = 'running';\n"
	"CREATE TABLE amc_fleet.decision (\n"
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"  assignment_id bigint NOT NULL REFERENCES amc_fleet.assignment(id) ON DELETE CASCADE,\n"
	"  attempt int NOT NULL,\n"
	"  host_role name NOT NULL DEFAULT current_user,\n"
	"  step int NOT NULL,\n"
	"  created_at timestamptz NOT NULL DEFAULT now(),\n"
	"  planner text, model text, system_prompt text, user_prompt text,\n"
	"  tool text, args text, outcome text);\n"
	"CREATE INDEX decision_by_attempt ON amc_fleet.decision (assignment_id, attempt, step);\n"
	/* Policies ask these (owner's rights, so the policies of attempt and
	 * assignment do not reference each other in a cycle). */
	"CREATE FUNCTION amc_fleet.holds(a bigint, who name) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT EXISTS (SELECT 1 FROM amc_fleet.attempt t\n"
	"     WHERE t.assignment_id = a AND t.host_role = who AND t.state = 'running') $$;\n"
	"CREATE FUNCTION amc_fleet.ran(a bigint, who name) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT EXISTS (SELECT 1 FROM amc_fleet.attempt t WHERE t.assignment_id = a AND t.host_role = who) $$;\n"
	"CREATE FUNCTION amc_fleet.is_queued(a bigint) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT EXISTS (SELECT 1 FROM amc_fleet.assignment WHERE id = a AND state = 'queued') $$;\n"
	/* NOTIFY on change. pg_notify folds duplicates within a transaction. */
	"CREATE FUNCTION amc_fleet.notify() RETURNS trigger LANGUAGE plpgsql AS $$\n"
	"BEGIN\n"
	"  IF TG_TABLE_NAME = 'assignment' THEN\n"
	"    IF NEW.state = 'queued' AND (TG_OP = 'INSERT' OR OLD.state <> 'queued') THEN\n"
	"      PERFORM pg_notify('amc_fleet_work', NEW.device_kind);\n"
	"    END IF;\n"
	"    IF NEW.cancel_requested AND NEW.state = 'leased' AND (TG_OP = 'INSERT' OR NOT OLD.cancel_requested) THEN\n"
	"      PERFORM pg_notify('amc_fleet_cancel', NEW.id::text);\n"
	"    END IF;\n"
	"  END IF;\n"
	"  PERFORM pg_notify('amc_fleet_change', TG_TABLE_NAME);\n"
	"  RETURN NULL;\n"
	"END $$;\n"
	"CREATE TRIGGER assignment_notify AFTER INSERT OR UPDATE ON amc_fleet.assignment\n"
	"  FOR EACH ROW EXECUTE FUNCTION amc_fleet.notify();\n"
	"CREATE TRIGGER attempt_notify AFTER INSERT OR UPDATE ON amc_fleet.attempt\n"
	"  FOR EACH ROW EXECUTE FUNCTION amc_fleet.notify();\n"
	"CREATE TRIGGER host_notify AFTER INSERT OR UPDATE OF stopped_at ON amc_fleet.host\n"
	"  FOR EACH ROW EXECUTE FUNCTION amc_fleet.notify();\n"
	/* The reaper: attempts whose lease ran out (database clock) more than
	 * grace_s ago are lost; their assignment is queued again, or failed with
	 * every attempt's reason when max_attempts is used up (released attempts
	 * do not count), or cancelled when that was asked. Then the decision
	 * history of ended assignments is cut to the newest keep_n and to
	 * max_age_days. One reaper at a time (advisory lock); returns the attempts
	 * it marked lost, or -1 when another reaper holds the lock. */
	"CREATE FUNCTION amc_fleet.reap(grace_s double precision, keep_n int, max_age_days int) RETURNS int\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE n int := 0; r record; used int;\n"
	"BEGIN\n"
	"  IF NOT pg_try_advisory_xact_lock(hashtext('amc_fleet.reap')) THEN RETURN -1; END IF;\n"
	"  FOR r IN UPDATE amc_fleet.attempt SET state = 'lost', finished_at = now(),\n"
	"      error = 'lease expired at ' || to_char(lease_until AT TIME ZONE 'UTC', 'HH24:MI:SS')\n"
	"              || ' UTC: host ' || host_label || ' stopped renewing',\n"
	"      progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"    WHERE state = 'running' AND lease_until < now() - make_interval(secs => grace_s)\n"
	"    RETURNING assignment_id\n"
	"  LOOP\n"
	"    n := n + 1;\n"
	"    SELECT count(*) INTO used FROM amc_fleet.attempt\n"
	"      WHERE assignment_id = r.assignment_id AND state <> 'released';\n"
	"    UPDATE amc_fleet.assignment a SET updated_at = now(),\n"
	"      state = CASE WHEN a.cancel_requested THEN 'cancelled'\n"
	"                   WHEN used >= a.max_attempts THEN 'failed' ELSE 'queued' END,\n"
	"      finished_at = CASE WHEN a.cancel_requested OR used >= a.max_attempts THEN now() END,\n"
	"      error = CASE WHEN a.cancel_requested THEN 'cancelled while its host was gone'\n"
	"                   WHEN used >= a.max_attempts THEN\n"
	"        'all ' || used || ' attempts failed: ' || (SELECT string_agg('attempt ' || t.n || ' (' || t.host_label\n"
	"          || ' ' || t.device || ') ' || t.state || coalesce(': ' || t.error, ''), '; ' ORDER BY t.n)\n"
	"          FROM amc_fleet.attempt t WHERE t.assignment_id = a.id)\n"
	"        ELSE a.error END\n"
	"    WHERE a.id = r.assignment_id AND a.state = 'leased';\n"
	"  END LOOP;\n"
	"  DELETE FROM amc_fleet.decision d WHERE d.assignment_id IN (\n"
	"    SELECT a.id FROM amc_fleet.assignment a\n"
	"    WHERE a.state IN ('succeeded','failed','cancelled')\n"
	"      AND (a.finished_at < now() - make_interval(days => max_age_days)\n"
	"           OR a.id NOT IN (SELECT b.id FROM amc_fleet.assignment b\n"
	"                           WHERE b.state IN ('succeeded','failed','cancelled')\n"
	"                             AND EXISTS (SELECT 1 FROM amc_fleet.decision x WHERE x.assignment_id = b.id)\n"
	"                           ORDER BY b.finished_at DESC NULLS LAST, b.id DESC LIMIT keep_n)));\n"
	"  RETURN n;\n"
	"END $$;\n"
	/* Row-level security: hosts see and change only what they hold. */
	"ALTER TABLE amc_fleet.host ENABLE ROW LEVEL SECURITY;\n"
	"ALTER TABLE amc_fleet.device ENABLE ROW LEVEL SECURITY;\n"
	"ALTER TABLE amc_fleet.assignment ENABLE ROW LEVEL SECURITY;\n"
	"ALTER TABLE amc_fleet.attempt ENABLE ROW LEVEL SECURITY;\n"
	"ALTER TABLE amc_fleet.decision ENABLE ROW LEVEL SECURITY;\n"
	"CREATE POLICY own_host ON amc_fleet.host TO amc_fleet_host\n"
	"  USING (role = current_user) WITH CHECK (role = current_user);\n"
	"CREATE POLICY own_device ON amc_fleet.device TO amc_fleet_host\n"
	"  USING (role = current_user) WITH CHECK (role = current_user);\n"
	"CREATE POLICY read_queued_or_ran ON amc_fleet.assignment FOR SELECT TO amc_fleet_host\n"
	"  USING (state = 'queued' OR amc_fleet.ran(id, current_user));\n"
	"CREATE POLICY claim_or_finish ON amc_fleet.assignment FOR UPDATE TO amc_fleet_host\n"
	"  USING (state = 'queued' OR amc_fleet.holds(id, current_user))\n"
	"  WITH CHECK (state = 'leased' OR amc_fleet.holds(id, current_user));\n"
	"CREATE POLICY own_attempts ON amc_fleet.attempt FOR SELECT TO amc_fleet_host\n"
	"  USING (host_role = current_user);\n"
	"CREATE POLICY open_attempt ON amc_fleet.attempt FOR INSERT TO amc_fleet_host\n"
	"  WITH CHECK (host_role = current_user AND amc_fleet.is_queued(assignment_id));\n"
	"CREATE POLICY update_own_attempt ON amc_fleet.attempt FOR UPDATE TO amc_fleet_host\n"
	"  USING (host_role = current_user AND state = 'running') WITH CHECK (host_role = current_user);\n"
	"CREATE POLICY own_decisions ON amc_fleet.decision FOR SELECT TO amc_fleet_host\n"
	"  USING (host_role = current_user);\n"
	"CREATE POLICY write_decision ON amc_fleet.decision FOR INSERT TO amc_fleet_host\n"
	"  WITH CHECK (host_role = current_user AND amc_fleet.holds(assignment_id, current_user));\n"
	"GRANT USAGE ON SCHEMA amc_fleet TO amc_fleet_host;\n"
	"GRANT SELECT ON amc_fleet.meta TO amc_fleet_host;\n"
	"GRANT USAGE ON SEQUENCE amc_fleet.token TO amc_fleet_host;\n"
	"GRANT SELECT, INSERT ON amc_fleet.host TO amc_fleet_host;\n"
	"GRANT UPDATE (last_seen, stopped_at) ON amc_fleet.host TO amc_fleet_host;\n"
	"GRANT SELECT, INSERT, DELETE ON amc_fleet.device TO amc_fleet_host;\n"
	"GRANT SELECT ON amc_fleet.assignment TO amc_fleet_host;\n"
	"GRANT UPDATE (state, next_attempt, updated_at, finished_at, error) ON amc_fleet.assignment TO amc_fleet_host;\n"
	"GRANT SELECT, INSERT ON amc_fleet.attempt TO amc_fleet_host;\n"
	"GRANT UPDATE (state, lease_until, renewed_at, renewals, finished_at, local_task_id,\n"
	"  progress_step, progress_status, progress_summary, progress_at, error) ON amc_fleet.attempt TO amc_fleet_host;\n"
	"GRANT SELECT, INSERT ON amc_fleet.decision TO amc_fleet_host;\n"
	"REVOKE ALL ON FUNCTION amc_fleet.reap(double precision, int, int), amc_fleet.holds(bigint, name),\n"
	"  amc_fleet.ran(bigint, name), amc_fleet.is_queued(bigint) FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION amc_fleet.reap(double precision, int, int), amc_fleet.holds(bigint, name),\n"
	"  amc_fleet.ran(bigint, name), amc_fleet.is_queued(bigint) TO amc_fleet_host;\n"
	/* A claim, as the host's role (row-level security applies): the first
	 * queued assignment for this device kind (and host label, when it asked
	 * for one) that no other claim holds, an attempt row with a fresh fencing
	 * token and a lease from the database clock, the assignment leased. */
	"CREATE FUNCTION amc_fleet.claim(p_host bigint, p_label text, p_device text, p_kind text,\n"
	"    p_lease double precision)\n"
	"  RETURNS TABLE (attempt_id bigint, assignment_id bigint, n int, token bigint, payload text,\n"
	"                 max_steps int)\n"
	"  LANGUAGE plpgsql AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE a record; t record;\n"
	"BEGIN\n"
	"  SELECT x.id, x.payload, x.max_steps, x.next_attempt INTO a FROM amc_fleet.assignment x\n"
	"    WHERE x.state = 'queued' AND x.device_kind = p_kind AND NOT x.cancel_requested\n"
	"      AND (x.want_host IS NULL OR x.want_host = p_label)\n"
	"    ORDER BY x.priority DESC, x.id LIMIT 1 FOR UPDATE SKIP LOCKED;\n"
	"  IF NOT FOUND THEN RETURN; END IF;\n"
	"  INSERT INTO amc_fleet.attempt AS y (assignment_id, n, host_id, host_label, device, lease_until)\n"
	"    VALUES (a.id, a.next_attempt, p_host, p_label, p_device, now() + make_interval(secs => p_lease))\n"
	"    RETURNING y.id, y.token INTO t;\n"
	"  UPDATE amc_fleet.assignment x SET state = 'leased', next_attempt = a.next_attempt + 1,\n"
	"    updated_at = now() WHERE x.id = a.id;\n"
	"  RETURN QUERY SELECT t.id, a.id, a.next_attempt, t.token, a.payload, a.max_steps;\n"
	"END $$;\n"
	/* The end of an attempt, fenced: only the holder of a live lease (this
	 * token, still running, lease not run out by the database clock) ends it;
	 * false otherwise (the late answer of a host that lost its lease). A
	 * released attempt puts the assignment back in the queue. */
	"CREATE FUNCTION amc_fleet.finish(p_attempt bigint, p_token bigint, p_state text, p_error text)\n"
	"  RETURNS boolean LANGUAGE plpgsql AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE aid bigint;\n"
	"BEGIN\n"
	"  IF p_state NOT IN ('succeeded','failed','cancelled','released') THEN\n"
	"    RAISE EXCEPTION 'an attempt cannot end %', p_state;\n"
	"  END IF;\n"
	"  SELECT t.assignment_id INTO aid FROM amc_fleet.attempt t WHERE t.id = p_attempt AND t.token = p_token\n"
	"    AND t.state = 'running' AND t.lease_until > now() FOR UPDATE;\n"
	"  IF NOT FOUND THEN RETURN false; END IF;\n"
	"  UPDATE amc_fleet.assignment x SET updated_at = now(),\n"
	"    state = CASE WHEN p_state <> 'released' THEN p_state\n"
	"                 WHEN x.cancel_requested THEN 'cancelled' ELSE 'queued' END,\n"
	"    finished_at = CASE WHEN p_state = 'released' AND NOT x.cancel_requested THEN NULL ELSE now() END,\n"
	"    error = CASE WHEN p_state IN ('failed','cancelled') THEN p_error ELSE x.error END\n"
	"  WHERE x.id = aid;\n"
	"  UPDATE amc_fleet.attempt t SET state = p_state, finished_at = now(), error = p_error,\n"
	"    progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"  WHERE t.id = p_attempt;\n"
	"  RETURN true;\n"
	"END $$;\n"
	"GRANT EXECUTE ON FUNCTION amc_fleet.claim(bigint, text, text, text, double precision),\n"
	"  amc_fleet.finish(bigint, bigint, text, text) TO amc_fleet_host;\n";

static const char *const migrations[] = { v1 };
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

int amc_fleet_schema_version(PGconn *c, amc_err *e)
{
	PGresult *r;
	if (amc_pq_exec(c, "SELECT to_regclass('amc_fleet.meta') IS NOT NULL AS has", 0, NULL, 0, &r, NULL, e) != 0)
		return -1;
	int has = !strcmp(amc_pq_get(r, 0, "has") ? amc_pq_get(r, 0, "has") : "f", "t");
	PQclear(r);
	if (!has)
		return 0;
	if (amc_pq_exec(c, "SELECT max(version) AS v FROM amc_fleet.meta", 0, NULL, 0, &r, NULL, e) != 0)
		return -1;
	int v = (int)amc_pq_getll(r, 0, "v", 0);
	PQclear(r);
	return v;
}

int amc_fleet_schema_check(PGconn *c, amc_err *e)
{
	int v = amc_fleet_schema_version(c, e);
	if (v < 0)
		return -1;
	if (v == 0)
		return amc_err_set(e, AMC_EENV, "the fleet database has no amc schema yet: run `amc fleet init`");
	if (v < AMC_FLEET_SCHEMA_VERSION)
		return amc_err_set(e, AMC_EENV, "the fleet schema is version %d, this amc needs %d: run `amc fleet init`",
				   v, AMC_FLEET_SCHEMA_VERSION);
	if (v > AMC_FLEET_SCHEMA_VERSION)
		return amc_err_set(e, AMC_EENV, "the fleet schema is version %d, newer than this amc knows (%d): upgrade amc",
				   v, AMC_FLEET_SCHEMA_VERSION);
	return 0;
}

int amc_fleet_schema_init(PGconn *c, int *from, int *to, amc_err *e)
{
	*from = *to = 0;
	if (amc_pq_script(c, "BEGIN; SELECT pg_advisory_xact_lock(hashtext('amc_fleet.schema'));"
			     "CREATE SCHEMA IF NOT EXISTS amc_fleet;"
			     "CREATE TABLE IF NOT EXISTS amc_fleet.meta (version int NOT NULL,"
			     " applied_at timestamptz NOT NULL DEFAULT now());", e) != 0) {
		amc_pq_script(c, "ROLLBACK", NULL);
		return amc_err_prefix(e, "cannot create the fleet schema");
	}
	int v = amc_fleet_schema_version(c, e);
	if (v < 0 || v > NMIGRATIONS) {
		amc_pq_script(c, "ROLLBACK", NULL);
		if (v > NMIGRATIONS)
			return amc_err_set(e, AMC_EENV, "the fleet schema is version %d, newer than this amc knows (%d)", v,
					   NMIGRATIONS);
		return -1;
	}
	*from = v;
	for (int i = v; i < NMIGRATIONS; i++) {
		char ins[96];
		snprintf(ins, sizeof ins, "INSERT INTO amc_fleet.meta (version) VALUES (%d)", i + 1);
		if (amc_pq_script(c, migrations[i], e) != 0 || amc_pq_script(c, ins, e) != 0) {
			amc_pq_script(c, "ROLLBACK", NULL);
			return amc_err_prefix(e, "fleet schema version %d", i + 1);
		}
	}
	if (amc_pq_script(c, "COMMIT", e) != 0)
		return -1;
	*to = NMIGRATIONS;
	return 0;
}
