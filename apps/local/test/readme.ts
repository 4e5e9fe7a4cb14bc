import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root, where the README's commands run. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The fenced blocks of one language in a `## ` section of the README, in order, as written. */
export function readmeBlocks(heading: string, language: string): string[] {
  const readme = readFileSync(`${repositoryRoot}README.md`, 'utf8');
  const start = readme.indexOf(`\n## ${heading}`);
  if (start === -1) throw new Error(`the README has no section ${heading}`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
}

/**
 * A bash script that runs each line of `blocks` as typed in an interactive shell (aliases expand), and after each
 * writes its exit code as `[exit N]`, so a test sees which command did what.
 */
export function shellScript(...blocks: string[]): string {
  const lines = blocks.flatMap((block) => block.split('\n').filter((line) => line.trim() !== ''));
  return ['shopt -s expand_aliases', ...lines.flatMap((line) => [line, `printf '\\n[exit %s]\\n' "$?"`])].join('\n');
}

/** The exit codes a `shellScript` wrote, in order. */
export const exitCodesOf = (output: string): number[] => [...output.matchAll(/^\[exit (\d+)\]$/gm)].map((match) => Number(match[1]));
