CREATE TABLE "compliance_overrides" (
	"id" serial PRIMARY KEY NOT NULL,
	"transport_id" integer NOT NULL,
	"reason" text NOT NULL,
	"refusal" text NOT NULL,
	"created_by" integer NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"trip_id" integer
);
--> statement-breakpoint
CREATE TABLE "fleet_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"transport_id" integer,
	"driver_id" integer,
	"type" text NOT NULL,
	"number" text,
	"issued_on" date,
	"expires_on" date NOT NULL,
	"file" "bytea",
	"file_type" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fleet_documents_holder_ck" CHECK (("fleet_documents"."transport_id" is null) <> ("fleet_documents"."driver_id" is null)),
	CONSTRAINT "fleet_documents_type_ck" CHECK (("fleet_documents"."transport_id" is not null and "fleet_documents"."type" in ('soat', 'citv', 'tuc', 'seguro')) or ("fleet_documents"."driver_id" is not null and "fleet_documents"."type" in ('licencia', 'examen_medico'))),
	CONSTRAINT "fleet_documents_dates_ck" CHECK ("fleet_documents"."issued_on" is null or "fleet_documents"."issued_on" <= "fleet_documents"."expires_on"),
	CONSTRAINT "fleet_documents_file_type_ck" CHECK ("fleet_documents"."file_type" is null or "fleet_documents"."file_type" in ('image/jpeg', 'image/png', 'application/pdf'))
);
--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "license_class" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "license_expires_on" date;--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "vehicle_type" text DEFAULT 'camion' NOT NULL;--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "tuc_number" text;--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "configuration" text;--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "payload_kg" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "axles" smallint;--> statement-breakpoint
ALTER TABLE "transports" ADD COLUMN "trailer_id" integer;--> statement-breakpoint
ALTER TABLE "compliance_overrides" ADD CONSTRAINT "compliance_overrides_transport_id_transports_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_overrides" ADD CONSTRAINT "compliance_overrides_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_documents" ADD CONSTRAINT "fleet_documents_transport_id_transports_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_documents" ADD CONSTRAINT "fleet_documents_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_overrides_open_uq" ON "compliance_overrides" USING btree ("transport_id") WHERE "compliance_overrides"."trip_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_overrides_trip_uq" ON "compliance_overrides" USING btree ("trip_id");--> statement-breakpoint
CREATE INDEX "fleet_documents_transport_idx" ON "fleet_documents" USING btree ("transport_id");--> statement-breakpoint
CREATE INDEX "fleet_documents_driver_idx" ON "fleet_documents" USING btree ("driver_id");--> statement-breakpoint
CREATE INDEX "fleet_documents_expires_idx" ON "fleet_documents" USING btree ("expires_on");--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_trailer_id_transports_id_fk" FOREIGN KEY ("trailer_id") REFERENCES "public"."transports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_vehicle_type_ck" CHECK ("transports"."vehicle_type" in ('camion', 'tracto', 'semirremolque'));--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_payload_ck" CHECK ("transports"."payload_kg" is null or "transports"."payload_kg" >= 0);--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_axles_ck" CHECK ("transports"."axles" is null or "transports"."axles" between 1 and 20);--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_trailer_ck" CHECK ("transports"."trailer_id" is null or "transports"."trailer_id" <> "transports"."id");