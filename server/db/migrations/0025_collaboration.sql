CREATE TABLE "customers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"domain" text,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"actor_id" bigint,
	"questionnaire_id" bigint,
	"question_id" bigint,
	"in_app" boolean DEFAULT true NOT NULL,
	"email" text,
	"dedupe_key" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_comments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "question_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"question_id" bigint NOT NULL,
	"parent_id" bigint,
	"author_id" bigint,
	"body" text NOT NULL,
	"mentions" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolved_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaire_activity" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "questionnaire_activity_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"questionnaire_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"question_id" bigint,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notification_preferences" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaire_answers" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD COLUMN "assignee_id" bigint;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD COLUMN "assignment_due_date" date;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD COLUMN "review_state" text DEFAULT 'unassigned' NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "customer_id" bigint;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "requester" text;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "due_date" date;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "work_status" text DEFAULT 'drafting' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comments" ADD CONSTRAINT "question_comments_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comments" ADD CONSTRAINT "question_comments_question_id_questionnaire_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questionnaire_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comments" ADD CONSTRAINT "question_comments_parent_id_question_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."question_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comments" ADD CONSTRAINT "question_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comments" ADD CONSTRAINT "question_comments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_activity" ADD CONSTRAINT "questionnaire_activity_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_activity" ADD CONSTRAINT "questionnaire_activity_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_org_name_idx" ON "customers" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_email_idx" ON "notifications" USING btree ("email") WHERE "notifications"."email" in ('pending', 'digest');--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_idx" ON "notifications" USING btree ("user_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "question_comments_question_idx" ON "question_comments" USING btree ("question_id","id");--> statement-breakpoint
CREATE INDEX "question_comments_questionnaire_idx" ON "question_comments" USING btree ("questionnaire_id");--> statement-breakpoint
CREATE INDEX "questionnaire_activity_idx" ON "questionnaire_activity" USING btree ("questionnaire_id","id");--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questionnaire_questions_assignee_idx" ON "questionnaire_questions" USING btree ("assignee_id") WHERE "questionnaire_questions"."assignee_id" is not null and "questionnaire_questions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "questionnaires_customer_idx" ON "questionnaires" USING btree ("customer_id");--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_review_state_check" CHECK ("questionnaire_questions"."review_state" in ('unassigned', 'assigned', 'answered', 'ready', 'changes_requested', 'approved'));--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_work_status_check" CHECK ("questionnaires"."work_status" in ('drafting', 'in_review', 'approved', 'sent'));--> statement-breakpoint
CREATE FUNCTION questionnaire_answers_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.text IS DISTINCT FROM OLD.text OR NEW.choice IS DISTINCT FROM OLD.choice
     OR NEW.comment IS DISTINCT FROM OLD.comment OR NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER questionnaire_answers_version BEFORE UPDATE ON questionnaire_answers
  FOR EACH ROW EXECUTE FUNCTION questionnaire_answers_bump_version();
