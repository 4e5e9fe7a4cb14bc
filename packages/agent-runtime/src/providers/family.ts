/** The family of a model, from its name: what "a judge of another family" compares. */
export function modelFamily(provider: string, model: string): string {
  const name = model.toLowerCase();
  if (provider === 'scripted') return 'scripted';
  if (provider === 'anthropic' || name.includes('claude')) return 'anthropic';
  const families: [RegExp, string][] = [
    [/^(gpt|o\d|chatgpt|text-)/, 'openai'],
    [/llama/, 'meta'],
    [/qwen/, 'qwen'],
    [/mistral|mixtral|ministral/, 'mistral'],
    [/gemma|gemini/, 'google'],
    [/deepseek/, 'deepseek'],
    [/phi/, 'microsoft'],
  ];
  return families.find(([pattern]) => pattern.test(name))?.[1] ?? provider;
}
