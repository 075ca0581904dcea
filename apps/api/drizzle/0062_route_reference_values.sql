CREATE TABLE "route_reference_values" (
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"service_per_tm" numeric(12, 2) NOT NULL,
	"effective_load_tm" numeric(8, 2) NOT NULL,
	"nominal_load_tm" numeric(8, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_reference_values_route_ck" CHECK ("route_reference_values"."origin_branch_id" <> "route_reference_values"."destination_branch_id"),
	CONSTRAINT "route_reference_values_amounts_ck" CHECK ("route_reference_values"."service_per_tm" > 0 and "route_reference_values"."effective_load_tm" > 0 and "route_reference_values"."nominal_load_tm" >= "route_reference_values"."effective_load_tm")
);
--> statement-breakpoint
ALTER TABLE "route_reference_values" ADD CONSTRAINT "route_reference_values_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_reference_values" ADD CONSTRAINT "route_reference_values_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "route_reference_values_route_uq" ON "route_reference_values" USING btree ("origin_branch_id","destination_branch_id");