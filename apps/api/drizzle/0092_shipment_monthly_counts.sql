CREATE TABLE "shipment_monthly_branch_counts" (
	"branch_id" integer NOT NULL,
	"month" date NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	"n_origin" integer NOT NULL,
	"n_destination" integer NOT NULL,
	CONSTRAINT "shipment_monthly_branch_counts_branch_id_month_status_pk" PRIMARY KEY("branch_id","month","status")
);
--> statement-breakpoint
CREATE TABLE "shipment_monthly_counts" (
	"month" date NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"destination_branch_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "shipment_monthly_counts_origin_branch_id_destination_branch_id_status_month_pk" PRIMARY KEY("origin_branch_id","destination_branch_id","status","month")
);
--> statement-breakpoint
CREATE TABLE "shipment_monthly_status_counts" (
	"month" date NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "shipment_monthly_status_counts_month_status_pk" PRIMARY KEY("month","status")
);
--> statement-breakpoint
-- hand-written
-- The shipment counts per calendar month (issue 37), kept as the money counters' months are
-- (migration 0024): by statement triggers on each daily table, so whatever writes the daily counts
-- (the fold of the deltas, a recount after a bulk load, the triggers of migrations 0019 and 0023)
-- moves its months in the same statement, one upsert per statement in key order. Only the fold
-- (one process at a time, under its advisory lock) and a bulk recount write the daily tables, so no
-- two writers wait on each other here.
-- The trigger's argument is the direction: 1 adds the statement's new rows, -1 takes its old rows away.
CREATE FUNCTION shipment_monthly_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO shipment_monthly_counts AS m (origin_branch_id, destination_branch_id, status, month, n)
  SELECT origin_branch_id, destination_branch_id, status, date_trunc('month', day)::date, direction * sum(n)
    FROM changed_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (origin_branch_id, destination_branch_id, status, month) DO UPDATE SET n = m.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_counts_insert AFTER INSERT ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_counts_move('1');
--> statement-breakpoint
-- An update is its old rows out and its new rows in: two triggers, one for each transition table.
CREATE TRIGGER shipment_monthly_counts_update_new AFTER UPDATE ON shipment_daily_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_counts_update_old AFTER UPDATE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_counts_move('-1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_counts_delete AFTER DELETE ON shipment_daily_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_counts_move('-1');
--> statement-breakpoint
CREATE FUNCTION shipment_monthly_status_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO shipment_monthly_status_counts AS m (month, status, n)
  SELECT date_trunc('month', day)::date, status, direction * sum(n) FROM changed_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (month, status) DO UPDATE SET n = m.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_status_counts_insert AFTER INSERT ON shipment_daily_status_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_status_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_status_counts_update_new AFTER UPDATE ON shipment_daily_status_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_status_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_status_counts_update_old AFTER UPDATE ON shipment_daily_status_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_status_counts_move('-1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_status_counts_delete AFTER DELETE ON shipment_daily_status_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_status_counts_move('-1');
--> statement-breakpoint
CREATE FUNCTION shipment_monthly_branch_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO shipment_monthly_branch_counts AS m (branch_id, month, status, n, n_origin, n_destination)
  SELECT branch_id, date_trunc('month', day)::date, status, direction * sum(n), direction * sum(n_origin), direction * sum(n_destination)
    FROM changed_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (branch_id, month, status) DO UPDATE
    SET n = m.n + excluded.n, n_origin = m.n_origin + excluded.n_origin, n_destination = m.n_destination + excluded.n_destination;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_branch_counts_insert AFTER INSERT ON shipment_daily_branch_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_branch_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_branch_counts_update_new AFTER UPDATE ON shipment_daily_branch_counts
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_branch_counts_move('1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_branch_counts_update_old AFTER UPDATE ON shipment_daily_branch_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_branch_counts_move('-1');
--> statement-breakpoint
CREATE TRIGGER shipment_monthly_branch_counts_delete AFTER DELETE ON shipment_daily_branch_counts
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shipment_monthly_branch_counts_move('-1');
--> statement-breakpoint
-- The months of the counts already there (the triggers above already hold the tables: no fold slips between).
INSERT INTO shipment_monthly_counts (origin_branch_id, destination_branch_id, status, month, n)
SELECT origin_branch_id, destination_branch_id, status, date_trunc('month', day)::date, sum(n) FROM shipment_daily_counts GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO shipment_monthly_status_counts (month, status, n)
SELECT date_trunc('month', day)::date, status, sum(n) FROM shipment_daily_status_counts GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO shipment_monthly_branch_counts (branch_id, month, status, n, n_origin, n_destination)
SELECT branch_id, date_trunc('month', day)::date, status, sum(n), sum(n_origin), sum(n_destination) FROM shipment_daily_branch_counts GROUP BY 1, 2, 3;
