import Database from 'better-sqlite3';

export const knowledgeToolName = 'search_knowledge';

export interface KnowledgeHit {
  path: string;
  text: string;
}

/** Paragraphs are what a lookup returns: a whole file is too much context, a line too little. */
function paragraphs(content: string): string[] {
  return content
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !(/^#+\s/.test(p) && !p.includes('\n')));
}

/** Words of the query as FTS5 terms, OR-ed: punctuation in a visitor's question must not be FTS syntax. */
function ftsQuery(query: string): string | undefined {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return words.length ? [...new Set(words)].map((w) => `"${w}"`).join(' OR ') : undefined;
}

/** An agent's knowledge files, indexed with SQLite FTS5 (in memory) and ranked by BM25. */
export class KnowledgeIndex {
  private readonly db = new Database(':memory:');
  /** Whether there is nothing to search: the agent gets no search tool. */
  readonly empty: boolean;

  constructor(files: { path: string; content: string }[]) {
    this.db.exec("CREATE VIRTUAL TABLE chunks USING fts5(path UNINDEXED, text, tokenize = 'porter unicode61')");
    const insert = this.db.prepare('INSERT INTO chunks (path, text) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const file of files) for (const text of paragraphs(file.content)) insert.run(file.path, text);
    })();
    this.empty = (this.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n === 0;
  }

  search(query: string, limit = 3): KnowledgeHit[] {
    const match = ftsQuery(query);
    if (!match) return [];
    return this.db
      .prepare('SELECT path, text FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks) LIMIT ?')
      .all(match, limit) as KnowledgeHit[];
  }
}
