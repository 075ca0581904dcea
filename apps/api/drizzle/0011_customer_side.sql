CREATE TABLE "delivery_proofs" (
	"shipment_id" integer PRIMARY KEY NOT NULL,
	"photo" "bytea",
	"photo_type" text,
	"signature" "bytea",
	"signature_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_proofs_photo_type_ck" CHECK ("delivery_proofs"."photo_type" is null or "delivery_proofs"."photo_type" in ('image/jpeg', 'image/png')),
	CONSTRAINT "delivery_proofs_signature_type_ck" CHECK ("delivery_proofs"."signature_type" is null or "delivery_proofs"."signature_type" in ('image/jpeg', 'image/png'))
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"topic" text NOT NULL,
	"channel" text NOT NULL,
	"party" text NOT NULL,
	"address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_outbox_status_ck" CHECK ("notification_outbox"."status" in ('pendiente', 'enviado', 'registrado', 'fallido')),
	CONSTRAINT "notification_outbox_channel_ck" CHECK ("notification_outbox"."channel" in ('email', 'whatsapp'))
);
--> statement-breakpoint
CREATE TABLE "public_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "recipient_phone" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "recipient_email" text;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_key_uq" ON "notification_outbox" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_shipment_idx" ON "notification_outbox" USING btree ("shipment_id");