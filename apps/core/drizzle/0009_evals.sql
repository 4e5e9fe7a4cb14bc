CREATE TABLE `eval_executions` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`case_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`agent` text NOT NULL,
	`judge` text,
	`status` text NOT NULL,
	`lease_owner` text,
	`lease_id` text,
	`lease_until` text,
	`verdict` text,
	`reasoning` text,
	`replay_chat_id` text,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`judge_input_tokens` integer DEFAULT 0 NOT NULL,
	`judge_output_tokens` integer DEFAULT 0 NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`run_id`) REFERENCES `eval_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`case_id`) REFERENCES `eval_cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`replay_chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `eval_executions_run_idx` ON `eval_executions` (`run_id`,`case_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `eval_executions_open_idx` ON `eval_executions` (`run_id`,`attempt`,`id`) WHERE "eval_executions"."status" in ('pending', 'leased');--> statement-breakpoint
CREATE TABLE `eval_overrides` (
	`run_id` text NOT NULL,
	`case_id` text NOT NULL,
	`verdict` text NOT NULL,
	`by` text NOT NULL,
	`at` text NOT NULL,
	PRIMARY KEY(`run_id`, `case_id`),
	FOREIGN KEY (`run_id`) REFERENCES `eval_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`case_id`) REFERENCES `eval_cases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `eval_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`environment` text NOT NULL,
	`agent` text,
	`version_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`trigger` text NOT NULL,
	`repeat` integer NOT NULL,
	`min_pass` integer NOT NULL,
	`grader` text NOT NULL,
	`agent_models` text NOT NULL,
	`status` text NOT NULL,
	`baseline_run_id` text,
	`skipped` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `agent_versions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `eval_runs_environment_idx` ON `eval_runs` (`workspace_id`,`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `eval_runs_workspace_idx` ON `eval_runs` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `eval_runs_finished_idx` ON `eval_runs` (`workspace_id`,`environment`,`finished_at`,`id`) WHERE "eval_runs"."status" = 'finished';--> statement-breakpoint
CREATE INDEX `eval_runs_open_idx` ON `eval_runs` (`created_at`) WHERE "eval_runs"."status" in ('queued', 'running');