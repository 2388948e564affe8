-- Issue 40: the trust centre: a page per organisation, and what of its files and answers is on it.
CREATE TABLE "trust_pages" (
	"org_id" bigint PRIMARY KEY NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"slug" text,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"overview" text DEFAULT '' NOT NULL,
	"contact_email" text,
	"certifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subprocessors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nda_text" text DEFAULT '' NOT NULL,
	"nda_version" integer DEFAULT 0 NOT NULL,
	"auto_approve_domains" text[] DEFAULT '{}' NOT NULL,
	"grant_days" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" bigint,
	CONSTRAINT "trust_pages_grant_days_check" CHECK ("trust_pages"."grant_days" between 1 and 365)
);
--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD COLUMN "trust_visibility" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "repository_files" ADD COLUMN "trust_visibility" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "trust_pages" ADD CONSTRAINT "trust_pages_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_pages" ADD CONSTRAINT "trust_pages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trust_pages_slug_idx" ON "trust_pages" USING btree ("slug");--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_trust_visibility_check" CHECK ("kb_qa_items"."trust_visibility" in ('private', 'public'));--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_trust_visibility_check" CHECK ("repository_files"."trust_visibility" in ('private', 'public', 'nda'));