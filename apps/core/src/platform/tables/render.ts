import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { Column, Index, Sql, type Dialect, type Table } from './define.ts';

/** A domain's tables as its `tables.ts` exports them, and the source they are read from (for their comments). */
export interface DomainTables {
  readonly name: string;
  readonly path: string;
  readonly exports: Record<string, unknown>;
}

/** A table with the name it is exported under. */
interface Named {
  readonly exportName: string;
  readonly table: Table;
  readonly domain: DomainTables;
}

const drizzleTable: Record<Dialect, string> = { sqlite: 'sqliteTable', postgres: 'pgTable' };
const drizzleModule: Record<Dialect, string> = { sqlite: 'drizzle-orm/sqlite-core', postgres: 'drizzle-orm/pg-core' };
const store: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The drizzle call that makes a column of `kind` in `dialect`, and the builder it imports. */
function columnCall(column: Column, dialect: Dialect): { call: string; builder: string } {
  const name = quote(column.name);
  const values = column.values ? `, { enum: [${column.values.map(quote).join(', ')}] }` : '';
  switch (column.kind) {
    case 'text':
      return { call: `text(${name}${values})`, builder: 'text' };
    case 'integer':
      return { call: `integer(${name})`, builder: 'integer' };
    case 'bigint':
      return dialect === 'sqlite'
        ? { call: `integer(${name})`, builder: 'integer' }
        : { call: `bigint(${name}, { mode: 'number' })`, builder: 'bigint' };
    case 'boolean':
      return dialect === 'sqlite'
        ? { call: `integer(${name}, { mode: 'boolean' })`, builder: 'integer' }
        : { call: `boolean(${name})`, builder: 'boolean' };
    case 'bigserial':
      if (dialect === 'sqlite') throw new Error(`bigserial ${column.name}: SQLite has none (mark it .only('postgres'))`);
      return { call: `bigserial(${name}, { mode: 'number' })`, builder: 'bigserial' };
  }
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function literal(value: string | number | boolean): string {
  return typeof value === 'string' ? quote(value) : String(value);
}

const inDialect = (dialect: Dialect) => (item: { dialect: Dialect | undefined }) => item.dialect === undefined || item.dialect === dialect;

/** The comments written above each table, column, index list and index of a `tables.ts`, by `table[.key|#index]`. */
function commentsOf(path: string): Map<string, string[]> {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const comments = new Map<string, string[]>();
  const keep = (key: string, node: ts.Node) => {
    const attached: string[] = [];
    let next = node.getStart();
    // The comments right above the node: a blank line ends them (the file's own comment is not the first table's).
    for (const range of (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).reverse()) {
      if (text.slice(range.end, next).split('\n').length > 2) break;
      attached.unshift(reindent(text.slice(range.pos, range.end)));
      next = range.pos;
    }
    if (attached.length > 0) comments.set(key, attached);
  };
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const call = declaration.initializer;
      if (!ts.isIdentifier(declaration.name) || !call || !ts.isCallExpression(call)) continue;
      const name = declaration.name.text;
      keep(name, statement);
      const description = call.arguments[1];
      if (!description || !ts.isObjectLiteralExpression(description)) continue;
      for (const property of description.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
        const value = property.initializer;
        if (property.name.text === 'columns' && ts.isObjectLiteralExpression(value)) {
          for (const column of value.properties)
            if (column.name && ts.isIdentifier(column.name)) keep(`${name}.${column.name.text}`, column);
        } else if (property.name.text === 'indexes') {
          keep(`${name}.indexes`, property);
          if (ts.isArrowFunction(value) && ts.isArrayLiteralExpression(value.body)) {
            value.body.elements.forEach((element, i) => keep(`${name}#${i}`, element));
          }
        }
      }
    }
  }
  return comments;
}

/** A comment's lines without the indentation of its source, so that it can be written at any depth. */
function reindent(comment: string): string {
  return comment
    .split('\n')
    .map((line, i) => (i === 0 ? line.trim() : ` ${line.trim()}`))
    .join('\n');
}

/** The tables of every domain, in the order the domains are given and each domain writes them. */
function namedTables(domains: readonly DomainTables[]): Named[] {
  return domains.flatMap((domain) =>
    Object.entries(domain.exports)
      .filter((entry): entry is [string, Table] => isTable(entry[1]))
      .map(([exportName, table]) => ({ exportName, table, domain }))
      .sort((a, b) => a.table.order - b.table.order),
  );
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && 'columns' in value && 'indexes' in value && 'order' in value;
}

/**
 * The drizzle schema module of `dialect` for the tables of `domains`, not yet formatted: a table per `export const`,
 * with the comments of its description.
 */
export function renderSchema(domains: readonly DomainTables[], dialect: Dialect): string {
  const tables = namedTables(domains);
  const targets = new Map<string, string>();
  for (const { exportName, table } of tables) {
    for (const [key, column] of Object.entries(table.columns)) {
      if (inDialect(dialect)(column)) targets.set(`${table.name}.${column.name}`, `${exportName}.${key}`);
    }
  }
  const builders = new Set<string>([drizzleTable[dialect]]);
  let usesSql = false;

  const renderColumn = (column: Column): string => {
    const { call, builder } = columnCall(column, dialect);
    builders.add(builder);
    let out = call;
    if (column.isPrimaryKey) out += '.primaryKey()';
    if (column.isNotNull) out += '.notNull()';
    if (column.isUnique) out += '.unique()';
    if (column.defaultValue !== undefined) out += `.default(${literal(column.defaultValue)})`;
    if (column.reference) {
      const target = targets.get(column.reference.target);
      if (!target) throw new Error(`${column.name} references ${column.reference.target}, which no table has`);
      const onDelete = column.reference.onDelete ? `, { onDelete: ${quote(column.reference.onDelete)} }` : '';
      out += `.references(() => ${target}${onDelete})`;
    }
    return out;
  };

  const renderTable = ({ exportName, table }: Named, comments: Map<string, string[]>): string => {
    const keys = new Map<Column, string>(Object.entries(table.columns).map(([key, column]) => [column, key]));
    const ref = (column: Column): string => {
      const key = keys.get(column);
      if (!key || !inDialect(dialect)(column)) throw new Error(`${table.name}: an index names a column it does not have`);
      return `t.${key}`;
    };
    const renderSql = (expression: Sql): string => {
      usesSql = true;
      const parts = expression.strings.map((part, i) => {
        const escaped = part.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
        return i < expression.columns.length ? `${escaped}\${${ref(expression.columns[i]!)}}` : escaped;
      });
      return `sql\`${parts.join('')}\``;
    };
    const renderIndex = (index: Index): string => {
      const parts = index.parts.map((part) => (part instanceof Sql ? renderSql(part) : ref(part)));
      builders.add(index.kind);
      if (index.kind === 'primaryKey') return `primaryKey({ columns: [${parts.join(', ')}] })`;
      const where = index.condition ? `.where(${renderSql(index.condition)})` : '';
      return `${index.kind}(${quote(index.name!)}).on(${parts.join(', ')})${where}`;
    };
    const above = (key: string, indent: string) => (comments.get(key) ?? []).map((comment) => `${indent}${comment}\n`).join('');

    const columns = Object.entries(table.columns)
      .filter(([, column]) => inDialect(dialect)(column))
      .map(([key, column]) => `${above(`${exportName}.${key}`, '  ')}  ${key}: ${renderColumn(column)},\n`)
      .join('');
    const indexes = table.indexes
      .map((index, i) => ({ index, i }))
      .filter(({ index }) => inDialect(dialect)(index))
      .map(({ index, i }) => `${above(`${exportName}#${i}`, '    ')}    ${renderIndex(index)},\n`)
      .join('');
    const extra = indexes ? `,\n${above(`${exportName}.indexes`, '  ')}  (t) => [\n${indexes}  ]` : '';
    return `${above(exportName, '')}export const ${exportName} = ${drizzleTable[dialect]}(${quote(table.name)}, {\n${columns}}${extra});\n`;
  };

  const sections = domains.map((domain) => {
    const comments = commentsOf(domain.path);
    const body = tables
      .filter((named) => named.domain === domain)
      .map((named) => renderTable(named, comments))
      .join('\n');
    return `// ${domain.name}: src/${domain.name}/tables.ts\n\n${body}`;
  });

  const imports = [...builders].sort((a, b) => a.localeCompare(b)).join(', ');
  return [
    '// Generated from the tables of src/<domain>/tables.ts by `pnpm db:generate` (scripts/generate-schema.ts): edit those,',
    `// then generate. The ${store[dialect]} store's tables; timestamps are ISO 8601 UTC strings, which sort as text.`,
    '',
    ...(usesSql ? ["import { sql } from 'drizzle-orm';"] : []),
    `import { ${imports} } from '${drizzleModule[dialect]}';`,
    '',
    sections.join('\n'),
  ].join('\n');
}
