-- Issue 35: a credit note reopens what it credits. Once the live credit notes against a factura or
-- boleta (not voided, not rejected) credit its whole total — an anulación, a devolución total, or
-- partial notes that add up to it — the document no longer bills its shipments: its comprobante
-- links end (live = false, the condition of document_shipments_live_uq), so a new 'Facturar
-- periodo' or 'Facturar envíos' may take them. A partial note leaves them where they are. If a
-- crediting note is later rejected or voided, the document bills its shipments again, each one
-- that no other live comprobante took meanwhile. Done here, in the note's own transaction (its
-- insert or its status change), so no code path can credit a document and leave its shipments
-- locked in it; each change is audited ('credit-note-reopen' / 'credit-note-relink').
CREATE OR REPLACE FUNCTION tramo_credit_note_reopens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  modified record;
  credited numeric;
  changed integer[];
BEGIN
  IF NEW.modifies IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status THEN
    RETURN NEW;
  END IF;
  -- Locked like the note's issue locks it (billing's assertCreditable), so crediting is judged one note at a time.
  SELECT d.id, d.type, d.total, d.status INTO modified FROM documents d
    WHERE d.type = coalesce(NEW.document -> 'creditNote' ->> 'modifiedType', '01')
      AND d.series || '-' || lpad(d.number::text, 8, '0') = NEW.modifies
    FOR UPDATE;
  -- A voided or rejected document freed its shipments already (billing's freeShipments).
  IF NOT FOUND OR modified.status IN ('anulado', 'anulación pendiente', 'rechazado') THEN
    RETURN NEW;
  END IF;
  SELECT coalesce(sum(n.total), 0) INTO credited FROM documents n
    WHERE n.type = '07' AND n.modifies = NEW.modifies AND n.status NOT IN ('anulado', 'rechazado')
      AND coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = modified.type;
  IF credited >= modified.total THEN
    WITH ended AS (
      UPDATE document_shipments SET live = false
        WHERE document_id = modified.id AND role = 'comprobante' AND live
        RETURNING shipment_id
    ) SELECT array_agg(shipment_id ORDER BY shipment_id) INTO changed FROM ended;
    IF changed IS NOT NULL THEN
      INSERT INTO audit_log (user_id, entity, entity_id, action, after)
        VALUES (NEW.user_id, 'document', modified.id::text, 'credit-note-reopen',
                jsonb_build_object('creditNoteId', NEW.id, 'shipmentIds', to_jsonb(changed)));
    END IF;
  ELSE
    WITH relinked AS (
      UPDATE document_shipments ds SET live = true
        WHERE ds.document_id = modified.id AND ds.role = 'comprobante' AND NOT ds.live
          AND NOT EXISTS (SELECT 1 FROM document_shipments o WHERE o.shipment_id = ds.shipment_id AND o.role = 'comprobante' AND o.live)
        RETURNING ds.shipment_id
    ) SELECT array_agg(shipment_id ORDER BY shipment_id) INTO changed FROM relinked;
    IF changed IS NOT NULL THEN
      INSERT INTO audit_log (user_id, entity, entity_id, action, after)
        VALUES (NEW.user_id, 'document', modified.id::text, 'credit-note-relink',
                jsonb_build_object('creditNoteId', NEW.id, 'shipmentIds', to_jsonb(changed)));
    END IF;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER documents_credit_note_reopens AFTER INSERT OR UPDATE OF status ON documents
  FOR EACH ROW WHEN (NEW.type = '07') EXECUTE FUNCTION tramo_credit_note_reopens();
