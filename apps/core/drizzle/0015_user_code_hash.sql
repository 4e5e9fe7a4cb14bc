PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_device_authorizations` (
	`id` text PRIMARY KEY NOT NULL,
	`device_code_hash` text NOT NULL,
	`user_code_hash` text,
	`user_code` text,
	`status` text NOT NULL,
	`interval_seconds` integer NOT NULL,
	`last_polled_at` text,
	`expires_at` text NOT NULL,
	`client_name` text NOT NULL,
	`client_hostname` text,
	`client_ip` text,
	`client_user_agent` text,
	`email` text,
	`user_id` text,
	`token_id` text,
	`decided_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The rows of earlier versions have no hash of their code (only the key can make one): see user_code in schema.ts.
INSERT INTO `__new_device_authorizations`("id", "device_code_hash", "user_code", "status", "interval_seconds", "last_polled_at", "expires_at", "client_name", "client_hostname", "client_ip", "client_user_agent", "email", "user_id", "token_id", "decided_at", "created_at") SELECT "id", "device_code_hash", "user_code", "status", "interval_seconds", "last_polled_at", "expires_at", "client_name", "client_hostname", "client_ip", "client_user_agent", "email", "user_id", "token_id", "decided_at", "created_at" FROM `device_authorizations`;--> statement-breakpoint
DROP TABLE `device_authorizations`;--> statement-breakpoint
ALTER TABLE `__new_device_authorizations` RENAME TO `device_authorizations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_device_code_hash_unique` ON `device_authorizations` (`device_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_user_code_hash_unique` ON `device_authorizations` (`user_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_user_code_unique` ON `device_authorizations` (`user_code`);