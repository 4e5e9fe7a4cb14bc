import { LRUCache } from 'lru-cache';
import type { AgentDefinition } from './manifest.ts';
import type { AgentRunner } from './runtime.ts';

export interface RunnerCacheLimits {
  /** Runners kept at most. */
  maxRunners?: number;
  /** Characters of instructions, knowledge and manifest kept at most, across runners: a proxy of their memory. */
  maxChars?: number;
}

/** What a runner holds in memory, roughly: its agent's text. */
const charsOf = (agent: AgentDefinition) =>
  Math.max(
    1,
    agent.instructions.length +
      agent.knowledge.reduce((sum, k) => sum + k.path.length + k.content.length, 0) +
      JSON.stringify(agent.manifest).length,
  );

/**
 * Runners by deployed version and agent, built once and reused. Versions are immutable, so a runner never goes
 * stale; past the limits the least recently used are dropped (and built again if needed), so that a platform
 * with many versions does not keep every one in memory.
 */
export class AgentRunnerCache {
  private readonly runners: LRUCache<string, AgentRunner>;
  private readonly building = new Map<string, Promise<AgentRunner>>();

  constructor({ maxRunners = 500, maxChars = 200_000_000 }: RunnerCacheLimits = {}) {
    this.runners = new LRUCache<string, AgentRunner>({
      max: maxRunners,
      maxSize: maxChars,
      sizeCalculation: (runner) => charsOf(runner.agent),
    });
  }

  get size(): number {
    return this.runners.size;
  }

  /** The runner of `key`, built once even when many turns ask for it at the same time. */
  async get(key: string, build: () => Promise<AgentRunner>): Promise<AgentRunner> {
    const cached = this.runners.get(key);
    if (cached) return cached;
    let building = this.building.get(key);
    if (!building) {
      building = build()
        .then((runner) => {
          this.runners.set(key, runner);
          return runner;
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, building);
    }
    return building;
  }
}
