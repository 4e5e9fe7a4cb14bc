CREATE TABLE `eval_results` (
	`run_id` text NOT NULL,
	`case_id` text NOT NULL,
	`total` integer NOT NULL,
	`min_pass` integer NOT NULL,
	`replays` integer NOT NULL,
	`passed` integer NOT NULL,
	`errored` integer NOT NULL,
	`graded` text,
	`verdict` text,
	`baseline` text,
	`regression` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`run_id`, `case_id`),
	FOREIGN KEY (`run_id`) REFERENCES `eval_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`case_id`) REFERENCES `eval_cases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `eval_results_case_idx` ON `eval_results` (`case_id`,`run_id`) WHERE "eval_results"."verdict" = 'pass';--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `cases` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `done` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `passed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `failed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `errors` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `regressions` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `input_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `eval_runs` ADD `output_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `eval_runs_baseline_idx` ON `eval_runs` (`baseline_run_id`) WHERE "eval_runs"."baseline_run_id" is not null;--> statement-breakpoint
CREATE INDEX `mail_outbox_finished_idx` ON `mail_outbox` (`created_at`) WHERE "mail_outbox"."status" <> 'pending';--> statement-breakpoint
CREATE INDEX `message_outbox_finished_idx` ON `message_outbox` (`created_at`) WHERE "message_outbox"."status" <> 'pending';--> statement-breakpoint
CREATE INDEX `sessions_expiry_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `github_deliveries_received_idx` ON `github_deliveries` (`received_at`);--> statement-breakpoint
-- Runs made before their results and counts were kept: derived once from their executions and overrides.
INSERT INTO eval_results (run_id, case_id, total, min_pass, replays, passed, errored)
SELECT e.run_id, e.case_id, count(*), r.min_pass,
  sum(CASE WHEN e.status = 'done' THEN 1 ELSE 0 END),
  sum(CASE WHEN e.status = 'done' AND e.verdict = 'pass' THEN 1 ELSE 0 END),
  sum(CASE WHEN e.status = 'done' AND e.verdict = 'error' THEN 1 ELSE 0 END)
FROM eval_executions e JOIN eval_runs r ON r.id = e.run_id
GROUP BY e.run_id, e.case_id, r.min_pass;--> statement-breakpoint
UPDATE eval_results SET graded = (CASE WHEN passed >= min_pass THEN 'pass' WHEN errored = replays THEN 'error' ELSE 'fail' END)
WHERE replays = total;--> statement-breakpoint
UPDATE eval_results SET verdict = coalesce(
  (SELECT o.verdict FROM eval_overrides o WHERE o.run_id = eval_results.run_id AND o.case_id = eval_results.case_id), graded)
WHERE graded IS NOT NULL;--> statement-breakpoint
UPDATE eval_results SET baseline = (
  SELECT b.verdict FROM eval_runs r JOIN eval_results b ON b.run_id = r.baseline_run_id AND b.case_id = eval_results.case_id
  WHERE r.id = eval_results.run_id);--> statement-breakpoint
UPDATE eval_results SET regression = coalesce(baseline = 'pass' AND verdict = 'fail' AND NOT (graded = 'fail' AND passed > 0
  AND NOT EXISTS (SELECT 1 FROM eval_overrides o WHERE o.run_id = eval_results.run_id AND o.case_id = eval_results.case_id)), false);--> statement-breakpoint
UPDATE eval_runs SET
  cases = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id),
  done = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id AND r.verdict IS NOT NULL),
  passed = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id AND r.verdict = 'pass'),
  failed = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id AND r.verdict = 'fail'),
  errors = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id AND r.verdict = 'error'),
  regressions = (SELECT count(*) FROM eval_results r WHERE r.run_id = eval_runs.id AND r.regression),
  input_tokens = (SELECT coalesce(sum(e.input_tokens), 0) FROM eval_executions e WHERE e.run_id = eval_runs.id),
  output_tokens = (SELECT coalesce(sum(e.output_tokens), 0) FROM eval_executions e WHERE e.run_id = eval_runs.id);
