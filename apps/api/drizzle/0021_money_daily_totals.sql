CREATE TABLE "document_daily_totals" (
	"issue_date" date NOT NULL,
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
	CONSTRAINT "document_daily_totals_issue_date_branch_id_type_series_status_currency_pk" PRIMARY KEY("issue_date","branch_id","type","series","status","currency")
);
--> statement-breakpoint
CREATE TABLE "payment_daily_totals" (
	"day" date NOT NULL,
	"branch_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "payment_daily_totals_day_branch_id_user_id_method_status_pk" PRIMARY KEY("day","branch_id","user_id","method","status")
);
--> statement-breakpoint
-- hand-written
-- The register's and the movements report's totals (issue #19) are read from these counters. Statement
-- triggers with transition tables keep them: a bulk INSERT … SELECT adds one row per key, not per
-- document, and an update that changes no key nor amount (a PDF link, a hash) nets to nothing and
-- touches no counter. A statement upserts its rows in key order, so two status changes moving amounts
-- between the same two counters (aceptado → anulación pendiente and back) lock them in the same order
-- and cannot deadlock; every flow changes one document or payment per transaction. A document's
-- creation already holds its series' number row, so its counter row (same day and series) adds no
-- new wait; a payment's counter row is its collector's, whose creations queue on their cash session.
CREATE OR REPLACE FUNCTION document_daily_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO document_daily_totals AS c (issue_date, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT issue_date, coalesce(branch_id, 0), type, series, status, currency, count(*), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (issue_date, branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO document_daily_totals AS c (issue_date, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT issue_date, coalesce(branch_id, 0), type, series, status, currency, sum(n), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
      FROM (
        SELECT issue_date, branch_id, type, series, status, currency, -1 AS n, -gravada AS gravada, -exonerada AS exonerada, -inafecta AS inafecta, -igv AS igv, -total AS total
          FROM old_rows
        UNION ALL
        SELECT issue_date, branch_id, type, series, status, currency, 1, gravada, exonerada, inafecta, igv, total
          FROM new_rows
      ) d
     GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n) <> 0 OR sum(gravada) <> 0 OR sum(exonerada) <> 0 OR sum(inafecta) <> 0 OR sum(igv) <> 0 OR sum(total) <> 0
     ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (issue_date, branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  ELSE
    INSERT INTO document_daily_totals AS c (issue_date, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT issue_date, coalesce(branch_id, 0), type, series, status, currency, -count(*), -sum(gravada), -sum(exonerada), -sum(inafecta), -sum(igv), -sum(total)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (issue_date, branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_daily_totals_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_daily_totals_track();
--> statement-breakpoint
CREATE TRIGGER documents_daily_totals_update AFTER UPDATE ON documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_daily_totals_track();
--> statement-breakpoint
CREATE TRIGGER documents_daily_totals_delete AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_daily_totals_track();
--> statement-breakpoint
-- A payment's day is its Lima calendar day (UTC-5, no daylight saving), as the report's date filters.
CREATE OR REPLACE FUNCTION payment_daily_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_daily_totals AS c (day, branch_id, user_id, method, status, n, cents)
    SELECT ((created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (day, branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO payment_daily_totals AS c (day, branch_id, user_id, method, status, n, cents)
    SELECT ((created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, sum(n), sum(cents)
      FROM (
        SELECT created_at, branch_id, user_id, method, status, -1 AS n, -amount_cents::bigint AS cents FROM old_rows
        UNION ALL
        SELECT created_at, branch_id, user_id, method, status, 1, amount_cents::bigint FROM new_rows
      ) d
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(cents) <> 0
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (day, branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  ELSE
    INSERT INTO payment_daily_totals AS c (day, branch_id, user_id, method, status, n, cents)
    SELECT ((created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, -count(*), -sum(amount_cents)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (day, branch_id, user_id, method, status) DO UPDATE SET n = c.n + excluded.n, cents = c.cents + excluded.cents;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_daily_totals_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_daily_totals_track();
--> statement-breakpoint
CREATE TRIGGER payments_daily_totals_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_daily_totals_track();
--> statement-breakpoint
CREATE TRIGGER payments_daily_totals_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payment_daily_totals_track();
--> statement-breakpoint
-- Backfill: what the triggers would have written for the rows already there.
INSERT INTO document_daily_totals (issue_date, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
SELECT issue_date, coalesce(branch_id, 0), type, series, status, currency, count(*), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
  FROM documents GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO payment_daily_totals (day, branch_id, user_id, method, status, n, cents)
SELECT ((created_at AT TIME ZONE 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents)
  FROM payments GROUP BY 1, 2, 3, 4, 5;
