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
