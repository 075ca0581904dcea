CREATE SEQUENCE "public"."shipment_code_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "shipment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"note" text,
	"status_from" text,
	"status_to" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"user_name" text
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'Creado' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"sender_customer_id" integer,
	"sender_name" text NOT NULL,
	"recipient_first_name" text NOT NULL,
	"recipient_last_name" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_doc" text NOT NULL,
	"product_type" text NOT NULL,
	"weight_kg" numeric(10, 2) NOT NULL,
	"billable_weight_kg" integer NOT NULL,
	"description" text,
	"quoted_price" numeric(12, 2) NOT NULL,
	"quoted_currency" text DEFAULT 'PEN' NOT NULL,
	"quoted_factor_per_kg" numeric(12, 4) NOT NULL,
	"using_reverse" boolean DEFAULT false NOT NULL,
	"multi_line_detail" jsonb NOT NULL,
	"secret_code_hash" text NOT NULL,
	"delivered_info" jsonb,
	CONSTRAINT "shipments_status_ck" CHECK ("shipments"."status" in ('Creado', 'En tránsito', 'Entregado', 'Anulado')),
	CONSTRAINT "shipments_product_type_ck" CHECK ("shipments"."product_type" in ('liviano', 'medio', 'alto'))
);
--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_sender_customer_id_customers_id_fk" FOREIGN KEY ("sender_customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipment_events_shipment_idx" ON "shipment_events" USING btree ("shipment_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_code_uq" ON "shipments" USING btree ("code");--> statement-breakpoint
CREATE INDEX "shipments_created_idx" ON "shipments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "shipments_origin_created_idx" ON "shipments" USING btree ("origin_branch_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_destination_created_idx" ON "shipments" USING btree ("destination_branch_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_status_created_idx" ON "shipments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "shipments_recipient_doc_idx" ON "shipments" USING btree ("recipient_doc" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "shipments_sender_customer_idx" ON "shipments" USING btree ("sender_customer_id");--> statement-breakpoint
CREATE INDEX "shipments_recipient_name_trgm" ON "shipments" USING gin (lower("recipient_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shipments_sender_name_trgm" ON "shipments" USING gin (lower("sender_name") gin_trgm_ops);
