CREATE TABLE "fleet_expiry_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"alert_key" text NOT NULL,
	"document_id" integer,
	"transport_id" integer,
	"driver_id" integer,
	"type" text NOT NULL,
	"expires_on" date NOT NULL,
	"alert_window" smallint NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fleet_expiry_alerts_window_ck" CHECK ("fleet_expiry_alerts"."alert_window" in (30, 15, 7)),
	CONSTRAINT "fleet_expiry_alerts_holder_ck" CHECK (("fleet_expiry_alerts"."transport_id" is null) <> ("fleet_expiry_alerts"."driver_id" is null))
);
--> statement-breakpoint
CREATE TABLE "shipment_sender_guides" (
	"shipment_id" integer PRIMARY KEY NOT NULL,
	"series" text NOT NULL,
	"number" integer NOT NULL,
	"recorded_by" integer,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipment_sender_guides_series_ck" CHECK ("shipment_sender_guides"."series" ~ '^(T[A-Z0-9]{3}|[0-9]{4}|EG0[27])$'),
	CONSTRAINT "shipment_sender_guides_number_ck" CHECK ("shipment_sender_guides"."number" between 1 and 99999999)
);
--> statement-breakpoint
ALTER TABLE "notification_outbox" ALTER COLUMN "shipment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_outbox" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "fleet_expiry_alerts" ADD CONSTRAINT "fleet_expiry_alerts_document_id_fleet_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."fleet_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_expiry_alerts" ADD CONSTRAINT "fleet_expiry_alerts_transport_id_transports_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_expiry_alerts" ADD CONSTRAINT "fleet_expiry_alerts_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_sender_guides" ADD CONSTRAINT "shipment_sender_guides_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fleet_expiry_alerts_key_uq" ON "fleet_expiry_alerts" USING btree ("alert_key");