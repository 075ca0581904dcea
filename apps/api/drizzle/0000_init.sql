CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"city" text,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text,
	"doc_type" smallint NOT NULL,
	"doc_number" text NOT NULL,
	"address" text,
	"ubigeo" text,
	"phone" text,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_doc_type_ck" CHECK ("customers"."doc_type" in (1, 4, 6, 7))
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_cache" (
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"payload" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lookup_cache_kind_number_pk" PRIMARY KEY("kind","number")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"role" text NOT NULL,
	"branch_id" integer,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_ck" CHECK ("users"."role" in ('admin', 'agent', 'courier'))
);
--> statement-breakpoint
CREATE TABLE "weight_factor_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"product_type" text NOT NULL,
	"name" text NOT NULL,
	"currency" text DEFAULT 'PEN' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weight_factor_tables_class_ck" CHECK ("weight_factor_tables"."product_type" in ('liviano', 'medio', 'alto')),
	CONSTRAINT "weight_factor_tables_route_ck" CHECK ("weight_factor_tables"."origin_branch_id" <> "weight_factor_tables"."destination_branch_id")
);
--> statement-breakpoint
CREATE TABLE "weight_factor_tiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"table_id" integer NOT NULL,
	"from_kg" numeric(10, 2) NOT NULL,
	"to_kg" numeric(10, 2) NOT NULL,
	"factor_per_kg" numeric(12, 4) NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_factor_tables" ADD CONSTRAINT "weight_factor_tables_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_factor_tables" ADD CONSTRAINT "weight_factor_tables_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_factor_tiers" ADD CONSTRAINT "weight_factor_tiers_table_id_weight_factor_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."weight_factor_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "branches_name_city_uq" ON "branches" USING btree (lower("name"),lower(coalesce("city", '')));--> statement-breakpoint
CREATE UNIQUE INDEX "customers_doc_uq" ON "customers" USING btree ("doc_type","doc_number");--> statement-breakpoint
CREATE INDEX "customers_search_trgm" ON "customers" USING gin ((lower("first_name" || ' ' || coalesce("last_name", '') || ' ' || "doc_number" || ' ' || coalesce("phone", '') || ' ' || coalesce("email", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree ("username");--> statement-breakpoint
CREATE INDEX "users_branch_idx" ON "users" USING btree ("branch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "weight_factor_tables_route_uq" ON "weight_factor_tables" USING btree ("origin_branch_id","destination_branch_id","product_type") WHERE "weight_factor_tables"."active";--> statement-breakpoint
CREATE INDEX "weight_factor_tiers_table_idx" ON "weight_factor_tiers" USING btree ("table_id","from_kg");