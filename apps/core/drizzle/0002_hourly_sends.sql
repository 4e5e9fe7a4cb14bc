CREATE TABLE `hourly_sends` (
	`workspace_id` text NOT NULL,
	`hour` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `hour`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
