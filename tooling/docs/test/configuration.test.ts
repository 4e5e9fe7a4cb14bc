import { describe, expect, it } from 'vitest';
import { variablesByProcess, variablesDocumented } from '../src/variables.ts';

const document = 'docs/configuration.md';

describe(`${document}\u2019s tables of variables, against what the processes read`, () => {
  const read = variablesByProcess();
  const documented = variablesDocumented(document);

  it('finds the variables each process reads', () => {
    expect(read.core).toEqual(expect.arrayContaining(['CORE_PORT', 'SVC_DATABASE_URL', 'SVC_SECRET_KEY']));
    expect(read.gateway).toEqual(expect.arrayContaining(['PORT', 'CORE_URLS', 'SVC_CORE_SILENCE_MS']));
    expect(read['eval runner']).toEqual(expect.arrayContaining(['EVAL_CONCURRENCY', 'CORE_URL']));
    expect(read['GitHub App']).toEqual(expect.arrayContaining(['GITHUB_APP_ID', 'GITHUB_PRIVATE_KEY']));
    expect(read['pnpm start']).toEqual(expect.arrayContaining(['DEMO_BACKEND_PORT']));
    expect(read['every process (its logger)']).toEqual(['LOG_LEVEL', 'LOG_FORMAT']);
  });

  it('documents every variable a process reads', () => {
    const undocumented = Object.entries(read).flatMap(([process, names]) =>
      names.filter((name) => !documented.includes(name)).map((name) => `${name} (${process})`),
    );
    expect(undocumented).toEqual([]);
  });

  it('documents no variable that no process reads', () => {
    const all = new Set(Object.values(read).flat());
    expect(documented.filter((name) => !all.has(name))).toEqual([]);
  });
});
