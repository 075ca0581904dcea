DROP INDEX "documents_idempotency_uq";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "idempotency_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_branch_idempotency_uq" ON "documents" USING btree (coalesce("branch_id", 0),"idempotency_key");