ALTER TABLE "users" DROP CONSTRAINT "users_role_check";--> statement-breakpoint
-- members could do everything but administer people: the approver keeps that
UPDATE "users" SET "role" = 'approver' WHERE "role" = 'member';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'contributor';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'approver', 'contributor', 'viewer'));
