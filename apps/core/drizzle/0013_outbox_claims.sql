PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_idempotency_keys` (
	`workspace_id` text NOT NULL,
	`operation` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response` text,
	`created_at` text NOT NULL,
	`claim_id` text,
	`claimed_until` text,
	PRIMARY KEY(`workspace_id`, `operation`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_idempotency_keys`("workspace_id", "operation", "key", "request_hash", "response", "created_at") SELECT "workspace_id", "operation", "key", "request_hash", "response", "created_at" FROM `idempotency_keys`;--> statement-breakpoint
DROP TABLE `idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_idempotency_keys` RENAME TO `idempotency_keys`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_until` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `message_outbox` ADD `claimed_until` text;