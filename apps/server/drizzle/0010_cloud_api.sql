ALTER TABLE "messages" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud" jsonb;