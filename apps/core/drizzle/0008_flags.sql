CREATE TABLE `eval_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`agent` text NOT NULL,
	`turns` text NOT NULL,
	`expected` text NOT NULL,
	`origin_flag_id` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`origin_flag_id`) REFERENCES `flags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `eval_cases_agent_idx` ON `eval_cases` (`workspace_id`,`agent`) WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX `eval_cases_flag_idx` ON `eval_cases` (`origin_flag_id`) WHERE "eval_cases"."deleted_at" is null and "eval_cases"."origin_flag_id" is not null;--> statement-breakpoint
CREATE TABLE `flag_events` (
	`id` text PRIMARY KEY NOT NULL,
	`flag_id` text NOT NULL,
	`actor` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`note_before` text,
	`note_after` text,
	`at` text NOT NULL,
	FOREIGN KEY (`flag_id`) REFERENCES `flags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `flag_events_flag_idx` ON `flag_events` (`flag_id`,`at`);--> statement-breakpoint
CREATE TABLE `flags` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`chat_id` text NOT NULL,
	`message_id` text NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`agent` text NOT NULL,
	`environment` text NOT NULL,
	`version_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`channel` text NOT NULL,
	`snapshot` text NOT NULL,
	`eval_case_id` text,
	`fixed_by_version_id` text,
	`fixed_by_version_number` integer,
	`fixed_at` text,
	`created_by` text NOT NULL,
	`revision` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flags_live_message_idx` ON `flags` (`message_id`) WHERE "flags"."status" <> 'removed';--> statement-breakpoint
CREATE INDEX `flags_workspace_idx` ON `flags` (`workspace_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `flags_chat_idx` ON `flags` (`chat_id`);