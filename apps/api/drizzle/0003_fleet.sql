CREATE TABLE "drivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"dni" text NOT NULL,
	"license_number" text NOT NULL,
	"phone" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"transport_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"loaded_by" integer
);
--> statement-breakpoint
CREATE TABLE "transports" (
	"id" serial PRIMARY KEY NOT NULL,
	"plate_primary" text NOT NULL,
	"plate_secondary" text,
	"make" text,
	"model" text,
	"capacity_kg" numeric(12, 2),
	"net_weight_kg" numeric(12, 2),
	"status" text DEFAULT 'disponible' NOT NULL,
	"origin_branch_id" integer,
	"destination_branch_id" integer,
	"route" text,
	"driver_id_1" integer,
	"driver_id_2" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transports_status_ck" CHECK ("transports"."status" in ('disponible', 'en_ruta', 'mantenimiento')),
	CONSTRAINT "transports_capacity_ck" CHECK ("transports"."capacity_kg" is null or "transports"."capacity_kg" >= 0),
	CONSTRAINT "transports_net_weight_ck" CHECK ("transports"."net_weight_kg" is null or "transports"."net_weight_kg" >= 0)
);
--> statement-breakpoint
ALTER TABLE "transport_assignments" ADD CONSTRAINT "transport_assignments_transport_id_transports_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transport_assignments" ADD CONSTRAINT "transport_assignments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_driver_id_1_drivers_id_fk" FOREIGN KEY ("driver_id_1") REFERENCES "public"."drivers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_driver_id_2_drivers_id_fk" FOREIGN KEY ("driver_id_2") REFERENCES "public"."drivers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_dni_uq" ON "drivers" USING btree ("dni");--> statement-breakpoint
CREATE UNIQUE INDEX "transport_assignments_shipment_uq" ON "transport_assignments" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "transport_assignments_transport_idx" ON "transport_assignments" USING btree ("transport_id","loaded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transports_plate_primary_uq" ON "transports" USING btree ("plate_primary");--> statement-breakpoint
CREATE INDEX "transports_driver_1_idx" ON "transports" USING btree ("driver_id_1");--> statement-breakpoint
CREATE INDEX "transports_driver_2_idx" ON "transports" USING btree ("driver_id_2");