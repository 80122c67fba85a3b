CREATE TABLE "chatbot_sessions" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"session_id" varchar(200),
	"state" varchar(12) DEFAULT 'active' NOT NULL,
	"choices" jsonb,
	"last_exchange_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chatbot_sessions" ADD CONSTRAINT "chatbot_sessions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_protocol_lower_idx" ON "tickets" USING btree (lower("protocol"));