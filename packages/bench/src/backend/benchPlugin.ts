import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import express from 'express';
import Router from 'express-promise-router';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Bench-only plugin, added by the bench's own backend and never by the product's: it answers
 * stored bytes through Backstage's whole middleware stack without touching a database (the
 * "middleware floor"), and reports the process's event-loop delay.
 */
/** How often the stall watch looks, and the lateness it notes (the histogram has the rest). */
const WATCH_INTERVAL_MS = 5;
const NOTED_LATENESS_MS = 20;

/**
 * When the longest stall since the last reset ended, in microseconds of the monotonic clock
 * that V8's CPU profiles use for `startTime` (so `yarn bench:profile <file> --window <from µs>
 * <to µs>` reads exactly the samples of that stall), and how late the watch was.
 */
function watchLongestStall() {
  let longest: { endUs: number; ms: number } | undefined;
  let last = process.hrtime.bigint();
  setInterval(() => {
    const now = process.hrtime.bigint();
    const ms = Number(now - last) / 1e6 - WATCH_INTERVAL_MS;
    last = now;
    if (ms >= NOTED_LATENESS_MS && ms > (longest?.ms ?? 0)) {
      longest = { endUs: Number(now / 1000n), ms };
    }
  }, WATCH_INTERVAL_MS).unref();
  return {
    get: () => longest,
    reset: () => {
      longest = undefined;
    },
  };
}

export const benchPlugin = createBackendPlugin({
  pluginId: 'bench',
  register(env) {
    env.registerInit({
      deps: { httpRouter: coreServices.httpRouter },
      async init({ httpRouter }) {
        const responses = new Map<string, Buffer>();
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const longest = watchLongestStall();

        const router = Router();
        router.put(
          '/responses/:key',
          express.raw({ type: '*/*', limit: '64mb' }),
          (req, res) => {
            responses.set(req.params.key, req.body as Buffer);
            res.status(204).end();
          },
        );
        router.get('/responses/:key', (req, res) => {
          const body = responses.get(req.params.key);
          if (!body) {
            res.status(404).end();
            return;
          }
          res.status(200).type('application/json').send(body);
        });
        // Longest stall since the last reset, and a reset for the next phase.
        router.get('/event-loop', (_req, res) => {
          res.json({
            maxMs: delay.max / 1e6,
            p99Ms: delay.percentile(99) / 1e6,
            meanMs: delay.mean / 1e6,
            longestStall: longest.get(),
          });
        });
        // Where the resident memory is: V8's heap, and what lives outside it (SQLite's page
        // cache and native modules are in rss but in neither).
        router.get('/memory', (_req, res) => {
          const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
          const usage = process.memoryUsage();
          res.json({
            rssMb: mb(usage.rss),
            heapUsedMb: mb(usage.heapUsed),
            heapTotalMb: mb(usage.heapTotal),
            externalMb: mb(usage.external),
            arrayBuffersMb: mb(usage.arrayBuffers),
          });
        });
        router.post('/event-loop/reset', (_req, res) => {
          delay.reset();
          longest.reset();
          res.status(204).end();
        });
        httpRouter.addAuthPolicy({ path: '/', allow: 'unauthenticated' });
        httpRouter.use(router);
      },
    });
  },
});
