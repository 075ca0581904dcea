ALTER TABLE "notification_outbox" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD COLUMN "attachment" "bytea";--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_attachment_ck" CHECK (("notification_outbox"."attachment" is null) = ("notification_outbox"."attachment_name" is null));