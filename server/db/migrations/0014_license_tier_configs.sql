CREATE TABLE "license_tier_configs" (
	"key" text PRIMARY KEY NOT NULL,
	"limits" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
