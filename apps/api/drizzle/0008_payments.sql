CREATE TABLE "cash_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"user_name" text NOT NULL,
	"branch_id" integer NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"float_cents" integer NOT NULL,
	"closed_at" timestamp with time zone,
	"counted_cash_cents" integer,
	"closing" jsonb,
	"closed_by" integer,
	CONSTRAINT "cash_sessions_float_ck" CHECK ("cash_sessions"."float_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"cash_session_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_movements_kind_ck" CHECK ("payment_movements"."kind" in ('cobro', 'anulacion'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'PEN' NOT NULL,
	"provider_tx_id" text,
	"customer_id" integer,
	"customer_doc_type" smallint NOT NULL,
	"customer_doc_number" text NOT NULL,
	"customer_name" text NOT NULL,
	"branch_id" integer,
	"user_id" integer NOT NULL,
	"user_name" text NOT NULL,
	"cash_session_id" integer NOT NULL,
	"document_id" integer,
	"receipt_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_status_ck" CHECK ("payments"."status" in ('pending', 'paid', 'canceled')),
	CONSTRAINT "payments_method_ck" CHECK ("payments"."method" in ('cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online')),
	CONSTRAINT "payments_amount_ck" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_currency_ck" CHECK ("payments"."currency" = 'PEN')
);
--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_movements" ADD CONSTRAINT "payment_movements_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_movements" ADD CONSTRAINT "payment_movements_cash_session_id_cash_sessions_id_fk" FOREIGN KEY ("cash_session_id") REFERENCES "public"."cash_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_cash_session_id_cash_sessions_id_fk" FOREIGN KEY ("cash_session_id") REFERENCES "public"."cash_sessions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_one_open_uq" ON "cash_sessions" USING btree ("user_id") WHERE "cash_sessions"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "cash_sessions_opened_idx" ON "cash_sessions" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "cash_sessions_branch_idx" ON "cash_sessions" USING btree ("branch_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_movements_kind_uq" ON "payment_movements" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE INDEX "payment_movements_session_idx" ON "payment_movements" USING btree ("cash_session_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_live_per_shipment_uq" ON "payments" USING btree ("shipment_id") WHERE "payments"."status" in ('pending', 'paid');--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_branch_created_idx" ON "payments" USING btree ("branch_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_session_idx" ON "payments" USING btree ("cash_session_id");