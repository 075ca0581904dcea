-- Issues 30 and 31: a cancelled shipment is never charged. The shipments guard (0031) refuses a
-- cancellation that finds a live payment; this covers the other order. Taking the shipment's row
-- FOR SHARE makes a payment and a cancellation of one shipment queue behind each other: whichever
-- commits second sees the first (the cancellation's guard reads with a fresh snapshot, this one
-- reads the row after the lock), so a shipment never ends 'Anulado' with a pending or paid payment.
CREATE FUNCTION tramo_payment_shipment_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shipment_status text;
BEGIN
  SELECT status INTO shipment_status FROM shipments WHERE id = NEW.shipment_id FOR SHARE;
  IF shipment_status = 'Anulado' THEN
    RAISE EXCEPTION 'TRAMO_CONFLICT:El envío está anulado: no se le registra un pago.' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER payments_shipment_guard BEFORE INSERT OR UPDATE OF status ON payments FOR EACH ROW
  WHEN (NEW.status IN ('pending', 'paid'))
  EXECUTE FUNCTION tramo_payment_shipment_guard();
