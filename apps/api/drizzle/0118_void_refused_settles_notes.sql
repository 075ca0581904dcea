-- hand-written
-- A factura's (or boleta's) void SUNAT refuses, or the provider refuses before SUNAT saw it, puts the
-- document back from 'anulación pendiente' to 'aceptado' (or 'pendiente'). While its void was pending,
-- tramo_credit_note_settle (0115) left it alone: a void frees its shipments on its own once SUNAT
-- accepts it. A crediting note SUNAT accepted meanwhile therefore freed nothing, and back in force
-- the document would keep shipments it no longer charges: they could not go on a new comprobante.
-- Now the return settles the document by its accepted notes, in the same transaction, whatever the
-- path: credited whole, its shipments are let go ('credit-note-reopen', as 0115 audits it, with no
-- note id: no single note did it); otherwise nothing changes.
CREATE OR REPLACE FUNCTION tramo_void_refused_settles_notes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tramo_credit_note_settle(NULL, NEW.user_id, NEW.series || '-' || lpad(NEW.number::text, 8, '0'), NEW.type, 0);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER documents_void_refused_settles_notes AFTER UPDATE OF status ON documents
  FOR EACH ROW WHEN (OLD.status = 'anulación pendiente' AND NEW.status IN ('aceptado', 'pendiente') AND NEW.type IN ('01', '03'))
  EXECUTE FUNCTION tramo_void_refused_settles_notes();
