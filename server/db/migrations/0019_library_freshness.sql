ALTER TABLE "organizations" ADD COLUMN "review_cycle_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD COLUMN "last_reviewed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD COLUMN "reviewed_by" bigint;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD COLUMN "review_cycle_days" integer;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_qa_items" ADD CONSTRAINT "kb_qa_items_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "kb_qa_items" SET "last_reviewed_at" = "updated_at";
