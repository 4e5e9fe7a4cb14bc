import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time a call may spend waiting on the database, all its waits together: for a connection, for a batch of other
 * calls' writes it joined, and for its statements, locks included. Time between them (a model's answer, a long
 * poll's wait) is not counted: a chat turn that waits a minute for its model has its budget for its writes.
 */
export class CallBudget {
  private spentMs = 0;
  private waits = 0;
  private since = 0;
  /** Whether the call still runs: work it set off and left running (a delivery it woke) is not held to its budget. */
  open = true;

  constructor(private readonly limitMs: number) {}

  /** When the budget runs out (performance.now()), the call waiting from now on. */
  deadline(now = performance.now()): number {
    return now + this.limitMs - this.spentMs - (this.waits > 0 ? now - this.since : 0);
  }

  /** Counts the time from now until the returned `leave` (called once or more) as time the call waits. */
  enter(): () => void {
    if (this.waits++ === 0) this.since = performance.now();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.waits === 0) this.spentMs += performance.now() - this.since;
    };
  }
}

/** The answer to a call that had spent its database time: as a statement timeout is, 503 `core_unavailable`. */
export class DatabaseDeadlinePassed extends Error {
  constructor(options?: ErrorOptions) {
    super("the call's time for the database ran out", options);
    this.name = 'DatabaseDeadlinePassed';
  }
}

// Node 20 propagates every AsyncLocalStorage's store to each promise a call makes: a property copied per promise,
// beside the request id's.
const budgets = new AsyncLocalStorage<CallBudget | undefined>();

/** Runs `work` with `budget` until it settles. */
async function within<T>(budget: CallBudget | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await budgets.run(budget, work);
  } finally {
    if (budget) budget.open = false;
  }
}

/** Runs `work` (one call) with `limitMs` of database time. */
export const withCallBudget = <T>(limitMs: number, work: () => Promise<T>): Promise<T> => within(new CallBudget(limitMs), work);

/**
 * Runs `work` (a batch made for several calls) with what is left to the most pressed of them, until `deadline`
 * (performance.now()); without a deadline, with none, whichever call's context it was started in.
 */
export const untilDeadline = <T>(deadline: number | undefined, work: () => Promise<T>): Promise<T> =>
  within(deadline === undefined ? undefined : new CallBudget(deadline - performance.now()), work);

/**
 * The budget of the call being run, if any: background work has none, and each statement its own deadline. Work a
 * call set off (a timer, a loop it woke) runs in its context, but has none once the call has ended.
 */
export function currentBudget(): CallBudget | undefined {
  const budget = budgets.getStore();
  return budget?.open ? budget : undefined;
}
