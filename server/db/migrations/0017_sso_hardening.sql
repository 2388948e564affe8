CREATE TABLE "chat_usage" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_usage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" bigint NOT NULL,
	"user_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_usage" ADD CONSTRAINT "chat_usage_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_usage_org_month_idx" ON "chat_usage" USING btree ("org_id","created_at");--> statement-breakpoint
-- the questions already asked stay counted
INSERT INTO "chat_usage" ("org_id", "user_id", "created_at")
  SELECT m."org_id", s."user_id", m."created_at" FROM "chat_messages" m JOIN "chat_sessions" s ON s."id" = m."session_id"
   WHERE m."role" = 'user';--> statement-breakpoint
ALTER TABLE "organization_domains" ADD COLUMN "dns_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_codes" ADD COLUMN "browser_hash" text;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD COLUMN "browser_hash" text;--> statement-breakpoint
ALTER TABLE "sso_settings" ADD COLUMN "metadata_fetched_at" timestamp with time zone;--> statement-breakpoint
-- an identity belongs to the provider configuration that vouched for it: the person's organisation
-- and that organisation's provider when its issuer is the configured one, else Google sign-in;
-- a SAML organisation's rows keep its provider whatever issuer the assertion named (they no
-- longer match anything but that organisation's own provider)
ALTER TABLE "user_identities" ADD COLUMN "org_id" bigint;--> statement-breakpoint
ALTER TABLE "user_identities" ADD COLUMN "provider" text;--> statement-breakpoint
UPDATE "user_identities" i SET "org_id" = u."org_id",
       "provider" = CASE
         WHEN s."provider" = 'microsoft_saml' THEN 'microsoft_saml'
         WHEN s."provider" IS NOT NULL AND s."issuer" = i."issuer" THEN s."provider"
         ELSE 'google' END
  FROM "users" u LEFT JOIN "sso_settings" s ON s."org_id" = u."org_id"
 WHERE u."id" = i."user_id";--> statement-breakpoint
DELETE FROM "user_identities" WHERE "org_id" IS NULL OR "provider" IS NULL;--> statement-breakpoint
ALTER TABLE "user_identities" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_identities" ALTER COLUMN "provider" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_identities" DROP CONSTRAINT "user_identities_issuer_subject_pk";--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_org_id_provider_issuer_subject_pk" PRIMARY KEY("org_id","provider","issuer","subject");--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_identities_subject_idx" ON "user_identities" USING btree ("provider","issuer","subject");
