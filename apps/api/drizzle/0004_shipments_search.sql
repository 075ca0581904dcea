DROP INDEX "shipments_recipient_name_trgm";--> statement-breakpoint
DROP INDEX "shipments_sender_name_trgm";--> statement-breakpoint
CREATE INDEX "shipments_recipient_name_trgm" ON "shipments" USING gin (translate(lower("recipient_name"), 'áéíóúüñ', 'aeiouun') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shipments_sender_name_trgm" ON "shipments" USING gin (translate(lower("sender_name"), 'áéíóúüñ', 'aeiouun') gin_trgm_ops);