/**
 * A production-like backend with the infra-delivery plugin, run as its own process by the
 * reliability tests and the soak (see ../backendProcess.ts): configuration from `--config`,
 * the database (file-backed SQLite or PostgreSQL) as the configuration names it.
 */
import { createBackend } from '@backstage/backend-defaults';
import { infraDeliveryPlugin } from '../../plugin';
import { startOneInstanceAtATime } from '../../startup/startOneInstanceAtATime';
import { answerHeapProbes } from './heapProbe';

answerHeapProbes();
const backend = createBackend();
backend.add(infraDeliveryPlugin);
startOneInstanceAtATime(backend);
