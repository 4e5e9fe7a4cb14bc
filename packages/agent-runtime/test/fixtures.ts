import type { AgentDefinition, EgressRules } from '../src/index.ts';
import { parseBundle } from '../src/index.ts';

/** A support agent whose one tool calls the customer's backend with a secret. */
export function supportAgent(model: string, backendUrl: string): AgentDefinition {
  const bundle = parseBundle({
    'svc.yaml': 'workspace: acme\n',
    'agents/support/agent.yaml': `
name: Support
model: "${model}"
tools:
  - name: order_status
    description: The status of an order
    url: "${backendUrl}/orders/{{args.order_id}}"
    headers:
      Authorization: "Bearer {{secrets.BACKEND_TOKEN}}"
    parameters:
      type: object
      properties: { order_id: { type: string } }
      required: [order_id]
scripted:
  rules:
    - when: "order ([\\\\w-]+)"
      tool: order_status
      args: { order_id: "{{match.1}}" }
      reply: "Order {{match.1}} is {{tool.status}}."
    - when: "return"
      search: "{{match.0}} policy"
      reply: "{{knowledge}}"
  fallback: "I can help with orders and returns."
`,
    'agents/support/instructions.md': 'You are the support agent of Acme. Be brief.',
    'agents/support/knowledge/returns.md':
      '# Returns\n\nReturns are accepted within 30 days of delivery, with the receipt.\n\nShipping is free above 50 dollars.',
  });
  return bundle.agents[0]!;
}

export const secrets = { BACKEND_TOKEN: 'sk-backend-very-secret' };

/** The fake backends of these tests listen on 127.0.0.1, as a developer's own backend does in local mode. */
export const localNetwork: EgressRules = { allowPrivateNetworks: true, platformPorts: new Set() };
