CREATE TABLE "group_action_items" (
	"group_action_id" integer NOT NULL,
	"line" integer NOT NULL,
	"target" varchar(200) NOT NULL,
	"label" text,
	"status" varchar(20) NOT NULL,
	"error" text,
	"result" varchar(200),
	"finished_at" timestamp with time zone,
	CONSTRAINT "group_action_items_group_action_id_line_pk" PRIMARY KEY("group_action_id","line")
);
--> statement-breakpoint
CREATE TABLE "group_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"status" varchar(20) DEFAULT 'queued' NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"user_id" integer,
	"subject" text,
	"description" text,
	"title" text,
	"participants" text,
	"message" text,
	"min_interval" integer DEFAULT 0 NOT NULL,
	"max_interval" integer DEFAULT 0 NOT NULL,
	"planned" boolean DEFAULT false NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"unknown" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"chain" varchar(64) NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_action_items" ADD CONSTRAINT "group_action_items_group_action_id_group_actions_id_fk" FOREIGN KEY ("group_action_id") REFERENCES "public"."group_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_actions" ADD CONSTRAINT "group_actions_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_actions" ADD CONSTRAINT "group_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_actions_active_idx" ON "group_actions" USING btree ("status") WHERE "group_actions"."status" in ('queued', 'running');