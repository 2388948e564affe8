ALTER TABLE "file_passages" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "file_passages" ADD COLUMN "embedding_model" text;