-- A credit shipment ('credito') is owed through its account: the period factura, its collections and
-- its detracción (the credit module's balance and ageing). It has no payment to end it, so as an item
-- of Cuentas por cobrar it stayed owed for ever and the table grew with every credit shipment of
-- ten years. Cuentas por cobrar shows credit customers by their ageing ('Antigüedad de saldos').
CREATE OR REPLACE VIEW receivable_items_source AS
SELECT s.id AS shipment_id,
  CASE WHEN s.payment_moment = 'destino' THEN 'destino' ELSE 'origen' END AS side,
  coalesce('c' || s.sender_customer_id::text, 'n:' || lower(s.sender_name)) AS customer_key,
  s.sender_customer_id AS customer_id,
  s.sender_name,
  CASE WHEN s.payment_moment = 'destino' THEN s.destination_branch_id ELSE s.origin_branch_id END AS branch_id,
  CASE WHEN s.payment_moment = 'destino' THEN s.status END AS status,
  s.quoted_price AS amount,
  s.created_at
FROM shipments s
WHERE s.payment_moment <> 'credito'
  AND CASE WHEN s.payment_moment = 'destino' THEN s.status IN ('Creado', 'En tránsito', 'En agencia') ELSE s.status <> 'Anulado' END
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.shipment_id = s.id AND p.status = 'paid');
--> statement-breakpoint
-- The credit shipments' items leave through the items' own triggers, which take them off the balances.
SELECT receivables_sync(array_agg(id ORDER BY id)) FROM shipments WHERE payment_moment = 'credito';
