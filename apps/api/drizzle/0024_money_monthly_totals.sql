CREATE TABLE "document_monthly_totals" (
	"month" date NOT NULL,
	"branch_id" integer NOT NULL,
	"type" text NOT NULL,
	"series" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"n" bigint NOT NULL,
	"gravada" numeric NOT NULL,
	"exonerada" numeric NOT NULL,
	"inafecta" numeric NOT NULL,
	"igv" numeric NOT NULL,
	"total" numeric NOT NULL,
	CONSTRAINT "document_monthly_totals_month_branch_id_type_series_status_currency_pk" PRIMARY KEY("month","branch_id","type","series","status","currency")
);
--> statement-breakpoint
CREATE TABLE "payment_monthly_totals" (
	"month" date NOT NULL,
	"branch_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "payment_monthly_totals_month_branch_id_user_id_method_status_pk" PRIMARY KEY("month","branch_id","user_id","method","status")
);
--> statement-breakpoint
-- hand-written
-- The money counters per calendar month (issue #19), kept by the daily counters' own statement
-- triggers: whatever writes document_daily_totals or payment_daily_totals (the documents' and the
-- payments' triggers, a backfill) moves the month in the same statement, one upsert per statement
-- in key order. A month row is locked by the same transactions as its day's row, whose key it shares
-- but for the day; every flow changes one document or payment per transaction and upserts in key
-- order, so no two of them wait on each other in opposite orders.
-- The trigger's argument is the direction: 1 adds the statement's new rows, -1 takes its old rows away.
CREATE FUNCTION document_monthly_totals_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO document_monthly_totals AS m (month, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
  SELECT date_trunc('month', issue_date)::date, branch_id, type, series, status, currency,
         direction * sum(n), direction * sum(gravada), direction * sum(exonerada), direction * sum(inafecta), direction * sum(igv), direction * sum(total)
    FROM changed_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (month, branch_id, type, series, status, currency) DO UPDATE
    SET n = m.n + excluded.n, gravada = m.gravada + excluded.gravada, exonerada = m.exonerada + excluded.exonerada,
        inafecta = m.inafecta + excluded.inafecta, igv = m.igv + excluded.igv, total = m.total + excluded.total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER document_monthly_totals_insert AFTER INSERT ON document_daily_totals
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION document_monthly_totals_move('1');
--> statement-breakpoint
-- An update is its old rows out and its new rows in: two triggers, one for each transition table.
CREATE TRIGGER document_monthly_totals_update_new AFTER UPDATE ON document_daily_totals
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION document_monthly_totals_move('1');
--> statement-breakpoint
CREATE TRIGGER document_monthly_totals_update_old AFTER UPDATE ON document_daily_totals
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION document_monthly_totals_move('-1');
--> statement-breakpoint
CREATE TRIGGER document_monthly_totals_delete AFTER DELETE ON document_daily_totals
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION document_monthly_totals_move('-1');
--> statement-breakpoint
CREATE FUNCTION payment_monthly_totals_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO payment_monthly_totals AS m (month, branch_id, user_id, method, status, n, cents)
  SELECT date_trunc('month', day)::date, branch_id, user_id, method, status, direction * sum(n), direction * sum(cents)
    FROM changed_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (month, branch_id, user_id, method, status) DO UPDATE SET n = m.n + excluded.n, cents = m.cents + excluded.cents;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_monthly_totals_insert AFTER INSERT ON payment_daily_totals
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_monthly_totals_move('1');
--> statement-breakpoint
CREATE TRIGGER payment_monthly_totals_update_new AFTER UPDATE ON payment_daily_totals
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_monthly_totals_move('1');
--> statement-breakpoint
CREATE TRIGGER payment_monthly_totals_update_old AFTER UPDATE ON payment_daily_totals
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_monthly_totals_move('-1');
--> statement-breakpoint
CREATE TRIGGER payment_monthly_totals_delete AFTER DELETE ON payment_daily_totals
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_monthly_totals_move('-1');
--> statement-breakpoint
-- The months of the rows already there (the triggers above already hold the tables: nothing slips between).
INSERT INTO document_monthly_totals (month, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
SELECT date_trunc('month', issue_date)::date, branch_id, type, series, status, currency, sum(n), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
  FROM document_daily_totals GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO payment_monthly_totals (month, branch_id, user_id, method, status, n, cents)
SELECT date_trunc('month', day)::date, branch_id, user_id, method, status, sum(n), sum(cents)
  FROM payment_daily_totals GROUP BY 1, 2, 3, 4, 5;
