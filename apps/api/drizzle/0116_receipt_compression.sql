-- hand-written
-- Issue 37: what a receipt writes, made cheaper for PostgreSQL to store, with the same content.
-- (Not document_number_fragments in PL/pgSQL: cheaper where an index computes it once per statement,
-- but each call in a query then runs through SPI, 76-87 us a row against 19-32 for the SQL function,
-- whose plan a query keeps across rows; the Comprobantes RUC filter evaluates it per row.)
--
-- A receipt's signed XML (about 7.5 kB) and the sandbox's record of it (about 8.4 kB, the XML again)
-- are compressed on every payment by PostgreSQL's own pglz: 3.8 % of the database's CPU in a
-- payments run (perf). lz4 compresses them about as well several times faster. An engine built
-- without lz4 (the embedded one) keeps pglz: the setting is refused there and nothing else changes.
-- It applies to values written from now on; those stored keep their compression, readable either way.
DO $$
BEGIN
  ALTER TABLE documents ALTER COLUMN xml SET COMPRESSION lz4;
  ALTER TABLE documents ALTER COLUMN void_xml SET COMPRESSION lz4;
  ALTER TABLE sandbox_documents ALTER COLUMN record SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
