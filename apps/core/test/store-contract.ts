import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const firstPage = { limit: 50 };
const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/**
 * The behaviour every Store must have. Run against each implementation (SQLite now, Postgres later)
 * so services can rely on it whatever the database.
 */
export function describeStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    const ada = { id: 'usr_ada', email: 'ada@example.com', createdAt: at(0) };
    const bob = { id: 'usr_bob', email: 'bob@example.com', createdAt: at(1) };

    it('finds users by id and email', async () => {
      await store.users.create(ada);
      expect(await store.users.findById('usr_ada')).toEqual(ada);
      expect(await store.users.findByEmail('ada@example.com')).toEqual(ada);
      expect(await store.users.findByEmail('nobody@example.com')).toBeUndefined();
    });

    it('creates a workspace with its owner, and refuses a taken slug without a partial write', async () => {
      await store.users.create(ada);
      await store.users.create(bob);
      const created = await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: 'Acme', createdAt: at(2) }, ada.id);
      expect(created).toEqual({ id: 'ws_1', slug: 'acme', name: 'Acme', createdAt: at(2), role: 'owner' });
      const taken = await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'acme', name: null, createdAt: at(3) }, bob.id);
      expect(taken).toBeUndefined();
      expect(await store.workspaces.listForUser(bob.id)).toEqual([]);
    });

    it("lists only the user's workspaces, by slug, and finds one only for its members", async () => {
      await store.users.create(ada);
      await store.users.create(bob);
      await store.workspaces.createWithOwner({ id: 'ws_b', slug: 'zeta', name: null, createdAt: at(2) }, ada.id);
      await store.workspaces.createWithOwner({ id: 'ws_a', slug: 'alpha', name: null, createdAt: at(3) }, ada.id);
      await store.workspaces.createWithOwner({ id: 'ws_c', slug: 'bobs', name: null, createdAt: at(4) }, bob.id);
      expect((await store.workspaces.listForUser(ada.id)).map((w) => w.slug)).toEqual(['alpha', 'zeta']);
      expect(await store.workspaces.findForUser('bobs', ada.id)).toBeUndefined();
      expect((await store.workspaces.findForUser('bobs', bob.id))?.role).toBe('owner');
      await store.workspaces.addMember('ws_c', ada.id, 'supervisor', at(5));
      expect((await store.workspaces.findForUser('bobs', ada.id))?.role).toBe('supervisor');
      await store.workspaces.addMember('ws_c', ada.id, 'developer', at(6));
      expect((await store.workspaces.findForUser('bobs', ada.id))?.role).toBe('developer');
      expect((await store.workspaces.listForUser(ada.id)).map((w) => [w.slug, w.role])).toEqual([
        ['alpha', 'owner'],
        ['bobs', 'developer'],
        ['zeta', 'owner'],
      ]);
    });

    it('finds active tokens by hash, records use, and stops finding them once revoked', async () => {
      await store.users.create(ada);
      const token = { id: 'tok_1', userId: ada.id, name: 'laptop', tokenHash: 'ab'.repeat(32), createdAt: at(5) };
      await store.developerTokens.create(token);
      expect(await store.developerTokens.findActiveByHash(token.tokenHash)).toMatchObject({
        token: { id: 'tok_1', lastUsedAt: null },
        user: { email: 'ada@example.com' },
      });
      await store.developerTokens.markUsed('tok_1', at(6));
      expect((await store.developerTokens.listForUser(ada.id, firstPage)).items[0]?.lastUsedAt).toBe(at(6));
      expect(await store.developerTokens.revoke('tok_1', 'usr_other', at(7))).toBe(false);
      expect(await store.developerTokens.revoke('tok_1', ada.id, at(7))).toBe(true);
      expect(await store.developerTokens.revoke('tok_1', ada.id, at(8))).toBe(false);
      expect(await store.developerTokens.findActiveByHash(token.tokenHash)).toBeUndefined();
      expect(await store.developerTokens.listForUser(ada.id, firstPage)).toEqual({ items: [], more: false });
    });

    it('pages through tokens oldest first, after the last one seen, ties broken by id, revoked ones left out', async () => {
      await store.users.create(ada);
      const ids = ['tok_a', 'tok_c', 'tok_b', 'tok_d', 'tok_e'];
      for (const [i, id] of ids.entries()) {
        // Two tokens share each creation time: the id orders them.
        await store.developerTokens.create({
          id,
          userId: ada.id,
          name: id,
          tokenHash: id.padEnd(64, '0'),
          createdAt: at(Math.floor(i / 2)),
        });
      }
      await store.developerTokens.revoke('tok_d', ada.id, at(9));
      const first = await store.developerTokens.listForUser(ada.id, { limit: 2 });
      expect([first.items.map((t) => t.id), first.more]).toEqual([['tok_a', 'tok_c'], true]);
      const last = first.items[1]!;
      // A token created meanwhile comes after every earlier one, on a later page: no page shifts.
      await store.developerTokens.create({ id: 'tok_0', userId: ada.id, name: 'new', tokenHash: 'f'.repeat(64), createdAt: at(8) });
      const second = await store.developerTokens.listForUser(ada.id, { limit: 2, after: { key: last.createdAt, id: last.id } });
      expect([second.items.map((t) => t.id), second.more]).toEqual([['tok_b', 'tok_e'], true]);
      const third = await store.developerTokens.listForUser(ada.id, { limit: 2, after: { key: at(2), id: 'tok_e' } });
      expect([third.items.map((t) => t.id), third.more]).toEqual([['tok_0'], false]);
    });

    it('creates one user for an email however many creates run at once, each answered with that user', async () => {
      const created = await Promise.all(
        ['usr_1', 'usr_2', 'usr_3'].map((id) => store.users.create({ id, email: 'new@example.com', createdAt: at(2) })),
      );
      const one = await store.users.findByEmail('new@example.com');
      expect(created).toEqual([one, one, one]);
      expect(await store.users.create({ ...ada, email: 'new@example.com' })).toEqual(one);
    });

    it('gives a slug to one of the workspaces created with it at once', async () => {
      await store.users.create(ada);
      await store.users.create(bob);
      const [forAda, forBob] = await Promise.all([
        store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(2) }, ada.id),
        store.workspaces.createWithOwner({ id: 'ws_2', slug: 'acme', name: null, createdAt: at(2) }, bob.id),
      ]);
      // Either may commit first: one gets the slug, the other nothing, and its owner no workspace.
      expect([forAda, forBob].filter(Boolean)).toHaveLength(1);
      const [winner, loser] = forAda ? [ada, bob] : [bob, ada];
      expect(await store.workspaces.listForUser(winner.id)).toMatchObject([{ slug: 'acme', role: 'owner' }]);
      expect(await store.workspaces.listForUser(loser.id)).toEqual([]);
    });

    it('answers a duplicate key with the domain error conflict, and keeps the first', async () => {
      await store.users.create(ada);
      const token = { id: 'tok_1', userId: ada.id, name: 'laptop', tokenHash: 'ab'.repeat(32), createdAt: at(5) };
      await store.developerTokens.create(token);
      // Sent at once: two clashes, each with the first on another key, neither with the other.
      const [sameHash, sameId] = await Promise.allSettled([
        store.developerTokens.create({ ...token, id: 'tok_2', name: 'desktop' }),
        store.developerTokens.create({ ...token, tokenHash: 'cd'.repeat(32), name: 'phone' }),
      ]);
      for (const clash of [sameHash, sameId]) {
        expect(clash).toMatchObject({ status: 'rejected', reason: { name: 'DomainError', code: 'conflict', status: 409 } });
      }
      expect((await store.developerTokens.listForUser(ada.id, firstPage)).items.map((t) => t.name)).toEqual(['laptop']);
    });
  });
}
