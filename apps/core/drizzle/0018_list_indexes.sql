DROP INDEX `eval_cases_agent_idx`;--> statement-breakpoint
CREATE INDEX `eval_cases_workspace_idx` ON `eval_cases` (`workspace_id`,`created_at`,`id`) WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX `eval_cases_agent_idx` ON `eval_cases` (`workspace_id`,`agent`,`created_at`,`id`) WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
DROP INDEX `flags_workspace_idx`;--> statement-breakpoint
CREATE INDEX `flags_created_idx` ON `flags` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `flags_agent_idx` ON `flags` (`workspace_id`,`agent`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `flags_open_idx` ON `flags` (`id`) WHERE "flags"."status" = 'open';--> statement-breakpoint
CREATE INDEX `flags_workspace_idx` ON `flags` (`workspace_id`,`status`,`created_at`,`id`);