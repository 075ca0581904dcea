-- hand-written
-- Issue 37: every payment click reads the methods its counter accepts, and every API process now
-- keeps them with the reference data (plugins/reference-cache.ts). A change to them, whoever makes
-- it (the settings page, a seed, an operator's SQL), is sent on the reference channel at its commit
-- and drops what every process kept, as for branches and price tables (migration 0020).
CREATE TRIGGER who_pays_branch_methods_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON who_pays_branch_methods
  FOR EACH STATEMENT EXECUTE FUNCTION tramo_reference_changed();
