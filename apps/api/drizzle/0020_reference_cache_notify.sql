-- Issue 19: every API process keeps the branches and route price tables a shipment creation reads
-- (plugins/reference-cache.ts) and drops them on a notice sent here, at the commit of any change to
-- them, whoever makes it (the API, a seed, an operator's SQL). Statement-level: one notice per
-- statement, and PostgreSQL folds repeats within a transaction into one.
CREATE FUNCTION tramo_reference_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tramo_reference', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER branches_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON branches
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER weight_factor_tables_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON weight_factor_tables
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();--> statement-breakpoint
CREATE TRIGGER weight_factor_tiers_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON weight_factor_tiers
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();
