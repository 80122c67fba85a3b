CREATE TABLE "webhook_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event" varchar(40) NOT NULL,
	"entity_id" bigint NOT NULL,
	"tx" bigint NOT NULL,
	"row" jsonb,
	"previous" jsonb,
	"webhook_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
