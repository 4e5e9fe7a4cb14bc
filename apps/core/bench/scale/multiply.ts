import type { BenchDatabase, ForeignKey } from './database.ts';

/** How many copies of the template a size holds: of its history, and of its eval runs. */
export interface Size {
  name: string;
  /** Copies of the template's history (verifications, chats, flags, cases), besides the template itself. */
  copies: number;
  /**
   * Older generations of the template's runs, besides its own. Each run replays the cases older than itself, as a
   * run replays the cases that existed when it started: the newest generation all of them, the oldest few.
   */
  runGenerations: number;
}

/** Where a workspace's history starts: these tables, and every table whose rows belong to one of their rows. */
const historyRoots = ['phone_verifications', 'chats', 'flags', 'eval_cases'];
const runs = 'eval_runs';
/** Columns holding another row's id that the schema does not declare as foreign keys. */
const undeclared: ForeignKey[] = [
  { table: 'flags', column: 'message_id', references: 'chat_messages' },
  { table: 'flags', column: 'eval_case_id', references: 'eval_cases' },
  { table: runs, column: 'baseline_run_id', references: runs },
];
/** The span of time the copies spread over, back from the template: inside every retention time, so none is due. */
const spanSeconds = 3 * 86_400;

const isTimestamp = (column: string) => column === 'at' || column.endsWith('_at');
const quoted = (name: string) => `"${name}"`;

/** Tables that hold a foreign key to one of `tables`, found in the catalog, until no more are found. */
function closure(keys: ForeignKey[], tables: string[], except: (table: string) => boolean): Set<string> {
  const found = new Set(tables);
  for (let grew = true; grew;) {
    grew = false;
    for (const key of keys) {
      if (found.has(key.references) && !found.has(key.table) && !except(key.table)) {
        found.add(key.table);
        grew = true;
      }
    }
  }
  return found;
}

/** `tables` with every table after the ones it references by a declared key, so each copy finds the rows it points to. */
function parentsFirst(tables: Set<string>, keys: ForeignKey[]): string[] {
  const ordered: string[] = [];
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table) || path.includes(table)) return;
    for (const key of keys) if (key.table === table && tables.has(key.references)) visit(key.references, [...path, table]);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, []);
  return ordered;
}

/**
 * Multiplies the one workspace the database holds: `copies` copies of its history and `runGenerations` of its runs,
 * each row copied with every column as the code wrote it, read from the catalog, so a column or table added later is
 * copied too. Only ids, the references to copied rows, and timestamps (moved back, copy by copy) are rewritten.
 */
export async function multiply(db: BenchDatabase, { copies, runGenerations }: Size): Promise<void> {
  const declared = await db.foreignKeys();
  const keys = [...declared, ...undeclared];
  const referencesRuns = (table: string) => table !== runs && keys.some((key) => key.table === table && key.references === runs);
  const history = closure(keys, historyRoots, (table) => table === runs || referencesRuns(table));
  const runChildren = new Set(keys.filter((key) => referencesRuns(key.table)).map((key) => key.table));
  const points = (table: string, column: string, into: (target: string) => boolean) =>
    keys.some((key) => key.table === table && key.column === column && into(key.references));

  /** Inserts into `table` its own rows joined with `from`, each column as `rewrite` makes it (unchanged when undefined). */
  async function copy(table: string, from: string, order: string, rewrite: (column: string) => string | undefined) {
    const columns = (await db.columns(table)).filter((column) => !column.generated).map((column) => column.name);
    const values = columns.map((column) => rewrite(column) ?? `t.${quoted(column)}`);
    await db.run(
      `insert into ${table} (${columns.map(quoted).join(', ')}) select ${values.join(', ')} from ${table} t, ${from} order by ${order}, ${await db.insertionOrder(table, 't')}`,
    );
  }

  const highest = Math.max(copies, runGenerations);
  await db.run('create temp table series (n integer primary key)');
  await db.run(`with recursive s(n) as (select 0 union all select n + 1 from s where n < ${highest}) insert into series select n from s`);

  const copyStep = Math.floor(spanSeconds / Math.max(1, copies));
  for (const table of parentsFirst(history, declared)) {
    await copy(table, `series c where c.n between 1 and ${copies}`, 'c.n', (column) => {
      const t = `t.${quoted(column)}`;
      if (column === 'id' || points(table, column, (target) => history.has(target))) return `${t} || '_' || c.n`;
      return isTimestamp(column) ? db.earlier(t, `c.n * ${copyStep}`) : undefined;
    });
  }

  // Generation g of the runs is as old as the copy g * copies / (generations + 1) of the history, and replays the
  // cases of that copy and older: (g, n) for every copy n at least as old, the template being copy 0 and generation 0.
  const generations = runGenerations + 1;
  const runStep = Math.floor(spanSeconds / generations);
  await db.run('create temp table run_copies (g integer, n integer)');
  await db.run(
    `insert into run_copies select g.n, c.n from series g, series c
     where g.n <= ${runGenerations} and c.n <= ${copies} and c.n * ${generations} >= g.n * ${copies} and g.n + c.n > 0`,
  );
  const ofGeneration = (t: string, g: string) => `case when ${g} = 0 then ${t} else ${t} || '_r' || ${g} end`;
  await copy(runs, `series g where g.n between 1 and ${runGenerations}`, 'g.n', (column) => {
    const t = `t.${quoted(column)}`;
    if (column === 'id' || points(runs, column, (target) => target === runs)) return ofGeneration(t, 'g.n');
    return isTimestamp(column) ? db.earlier(t, `g.n * ${runStep}`) : undefined;
  });
  for (const table of parentsFirst(runChildren, declared)) {
    // A row of a run that names no case or chat is copied once per generation; one that does, once per copy it replays.
    const perCase = (await db.columns(table)).some(({ name }) => points(table, name, (target) => history.has(target)));
    const from = perCase ? 'run_copies p' : `(select n as g, 0 as n from series where n between 1 and ${runGenerations}) p`;
    await copy(table, from, 'p.g, p.n', (column) => {
      const t = `t.${quoted(column)}`;
      if (column === 'id') return `${t} || '_r' || p.g || '_' || p.n`;
      if (points(table, column, (target) => target === runs)) return ofGeneration(t, 'p.g');
      if (points(table, column, (target) => history.has(target))) return `case when p.n = 0 then ${t} else ${t} || '_' || p.n end`;
      return isTimestamp(column) ? db.earlier(t, `p.g * ${runStep}`) : undefined;
    });
  }
  await db.run('drop table run_copies');
  await db.run('drop table series');
  await db.analyze();
}
