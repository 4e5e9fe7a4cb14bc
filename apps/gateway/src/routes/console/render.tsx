import type { Response } from 'express';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * Sends a page rendered from components, which escape every value they show. Pages show CSRF tokens, codes and
 * account details: no cache may keep them.
 */
export function sendPage(res: Response, page: ReactElement): void {
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(`<!doctype html>${renderToStaticMarkup(page)}`);
}
