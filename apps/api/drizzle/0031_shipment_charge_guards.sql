-- Issues 30 and 31: a shipment someone has paid (a live payment) or that a live document stands
-- on (a comprobante or guide through document_shipments, or a payment's receipt; live = neither
-- 'anulado' nor 'rechazado') is neither cancelled nor repriced: its price and route are what was
-- charged and declared. The API refuses first with a friendly 409; this is the last word for
-- every writer (another code path, an operator's SQL). The message travels as
-- 'TRAMO_CONFLICT:<Spanish message>' with SQLSTATE P0001, which plugins/errors.ts answers as that 409.
-- VOLATILE, not STABLE: a STABLE function reads with the snapshot its calling statement began with,
-- so a cancellation could miss a payment committed while it waited for the shipment's row lock.
CREATE FUNCTION tramo_shipment_has_live_charge(sid integer) RETURNS boolean LANGUAGE sql VOLATILE AS $$
  SELECT EXISTS (SELECT 1 FROM payments p WHERE p.shipment_id = sid AND p.status IN ('pending', 'paid'))
      OR EXISTS (SELECT 1 FROM document_shipments ds JOIN documents d ON d.id = ds.document_id
                  WHERE ds.shipment_id = sid AND d.status NOT IN ('anulado', 'rechazado'))
      OR EXISTS (SELECT 1 FROM payments p JOIN documents d ON d.id = p.document_id
                  WHERE p.shipment_id = sid AND d.status NOT IN ('anulado', 'rechazado'))
$$;--> statement-breakpoint
CREATE FUNCTION tramo_shipment_charge_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT tramo_shipment_has_live_charge(OLD.id) THEN
    RETURN NEW;
  END IF;
  IF NEW.status = 'Anulado' AND OLD.status <> 'Anulado' THEN
    RAISE EXCEPTION 'TRAMO_CONFLICT:Anula primero el pago del envío.' USING ERRCODE = 'P0001';
  END IF;
  RAISE EXCEPTION 'TRAMO_CONFLICT:El envío ya tiene un pago: anúlalo antes de cambiar peso, ruta o tipo.' USING ERRCODE = 'P0001';
END
$$;--> statement-breakpoint
-- The WHEN clause keeps every other update (a trip's status change, a delivery, a description)
-- free of the function call: only a cancellation or a change of what sets the price asks.
CREATE TRIGGER shipments_charge_guard BEFORE UPDATE ON shipments FOR EACH ROW
  WHEN ((NEW.status = 'Anulado' AND OLD.status <> 'Anulado')
     OR (NEW.origin_branch_id, NEW.destination_branch_id, NEW.product_type, NEW.weight_kg, NEW.billable_weight_kg,
         NEW.quoted_price, NEW.quoted_currency, NEW.quoted_factor_per_kg, NEW.using_reverse, NEW.multi_line_detail)
        IS DISTINCT FROM
        (OLD.origin_branch_id, OLD.destination_branch_id, OLD.product_type, OLD.weight_kg, OLD.billable_weight_kg,
         OLD.quoted_price, OLD.quoted_currency, OLD.quoted_factor_per_kg, OLD.using_reverse, OLD.multi_line_detail))
  EXECUTE FUNCTION tramo_shipment_charge_guard();
