import { inboxPath } from '../paths.ts';

export interface InboxFilterValues {
  agent?: string;
  environment?: string;
  /** 'true' for only the chats marked as flagged; a query value, so page links keep it. */
  flagged?: 'true';
}

export interface InboxFiltersProps {
  workspace: string;
  /** The agents and environments to choose from. */
  agents: string[];
  environments: string[];
  current: InboxFilterValues;
}

/** Narrows the inbox: a GET form, so a filtered inbox is a link like any other. */
export function InboxFilters({ workspace, agents, environments, current }: InboxFiltersProps) {
  return (
    <form method="get" action={inboxPath(workspace)} className="filters">
      <label>
        Agent{' '}
        <select name="agent" defaultValue={current.agent ?? ''}>
          <option value="">All agents</option>
          {withCurrent(agents, current.agent).map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </label>
      <label>
        Environment{' '}
        <select name="environment" defaultValue={current.environment ?? ''}>
          <option value="">All environments</option>
          {withCurrent(environments, current.environment).map((e) => (
            <option key={e}>{e}</option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" name="flagged" value="true" defaultChecked={current.flagged === 'true'} /> Flagged only
      </label>
      <button className="secondary">Filter</button>
    </form>
  );
}

/** A filter from a link may name what is no longer deployed: it stays selectable, so the form shows it. */
const withCurrent = (names: string[], current: string | undefined) => (current && !names.includes(current) ? [...names, current] : names);
