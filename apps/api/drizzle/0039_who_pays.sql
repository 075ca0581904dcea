CREATE TABLE "who_pays_branch_methods" (
	"branch_id" integer PRIMARY KEY NOT NULL,
	"methods" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "who_pays_route_rules" (
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"destination_allowed" boolean NOT NULL,
	CONSTRAINT "who_pays_route_rules_origin_branch_id_destination_branch_id_pk" PRIMARY KEY("origin_branch_id","destination_branch_id")
);
--> statement-breakpoint
CREATE TABLE "who_pays_rules" (
	"id" integer PRIMARY KEY NOT NULL,
	"max_destination_freight" numeric(12, 2) NOT NULL,
	"origin_only_above_kg" numeric(10, 2),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "who_pays_rules_single_ck" CHECK ("who_pays_rules"."id" = 1),
	CONSTRAINT "who_pays_rules_max_ck" CHECK ("who_pays_rules"."max_destination_freight" >= 0),
	CONSTRAINT "who_pays_rules_weight_ck" CHECK ("who_pays_rules"."origin_only_above_kg" is null or "who_pays_rules"."origin_only_above_kg" > 0)
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payer" text DEFAULT 'remitente' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payment_moment" text DEFAULT 'origen' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payer_doc_type" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payer_doc_number" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payer_name" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "payer_customer_id" integer;--> statement-breakpoint
ALTER TABLE "who_pays_branch_methods" ADD CONSTRAINT "who_pays_branch_methods_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "who_pays_route_rules" ADD CONSTRAINT "who_pays_route_rules_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "who_pays_route_rules" ADD CONSTRAINT "who_pays_route_rules_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_payer_customer_id_customers_id_fk" FOREIGN KEY ("payer_customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_destination_collect_idx" ON "shipments" USING btree ("destination_branch_id","status") WHERE "shipments"."payment_moment" = 'destino';--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_payer_ck" CHECK ("shipments"."payer" in ('remitente', 'destinatario', 'tercero'));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_payment_moment_ck" CHECK ("shipments"."payment_moment" in ('origen', 'destino', 'credito'));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_payer_doc_type_ck" CHECK ("shipments"."payer_doc_type" is null or "shipments"."payer_doc_type" in (1, 6));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_third_payer_ck" CHECK ("shipments"."payer" <> 'tercero' or ("shipments"."payer_doc_number" is not null and "shipments"."payer_name" is not null));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_destination_payer_ck" CHECK ("shipments"."payment_moment" <> 'destino' or "shipments"."payer" <> 'remitente');