-- The author of the versions the GitHub App deploys: a user no one signs in as (its "email" is no address, so no
-- sign-in link can reach it), shown as the author of a pull request's preview.
INSERT INTO "users" ("id", "email", "created_at") VALUES ('usr_github_app', 'GitHub App', '2026-11-26T00:00:00.000Z');
