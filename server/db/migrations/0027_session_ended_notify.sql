-- Issue 37: a live stream closes the moment its session or its person's membership ends, on every
-- node. Whatever path ends a session (logout, password change, removal, a revoked tree) or changes
-- a person (removed, disabled, moved, their role), the database announces it on the event hub's
-- channel; each node re-checks that person's open streams at once.
CREATE OR REPLACE FUNCTION quire_announce_session_ended(p_user bigint, p_org bigint, p_sid uuid)
RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('quire_events', json_build_object(
    'key', 'user:' || p_user, 'org', p_org, 'type', 'session-ended',
    'data', json_build_object('sid', p_sid))::text)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quire_sessions_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM quire_announce_session_ended(OLD.user_id, OLD.org_id, OLD.id);
    RETURN OLD;
  END IF;
  PERFORM quire_announce_session_ended(NEW.user_id, NEW.org_id, NEW.id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_ended_notify AFTER UPDATE OF revoked_at, expires_at ON sessions
  FOR EACH ROW WHEN (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION quire_sessions_ended();
--> statement-breakpoint
CREATE TRIGGER sessions_deleted_notify AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION quire_sessions_ended();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quire_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM quire_announce_session_ended(OLD.id, OLD.org_id, NULL);
    RETURN OLD;
  END IF;
  PERFORM quire_announce_session_ended(NEW.id, OLD.org_id, NULL);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_changed_notify AFTER UPDATE OF status, role, org_id ON users
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status OR NEW.role IS DISTINCT FROM OLD.role
    OR NEW.org_id IS DISTINCT FROM OLD.org_id)
  EXECUTE FUNCTION quire_users_changed();
--> statement-breakpoint
CREATE TRIGGER users_deleted_notify AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION quire_users_changed();
