DROP INDEX "documents_branch_idx";--> statement-breakpoint
DROP INDEX "payments_branch_created_idx";--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_branch_idx" ON "documents" USING btree ("branch_id","issue_date","id");--> statement-breakpoint
CREATE INDEX "payments_branch_created_idx" ON "payments" USING btree ("branch_id","created_at","id");