CREATE TABLE "job_runs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"node_id" text NOT NULL,
	"beat_at" timestamp with time zone DEFAULT now() NOT NULL
);
