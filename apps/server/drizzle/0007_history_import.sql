CREATE TABLE "device_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"network_id" varchar(200) NOT NULL,
	"chat_id" varchar(100) NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"from_me" boolean NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"media_type" varchar(20),
	"media_url" text,
	"media_mimetype" varchar(200),
	"media_filename" varchar(300),
	"media_seconds" integer,
	"quoted_id" varchar(200),
	"name" varchar(200),
	"participant_number" varchar(100),
	"participant_name" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" varchar(20) DEFAULT 'queued' NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"user_id" integer,
	"contact_number" varchar(100),
	"limit" integer NOT NULL,
	"chats" jsonb,
	"chats_done" integer DEFAULT 0 NOT NULL,
	"messages_imported" integer DEFAULT 0 NOT NULL,
	"messages_skipped" integer DEFAULT 0 NOT NULL,
	"tickets_created" integer DEFAULT 0 NOT NULL,
	"tickets_joined" integer DEFAULT 0 NOT NULL,
	"groups_skipped" integer DEFAULT 0 NOT NULL,
	"older_requested" integer DEFAULT 0 NOT NULL,
	"chain" varchar(64) NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_history" ADD CONSTRAINT "device_history_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_history_network_id_unique" ON "device_history" USING btree ("whatsapp_id","network_id");--> statement-breakpoint
CREATE INDEX "device_history_chat_idx" ON "device_history" USING btree ("whatsapp_id","chat_id","timestamp");--> statement-breakpoint
CREATE INDEX "history_imports_active_idx" ON "history_imports" USING btree ("status") WHERE "history_imports"."status" in ('queued', 'running');