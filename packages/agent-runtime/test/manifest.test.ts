import { describe, expect, it } from 'vitest';
import { contentHash, ManifestError, parseBundle } from '../src/index.ts';

const valid = {
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml': 'name: Support\nmodel: openai:gpt-4.1-mini\n',
  'agents/support/instructions.md': 'Be kind.',
  'agents/support/knowledge/faq.md': 'Q: hours? A: 9 to 5.',
};

function issuesOf(files: Record<string, string>) {
  try {
    parseBundle(files);
  } catch (error) {
    if (error instanceof ManifestError) return error.issues;
    throw error;
  }
  throw new Error('expected a ManifestError');
}

describe('manifests', () => {
  it('read a workspace and its agents, with instructions and knowledge', () => {
    const bundle = parseBundle(valid);
    expect(bundle.workspace).toEqual({ workspace: 'acme', agent: true });
    expect(bundle.agents).toEqual([
      expect.objectContaining({
        slug: 'support',
        instructions: 'Be kind.',
        knowledge: [{ path: 'knowledge/faq.md', content: 'Q: hours? A: 9 to 5.' }],
      }),
    ]);
    expect(bundle.agents[0]!.manifest.tools).toEqual([]);
  });

  it('accept a verification-only workspace without agents', () => {
    expect(parseBundle({ 'svc.yaml': 'workspace: otp-only\nagent: false\n' }).agents).toEqual([]);
  });

  it('name the file, the path inside it and what was expected, for every error at once', () => {
    const issues = issuesOf({
      'svc.yaml': 'workspace: Acme Inc\nextra: 1\n',
      'agents/support/agent.yaml': 'name: Support\nmodel: gpt4\ntools:\n  - name: x\n    description: d\n    url: 42\n',
      'agents/support/instructions.md': '',
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: 'svc.yaml', path: 'workspace', message: expect.stringContaining('expected a slug') },
        { file: 'svc.yaml', path: '', message: expect.stringContaining('extra') },
        { file: 'agents/support/agent.yaml', path: 'model', message: expect.stringContaining('"openai:<model>"') },
        { file: 'agents/support/agent.yaml', path: 'tools[0].url', message: expect.stringContaining('expected string') },
      ]),
    );
  });

  it('report YAML syntax errors with the line, a missing instructions file, and a scripted rule naming no tool', () => {
    expect(issuesOf({ ...valid, 'svc.yaml': 'workspace: [acme\n' })[0]).toMatchObject({
      file: 'svc.yaml',
      message: expect.stringMatching(/not valid YAML \(line \d+\)/),
    });
    expect(issuesOf({ ...valid, 'agents/support/instructions.md': undefined as unknown as string })).toEqual([
      { file: 'agents/support/agent.yaml', path: 'instructions', message: 'agents/support/instructions.md does not exist' },
    ]);
    const scripted = issuesOf({
      ...valid,
      'agents/support/agent.yaml':
        'name: S\nmodel: scripted\nscripted:\n  rules:\n    - when: hi\n      tool: nope\n      reply: x\n  fallback: f\n',
    });
    expect(scripted).toEqual([
      { file: 'agents/support/agent.yaml', path: 'scripted.rules[0].tool', message: 'no tool named "nope" in tools' },
    ]);
  });

  it('refuse a rule whose regular expression does not compile, or needs backtracking, naming where it is', () => {
    const rule = (when: string) =>
      `name: S\nmodel: scripted\nscripted:\n  rules:\n    - when: "hi"\n      reply: x\n    - when: ${JSON.stringify(when)}\n      reply: y\n  fallback: f\n`;
    expect(issuesOf({ ...valid, 'agents/support/agent.yaml': rule('(') })).toEqual([
      { file: 'agents/support/agent.yaml', path: 'scripted.rules[1].when', message: expect.stringContaining('missing )') },
    ]);
    for (const needsBacktracking of ['(\\w)\\1', 'order (?!A-)', '(?<=x)y']) {
      expect(issuesOf({ ...valid, 'agents/support/agent.yaml': rule(needsBacktracking) })[0]).toMatchObject({
        path: 'scripted.rules[1].when',
        message: expect.stringContaining('lookarounds and backreferences are not supported'),
      });
    }
    expect(parseBundle({ ...valid, 'agents/support/agent.yaml': rule('^(a+)+$') }).agents[0]!.manifest.scripted!.rules[1]!.when).toBe(
      '^(a+)+$',
    );
  });

  it('hash the content, whatever the order of the files', () => {
    const reversed = Object.fromEntries(Object.entries(valid).reverse());
    expect(contentHash(reversed)).toBe(contentHash(valid));
    expect(contentHash({ ...valid, 'agents/support/instructions.md': 'Be kinder.' })).not.toBe(contentHash(valid));
  });
});
