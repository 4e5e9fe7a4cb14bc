CREATE TABLE "grader_reviews" (
	"workspace_id" text NOT NULL,
	"day" text NOT NULL,
	"grader" text NOT NULL,
	"graded" text NOT NULL,
	"person" text NOT NULL,
	"reviews" integer NOT NULL,
	CONSTRAINT "grader_reviews_workspace_id_day_grader_graded_person_pk" PRIMARY KEY("workspace_id","day","grader","graded","person")
);
--> statement-breakpoint
ALTER TABLE "grader_reviews" ADD CONSTRAINT "grader_reviews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Reviews given before their tallies were kept: counted once from the overrides.
INSERT INTO grader_reviews (workspace_id, day, grader, graded, person, reviews)
SELECT r.workspace_id, substr(o.at, 1, 10),
  coalesce((SELECT e.judge FROM eval_executions e WHERE e.run_id = o.run_id AND e.case_id = o.case_id LIMIT 1), ''),
  x.graded, o.verdict, count(*)
FROM eval_overrides o
JOIN eval_runs r ON r.id = o.run_id
JOIN eval_results x ON x.run_id = o.run_id AND x.case_id = o.case_id
WHERE x.graded IN ('pass', 'fail')
GROUP BY 1, 2, 3, 4, 5;
