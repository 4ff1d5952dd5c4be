/* schema.c - the fleet schema's migrations (see schema.h). Each entry is one
 * version; init applies those newer than the database's in one transaction
 * under an advisory lock. Never edit an applied entry: append one.
 * Over 800 lines: it is the SQL of every version as applied, which must stay
 * together and in order (splitting it would scatter one history). */
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

/* Version 2: host roles change nothing directly (issue 26). They keep SELECT
 * (row-level security: their own host, device, attempt and decision rows, and
 * the queued work they may claim), and every write is one of the SECURITY
 * DEFINER functions below, each of which takes the caller's identity from
 * session_user (the role the host logged in as: inside a SECURITY DEFINER
 * function current_user is the owner) and checks it against the rows it
 * touches. A host name (label) belongs to the first role that registered it
 * and may not be another role's name, so pinning (--host NAME, or --host ROLE
 * for any host of that role) cannot be claimed by another role. Reaping with
 * chosen parameters is the operator's; hosts reap by the stored settings. */
static const char v2[] =
	"CREATE TABLE amc_fleet.setting (\n"
	"  id boolean PRIMARY KEY DEFAULT true CHECK (id),\n"
	"  reap_grace_s double precision NOT NULL DEFAULT 5 CHECK (reap_grace_s BETWEEN 0 AND 3600),\n"
	"  decisions_keep int NOT NULL DEFAULT 200 CHECK (decisions_keep >= 1),\n"
	"  decisions_max_age_days int NOT NULL DEFAULT 30 CHECK (decisions_max_age_days >= 1));\n"
	"INSERT INTO amc_fleet.setting DEFAULT VALUES;\n"
	"ALTER TABLE amc_fleet.attempt ADD COLUMN late_state text\n"
	"  CHECK (late_state IN ('succeeded','failed','cancelled')), ADD COLUMN late_error text,\n"
	"  ADD COLUMN late_at timestamptz;\n"
	/* The reaper of version 1, with two changes (issue 26, outages): a lease
	 * is never lost sooner than one lease period (its last one) plus the
	 * grace after the server started, so hosts that finished while the
	 * database was down can end their attempts; and a lost attempt's
	 * finished_at is its lease's end (the host stopped by then), not the
	 * reap time. */
	"CREATE OR REPLACE FUNCTION amc_fleet.reap(grace_s double precision, keep_n int, max_age_days int) RETURNS int\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE n int := 0; r record; used int;\n"
	"BEGIN\n"
	"  IF grace_s IS NULL OR grace_s < 0 THEN RAISE EXCEPTION 'the reaper grace is at least 0 s' USING ERRCODE = '22023'; END IF;\n"
	"  IF NOT pg_try_advisory_xact_lock(hashtext('amc_fleet.reap')) THEN RETURN -1; END IF;\n"
	"  FOR r IN UPDATE amc_fleet.attempt SET state = 'lost', finished_at = lease_until,\n"
	"      error = 'lease expired at ' || to_char(lease_until AT TIME ZONE 'UTC', 'HH24:MI:SS')\n"
	"              || ' UTC: host ' || host_label || ' stopped renewing',\n"
	"      progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"    WHERE state = 'running' AND lease_until < now() - make_interval(secs => grace_s)\n"
	"      AND pg_postmaster_start_time() + (lease_until - coalesce(renewed_at, started_at))\n"
	"          < now() - make_interval(secs => grace_s)\n"
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
	"DROP POLICY own_host ON amc_fleet.host;\n"
	"DROP POLICY own_device ON amc_fleet.device;\n"
	"DROP POLICY read_queued_or_ran ON amc_fleet.assignment;\n"
	"DROP POLICY claim_or_finish ON amc_fleet.assignment;\n"
	"DROP POLICY own_attempts ON amc_fleet.attempt;\n"
	"DROP POLICY open_attempt ON amc_fleet.attempt;\n"
	"DROP POLICY update_own_attempt ON amc_fleet.attempt;\n"
	"DROP POLICY own_decisions ON amc_fleet.decision;\n"
	"DROP POLICY write_decision ON amc_fleet.decision;\n"
	"DROP FUNCTION amc_fleet.claim(bigint, text, text, text, double precision);\n"
	"DROP FUNCTION amc_fleet.holds(bigint, name);\n"
	"DROP FUNCTION amc_fleet.ran(bigint, name);\n"
	"DROP FUNCTION amc_fleet.is_queued(bigint);\n"
	"REVOKE ALL ON amc_fleet.host, amc_fleet.device, amc_fleet.assignment, amc_fleet.attempt, amc_fleet.decision,\n"
	"  amc_fleet.meta FROM amc_fleet_host;\n"
	"REVOKE ALL ON SEQUENCE amc_fleet.token FROM amc_fleet_host;\n"
	"REVOKE ALL ON FUNCTION amc_fleet.reap(double precision, int, int) FROM amc_fleet_host, PUBLIC;\n"
	"GRANT SELECT ON amc_fleet.host, amc_fleet.device, amc_fleet.assignment, amc_fleet.attempt, amc_fleet.decision,\n"
	"  amc_fleet.meta, amc_fleet.setting TO amc_fleet_host;\n"
	/* For the policies: did the caller ever run this assignment; is this host
	 * name the caller's. No role parameter: nothing to ask about others. */
	"CREATE FUNCTION amc_fleet.i_ran(a bigint) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT EXISTS (SELECT 1 FROM amc_fleet.attempt t WHERE t.assignment_id = a AND t.host_role = session_user) $$;\n"
	"CREATE FUNCTION amc_fleet.my_label(l text) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT EXISTS (SELECT 1 FROM amc_fleet.host h WHERE h.label = l AND h.role = session_user) $$;\n"
	"CREATE POLICY own_host ON amc_fleet.host FOR SELECT TO amc_fleet_host USING (role = session_user);\n"
	"CREATE POLICY own_device ON amc_fleet.device FOR SELECT TO amc_fleet_host USING (role = session_user);\n"
	"CREATE POLICY claimable_or_ran ON amc_fleet.assignment FOR SELECT TO amc_fleet_host\n"
	"  USING ((state = 'queued' AND (want_host IS NULL OR want_host = session_user OR amc_fleet.my_label(want_host)))\n"
	"         OR amc_fleet.i_ran(id));\n"
	"CREATE POLICY own_attempts ON amc_fleet.attempt FOR SELECT TO amc_fleet_host USING (host_role = session_user);\n"
	"CREATE POLICY own_decisions ON amc_fleet.decision FOR SELECT TO amc_fleet_host USING (host_role = session_user);\n"
	/* The caller's host row: its label, or an error when it is another role's. */
	"CREATE FUNCTION amc_fleet.own_host(p_host bigint) RETURNS text\n"
	"  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE h record;\n"
	"BEGIN\n"
	"  SELECT x.label, x.role INTO h FROM amc_fleet.host x WHERE x.id = p_host;\n"
	"  IF NOT FOUND THEN RAISE EXCEPTION 'no fleet host %', p_host USING ERRCODE = '42704'; END IF;\n"
	"  IF h.role <> session_user THEN\n"
	"    RAISE EXCEPTION 'fleet host % is registered by another role, not %', p_host, session_user\n"
	"      USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  RETURN h.label;\n"
	"END $$;\n"
	/* The caller's running attempt with this token, locked; an error when
	 * the attempt is another role's, NULL when it is not running (fenced). */
	"CREATE FUNCTION amc_fleet.own_attempt(p_attempt bigint, p_token bigint) RETURNS amc_fleet.attempt\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  SELECT * INTO t FROM amc_fleet.attempt x WHERE x.id = p_attempt FOR UPDATE;\n"
	"  IF NOT FOUND THEN RETURN NULL; END IF;\n"
	"  IF t.host_role <> session_user THEN\n"
	"    RAISE EXCEPTION 'attempt % belongs to another host role, not %', p_attempt, session_user\n"
	"      USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  IF t.token <> p_token OR t.state <> 'running' THEN RETURN NULL; END IF;\n"
	"  RETURN t;\n"
	"END $$;\n"
	/* Register the caller's host, reusing its newest row of that name. */
	"CREATE FUNCTION amc_fleet.register_host(p_label text, p_hostname text, p_pid int) RETURNS bigint\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE hid bigint;\n"
	"BEGIN\n"
	"  IF p_label IS NULL OR length(p_label) NOT BETWEEN 1 AND 200 THEN\n"
	"    RAISE EXCEPTION 'a fleet host name is 1 to 200 characters' USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  PERFORM pg_advisory_xact_lock(hashtext('amc_fleet.host:' || p_label));\n"
	/* a role's name is that role's: pinning to it cannot be squatted */
	"  IF p_label <> session_user AND EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname = p_label) THEN\n"
	"    RAISE EXCEPTION 'the fleet host name % is the name of another role' , p_label USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  IF EXISTS (SELECT 1 FROM amc_fleet.host h WHERE h.label = p_label AND h.role <> session_user) THEN\n"
	"    RAISE EXCEPTION 'the fleet host name % is registered by another role (names belong to the role that first used them)',\n"
	"      p_label USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  SELECT h.id INTO hid FROM amc_fleet.host h WHERE h.label = p_label AND h.role = session_user\n"
	"    ORDER BY h.id DESC LIMIT 1 FOR UPDATE;\n"
	"  IF FOUND THEN\n"
	"    UPDATE amc_fleet.host SET hostname = left(coalesce(p_hostname, ''), 200), pid = coalesce(p_pid, 0),\n"
	"      started_at = now(), last_seen = now(), stopped_at = NULL WHERE id = hid;\n"
	"    DELETE FROM amc_fleet.device WHERE host_id = hid;\n"
	"  ELSE\n"
	"    INSERT INTO amc_fleet.host (role, label, hostname, pid)\n"
	"      VALUES (session_user, p_label, left(coalesce(p_hostname, ''), 200), coalesce(p_pid, 0)) RETURNING id INTO hid;\n"
	"  END IF;\n"
	"  RETURN hid;\n"
	"END $$;\n"
	"CREATE FUNCTION amc_fleet.add_device(p_host bigint, p_device text, p_kind text) RETURNS void\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"BEGIN\n"
	"  PERFORM amc_fleet.own_host(p_host);\n"
	"  IF p_kind IS NULL OR p_kind NOT IN ('sim','adb','appium') OR p_device IS NULL\n"
	"     OR length(p_device) NOT BETWEEN 1 AND 128 THEN\n"
	"    RAISE EXCEPTION 'a device is 1 to 128 characters of kind sim, adb or appium' USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  INSERT INTO amc_fleet.device (host_id, role, device, kind) VALUES (p_host, session_user, p_device, p_kind)\n"
	"    ON CONFLICT (host_id, device) DO UPDATE SET kind = EXCLUDED.kind;\n"
	"END $$;\n"
	"CREATE FUNCTION amc_fleet.heartbeat(p_host bigint, p_stopped boolean) RETURNS void\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"BEGIN\n"
	"  PERFORM amc_fleet.own_host(p_host);\n"
	"  UPDATE amc_fleet.host SET last_seen = now(),\n"
	"    stopped_at = CASE WHEN p_stopped THEN now() ELSE stopped_at END WHERE id = p_host;\n"
	"END $$;\n"
	/* A claim: the caller's host and device (registered), the first queued
	 * assignment of this kind that is not pinned to another host name, an
	 * attempt numbered here (one more than any before it, so no row can be
	 * in the way), a fresh fencing token, a lease from the database clock. */
	"CREATE FUNCTION amc_fleet.claim(p_host bigint, p_device text, p_kind text, p_lease double precision)\n"
	"  RETURNS TABLE (attempt_id bigint, assignment_id bigint, n int, token bigint, payload text, max_steps int)\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE a record; t record; lbl text; k int;\n"
	"BEGIN\n"
	"  lbl := amc_fleet.own_host(p_host);\n"
	"  IF p_lease IS NULL OR p_lease < 1 OR p_lease > 3600 THEN\n"
	"    RAISE EXCEPTION 'a lease is 1 to 3600 s, not %', p_lease USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  IF NOT EXISTS (SELECT 1 FROM amc_fleet.device d WHERE d.host_id = p_host AND d.device = p_device\n"
	"                 AND d.kind = p_kind) THEN\n"
	"    RAISE EXCEPTION 'device % (%) is not registered for fleet host %', p_device, p_kind, p_host\n"
	"      USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  SELECT x.id, x.payload, x.max_steps INTO a FROM amc_fleet.assignment x\n"
	"    WHERE x.state = 'queued' AND x.device_kind = p_kind AND NOT x.cancel_requested\n"
	"      AND (x.want_host IS NULL OR x.want_host = lbl OR x.want_host = session_user)\n"
	"      AND NOT EXISTS (SELECT 1 FROM amc_fleet.attempt r WHERE r.assignment_id = x.id AND r.state = 'running')\n"
	"    ORDER BY x.priority DESC, x.id LIMIT 1 FOR UPDATE SKIP LOCKED;\n"
	"  IF NOT FOUND THEN RETURN; END IF;\n"
	"  SELECT coalesce(max(y.n), 0) + 1 INTO k FROM amc_fleet.attempt y WHERE y.assignment_id = a.id;\n"
	"  INSERT INTO amc_fleet.attempt AS y (assignment_id, n, host_id, host_role, host_label, device, lease_until)\n"
	"    VALUES (a.id, k, p_host, session_user, lbl, p_device, now() + make_interval(secs => p_lease))\n"
	"    RETURNING y.id, y.token INTO t;\n"
	"  UPDATE amc_fleet.assignment x SET state = 'leased', next_attempt = k + 1, updated_at = now() WHERE x.id = a.id;\n"
	"  RETURN QUERY SELECT t.id, a.id, k, t.token, a.payload, a.max_steps;\n"
	"END $$;\n"
	/* Renewal, fenced like the end: no row back once the reaper took the
	 * attempt (state lost) or the token is another's. A lease that ran out
	 * but was not reaped is still the caller's: nothing else can have
	 * started, since a new attempt needs the reaper first. */
	"CREATE FUNCTION amc_fleet.renew(p_attempt bigint, p_token bigint, p_lease double precision, p_step int,\n"
	"    p_status text, p_summary text) RETURNS TABLE (cancel boolean)\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  IF p_lease IS NULL OR p_lease < 1 OR p_lease > 3600 THEN\n"
	"    RAISE EXCEPTION 'a lease is 1 to 3600 s, not %', p_lease USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  t := amc_fleet.own_attempt(p_attempt, p_token);\n"
	"  IF t.id IS NULL THEN RETURN; END IF;\n"
	"  UPDATE amc_fleet.attempt x SET lease_until = now() + make_interval(secs => p_lease), renewed_at = now(),\n"
	"    renewals = x.renewals + 1, progress_step = coalesce(p_step, x.progress_step),\n"
	"    progress_status = coalesce(left(p_status, 32), x.progress_status),\n"
	"    progress_summary = coalesce(left(p_summary, 1000), x.progress_summary),\n"
	"    progress_at = CASE WHEN p_step IS NULL THEN x.progress_at ELSE now() END\n"
	"  WHERE x.id = p_attempt;\n"
	"  RETURN QUERY SELECT a.cancel_requested FROM amc_fleet.assignment a WHERE a.id = t.assignment_id;\n"
	"END $$;\n"
	"CREATE FUNCTION amc_fleet.publish(p_attempt bigint, p_token bigint, p_local text) RETURNS boolean\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  t := amc_fleet.own_attempt(p_attempt, p_token);\n"
	"  IF t.id IS NULL THEN RETURN false; END IF;\n"
	"  UPDATE amc_fleet.attempt SET local_task_id = left(p_local, 64) WHERE id = p_attempt;\n"
	"  RETURN true;\n"
	"END $$;\n"
	"CREATE FUNCTION amc_fleet.decide(p_attempt bigint, p_token bigint, p_step int, p_planner text, p_model text,\n"
	"    p_system text, p_user text, p_tool text, p_args text, p_outcome text) RETURNS boolean\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  t := amc_fleet.own_attempt(p_attempt, p_token);\n"
	"  IF t.id IS NULL THEN RETURN false; END IF;\n"
	"  INSERT INTO amc_fleet.decision (assignment_id, attempt, host_role, step, planner, model, system_prompt,\n"
	"      user_prompt, tool, args, outcome)\n"
	"    VALUES (t.assignment_id, t.n, session_user, p_step, left(p_planner, 262144), left(p_model, 262144),\n"
	"      left(p_system, 262144), left(p_user, 262144), left(p_tool, 262144), left(p_args, 262144),\n"
	"      left(p_outcome, 262144));\n"
	"  RETURN true;\n"
	"END $$;\n"
	/* The end, fenced: another role's attempt is an error; the end of the
	 * caller's running attempt is accepted even after its lease ran out
	 * (an outage: not reaped means nothing else ran it), finished at no later
	 * than the lease its last renewal gave (the database's clock, never the
	 * host's); the end of an attempt the reaper took back is refused (false)
	 * and kept as late_state/late_error/late_at for `amc fleet show`. */
	"CREATE OR REPLACE FUNCTION amc_fleet.finish(p_attempt bigint, p_token bigint, p_state text, p_error text)\n"
	"  RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  IF p_state IS NULL OR p_state NOT IN ('succeeded','failed','cancelled','released') THEN\n"
	"    RAISE EXCEPTION 'an attempt cannot end %', p_state USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  t := amc_fleet.own_attempt(p_attempt, p_token);\n"
	"  IF t.id IS NULL THEN\n"
	"    UPDATE amc_fleet.attempt x SET late_state = p_state, late_error = left(p_error, 2000), late_at = now()\n"
	"      WHERE x.id = p_attempt AND x.token = p_token AND x.state = 'lost' AND x.late_state IS NULL\n"
	"        AND p_state <> 'released';\n"
	"    RETURN false;\n"
	"  END IF;\n"
	"  UPDATE amc_fleet.assignment x SET updated_at = now(),\n"
	"    state = CASE WHEN p_state <> 'released' THEN p_state\n"
	"                 WHEN x.cancel_requested THEN 'cancelled' ELSE 'queued' END,\n"
	"    finished_at = CASE WHEN p_state = 'released' AND NOT x.cancel_requested THEN NULL ELSE now() END,\n"
	"    error = CASE WHEN p_state IN ('failed','cancelled') THEN left(p_error, 2000) ELSE x.error END\n"
	"  WHERE x.id = t.assignment_id;\n"
	"  UPDATE amc_fleet.attempt x SET state = p_state, finished_at = least(now(), t.lease_until),\n"
	"    error = left(p_error, 2000),\n"
	"    progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"  WHERE x.id = p_attempt;\n"
	"  RETURN true;\n"
	"END $$;\n"
	/* Hosts reap by the stored settings only (grace >= 0 by the table's check). */
	"CREATE FUNCTION amc_fleet.reap_stored() RETURNS int\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE s amc_fleet.setting;\n"
	"BEGIN\n"
	"  SELECT * INTO s FROM amc_fleet.setting WHERE id;\n"
	"  IF NOT FOUND THEN RAISE EXCEPTION 'the fleet has no stored settings: run amc fleet init'; END IF;\n"
	"  RETURN amc_fleet.reap(s.reap_grace_s, s.decisions_keep, s.decisions_max_age_days);\n"
	"END $$;\n"
	"REVOKE ALL ON FUNCTION amc_fleet.i_ran(bigint), amc_fleet.my_label(text), amc_fleet.own_host(bigint),\n"
	"  amc_fleet.own_attempt(bigint, bigint), amc_fleet.register_host(text, text, int),\n"
	"  amc_fleet.add_device(bigint, text, text), amc_fleet.heartbeat(bigint, boolean),\n"
	"  amc_fleet.claim(bigint, text, text, double precision),\n"
	"  amc_fleet.renew(bigint, bigint, double precision, int, text, text), amc_fleet.publish(bigint, bigint, text),\n"
	"  amc_fleet.decide(bigint, bigint, int, text, text, text, text, text, text, text),\n"
	"  amc_fleet.finish(bigint, bigint, text, text), amc_fleet.reap_stored() FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION amc_fleet.i_ran(bigint), amc_fleet.my_label(text),\n"
	"  amc_fleet.register_host(text, text, int), amc_fleet.add_device(bigint, text, text),\n"
	"  amc_fleet.heartbeat(bigint, boolean), amc_fleet.claim(bigint, text, text, double precision),\n"
	"  amc_fleet.renew(bigint, bigint, double precision, int, text, text), amc_fleet.publish(bigint, bigint, text),\n"
	"  amc_fleet.decide(bigint, bigint, int, text, text, text, text, text, text, text),\n"
	"  amc_fleet.finish(bigint, bigint, text, text), amc_fleet.reap_stored() TO amc_fleet_host;\n";


/* Version 3 (issues 26, 28): work that needs what only some hosts have.
 * An assignment lists its needs ("agent=claude", "app=com.example"); a host
 * states its capabilities once when it starts (set_caps: fleet.capabilities
 * plus the coding-agent CLIs that can run there) and they are kept in its
 * host row, where the operator sees them; a claim takes only work whose
 * needs are all among the caller's host row's capabilities.
 *
 * A host states what it has: the database cannot look at the machine. What
 * it can check is what the operator granted: a role with a row in
 * amc_fleet.role_caps may state only the capabilities listed there (exactly,
 * or KEY=* for any value of that key); the rest is refused, kept in
 * caps_refused for `amc fleet hosts`, and work needing them is neither
 * visible to nor claimable by that role. A role without a row is trusted
 * with what it states (a host that states what it lacks fails only its own
 * attempts). Migrations are never edited once applied: this one drops and
 * re-creates the claim of version 2 (its result gained columns), so its
 * grants are given again below. */
static const char v3[] =
	/* The operator's group role: submit, list, cancel, grant and reap
	 * without being the tables' owner (row-level security lets it see
	 * everything; it still cannot change the schema). */
	"DO $$ BEGIN\n"
	"  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'amc_fleet_operator') THEN\n"
	"    CREATE ROLE amc_fleet_operator NOLOGIN NOSUPERUSER NOBYPASSRLS;\n"
	"  END IF;\n"
	"EXCEPTION WHEN insufficient_privilege THEN\n"
	"  RAISE NOTICE 'cannot create role amc_fleet_operator (needs CREATEROLE): create it by hand';\n"
	"END $$;\n"
	"ALTER TABLE amc_fleet.assignment ADD COLUMN needs text[] NOT NULL DEFAULT '{}'\n"
	"  CHECK (cardinality(needs) <= 16 AND array_position(needs, NULL) IS NULL),\n"
	"  ADD COLUMN retries int NOT NULL DEFAULT 0 CHECK (retries BETWEEN 0 AND 100),\n"
	"  ADD COLUMN backoff_s double precision NOT NULL DEFAULT 10 CHECK (backoff_s BETWEEN 0 AND 3600),\n"
	"  ADD COLUMN timeout_s double precision CHECK (timeout_s BETWEEN 1 AND 604800),\n"
	"  ADD COLUMN not_before timestamptz;\n"
	"ALTER TABLE amc_fleet.host ADD COLUMN caps text[] NOT NULL DEFAULT '{}',\n"
	"  ADD COLUMN caps_refused text[] NOT NULL DEFAULT '{}';\n"
	"CREATE TABLE amc_fleet.role_caps (\n"
	"  role name PRIMARY KEY,\n"
	"  caps text[] NOT NULL DEFAULT '{}');\n"
	"ALTER TABLE amc_fleet.role_caps ENABLE ROW LEVEL SECURITY;\n"
	"CREATE POLICY own_grant ON amc_fleet.role_caps FOR SELECT TO amc_fleet_host USING (role = session_user);\n"
	"GRANT SELECT ON amc_fleet.role_caps TO amc_fleet_host;\n"
	/* What of p_caps the caller's role may state (all of it without a grant row). */
	"CREATE FUNCTION amc_fleet.granted(p_caps text[]) RETURNS text[]\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"  SELECT CASE WHEN g.caps IS NULL THEN coalesce(p_caps, '{}'::text[])\n"
	"    ELSE ARRAY(SELECT c FROM unnest(coalesce(p_caps, '{}'::text[])) c\n"
	"               WHERE c = ANY (g.caps) OR split_part(c, '=', 1) || '=*' = ANY (g.caps)) END\n"
	"  FROM (SELECT (SELECT r.caps FROM amc_fleet.role_caps r WHERE r.role = session_user) AS caps) g $$;\n"
	/* Record the caller's host's capabilities; returns those kept. */
	"CREATE FUNCTION amc_fleet.set_caps(p_host bigint, p_caps text[]) RETURNS text[]\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE ok text[]; c text;\n"
	"BEGIN\n"
	"  PERFORM amc_fleet.own_host(p_host);\n"
	"  IF cardinality(p_caps) > 64 THEN\n"
	"    RAISE EXCEPTION 'at most 64 capabilities per host' USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  FOREACH c IN ARRAY coalesce(p_caps, '{}'::text[]) LOOP\n"
	"    IF c IS NULL OR length(c) > 64 OR c !~ '^[a-z][a-z0-9_.:/-]*=[a-z0-9_.:/-]+$' THEN\n"
	"      RAISE EXCEPTION 'a capability is KEY=VALUE of a-z 0-9 _.:/- (at most 64 bytes), not %', c\n"
	"        USING ERRCODE = '22023';\n"
	"    END IF;\n"
	"  END LOOP;\n"
	"  ok := amc_fleet.granted(p_caps);\n"
	"  UPDATE amc_fleet.host SET caps = ok,\n"
	"    caps_refused = ARRAY(SELECT c2 FROM unnest(coalesce(p_caps, '{}'::text[])) c2 WHERE NOT c2 = ANY (ok))\n"
	"  WHERE id = p_host;\n"
	"  RETURN ok;\n"
	"END $$;\n"
	/* For the policy: may the caller's role have these needs at all. */
	"CREATE FUNCTION amc_fleet.may_need(p_needs text[]) RETURNS boolean\n"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT coalesce(p_needs, '{}'::text[]) <@ amc_fleet.granted(p_needs) $$;\n"
	"DROP POLICY claimable_or_ran ON amc_fleet.assignment;\n"
	"CREATE POLICY claimable_or_ran ON amc_fleet.assignment FOR SELECT TO amc_fleet_host\n"
	"  USING ((state = 'queued' AND (want_host IS NULL OR want_host = session_user OR amc_fleet.my_label(want_host))\n"
	"          AND amc_fleet.may_need(needs))\n"
	"         OR amc_fleet.i_ran(id));\n"
	/* The claim of version 2 with the host row's capabilities (stored by
	 * set_caps, checked against the grants again: a grant withdrawn since
	 * applies at once). */
	"DROP FUNCTION amc_fleet.claim(bigint, text, text, double precision);\n"
	"CREATE FUNCTION amc_fleet.claim(p_host bigint, p_device text, p_kind text, p_lease double precision)\n"
	"  RETURNS TABLE (attempt_id bigint, assignment_id bigint, n int, token bigint, payload text, max_steps int,\n"
	"                 timeout_s double precision)\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE a record; t record; lbl text; k int; caps text[];\n"
	"BEGIN\n"
	"  lbl := amc_fleet.own_host(p_host);\n"
	"  IF p_lease IS NULL OR p_lease < 1 OR p_lease > 3600 THEN\n"
	"    RAISE EXCEPTION 'a lease is 1 to 3600 s, not %', p_lease USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  IF NOT EXISTS (SELECT 1 FROM amc_fleet.device d WHERE d.host_id = p_host AND d.device = p_device\n"
	"                 AND d.kind = p_kind) THEN\n"
	"    RAISE EXCEPTION 'device % (%) is not registered for fleet host %', p_device, p_kind, p_host\n"
	"      USING ERRCODE = '42501';\n"
	"  END IF;\n"
	"  SELECT amc_fleet.granted(h.caps) INTO caps FROM amc_fleet.host h WHERE h.id = p_host;\n"
	"  SELECT x.id, x.payload, x.max_steps, x.timeout_s INTO a FROM amc_fleet.assignment x\n"
	"    WHERE x.state = 'queued' AND x.device_kind = p_kind AND NOT x.cancel_requested\n"
	"      AND (x.want_host IS NULL OR x.want_host = lbl OR x.want_host = session_user)\n"
	"      AND x.needs <@ caps AND (x.not_before IS NULL OR x.not_before <= now())\n"
	"      AND NOT EXISTS (SELECT 1 FROM amc_fleet.attempt r WHERE r.assignment_id = x.id AND r.state = 'running')\n"
	"    ORDER BY x.priority DESC, x.id LIMIT 1 FOR UPDATE SKIP LOCKED;\n"
	"  IF NOT FOUND THEN RETURN; END IF;\n"
	"  SELECT coalesce(max(y.n), 0) + 1 INTO k FROM amc_fleet.attempt y WHERE y.assignment_id = a.id;\n"
	"  INSERT INTO amc_fleet.attempt AS y (assignment_id, n, host_id, host_role, host_label, device, lease_until)\n"
	"    VALUES (a.id, k, p_host, session_user, lbl, p_device, now() + make_interval(secs => p_lease))\n"
	"    RETURNING y.id, y.token INTO t;\n"
	"  UPDATE amc_fleet.assignment x SET state = 'leased', next_attempt = k + 1, updated_at = now() WHERE x.id = a.id;\n"
	"  RETURN QUERY SELECT t.id, a.id, k, t.token, a.payload, a.max_steps, a.timeout_s;\n"
	"END $$;\n"
	/* After a failed attempt (already marked failed): queue the assignment
	 * again after a backoff (backoff_s doubling per failure, at most 600 s)
	 * while retries remain, the failure can be fixed by a retry (the host
	 * says: a bad payload or a refused flow cannot) and max_attempts allows
	 * one more; else the assignment fails with every attempt's reason. */
	"CREATE FUNCTION amc_fleet.after_failure(p_id bigint, p_error text, p_retry boolean) RETURNS void\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE a amc_fleet.assignment; fails int; used int; delay double precision;\n"
	"BEGIN\n"
	"  SELECT * INTO a FROM amc_fleet.assignment x WHERE x.id = p_id FOR UPDATE;\n"
	"  SELECT count(*) FILTER (WHERE y.state = 'failed'), count(*) FILTER (WHERE y.state <> 'released')\n"
	"    INTO fails, used FROM amc_fleet.attempt y WHERE y.assignment_id = p_id;\n"
	"  IF p_retry AND NOT a.cancel_requested AND fails <= a.retries AND used < a.max_attempts THEN\n"
	"    delay := least(600, a.backoff_s * power(2, fails - 1));\n"
	"    UPDATE amc_fleet.assignment x SET state = 'queued', updated_at = now(), finished_at = NULL,\n"
	"      not_before = now() + make_interval(secs => delay),\n"
	"      error = left('retry ' || fails || ' of ' || a.retries || ' after ' || round(delay::numeric, 1) || ' s: '\n"
	"                   || coalesce(p_error, 'failed'), 2000)\n"
	"    WHERE x.id = p_id;\n"
	"  ELSE\n"
	"    UPDATE amc_fleet.assignment x SET updated_at = now(), finished_at = now(),\n"
	"      state = CASE WHEN a.cancel_requested THEN 'cancelled' ELSE 'failed' END,\n"
	"      error = left(CASE WHEN NOT p_retry AND a.retries > 0 THEN 'not retried (a retry cannot fix it): '\n"
	"                        || coalesce(p_error, 'failed')\n"
	"                   WHEN used > 1 THEN 'all ' || used || ' attempts failed: ' || (SELECT string_agg('attempt '\n"
	"                        || t.n || ' (' || t.host_label || ' ' || t.device || ') ' || t.state\n"
	"                        || coalesce(': ' || t.error, ''), '; ' ORDER BY t.n)\n"
	"                        FROM amc_fleet.attempt t WHERE t.assignment_id = p_id)\n"
	"                   ELSE p_error END, 2000)\n"
	"    WHERE x.id = p_id;\n"
	"  END IF;\n"
	"END $$;\n"
	/* The end of version 2 with p_retry: whether a retry can fix a failure. */
	"CREATE FUNCTION amc_fleet.finish(p_attempt bigint, p_token bigint, p_state text, p_error text, p_retry boolean)\n"
	"  RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"#variable_conflict use_column\n"
	"DECLARE t amc_fleet.attempt;\n"
	"BEGIN\n"
	"  IF p_state IS NULL OR p_state NOT IN ('succeeded','failed','cancelled','released') THEN\n"
	"    RAISE EXCEPTION 'an attempt cannot end %', p_state USING ERRCODE = '22023';\n"
	"  END IF;\n"
	"  t := amc_fleet.own_attempt(p_attempt, p_token);\n"
	"  IF t.id IS NULL THEN\n"
	"    UPDATE amc_fleet.attempt x SET late_state = p_state, late_error = left(p_error, 2000), late_at = now()\n"
	"      WHERE x.id = p_attempt AND x.token = p_token AND x.state = 'lost' AND x.late_state IS NULL\n"
	"        AND p_state <> 'released';\n"
	"    RETURN false;\n"
	"  END IF;\n"
	"  UPDATE amc_fleet.attempt x SET state = p_state, finished_at = least(now(), t.lease_until),\n"
	"    error = left(p_error, 2000),\n"
	"    progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"  WHERE x.id = p_attempt;\n"
	"  IF p_state = 'failed' THEN\n"
	"    PERFORM amc_fleet.after_failure(t.assignment_id, left(p_error, 2000), coalesce(p_retry, true));\n"
	"    RETURN true;\n"
	"  END IF;\n"
	"  UPDATE amc_fleet.assignment x SET updated_at = now(),\n"
	"    state = CASE WHEN p_state <> 'released' THEN p_state\n"
	"                 WHEN x.cancel_requested THEN 'cancelled' ELSE 'queued' END,\n"
	"    finished_at = CASE WHEN p_state = 'released' AND NOT x.cancel_requested THEN NULL ELSE now() END,\n"
	"    error = CASE WHEN p_state = 'cancelled' THEN left(p_error, 2000) ELSE x.error END\n"
	"  WHERE x.id = t.assignment_id;\n"
	"  RETURN true;\n"
	"END $$;\n"
	"CREATE OR REPLACE FUNCTION amc_fleet.finish(p_attempt bigint, p_token bigint, p_state text, p_error text)\n"
	"  RETURNS boolean LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS\n"
	"  $$ SELECT amc_fleet.finish(p_attempt, p_token, p_state, p_error, true) $$;\n"
	/* The reaper of version 2, and an attempt that ran past its assignment's
	 * timeout by more than one lease period and the grace (its host should
	 * have ended it: it is gone or stuck) ends failed, retried as any failure. */
	"CREATE OR REPLACE FUNCTION amc_fleet.reap(grace_s double precision, keep_n int, max_age_days int) RETURNS int\n"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$\n"
	"DECLARE n int := 0; r record; used int;\n"
	"BEGIN\n"
	"  IF grace_s IS NULL OR grace_s < 0 THEN RAISE EXCEPTION 'the reaper grace is at least 0 s' USING ERRCODE = '22023'; END IF;\n"
	"  IF NOT pg_try_advisory_xact_lock(hashtext('amc_fleet.reap')) THEN RETURN -1; END IF;\n"
	"  FOR r IN UPDATE amc_fleet.attempt t SET state = 'failed', finished_at = now(),\n"
	"      error = 'timed out: ran past its timeout of ' || a.timeout_s || ' s (ended by the reaper; host '\n"
	"              || t.host_label || ')',\n"
	"      progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"    FROM amc_fleet.assignment a\n"
	"    WHERE t.assignment_id = a.id AND t.state = 'running' AND a.timeout_s IS NOT NULL\n"
	"      AND t.started_at + make_interval(secs => a.timeout_s + grace_s)\n"
	"          + (t.lease_until - coalesce(t.renewed_at, t.started_at)) < now()\n"
	"    RETURNING t.assignment_id, t.error\n"
	"  LOOP\n"
	"    n := n + 1;\n"
	"    PERFORM amc_fleet.after_failure(r.assignment_id, r.error, true);\n"
	"  END LOOP;\n"
	"  FOR r IN UPDATE amc_fleet.attempt SET state = 'lost', finished_at = lease_until,\n"
	"      error = 'lease expired at ' || to_char(lease_until AT TIME ZONE 'UTC', 'HH24:MI:SS')\n"
	"              || ' UTC: host ' || host_label || ' stopped renewing',\n"
	"      progress_step = NULL, progress_status = NULL, progress_summary = NULL, progress_at = NULL\n"
	"    WHERE state = 'running' AND lease_until < now() - make_interval(secs => grace_s)\n"
	"      AND pg_postmaster_start_time() + (lease_until - coalesce(renewed_at, started_at))\n"
	"          < now() - make_interval(secs => grace_s)\n"
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
	"DO $$ DECLARE t text; BEGIN\n"
	"  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'amc_fleet_operator') THEN\n"
	"    FOREACH t IN ARRAY ARRAY['host','device','assignment','attempt','decision','role_caps'] LOOP\n"
	"      EXECUTE format('CREATE POLICY operator ON amc_fleet.%I TO amc_fleet_operator USING (true) WITH CHECK (true)', t);\n"
	"    END LOOP;\n"
	"    GRANT USAGE ON SCHEMA amc_fleet TO amc_fleet_operator;\n"
	"    GRANT SELECT ON amc_fleet.meta, amc_fleet.setting TO amc_fleet_operator;\n"
	"    GRANT SELECT, DELETE ON amc_fleet.host, amc_fleet.device, amc_fleet.attempt, amc_fleet.decision\n"
	"      TO amc_fleet_operator;\n"
	"    GRANT SELECT, INSERT, UPDATE, DELETE ON amc_fleet.assignment, amc_fleet.role_caps TO amc_fleet_operator;\n"
	"    GRANT EXECUTE ON FUNCTION amc_fleet.reap(double precision, int, int) TO amc_fleet_operator;\n"
	"  END IF;\n"
	"END $$;\n"
	"REVOKE ALL ON FUNCTION amc_fleet.claim(bigint, text, text, double precision), amc_fleet.granted(text[]),\n"
	"  amc_fleet.set_caps(bigint, text[]), amc_fleet.may_need(text[]), amc_fleet.after_failure(bigint, text, boolean),\n"
	"  amc_fleet.finish(bigint, bigint, text, text, boolean) FROM PUBLIC;\n"
	"GRANT EXECUTE ON FUNCTION amc_fleet.claim(bigint, text, text, double precision),\n"
	"  amc_fleet.set_caps(bigint, text[]), amc_fleet.may_need(text[]),\n"
	"  amc_fleet.finish(bigint, bigint, text, text, boolean) TO amc_fleet_host;\n";

static const char *const migrations[] = { v1, v2, v3 };
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
