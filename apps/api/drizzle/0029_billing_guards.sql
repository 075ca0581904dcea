-- Issue 30 (F5): a blank codigo_unico was stored as a key ('' or spaces) and never replayed, so every
-- later emission under it failed. A blank key is no key: null, as the API now stores it.
UPDATE "documents" SET "idempotency_key" = NULL WHERE btrim("idempotency_key") = '';
--> statement-breakpoint
-- Issue 31 (F7): a payment's receipt is voided only with its payment (DESIGN.md section 5b). The
-- billing service refuses it first; this holds the rule for every other path and for a void racing
-- the check. Only the start of a void is refused (into 'anulación pendiente' or 'anulado' from any
-- other status): a void already under way completes. The payments module cancels the payment
-- (committed) before it voids the receipt, so its own path never meets this. The API maps SQLSTATE
-- TR409 with this message prefix to its 409 (apps/api/src/plugins/errors.ts).
CREATE FUNCTION "documents_receipt_of_live_payment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" IN ('anulación pendiente', 'anulado')
     AND OLD."status" NOT IN ('anulación pendiente', 'anulado')
     AND EXISTS (SELECT 1 FROM "payments" p WHERE p."document_id" = NEW."id" AND p."status" IN ('pending', 'paid')) THEN
    RAISE EXCEPTION 'tramo.receipt_of_live_payment: document % is the receipt of a live payment', NEW."id"
      USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "documents_receipt_of_live_payment" BEFORE UPDATE OF "status" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "documents_receipt_of_live_payment"();
