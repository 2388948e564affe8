CREATE TABLE "checkout_references" (
	"reference" text PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"created_by" bigint,
	"price_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"org_id" bigint,
	"outcome" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"status" text NOT NULL,
	"price_id" text,
	"tier_key" text,
	"billing_period" text,
	"customer_id" text,
	"current_period_end" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('active', 'trialing', 'past_due', 'paused', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "payment_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" bigint,
	"subscription_id" text,
	"status" text NOT NULL,
	"price_id" text,
	"tier_key" text,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_transactions_status_check" CHECK ("payment_transactions"."status" in ('draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due'))
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "tier_key" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_references" ADD CONSTRAINT "checkout_references_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_references" ADD CONSTRAINT "checkout_references_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_references_org_idx" ON "checkout_references" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "subscriptions_org_idx" ON "subscriptions" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "payment_transactions_org_idx" ON "payment_transactions" USING btree ("org_id");