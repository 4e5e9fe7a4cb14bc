import type { ModelProvider } from '../transcript.ts';

/** One call to a model as metrics count it: which provider, for what, how it ended and how long it took. */
export interface ModelCall {
  /** `openai`, `anthropic` or `scripted`; never the model's name, which customers choose. */
  provider: string;
  /** An agent's turn, or a judge's grading. */
  purpose: 'agent' | 'judge';
  /** `error` when the call failed after the client's retries. */
  outcome: 'ok' | 'error';
  seconds: number;
}

export type ModelCallObserver = (call: ModelCall) => void;

/** The provider, telling `observe` of each of its calls as it ends; the provider itself without an observer. */
export function observed(
  provider: ModelProvider,
  name: string,
  purpose: ModelCall['purpose'],
  observe: ModelCallObserver | undefined,
): ModelProvider {
  if (!observe) return provider;
  return {
    family: provider.family,
    model: provider.model,
    async next(request) {
      const started = performance.now();
      let outcome: ModelCall['outcome'] = 'error';
      try {
        const turn = await provider.next(request);
        outcome = 'ok';
        return turn;
      } finally {
        observe({ provider: name, purpose, outcome, seconds: (performance.now() - started) / 1000 });
      }
    },
  };
}
