CREATE TABLE "shipment_search_recent" (
	"shipment_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"search_words" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "shipment_search_recent_words" ON "shipment_search_recent" USING gin ("search_words");--> statement-breakpoint
CREATE INDEX "shipment_search_recent_created_idx" ON "shipment_search_recent" USING btree ("created_at");--> statement-breakpoint
-- hand-written
-- Issue 37: the last 400 days of the names' search tokens, in a table of their own with its own
-- GIN index. A name search over the last 30 or 365 days (the search windows, see
-- modules/shipments/search.ts) reads this index: its lists hold a year of names, where
-- shipments_search_words holds every year's, so a common name ('maria quispe') costs the same
-- after ten years of history as after one. Older windows read shipments_search_words.
-- A row is here for every shipment created in the last 400 days (the trigger adds what is created
-- or renamed inside them); the prune removes what fell out of them. The reads ask for 395 days at
-- most, so a late prune only leaves rows nobody reads.
CREATE FUNCTION shipment_search_recent_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.created_at >= now() - interval '400 days' THEN
    INSERT INTO shipment_search_recent (shipment_id, created_at, search_words)
    VALUES (NEW.id, NEW.created_at, coalesce(NEW.search_words, ''::tsvector))
    ON CONFLICT (shipment_id) DO UPDATE SET created_at = excluded.created_at, search_words = excluded.search_words;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM shipment_search_recent WHERE shipment_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- After shipments_search_words (a BEFORE trigger) has set the row's tokens.
CREATE TRIGGER shipment_search_recent_insert AFTER INSERT ON shipments
  FOR EACH ROW EXECUTE FUNCTION shipment_search_recent_track();
--> statement-breakpoint
CREATE TRIGGER shipment_search_recent_update AFTER UPDATE OF recipient_name, sender_name, created_at ON shipments
  FOR EACH ROW WHEN (OLD.search_words IS DISTINCT FROM NEW.search_words OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION shipment_search_recent_track();
--> statement-breakpoint
-- Shipments are never deleted (a cancellation is a status); were one deleted, its row would only
-- point at nothing, and the reads join shipments.
-- The rows of the last 400 days already written.
INSERT INTO shipment_search_recent (shipment_id, created_at, search_words)
SELECT id, created_at, coalesce(search_words, ''::tsvector) FROM shipments
 WHERE created_at >= now() - interval '400 days' ORDER BY id;
--> statement-breakpoint
ANALYZE shipment_search_recent;
