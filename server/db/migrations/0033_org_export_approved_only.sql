-- Issue 39: an organisation may fill files with approved answers only by default.
ALTER TABLE "organizations" ADD COLUMN "export_approved_only" boolean DEFAULT false NOT NULL;