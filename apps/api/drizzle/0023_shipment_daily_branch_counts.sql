CREATE TABLE "shipment_daily_branch_counts" (
	"branch_id" integer NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	"n_origin" integer NOT NULL,
	"n_destination" integer NOT NULL,
	CONSTRAINT "shipment_daily_branch_counts_branch_id_day_status_pk" PRIMARY KEY("branch_id","day","status")
);
--> statement-breakpoint
-- hand-written
-- The counts per branch, a row per (branch, day, status), kept as migration 0019 keeps the whole
-- company's: by the counts' own statement triggers, one upsert per statement, so whatever writes
-- shipment_daily_counts (the fold, a recount after a bulk load) moves these in the same statement.
-- A counts row goes to its origin and to its destination, once when both are the same branch (the
-- UNION): n is what leaves or reaches the branch (an agent's scope, origin OR destination), n_origin
-- what leaves it, n_destination what reaches it. A branch's Panel and list totals read a few
-- thousand rows a year here where they read every route's row to keep one in three.
-- The trigger's argument is the direction: +1 adds the statement's new rows, -1 takes its old rows away.
CREATE FUNCTION shipment_daily_branch_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO shipment_daily_branch_counts AS s (branch_id, day, status, n, n_origin, n_destination)
  SELECT b.branch_id, c.day, c.status, direction * sum(c.n),
         direction * coalesce(sum(c.n) FILTER (WHERE c.origin_branch_id = b.branch_id), 0),
         direction * coalesce(sum(c.n) FILTER (WHERE c.destination_branch_id = b.branch_id), 0)
    FROM changed_rows c
   CROSS JOIN LATERAL (SELECT c.origin_branch_id UNION SELECT c.destination_branch_id) b(branch_id)
   GROUP BY 1, 2, 3
  ON CONFLICT (branch_id, day, status) DO UPDATE
     SET n = s.n + excluded.n, n_origin = s.n_origin + excluded.n_origin, n_destination = s.n_destination + excluded.n_destination;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipment_daily_branch_counts_insert AFTER INSERT ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_branch_counts_move('1');
--> statement-breakpoint
-- An update is its old rows out and its new rows in: two triggers, one for each transition table.
CREATE TRIGGER shipment_daily_branch_counts_update_new AFTER UPDATE ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_branch_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_daily_branch_counts_update_old AFTER UPDATE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_branch_counts_move('-1');
--> statement-breakpoint
CREATE TRIGGER shipment_daily_branch_counts_delete AFTER DELETE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_daily_branch_counts_move('-1');
--> statement-breakpoint
-- Counts folded before this migration (the triggers above already hold the table: no fold slips between).
INSERT INTO shipment_daily_branch_counts (branch_id, day, status, n, n_origin, n_destination)
SELECT b.branch_id, c.day, c.status, sum(c.n),
       coalesce(sum(c.n) FILTER (WHERE c.origin_branch_id = b.branch_id), 0),
       coalesce(sum(c.n) FILTER (WHERE c.destination_branch_id = b.branch_id), 0)
  FROM shipment_daily_counts c
 CROSS JOIN LATERAL (SELECT c.origin_branch_id UNION SELECT c.destination_branch_id) b(branch_id)
 GROUP BY 1, 2, 3;
