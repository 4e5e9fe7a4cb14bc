/** A part of the PostgreSQL store still to be written: every call on it throws. */
export function notBuilt<T>(part: string, keys: (keyof T & string)[]): T {
  const fail = () => {
    throw new Error(`the PostgreSQL store's ${part} part is not built`);
  };
  return Object.fromEntries(keys.map((key) => [key, new Proxy({}, { get: () => fail })])) as T;
}
