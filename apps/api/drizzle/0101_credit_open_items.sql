CREATE TABLE "credit_open_collections" (
	"collection_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_open_invoices" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"customer_doc_number" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_open_shipments" (
	"shipment_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "credit_open_collections_customer_idx" ON "credit_open_collections" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "credit_open_invoices_customer_idx" ON "credit_open_invoices" USING btree ("customer_doc_number");--> statement-breakpoint
CREATE INDEX "credit_open_shipments_customer_idx" ON "credit_open_shipments" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "documents_modifies_idx" ON "documents" USING btree ("modifies") WHERE "documents"."modifies" is not null;--> statement-breakpoint
-- hand-written
-- Issue 37: what credit accounts owe now, kept in the transactions that change it, so the list of
-- accounts and the ageing read an account's open items instead of its years of history. What is
-- open is defined once, by these views; the triggers' sync functions, the backfill and the ledger
-- check (credit_open_items) all read them, and the module's reads add up only the open rows.
--
-- A credit shipment not Anulado that no live comprobante carries: to invoice ('Facturar periodo').
-- Its account is the payer's: a third party when it pays (payer 'tercero'), else the sender.
CREATE VIEW credit_open_shipments_source AS
SELECT s.id AS shipment_id,
  CASE WHEN s.payer = 'tercero' THEN s.payer_customer_id ELSE s.sender_customer_id END AS customer_id
FROM shipments s
WHERE s.payment_moment = 'credito' AND s.status <> 'Anulado'
  AND CASE WHEN s.payer = 'tercero' THEN s.payer_customer_id ELSE s.sender_customer_id END IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM document_shipments ds WHERE ds.shipment_id = s.id AND ds.live AND ds.role = 'comprobante');
--> statement-breakpoint
-- A live credit factura whose open balance (total less its live credit notes, its live allocations
-- and its deposited detracción, the domain's invoiceOpenCents) is not zero.
CREATE VIEW credit_open_invoices_source AS
SELECT d.id AS document_id, d.customer_doc_number
FROM documents d
WHERE d.type = '01' AND d.status NOT IN ('anulado', 'rechazado') AND d.document -> 'payment' ->> 'form' = 'credito'
  AND round(d.total * 100)
    - coalesce((SELECT sum(round(n.total * 100)) FROM documents n
                 WHERE n.modifies = d.series || '-' || lpad(d.number::text, 8, '0') AND n.modifies IS NOT NULL
                   AND n.type = '07' AND n.status NOT IN ('anulado', 'rechazado') AND n.document -> 'creditNote' ->> 'modifiedType' = '01'), 0)
    - coalesce((SELECT sum(round(a.amount * 100)) FROM credit_allocations a WHERE a.document_id = d.id AND a.live), 0)
    - coalesce((SELECT coalesce((d.document -> 'detraction' ->> 'amountCents')::bigint, 0) FROM detraction_deposits dd WHERE dd.document_id = d.id), 0)
    <> 0;
--> statement-breakpoint
-- A live collection with money not applied to any factura (the customer's credit balance).
CREATE VIEW credit_open_collections_source AS
SELECT c.id AS collection_id, c.customer_id
FROM credit_collections c
WHERE c.status = 'vigente'
  AND round(c.amount * 100) - coalesce((SELECT sum(round(a.amount * 100)) FROM credit_allocations a WHERE a.collection_id = c.id AND a.live), 0) <> 0;
--> statement-breakpoint
-- The syncs: the rows of these ids made to agree with their view. Each first locks the rows it
-- keeps (shipments, facturas, collections) in id order, then reads the view with a fresh snapshot
-- (each statement of a volatile function takes one): two transactions changing one factura's
-- balance at once (a collection applied, a credit note voided) sync it one after the other, the
-- second seeing the first's commit, so the kept set cannot miss an open item. Generic plans, as
-- receivables_sync (0089): a custom plan over the view costs more than running it for a few ids.
CREATE FUNCTION credit_open_shipments_sync(ids integer[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM 1 FROM shipments WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM credit_open_shipments o
   WHERE o.shipment_id = ANY(ids)
     AND NOT EXISTS (SELECT 1 FROM credit_open_shipments_source v WHERE v.shipment_id = o.shipment_id AND v.customer_id = o.customer_id);
  INSERT INTO credit_open_shipments (shipment_id, customer_id)
  SELECT v.shipment_id, v.customer_id FROM credit_open_shipments_source v
   WHERE v.shipment_id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM credit_open_shipments o WHERE o.shipment_id = v.shipment_id)
   ORDER BY v.shipment_id;
END
$$;
--> statement-breakpoint
CREATE FUNCTION credit_open_invoices_sync(ids integer[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM 1 FROM documents WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM credit_open_invoices o
   WHERE o.document_id = ANY(ids)
     AND NOT EXISTS (SELECT 1 FROM credit_open_invoices_source v WHERE v.document_id = o.document_id AND v.customer_doc_number = o.customer_doc_number);
  INSERT INTO credit_open_invoices (document_id, customer_doc_number)
  SELECT v.document_id, v.customer_doc_number FROM credit_open_invoices_source v
   WHERE v.document_id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM credit_open_invoices o WHERE o.document_id = v.document_id)
   ORDER BY v.document_id;
END
$$;
--> statement-breakpoint
CREATE FUNCTION credit_open_collections_sync(ids integer[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  PERFORM 1 FROM credit_collections WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM credit_open_collections o
   WHERE o.collection_id = ANY(ids)
     AND NOT EXISTS (SELECT 1 FROM credit_open_collections_source v WHERE v.collection_id = o.collection_id AND v.customer_id = o.customer_id);
  INSERT INTO credit_open_collections (collection_id, customer_id)
  SELECT v.collection_id, v.customer_id FROM credit_open_collections_source v
   WHERE v.collection_id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM credit_open_collections o WHERE o.collection_id = v.collection_id)
   ORDER BY v.collection_id;
END
$$;
--> statement-breakpoint
-- Shipments: only credit ones, and only a change of what makes one open (status, payment moment, payer).
CREATE FUNCTION credit_open_shipments_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id ORDER BY id) INTO ids FROM new_rows WHERE payment_moment = 'credito';
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(n.id ORDER BY n.id) INTO ids
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.payment_moment = 'credito' OR o.payment_moment = 'credito')
       AND (n.status, n.payment_moment, n.payer, n.payer_customer_id, n.sender_customer_id)
           IS DISTINCT FROM (o.status, o.payment_moment, o.payer, o.payer_customer_id, o.sender_customer_id);
  ELSE
    SELECT array_agg(id ORDER BY id) INTO ids FROM old_rows WHERE payment_moment = 'credito';
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM credit_open_shipments_sync(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipments_credit_open_insert AFTER INSERT ON shipments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_shipments_track();
--> statement-breakpoint
CREATE TRIGGER shipments_credit_open_update AFTER UPDATE ON shipments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_shipments_track();
--> statement-breakpoint
CREATE TRIGGER shipments_credit_open_delete AFTER DELETE ON shipments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_shipments_track();
--> statement-breakpoint
-- A shipment's comprobante links: a factura that carries a credit shipment, its link ended by a void,
-- a rejection or a crediting note (0083). Only credit shipments are synced: a payment's boleta is not.
CREATE FUNCTION credit_open_links_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT l.shipment_id) INTO ids FROM new_rows l JOIN shipments s ON s.id = l.shipment_id
     WHERE l.role = 'comprobante' AND s.payment_moment = 'credito';
  ELSIF TG_OP = 'UPDATE' THEN
    -- Links have no id of their own: every shipment an updated link names, before and after (links
    -- change rarely: a void, a rejection, a crediting note ends them).
    SELECT array_agg(DISTINCT x.shipment_id) INTO ids FROM (
      SELECT shipment_id FROM new_rows UNION SELECT shipment_id FROM old_rows
    ) x JOIN shipments s ON s.id = x.shipment_id WHERE s.payment_moment = 'credito';
  ELSE
    SELECT array_agg(DISTINCT l.shipment_id) INTO ids FROM old_rows l JOIN shipments s ON s.id = l.shipment_id
     WHERE l.role = 'comprobante' AND s.payment_moment = 'credito';
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM credit_open_shipments_sync(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER document_shipments_credit_open_insert AFTER INSERT ON document_shipments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_links_track();
--> statement-breakpoint
CREATE TRIGGER document_shipments_credit_open_update AFTER UPDATE ON document_shipments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_links_track();
--> statement-breakpoint
CREATE TRIGGER document_shipments_credit_open_delete AFTER DELETE ON document_shipments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_links_track();
--> statement-breakpoint
-- Documents: a credit factura itself (issued, answered, voided), and a credit note on a factura (its
-- factura is synced, found by the label the note modifies, 'F001-00000012'). Receipts of payments
-- and guides pass by: an update syncs only when what makes a factura open changed.
CREATE FUNCTION credit_open_documents_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  facturas integer[];
  labels text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id) FILTER (WHERE type = '01' AND document -> 'payment' ->> 'form' = 'credito'),
           array_agg(modifies) FILTER (WHERE type = '07' AND modifies IS NOT NULL)
      INTO facturas, labels FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id) FILTER (WHERE type = '01' AND document -> 'payment' ->> 'form' = 'credito'),
           array_agg(modifies) FILTER (WHERE type = '07' AND modifies IS NOT NULL)
      INTO facturas, labels FROM old_rows;
  ELSE
    SELECT array_agg(c.id) FILTER (WHERE c.type = '01' AND c.form = 'credito'),
           array_agg(c.modifies) FILTER (WHERE c.type = '07' AND c.modifies IS NOT NULL)
      INTO facturas, labels
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     CROSS JOIN LATERAL (VALUES (n.id, n.type, n.modifies, n.document -> 'payment' ->> 'form'),
                                (o.id, o.type, o.modifies, o.document -> 'payment' ->> 'form')) c(id, type, modifies, form)
     WHERE (n.type, n.status, n.total, n.customer_doc_number, n.modifies, n.document -> 'payment' ->> 'form', n.document -> 'detraction' ->> 'amountCents')
           IS DISTINCT FROM (o.type, o.status, o.total, o.customer_doc_number, o.modifies, o.document -> 'payment' ->> 'form', o.document -> 'detraction' ->> 'amountCents');
  END IF;
  IF labels IS NOT NULL THEN
    facturas := coalesce(facturas, '{}') || ARRAY(
      SELECT f.id FROM unnest(labels) l
        JOIN documents f ON f.type = '01' AND f.series = split_part(l, '-', 1)
         AND f.number = CASE WHEN split_part(l, '-', 2) ~ '^[0-9]{1,8}$' THEN split_part(l, '-', 2)::int END);
  END IF;
  IF facturas IS NOT NULL AND cardinality(facturas) > 0 THEN
    PERFORM credit_open_invoices_sync(ARRAY(SELECT DISTINCT unnest(facturas) ORDER BY 1));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_credit_open_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_documents_track();
--> statement-breakpoint
CREATE TRIGGER documents_credit_open_update AFTER UPDATE ON documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_documents_track();
--> statement-breakpoint
CREATE TRIGGER documents_credit_open_delete AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_documents_track();
--> statement-breakpoint
-- Allocations: the facturas they pay and the collections they apply (facturas first, as everywhere).
CREATE FUNCTION credit_open_allocations_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  facturas integer[];
  collections integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT document_id ORDER BY document_id), array_agg(DISTINCT collection_id ORDER BY collection_id)
      INTO facturas, collections FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT document_id ORDER BY document_id), array_agg(DISTINCT collection_id ORDER BY collection_id)
      INTO facturas, collections FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT c.document_id ORDER BY c.document_id), array_agg(DISTINCT c.collection_id ORDER BY c.collection_id)
      INTO facturas, collections
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     CROSS JOIN LATERAL (VALUES (n.document_id, n.collection_id), (o.document_id, o.collection_id)) c(document_id, collection_id)
     WHERE (n.document_id, n.collection_id, n.amount, n.live) IS DISTINCT FROM (o.document_id, o.collection_id, o.amount, o.live);
  END IF;
  IF facturas IS NOT NULL THEN
    PERFORM credit_open_invoices_sync(facturas);
  END IF;
  IF collections IS NOT NULL THEN
    PERFORM credit_open_collections_sync(collections);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER credit_allocations_open_insert AFTER INSERT ON credit_allocations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_allocations_track();
--> statement-breakpoint
CREATE TRIGGER credit_allocations_open_update AFTER UPDATE ON credit_allocations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_allocations_track();
--> statement-breakpoint
CREATE TRIGGER credit_allocations_open_delete AFTER DELETE ON credit_allocations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_allocations_track();
--> statement-breakpoint
-- Detracción deposits: the factura they are of.
CREATE FUNCTION credit_open_deposits_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  facturas integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT document_id ORDER BY document_id) INTO facturas FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT document_id ORDER BY document_id) INTO facturas FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT x ORDER BY x) INTO facturas
      FROM (SELECT document_id AS x FROM new_rows UNION SELECT document_id FROM old_rows) y;
  END IF;
  IF facturas IS NOT NULL THEN
    PERFORM credit_open_invoices_sync(facturas);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER detraction_deposits_open_insert AFTER INSERT ON detraction_deposits REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_deposits_track();
--> statement-breakpoint
CREATE TRIGGER detraction_deposits_open_update AFTER UPDATE ON detraction_deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_deposits_track();
--> statement-breakpoint
CREATE TRIGGER detraction_deposits_open_delete AFTER DELETE ON detraction_deposits REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_deposits_track();
--> statement-breakpoint
-- Collections: received, changed or voided.
CREATE FUNCTION credit_open_collections_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id ORDER BY id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id ORDER BY id) INTO ids FROM old_rows;
  ELSE
    SELECT array_agg(n.id ORDER BY n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.status, n.amount, n.customer_id) IS DISTINCT FROM (o.status, o.amount, o.customer_id);
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM credit_open_collections_sync(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER credit_collections_open_insert AFTER INSERT ON credit_collections REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_collections_track();
--> statement-breakpoint
CREATE TRIGGER credit_collections_open_update AFTER UPDATE ON credit_collections REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_collections_track();
--> statement-breakpoint
CREATE TRIGGER credit_collections_open_delete AFTER DELETE ON credit_collections REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION credit_open_collections_track();
--> statement-breakpoint
-- Backfill: what is open now.
INSERT INTO credit_open_shipments (shipment_id, customer_id) SELECT shipment_id, customer_id FROM credit_open_shipments_source;
--> statement-breakpoint
INSERT INTO credit_open_invoices (document_id, customer_doc_number) SELECT document_id, customer_doc_number FROM credit_open_invoices_source;
--> statement-breakpoint
INSERT INTO credit_open_collections (collection_id, customer_id) SELECT collection_id, customer_id FROM credit_open_collections_source;
