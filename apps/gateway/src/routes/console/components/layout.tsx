import type { ReactNode } from 'react';
import { faviconPath, stylesheetPath } from '../stylesheet.ts';
import type { Viewer } from '../viewer.ts';
import { Header } from './header.tsx';

export interface LayoutProps {
  title: string;
  /** The signed-in person; pages before sign-in and the dev pages have none. */
  viewer?: Viewer;
  /** The slug of the workspace the page belongs to, marked in the workspace switcher. */
  workspace?: string;
  children: ReactNode;
}

/** Every console page: the document, the header, and the page's own content. */
export function Layout({ title, viewer, workspace, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · svc`}</title>
        <link rel="stylesheet" href={stylesheetPath} />
        <link rel="icon" type="image/svg+xml" href={faviconPath} />
      </head>
      <body>
        <Header viewer={viewer} workspace={workspace} />
        <main>{children}</main>
      </body>
    </html>
  );
}
