CREATE TABLE "document_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"user_name" text,
	"note" text,
	"operation" text,
	"request" jsonb,
	"answer" jsonb
);
--> statement-breakpoint
CREATE TABLE "document_series" (
	"type" text NOT NULL,
	"series" text NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "document_series_type_series_pk" PRIMARY KEY("type","series")
);
--> statement-breakpoint
CREATE TABLE "document_shipments" (
	"document_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "document_shipments_document_id_shipment_id_pk" PRIMARY KEY("document_id","shipment_id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"series" text NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"issue_date" date NOT NULL,
	"contingency" boolean DEFAULT false NOT NULL,
	"customer_id" integer,
	"customer_doc_type" text NOT NULL,
	"customer_doc_number" text NOT NULL,
	"customer_name" text NOT NULL,
	"currency" text DEFAULT 'PEN' NOT NULL,
	"gravada" numeric(12, 2) NOT NULL,
	"exonerada" numeric(12, 2) NOT NULL,
	"inafecta" numeric(12, 2) NOT NULL,
	"igv" numeric(12, 2) NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"document" jsonb NOT NULL,
	"idempotency_key" text,
	"modifies" text,
	"branch_id" integer,
	"user_id" integer,
	"user_name" text NOT NULL,
	"hash" text,
	"qr_text" text,
	"xml" text,
	"pdf_url" text,
	"provider_message" text,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_status_ck" CHECK ("documents"."status" in ('pendiente', 'aceptado', 'rechazado', 'anulación pendiente', 'anulado')),
	CONSTRAINT "documents_number_ck" CHECK ("documents"."number" between 1 and 99999999)
);
--> statement-breakpoint
CREATE TABLE "sandbox_documents" (
	"key" text PRIMARY KEY NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_shipments" ADD CONSTRAINT "document_shipments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_shipments" ADD CONSTRAINT "document_shipments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_events_document_idx" ON "document_events" USING btree ("document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_shipments_live_uq" ON "document_shipments" USING btree ("shipment_id") WHERE "document_shipments"."live";--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_uq" ON "documents" USING btree ("type","series","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_idempotency_uq" ON "documents" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "documents_issue_date_idx" ON "documents" USING btree ("issue_date","id");--> statement-breakpoint
CREATE INDEX "documents_branch_idx" ON "documents" USING btree ("branch_id","issue_date");--> statement-breakpoint
CREATE INDEX "documents_customer_idx" ON "documents" USING btree ("customer_doc_number");