PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_hourly_sends` (
	`workspace_id` text NOT NULL,
	`hour` text NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `hour`, `shard`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_hourly_sends`("workspace_id", "hour", "shard", "count") SELECT "workspace_id", "hour", 0, "count" FROM `hourly_sends`;--> statement-breakpoint
DROP TABLE `hourly_sends`;--> statement-breakpoint
ALTER TABLE `__new_hourly_sends` RENAME TO `hourly_sends`;--> statement-breakpoint
PRAGMA foreign_keys=ON;