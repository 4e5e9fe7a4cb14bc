export interface OrderAgentOptions {
  /** Where the tool calls, before `/orders/<id>`; may use `{{secrets.NAME}}`. */
  url: string;
  /** The tool's headers, as YAML flow mapping text, e.g. `{ X-Api-Key: "{{secrets.SHOP_KEY}}" }`. */
  headers?: string;
  reply?: string;
  fallback?: string;
}

/** A workspace's repository: a scripted support agent whose one tool asks the customer's backend about an order. */
export function orderAgent({
  url,
  headers,
  reply = 'Order {{match.1}} is {{tool.status}}.',
  fallback = 'Hello from support.',
}: OrderAgentOptions): Record<string, string> {
  return {
    'svc.yaml': 'workspace: acme\n',
    'agents/support/agent.yaml': `name: Support
model: scripted
tools:
  - name: order_status
    description: Order status
    url: "${url}/orders/{{args.id}}"
${headers ? `    headers: ${headers}\n` : ''}scripted:
  rules:
    - when: "order ([\\\\w-]+)"
      tool: order_status
      args: { id: "{{match.1}}" }
      reply: "${reply}"
  fallback: ${fallback}
`,
    'agents/support/instructions.md': 'Help with orders.',
  };
}
