CREATE TABLE "receivable_customer_balances" (
	"customer_key" text NOT NULL,
	"origin_branch_id" integer NOT NULL,
	"sender_name" text NOT NULL,
	"customer_id" integer,
	"n" integer NOT NULL,
	"amount" numeric NOT NULL,
	"last_shipment_at" timestamp with time zone NOT NULL,
	CONSTRAINT "receivable_customer_balances_customer_key_origin_branch_id_sender_name_pk" PRIMARY KEY("customer_key","origin_branch_id","sender_name")
);
--> statement-breakpoint
CREATE TABLE "receivable_destination_balances" (
	"destination_branch_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "receivable_destination_balances_destination_branch_id_status_pk" PRIMARY KEY("destination_branch_id","status")
);
--> statement-breakpoint
CREATE TABLE "receivable_items" (
	"shipment_id" integer PRIMARY KEY NOT NULL,
	"side" text NOT NULL,
	"customer_key" text NOT NULL,
	"customer_id" integer,
	"sender_name" text NOT NULL,
	"branch_id" integer NOT NULL,
	"status" text,
	"amount" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "receivable_items_side_ck" CHECK ("receivable_items"."side" in ('origen', 'destino'))
);
--> statement-breakpoint
CREATE INDEX "receivable_items_last_idx" ON "receivable_items" USING btree ("customer_key","branch_id","sender_name","created_at") WHERE "receivable_items"."side" = 'origen';--> statement-breakpoint
-- hand-written
-- Issue 37: receivables kept in the transactions that change them. What a shipment owes is defined
-- once, here; the triggers, the backfill and the ledger check (receivable_balances) all read it.
-- At origin the sender owes every shipment not Anulado without a paid payment ('origen' and
-- 'credito'); pago en destino is owed at the destination branch while Creado, En tránsito or En
-- agencia without one. The status is kept only where it splits a balance (destino).
CREATE VIEW receivable_items_source AS
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
WHERE CASE WHEN s.payment_moment = 'destino' THEN s.status IN ('Creado', 'En tránsito', 'En agencia') ELSE s.status <> 'Anulado' END
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.shipment_id = s.id AND p.status = 'paid');
--> statement-breakpoint
-- Makes receivable_items agree with the view for these shipments: an item that is no longer owed,
-- or owed differently (repriced, another sender), goes; one owed and missing comes. Deleting before
-- inserting lets a changed item move between balances through the two triggers below.
-- Generic plans: a custom plan of these statements over the view costs about 1 ms to make, ten
-- times what running it costs for one shipment, and the plan cache would keep making them (their
-- generic estimate, a few rows of an array, looks dearer than one).
CREATE FUNCTION receivables_sync(ids integer[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  DELETE FROM receivable_items i
   WHERE i.shipment_id = ANY(ids)
     AND NOT EXISTS (
       SELECT 1 FROM receivable_items_source v
        WHERE v.shipment_id = i.shipment_id
          AND (v.side, v.customer_key, v.customer_id, v.sender_name, v.branch_id, v.status, v.amount, v.created_at)
              IS NOT DISTINCT FROM (i.side, i.customer_key, i.customer_id, i.sender_name, i.branch_id, i.status, i.amount, i.created_at));
  INSERT INTO receivable_items (shipment_id, side, customer_key, customer_id, sender_name, branch_id, status, amount, created_at)
  SELECT v.shipment_id, v.side, v.customer_key, v.customer_id, v.sender_name, v.branch_id, v.status, v.amount, v.created_at
    FROM receivable_items_source v
   WHERE v.shipment_id = ANY(ids)
     AND NOT EXISTS (SELECT 1 FROM receivable_items i WHERE i.shipment_id = v.shipment_id)
   ORDER BY v.shipment_id;
END
$$;
--> statement-breakpoint
-- Shipments: a creation, and an update that moves what is owed (status, price, sender, branches,
-- payment moment). Other updates (a PDF link, a trip) touch nothing. The updated rows are locked by
-- the update itself: a payment of one of them waits (the payment's guard takes the row FOR SHARE),
-- and the view is read after the lock, with a fresh snapshot, so both see each other's commit.
CREATE FUNCTION receivables_shipments_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id ORDER BY id) INTO ids FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(n.id ORDER BY n.id) INTO ids
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.status, n.payment_moment, n.quoted_price, n.sender_customer_id, n.sender_name, n.origin_branch_id, n.destination_branch_id, n.created_at)
           IS DISTINCT FROM (o.status, o.payment_moment, o.quoted_price, o.sender_customer_id, o.sender_name, o.origin_branch_id, o.destination_branch_id, o.created_at);
  ELSE
    SELECT array_agg(id ORDER BY id) INTO ids FROM old_rows;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM receivables_sync(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shipments_receivables_insert AFTER INSERT ON shipments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_shipments_track();
--> statement-breakpoint
CREATE TRIGGER shipments_receivables_update AFTER UPDATE ON shipments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_shipments_track();
--> statement-breakpoint
CREATE TRIGGER shipments_receivables_delete AFTER DELETE ON shipments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_shipments_track();
--> statement-breakpoint
-- Payments: only a change of 'paid' (paid, voided, a paid one deleted or moved) changes what is
-- owed. The shipments are taken FOR SHARE first, in id order, as the payment guard (0027) takes
-- them: a void then queues behind a concurrent change of its shipment (and that one behind it),
-- and the view is read after the lock with a fresh snapshot.
CREATE FUNCTION receivables_payments_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT shipment_id) INTO ids FROM new_rows WHERE status = 'paid';
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT x.shipment_id) INTO ids FROM (
      SELECT n.shipment_id FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE (n.status = 'paid') IS DISTINCT FROM (o.status = 'paid') OR (n.status = 'paid' AND n.shipment_id <> o.shipment_id)
      UNION ALL
      SELECT o.shipment_id FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE (n.status = 'paid') IS DISTINCT FROM (o.status = 'paid') OR (o.status = 'paid' AND n.shipment_id <> o.shipment_id)
    ) x;
  ELSE
    SELECT array_agg(DISTINCT shipment_id) INTO ids FROM old_rows WHERE status = 'paid';
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM 1 FROM shipments WHERE id = ANY(ids) ORDER BY id FOR SHARE;
    PERFORM receivables_sync(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_receivables_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_payments_track();
--> statement-breakpoint
CREATE TRIGGER payments_receivables_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_payments_track();
--> statement-breakpoint
CREATE TRIGGER payments_receivables_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivables_payments_track();
--> statement-breakpoint
-- The balances follow the items. A statement upserts its rows in key order (as the money counters
-- of 0021), so two statements over the same balances lock them in the same order. A customer's
-- newest shipment owed is found again from receivable_items_last_idx only when the newest one
-- leaves; a balance with nothing owed is deleted, so the balances hold only who owes now.
CREATE FUNCTION receivable_items_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A statement trigger fires for no rows too, and every sync runs a DELETE and an INSERT: most touch nothing.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
    INSERT INTO receivable_customer_balances AS b (customer_key, origin_branch_id, sender_name, customer_id, n, amount, last_shipment_at)
    SELECT customer_key, branch_id, sender_name, max(customer_id), count(*), sum(amount), max(created_at)
      FROM new_rows WHERE side = 'origen' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (customer_key, origin_branch_id, sender_name) DO UPDATE
      SET n = b.n + excluded.n, amount = b.amount + excluded.amount, last_shipment_at = greatest(b.last_shipment_at, excluded.last_shipment_at);
    INSERT INTO receivable_destination_balances AS b (destination_branch_id, status, n, amount)
    SELECT branch_id, status, count(*), sum(amount)
      FROM new_rows WHERE side = 'destino' GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (destination_branch_id, status) DO UPDATE SET n = b.n + excluded.n, amount = b.amount + excluded.amount;
  ELSE
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
      RETURN NULL;
    END IF;
    -- A missing balance is inserted with a negative count (an upsert's proposed row is checked before
    -- its conflict, so the tables have no CHECK (n >= 0)): refused below.
    INSERT INTO receivable_customer_balances AS b (customer_key, origin_branch_id, sender_name, customer_id, n, amount, last_shipment_at)
    SELECT customer_key, branch_id, sender_name, max(customer_id), -count(*), -sum(amount), max(created_at)
      FROM old_rows WHERE side = 'origen' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (customer_key, origin_branch_id, sender_name) DO UPDATE
      SET n = b.n + excluded.n, amount = b.amount + excluded.amount,
        last_shipment_at = CASE WHEN excluded.last_shipment_at < b.last_shipment_at THEN b.last_shipment_at
          ELSE coalesce((SELECT max(i.created_at) FROM receivable_items i
                          WHERE i.side = 'origen' AND i.customer_key = b.customer_key AND i.branch_id = b.origin_branch_id
                            AND i.sender_name = b.sender_name), b.last_shipment_at) END;
    -- A balance missing or short of what left it (it was inserted or left negative): refused.
    IF EXISTS (SELECT 1 FROM receivable_customer_balances b
                 JOIN (SELECT DISTINCT customer_key, branch_id, sender_name FROM old_rows WHERE side = 'origen') o
                   ON b.customer_key = o.customer_key AND b.origin_branch_id = o.branch_id AND b.sender_name = o.sender_name
                WHERE b.n < 0) THEN
      RAISE EXCEPTION 'receivable_customer_balances: un saldo por cobrar quedó negativo.';
    END IF;
    DELETE FROM receivable_customer_balances b
     USING (SELECT DISTINCT customer_key, branch_id, sender_name FROM old_rows WHERE side = 'origen') o
     WHERE b.customer_key = o.customer_key AND b.origin_branch_id = o.branch_id AND b.sender_name = o.sender_name AND b.n = 0;
    INSERT INTO receivable_destination_balances AS b (destination_branch_id, status, n, amount)
    SELECT branch_id, status, -count(*), -sum(amount)
      FROM old_rows WHERE side = 'destino' GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (destination_branch_id, status) DO UPDATE SET n = b.n + excluded.n, amount = b.amount + excluded.amount;
    IF EXISTS (SELECT 1 FROM receivable_destination_balances b
                 JOIN (SELECT DISTINCT branch_id, status FROM old_rows WHERE side = 'destino') o
                   ON b.destination_branch_id = o.branch_id AND b.status = o.status
                WHERE b.n < 0) THEN
      RAISE EXCEPTION 'receivable_destination_balances: un saldo por cobrar quedó negativo.';
    END IF;
    DELETE FROM receivable_destination_balances b
     USING (SELECT DISTINCT branch_id, status FROM old_rows WHERE side = 'destino') o
     WHERE b.destination_branch_id = o.branch_id AND b.status = o.status AND b.n = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER receivable_items_insert AFTER INSERT ON receivable_items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivable_items_track();
--> statement-breakpoint
CREATE TRIGGER receivable_items_delete AFTER DELETE ON receivable_items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION receivable_items_track();
--> statement-breakpoint
-- Items are only inserted and deleted (receivables_sync): an update would skip the balances.
CREATE FUNCTION receivable_items_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'receivable_items: se insertan y se borran, no se modifican.';
END
$$;
--> statement-breakpoint
CREATE TRIGGER receivable_items_no_update BEFORE UPDATE ON receivable_items
  FOR EACH STATEMENT EXECUTE FUNCTION receivable_items_immutable();
--> statement-breakpoint
-- Backfill: the items owed now; their insert trigger sums the balances.
INSERT INTO receivable_items (shipment_id, side, customer_key, customer_id, sender_name, branch_id, status, amount, created_at)
SELECT shipment_id, side, customer_key, customer_id, sender_name, branch_id, status, amount, created_at FROM receivable_items_source;
