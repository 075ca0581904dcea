CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"photo" text,
	"trip_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"closed_by_name" text,
	CONSTRAINT "incidents_reason_ck" CHECK ("incidents"."reason" in ('dañado', 'extraviado', 'faltante en desembarque', 'dirección errada', 'destinatario ausente', 'rechazado', 'otro'))
);
--> statement-breakpoint
CREATE TABLE "trip_extra_scans" (
	"trip_id" integer NOT NULL,
	"code" text NOT NULL,
	"shipment_id" integer,
	"scanned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "trip_extra_scans_trip_id_code_pk" PRIMARY KEY("trip_id","code")
);
--> statement-breakpoint
CREATE TABLE "trip_shipments" (
	"trip_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"scanned_at" timestamp with time zone,
	CONSTRAINT "trip_shipments_trip_id_shipment_id_pk" PRIMARY KEY("trip_id","shipment_id")
);
--> statement-breakpoint
CREATE TABLE "trips" (
	"id" serial PRIMARY KEY NOT NULL,
	"transport_id" integer NOT NULL,
	"plate" text NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"weight_kg" numeric(12, 2) NOT NULL,
	"billable_weight_kg" integer NOT NULL,
	"capacity_kg" numeric(12, 2),
	"overloaded" boolean DEFAULT false NOT NULL,
	"departed_at" timestamp with time zone NOT NULL,
	"departed_by" integer,
	"departed_by_name" text,
	"arrived_at" timestamp with time zone,
	"arrived_by" integer,
	"arrived_by_name" text
);
--> statement-breakpoint
ALTER TABLE "shipments" DROP CONSTRAINT "shipments_status_ck";--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "return_of_shipment_id" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_extra_scans" ADD CONSTRAINT "trip_extra_scans_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_extra_scans" ADD CONSTRAINT "trip_extra_scans_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_shipments" ADD CONSTRAINT "trip_shipments_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_shipments" ADD CONSTRAINT "trip_shipments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_transport_id_transports_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incidents_shipment_idx" ON "incidents" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "incidents_open_idx" ON "incidents" USING btree ("shipment_id") WHERE "incidents"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "trip_shipments_shipment_idx" ON "trip_shipments" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trips_open_uq" ON "trips" USING btree ("transport_id") WHERE "trips"."arrived_at" is null;--> statement-breakpoint
CREATE INDEX "trips_transport_idx" ON "trips" USING btree ("transport_id","departed_at");--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_return_of_shipment_id_shipments_id_fk" FOREIGN KEY ("return_of_shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_status_ck" CHECK ("shipments"."status" in ('Creado', 'En tránsito', 'En agencia', 'Entregado', 'Anulado', 'Devuelto'));