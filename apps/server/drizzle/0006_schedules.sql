CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" varchar(20) DEFAULT 'scheduled' NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"contact_id" integer,
	"number" varchar(100) NOT NULL,
	"user_id" integer,
	"body" text DEFAULT '' NOT NULL,
	"media_url" text,
	"send_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"error" text,
	"message_id" bigint,
	"ticket_id" integer,
	"sent_at" timestamp with time zone,
	"late" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("send_at") WHERE "schedules"."status" in ('scheduled', 'sending');--> statement-breakpoint
CREATE INDEX "schedules_send_at_idx" ON "schedules" USING btree ("send_at","id");--> statement-breakpoint
CREATE INDEX "schedules_contact_idx" ON "schedules" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "schedules_user_idx" ON "schedules" USING btree ("user_id");