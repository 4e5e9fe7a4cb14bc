import type { EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import { Presets, SingleBar } from 'cli-progress';
import { caseName } from './case-name.ts';

/** What is known of a run while it goes on: its counts and the results so far. */
export type RunState = Pick<EvalRunDetailView, 'cases' | 'done' | 'passed' | 'failed' | 'errors' | 'results'>;

/** What the user sees while a run goes on: a bar on a terminal, else a line per finished case. */
export interface RunProgress {
  update(run: RunState): void;
  stop(): void;
}

const counts = (run: Pick<EvalRunView, 'passed' | 'failed' | 'errors'>) => ({
  passed: run.passed,
  failed: run.failed,
  errors: `${run.errors} error${run.errors === 1 ? '' : 's'}`,
});

function bar(started: EvalRunView, stream: NodeJS.WriteStream): RunProgress {
  const progress = new SingleBar(
    { stream, format: '{bar} {value}/{total} cases | {passed} passed | {failed} failed | {errors}', hideCursor: true },
    Presets.shades_classic,
  );
  progress.start(started.cases, started.done, counts(started));
  return {
    update: (run) => progress.update(run.done, counts(run)),
    stop: () => progress.stop(),
  };
}

function line(result: EvalResultView, index: number, cases: number): string {
  const repeats = `${result.repeats.passed}/${result.repeats.total}`;
  const notes = [result.regression ? 'regression' : undefined, result.flaky ? `flaky ${repeats}` : undefined].filter(Boolean);
  return `${index}/${cases} ${result.verdict} ${caseName(result)}${notes.length ? `, ${notes.join(', ')}` : ''}\n`;
}

/** For CI logs and pipes: each case once, as its result appears. */
function lines(stream: NodeJS.WritableStream): RunProgress {
  const seen = new Set<string>();
  return {
    update(run) {
      for (const result of run.results) {
        if (seen.has(result.case_id)) continue;
        seen.add(result.case_id);
        stream.write(line(result, seen.size, run.cases));
      }
    },
    stop: () => undefined,
  };
}

export const silentProgress: RunProgress = { update: () => undefined, stop: () => undefined };

export function runProgress(started: EvalRunView, stream: NodeJS.WriteStream = process.stderr): RunProgress {
  return stream.isTTY ? bar(started, stream) : lines(stream);
}
