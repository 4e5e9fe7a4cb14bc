/**
 * Lists every function in the apps' sources with its length in lines, longest first: declarations, methods,
 * accessors, constructors, and the arrow functions and function expressions a file assigns or passes (route
 * handlers, callbacks, React components). A nested function is listed on its own and also counts in the lines of
 * the function around it.
 *
 * Run it from the repository's root: `pnpm exec tsx tooling/function-lengths.ts [limit]` prints the functions
 * longer than `limit` lines (all of them without one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One function of a source file, where it starts and how many lines it spans. */
export interface FunctionLength {
  /** Path from the repository's root, with forward slashes. */
  file: string;
  /** The first line of the function (1-based), after its doc comment. */
  line: number;
  /** What the function is called, or where it is passed when it has no name of its own. */
  name: string;
  /** Lines from the function's first line to its last, both included. */
  lines: number;
}

/** The repository's root, from this file's place in it. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The TypeScript sources under each app's `src`, as paths from the repository's root. */
export function appSourceFiles(root = repoRoot): string[] {
  const appsDir = join(root, 'apps');
  return readdirSync(appsDir, { withFileTypes: true })
    .filter((app) => app.isDirectory())
    .flatMap((app) => {
      const src = join(appsDir, app.name, 'src');
      let entries: string[];
      try {
        entries = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        return [];
      }
      return entries
        .filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts'))
        .map((path) => relative(root, join(src, path)).split('\\').join('/'));
    })
    .sort();
}

/** Every function in one source file. */
export function functionsIn(file: string, text: string): FunctionLength[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: first + 1, name: nameOf(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function in the given files (paths from `root`), longest first. */
export function functionLengths(files: string[], root = repoRoot): FunctionLength[] {
  return files
    .flatMap((file) => functionsIn(file, readFileSync(join(root, file), 'utf8')))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

/** One line of the listing: `  212  apps/x/src/y.ts:10  name`. */
export function describe(fn: FunctionLength): string {
  return `${String(fn.lines).padStart(5)}  ${fn.file}:${fn.line}  ${fn.name}`;
}

function isFunction(node: ts.Node): node is ts.SignatureDeclaration & { body: ts.Node } {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/** The function's own name, else the name it is assigned to, else the call it is passed to. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${classNameOf(node, source)}.constructor`;
  if (node.name && !ts.isFunctionExpression(node)) {
    const own = node.name.getText(source);
    return ts.isClassLike(node.parent) ? `${classNameOf(node, source)}.${own}` : own;
  }
  let holder: ts.Node = node.parent;
  // `(fn)`, `fn as X`, `fn!`: look through what only wraps the function.
  while (ts.isParenthesizedExpression(holder) || ts.isAsExpression(holder) || ts.isNonNullExpression(holder)) {
    holder = holder.parent;
  }
  if (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) {
    return holder.name.getText(source);
  }
  if (ts.isBinaryExpression(holder) && holder.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    return holder.left.getText(source);
  }
  if (ts.isCallExpression(holder) || ts.isNewExpression(holder)) return `${calleeOf(holder, source)} callback`;
  // A factory's product: `return (req, res) => {...}`, or `(a) => (b) => {...}`.
  const factory = ts.isReturnStatement(holder) ? ts.findAncestor(holder, isFunction) : holder;
  if (factory && isFunction(factory)) return `${nameOf(factory, source)} returns`;
  if (ts.isFunctionExpression(node) && node.name) return node.name.getText(source);
  return '(anonymous)';
}

/**
 * A call named by what it is called on, its method and the string given earliest in its chain:
 * `routes.get('/x')`, `program…action('publish')` for `program.command('publish').option(…).action(…)`.
 */
function calleeOf(call: ts.CallExpression | ts.NewExpression, source: ts.SourceFile): string {
  let at: ts.Expression = call;
  let hops = 0;
  let label: string | undefined;
  while (ts.isCallExpression(at) || ts.isNewExpression(at) || ts.isPropertyAccessExpression(at)) {
    if (!ts.isPropertyAccessExpression(at)) {
      const first = at.arguments?.[0];
      if (first && ts.isStringLiteralLike(first)) label = first.getText(source);
    }
    at = at.expression;
    hops += 1;
  }
  const method = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : undefined;
  const root = ts.isIdentifier(at) || at.kind === ts.SyntaxKind.ThisKeyword ? at.getText(source) : '…';
  const path = method === undefined ? root : `${root}${hops > 2 ? '…' : '.'}${method}`;
  return `${path}${label === undefined ? '' : `(${label})`}`;
}

/** The name of the class a member belongs to. */
function classNameOf(member: ts.Node, source: ts.SourceFile): string {
  const owner = member.parent;
  return (ts.isClassLike(owner) && owner.name?.getText(source)) || '(class)';
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  // Piped into `head`: the reader has what it wanted once it closes the pipe.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const limit = Number(process.argv[2] ?? 0);
  const listed = functionLengths(appSourceFiles()).filter((fn) => fn.lines > limit);
  process.stdout.write(listed.map((fn) => `${describe(fn)}\n`).join(''));
}
