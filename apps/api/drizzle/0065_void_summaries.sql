ALTER TABLE "documents" ADD COLUMN "void_summary_id" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "void_ticket" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "void_xml" text;