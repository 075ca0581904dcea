-- Issue 33: a pago en destino collected at the destination counter and then handed over stays
-- collected. Voiding that payment (paid → canceled) once its shipment is 'Entregado' is refused;
-- the payments service refuses it first in the same words (WHO_PAYS_MONEY_MESSAGES.voidAfterDelivery),
-- this holds for any other path. Convention of 0037: SQLSTATE TR409, '<rule name>: <detail>'.
CREATE OR REPLACE FUNCTION tramo_destination_payment_void_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moment text;
  shipment_status text;
BEGIN
  SELECT payment_moment, status INTO moment, shipment_status FROM shipments WHERE id = NEW.shipment_id FOR SHARE;
  IF moment = 'destino' AND shipment_status = 'Entregado' THEN
    RAISE EXCEPTION 'tramo.void_of_delivered_destination_payment: payment % of delivered shipment %', OLD.id, NEW.shipment_id USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS payments_destination_void_guard ON payments;--> statement-breakpoint
CREATE TRIGGER payments_destination_void_guard BEFORE UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status = 'paid' AND NEW.status = 'canceled')
  EXECUTE FUNCTION tramo_destination_payment_void_guard();
