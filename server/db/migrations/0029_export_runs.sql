-- Issue 37 (S8): exports run as jobs; each run, its progress and the filled file it wrote.
CREATE TABLE "questionnaire_exports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"requested_by" bigint,
	"format" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"label" text,
	"error" text,
	"filled_file_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questionnaire_exports_status_check" CHECK ("questionnaire_exports"."status" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "questionnaire_exports_progress_check" CHECK ("questionnaire_exports"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "questionnaire_exports" ADD CONSTRAINT "questionnaire_exports_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_exports" ADD CONSTRAINT "questionnaire_exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_exports" ADD CONSTRAINT "questionnaire_exports_filled_file_id_filled_files_id_fk" FOREIGN KEY ("filled_file_id") REFERENCES "public"."filled_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questionnaire_exports_questionnaire_idx" ON "questionnaire_exports" USING btree ("questionnaire_id","id");--> statement-breakpoint
CREATE INDEX "questionnaire_exports_unfinished_idx" ON "questionnaire_exports" USING btree ("updated_at") WHERE "questionnaire_exports"."status" in ('queued', 'running');