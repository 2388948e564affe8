-- Issue 40: the trust centre's page views per day, and when each request was approved (kept when it is revoked).
CREATE TABLE "trust_page_views" (
	"org_id" bigint NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "trust_page_views_org_id_day_pk" PRIMARY KEY("org_id","day")
);
--> statement-breakpoint
ALTER TABLE "trust_requests" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trust_page_views" ADD CONSTRAINT "trust_page_views_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "trust_requests" r SET "approved_at" = coalesce(
	(SELECT min(a."created_at") FROM "audit_events" a
	  WHERE a."org_id" = r."org_id" AND a."target" = 'trust_request:' || r."id"
	    AND a."action" IN ('trust.request_approved', 'trust.request_auto_approved')),
	CASE WHEN r."status" = 'approved' THEN r."decided_at" END)
WHERE r."status" IN ('approved', 'revoked');
