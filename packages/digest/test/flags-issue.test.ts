import { describe, expect, it } from 'vitest';
import { githubBodyLimit } from '@svc/domain';
import { renderFlagsDigest, renderFlagsIssue } from '../src/index.ts';
import { flag } from './flag-fixtures.ts';
import { expectGolden } from './golden.ts';

const flagsUrl = 'http://localhost:8080/api/developer/v1/acme/flags.md';

/** Flags of three agents whose notes are long, as a workspace that let its flags pile up has them. */
const piled = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    flag({
      id: `flg_${String(i).padStart(4, '0')}`,
      agent: ['billing', 'sales', 'support'][i % 3],
      created_at: `2026-06-01T12:${String(i % 60).padStart(2, '0')}:00.000Z`,
      note: `Case ${i}: returns are accepted within 30 days of delivery; after that, offer store credit. `.repeat(12),
    }),
  );

describe('service-flags issue body', () => {
  it('a digest that fits is the digest, exactly as svc flags prints it', () => {
    const flags = piled(3);
    const body = expectGolden('flags-issue', renderFlagsIssue({ workspace: 'acme', flags, flagsUrl }));
    expect(body).toBe(renderFlagsDigest({ workspace: 'acme', flags }));
    expect(body).not.toContain(flagsUrl);
  });

  it('a huge digest: the first flags whole, the rest left to flags.md, linked where the index stops', () => {
    const flags = piled(400);
    expect(renderFlagsDigest({ workspace: 'acme', flags }).length).toBeGreaterThan(githubBodyLimit);
    const body = expectGolden('flags-issue-huge', renderFlagsIssue({ workspace: 'acme', flags, flagsUrl }));
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(body.length).toBeGreaterThan(githubBodyLimit - 5_000);
    const sections = [...body.matchAll(/<a id="(flg_\d+)"><\/a>/g)].map((m) => m[1]);
    const indexed = [...body.matchAll(/^- \[`(flg_\d+)`\]/gm)].map((m) => m[1]);
    // Every flag shown is indexed, and every indexed flag is shown: no link points at a flag left out.
    expect([...sections].sort()).toEqual([...indexed].sort());
    expect(body).toContain(
      `_This issue shows ${sections.length} flags of the digest's 400; the digest, with every one, is [flags.md](${flagsUrl})._`,
    );
    expect(body).toContain(`## 400 open flags, the newest ${sections.length} below`);
    // A section is never cut in half: the last one shown ends with its whole note.
    expect(body.trimEnd()).toMatch(/offer store credit\. \n```$/);
  });
});
