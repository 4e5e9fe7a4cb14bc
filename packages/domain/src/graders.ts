import { z } from 'zod';

/** How far back the agreement of graders with people looks when not told. */
export const defaultGraderDays = 90;
export const maxGraderDays = 365;

/**
 * Below this agreement, over this many reviewed results at least, a grader's verdicts are not to be taken on trust:
 * a run's report and its pull request comment say so. Fewer reviews say too little either way.
 */
export const graderCare = { agreement: 0.8, reviewed: 20 } as const;

export const graderQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxGraderDays)
    .default(defaultGraderDays)
    .meta({ description: `The days of reviews to count, back from now: 1 to ${maxGraderDays}, ${defaultGraderDays} when left out` }),
});

/** How often a grader's verdict matched a person's, over the results people gave a verdict on. */
export const graderAgreement = z
  .object({
    grader: z.string().meta({ description: 'The judge model, e.g. `anthropic:claude-sonnet-4-6`, or `deterministic`' }),
    reviewed: z.number().int().meta({
      description:
        "Results a person gave a pass or fail in the window, overriding the grader's verdict or confirming it; results the grader could not grade (errors) are not counted",
    }),
    agreed: z.number().int().meta({ description: "Reviewed results whose person's verdict is the grader's" }),
    agreement: z.number().meta({ description: '`agreed` / `reviewed`, 0 to 1' }),
    interval: z
      .object({ low: z.number(), high: z.number() })
      .meta({ description: 'The Wilson score interval of the agreement at 95 %, 0 to 1' }),
    grader_pass_person_fail: z.number().int().meta({ description: 'Results the grader passed and a person failed' }),
    grader_fail_person_pass: z.number().int().meta({ description: 'Results the grader failed and a person passed' }),
  })
  .meta({ id: 'GraderAgreement' });
export type GraderAgreementView = z.infer<typeof graderAgreement>;

export const graderAgreementList = z
  .object({
    days: z.number().int(),
    since: z.iso.datetime().meta({ description: 'Reviews from this moment on are counted: the start of a UTC day' }),
    graders: z.array(graderAgreement).meta({ description: 'Every grader with a reviewed result, the most reviewed first' }),
  })
  .meta({ id: 'GraderAgreementList' });
export type GraderAgreementListView = z.infer<typeof graderAgreementList>;

/** A rate (0 to 1) as the whole percent people read. */
export const percent = (rate: number): number => Math.round(rate * 100);

/** A grader whose verdicts people overturn too often to be trusted without a look. */
export const needsCare = (grader: GraderAgreementView): boolean =>
  grader.reviewed >= graderCare.reviewed && grader.agreement < graderCare.agreement;
