import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, startApp, stopProcesses, tempDir } from '@svc/testkit';
import { afterAll, afterEach, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
afterEach(stopProcesses);
afterAll(removeTempDirs);

it('names each bad variable and what it read, but never a secret: a URL with its password masked, a key not at all', async () => {
  const core = startApp(main, {
    SVC_DATA_DIR: tempDir(),
    SVC_SECRET_KEY: randomBytes(32).toString('base64'),
    CORE_PORT: 'eighty',
    SMTP_URL: 'smtp//ada:hunter2@mail.example',
    OPENAI_API_KEY: '',
    SVC_DATABASE_URL: 'mysql://svc:hunter3@db.example/svc',
  });
  expect(await core.exited).toBe(78);
  const stderr = core.output('stderr');
  expect(stderr).toContain('invalid configuration');
  expect(stderr).toContain('CORE_PORT: expected a port number (got "eighty")');
  expect(stderr).toContain('(got "smtp//ada:***@mail.example")');
  expect(stderr).toContain('(got "mysql://svc:***@db.example/svc")');
  expect(stderr).not.toMatch(/hunter[23]/);
});
