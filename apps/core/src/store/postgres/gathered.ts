interface Batch<T, R> {
  items: T[];
  keys: Set<string>;
  answers: { resolve: (answer: R) => void; reject: (error: unknown) => void }[];
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
    for (const { items, answers } of batches) {
      run(items).then(
        (results) => answers.forEach((answer, i) => answer.resolve(results[i]!)),
        (error: unknown) => answers.forEach((answer) => answer.reject(error)),
      );
    }
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
    return new Promise<R>((resolve, reject) => batch.answers.push({ resolve, reject }));
  };
}

interface Waiting<T, R> {
  item: T;
  lane: string;
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
}

/**
 * As `gathered`, for writes whose items wait on each other by `lane` in the database (a workspace's creates, which
 * take its hour's lock): an item whose lane a run is making waits for that run to end, then goes in the next run with
 * every item of its lane that came meanwhile. So a busy lane's runs grow with its load, one at a time, rather than
 * queueing on its lock in the database one small run after another, each holding a connection. Items of lanes no run
 * is making go at once, together.
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
    run(ready.map((one) => one.item))
      .then(
        (results) => ready.forEach((one, i) => one.resolve(results[i]!)),
        (error: unknown) => ready.forEach((one) => one.reject(error)),
      )
      .finally(() => {
        for (const taken of lanes) running.delete(taken);
        if (waiting.length > 0) schedule();
      });
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, lane: lane(item), resolve, reject });
      schedule();
    });
}
