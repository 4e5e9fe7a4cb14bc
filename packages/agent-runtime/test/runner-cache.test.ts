import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AgentRunner, AgentRunnerCache } from '../src/index.ts';
import { localNetwork, supportAgent } from './fixtures.ts';

describe('the runner cache', () => {
  it('builds a runner once, and keeps at most maxRunners, dropping the least recently used', async () => {
    const cache = new AgentRunnerCache({ maxRunners: 2 });
    const built: string[] = [];
    const runner = (key: string) =>
      cache.get(key, async () => {
        built.push(key);
        return new AgentRunner(supportAgent('scripted', 'http://127.0.0.1:1'), {}, localNetwork);
      });
    const v1 = await runner('v1');
    await runner('v2');
    expect(await runner('v1')).toBe(v1);
    await runner('v3'); // v2 is the least recently used
    expect(cache.size).toBe(2);
    await runner('v1');
    await runner('v2');
    expect(built).toEqual(['v1', 'v2', 'v3', 'v2']);
  });

  it('builds a runner once when many turns ask for it at the same time, and again after a failed build', async () => {
    const cache = new AgentRunnerCache();
    let builds = 0;
    const build = async () => {
      builds++;
      await sleep(10);
      if (builds === 1) throw new Error('core did not answer');
      return new AgentRunner(supportAgent('scripted', 'http://127.0.0.1:1'), {}, localNetwork);
    };
    const failed = await Promise.allSettled([cache.get('v1', build), cache.get('v1', build)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const runners = await Promise.all(Array.from({ length: 8 }, () => cache.get('v1', build)));
    expect(new Set(runners).size).toBe(1);
    expect(builds).toBe(2);
  });

  it('keeps the agents it holds within maxChars of text', async () => {
    const agent = supportAgent('scripted', 'http://127.0.0.1:1');
    const chars =
      agent.instructions.length +
      JSON.stringify(agent.manifest).length +
      agent.knowledge.reduce((n, k) => n + k.path.length + k.content.length, 0);
    const cache = new AgentRunnerCache({ maxRunners: 100, maxChars: chars * 3 });
    for (let version = 1; version <= 10; version++) await cache.get(`v${version}`, async () => new AgentRunner(agent, {}, localNetwork));
    expect(cache.size).toBe(3);
  });
});
