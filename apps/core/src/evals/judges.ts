import { modelFamily } from '@svc/agent-runtime';
import { DomainError } from '@svc/domain';

/** The grader a run names when no judge model is configured. */
export const deterministicGrader = 'deterministic';

const familyOf = (model: string) => {
  const [provider = '', ...rest] = model.split(':');
  return modelFamily(provider, rest.join(':'));
};

/**
 * The judge of an agent: the first of `judges` (SVC_JUDGE_MODELS, in order) of another model family than the agent's
 * model; null (the deterministic grader) when no judge is configured. A judge of the agent's own family would grade
 * its own kind, so when every judge is, the run does not start.
 */
export function judgeFor(agentModel: string, judges: readonly string[]): string | null {
  if (judges.length === 0) return null;
  const family = familyOf(agentModel);
  const judge = judges.find((candidate) => familyOf(candidate) !== family);
  if (judge) return judge;
  throw new DomainError(
    'judge_family_conflict',
    `the agent's model ${agentModel} is of the ${family} family, like every judge in SVC_JUDGE_MODELS (${judges.join(', ')}); add a judge of another family`,
    { details: { agent_model: agentModel, judges: [...judges] } },
  );
}
