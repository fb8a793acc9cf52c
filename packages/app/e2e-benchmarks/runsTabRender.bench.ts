import { expect, Page, test } from '@playwright/test';

/**
 * How long the Pipeline runs tab takes to render when the entity's stacks have 1,000 runs,
 * in Chromium against the production build. The list endpoint is answered by the page
 * (page.route) from 1,000 generated runs, so that only the frontend is measured; everything
 * else comes from the real backend. The component marks `loaded` when a page of runs arrives
 * and measures `render` until the rows are in the DOM (see renderTiming.ts).
 */

const RUNS = 1_000;
const REPEATS = 7;
const RENDER_MEASURE = 'infra-delivery:pipeline-runs:render';
const TAB = '/catalog/default/component/payments-api/infra-runs';
const STATUSES = ['SUCCEEDED', 'FAILED', 'RUNNING', 'QUEUED', 'CANCELLED'];

function generatedRuns(stackIds: string[]) {
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  return Array.from({ length: RUNS }, (_, i) => {
    const at = new Date(base - i * 60_000).toISOString();
    return {
      id: `bench-run-${String(i).padStart(4, '0')}`,
      organizationId: 'bench-org',
      pipelineId: `bench-pipeline-${i % 20}`,
      pipelineVersionId: `bench-version-${i % 20}`,
      attachedEntityId: stackIds[i % stackIds.length],
      description: `Change ${RUNS - i}: adjust the alarms of service ${i % 37}`,
      status: STATUSES[i % STATUSES.length],
      attemptEpoch: 1 + (i % 3),
      isCancellable: i % STATUSES.length >= 2,
      createdAt: at,
      updatedAt: at,
      ...(i % 10 === 3 ? { queueReason: 'Waiting for a runner' } : {}),
    };
  });
}

/** Answers the runs list: page by page (`paged`) or every run in one answer (`all`). */
async function serveRuns(page: Page, mode: 'paged' | 'all') {
  await page.route(/\/api\/infra-delivery\/pipeline-runs\?/, async route => {
    const url = new URL(route.request().url());
    const runs = generatedRuns(url.searchParams.getAll('attachedEntityId'));
    const limit = mode === 'all' ? RUNS : Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('cursor') ?? 0);
    const next = offset + limit < RUNS ? String(offset + limit) : null;
    await route.fulfill({
      json: {
        data: runs.slice(offset, offset + limit),
        meta: { limit, nextCursor: next, totalCount: RUNS },
      },
    });
  });
}

async function renderMillis(page: Page): Promise<number> {
  const handle = await page.waitForFunction(name => {
    const [entry] = performance.getEntriesByName(name, 'measure');
    return entry ? entry.duration : undefined;
  }, RENDER_MEASURE);
  return (await handle.jsonValue()) as number;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `median ${median.toFixed(1)} ms (min ${sorted[0].toFixed(
    1,
  )}, max ${sorted[sorted.length - 1].toFixed(1)}, n=${sorted.length})`;
}

async function openTab(page: Page) {
  await page.goto(TAB);
  // The guest sign-in comes first on a new session; afterwards the portal signs in by itself.
  const enter = page.getByRole('button', { name: 'Enter' });
  const tab = page.getByText(/^Pipeline runs \(/);
  await expect(enter.or(tab).first()).toBeVisible();
  if (await enter.isVisible()) {
    await enter.click();
  }
}

test('render time of the Pipeline runs tab with 1,000 runs', async ({
  page,
}) => {
  const lines: string[] = [];

  // As shipped: the newest page of 50, then walking to the oldest run.
  await serveRuns(page, 'paged');
  const firstPage: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    await openTab(page);
    await expect(page.getByText(`Runs 1–50 of ${RUNS}`)).toBeVisible();
    firstPage.push(await renderMillis(page));
  }
  const laterPages: number[] = [];
  for (let p = 2; p <= RUNS / 50; p++) {
    await page.evaluate(
      name => performance.clearMeasures(name),
      RENDER_MEASURE,
    );
    await page.getByRole('button', { name: 'Older' }).click();
    await expect(
      page.getByText(`Runs ${(p - 1) * 50 + 1}–${p * 50} of ${RUNS}`),
    ).toBeVisible();
    laterPages.push(await renderMillis(page));
  }
  lines.push(`paged by 50, first page: ${summary(firstPage)}`);
  lines.push(`paged by 50, pages 2..20: ${summary(laterPages)}`);

  // The whole list in one table, as the tab would render it without paging.
  await page.unrouteAll();
  await serveRuns(page, 'all');
  const allRuns: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    await openTab(page);
    await expect(page.getByText(`Change 1: adjust`)).toBeVisible();
    allRuns.push(await renderMillis(page));
  }
  lines.push(`all 1,000 in one table: ${summary(allRuns)}`);

  // eslint-disable-next-line no-console
  console.log(
    `\nPipeline runs tab, 1,000 runs (Chromium, production build):\n  ${lines.join(
      '\n  ',
    )}`,
  );
});
