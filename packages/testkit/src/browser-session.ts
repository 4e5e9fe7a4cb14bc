/** A cookie-keeping HTTP client that behaves like a browser for server-rendered forms (no redirects followed). */
export class BrowserSession {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private remember(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /max-age=0/i.test(header)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string, method: 'GET' | 'HEAD' = 'GET'): Promise<{ status: number; location: string | null; body: string }> {
    const response = await fetch(new URL(path, this.baseUrl), { method, redirect: 'manual', headers: { cookie: this.cookieHeader() } });
    this.remember(response);
    return { status: response.status, location: response.headers.get('location'), body: await response.text() };
  }

  /** Submits a form as a browser does: url-encoded fields, cookies sent. */
  async post(path: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; body: string }> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    this.remember(response);
    return { status: response.status, location: response.headers.get('location'), body: await response.text() };
  }
}

/** The value of a hidden form field in a page. */
export function formField(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!match?.[1]) throw new Error(`no field ${name} in the page`);
  return match[1];
}
