/**
 * A schema as both dialects can state it, keyed by name so a difference reads as a diff: what the drizzle
 * definitions declare and what a migrated database holds are brought to this one form and compared.
 */
export type SchemaShape = Record<string, TableShape>;

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  /** Indexes and unique constraints (each enforced by a unique index), the primary key's aside. */
  indexes: Record<string, IndexShape>;
  /** Per referencing columns: `table(columns) on delete action`. */
  foreignKeys: Record<string, string>;
}

export interface ColumnShape {
  type: string;
  notNull: boolean;
  default: string | null;
}

export interface IndexShape {
  /** Column names, or expressions in canonical form. */
  terms: string[];
  unique: boolean;
  /** The predicate of a partial index, in canonical form. */
  where: string | null;
}

/**
 * SQL as either dialect prints it, brought to one spelling: lower case, no identifier quotes or table qualifiers,
 * no casts of literals, PostgreSQL's `= ANY (ARRAY[…])` read as `in (…)`, no parentheses. Good enough to compare
 * the short predicates and expressions of indexes and defaults; not a parser.
 */
export function canonicalSql(text: string): string {
  return text
    .toLowerCase()
    .replace(/(["`]?)[a-z_]\w*\1\.(?=["`]?[a-z_])/g, '')
    .replace(/["`]/g, '')
    .replace(/::(character varying|\w+)(\[\])?/g, '')
    .replace(/= any \(array\[(.*?)\]\)/g, 'in ($1)')
    .replace(/[()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const foreignKey = (table: string, columns: string[], onDelete: string) =>
  `${table}(${columns.join(', ')}) on delete ${onDelete.toLowerCase()}`;
