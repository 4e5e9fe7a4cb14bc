import { knowledgeLookup, toolCallTrace } from '@svc/domain';
import { z } from 'zod';

/** A turn's trace as an agent message keeps it; a message without one (or of another shape) shows no details. */
const storedTurn = z.object({
  tool_calls: z.array(toolCallTrace),
  knowledge_lookups: z.array(knowledgeLookup),
  tokens: z.object({ input: z.number().int(), output: z.number().int() }),
});
type StoredTurn = z.infer<typeof storedTurn>;
type ToolCall = StoredTurn['tool_calls'][number];

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? 'null';
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * What the agent did to write a reply, folded away until opened (a disclosure, no script): each tool call with
 * what it sent and what the backend answered, each knowledge lookup, the tokens. Secrets were replaced by
 * `[secret:NAME]` before the trace was stored.
 */
export function TurnDetails({ trace }: { trace: unknown }) {
  const turn = storedTurn.safeParse(trace);
  if (!turn.success) return <p className="muted">No turn details were recorded for this reply.</p>;
  const { tool_calls: calls, knowledge_lookups: lookups, tokens } = turn.data;
  return (
    <details className="turn">
      <summary>
        Turn details: {plural(calls.length, 'tool call')}, {plural(lookups.length, 'knowledge lookup')}, {tokens.input + tokens.output}{' '}
        tokens
      </summary>
      {calls.map((call, i) => (
        <ToolCallDetails key={i} call={call} />
      ))}
      {lookups.map((lookup, i) => (
        <section key={i} className="step">
          <h3>Knowledge lookup</h3>
          <p>
            Query: <q>{lookup.query}</q>
          </p>
          {lookup.hits.length ? (
            <ol>
              {lookup.hits.map((hit, j) => (
                <li key={j}>
                  <code>{hit.path}</code>
                  <pre>{hit.text}</pre>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">No hits.</p>
          )}
        </section>
      ))}
      <p>
        Tokens: {tokens.input} in, {tokens.output} out
      </p>
    </details>
  );
}

function ToolCallDetails({ call }: { call: ToolCall }) {
  return (
    <section className="step">
      <h3>
        Tool call <code>{call.name}</code>
      </h3>
      <dl>
        <dt>Status</dt>
        <dd>{call.status ?? 'no answer'}</dd>
        <dt>Duration</dt>
        <dd>{call.duration_ms} ms</dd>
        <dt>Request</dt>
        <dd>
          <code>
            {call.request.method} {call.request.url}
          </code>
        </dd>
        {call.error && (
          <>
            <dt>Error</dt>
            <dd className="error">{call.error}</dd>
          </>
        )}
      </dl>
      <h4>Arguments</h4>
      <pre>{json(call.arguments)}</pre>
      <h4>Response</h4>
      <pre>{json(call.response)}</pre>
    </section>
  );
}
