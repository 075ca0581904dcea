-- Issue 35: a factura's total is shared by what credits it and what pays it. The live credit notes
-- against a factura (not voided, not rejected: billing's creditedCents) plus its live allocations
-- may not exceed its total, or the factura would owe less than nothing (the ledger's
-- credit_invoice_balance). The service checks it first (billing's assertCreditable, the credit
-- module's open balances); these triggers hold it whatever the path. Both sides lock the factura's
-- row (FOR UPDATE) before they add up, so a note and a collection applied at once are judged one
-- after the other, each seeing the other's commit.
--
-- The allocation side: 0080's guard, now counting the live credit notes against the factura.
CREATE OR REPLACE FUNCTION tramo_credit_allocation_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  collection_amount numeric;
  collection_status text;
  collection_customer integer;
  document_total numeric;
  document_status text;
  document_type text;
  document_doc text;
  document_number text;
  customer_doc text;
BEGIN
  IF NOT NEW.live THEN
    RETURN NEW;
  END IF;
  SELECT amount, status, customer_id INTO collection_amount, collection_status, collection_customer
    FROM credit_collections WHERE id = NEW.collection_id FOR UPDATE;
  SELECT total, status, type, customer_doc_number, series || '-' || lpad(number::text, 8, '0')
    INTO document_total, document_status, document_type, document_doc, document_number
    FROM documents WHERE id = NEW.document_id FOR UPDATE;
  SELECT doc_number INTO customer_doc FROM customers WHERE id = collection_customer;
  IF collection_status <> 'vigente' THEN
    RAISE EXCEPTION 'tramo.allocation_of_voided_collection: collection % is voided', NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF document_type <> '01' OR document_status IN ('anulado', 'anulación pendiente', 'rechazado') OR document_doc IS DISTINCT FROM customer_doc THEN
    RAISE EXCEPTION 'tramo.allocation_to_foreign_invoice: document % cannot take collection %', NEW.document_id, NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF (SELECT coalesce(sum(amount), 0) FROM credit_allocations WHERE collection_id = NEW.collection_id AND live) > collection_amount THEN
    RAISE EXCEPTION 'tramo.allocation_over_collection: collection % is over-applied', NEW.collection_id USING ERRCODE = 'TR409';
  END IF;
  IF (SELECT coalesce(sum(amount), 0) FROM credit_allocations WHERE document_id = NEW.document_id AND live)
     + (SELECT coalesce(sum(n.total), 0) FROM documents n
         WHERE n.type = '07' AND n.modifies = document_number AND n.status NOT IN ('anulado', 'rechazado')
           AND coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = '01')
     > document_total THEN
    RAISE EXCEPTION 'tramo.allocation_over_invoice: document % is over-paid', NEW.document_id USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
-- The note side: a credit note that becomes live (issued, or a status, total or target changed in
-- SQL) may credit only what the notes before it and the collections left of the document's total.
-- A boleta takes no collections, so for it this is the domain's rule alone: the notes credit at most
-- its total. Named to run before documents_credit_note_reopens (triggers fire by name), so nothing
-- is reopened for a note refused here.
CREATE OR REPLACE FUNCTION tramo_credit_note_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  modified record;
  credited numeric;
  collected numeric;
BEGIN
  IF NEW.modifies IS NULL OR NEW.status IN ('anulado', 'rechazado') THEN
    RETURN NEW;
  END IF;
  -- A live note whose amount and target stay as they were takes nothing more (a provider's answer,
  -- a void asked): the factura is not locked for it.
  IF TG_OP = 'UPDATE' AND OLD.status NOT IN ('anulado', 'rechazado') AND NEW.total <= OLD.total
     AND OLD.modifies IS NOT DISTINCT FROM NEW.modifies
     AND (OLD.document -> 'creditNote' ->> 'modifiedType') IS NOT DISTINCT FROM (NEW.document -> 'creditNote' ->> 'modifiedType') THEN
    RETURN NEW;
  END IF;
  SELECT d.id, d.type, d.total, d.status INTO modified FROM documents d
    WHERE d.type = coalesce(NEW.document -> 'creditNote' ->> 'modifiedType', '01')
      AND d.series = split_part(NEW.modifies, '-', 1)
      AND d.series || '-' || lpad(d.number::text, 8, '0') = NEW.modifies
    FOR UPDATE;
  -- The register refuses notes against what is missing, voided or rejected (SUNAT 2119-2121).
  IF NOT FOUND OR modified.status IN ('anulado', 'anulación pendiente', 'rechazado') THEN
    RETURN NEW;
  END IF;
  SELECT coalesce(sum(n.total), 0) INTO credited FROM documents n
    WHERE n.type = '07' AND n.modifies = NEW.modifies AND n.status NOT IN ('anulado', 'rechazado')
      AND coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = modified.type;
  SELECT coalesce(sum(a.amount), 0) INTO collected FROM credit_allocations a WHERE a.document_id = modified.id AND a.live;
  IF credited + collected > modified.total THEN
    RAISE EXCEPTION 'tramo.credit_note_over_invoice: note % credits document % beyond its total (credited %, collected %)',
      NEW.id, modified.id, credited, collected USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER documents_credit_note_guard AFTER INSERT OR UPDATE OF status, total, modifies, document ON documents
  FOR EACH ROW WHEN (NEW.type = '07') EXECUTE FUNCTION tramo_credit_note_guard();
