export { createGithubApp, type GithubApp, type GithubAppOptions, webhooksPath } from './server.ts';
export { githubOctokit } from './octokit.ts';
