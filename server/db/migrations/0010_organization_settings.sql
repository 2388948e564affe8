CREATE TABLE "organization_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"added_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "answer_tone" text DEFAULT 'neutral' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "answer_length" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_domains" ADD CONSTRAINT "organization_domains_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_domains_org_idx" ON "organization_domains" USING btree ("org_id");