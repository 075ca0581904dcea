-- Issue 35: a credit note frees what it credits once SUNAT ACCEPTED it. Under 0083 a factura let its
-- shipments go as soon as its live notes, pending ones included, credited its total. A new factura
-- could take them, and if SUNAT then rejected the note (or it was voided) the factura owed its total
-- again while the relink skipped the shipments the new factura held: the same freight owed twice.
-- Now, in the note's own transaction, whatever the path:
-- - a factura's or boleta's comprobante links end once the notes SUNAT accepted against it (status
--   'aceptado': not pending, not being voided) credit its whole total (the domain's creditsWhole), and
--   come back when they no longer do. A rejection only comes while a note is pending, and a pending note
--   freed nothing, so a rejected note never gives anything back. A note's void asked ('anulación
--   pendiente') gives them back at once, so no factura takes them while SUNAT answers the void.
-- - a change that would give them back while another live comprobante bills one of them is refused
--   ('tramo.credit_note_shipments_taken: <that comprobante>', the API's 409): the new comprobante is
--   credited first. Billing's void asks the same first (credit-notes.ts), under the same lock: the
--   modified document's row, which both lock before they add up.
-- Audited as before: 'credit-note-reopen' / 'credit-note-relink' on the document.
--
-- The first live comprobante (by id) billing a shipment this document billed and let go ('F001-00000012').
CREATE OR REPLACE FUNCTION tramo_released_shipments_holder(document_id integer) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT o.series || '-' || lpad(o.number::text, 8, '0')
    FROM document_shipments ds
    JOIN document_shipments od ON od.shipment_id = ds.shipment_id AND od.role = 'comprobante' AND od.live AND od.document_id <> ds.document_id
    JOIN documents o ON o.id = od.document_id
   WHERE ds.document_id = $1 AND ds.role = 'comprobante' AND NOT ds.live
   ORDER BY o.id
   LIMIT 1
$$;--> statement-breakpoint
-- Ends or restores the links of the document `target` (of type `target_type`) after a note's change;
-- `change` is what the change added to the accepted notes against it (negative: what it took away).
CREATE OR REPLACE FUNCTION tramo_credit_note_settle(note_id integer, note_user integer, target text, target_type text, change numeric)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  modified record;
  accepted numeric;
  holder text;
  changed integer[];
BEGIN
  IF target IS NULL THEN
    RETURN;
  END IF;
  -- Locked like the note's issue and its void lock it (billing's assertCreditable, assertNoteVoidable).
  SELECT d.id, d.type, d.total, d.status INTO modified FROM documents d
    WHERE d.type = target_type AND d.series = split_part(target, '-', 1)
      AND d.series || '-' || lpad(d.number::text, 8, '0') = target
    FOR UPDATE;
  -- A voided or rejected document freed its shipments already (billing's freeShipments).
  IF NOT FOUND OR modified.status IN ('anulado', 'anulación pendiente', 'rechazado') THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(n.total), 0) INTO accepted FROM documents n
    WHERE n.type = '07' AND n.modifies = target AND n.status = 'aceptado'
      AND coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = modified.type;
  IF accepted >= modified.total THEN
    WITH ended AS (
      UPDATE document_shipments SET live = false
        WHERE document_id = modified.id AND role = 'comprobante' AND live
        RETURNING shipment_id
    ) SELECT array_agg(shipment_id ORDER BY shipment_id) INTO changed FROM ended;
    IF changed IS NOT NULL THEN
      INSERT INTO audit_log (user_id, entity, entity_id, action, after)
        VALUES (note_user, 'document', modified.id::text, 'credit-note-reopen',
                jsonb_build_object('creditNoteId', note_id, 'shipmentIds', to_jsonb(changed)));
    END IF;
    RETURN;
  END IF;
  -- This change un-credits a document whose shipments another comprobante bills now.
  IF accepted - change >= modified.total THEN
    holder := tramo_released_shipments_holder(modified.id);
    IF holder IS NOT NULL THEN
      RAISE EXCEPTION 'tramo.credit_note_shipments_taken: % bills shipments document % let go for note %', holder, modified.id, note_id
        USING ERRCODE = 'TR409';
    END IF;
  END IF;
  -- Each one no other live comprobante holds (one taken before this migration stays where it is:
  -- the ledger's credited_shipments_released reports it). A comprobante committed meanwhile over the
  -- same shipment meets document_shipments_live_uq here: the same refusal.
  BEGIN
    WITH relinked AS (
      UPDATE document_shipments ds SET live = true
        WHERE ds.document_id = modified.id AND ds.role = 'comprobante' AND NOT ds.live
          AND NOT EXISTS (SELECT 1 FROM document_shipments o WHERE o.shipment_id = ds.shipment_id AND o.role = 'comprobante' AND o.live)
        RETURNING ds.shipment_id
    ) SELECT array_agg(shipment_id ORDER BY shipment_id) INTO changed FROM relinked;
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'tramo.credit_note_shipments_taken: % bills shipments document % let go for note %',
      tramo_released_shipments_holder(modified.id), modified.id, note_id USING ERRCODE = 'TR409';
  END;
  IF changed IS NOT NULL THEN
    INSERT INTO audit_log (user_id, entity, entity_id, action, after)
      VALUES (note_user, 'document', modified.id::text, 'credit-note-relink',
              jsonb_build_object('creditNoteId', note_id, 'shipmentIds', to_jsonb(changed)));
  END IF;
END
$$;--> statement-breakpoint
-- A note's issue, status, total or target: the document it credited (and, retargeted, the one it credited before).
CREATE OR REPLACE FUNCTION tramo_credit_note_reopens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_type text := coalesce(NEW.document -> 'creditNote' ->> 'modifiedType', '01');
  new_accepted numeric := CASE WHEN NEW.status = 'aceptado' THEN NEW.total ELSE 0 END;
  old_type text;
  old_accepted numeric;
BEGIN
  IF NEW.modifies IS NULL AND (TG_OP = 'INSERT' OR OLD.modifies IS NULL) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    old_type := coalesce(OLD.document -> 'creditNote' ->> 'modifiedType', '01');
    old_accepted := CASE WHEN OLD.status = 'aceptado' THEN OLD.total ELSE 0 END;
    IF OLD.modifies IS NOT DISTINCT FROM NEW.modifies AND old_type = new_type THEN
      IF OLD.status IS NOT DISTINCT FROM NEW.status AND old_accepted = new_accepted THEN
        RETURN NEW;
      END IF;
      PERFORM tramo_credit_note_settle(NEW.id, NEW.user_id, NEW.modifies, new_type, new_accepted - old_accepted);
      RETURN NEW;
    END IF;
    PERFORM tramo_credit_note_settle(NEW.id, NEW.user_id, OLD.modifies, old_type, -old_accepted);
  END IF;
  PERFORM tramo_credit_note_settle(NEW.id, NEW.user_id, NEW.modifies, new_type, new_accepted);
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER documents_credit_note_reopens ON documents;--> statement-breakpoint
CREATE TRIGGER documents_credit_note_reopens AFTER INSERT OR UPDATE OF status, total, modifies, document ON documents
  FOR EACH ROW WHEN (NEW.type = '07') EXECUTE FUNCTION tramo_credit_note_reopens();--> statement-breakpoint
-- What 0083 freed for notes not accepted (pending, or their void asked) goes back to its document,
-- each shipment no other live comprobante took (to the latest such document, should two have let it
-- go); one another took is a double debt the ledger's credited_shipments_released reports.
WITH owing AS (
  SELECT d.id FROM documents d
   WHERE d.type IN ('01', '03') AND d.status IN ('pendiente', 'aceptado')
     AND EXISTS (SELECT 1 FROM document_shipments ds WHERE ds.document_id = d.id AND ds.role = 'comprobante' AND NOT ds.live)
     AND (SELECT coalesce(sum(n.total), 0) FROM documents n
           WHERE n.type = '07' AND n.modifies = d.series || '-' || lpad(d.number::text, 8, '0') AND n.status = 'aceptado'
             AND coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = d.type) < d.total
), back AS (
  SELECT DISTINCT ON (ds.shipment_id) ds.document_id, ds.shipment_id
    FROM document_shipments ds JOIN owing o ON o.id = ds.document_id
   WHERE ds.role = 'comprobante' AND NOT ds.live
     AND NOT EXISTS (SELECT 1 FROM document_shipments x WHERE x.shipment_id = ds.shipment_id AND x.role = 'comprobante' AND x.live)
   ORDER BY ds.shipment_id, ds.document_id DESC
), relinked AS (
  UPDATE document_shipments ds SET live = true FROM back b
   WHERE ds.document_id = b.document_id AND ds.shipment_id = b.shipment_id
  RETURNING ds.document_id, ds.shipment_id
)
INSERT INTO audit_log (user_id, entity, entity_id, action, after)
SELECT NULL, 'document', document_id::text, 'credit-note-relink',
       jsonb_build_object('migration', '0115_credit_note_release', 'shipmentIds', jsonb_agg(shipment_id ORDER BY shipment_id))
  FROM relinked GROUP BY document_id;
