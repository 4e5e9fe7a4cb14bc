CREATE TABLE `digest_days` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`claimed_at` text NOT NULL,
	`mailed_at` text,
	PRIMARY KEY(`workspace_id`, `day`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `digest_days_mailed_idx` ON `digest_days` (`workspace_id`,`mailed_at`);