-- Issue 42: a portal questionnaire is found again by its page address.
ALTER TABLE "questionnaires" ADD COLUMN "portal_url" text;--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaires_portal_url_idx" ON "questionnaires" USING btree ("org_id","portal_url") WHERE "questionnaires"."portal_url" is not null;