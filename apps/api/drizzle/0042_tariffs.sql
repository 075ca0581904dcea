CREATE TABLE "customer_tariffs" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"discount_bp" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_tariffs_discount_ck" CHECK ("customer_tariffs"."discount_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "tariff_article_prices" (
	"article_id" integer NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	CONSTRAINT "tariff_article_prices_article_id_origin_branch_id_destination_branch_id_pk" PRIMARY KEY("article_id","origin_branch_id","destination_branch_id"),
	CONSTRAINT "tariff_article_prices_price_ck" CHECK ("tariff_article_prices"."price" > 0),
	CONSTRAINT "tariff_article_prices_route_ck" CHECK ("tariff_article_prices"."origin_branch_id" <> "tariff_article_prices"."destination_branch_id")
);
--> statement-breakpoint
CREATE TABLE "tariff_articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"unit" text NOT NULL,
	"unit_code" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tariff_articles_unit_code_ck" CHECK ("tariff_articles"."unit_code" ~ '^[A-Z0-9]{2,3}$')
);
--> statement-breakpoint
CREATE TABLE "tariff_routes" (
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"minimum_charge" numeric(12, 2) DEFAULT '0.00' NOT NULL,
	"volumetric_divisor" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tariff_routes_origin_branch_id_destination_branch_id_pk" PRIMARY KEY("origin_branch_id","destination_branch_id"),
	CONSTRAINT "tariff_routes_minimum_ck" CHECK ("tariff_routes"."minimum_charge" >= 0),
	CONSTRAINT "tariff_routes_divisor_ck" CHECK ("tariff_routes"."volumetric_divisor" is null or "tariff_routes"."volumetric_divisor" between 1000 and 10000),
	CONSTRAINT "tariff_routes_route_ck" CHECK ("tariff_routes"."origin_branch_id" <> "tariff_routes"."destination_branch_id")
);
--> statement-breakpoint
CREATE TABLE "tariff_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"volumetric_divisor" integer DEFAULT 6000 NOT NULL,
	"insurance_rate_bp" integer DEFAULT 200 NOT NULL,
	"insurance_minimum" numeric(12, 2) DEFAULT '5.00' NOT NULL,
	"declared_value_threshold" numeric(12, 2) DEFAULT '500.00' NOT NULL,
	"insurance_mandatory_above" boolean DEFAULT true NOT NULL,
	"max_declared_value" numeric(12, 2) DEFAULT '50000.00' NOT NULL,
	"cover_bp" integer DEFAULT 9000 NOT NULL,
	"undeclared_cap" numeric(12, 2) DEFAULT '100.00' NOT NULL,
	"liability_clause" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tariff_settings_single_ck" CHECK ("tariff_settings"."id" = 1),
	CONSTRAINT "tariff_settings_divisor_ck" CHECK ("tariff_settings"."volumetric_divisor" between 1000 and 10000),
	CONSTRAINT "tariff_settings_rates_ck" CHECK ("tariff_settings"."insurance_rate_bp" between 0 and 10000 and "tariff_settings"."cover_bp" between 0 and 10000),
	CONSTRAINT "tariff_settings_amounts_ck" CHECK ("tariff_settings"."insurance_minimum" >= 0 and "tariff_settings"."declared_value_threshold" >= 0 and "tariff_settings"."max_declared_value" >= 0 and "tariff_settings"."undeclared_cap" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tariff_surcharges" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"fixed_amount" numeric(12, 2),
	"percent_bp" integer,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "tariff_surcharges_code_ck" CHECK ("tariff_surcharges"."code" ~ '^[a-z_]{2,30}$'),
	CONSTRAINT "tariff_surcharges_amount_ck" CHECK (("tariff_surcharges"."fixed_amount" is null) <> ("tariff_surcharges"."percent_bp" is null)),
	CONSTRAINT "tariff_surcharges_values_ck" CHECK (coalesce("tariff_surcharges"."fixed_amount", 0) >= 0 and coalesce("tariff_surcharges"."percent_bp", 0) between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "price_components" jsonb;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "declared_value" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "insured" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "surcharges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_tariffs" ADD CONSTRAINT "customer_tariffs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariff_article_prices" ADD CONSTRAINT "tariff_article_prices_article_id_tariff_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."tariff_articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariff_article_prices" ADD CONSTRAINT "tariff_article_prices_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariff_article_prices" ADD CONSTRAINT "tariff_article_prices_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariff_routes" ADD CONSTRAINT "tariff_routes_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariff_routes" ADD CONSTRAINT "tariff_routes_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tariff_articles_name_uq" ON "tariff_articles" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_declared_value_ck" CHECK ("shipments"."declared_value" is null or "shipments"."declared_value" >= 0);--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_insured_ck" CHECK (not "shipments"."insured" or "shipments"."declared_value" > 0);--> statement-breakpoint
-- The company's tariff settings start at the issue's defaults: divisor 6000, insurance 2 % (minimum
-- S/ 5.00), declared value required above S/ 500, 90 % cover, S/ 100 for undeclared goods.
INSERT INTO "tariff_settings" ("id", "liability_clause") VALUES (1,
  'La responsabilidad de la empresa por pérdida o daño se limita al 90 % del valor declarado y asegurado. Sin valor declarado, la indemnización máxima es de S/ 100.00. No se transportan dinero, joyas ni objetos prohibidos.');--> statement-breakpoint
INSERT INTO "tariff_surcharges" ("code", "description", "fixed_amount", "percent_bp") VALUES
  ('entrega_domicilio', 'Entrega a domicilio', 10.00, NULL),
  ('recojo_domicilio', 'Recojo a domicilio', 10.00, NULL),
  ('retorno_cargo', 'Retorno de cargo', 5.00, NULL),
  ('fragil', 'Frágil', NULL, 1000),
  ('embalaje', 'Embalaje', 8.00, NULL);--> statement-breakpoint
-- A creation prices from the reference cache (migration 0020): a change to any tariff table it
-- reads must evict it in every process, as a change to the weight factor tables does.
CREATE TRIGGER tariff_settings_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tariff_settings
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER tariff_articles_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tariff_articles
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER tariff_article_prices_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tariff_article_prices
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER tariff_routes_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tariff_routes
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER tariff_surcharges_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tariff_surcharges
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();
