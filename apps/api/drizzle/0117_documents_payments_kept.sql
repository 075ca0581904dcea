-- hand-written
-- A comprobante, a payment and the audit trail are kept for good: a receipt SUNAT holds is undone by
-- its void or a credit note, a payment by its void (with its reversal in the cash), and both leave
-- their row and their audit. No endpoint deletes them; this holds for every other path too (an
-- operator's SQL, a script), where a deleted row would leave a gap in a series, a receipt without
-- its payment or a cash session short of what it took, which the ledger would only report after
-- the fact. Row triggers, so a DELETE that matches nothing is no error; TRUNCATE, which fires no
-- row trigger, is refused by a statement trigger. Convention of 0037: SQLSTATE TR409,
-- '<rule name>: <detail>'. A test that must remove such a row disables the trigger by name, which
-- takes the table's owner.
CREATE OR REPLACE FUNCTION tramo_kept_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    RAISE EXCEPTION 'tramo.kept_row_deleted: % % is kept for good (void it instead)', TG_TABLE_NAME, OLD.id USING ERRCODE = 'TR409';
  END IF;
  RAISE EXCEPTION 'tramo.kept_row_deleted: % is kept for good (TRUNCATE refused)', TG_TABLE_NAME USING ERRCODE = 'TR409';
END
$$;--> statement-breakpoint
CREATE TRIGGER documents_kept BEFORE DELETE ON documents FOR EACH ROW EXECUTE FUNCTION tramo_kept_row();--> statement-breakpoint
CREATE TRIGGER documents_kept_truncate BEFORE TRUNCATE ON documents FOR EACH STATEMENT EXECUTE FUNCTION tramo_kept_row();--> statement-breakpoint
CREATE TRIGGER payments_kept BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION tramo_kept_row();--> statement-breakpoint
CREATE TRIGGER payments_kept_truncate BEFORE TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION tramo_kept_row();--> statement-breakpoint
CREATE TRIGGER audit_log_kept BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION tramo_kept_row();--> statement-breakpoint
CREATE TRIGGER audit_log_kept_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION tramo_kept_row();
