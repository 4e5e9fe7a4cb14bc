CREATE TABLE `hourly_send_shards` (
	`workspace_id` text NOT NULL,
	`hour` text NOT NULL,
	`shard` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `hour`, `shard`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
