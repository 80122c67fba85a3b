ALTER TABLE "campaigns" ADD COLUMN "origin" varchar(10) DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "origin" varchar(20);--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "origin_id" integer;--> statement-breakpoint
UPDATE "messages" SET "origin" = 'system' WHERE "sender_kind" = 'auto';--> statement-breakpoint
UPDATE "messages" SET "origin" = 'bot' WHERE "sender_kind" = 'bot';
