import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';

const src = new URL('../src/', import.meta.url);

// Core is only a devDependency here: the JavaScript of a process that calls core must load nothing of core.
it("compiles to JavaScript that imports nothing of core's", () => {
  const files = readdirSync(src).filter((name) => name.endsWith('.ts'));
  expect(files).toContain('router.ts');
  for (const name of files) {
    const { outputText } = ts.transpileModule(readFileSync(new URL(name, src), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    });
    expect(outputText, name).not.toMatch(/['"]@svc\/core['"/]/);
  }
});
