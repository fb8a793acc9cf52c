import { mockServices } from '@backstage/backend-test-utils';
import { Project } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { applyDatabaseMigrations, tuneSqlite } from './migrations';
import { createStores, Stores } from './stores';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('keyset pages on %s', databaseId => {
  let knex: Knex;
  let stores: Stores;

  beforeAll(async () => {
    knex = await databases.init(databaseId);
    await tuneSqlite(knex);
    await applyDatabaseMigrations(mockServices.database({ knex }), knex);
    stores = createStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  let organizationCounter = 0;
  async function organization(): Promise<string> {
    organizationCounter += 1;
    const created = await stores.organizations.create({
      name: `keyset-${organizationCounter}`,
    });
    return created.id;
  }

  /** Creates `count` projects one after another and returns them oldest first. */
  async function createProjects(
    organizationId: string,
    count: number,
    prefix = 'p',
  ): Promise<Project[]> {
    const created: Project[] = [];
    for (let i = 0; i < count; i++) {
      created.push(
        await stores.projects.createProject(organizationId, {
          givenId: `${prefix}-${i}`,
          name: `${prefix} ${i}`,
        }),
      );
    }
    return created;
  }

  interface Walk {
    items: Project[];
    pages: KeysetPage<Project>[];
  }

  /** Follows `nextAfterId` from the first page to the last. */
  async function walk(
    organizationId: string,
    limit: number,
    between?: (pageNumber: number) => Promise<void>,
  ): Promise<Walk> {
    const pages: KeysetPage<Project>[] = [];
    let request: KeysetRequest = { limit };
    for (;;) {
      const page = await stores.projects.listProjects(organizationId, request);
      pages.push(page);
      if (!page.nextAfterId) {
        break;
      }
      expect(pages.length).toBeLessThan(1000);
      await between?.(pages.length);
      request = { limit, afterId: page.nextAfterId };
    }
    return { items: pages.flatMap(p => p.items), pages };
  }

  const ids = (projects: Project[]) => projects.map(p => p.id);
  const newestFirst = (projects: Project[]) => ids([...projects].reverse());

  describe('ProjectStore.listProjects', () => {
    let organizationId: string;
    let projects: Project[];

    beforeAll(async () => {
      organizationId = await organization();
      projects = await createProjects(organizationId, 23);
    });

    it.each([1, 2, 5, 7, 22, 23, 24, 500])(
      'returns every row exactly once, newest first, with limit %p',
      async limit => {
        const { items, pages } = await walk(organizationId, limit);

        expect(ids(items)).toEqual(newestFirst(projects));
        expect(new Set(ids(items)).size).toBe(projects.length);
        expect(pages).toHaveLength(Math.ceil(projects.length / limit));
        for (const page of pages) {
          expect(page.totalCount).toBe(projects.length);
        }
        for (const page of pages.slice(0, -1)) {
          expect(page.items).toHaveLength(limit);
          expect(page.nextAfterId).toBe(page.items[page.items.length - 1].id);
        }
        expect(pages[pages.length - 1].nextAfterId).toBeUndefined();
      },
    );

    it('orders by creation: ids and creation times never increase along the walk', async () => {
      const { items } = await walk(organizationId, 4);
      for (let i = 1; i < items.length; i++) {
        expect(items[i - 1].id > items[i].id).toBe(true);
        expect(Date.parse(items[i - 1].createdAt)).toBeGreaterThanOrEqual(
          Date.parse(items[i].createdAt),
        );
      }
    });

    it('answers a page after the oldest row with no rows and the total', async () => {
      const oldest = projects[0];
      const page = await stores.projects.listProjects(organizationId, {
        limit: 5,
        afterId: oldest.id,
      });
      expect(page).toEqual({ items: [], totalCount: projects.length });
    });

    it('answers an empty organization with an empty last page', async () => {
      const page = await stores.projects.listProjects(await organization(), {
        limit: 5,
      });
      expect(page).toEqual({ items: [], totalCount: 0 });
    });
  });

  describe('with rows inserted between page fetches', () => {
    it('neither shows the new rows on later pages nor repeats or skips old ones', async () => {
      const organizationId = await organization();
      const original = await createProjects(organizationId, 17, 'old');
      const inserted: Project[] = [];

      const { items, pages } = await walk(organizationId, 5, async page => {
        inserted.push(
          ...(await createProjects(organizationId, 2, `new${page}`)),
        );
      });

      expect(inserted.length).toBeGreaterThan(0);
      expect(ids(items)).toEqual(newestFirst(original));
      for (const project of inserted) {
        expect(ids(items)).not.toContain(project.id);
      }
      // The count is taken with each page: it includes what was inserted before it.
      expect(pages.map(p => p.totalCount)).toEqual(
        pages.map((_, index) => original.length + 2 * index),
      );

      // A walk started afterwards sees the new rows first, then the old ones, each once.
      const again = await walk(organizationId, 5);
      expect(ids(again.items)).toEqual([
        ...newestFirst(inserted),
        ...newestFirst(original),
      ]);
      expect(again.pages[0].totalCount).toBe(original.length + inserted.length);
    });

    it('keeps walking correctly when rows already returned are deleted', async () => {
      const organizationId = await organization();
      const original = await createProjects(organizationId, 12, 'kept');

      const { items } = await walk(organizationId, 4, async () => {
        // The newest remaining row was returned already; deleting it moves nothing.
        const [newest] = (
          await stores.projects.listProjects(organizationId, { limit: 1 })
        ).items;
        await stores.projects.deleteProject(organizationId, newest.id);
      });

      expect(ids(items)).toEqual(newestFirst(original));
    });
  });

  describe('organization scoping', () => {
    it("never returns another organization's rows", async () => {
      const [first, second, third] = [
        await organization(),
        await organization(),
        await organization(),
      ];
      // Interleave the organizations' rows so their ids alternate.
      const byOrganization = new Map<string, Project[]>([
        [first, []],
        [second, []],
        [third, []],
      ]);
      for (let i = 0; i < 9; i++) {
        for (const [organizationId, list] of byOrganization) {
          list.push(
            await stores.projects.createProject(organizationId, {
              givenId: `shared-${i}`,
              name: `Shared ${i}`,
            }),
          );
        }
      }

      for (const [organizationId, list] of byOrganization) {
        for (const limit of [1, 4, 9, 50]) {
          const { items, pages } = await walk(organizationId, limit);
          expect(ids(items)).toEqual(newestFirst(list));
          expect(items.every(p => p.organizationId === organizationId)).toBe(
            true,
          );
          expect(pages.every(p => p.totalCount === list.length)).toBe(true);
        }
      }
    });

    it("continues after another organization's id without reaching its rows", async () => {
      const mine = await organization();
      const theirs = await organization();
      const myProjects = await createProjects(mine, 3, 'mine');
      const theirProjects = await createProjects(theirs, 3, 'theirs');
      // Their newest id is newer than all of mine: every row of mine comes after it.
      const page = await stores.projects.listProjects(mine, {
        limit: 10,
        afterId: theirProjects[2].id,
      });
      expect(ids(page.items)).toEqual(newestFirst(myProjects));
      expect(page.items.every(p => p.organizationId === mine)).toBe(true);
      expect(page.totalCount).toBe(myProjects.length);
    });
  });

  describe('keysetPage in ascending order', () => {
    it('walks oldest first, every row once', async () => {
      const organizationId = await organization();
      const projects = await createProjects(organizationId, 11, 'asc');
      const seen: string[] = [];
      let afterId: string | undefined;
      do {
        const page: KeysetPage<string> = await keysetPage(
          knex('projects').where({ organization_id: organizationId }),
          'id',
          { limit: 3, afterId },
          (row: { id: string }) => row.id,
          'asc',
        );
        expect(page.totalCount).toBe(projects.length);
        seen.push(...page.items);
        afterId = page.nextAfterId;
      } while (afterId);
      expect(seen).toEqual(ids(projects));
    });
  });
});
