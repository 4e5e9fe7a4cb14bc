DROP INDEX `message_outbox_workspace_idx`;--> statement-breakpoint
DROP INDEX `message_outbox_due_idx`;--> statement-breakpoint
DROP INDEX `message_outbox_provider_idx`;--> statement-breakpoint
CREATE INDEX `message_outbox_verification_idx` ON `message_outbox` (`verification_id`);--> statement-breakpoint
CREATE INDEX `message_outbox_due_idx` ON `message_outbox` (`next_attempt_at`) WHERE "message_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `message_outbox_provider_idx` ON `message_outbox` (`provider_message_id`) WHERE "message_outbox"."provider_message_id" is not null;