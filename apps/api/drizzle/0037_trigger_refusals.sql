-- Issue 30: one convention for a trigger's refusal. 0027 and 0031 raised 'TRAMO_CONFLICT:<Spanish
-- message>' with SQLSTATE P0001; 0029 raised SQLSTATE 'TR409' with the rule's name before a colon.
-- Every guard now raises the second way: SQLSTATE TR409 and '<rule name>: <detail for the log>'.
-- The API answers each rule name with its Spanish 409, written once in the domain
-- (TRIGGER_REFUSALS in apps/api/src/lib/errors.ts). The functions are re-created with the same
-- checks; only what they raise changes. documents_receipt_of_live_payment (0029) already does.
CREATE OR REPLACE FUNCTION tramo_payment_shipment_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shipment_status text;
BEGIN
  SELECT status INTO shipment_status FROM shipments WHERE id = NEW.shipment_id FOR SHARE;
  IF shipment_status = 'Anulado' THEN
    RAISE EXCEPTION 'tramo.payment_of_cancelled_shipment: shipment % is cancelled', NEW.shipment_id USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tramo_shipment_charge_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT tramo_shipment_has_live_charge(OLD.id) THEN
    RETURN NEW;
  END IF;
  IF NEW.status = 'Anulado' AND OLD.status <> 'Anulado' THEN
    RAISE EXCEPTION 'tramo.cancel_of_charged_shipment: shipment % has a live charge', OLD.id USING ERRCODE = 'TR409';
  END IF;
  RAISE EXCEPTION 'tramo.reprice_of_charged_shipment: shipment % has a live charge', OLD.id USING ERRCODE = 'TR409';
END
$$;
