CREATE TABLE "filled_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filled_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"storage_key" uuid NOT NULL,
	"revision" integer NOT NULL,
	"answers_written" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaire_answers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_answers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"question_id" bigint NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"choice" text,
	"comment" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confidence" double precision,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questionnaire_answers_status_check" CHECK ("questionnaire_answers"."status" in ('pending', 'generating', 'generated', 'edited', 'approved', 'no_answer', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "questionnaire_operations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_operations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"question_count" integer DEFAULT 0 NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "questionnaire_questions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_questions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"tab_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"ref" text,
	"text" text NOT NULL,
	"section" text,
	"target" jsonb,
	"vocabulary" text[],
	"match_key" text NOT NULL,
	"selected_rank" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "questionnaire_tabs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_tabs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"mapping" jsonb,
	"mapping_state" text DEFAULT 'detected' NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"preview" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaires" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaires_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"storage_key" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"progress_label" text,
	"error" text,
	"mappings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"processing_started_at" timestamp with time zone,
	"analyzed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questionnaires_status_check" CHECK ("questionnaires"."status" in ('queued', 'analyzing', 'ready', 'generating', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "filled_files" ADD CONSTRAINT "filled_files_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filled_files" ADD CONSTRAINT "filled_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD CONSTRAINT "questionnaire_answers_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD CONSTRAINT "questionnaire_answers_question_id_questionnaire_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questionnaire_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD CONSTRAINT "questionnaire_answers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_operations" ADD CONSTRAINT "questionnaire_operations_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_operations" ADD CONSTRAINT "questionnaire_operations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_tab_id_questionnaire_tabs_id_fk" FOREIGN KEY ("tab_id") REFERENCES "public"."questionnaire_tabs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_tabs" ADD CONSTRAINT "questionnaire_tabs_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filled_files_questionnaire_idx" ON "filled_files" USING btree ("questionnaire_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_answers_question_rank_idx" ON "questionnaire_answers" USING btree ("question_id","rank");--> statement-breakpoint
CREATE INDEX "questionnaire_answers_questionnaire_idx" ON "questionnaire_answers" USING btree ("questionnaire_id");--> statement-breakpoint
CREATE INDEX "questionnaire_operations_idx" ON "questionnaire_operations" USING btree ("questionnaire_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_questions_position_idx" ON "questionnaire_questions" USING btree ("questionnaire_id","position");--> statement-breakpoint
CREATE INDEX "questionnaire_questions_tab_idx" ON "questionnaire_questions" USING btree ("tab_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_tabs_position_idx" ON "questionnaire_tabs" USING btree ("questionnaire_id","position");--> statement-breakpoint
CREATE INDEX "questionnaires_org_created_idx" ON "questionnaires" USING btree ("org_id","created_at");