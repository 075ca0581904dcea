CREATE TABLE "credit_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"credit_limit" numeric(12, 2) NOT NULL,
	"terms_days" integer NOT NULL,
	"period" text NOT NULL,
	"status" text DEFAULT 'activa' NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text,
	"contact_phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "credit_accounts_limit_ck" CHECK ("credit_accounts"."credit_limit" > 0),
	CONSTRAINT "credit_accounts_terms_ck" CHECK ("credit_accounts"."terms_days" between 1 and 180),
	CONSTRAINT "credit_accounts_period_ck" CHECK ("credit_accounts"."period" in ('semanal', 'quincenal', 'mensual')),
	CONSTRAINT "credit_accounts_status_ck" CHECK ("credit_accounts"."status" in ('activa', 'suspendida'))
);
--> statement-breakpoint
CREATE TABLE "credit_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"collection_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "credit_allocations_amount_ck" CHECK ("credit_allocations"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"received_on" date NOT NULL,
	"method" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"bank" text,
	"operation_number" text,
	"note" text,
	"status" text DEFAULT 'vigente' NOT NULL,
	"void_reason" text,
	"voided_at" timestamp with time zone,
	"voided_by" integer,
	"client_key" text,
	"created_by" integer,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_collections_amount_ck" CHECK ("credit_collections"."amount" > 0),
	CONSTRAINT "credit_collections_method_ck" CHECK ("credit_collections"."method" in ('transferencia', 'deposito', 'cheque', 'efectivo')),
	CONSTRAINT "credit_collections_status_ck" CHECK ("credit_collections"."status" in ('vigente', 'anulado')),
	CONSTRAINT "credit_collections_void_ck" CHECK (("credit_collections"."status" = 'anulado') = ("credit_collections"."void_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "detraction_deposits" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"constancia" text NOT NULL,
	"deposited_on" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"created_by" integer,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "detraction_deposits_amount_ck" CHECK ("detraction_deposits"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_collection_id_credit_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."credit_collections"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_collections" ADD CONSTRAINT "credit_collections_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detraction_deposits" ADD CONSTRAINT "detraction_deposits_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_accounts_customer_uq" ON "credit_accounts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "credit_allocations_document_idx" ON "credit_allocations" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "credit_allocations_collection_idx" ON "credit_allocations" USING btree ("collection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_allocations_pair_uq" ON "credit_allocations" USING btree ("collection_id","document_id");--> statement-breakpoint
CREATE INDEX "credit_collections_customer_idx" ON "credit_collections" USING btree ("customer_id","received_on");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_collections_client_key_uq" ON "credit_collections" USING btree ("client_key");--> statement-breakpoint
-- Issue 35: a collection never pays more than it brought, nor a factura more than its total, and
-- only a live factura (not voided, not rejected) of the collection's own customer takes money. The
-- service checks first with the open balances; this is the rule no code path can pass. Both rows
-- are locked so two allocations racing for one factura or one collection are judged one by one.
CREATE OR REPLACE FUNCTION tramo_credit_allocation_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  collection_amount numeric;
  collection_status text;
  collection_customer integer;
  document_total numeric;
  document_status text;
  document_type text;
  document_doc text;
  customer_doc text;
BEGIN
  IF NOT NEW.live THEN
    RETURN NEW;
  END IF;
  SELECT amount, status, customer_id INTO collection_amount, collection_status, collection_customer
    FROM credit_collections WHERE id = NEW.collection_id FOR UPDATE;
  SELECT total, status, type, customer_doc_number INTO document_total, document_status, document_type, document_doc
    FROM documents WHERE id = NEW.document_id FOR UPDATE;
  SELECT doc_number INTO customer_doc FROM customers WHERE id = collection_customer;
  IF collection_status <> 'vigente' THEN
    RAISE EXCEPTION 'tramo.allocation_of_voided_collection: collection % is voided', NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF document_type <> '01' OR document_status IN ('anulado', 'anulación pendiente', 'rechazado') OR document_doc IS DISTINCT FROM customer_doc THEN
    RAISE EXCEPTION 'tramo.allocation_to_foreign_invoice: document % cannot take collection %', NEW.document_id, NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF (SELECT coalesce(sum(amount), 0) FROM credit_allocations WHERE collection_id = NEW.collection_id AND live) > collection_amount THEN
    RAISE EXCEPTION 'tramo.allocation_over_collection: collection % is over-applied', NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF (SELECT coalesce(sum(amount), 0) FROM credit_allocations WHERE document_id = NEW.document_id AND live) > document_total THEN
    RAISE EXCEPTION 'tramo.allocation_over_invoice: document % is over-paid', NEW.document_id USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER credit_allocations_guard AFTER INSERT OR UPDATE ON credit_allocations
  FOR EACH ROW EXECUTE FUNCTION tramo_credit_allocation_guard();--> statement-breakpoint
-- A voided collection keeps its row and ends its allocations in the same statement's transaction:
-- no live allocation of a voided collection can remain.
CREATE OR REPLACE FUNCTION tramo_credit_collection_void() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'anulado' AND OLD.status = 'vigente' THEN
    UPDATE credit_allocations SET live = false WHERE collection_id = NEW.id AND live;
  ELSIF NEW.status <> OLD.status OR NEW.amount <> OLD.amount OR NEW.customer_id <> OLD.customer_id THEN
    RAISE EXCEPTION 'tramo.collection_rewrite: collection % is append-only', OLD.id USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER credit_collections_void AFTER UPDATE ON credit_collections
  FOR EACH ROW EXECUTE FUNCTION tramo_credit_collection_void();
