CREATE TABLE "file_status_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"file_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_status_history" ADD CONSTRAINT "file_status_history_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_status_history" ADD CONSTRAINT "file_status_history_file_id_repository_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."repository_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_status_history_file_idx" ON "file_status_history" USING btree ("file_id","at");--> statement-breakpoint
CREATE FUNCTION repository_files_record_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status
     OR (NEW.status = 'queued' AND NEW.version IS DISTINCT FROM OLD.version) THEN
    INSERT INTO file_status_history (org_id, file_id, version, status, error, at)
    VALUES (NEW.org_id, NEW.id, NEW.version, NEW.status,
            CASE WHEN NEW.status = 'failed' THEN NEW.error END, clock_timestamp());
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER repository_files_status_history AFTER INSERT OR UPDATE OF status, version ON repository_files
  FOR EACH ROW EXECUTE FUNCTION repository_files_record_status();--> statement-breakpoint
INSERT INTO file_status_history (org_id, file_id, version, status, error, at)
  SELECT org_id, id, version, 'queued', NULL, created_at FROM repository_files;--> statement-breakpoint
INSERT INTO file_status_history (org_id, file_id, version, status, error, at)
  SELECT org_id, id, version, status, CASE WHEN status = 'failed' THEN error END,
         greatest(created_at, coalesce(processed_at, updated_at))
    FROM repository_files WHERE status <> 'queued';
