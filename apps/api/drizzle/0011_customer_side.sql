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
CREATE TABLE "public_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;