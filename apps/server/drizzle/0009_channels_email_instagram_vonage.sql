CREATE TABLE "outreach_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" varchar(20) NOT NULL,
	"status" varchar(20) DEFAULT 'queued' NOT NULL,
	"user_id" integer,
	"sender" varchar(60),
	"text" text NOT NULL,
	"language" varchar(10),
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"unknown" integer DEFAULT 0 NOT NULL,
	"chain" varchar(64) NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outreach_items" (
	"batch_id" integer NOT NULL,
	"line" integer NOT NULL,
	"recipient" varchar(100) NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"provider_id" varchar(200),
	"error" text,
	"finished_at" timestamp with time zone,
	CONSTRAINT "outreach_items_batch_id_line_pk" PRIMARY KEY("batch_id","line")
);
--> statement-breakpoint
ALTER TABLE "outreach_batches" ADD CONSTRAINT "outreach_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outreach_items" ADD CONSTRAINT "outreach_items_batch_id_outreach_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."outreach_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outreach_batches_active_idx" ON "outreach_batches" USING btree ("status") WHERE "outreach_batches"."status" in ('queued', 'running');