DROP INDEX "eval_cases_agent_idx";--> statement-breakpoint
DROP INDEX "flags_workspace_idx";--> statement-breakpoint
CREATE INDEX "eval_cases_workspace_idx" ON "eval_cases" USING btree ("workspace_id","created_at","id") WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "flags_created_idx" ON "flags" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "flags_agent_idx" ON "flags" USING btree ("workspace_id","agent","status","created_at","id");--> statement-breakpoint
CREATE INDEX "flags_open_idx" ON "flags" USING btree ("id") WHERE "flags"."status" = 'open';--> statement-breakpoint
CREATE INDEX "eval_cases_agent_idx" ON "eval_cases" USING btree ("workspace_id","agent","created_at","id") WHERE "eval_cases"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "flags_workspace_idx" ON "flags" USING btree ("workspace_id","status","created_at","id");