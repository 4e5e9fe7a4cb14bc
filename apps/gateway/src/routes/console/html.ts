import type { Response } from 'express';

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof Html ? v.value : escape(String(v)))).join('')
      : value instanceof Html
        ? value.value
        : escape(String(value ?? ''));
    out += rendered + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** The console's one stylesheet, served at `stylesheetPath`: the pages' policy allows no inline style. */
export const stylesheet = `body{font:16px/1.5 system-ui,sans-serif;color:#111;max-width:640px;margin:3rem auto;padding:0 1rem}
h1{font-size:1.5rem}code,.code{font-family:ui-monospace,monospace}.code{font-size:2rem;letter-spacing:.2em;margin:1rem 0}
button,input[type=submit]{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #111;background:#111;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#111}input[type=text],input[type=email]{font:inherit;padding:.45rem;width:18rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.muted{color:#555}.error{color:#a00}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem;margin-bottom:1.5rem}nav form{margin-left:auto}.mail{white-space:pre-wrap}`;
export const stylesheetPath = '/console.css';

export function page(title: string, body: Html, nav?: { email: string; csrf: string }): string {
  const header = nav
    ? html`<nav>
        <a href="/">svc</a><a href="/tokens">Tokens</a><span class="muted">${nav.email}</span>
        <form method="post" action="/logout">
          <input type="hidden" name="csrf_token" value="${nav.csrf}" /><button class="secondary">Sign out</button>
        </form>
      </nav>`
    : html``;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escape(title)} · svc</title><link rel="stylesheet" href="${stylesheetPath}"></head>
<body>${header}${body}</body></html>`;
}

/** Sends a page. Pages show CSRF tokens, codes and account details: no cache may keep them. */
export function sendPage(res: Response, document: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(document);
}
