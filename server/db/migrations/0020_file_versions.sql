CREATE TABLE "repository_file_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "repository_file_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"file_id" bigint NOT NULL,
	"org_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"storage_key" uuid,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repository_files" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "repository_files" ADD COLUMN "version_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "repository_files" ADD COLUMN "version_created_by" bigint;--> statement-breakpoint
ALTER TABLE "repository_file_versions" ADD CONSTRAINT "repository_file_versions_file_id_repository_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."repository_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_file_versions" ADD CONSTRAINT "repository_file_versions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_file_versions" ADD CONSTRAINT "repository_file_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repository_file_versions_file_version_idx" ON "repository_file_versions" USING btree ("file_id","version");--> statement-breakpoint
CREATE INDEX "repository_file_versions_org_idx" ON "repository_file_versions" USING btree ("org_id");--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_version_created_by_users_id_fk" FOREIGN KEY ("version_created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repository_files_org_name_idx" ON "repository_files" USING btree ("org_id",lower("name"));