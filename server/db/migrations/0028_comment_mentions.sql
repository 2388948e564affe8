CREATE TABLE "question_comment_notified" (
	"org_id" bigint NOT NULL,
	"comment_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_comment_notified_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "quote" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "send_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "question_comment_notified" ADD CONSTRAINT "question_comment_notified_comment_id_question_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."question_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_comment_notified" ADD CONSTRAINT "question_comment_notified_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_held_idx" ON "notifications" USING btree ("send_after") WHERE "notifications"."email" = 'held';--> statement-breakpoint
CREATE INDEX "notifications_window_idx" ON "notifications" USING btree ("user_id","send_after") WHERE "notifications"."send_after" is not null;--> statement-breakpoint
-- the people existing comments mention were told when they were named: an edit never tells them again
INSERT INTO "question_comment_notified" ("org_id", "comment_id", "user_id")
  SELECT c."org_id", c."id", m."user_id"
    FROM "question_comments" c, unnest(c."mentions") AS m("user_id")
   WHERE c."deleted_at" IS NULL AND EXISTS (SELECT 1 FROM "users" u WHERE u."id" = m."user_id")
  ON CONFLICT DO NOTHING;
