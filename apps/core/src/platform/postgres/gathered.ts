import { currentBudget, DatabaseDeadlinePassed, untilDeadline } from '../call-budget.ts';

/**
 * Where an item's answer goes, and the database time of the call that asked for it: its wait for the run that makes
 * it counts as the call's, and the run has until the earliest deadline of its items.
 */
interface Answer<R> {
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
  deadline: number | undefined;
}

function answerFor<R>(resolve: (answer: R) => void, reject: (error: unknown) => void): Answer<R> {
  const budget = currentBudget();
  const leave = budget?.enter();
  return {
    resolve: (answer) => (leave?.(), resolve(answer)),
    reject: (error) => (leave?.(), reject(error)),
    deadline: budget?.deadline(),
  };
}

/**
 * Makes `items` with `run`, and answers each: an item whose call has no time left fails at once, and the others' run
 * has until the earliest of their deadlines. Resolves once all are answered.
 */
async function runFor<T, R>(run: (items: T[]) => Promise<R[]>, items: T[], answers: Answer<R>[]): Promise<void> {
  const now = performance.now();
  const live: number[] = [];
  answers.forEach((answer, i) => {
    if (answer.deadline !== undefined && answer.deadline <= now) answer.reject(new DatabaseDeadlinePassed());
    else live.push(i);
  });
  if (live.length === 0) return;
  const deadlines = live.map((i) => answers[i]!.deadline).filter((deadline) => deadline !== undefined);
  const deadline = deadlines.length > 0 ? Math.min(...deadlines) : undefined;
  try {
    const results = await untilDeadline(deadline, () => run(live.map((i) => items[i]!)));
    live.forEach((i, n) => answers[i]!.resolve(results[n]!));
  } catch (error) {
    for (const i of live) answers[i]!.reject(error);
  }
}

interface Batch<T, R> {
  items: T[];
  keys: Set<string>;
  answers: Answer<R>[];
}

/**
 * Calls gathered while the event loop's I/O callbacks run, made together once they have (setImmediate): `run` gets
 * the items and answers each, in order. Given a `key` (the row an item changes), items of the same key go in separate
 * runs, made at the same time, so that each run changes a row once. A run that fails fails its items.
 */
export function gathered<T, R>(run: (items: T[]) => Promise<R[]>, key?: (item: T) => string): (item: T) => Promise<R> {
  let open: Batch<T, R>[] = [];
  const flush = () => {
    const batches = open;
    open = [];
    for (const { items, answers } of batches) void runFor(run, items, answers);
  };
  return (item) => {
    const itemKey = key?.(item);
    let batch = itemKey === undefined ? open[0] : open.find((candidate) => !candidate.keys.has(itemKey));
    if (!batch) {
      if (open.length === 0) setImmediate(flush);
      batch = { items: [], keys: new Set(), answers: [] };
      open.push(batch);
    }
    batch.items.push(item);
    if (itemKey !== undefined) batch.keys.add(itemKey);
    return new Promise<R>((resolve, reject) => batch.answers.push(answerFor(resolve, reject)));
  };
}

interface Waiting<T, R> {
  item: T;
  lane: string;
  answer: Answer<R>;
}

/**
 * As `gathered`, for writes whose items wait on each other by `lane` in the database (a workspace's creates, which
 * take its hour's lock): an item whose lane a run is making waits for that run to end, then goes in the next run with
 * every item of its lane that came meanwhile. So a busy lane's runs grow with its load, one at a time, rather than
 * queueing on its lock in the database one small run after another, each holding a connection. Items of lanes no run
 * is making go at once, together. The wait counts as the item's call's database time, so an item that waited out its
 * call's time behind a run that was held up fails, rather than waiting as long again in its own.
 */
export function gatheredInLanes<T, R>(run: (items: T[]) => Promise<R[]>, lane: (item: T) => string): (item: T) => Promise<R> {
  const running = new Set<string>();
  let waiting: Waiting<T, R>[] = [];
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  const flush = () => {
    scheduled = false;
    const ready = waiting.filter((one) => !running.has(one.lane));
    if (ready.length === 0) return;
    waiting = waiting.filter((one) => running.has(one.lane));
    const lanes = new Set(ready.map((one) => one.lane));
    for (const taken of lanes) running.add(taken);
    void runFor(
      run,
      ready.map((one) => one.item),
      ready.map((one) => one.answer),
    ).finally(() => {
      for (const taken of lanes) running.delete(taken);
      if (waiting.length > 0) schedule();
    });
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, lane: lane(item), answer: answerFor(resolve, reject) });
      schedule();
    });
}
