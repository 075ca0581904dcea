CREATE TABLE "payment_all_time_totals" (
	"branch_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "payment_all_time_totals_branch_id_user_id_method_status_pk" PRIMARY KEY("branch_id","user_id","method","status")
);
--> statement-breakpoint
-- hand-written
-- Issue 37: the payments' counters over all time, one row per key, so Movimientos with no dates adds
-- up a few rows instead of every month of its history (payment_monthly_totals holds one row per
-- month, branch, collector, method and status: 8,600 rows after ten years, 2 ms of every undated
-- page). Kept as document_all_time_totals (migration 0109), by statement triggers on payments in
-- the transaction of every insert, update and delete. An update nets its old rows against its new
-- ones in one upsert in key order: a void and a confirmation move a payment between two keys whose
-- rows every month shares, and two changes in opposite directions taking them one at a time would
-- each hold the row the other waits for. These triggers are named before the daily ones and so
-- fire first: the all-time rows are locked in key order before any day or month row of the same keys.
-- Branch 0 is a payment with no branch, as in the daily counters.
CREATE FUNCTION payment_all_time_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_all_time_totals AS c (branch_id, user_id, method, status, n, cents)
    SELECT coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents)
      FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  ELSIF TG_OP = 'UPDATE' THEN
    -- An update that changes no key nor amount (a receipt's link, an error kept) nets to nothing and touches no row.
    INSERT INTO payment_all_time_totals AS c (branch_id, user_id, method, status, n, cents)
    SELECT coalesce(branch_id, 0), user_id, method, status, sum(n), sum(cents)
      FROM (
        SELECT branch_id, user_id, method, status, -1 AS n, -amount_cents::bigint AS cents FROM old_rows
        UNION ALL
        SELECT branch_id, user_id, method, status, 1, amount_cents::bigint FROM new_rows
      ) d
     GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(cents) <> 0
     ORDER BY 1, 2, 3, 4
    ON CONFLICT (branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  ELSE
    INSERT INTO payment_all_time_totals AS c (branch_id, user_id, method, status, n, cents)
    SELECT coalesce(branch_id, 0), user_id, method, status, -count(*), -sum(amount_cents)
      FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_all_time_totals_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_all_time_totals_track();
--> statement-breakpoint
CREATE TRIGGER payments_all_time_totals_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_all_time_totals_track();
--> statement-breakpoint
CREATE TRIGGER payments_all_time_totals_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_all_time_totals_track();
--> statement-breakpoint
-- The payments already there, from their months (the triggers above hold payments from their
-- creation to this migration's commit: no payment is written between them and this count).
INSERT INTO payment_all_time_totals (branch_id, user_id, method, status, n, cents)
SELECT branch_id, user_id, method, status, sum(n), sum(cents)
  FROM payment_monthly_totals GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(cents) <> 0;
