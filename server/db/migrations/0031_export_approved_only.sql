-- Issue 39: an export may write approved answers only.
ALTER TABLE "questionnaire_exports" ADD COLUMN "approved_only" boolean DEFAULT false NOT NULL;