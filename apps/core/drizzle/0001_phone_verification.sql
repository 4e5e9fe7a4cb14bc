CREATE TABLE `dev_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`to` text NOT NULL,
	`body` text NOT NULL,
	`verification_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` text NOT NULL,
	`operation` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `operation`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `message_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`verification_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`code_sealed` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`provider_message_id` text,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`verification_id`) REFERENCES `phone_verifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_outbox_due_idx` ON `message_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_number_idx` ON `message_outbox` (`workspace_id`,`phone_number`,`created_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_workspace_idx` ON `message_outbox` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_provider_idx` ON `message_outbox` (`provider_message_id`);--> statement-breakpoint
CREATE TABLE `phone_verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`code_hmac` text NOT NULL,
	`status` text NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`send_count` integer DEFAULT 1 NOT NULL,
	`test_number` integer DEFAULT false NOT NULL,
	`expires_at` text NOT NULL,
	`last_sent_at` text NOT NULL,
	`verified_at` text,
	`delivery_status` text NOT NULL,
	`delivery_error` text,
	`delivery_updated_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_verifications_number_idx` ON `phone_verifications` (`workspace_id`,`phone_number`,`status`);--> statement-breakpoint
CREATE TABLE `senders` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`config` text NOT NULL,
	`secrets_sealed` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `test_numbers` (
	`workspace_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`code_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `phone_number`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
