CREATE TABLE `event_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`payload` text NOT NULL,
	`available_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claim_id` text,
	`claimed_until` text,
	`done_at` text,
	`last_error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_outbox_key_idx` ON `event_outbox` (`kind`,`key`);--> statement-breakpoint
CREATE INDEX `event_outbox_open_idx` ON `event_outbox` (`available_at`,`id`) WHERE "event_outbox"."done_at" is null;--> statement-breakpoint
CREATE TABLE `github_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`received_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `github_installations` (
	`repository` text NOT NULL,
	`installation_id` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `github_installations_repository_idx` ON `github_installations` (lower("repository"));--> statement-breakpoint
CREATE INDEX `github_installations_installation_idx` ON `github_installations` (`installation_id`);--> statement-breakpoint
CREATE TABLE `github_links` (
	`workspace_id` text NOT NULL,
	`repository` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `github_links_repository_idx` ON `github_links` (lower("repository"));--> statement-breakpoint
CREATE INDEX `github_links_workspace_idx` ON `github_links` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `preview_targets` (
	`run_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`repository` text NOT NULL,
	`pull_number` integer NOT NULL,
	`installation_id` integer NOT NULL,
	`head_sha` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `eval_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The author of the versions the GitHub App deploys: a user no one signs in as (its "email" is no address, so no
-- sign-in link can reach it), shown as the author of a pull request's preview.
INSERT INTO `users` (`id`, `email`, `created_at`) VALUES ('usr_github_app', 'GitHub App', '2026-11-26T00:00:00.000Z');
