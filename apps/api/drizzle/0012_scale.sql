CREATE TABLE "shipment_daily_count_deltas" (
	"day" date NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "shipments_recipient_name_trgm";--> statement-breakpoint
DROP INDEX "shipments_sender_name_trgm";--> statement-breakpoint
CREATE INDEX "shipments_recipient_name_words" ON "shipments" USING gin (to_tsvector('simple'::regconfig, translate(lower("recipient_name"), 'áéíóúüñ', 'aeiouun')));--> statement-breakpoint
CREATE INDEX "shipments_sender_name_words" ON "shipments" USING gin (to_tsvector('simple'::regconfig, translate(lower("sender_name"), 'áéíóúüñ', 'aeiouun')));--> statement-breakpoint
-- hand-written
-- The daily counts' trigger appends ±1 delta rows instead of upserting the one counter row of
-- (day, route, status), which every creation on a route the same day queued on; a background
-- fold (foldDailyCounts) moves them into shipment_daily_counts, and readers sum both.
CREATE OR REPLACE FUNCTION shipment_daily_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO shipment_daily_count_deltas (day, origin_branch_id, destination_branch_id, status, n)
    VALUES (((OLD.created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, OLD.origin_branch_id, OLD.destination_branch_id, OLD.status, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO shipment_daily_count_deltas (day, origin_branch_id, destination_branch_id, status, n)
    VALUES (((NEW.created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, NEW.origin_branch_id, NEW.destination_branch_id, NEW.status, 1);
  END IF;
  RETURN NULL;
END
$$;
