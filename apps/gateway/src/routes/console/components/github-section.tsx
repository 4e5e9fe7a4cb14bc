import { allows, type GithubLinkView, type Role } from '@svc/domain';
import { githubLinkPath, githubLinksPath } from '../paths.ts';
import { CsrfField } from './csrf-field.tsx';
import { When } from './when.tsx';

export interface GithubSectionProps {
  workspace: string;
  role: Role;
  links: GithubLinkView[];
  csrfToken: string;
}

/**
 * The workspace's GitHub repositories: each one linked, whether the app is installed there, and (for owners and
 * developers) the forms to link and unlink. The app acts only where a repository is both linked and installed.
 */
export function GithubSection({ workspace, role, links, csrfToken }: GithubSectionProps) {
  const csrf = <CsrfField token={csrfToken} />;
  const editable = allows(role, 'linkRepositories');
  return (
    <section aria-labelledby="github" id="github-repositories">
      <h2 id="github">GitHub</h2>
      <p>
        On a linked repository with the svc GitHub App installed, each pull request is deployed to its branch's environment and gets one
        comment with its eval run, and the <code>service-flags</code> issue keeps this workspace's open flags.
      </p>
      {links.length === 0 ? (
        <p className="muted">No repository is linked to {workspace}.</p>
      ) : (
        <table className="stacked">
          <thead>
            <tr>
              <th>Repository</th>
              <th>App</th>
              <th>Linked by</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.repository}>
                <td>
                  <a href={`https://github.com/${link.repository}`}>{link.repository}</a>
                </td>
                <td data-label="App">{link.installed ? 'installed' : 'not installed'}</td>
                <td data-label="Linked by">
                  {link.created_by}, <When at={link.created_at} />
                </td>
                <td>
                  {editable && (
                    <form method="post" action={`${githubLinkPath(workspace, link.repository)}/remove`}>
                      {csrf}
                      <button className="secondary">
                        Unlink<span className="visually-hidden"> {link.repository}</span>
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editable ? (
        <form method="post" action={githubLinksPath(workspace)}>
          {csrf}
          <p>
            <label>
              Repository (owner/name){' '}
              <input name="repository" required placeholder="acme/support-bot" autoComplete="off" spellCheck={false} />
            </label>{' '}
            <button>Link repository</button>
          </p>
        </form>
      ) : (
        <p className="muted">Owners and developers link and unlink repositories.</p>
      )}
      <p className="muted">
        Or from a clone: <code>svc github connect</code>. Then install the svc GitHub App on the repository (its page on GitHub, Install,
        then pick the repository); until it is installed, the repository shows as not installed and the app leaves it alone. A{' '}
        <code>svc.yaml</code> naming this workspace links nothing by itself.
      </p>
    </section>
  );
}
