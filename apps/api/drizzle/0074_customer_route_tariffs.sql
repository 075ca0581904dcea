CREATE TABLE "customer_route_tariffs" (
	"customer_id" integer NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"tiers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"article_prices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_route_tariffs_customer_id_origin_branch_id_destination_branch_id_pk" PRIMARY KEY("customer_id","origin_branch_id","destination_branch_id"),
	CONSTRAINT "customer_route_tariffs_route_ck" CHECK ("customer_route_tariffs"."origin_branch_id" <> "customer_route_tariffs"."destination_branch_id")
);
--> statement-breakpoint
ALTER TABLE "customer_route_tariffs" ADD CONSTRAINT "customer_route_tariffs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_route_tariffs" ADD CONSTRAINT "customer_route_tariffs_origin_branch_id_branches_id_fk" FOREIGN KEY ("origin_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_route_tariffs" ADD CONSTRAINT "customer_route_tariffs_destination_branch_id_branches_id_fk" FOREIGN KEY ("destination_branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;