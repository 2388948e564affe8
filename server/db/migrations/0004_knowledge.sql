CREATE TABLE "file_passages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_passages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"file_id" bigint NOT NULL,
	"ordinal" integer NOT NULL,
	"text" text NOT NULL,
	"location" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"heading" text,
	"qa_question" text,
	"qa_answer" text,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(heading, '') || ' ' || text)) STORED
);
--> statement-breakpoint
CREATE TABLE "kb_data_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kb_data_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"title" text NOT NULL,
	"value" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text,
	"created_by" bigint,
	"updated_by" bigint,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', value), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_qa_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kb_qa_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"dropdown_value" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text,
	"source_file_id" bigint,
	"question_key" text NOT NULL,
	"created_by" bigint,
	"updated_by" bigint,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', question), 'A') || setweight(to_tsvector('english', answer), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repository_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "repository_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"storage_key" uuid,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"source_url" text,
	"pages" integer,
	"passage_count" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"processing_started_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repository_files_status_check" CHECK ("repository_files"."status" in ('queued', 'processing', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "file_passages" ADD CONSTRAINT "file_passages_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_passages" ADD CONSTRAINT "file_passages_file_id_repository_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."repository_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_data_items" ADD CONSTRAINT "kb_data_items_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_data_items" ADD CONSTRAINT "kb_data_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_data_items" ADD CONSTRAINT "kb_data_items_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_source_file_id_repository_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."repository_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_passages_file_idx" ON "file_passages" USING btree ("file_id","ordinal");--> statement-breakpoint
CREATE INDEX "file_passages_org_idx" ON "file_passages" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "file_passages_tsv_idx" ON "file_passages" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "kb_data_items_org_updated_idx" ON "kb_data_items" USING btree ("org_id","updated_at");--> statement-breakpoint
CREATE INDEX "kb_data_items_tsv_idx" ON "kb_data_items" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "kb_data_items_title_trgm_idx" ON "kb_data_items" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "kb_data_items_tags_idx" ON "kb_data_items" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "kb_qa_items_org_updated_idx" ON "kb_qa_items" USING btree ("org_id","updated_at");--> statement-breakpoint
CREATE INDEX "kb_qa_items_org_key_idx" ON "kb_qa_items" USING btree ("org_id","question_key");--> statement-breakpoint
CREATE INDEX "kb_qa_items_tsv_idx" ON "kb_qa_items" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "kb_qa_items_question_trgm_idx" ON "kb_qa_items" USING gin ("question" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "kb_qa_items_tags_idx" ON "kb_qa_items" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "repository_files_org_created_idx" ON "repository_files" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "repository_files_org_status_idx" ON "repository_files" USING btree ("org_id","status");--> statement-breakpoint
CREATE INDEX "repository_files_tags_idx" ON "repository_files" USING gin ("tags");