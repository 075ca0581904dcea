CREATE TABLE "shipment_daily_status_counts" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "shipment_daily_status_counts_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
-- hand-written
-- The counts over all routes, a row per (day, status), kept by the counts' own statement triggers:
-- whatever writes shipment_daily_counts (the fold of the deltas, a recount after a bulk load) moves
-- the sums here in the same statement, one upsert per statement and (day, status), not per row.
-- The whole company's Panel reads these few thousand rows a year instead of up to 64 times as many.
CREATE FUNCTION shipment_daily_status_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shipment_daily_status_counts AS s (day, status, n)
  SELECT day, status, sum(n) FROM changed_rows GROUP BY day, status
  ON CONFLICT (day, status) DO UPDATE SET n = s.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION shipment_daily_status_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shipment_daily_status_counts AS s (day, status, n)
  SELECT day, status, -sum(n) FROM changed_rows GROUP BY day, status
  ON CONFLICT (day, status) DO UPDATE SET n = s.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipment_daily_status_counts_insert AFTER INSERT ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_status_counts_add();
--> statement-breakpoint
-- An update is its old rows out and its new rows in: two triggers, one for each transition table.
CREATE TRIGGER shipment_daily_status_counts_update_new AFTER UPDATE ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_status_counts_add();
--> statement-breakpoint
CREATE TRIGGER shipment_daily_status_counts_update_old AFTER UPDATE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_status_counts_remove();
--> statement-breakpoint
CREATE TRIGGER shipment_daily_status_counts_delete AFTER DELETE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_status_counts_remove();
--> statement-breakpoint
INSERT INTO shipment_daily_status_counts (day, status, n)
SELECT day, status, sum(n) FROM shipment_daily_counts GROUP BY day, status;
