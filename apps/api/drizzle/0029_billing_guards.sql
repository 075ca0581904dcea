-- Issue 30 (F5): a blank codigo_unico was stored as a key ('' or spaces) and never replayed, so every
-- later emission under it failed. A blank key is no key: null, as the API now stores it.
UPDATE "documents" SET "idempotency_key" = NULL WHERE btrim("idempotency_key") = '';
