-- Issue 40: requests for documents under NDA, reader access, and every download.
CREATE TABLE "trust_downloads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trust_downloads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"file_id" bigint,
	"request_id" bigint,
	"email" text,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trust_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trust_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"nda_version" integer NOT NULL,
	"nda_text" text NOT NULL,
	"nda_accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"address" text,
	"user_agent" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"link_hash" text,
	"link_used_at" timestamp with time zone,
	"reader_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_requests_status_check" CHECK ("trust_requests"."status" in ('pending', 'approved', 'rejected', 'revoked'))
);
--> statement-breakpoint
ALTER TABLE "trust_downloads" ADD CONSTRAINT "trust_downloads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_downloads" ADD CONSTRAINT "trust_downloads_request_id_trust_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."trust_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_requests" ADD CONSTRAINT "trust_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_requests" ADD CONSTRAINT "trust_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trust_downloads_org_idx" ON "trust_downloads" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "trust_requests_org_idx" ON "trust_requests" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_requests_link_idx" ON "trust_requests" USING btree ("link_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_requests_reader_idx" ON "trust_requests" USING btree ("reader_hash");