CREATE TABLE "company" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"ruc" text NOT NULL,
	"name" text NOT NULL,
	"trade_name" text,
	"address" text NOT NULL,
	"mtc_registration" text,
	"guides_before_departure" boolean DEFAULT true NOT NULL,
	"logo" "bytea",
	"logo_type" text,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	"updated_by_name" text,
	CONSTRAINT "company_single_row" CHECK ("company"."id" = 1),
	CONSTRAINT "company_logo_type" CHECK (("company"."logo" is null) = ("company"."logo_type" is null) and ("company"."logo_type" is null or "company"."logo_type" in ('image/jpeg', 'image/png')))
);
--> statement-breakpoint
ALTER TABLE "company" ADD CONSTRAINT "company_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;