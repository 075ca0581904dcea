CREATE TABLE "shipment_daily_counts" (
	"day" date NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "shipment_daily_counts_day_origin_branch_id_destination_branch_id_status_pk" PRIMARY KEY("day","origin_branch_id","destination_branch_id","status")
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not manage functions or triggers): the counts follow every
-- insert, delete and change of day, route or status of a shipment, in the same transaction.
-- Lima is UTC-5 all year, so the Lima day is the UTC instant shifted back five hours.
CREATE FUNCTION shipment_daily_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE shipment_daily_counts
       SET n = n - 1
     WHERE day = ((OLD.created_at AT TIME ZONE 'UTC') - interval '5 hours')::date
       AND origin_branch_id = OLD.origin_branch_id
       AND destination_branch_id = OLD.destination_branch_id
       AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO shipment_daily_counts AS c (day, origin_branch_id, destination_branch_id, status, n)
    VALUES (((NEW.created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, NEW.origin_branch_id, NEW.destination_branch_id, NEW.status, 1)
    ON CONFLICT (day, origin_branch_id, destination_branch_id, status) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER shipments_daily_counts
  AFTER INSERT OR DELETE OR UPDATE OF status, created_at, origin_branch_id, destination_branch_id ON shipments
  FOR EACH ROW EXECUTE FUNCTION shipment_daily_counts_track();--> statement-breakpoint
-- Shipments that existed before this migration.
INSERT INTO shipment_daily_counts (day, origin_branch_id, destination_branch_id, status, n)
SELECT ((created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, origin_branch_id, destination_branch_id, status, count(*)
  FROM shipments
 GROUP BY 1, 2, 3, 4;
