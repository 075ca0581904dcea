CREATE TABLE "document_all_time_totals" (
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
	CONSTRAINT "document_all_time_totals_branch_id_type_series_status_currency_pk" PRIMARY KEY("branch_id","type","series","status","currency")
);
--> statement-breakpoint
-- hand-written
-- Issue 37: the documents' counters over all time, one row per key, so the register with no dates
-- adds up a few rows instead of every month of its history. Kept by statement triggers on
-- documents itself (as document_daily_totals, migration 0021), in the transaction of every insert,
-- update and delete. An update nets its old rows against its new ones in one upsert in key order:
-- a status change moves a document between two keys whose rows every month shares, and two changes
-- in opposite directions (a void, a rejected void) taking them one at a time would each hold the
-- row the other waits for. These triggers are named before the daily ones and so fire first: the
-- all-time rows are locked in key order before any day or month row of the same keys.
CREATE FUNCTION document_all_time_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO document_all_time_totals AS c (branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT coalesce(branch_id, 0), type, series, status, currency, count(*), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  ELSIF TG_OP = 'UPDATE' THEN
    -- An update that changes no key nor amount (a PDF link, a hash) nets to nothing and touches no row.
    INSERT INTO document_all_time_totals AS c (branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT coalesce(branch_id, 0), type, series, status, currency, sum(n), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
      FROM (
        SELECT branch_id, type, series, status, currency, -1 AS n, -gravada AS gravada, -exonerada AS exonerada, -inafecta AS inafecta, -igv AS igv, -total AS total
          FROM old_rows
        UNION ALL
        SELECT branch_id, type, series, status, currency, 1, gravada, exonerada, inafecta, igv, total
          FROM new_rows
      ) d
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(gravada) <> 0 OR sum(exonerada) <> 0 OR sum(inafecta) <> 0 OR sum(igv) <> 0 OR sum(total) <> 0
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  ELSE
    INSERT INTO document_all_time_totals AS c (branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
    SELECT coalesce(branch_id, 0), type, series, status, currency, -count(*), -sum(gravada), -sum(exonerada), -sum(inafecta), -sum(igv), -sum(total)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (branch_id, type, series, status, currency) DO UPDATE
      SET n = c.n + excluded.n, gravada = c.gravada + excluded.gravada, exonerada = c.exonerada + excluded.exonerada,
          inafecta = c.inafecta + excluded.inafecta, igv = c.igv + excluded.igv, total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_all_time_totals_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_all_time_totals_track();
--> statement-breakpoint
CREATE TRIGGER documents_all_time_totals_update AFTER UPDATE ON documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_all_time_totals_track();
--> statement-breakpoint
CREATE TRIGGER documents_all_time_totals_delete AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_all_time_totals_track();
--> statement-breakpoint
-- The documents already there, from their months (the triggers above hold documents from their
-- creation to this migration's commit: no document is written between them and this count).
INSERT INTO document_all_time_totals (branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total)
SELECT branch_id, type, series, status, currency, sum(n), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
  FROM document_monthly_totals GROUP BY 1, 2, 3, 4, 5;
