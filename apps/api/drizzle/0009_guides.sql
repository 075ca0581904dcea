DROP INDEX "document_shipments_live_uq";--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "ubigeo" text;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "establishment_code" text DEFAULT '0000' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_shipments" ADD COLUMN "role" text DEFAULT 'comprobante' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "document_shipments_guide_live_uq" ON "document_shipments" USING btree ("shipment_id") WHERE "document_shipments"."live" and "document_shipments"."role" = 'guia';--> statement-breakpoint
CREATE UNIQUE INDEX "document_shipments_live_uq" ON "document_shipments" USING btree ("shipment_id") WHERE "document_shipments"."live" and "document_shipments"."role" = 'comprobante';--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_ubigeo_ck" CHECK ("branches"."ubigeo" is null or "branches"."ubigeo" ~ '^[0-9]{6}$');--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_establishment_code_ck" CHECK ("branches"."establishment_code" ~ '^[0-9]{4}$');--> statement-breakpoint
ALTER TABLE "document_shipments" ADD CONSTRAINT "document_shipments_role_ck" CHECK ("document_shipments"."role" in ('comprobante', 'guia'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_type_ck" CHECK ("documents"."type" in ('01', '03', '07', '09', '31', '20', '40'));--> statement-breakpoint
-- The demo branches (seed/base.ts) of an existing install get their district's ubigeo (INEI).
UPDATE "branches" SET "ubigeo" = v.ubigeo FROM (VALUES ('Lima', '150101'), ('Arequipa', '040101'), ('Cusco', '080101'), ('Trujillo', '130101'), ('Piura', '200101'), ('Chiclayo', '140101')) AS v(name, ubigeo) WHERE "branches"."name" = v.name AND "branches"."ubigeo" IS NULL;
