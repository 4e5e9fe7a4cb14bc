import { type EvalRunView, type GraderAgreementView, needsCare, percent } from '@svc/domain';
import { inline } from './markdown.ts';

/** Who graded, as the sentence names it. */
const graderName = (grader: string) => (grader === 'deterministic' ? 'The deterministic grader' : `Judge ${inline(grader)}`);

/**
 * One line for each grader of the run that people overturn too often (`needsCare`), with its agreement and interval:
 * its verdicts, failures above all, want a person's look before they are believed.
 */
export function graderCare(run: Pick<EvalRunView, 'grader'>, graders: GraderAgreementView[] = []): string[] {
  const ofRun = new Set(run.grader.split(','));
  return graders
    .filter((g) => ofRun.has(g.grader) && needsCare(g))
    .map(
      (g) =>
        `${graderName(g.grader)} agrees with people on ${percent(g.agreement)} % of ${g.reviewed} reviewed results (95 % CI ${percent(g.interval.low)}–${percent(g.interval.high)} %): read its failures with care.`,
    );
}
