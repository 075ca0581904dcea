CREATE TABLE "document_search_recent" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"issue_date" date NOT NULL,
	"customer_name" text NOT NULL,
	"customer_doc_number" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "document_search_recent_name_trgm" ON "document_search_recent" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "document_search_recent_doc_trgm" ON "document_search_recent" USING gin ("customer_doc_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "document_search_recent_issue_idx" ON "document_search_recent" USING btree ("issue_date");--> statement-breakpoint
-- hand-written
-- Issue 37: the customers of the last 400 days of documents, with their own trigram indexes. The
-- Comprobantes' customer filter reads its last year (issue days) from here and only the older
-- days from documents_customer_*_trgm, whose lists hold every year's names (see
-- modules/billing/register.ts). A row is here for every document issued in the last 400 days (the
-- trigger adds what is issued or changes customer inside them); the prune removes what fell out.
-- The reads ask for 365 days, so a late prune only leaves rows nobody reads.
CREATE FUNCTION document_search_recent_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.issue_date >= current_date - 400 THEN
    INSERT INTO document_search_recent (document_id, issue_date, customer_name, customer_doc_number)
    VALUES (NEW.id, NEW.issue_date, NEW.customer_name, NEW.customer_doc_number)
    ON CONFLICT (document_id) DO UPDATE SET issue_date = excluded.issue_date, customer_name = excluded.customer_name,
      customer_doc_number = excluded.customer_doc_number;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM document_search_recent WHERE document_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER document_search_recent_insert AFTER INSERT ON documents
  FOR EACH ROW EXECUTE FUNCTION document_search_recent_track();
--> statement-breakpoint
CREATE TRIGGER document_search_recent_update AFTER UPDATE OF customer_name, customer_doc_number, issue_date ON documents
  FOR EACH ROW WHEN ((OLD.customer_name, OLD.customer_doc_number, OLD.issue_date) IS DISTINCT FROM (NEW.customer_name, NEW.customer_doc_number, NEW.issue_date))
  EXECUTE FUNCTION document_search_recent_track();
--> statement-breakpoint
-- Documents are never deleted (a void is a status). The rows of the last 400 days already issued:
INSERT INTO document_search_recent (document_id, issue_date, customer_name, customer_doc_number)
SELECT id, issue_date, customer_name, customer_doc_number FROM documents WHERE issue_date >= current_date - 400 ORDER BY id;
--> statement-breakpoint
ANALYZE document_search_recent;
