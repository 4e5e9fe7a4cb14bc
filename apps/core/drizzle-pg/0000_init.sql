CREATE TABLE "agent_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"number" integer NOT NULL,
	"content_hash" text NOT NULL,
	"files" text NOT NULL,
	"git_commit" text,
	"git_branch" text,
	"author_id" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"chat_id" text NOT NULL,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"trace" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"agent" text NOT NULL,
	"environment" text NOT NULL,
	"version_id" text NOT NULL,
	"channel" text NOT NULL,
	"replay" boolean NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_mails" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"to" text NOT NULL,
	"body" text NOT NULL,
	"verification_id" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "developer_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" text NOT NULL,
	"last_used_at" text,
	"revoked_at" text,
	CONSTRAINT "developer_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "device_authorizations" (
	"id" text PRIMARY KEY NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code" text NOT NULL,
	"status" text NOT NULL,
	"interval_seconds" integer NOT NULL,
	"last_polled_at" text,
	"expires_at" text NOT NULL,
	"client_name" text NOT NULL,
	"client_hostname" text,
	"client_ip" text,
	"client_user_agent" text,
	"email" text,
	"user_id" text,
	"token_id" text,
	"decided_at" text,
	"created_at" text NOT NULL,
	CONSTRAINT "device_authorizations_device_code_hash_unique" UNIQUE("device_code_hash"),
	CONSTRAINT "device_authorizations_user_code_unique" UNIQUE("user_code")
);
--> statement-breakpoint
CREATE TABLE "environment_secrets" (
	"workspace_id" text NOT NULL,
	"environment" text NOT NULL,
	"name" text NOT NULL,
	"value_sealed" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "environment_secrets_workspace_id_environment_name_pk" PRIMARY KEY("workspace_id","environment","name")
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"version_id" text,
	"updated_at" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "environments_workspace_id_name_pk" PRIMARY KEY("workspace_id","name")
);
--> statement-breakpoint
CREATE TABLE "hourly_sends" (
	"workspace_id" text NOT NULL,
	"hour" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "hourly_sends_workspace_id_hour_pk" PRIMARY KEY("workspace_id","hour")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"workspace_id" text NOT NULL,
	"operation" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" text,
	"created_at" text NOT NULL,
	"claim_id" text,
	"claimed_until" text,
	CONSTRAINT "idempotency_keys_workspace_id_operation_key_pk" PRIMARY KEY("workspace_id","operation","key")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL,
	"decided_at" text,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "login_links" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"next" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL,
	CONSTRAINT "login_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"body_sealed" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text NOT NULL,
	"last_error" text,
	"created_at" text NOT NULL,
	"sent_at" text,
	"deliver_until" text,
	"claim_id" text,
	"claimed_until" text
);
--> statement-breakpoint
CREATE TABLE "membership_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_email" text NOT NULL,
	"email" text NOT NULL,
	"role" text,
	"previous_role" text,
	"at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "memberships_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "message_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"verification_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"code_sealed" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text NOT NULL,
	"last_error" text,
	"provider_message_id" text,
	"created_at" text NOT NULL,
	"sent_at" text,
	"claim_id" text,
	"claimed_until" text
);
--> statement-breakpoint
CREATE TABLE "phone_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"code_hmac" text NOT NULL,
	"status" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"send_count" integer DEFAULT 1 NOT NULL,
	"test_number" boolean DEFAULT false NOT NULL,
	"expires_at" text NOT NULL,
	"last_sent_at" text NOT NULL,
	"verified_at" text,
	"delivery_status" text NOT NULL,
	"delivery_error" text,
	"delivery_updated_at" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "senders" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"config" text NOT NULL,
	"secrets_sealed" text,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"csrf_token" text NOT NULL,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "test_numbers" (
	"workspace_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"code_sealed" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "test_numbers_workspace_id_phone_number_pk" PRIMARY KEY("workspace_id","phone_number")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text,
	"created_at" text NOT NULL,
	CONSTRAINT "workspaces_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "eval_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"agent" text NOT NULL,
	"turns" text NOT NULL,
	"expected" text NOT NULL,
	"origin_flag_id" text,
	"created_by" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"deleted_at" text
);
--> statement-breakpoint
CREATE TABLE "flag_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"flag_id" text NOT NULL,
	"actor" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"note_before" text,
	"note_after" text,
	"at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flags" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"chat_id" text NOT NULL,
	"message_id" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"agent" text NOT NULL,
	"environment" text NOT NULL,
	"version_id" text NOT NULL,
	"version_number" integer NOT NULL,
	"channel" text NOT NULL,
	"snapshot" text NOT NULL,
	"eval_case_id" text,
	"fixed_by_version_id" text,
	"fixed_by_version_number" integer,
	"fixed_at" text,
	"created_by" text NOT NULL,
	"revision" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "eval_executions" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"case_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"agent" text NOT NULL,
	"judge" text,
	"status" text NOT NULL,
	"lease_owner" text,
	"lease_id" text,
	"lease_until" text,
	"verdict" text,
	"reasoning" text,
	"replay_chat_id" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"judge_input_tokens" integer DEFAULT 0 NOT NULL,
	"judge_output_tokens" integer DEFAULT 0 NOT NULL,
	"finished_at" text
);
--> statement-breakpoint
CREATE TABLE "eval_overrides" (
	"run_id" text NOT NULL,
	"case_id" text NOT NULL,
	"verdict" text NOT NULL,
	"by" text NOT NULL,
	"at" text NOT NULL,
	CONSTRAINT "eval_overrides_run_id_case_id_pk" PRIMARY KEY("run_id","case_id")
);
--> statement-breakpoint
CREATE TABLE "eval_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"environment" text NOT NULL,
	"agent" text,
	"version_id" text NOT NULL,
	"version_number" integer NOT NULL,
	"trigger" text NOT NULL,
	"repeat" integer NOT NULL,
	"min_pass" integer NOT NULL,
	"grader" text NOT NULL,
	"agent_models" text NOT NULL,
	"status" text NOT NULL,
	"baseline_run_id" text,
	"skipped" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" text NOT NULL,
	"finished_at" text
);
--> statement-breakpoint
CREATE TABLE "digest_days" (
	"workspace_id" text NOT NULL,
	"day" text NOT NULL,
	"claimed_at" text NOT NULL,
	"mailed_at" text,
	CONSTRAINT "digest_days_workspace_id_day_pk" PRIMARY KEY("workspace_id","day")
);
--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" text NOT NULL,
	"available_at" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_id" text,
	"claimed_until" text,
	"done_at" text,
	"last_error" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "github_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"received_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "github_installations" (
	"repository" text NOT NULL,
	"installation_id" bigint NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "github_links" (
	"workspace_id" text NOT NULL,
	"repository" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preview_targets" (
	"run_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"repository" text NOT NULL,
	"pull_number" integer NOT NULL,
	"installation_id" bigint NOT NULL,
	"head_sha" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_version_id_agent_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."agent_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "developer_tokens" ADD CONSTRAINT "developer_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environment_secrets" ADD CONSTRAINT "environment_secrets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_version_id_agent_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."agent_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hourly_sends" ADD CONSTRAINT "hourly_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_events" ADD CONSTRAINT "membership_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_verification_id_phone_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."phone_verifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_verifications" ADD CONSTRAINT "phone_verifications_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "senders" ADD CONSTRAINT "senders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_numbers" ADD CONSTRAINT "test_numbers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_cases" ADD CONSTRAINT "eval_cases_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_cases" ADD CONSTRAINT "eval_cases_origin_flag_id_flags_id_fk" FOREIGN KEY ("origin_flag_id") REFERENCES "public"."flags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_events" ADD CONSTRAINT "flag_events_flag_id_flags_id_fk" FOREIGN KEY ("flag_id") REFERENCES "public"."flags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_executions" ADD CONSTRAINT "eval_executions_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_executions" ADD CONSTRAINT "eval_executions_case_id_eval_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."eval_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_executions" ADD CONSTRAINT "eval_executions_replay_chat_id_chats_id_fk" FOREIGN KEY ("replay_chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_overrides" ADD CONSTRAINT "eval_overrides_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_overrides" ADD CONSTRAINT "eval_overrides_case_id_eval_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."eval_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_version_id_agent_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."agent_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_days" ADD CONSTRAINT "digest_days_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "github_links" ADD CONSTRAINT "github_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_targets" ADD CONSTRAINT "preview_targets_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_targets" ADD CONSTRAINT "preview_targets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_versions_hash_idx" ON "agent_versions" USING btree ("workspace_id","content_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_versions_number_idx" ON "agent_versions" USING btree ("workspace_id","number");--> statement-breakpoint
CREATE INDEX "chat_messages_chat_idx" ON "chat_messages" USING btree ("chat_id","seq");--> statement-breakpoint
CREATE INDEX "chats_inbox_idx" ON "chats" USING btree ("workspace_id","replay","created_at");--> statement-breakpoint
CREATE INDEX "developer_tokens_user_idx" ON "developer_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_idx" ON "invitations" USING btree ("workspace_id","email") WHERE "invitations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "membership_events_workspace_idx" ON "membership_events" USING btree ("workspace_id","at");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_outbox_due_idx" ON "message_outbox" USING btree ("next_attempt_at") WHERE "message_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "message_outbox_number_idx" ON "message_outbox" USING btree ("workspace_id","phone_number","created_at");--> statement-breakpoint
CREATE INDEX "message_outbox_verification_idx" ON "message_outbox" USING btree ("verification_id");--> statement-breakpoint
CREATE INDEX "message_outbox_provider_idx" ON "message_outbox" USING btree ("provider_message_id") WHERE "message_outbox"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX "phone_verifications_number_idx" ON "phone_verifications" USING btree ("workspace_id","phone_number","status");--> statement-breakpoint
CREATE INDEX "eval_cases_agent_idx" ON "eval_cases" USING btree ("workspace_id","agent") WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "eval_cases_flag_idx" ON "eval_cases" USING btree ("origin_flag_id") WHERE "eval_cases"."deleted_at" is null and "eval_cases"."origin_flag_id" is not null;--> statement-breakpoint
CREATE INDEX "flag_events_flag_idx" ON "flag_events" USING btree ("flag_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "flags_live_message_idx" ON "flags" USING btree ("message_id") WHERE "flags"."status" <> 'removed';--> statement-breakpoint
CREATE INDEX "flags_workspace_idx" ON "flags" USING btree ("workspace_id","status","created_at");--> statement-breakpoint
CREATE INDEX "flags_chat_idx" ON "flags" USING btree ("chat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "eval_executions_run_idx" ON "eval_executions" USING btree ("run_id","case_id","attempt");--> statement-breakpoint
CREATE INDEX "eval_executions_open_idx" ON "eval_executions" USING btree ("run_id","attempt","id") WHERE "eval_executions"."status" in ('pending', 'leased');--> statement-breakpoint
CREATE INDEX "eval_executions_leased_idx" ON "eval_executions" USING btree ("run_id","lease_until") WHERE "eval_executions"."status" = 'leased';--> statement-breakpoint
CREATE INDEX "eval_runs_environment_idx" ON "eval_runs" USING btree ("workspace_id","environment","created_at","id");--> statement-breakpoint
CREATE INDEX "eval_runs_workspace_idx" ON "eval_runs" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "eval_runs_finished_idx" ON "eval_runs" USING btree ("workspace_id","environment","finished_at","id") WHERE "eval_runs"."status" = 'finished';--> statement-breakpoint
CREATE INDEX "eval_runs_open_idx" ON "eval_runs" USING btree ("created_at") WHERE "eval_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "digest_days_mailed_idx" ON "digest_days" USING btree ("workspace_id","mailed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "event_outbox_key_idx" ON "event_outbox" USING btree ("kind","key");--> statement-breakpoint
CREATE INDEX "event_outbox_open_idx" ON "event_outbox" USING btree ("available_at","id") WHERE "event_outbox"."done_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "github_installations_repository_idx" ON "github_installations" USING btree (lower("repository"));--> statement-breakpoint
CREATE INDEX "github_installations_installation_idx" ON "github_installations" USING btree ("installation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "github_links_repository_idx" ON "github_links" USING btree (lower("repository"));--> statement-breakpoint
CREATE INDEX "github_links_workspace_idx" ON "github_links" USING btree ("workspace_id");