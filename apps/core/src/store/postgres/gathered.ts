/**
 * Calls of `run` gathered while the event loop's I/O callbacks run, made as one call once they have (setImmediate):
 * each caller gets the one answer. A failure fails every caller of that call.
 */
export function gathered<T, R>(run: (items: T[]) => Promise<R>): (item: T) => Promise<R> {
  let pending: { items: T[]; answer: Promise<R> } | undefined;
  return (item) => {
    if (!pending) {
      const batch: T[] = [];
      pending = {
        items: batch,
        answer: new Promise<R>((resolve, reject) =>
          setImmediate(() => {
            pending = undefined;
            run(batch).then(resolve, reject);
          }),
        ),
      };
    }
    pending.items.push(item);
    return pending.answer;
  };
}
